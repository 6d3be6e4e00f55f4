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

from collections.abc import Callable, Iterable, Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from tcdoc._locale import translator
from tcdoc.bench._format import format_size
from tcdoc.bench._methods import METHODS
from tcdoc.bench._results import Cost, Sweep
from tcdoc.draw._render import remember, use_cjk_font

__all__ = ["plot_bandwidth", "plot_time"]


def plot_time(
    sweep: Sweep, ax: Axes | None = None, methods: Iterable[str] | None = None, language: str = "en"
) -> Axes:
    """Draw each method's median time against the source size, on log-log axes, with its quartiles.

    Parameters
    ----------
    sweep
        What :func:`tcdoc.bench.run` measured.
    ax
        Where to draw; a new figure when ``None``.
    methods
        The methods to draw, from :attr:`Sweep.methods`; all of them when ``None``.
    language
        The language of the labels, ``"en"`` or ``"zh_CN"`` (with a CJK font); a new figure
        can be drawn again in the other with :func:`tcdoc.draw.redraw`.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    """
    t = translator(language)
    chosen = _methods(sweep, methods)
    ax = _axes(sweep, ax, t, lambda other: plot_time(sweep, _new_axes(), chosen, other))
    for method in chosen:
        costs = sweep.of(method)
        _errorbar(ax, costs, [c.seconds for c in costs], [c.interval for c in costs], method)
    ax.set_ylabel(t("time per call (s): median, bar [q1, q3]"))
    ax.set_title(t("Time of one call ({where})").format(where=_where(sweep, t)))
    ax.legend(fontsize="small")
    return _finish(ax, language)


def plot_bandwidth(
    sweep: Sweep, ax: Axes | None = None, methods: Iterable[str] | None = None, language: str = "en"
) -> Axes:
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
    language
        As for :func:`plot_time`.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    """
    t = translator(language)
    chosen = _methods(sweep, methods)
    ax = _axes(sweep, ax, t, lambda other: plot_bandwidth(sweep, _new_axes(), chosen, other))
    limit = sweep.limit
    for method in chosen:
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
        label=t("copy limit ({code} at {size}), {bandwidth} GB/s").format(
            code=limit.code, size=format_size(limit.nbytes), bandwidth=f"{limit.bandwidth / 1e9:.2f}"
        ),
    )
    ax.set_ylabel(t("bytes read + written per second (GB/s)"))
    ax.set_title(t("Achieved bandwidth ({where})").format(where=_where(sweep, t)))
    ax.legend(fontsize="small")
    return _finish(ax, language)


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


def _where(sweep: Sweep, t: Callable[[str], str]) -> str:
    threads = sweep.machine.threads
    words = t("{device}, {threads} thread") if threads == 1 else t("{device}, {threads} threads")
    return words.format(device=sweep.machine.device, threads=threads)


def _color(method: str) -> str:
    """Give each method the same color in every figure, whether or not it has a line there."""
    return f"C{METHODS.index(method) % 10}"


def _methods(sweep: Sweep, methods: Iterable[str] | None) -> tuple[str, ...]:
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a tcdoc.bench.Sweep, got {type(sweep).__name__}")
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


def _new_axes() -> Axes:
    """Return the axes of a new figure, matplotlib's own (not pyplot's), to draw again in another language."""
    return Figure(figsize=_SIZE, layout="constrained").add_subplot()


def _finish(ax: Axes, language: str) -> Axes:
    if language != "en":
        parent = ax.figure
        use_cjk_font(parent if isinstance(parent, Figure) else parent.figure)
    return ax


_SIZE = (7.0, 4.5)


def _axes(sweep: Sweep, ax: Axes | None, t: Callable[[str], str], draw_again: Callable[[str], Axes]) -> Axes:
    """Return the axes to draw on, a new pyplot figure's by default, which remembers how to draw it again."""
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a tcdoc.bench.Sweep, got {type(sweep).__name__}")
    if ax is None:
        figure, ax = plt.subplots(figsize=_SIZE, layout="constrained")
        remember(figure, lambda language: _root(draw_again(language)))
    elif not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sweep.sizes, [format_size(n) for n in sweep.sizes])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel(t("size of x"))
    ax.grid(True, which="major", alpha=0.3)
    return ax


def _root(ax: Axes) -> Figure:
    parent = ax.figure
    return parent if isinstance(parent, Figure) else parent.figure
