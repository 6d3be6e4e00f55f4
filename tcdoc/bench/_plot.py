"""Figures of a :class:`tcdoc.bench.Sweep`: time against size, and bandwidth against the copy limit.

The only module of :mod:`tcdoc.bench` that imports matplotlib (``pip install tcdoc[plot]``);
``tcdoc.bench.plot_time`` and ``tcdoc.bench.plot_bandwidth`` load it on first use. Each point is
a median, and its bar spans ``median ± IQR/2``, the spread that the tables show.

>>> import tcdoc.bench
>>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["clone"], min_run_time=0.001, blocks=5)
>>> ax = tcdoc.bench.plot_time(sweep)
>>> ax.get_legend_handles_labels()[1]
['x.clone()']
>>> import matplotlib.pyplot as plt
>>> plt.close(ax.figure)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.ticker import NullLocator

from tcdoc.bench._results import METHODS, Cost, Sweep, format_size

__all__ = ["plot_bandwidth", "plot_time"]


def plot_time(sweep: Sweep, ax: Axes | None = None, methods: Iterable[str] | None = None) -> Axes:
    """Draw each method's median time against the source size, on log-log axes, with its spread.

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
    ends = []
    for method in _methods(sweep, methods):
        costs = sweep.of(method)
        ends += _errorbar(ax, costs, [c.seconds for c in costs], [c.interval for c in costs], method)
    _fit(ax, ends)
    ax.set_ylabel("time per call (s): median, bar ± IQR/2")
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
    ends = [limit.bandwidth / 1e9]
    for method in _methods(sweep, methods):
        costs = [c for c in sweep.of(method) if c.bytes_moved > 0]
        if costs:
            gigabytes = [(low / 1e9, high / 1e9) for low, high in (c.bandwidth_interval for c in costs)]
            ends += _errorbar(ax, costs, [c.bandwidth / 1e9 for c in costs], gigabytes, method)
    _fit(ax, ends)
    low, high = limit.bandwidth_interval
    ax.axhspan(low / 1e9, min(high, 10 * limit.bandwidth) / 1e9, color="black", alpha=0.1, linewidth=0)
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
) -> list[float]:
    """Draw a method's medians with bars over their spreads; return the values and the ends drawn.

    A spread that reaches zero (or, for a bandwidth, infinity) has no end on a log axis: its bar
    runs off the axes, whose limits :func:`_fit` sets from the ends that exist.
    """
    below = [
        value - low if low > 0 else value * (1 - 1e-6) for value, (low, _) in zip(values, spans, strict=True)
    ]
    above = [
        high - value if math.isfinite(high) else 1e6 * value
        for value, (_, high) in zip(values, spans, strict=True)
    ]
    ax.errorbar(
        [c.nbytes for c in costs],
        values,
        yerr=[below, above],
        marker="o",
        capsize=3,
        color=_color(method),
        label=costs[0].code,
    )
    return [
        *values,
        *(low for low, _ in spans if low > 0),
        *(high for _, high in spans if math.isfinite(high)),
    ]


def _fit(ax: Axes, ends: list[float]) -> None:
    """Set the y limits around the medians and the spreads' ends that exist."""
    if ends:
        ax.set_ylim(min(ends) / 1.5, max(ends) * 1.5)


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
