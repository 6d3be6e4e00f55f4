"""The Chinese edition's search: the stemmer that Sphinx ships, not one it only names.

Sphinx 9.0's Chinese search ships the English stemmer for the Latin words of a page, but its
``language_data.js`` then names a ``ChineseStemmer`` that nothing defines, so the search page
stops with a ``ReferenceError``. :func:`repair_chinese_search` points it at the stemmer shipped.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

__all__ = ["repair_chinese_search"]

# The line Sphinx writes, and the stemmer it actually ships.
_UNDEFINED_STEMMER = "window.Stemmer = ChineseStemmer;"
_SHIPPED_STEMMER = "window.Stemmer = EnglishStemmer;"


def repair_chinese_search(app: Sphinx, exception: BaseException | None) -> None:
    """Point the Chinese search at the stemmer Sphinx ships (``build-finished``).

    Only a Chinese HTML build whose ``language_data.js`` names the undefined stemmer is changed.
    """
    if exception is not None or not str(app.config.language or "").startswith("zh"):
        return
    script = Path(app.outdir) / "_static" / "language_data.js"
    if not script.is_file():
        return
    text = script.read_text(encoding="utf-8")
    if _UNDEFINED_STEMMER in text and "ChineseStemmer=" not in text.replace(" ", ""):
        script.write_text(text.replace(_UNDEFINED_STEMMER, _SHIPPED_STEMMER), encoding="utf-8")
