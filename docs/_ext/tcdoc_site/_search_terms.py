"""The Chinese edition's terms, read from one table: the glossary's, jieba's and the search box's.

``docs/locales/zh_CN/terms.txt`` holds one term a line, ``English | 简体中文 | aliases``. The
glossary shows it (the ``tcdoc-terms`` directive), the Chinese search index keeps each term and
alias whole and indexes an alias under its term too, and the search box splits a typed query with
the same words and reads an alias as its term (:mod:`tcdoc_site._search`).

The table's cells are generated, not page prose: no page catalogue holds them, so a cell whose
English equals a glossary heading ("storage") cannot pick up that heading's translation.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from tcdoc.sphinxext._i18n import generated
from tcdoc_site._catalog import translate as _

__all__ = ["TERMS_FILE", "Term", "TermsDirective", "aliases", "read_terms", "words"]

TERMS_FILE = Path(__file__).resolve().parents[2] / "locales" / "zh_CN" / "terms.txt"
"""The table: ``docs/locales/zh_CN/terms.txt``."""


@dataclass(frozen=True)
class Term:
    """One term: its English words, its Chinese word, and the other Chinese words readers type for it."""

    english: str
    chinese: str
    aliases: tuple[str, ...] = ()


def parse_terms(text: str, source: str = "terms.txt") -> list[Term]:
    """Return the terms of a table's text; ``#`` starts a comment.

    >>> parse_terms("leaf tensor | 叶子张量 | 叶子节点, 叶节点")
    [Term(english='leaf tensor', chinese='叶子张量', aliases=('叶子节点', '叶节点'))]
    """
    terms: list[Term] = []
    seen: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) != 3 or not cells[0] or not cells[1]:
            raise ValueError(f"{source}:{number}: expected 'English | 简体中文 | aliases', got {line!r}")
        english, chinese, rest = cells
        names = tuple(alias.strip() for alias in rest.split(",") if alias.strip())
        for word in (chinese, *names):
            if word in seen:
                raise ValueError(f"{source}:{number}: {word} is already a word of {seen[word]!r}")
            seen[word] = english
        terms.append(Term(english, chinese, names))
    return terms


@functools.cache
def read_terms(path: Path = TERMS_FILE) -> tuple[Term, ...]:
    """Return the terms of the table file at ``path`` (read once)."""
    return tuple(parse_terms(path.read_text(encoding="utf-8"), path.name))


def aliases(terms: tuple[Term, ...] | list[Term]) -> dict[str, str]:
    """Map each alias to its term's Chinese word.

    >>> aliases([Term("in-place operation", "原地操作", ("原地修改",))])
    {'原地修改': '原地操作'}
    """
    return {alias: term.chinese for term in terms for alias in term.aliases}


def words(terms: tuple[Term, ...] | list[Term]) -> list[str]:
    """Every Chinese word of the table, terms and aliases, each once, for jieba to keep whole."""
    return list(dict.fromkeys(word for term in terms for word in (term.chinese, *term.aliases)))


class TermsDirective(SphinxDirective):
    """The glossary's table of terms: English, 简体中文, and the other words the search reads as each."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(TERMS_FILE))
        headings = [_("English"), _("简体中文"), _("Also found by searching")]
        table = nodes.table(classes=["tcdoc-terms"])
        group = nodes.tgroup(cols=len(headings))
        table += group
        group.extend(nodes.colspec(colwidth=1) for _heading in headings)
        head = nodes.thead()
        body = nodes.tbody()
        group += head
        group += body
        head += self._row(headings)
        for term in read_terms():
            body += self._row([term.english, term.chinese, "、".join(term.aliases)])
        return generated([table])

    @staticmethod
    def _row(cells: list[str]) -> nodes.row:
        row = nodes.row()
        for text in cells:
            row += nodes.entry("", nodes.paragraph(text, text))
        return row
