"""Each page's description for search results and link previews: its first paragraph.

sphinxext-opengraph describes a page with the first 200 characters of all its text, code,
tables and program output included, cut wherever the count ends ("import torch if", "requi").
:func:`describe_page` gives it the page's first paragraph of prose instead, in the build's
language, cut after the last whole sentence or clause that fits; ``<meta name="description">``
says the same.
"""

from __future__ import annotations

import html
import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

__all__ = ["describe_page", "first_paragraph", "shorten"]

LIMIT = 200
"""The most characters a description holds, as sphinxext-opengraph's default."""

# Where a description may end: after a sentence or a clause, in English or in Chinese.
_BREAKS = re.compile(r"(?<=[.;:!?])\s|(?<=[。；：！？，、])")
_SENTENCE_ENDS = re.compile(r"(?<=[.!?])\s|(?<=[。！？])")
_CLAUSE_ENDS = {",": "...", ";": "...", ":": "...", "，": "……", "；": "……", "：": "……", "、": "……"}
# What is not the prose of the page.
_NOT_PROSE = (nodes.Admonition, nodes.table, nodes.literal_block, nodes.field_list, nodes.raw, nodes.sidebar)


def first_paragraph(doctree: nodes.document) -> str:
    r"""Return the text of the first paragraph outside notes, tables, code and raw HTML, on one line.

    >>> from docutils.core import publish_doctree
    >>> first_paragraph(publish_doctree(".. note:: Aside.\n\nThe *first*\nparagraph."))
    'The first paragraph.'
    """
    for paragraph in doctree.findall(nodes.paragraph):
        if not any(isinstance(parent, _NOT_PROSE) for parent in _ancestors(paragraph)):
            return " ".join(paragraph.astext().split())
    return ""


def shorten(text: str, limit: int = LIMIT) -> str:
    """Return ``text`` whole if it fits in ``limit`` characters, else up to its last break that fits.

    A break ends a sentence or a clause; where none fits, the last word that fits ends it, and
    "..." follows. A description does not end in a colon (it ends at the sentence before, where
    there is one) or in a clause's comma or semicolon (an ellipsis takes its place).

    >>> shorten("One sentence. Another one that is longer.", 20)
    'One sentence.'
    >>> shorten("x.clone() 复制数据；x.detach() 不复制", 18)
    'x.clone() 复制数据……'
    >>> shorten("Three ways to copy. In one line each:")
    'Three ways to copy.'
    >>> shorten("no break in these words at all", 12)
    'no break...'
    >>> shorten("一二，三四五，六七八九", 7)
    '一二……'
    """
    shortened = _shorten(text, limit)
    # An ellipsis in place of a clause's comma is one character longer in Chinese: cut earlier.
    return shortened if len(shortened) <= limit else _shorten(text, limit - 1)


def _shorten(text: str, limit: int) -> str:
    if len(text) > limit:
        ends = [found.start() for found in _BREAKS.finditer(text) if found.start() <= limit]
        text = text[: ends[-1]].rstrip() if ends else text[: limit - 3].rsplit(" ", 1)[0] + "..."
    if text.endswith((":", "：")):  # what the colon announces is not in the description
        sentences = [found.start() for found in _SENTENCE_ENDS.finditer(text)]
        if sentences:
            return text[: sentences[-1]]
    if text.endswith(tuple(_CLAUSE_ENDS)):
        return text[:-1] + _CLAUSE_ENDS[text[-1]]
    return text


def describe_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Describe the page by its first paragraph, for sphinxext-opengraph (which runs after) and search."""
    if doctree is None:
        return
    description = shorten(first_paragraph(doctree))
    if not description:
        return
    # A page's own og: fields override what sphinxext-opengraph computes; so does a description
    # already among the page's meta tags.
    context["meta"] = {**(context.get("meta") or {}), "og:description": description}
    context["metatags"] += f'<meta name="description" content="{html.escape(description)}" />\n'


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found = []
    while node.parent is not None:
        node = node.parent
        found.append(node)
    return found
