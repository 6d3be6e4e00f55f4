"""Rendering of the model with matplotlib: the only module of :mod:`tcdoc.draw` that imports it."""

from __future__ import annotations

import functools
import os
import textwrap
import weakref
from collections.abc import Callable, Iterable, Sequence

import matplotlib.pyplot as plt
import torch
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle
from matplotlib.text import Text

import tcdoc
from tcdoc import _locale
from tcdoc._locale import translator
from tcdoc.draw._model import MAX_CELLS, Diagram, Failure, StorageBar, TensorBox, alt_text, diagram, diagrams

__all__ = [
    "CJK_FONTS",
    "COLOURS",
    "cjk_font",
    "draw",
    "draw_operations",
    "draw_panels",
    "redraw",
    "remember",
    "use_cjk_font",
]


# Okabe-Ito colours, which colour-blind readers tell apart; lines and fills are mid-tones that
# show on white and on dark backgrounds, and all text sits in light boxes of its own, in dark ink.
COLOURS = {
    "x": "#56B4E9",  # sky blue
    "y": "#E69F00",  # orange
    "kept": "#009E73",  # bluish green
    "cut": "#D55E00",  # vermilion
    "version": "#CC79A7",  # reddish purple
    "line": "#8C8C8C",  # mid grey
}
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
)
"""Fonts with Chinese characters, the first found is used (Debian's ``fonts-noto-cjk`` has the first)."""

_FILL = {"x": "#DCEFFB", "y": "#FDEBC8", "label": "#F2F2F2", "bar": "#E4E4E4", "error": "#F9DCCB"}
_INK = "#1A1A1A"

# Layout, in axes data units: the axes spans 10 wide and 6 high.
_WIDTH, _HEIGHT = 10.0, 6.0
_BOX_W, _BOX_BOTTOM, _BOX_TOP = 3.6, 2.35, 5.25
_BAR_BOTTOM, _BAR_TOP, _BAR_MAX = 1.0, 1.55, 4.7
_EDGE_Y, _VERSION_Y = 4.3, 3.0


def draw(
    source: torch.Tensor,
    result: torch.Tensor,
    code: str | None = None,
    ax: Axes | None = None,
    names: tuple[str, str] = ("x", "y"),
    language: str = "en",
) -> Figure:
    """Draw what ``result`` shares with ``source``: boxes, storage, version counter, autograd edge.

    Parameters
    ----------
    source, result, code, names
        As for :func:`diagram`.
    ax
        The matplotlib axes to draw on; by default a new figure with one axes.
    language
        The language of the labels: ``"en"`` or ``"zh_CN"`` (which needs a font with Chinese
        characters, such as Debian's ``fonts-noto-cjk``); code and names stay as they are.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on, with a transparent background.

    Raises
    ------
    TypeError
        For arguments of the wrong type.
    ValueError
        For ``names`` that are not two different, non-empty strings.

    Examples
    --------
    >>> import torch
    >>> from tcdoc.draw import draw
    >>> x = torch.ones(2, 3, requires_grad=True)
    >>> figure = draw(x, x.clone(), "x.clone()")
    >>> len(figure.axes)
    1
    >>> d = x.detach()
    >>> draw(x, d, "x.detach()", names=("x", "d")).get_suptitle()[:23]
    'd = x.detach(): a new o'

    """
    model = diagram(source, result, code, names)
    if ax is None:
        return draw_panels([model], language=language)
    _check_axes(ax)
    t = translator(language)
    _render(ax, model, max(bar.nbytes for bar in model.storages), 10.0, t, language)
    figure = _root_figure(ax)
    if language != "en":
        use_cjk_font(figure)
    return figure


def draw_operations(
    operations: Iterable[str | tcdoc.Operation],
    scenario: str | tcdoc.Scenario,
    device: str = "cpu",
    columns: int = 2,
    language: str = "en",
) -> Figure:
    """Draw one panel per operation, each applied to a fresh source tensor of ``scenario``.

    The storage bars of all panels share one scale, so their lengths compare across panels.
    An operation that raises is drawn as a panel naming its exception.

    Parameters
    ----------
    operations, scenario, device
        As for :func:`diagrams`.
    columns
        Panels per row.
    language
        As for :func:`draw`.

    Raises
    ------
    TypeError, ValueError
        For operations, scenarios or devices tcdoc does not know, or ``columns`` below 1.

    Examples
    --------
    >>> from tcdoc.draw import draw_operations
    >>> len(draw_operations(["clone", "detach", "deepcopy"], "non_leaf").axes)
    3

    """
    _check_columns(columns)
    return draw_panels(diagrams(operations, scenario, device), columns, language=language)


def draw_panels(
    models: Sequence[Diagram | Failure],
    columns: int = 2,
    figure: Figure | None = None,
    language: str = "en",
) -> Figure:
    """Draw models made by :func:`diagram` or :func:`diagrams` side by side, bars on one scale.

    Parameters
    ----------
    models
        The panels, in reading order.
    columns
        Panels per row.
    figure
        An empty matplotlib figure to draw into (it is resized to fit the panels); by default
        a new one from ``pyplot``.
    language
        As for :func:`draw`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure, with a transparent background; its hidden suptitle is the
        :func:`alt_text` of every panel, which sphinx-gallery uses as the image's alt text.
        :func:`redraw` draws it again in another language.

    Raises
    ------
    TypeError, ValueError
        For a model that is neither a :class:`Diagram` nor a :class:`Failure`, no models,
        ``columns`` below 1, or a figure that is not an empty matplotlib figure.

    Examples
    --------
    >>> from tcdoc.draw import diagrams, draw_panels
    >>> len(draw_panels(diagrams(["clone", "view"], "no_grad"), columns=1).axes)
    2

    """
    _check_columns(columns)
    t = translator(language)  # checks the language before anything is drawn
    if language != "en":
        cjk_font()
    if isinstance(models, (Diagram, Failure)) or not isinstance(models, Sequence) or not models:
        raise ValueError(f"models must be a non-empty sequence of Diagram or Failure, got {models!r}")
    for model in models:
        if not isinstance(model, (Diagram, Failure)):
            raise TypeError(f"each model must be a Diagram or a Failure, got {type(model).__name__}")
    columns = min(columns, len(models))
    rows = -(-len(models) // columns)
    single = len(models) == 1
    size = (8.0, 4.4) if single else (4.2 * columns, 2.75 * rows)
    if figure is None:
        figure = _new_figure(size)
    else:
        _check_figure(figure)
        figure.set_size_inches(size)
        figure.patch.set_alpha(0.0)
    figure.subplots_adjust(left=0.005, right=0.995, bottom=0.005, top=0.995, wspace=0.04, hspace=0.06)
    full = max((bar.nbytes for m in models if isinstance(m, Diagram) for bar in m.storages), default=1)
    fontsize = 10.0 if single else 7.0
    # A hidden title holding the alt text: sphinx-gallery uses a figure's titles as alt text.
    words = _locale.SENTENCE_BREAK[language].join(alt_text(model, language) for model in models)
    figure.suptitle(words, visible=False)
    for index, model in enumerate(models):
        ax = figure.add_subplot(rows, columns, index + 1)
        if isinstance(model, Failure):
            _render_failure(ax, model, fontsize, t)
        else:
            _render(ax, model, full, fontsize, t, language)
    if language != "en":
        use_cjk_font(figure)
    drawn = tuple(models)
    remember(figure, lambda other: draw_panels(drawn, columns, figure=Figure(), language=other))
    return figure


def _render(
    ax: Axes, model: Diagram, full: int, fontsize: float, t: Callable[[str], str], language: str
) -> None:
    """Draw ``model`` on ``ax``; ``full`` bytes would fill the widest storage bar."""
    _clear(ax)
    _heading(ax, model.heading, fontsize)
    x_box, y_box = (0.05, _WIDTH - 0.05 - _BOX_W) if model.new_object else ((_WIDTH - _BOX_W) / 2,) * 2
    x, y = model.names
    if model.new_object:
        _tensor_box(ax, model.source, "x", x, x_box, fontsize, language)
        _tensor_box(ax, model.result, "y", y, y_box, fontsize, language)
    else:
        title = t("{x} and {y}: one object").format(x=x, y=y)
        _tensor_box(ax, model.source, "x", title, x_box, fontsize, language)
    _edge(ax, model, fontsize, t)
    _version_counters(ax, model, fontsize, t)
    scale = _BAR_MAX / max(full, 1)
    if len(model.storages) == 1:
        bar = model.storages[0]
        left = (_WIDTH - bar.nbytes * scale) / 2
        spans = [(model.source, x_box)] + ([(model.result, y_box)] if model.new_object else [])
        _storage_bar(ax, bar, left, scale, spans, model, fontsize, "center", t)
    else:
        # Each bar's words line up with its outer end, so that a short bar's words stay inside
        # the panel and clear of the other bar's.
        x_spans, y_spans = [(model.source, x_box)], [(model.result, y_box)]
        _storage_bar(ax, model.storages[0], 0.05, scale, x_spans, model, fontsize, "left", t)
        right = _WIDTH - 0.05 - model.storages[1].nbytes * scale
        _storage_bar(ax, model.storages[1], right, scale, y_spans, model, fontsize, "right", t)


def _role(model: Diagram, box: TensorBox) -> str:
    """Return ``"x"`` for the source's box and ``"y"`` for the result's: the key of its colours."""
    return "x" if box is model.source else "y"


def _heading(ax: Axes, text: str, fontsize: float) -> None:
    """Write the code that made y across the top, smaller where it is long, so that it fits."""
    size = min(fontsize + 2, 0.75 * fontsize * 60 / max(len(text), 1))
    ax.text(
        _WIDTH / 2,
        _HEIGHT - 0.05,
        text,
        ha="center",
        va="top",
        fontsize=size,
        fontweight="bold",
        color=_INK,
        family="monospace",
        bbox={"boxstyle": "round,pad=0.3", "facecolor": _FILL["label"], "edgecolor": "none"},
    )


def _tensor_box(
    ax: Axes, box: TensorBox, role: str, title: str, left: float, fontsize: float, language: str
) -> None:

    ax.add_patch(
        FancyBboxPatch(
            (left, _BOX_BOTTOM),
            _BOX_W,
            _BOX_TOP - _BOX_BOTTOM,
            boxstyle="round,pad=0,rounding_size=0.15",
            facecolor=_FILL[role],
            edgecolor=COLOURS[role],
            linewidth=2.0,
        )
    )
    corner = (left + 0.15, _BOX_TOP)
    ax.annotate(
        title,
        corner,
        xytext=(0, -0.6 * fontsize),
        textcoords="offset points",
        va="top",
        fontsize=fontsize + 1,
        fontweight="bold",
        color=_INK,
        family="monospace",
    )
    ax.annotate(
        "\n".join(box.lines(language)),
        corner,
        xytext=(0, -2.6 * fontsize),
        textcoords="offset points",
        va="top",
        fontsize=fontsize,
        color=_INK,
        family="monospace",
        linespacing=1.3,
    )


def _edge(ax: Axes, model: Diagram, fontsize: float, t: Callable[[str], str]) -> None:
    """Draw the autograd edge from y back to x: an arrow when kept, a broken line when cut."""
    x, y = model.names
    start, end, middle = _WIDTH - 0.05 - _BOX_W, 0.05 + _BOX_W, _WIDTH / 2
    if model.edge == "kept":
        ax.add_patch(
            FancyArrowPatch(
                (start, _EDGE_Y),
                (end, _EDGE_Y),
                arrowstyle="-|>",
                mutation_scale=14,
                color=COLOURS["kept"],
                linewidth=2.5,
            )
        )
        _label(ax, middle, _EDGE_Y + 0.5, f"{t('autograd: kept')}\n{model.result.grad_fn}", fontsize)
    elif model.edge == "cut":
        for a, b in ((start, middle + 0.35), (middle - 0.35, end)):
            ax.plot([a, b], [_EDGE_Y, _EDGE_Y], color=COLOURS["cut"], linewidth=2.5, linestyle=(0, (3, 2)))
        ax.plot(middle, _EDGE_Y, marker="X", markersize=fontsize + 5, color=COLOURS["cut"])
        _label(ax, middle, _EDGE_Y + 0.5, t("autograd: cut"), fontsize)
    elif model.edge == "none":
        _label(ax, middle, _EDGE_Y + 0.5, t("autograd: {x} has\nno history").format(x=x), fontsize)
    else:
        _label(ax, middle + _BOX_W / 2 + 0.9, _EDGE_Y, t("{y} is {x}:\nno copy").format(x=x, y=y), fontsize)


def _version_counters(ax: Axes, model: Diagram, fontsize: float, t: Callable[[str], str]) -> None:
    """One circle tied to both boxes when the counter is shared, one per box when not."""
    x_edge, y_edge, middle = 0.05 + _BOX_W, _WIDTH - 0.05 - _BOX_W, _WIDTH / 2
    size = fontsize * 2.6
    if model.shares_version_counter is None:  # an inference tensor has no counter to draw
        _label(ax, middle, _VERSION_Y, t("inference tensor:\nno counter to share"), fontsize)
        return
    if not model.new_object:  # one object, one counter: beside its box
        x_edge = (_WIDTH + _BOX_W) / 2
        spots = [(x_edge + 0.35, model.source.version)]
        ax.plot([x_edge, x_edge + 0.35], [_VERSION_Y] * 2, color=COLOURS["version"], linewidth=2.0)
        middle, words = x_edge + 0.9, t("one version\ncounter")
    elif model.shares_version_counter:
        ax.plot([x_edge, y_edge], [_VERSION_Y] * 2, color=COLOURS["version"], linewidth=2.0)
        spots = [(middle, model.source.version)]
        words = t("one version\ncounter")
    else:
        spots = [(x_edge + 0.35, model.source.version), (y_edge - 0.35, model.result.version)]
        ax.plot([x_edge, x_edge + 0.35], [_VERSION_Y] * 2, color=COLOURS["version"], linewidth=2.0)
        ax.plot([y_edge - 0.35, y_edge], [_VERSION_Y] * 2, color=COLOURS["version"], linewidth=2.0)
        words = t("two version\ncounters")
    for where, value in spots:
        ax.plot(
            where,
            _VERSION_Y,
            marker="o",
            markersize=size,
            color=COLOURS["version"],
            markeredgecolor=_INK,
            markeredgewidth=0.8,
        )
        ax.text(where, _VERSION_Y, f"v{value}", ha="center", va="center", fontsize=fontsize, color=_INK)
    _label(ax, middle, _VERSION_Y - 0.75, words, fontsize)


def _storage_bar(
    ax: Axes,
    bar: StorageBar,
    left: float,
    scale: float,
    spans: Sequence[tuple[TensorBox, float]],
    model: Diagram,
    fontsize: float,
    align: str,
    t: Callable[[str], str],
) -> None:
    """Draw a bar of ``bar.nbytes`` bytes, each tensor's reach marked in its colour and joined to its box.

    Its words go under it, lined up with its left end, centre or right end (``align``).
    """
    width = max(bar.nbytes * scale, 0.05)
    height = _BAR_TOP - _BAR_BOTTOM
    ax.add_patch(
        Rectangle(
            (left, _BAR_BOTTOM),
            width,
            height,
            facecolor=_FILL["bar"],
            edgecolor=COLOURS["line"],
            linewidth=1.2,
        )
    )
    half = height / len(spans)
    for row, (box, box_left) in enumerate(spans):
        bottom = _BAR_TOP - half * (row + 1)
        cells = box.span.elements if box.span.elements is not None else (box.span.offset,)
        cell = bar.element_size if box.span.elements is not None else box.span.extent
        for start in cells:
            ax.add_patch(
                Rectangle(
                    (left + start * scale, bottom),
                    cell * scale,
                    half,
                    facecolor=COLOURS[_role(model, box)],
                    linewidth=0,
                )
            )
        ax.annotate(
            "",
            xy=(left + (box.span.offset + box.span.extent / 2) * scale, _BAR_TOP),
            xytext=(box_left + _BOX_W / 2, _BOX_BOTTOM),
            arrowprops={"arrowstyle": "-|>", "color": COLOURS[_role(model, box)], "linewidth": 1.8},
        )
    if bar.nbytes // bar.element_size <= MAX_CELLS:
        for k in range(1, bar.nbytes // bar.element_size):
            x = left + k * bar.element_size * scale
            ax.plot([x, x], [_BAR_BOTTOM, _BAR_TOP], color=COLOURS["line"], linewidth=0.5)
    reach = "   ".join(
        t("{name}: bytes {start}\u2013{end}").format(name=box.name, start=box.span.offset, end=box.span.end)
        for box, _ in spans
    )
    if bar.shared and model.new_object:
        words = t("one storage, {nbytes} bytes, shared").format(nbytes=bar.nbytes)
    elif bar.users == (model.result.name,) and model.new_object:
        words = t("new storage, {new} new bytes").format(new=model.new_bytes)
    else:
        words = t("storage of {name}, {nbytes} bytes").format(name=model.source.name, nbytes=bar.nbytes)
    words = f"{words}\n{reach}"
    anchor = {"left": left, "center": left + width / 2, "right": left + width}[align]
    _label(ax, anchor, _BAR_BOTTOM - 0.55, words, fontsize, align)


def _render_failure(ax: Axes, failure: Failure, fontsize: float, t: Callable[[str], str]) -> None:

    _clear(ax)
    ax.add_patch(
        FancyBboxPatch(
            (0.6, 1.2),
            _WIDTH - 1.2,
            3.6,
            boxstyle="round,pad=0,rounding_size=0.15",
            facecolor=_FILL["error"],
            edgecolor=COLOURS["cut"],
            linewidth=2.0,
        )
    )
    _heading(ax, failure.heading, fontsize)
    ax.text(
        0.85,
        4.55,
        t("raises {error_type}").format(error_type=failure.error_type),
        va="top",
        fontsize=fontsize + 1,
        color=_INK,
    )
    message = textwrap.shorten(failure.message, 160, placeholder=" ...")
    ax.text(0.85, 3.85, textwrap.fill(message, 62), va="top", fontsize=fontsize - 0.5, color=_INK)


def _label(ax: Axes, x: float, y: float, text: str, fontsize: float, align: str = "center") -> None:
    """Free-standing words, in a light box of their own so they read on any background."""
    ax.text(
        x,
        y,
        text,
        ha=align,
        va="center",
        multialignment=align,
        fontsize=fontsize,
        color=_INK,
        linespacing=1.25,
        bbox={"boxstyle": "round,pad=0.25", "facecolor": _FILL["label"], "edgecolor": "none"},
    )


def save_png(
    models: Sequence[Diagram | Failure], columns: int, path: str | os.PathLike[str], language: str = "en"
) -> None:
    """Draw ``models`` as :func:`draw_panels` does and write a transparent PNG to ``path``.

    The figure is matplotlib's own, not pyplot's, so a docs build opens no window and keeps no
    figure alive; the Sphinx extension's ``tcdoc-diagram`` directive writes its pictures with it.
    """
    figure = draw_panels(models, columns, figure=Figure(), language=language)
    figure.savefig(path, format="png", dpi=150, transparent=True)


@functools.cache
def cjk_font() -> str:
    """Return the name of an installed font with Chinese characters, for matplotlib.

    Raises
    ------
    RuntimeError
        Where none of :data:`CJK_FONTS` is installed: the labels would be drawn as empty boxes.

    """

    def installed() -> str | None:
        for name in CJK_FONTS:
            try:
                font_manager.findfont(font_manager.FontProperties(family=name), fallback_to_default=False)
            except ValueError:
                continue
            return name
        return None

    found = installed()
    if found is None:
        # matplotlib's font list is cached: a font installed after it was made is not in it.
        known = {font.fname for font in font_manager.fontManager.ttflist}
        for path in font_manager.findSystemFonts():
            if path not in known:
                font_manager.fontManager.addfont(path)
        found = installed()
    if found is not None:
        return found
    raise RuntimeError(
        "tcdoc draws Chinese labels with a CJK font, and matplotlib finds none of "
        f"{', '.join(CJK_FONTS)}: install one (on Debian or Ubuntu: apt-get install fonts-noto-cjk) "
        "and build again."
    )


def use_cjk_font(figure: Figure) -> None:
    """Let every text of ``figure`` fall back to the CJK font for the characters its own font lacks.

    Latin letters and digits keep the font they had (matplotlib takes each character from the
    first font of a text's family list that has it).
    """
    font = cjk_font()
    for text in figure.findobj(Text):
        family = [name for name in text.get_fontfamily() if name != font]
        text.set_fontfamily([*(family or ["sans-serif"]), font])


# What drew each figure, so that it can be drawn again in another language (weakly held: a
# figure that is closed and dropped is forgotten).
_DRAWN: weakref.WeakKeyDictionary[Figure, Callable[[str], Figure]] = weakref.WeakKeyDictionary()


def remember(figure: Figure, draw_again: Callable[[str], Figure]) -> None:
    """Record how to draw ``figure`` again in a given language: ``draw_again(language)``."""
    _DRAWN[figure] = draw_again


def redraw(figure: Figure, language: str) -> Figure | None:
    """Return a new figure with the picture of ``figure`` in ``language``; ``None`` if tcdoc did not draw it.

    The new figure is matplotlib's own, not pyplot's (no window opens, nothing keeps it alive).
    Only figures that :mod:`tcdoc.draw` or :mod:`tcdoc.bench` drew in full can be drawn again.

    Raises
    ------
    ValueError
        For a language other than ``"en"`` and ``"zh_CN"``.
    RuntimeError
        For a language written in Chinese characters where no CJK font is installed.

    """
    translator(language)
    draw_again = _DRAWN.get(figure)
    return None if draw_again is None else draw_again(language)


# -- Helpers -----------------------------------------------------------------------------------


def _new_figure(size: tuple[float, float]) -> Figure:
    """Make a transparent pyplot figure (pyplot's, so that notebooks and sphinx-gallery show it)."""
    figure = plt.figure(figsize=size)
    figure.patch.set_alpha(0.0)
    return figure


def _root_figure(ax: Axes) -> Figure:
    parent = ax.figure
    return parent if isinstance(parent, Figure) else parent.figure


def _clear(ax: Axes) -> None:
    ax.set_xlim(0, _WIDTH)
    ax.set_ylim(0, _HEIGHT)
    ax.set_axis_off()
    ax.patch.set_alpha(0.0)


def _check_axes(ax: object) -> None:
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")


def _check_columns(columns: object) -> None:
    if not isinstance(columns, int) or isinstance(columns, bool) or columns < 1:
        raise ValueError(f"columns must be a positive int, got {columns!r}")


def _check_figure(figure: object) -> None:
    if not isinstance(figure, Figure):
        raise TypeError(f"figure must be a matplotlib Figure or None, got {type(figure).__name__}")
    if figure.axes:
        raise ValueError("figure must be empty; it already has axes")
