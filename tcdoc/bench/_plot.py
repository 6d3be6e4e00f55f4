"""Figures of a :class:`tcdoc.bench.Sweep`: time against size, and bandwidth against the copy limit.

The only module of :mod:`tcdoc.bench` that imports matplotlib (``pip install tcdoc[plot]``);
``tcdoc.bench.plot_time`` and ``tcdoc.bench.plot_bandwidth`` load it on first use. Each point is
a median, and its bar spans the quartiles ``[q1, q3]`` of the blocks, the spread that the tables
show.

>>> import tcdoc.bench
>>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["clone"], min_run_time=0.001, blocks=5)
>>> ax = tcdoc.bench.plot_time(sweep)
>>> ax.get_legend_handles_labels()[1]
['x.clone()']
>>> import matplotlib.pyplot as plt
>>> plt.close(ax.figure)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.ticker import NullLocator

from tcdoc.bench._format import format_size
from tcdoc.bench._methods import METHODS
from tcdoc.bench._results import Cost, Sweep

__all__ = ["plot_bandwidth", "plot_time"]


def plot_time(sweep: Sweep, ax: Axes | None = None, methods: Iterable[str] | None = None) -> Axes:
    """Draw each method's median time against the source size, on log-log axes, with its quartiles.

    Parameters
    ----------
    sweep
        What :func:`tcdoc.bench.run` measured.
    ax
        Where to draw; a new figure when ``None``.
    methods
        The methods to draw, from :attr:`Sweep.methods`; all of them when ``None``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    """
    ax = _axes(sweep, ax)
    for method in _methods(sweep, methods):
        costs = sweep.of(method)
        _errorbar(ax, costs, [c.seconds for c in costs], [c.interval for c in costs], method)
    ax.set_ylabel("time per call (s): median, bar [q1, q3]")
    ax.set_title(f"Time of one call ({_where(sweep)})")
    ax.legend(fontsize="small")
    return ax


def plot_bandwidth(sweep: Sweep, ax: Axes | None = None, methods: Iterable[str] | None = None) -> Axes:
    """Draw each method's achieved bandwidth against the source size, with the copy limit.

    A method that copies nothing moves no bytes, so it has no line here. The copy limit is a
    dashed line, in a band that spans its spread.

    Parameters
    ----------
    sweep
        What :func:`tcdoc.bench.run` measured.
    ax
        Where to draw; a new figure when ``None``.
    methods
        The methods to draw, from :attr:`Sweep.methods`; all of them when ``None``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    """
    ax = _axes(sweep, ax)
    limit = sweep.limit
    for method in _methods(sweep, methods):
        costs = [c for c in sweep.of(method) if c.bytes_moved > 0]
        if costs:
            gigabytes = [(low / 1e9, high / 1e9) for low, high in (c.bandwidth_interval for c in costs)]
            _errorbar(ax, costs, [c.bandwidth / 1e9 for c in costs], gigabytes, method)
    low, high = limit.bandwidth_interval
    ax.axhspan(low / 1e9, high / 1e9, color="black", alpha=0.1, linewidth=0)
    ax.axhline(
        limit.bandwidth / 1e9,
        color="black",
        linestyle="--",
        label=f"copy limit ({limit.code} at {format_size(limit.nbytes)}), {limit.bandwidth / 1e9:.2f} GB/s",
    )
    ax.set_ylabel("bytes read + written per second (GB/s)")
    ax.set_title(f"Achieved bandwidth ({_where(sweep)})")
    ax.legend(fontsize="small")
    return ax


def _errorbar(
    ax: Axes,
    costs: Sequence[Cost],
    values: Sequence[float],
    spans: Sequence[tuple[float, float]],
    method: str,
) -> None:
    """Draw a method's medians, each with a bar over its spread (``spans``: low and high ends)."""
    below = [value - low for value, (low, _) in zip(values, spans, strict=True)]
    above = [high - value for value, (_, high) in zip(values, spans, strict=True)]
    ax.errorbar(
        [c.nbytes for c in costs],
        values,
        yerr=[below, above],
        marker="o",
        capsize=3,
        color=_color(method),
        label=costs[0].code,
    )


def _where(sweep: Sweep) -> str:
    threads = sweep.machine.threads
    return f"{sweep.machine.device}, {threads} thread{'' if threads == 1 else 's'}"


def _color(method: str) -> str:
    """Give each method the same color in every figure, whether or not it has a line there."""
    return f"C{METHODS.index(method) % 10}"


def _methods(sweep: Sweep, methods: Iterable[str] | None) -> tuple[str, ...]:
    if methods is None:
        return sweep.methods
    if isinstance(methods, str) or not isinstance(methods, Iterable):
        raise TypeError(f"methods must be an iterable of method names or None, got {type(methods).__name__}")
    chosen = tuple(methods)
    for method in chosen:
        if method not in sweep.methods:
            raise ValueError(
                f"methods must be among this sweep's ({', '.join(sweep.methods)}); got {method!r}"
            )
    return chosen


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
