"""Figures of a :class:`tcdoc.bench.Sweep`: time against size, and bandwidth against the copy limit.

The only module of :mod:`tcdoc.bench` that imports matplotlib (``pip install tcdoc[plot]``);
``tcdoc.bench.plot_time`` and ``tcdoc.bench.plot_bandwidth`` load it on first use.

>>> import tcdoc.bench
>>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["clone"], min_run_time=0.001)
>>> ax = tcdoc.bench.plot_time(sweep)
>>> [line.get_label() for line in ax.get_lines()]
['x.clone()']
>>> import matplotlib.pyplot as plt
>>> plt.close(ax.figure)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.ticker import NullLocator

from tcdoc.bench._results import Sweep, format_size

__all__ = ["plot_bandwidth", "plot_time"]


def plot_time(sweep: Sweep, ax: Axes | None = None) -> Axes:
    """Draw each method's median time against the source size, on log-log axes.

    Parameters
    ----------
    sweep
        What :func:`tcdoc.bench.run` measured.
    ax
        Where to draw; a new figure when ``None``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    """
    ax = _axes(sweep, ax)
    for color, method in zip(_colors(), sweep.methods, strict=False):
        costs = sweep.of(method)
        ax.plot(
            [c.nbytes for c in costs],
            [c.seconds for c in costs],
            marker="o",
            color=color,
            label=costs[0].code,
        )
    ax.set_ylabel("median time per call (s)")
    ax.set_title(f"Time of one copy ({sweep.machine.device})")
    ax.legend(fontsize="small")
    return ax


def plot_bandwidth(sweep: Sweep, ax: Axes | None = None) -> Axes:
    """Draw each method's achieved bandwidth against the source size, with the copy limit.

    A method that allocated nothing moved no bytes, so it has no line here.

    Parameters
    ----------
    sweep
        What :func:`tcdoc.bench.run` measured.
    ax
        Where to draw; a new figure when ``None``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    """
    ax = _axes(sweep, ax)
    for color, method in zip(_colors(), sweep.methods, strict=False):
        costs = [c for c in sweep.of(method) if c.bytes_moved > 0]
        if costs:
            ax.plot(
                [c.nbytes for c in costs],
                [c.bandwidth / 1e9 for c in costs],
                marker="o",
                color=color,
                label=costs[0].code,
            )
    ax.axhline(
        sweep.limit.bandwidth / 1e9,
        color="black",
        linestyle="--",
        label=f"copy limit, {sweep.limit.bandwidth / 1e9:.2f} GB/s",
    )
    ax.set_ylabel("bytes read + written per second (GB/s)")
    ax.set_title(f"Achieved bandwidth ({sweep.machine.device})")
    ax.legend(fontsize="small")
    return ax


def _colors() -> Iterator[str]:
    """Give each method the same color in every figure, whether or not it has a line there."""
    return (f"C{i % 10}" for i in itertools.count())


def _axes(sweep: Sweep, ax: Axes | None) -> Axes:
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a tcdoc.bench.Sweep, got {type(sweep).__name__}")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    elif not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sweep.sizes, [format_size(n) for n in sweep.sizes])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("size of x")
    ax.grid(True, which="major", alpha=0.3)
    return ax
