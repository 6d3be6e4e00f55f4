"""The Chinese edition's search: the site's terms kept whole, the query split as the pages were.

Sphinx's Chinese search splits the pages into words with jieba, but a typed query only at spaces
and punctuation, so an unspaced question ("detach和clone的区别") was one word that no page
has, and found nothing. :class:`SearchChineseTerms` replaces Sphinx's Chinese search language:

- at index time, jieba keeps each word of the site's term table whole (``_search_terms``), and a
  page that uses an alias (叶子节点) is indexed under its term (叶子张量) too;
- in the browser, ``_search_split.js`` splits a query's Chinese runs into the longest words the
  index holds, reads each alias as its term, and drops the words of a question (:data:`QUESTION_WORDS`).

Sphinx 9.0's Chinese search ships the English stemmer for the Latin words of a page, but its
``language_data.js`` then names a ``ChineseStemmer`` that nothing defines, so the search page
stops with a ``ReferenceError``. :func:`repair_chinese_search` points it at the stemmer shipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import jieba
from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese

from tcdoc_site import _search_terms

__all__ = ["QUESTION_WORDS", "SearchChineseTerms", "repair_chinese_search", "splitter_code"]

QUESTION_WORDS = (
    "什么", "有什么", "什么样", "区别", "不同", "差别", "差异", "异同", "之间", "怎么", "怎样", "怎么样",
    "如何", "为什么", "哪个", "哪些", "哪种", "请问", "一下", "中的", "下的", "里的", "时的", "以及", "还是",
    "或者", "是否",
    # What every page is about: "Pytorch张量中的…" says where the question lies, not what it asks.
    "pytorch", "torch", "张量",
)  # fmt: skip
"""Words of a question that a Chinese query leaves out ("…有什么区别"), unless nothing else is left."""

_SPLITTER = Path(__file__).with_name("_search_split.js")
_DATA = "/*TCDOC_SEARCH_DATA*/"
# How often jieba should think each of the site's words occurs: enough to keep it whole.
_FREQUENCY = 20000

# The line Sphinx writes, and the stemmer it actually ships.
_UNDEFINED_STEMMER = "window.Stemmer = ChineseStemmer;"
_SHIPPED_STEMMER = "window.Stemmer = EnglishStemmer;"


def splitter_code(terms: tuple[_search_terms.Term, ...]) -> str:
    """Return the query splitter's JavaScript, holding the table's words and aliases."""
    words = _search_terms.words(terms)
    data = {
        "aliases": _search_terms.aliases(terms),
        "words": words,
        "questionWords": list(QUESTION_WORDS),
        "longest": max(len(word) for word in [*words, *QUESTION_WORDS]),
    }
    code = _SPLITTER.read_text(encoding="utf-8")
    return code.replace(_DATA, json.dumps(data, ensure_ascii=False, sort_keys=True))


class SearchChineseTerms(SearchChinese):
    """Sphinx's Chinese search, with the site's terms whole, aliases indexed as terms, a query splitter."""

    def __init__(self, options: dict[str, str]) -> None:
        # Sphinx loads jieba's own dictionary again as a user dictionary unless one is named (and
        # leaves the file open); the site's words are added below instead.
        super().__init__({"dict": "", **options})
        terms = _search_terms.read_terms()
        for word in _search_terms.words(terms):
            jieba.add_word(word, _FREQUENCY, "n")
        self.aliases = _search_terms.aliases(terms)
        self.js_splitter_code = splitter_code(terms)

    def split(self, input: str) -> list[str]:
        """Split as Sphinx does, adding the term of each alias found (叶子节点: 叶子张量)."""
        found = super().split(input)
        return found + [self.aliases[word] for word in found if word in self.aliases]


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
