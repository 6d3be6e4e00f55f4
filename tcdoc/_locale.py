"""tcdoc's own words in another language, outside Sphinx: the pictures and the cost findings.

The pictures of :mod:`tcdoc.draw` and :mod:`tcdoc.bench` and the sentences of
:func:`tcdoc.bench.findings` take a ``language``; their words come from the package's message
catalogue, the one the Sphinx extension translates through (``tcdoc/sphinxext/locales``,
compiled to ``.mo``), read with :mod:`gettext`, so that no Sphinx is needed. English is the
source and needs no catalogue. A picture drawn in a language written in Chinese characters
needs a font that has them (:func:`cjk_font`).

>>> from tcdoc._locale import translator
>>> translator("en")("autograd: cut")
'autograd: cut'
"""

from __future__ import annotations

import functools
import gettext
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import matplotlib.figure

__all__ = [
    "CJK_FONTS",
    "COMMA",
    "LANGUAGES",
    "LOCALE_DIR",
    "PERIOD",
    "SEMICOLON",
    "SENTENCE_BREAK",
    "cjk_font",
    "join_words",
    "redraw",
    "remember",
    "translator",
    "use_cjk_font",
]

LOCALE_DIR = Path(__file__).parent / "sphinxext" / "locales"
"""The package's catalogues, one folder per language (``<language>/LC_MESSAGES/tcdoc.mo``)."""

LANGUAGES = ("en", "zh_CN")
"""The languages tcdoc draws and words its findings in."""

COMMA = {"en": ", ", "zh_CN": "，"}
"""What separates the items of a list inside a sentence, in each language."""

SENTENCE_BREAK = {"en": " ", "zh_CN": ""}
"""What separates two sentences, in each language (Chinese puts no space after 。)."""

SEMICOLON = {"en": "; ", "zh_CN": "；"}
"""What separates the clauses of a sentence, in each language."""

PERIOD = {"en": ".", "zh_CN": "。"}
"""What ends a sentence, in each language."""

CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei")
"""Fonts with Chinese characters, the first found is used (Debian's ``fonts-noto-cjk`` has the first)."""


@functools.cache
def translator(language: str = "en") -> Callable[[str], str]:
    """Return the function that gives a message of the ``tcdoc`` catalogue in ``language``.

    Raises
    ------
    ValueError
        For a language that is not one of :data:`LANGUAGES`.

    """
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(map(repr, LANGUAGES))}, got {language!r}")
    if language == "en":
        return str
    catalogue = gettext.translation("tcdoc", str(LOCALE_DIR), languages=[language])
    return catalogue.gettext


def join_words(words: list[str], language: str = "en") -> str:
    """Join names as a sentence lists them: ``a, b and c``; in Chinese ``a、b 和 c``.

    >>> join_words(["a", "b", "c"]), join_words(["a", "b", "c"], "zh_CN")
    ('a, b and c', 'a、b 和 c')
    """
    if language == "zh_CN":
        return words[0] if len(words) == 1 else f"{'、'.join(words[:-1])} 和 {words[-1]}"
    if len(words) <= 2:
        return " and ".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


@functools.cache
def cjk_font() -> str:
    """Return the name of an installed font with Chinese characters, for matplotlib.

    Raises
    ------
    RuntimeError
        Where none of :data:`CJK_FONTS` is installed: the labels would be drawn as empty boxes.

    """
    from matplotlib import font_manager

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


def use_cjk_font(figure: matplotlib.figure.Figure) -> None:
    """Let every text of ``figure`` fall back to the CJK font for the characters its own font lacks.

    Latin letters and digits keep the font they had (matplotlib takes each character from the
    first font of a text's family list that has it).
    """
    from matplotlib.text import Text

    font = cjk_font()
    for text in figure.findobj(Text):
        family = [name for name in text.get_fontfamily() if name != font]
        text.set_fontfamily([*(family or ["sans-serif"]), font])


# What drew each figure, so that it can be drawn again in another language (weakly held: a
# figure that is closed and dropped is forgotten).
_DRAWN: weakref.WeakKeyDictionary[matplotlib.figure.Figure, Callable[[str], matplotlib.figure.Figure]] = (
    weakref.WeakKeyDictionary()
)


def remember(figure: matplotlib.figure.Figure, draw_again: Callable[[str], matplotlib.figure.Figure]) -> None:
    """Record how to draw ``figure`` again in a given language: ``draw_again(language)``."""
    _DRAWN[figure] = draw_again


def redraw(figure: matplotlib.figure.Figure, language: str) -> matplotlib.figure.Figure | None:
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
