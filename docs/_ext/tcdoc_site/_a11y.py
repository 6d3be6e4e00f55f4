"""Markup that every reader can use.

Three things in the HTML that Sphinx and sphinx-gallery write fail the WCAG 2.1 A/AA rules that
axe-core checks (``tests/browser``), and are mended here rather than by switching a rule off:

- a toctree caption is a ``<p role="heading">`` without the ``aria-level`` that such a heading
  needs (:func:`level_captions`, on every page and in furo's sidebar);
- a thumbnail card of a gallery or mini-gallery has an image with empty alt text beside a link
  whose text is hidden (:func:`describe_thumbnails` gives the image the example's title;
  ``docs/_static/tcdoc.css`` hides the link's text for the eye only, so it names the link);
- a figure's alt text, which sphinx-gallery's ``image-sg`` writes into ``alt="..."`` as it is,
  breaks the attribute where the text holds a quote, as a diagram of ``loaded["signal"]`` does
  (:func:`escape_figure_alts` escapes it first);
- a code block that scrolls cannot be reached by keyboard (``_static/tcdoc-a11y.js`` gives each
  such block a place in the tab order, :func:`tcdoc_site._assets.add_scripts`).
"""

from __future__ import annotations

import html
import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

__all__ = ["describe_thumbnails", "escape_figure_alts", "level_captions"]

# What Sphinx's HTML writer emits for a toctree's caption (HTML5Translator.visit_title).
_CAPTION = re.compile(r'<p class="caption" role="heading"(?![^>]*aria-level)')
# The level a caption has in the page outline: it heads a list of pages, under the site's title.
_CAPTION_LEVEL = 2
# The HTML of a page that furo's templates insert: the page itself and the sidebar's tree.
_PAGE_PARTS = ("body", "furo_navigation_tree")


def level_captions(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Give every toctree caption of the page an ``aria-level`` (``html-page-context``).

    >>> context = {"body": '<p class="caption" role="heading"><span>Tutorials</span></p>'}
    >>> level_captions(None, "index", "page.html", context, None)
    >>> context["body"]
    '<p class="caption" role="heading" aria-level="2"><span>Tutorials</span></p>'
    """
    for part in _PAGE_PARTS:
        html = context.get(part)
        if isinstance(html, str):
            context[part] = _CAPTION.sub(rf'\g<0> aria-level="{_CAPTION_LEVEL}"', html)


def describe_thumbnails(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give each sphinx-gallery thumbnail its example's title as alt text.

    Runs at ``doctree-resolved``, when the link beside each thumbnail carries the example's
    title. A thumbnail is an image in a gallery's ``images/thumb`` folder; the card that
    sphinx-gallery writes puts the link to its example right after it.
    """
    for image in doctree.findall(nodes.image):
        if "/images/thumb/sphx_glr_" not in "/" + image["uri"]:
            continue
        title = _card_title(image)
        if not image.get("alt") and title:
            image["alt"] = title


def escape_figure_alts(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Escape the alt text of each sphinx-gallery figure for the HTML attribute it goes into.

    Runs at ``doctree-resolved``, for the HTML builders only: sphinx-gallery's ``imgsgnode``
    pastes ``alt`` between double quotes without escaping it.
    """
    if app.builder.format != "html":
        return
    for node in doctree.findall(nodes.Element):
        if type(node).__name__ == "imgsgnode":
            node["alt"] = html.escape(str(node.get("alt", "")), quote=True)


def _card_title(image: nodes.image) -> str:
    """Return the text of the link that follows a thumbnail in its card, or ``""``."""
    parent = image.parent
    if parent is None:
        return ""
    following = parent.children[parent.index(image) + 1 :]
    if following and isinstance(following[0], nodes.paragraph):
        return " ".join(following[0].astext().split())
    return ""
