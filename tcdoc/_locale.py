"""tcdoc's own words in another language, outside Sphinx: the pictures and the cost findings.

The pictures of :mod:`tcdoc.draw` and :mod:`tcdoc.bench` and the sentences of
:func:`tcdoc.bench.findings` take a ``language``; their words come from the package's message
catalogue, the one the Sphinx extension translates through (``tcdoc/sphinxext/locales``,
compiled to ``.mo``), read with :mod:`gettext`, so that no Sphinx is needed. English is the
source and needs no catalogue. A picture drawn in a language written in Chinese characters
needs a font that has them (``tcdoc.draw._render.cjk_font``, beside the rest of what imports
matplotlib).

>>> from tcdoc._locale import translator
>>> translator("en")("autograd: cut")
'autograd: cut'
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "COMMA",
    "LANGUAGES",
    "LOCALE_DIR",
    "PERIOD",
    "SEMICOLON",
    "SENTENCE_BREAK",
    "english",
    "join_words",
    "translator",
]

LOCALE_DIR = Path(__file__).parent / "sphinxext" / "locales"
"""The package's catalogues, one folder per language (``<language>/LC_MESSAGES/tcdoc.mo``)."""

LANGUAGES = ("en", "zh_CN")
"""The languages tcdoc draws and words its findings in."""

COMMA = {"en": ", ", "zh_CN": "，"}  # noqa: RUF001 - Chinese punctuation, on purpose
"""What separates the items of a list inside a sentence, in each language."""

SENTENCE_BREAK = {"en": " ", "zh_CN": ""}
"""What separates two sentences, in each language (Chinese puts no space after 。)."""

SEMICOLON = {"en": "; ", "zh_CN": "；"}  # noqa: RUF001 - Chinese punctuation, on purpose
"""What separates the clauses of a sentence, in each language."""

PERIOD = {"en": ".", "zh_CN": "。"}
"""What ends a sentence, in each language."""


def english(text: str) -> str:
    """Return a message as it is: in English, the language every message of the catalogue is written in.

    The default of every ``translate`` argument, where no translation is asked for.

    >>> english("yes")
    'yes'
    """
    return text


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
