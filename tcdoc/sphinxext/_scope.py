"""The ``tcdoc-scope`` directive: the conditions a section's sentences share, stated once.

::

    :::{tcdoc-scope}
    :x: leaf_requires_grad, non_leaf
    :grad-mode: enabled
    :::

renders one short line in the build's language ("In this section, `x` is a leaf that requires
grad or ..., and gradients are enabled."; "On this page, ..." right under the page's title),
each kind of ``x`` named by its scenario's summary. Every claim of the section, to the next
heading of the same or a higher level, inherits the scope (:func:`tcdoc.claims.scopes_of`):
its check gets it, and the build refuses a claim whose words cover more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from tcdoc.sphinxext._claims import _code_nodes
from tcdoc.sphinxext._i18n import generated, translate

if TYPE_CHECKING:
    from tcdoc.claims import Scope

__all__ = ["SCOPE_CLASS", "ScopeDirective", "write_scopes"]

SCOPE_CLASS = "tcdoc-scope"
"""The class of the paragraph a scope renders (the site's stylesheet may set it apart)."""

SCOPE_ATTRIBUTE = "tcdoc_scope"
"""The attribute that carries a scope from the directive to :func:`write_scopes`."""


class ScopeDirective(SphinxDirective):
    """State the kind of ``x``, the grad mode or the device that a section's sentences share."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "x": directives.unchanged_required,
        "grad-mode": directives.unchanged_required,
        "device": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        """Return a paragraph for the scope's line (written by :func:`write_scopes`), or an error."""
        from tcdoc.claims import parse_scope

        try:
            scope = parse_scope({key: str(value) for key, value in self.options.items()})
        except ValueError as exc:
            raise self.error(f"tcdoc-scope: {exc}") from None
        paragraph = nodes.paragraph(classes=[SCOPE_CLASS])
        paragraph[SCOPE_ATTRIBUTE] = scope
        self.set_source_info(paragraph)
        return generated([paragraph])


def write_scopes(app: Sphinx, doctree: nodes.document) -> None:
    """Write each scope's line, for its page or its section, in the build's language (``doctree-read``)."""
    for paragraph in doctree.findall(nodes.paragraph):
        scope: Scope | None = paragraph.get(SCOPE_ATTRIBUTE)
        if scope is None:
            continue
        parent = paragraph.parent
        where = (
            "page"
            if isinstance(parent, nodes.section) and isinstance(parent.parent, nodes.document)
            else "section"
        )
        paragraph += _code_nodes(scope.line(where, translate))
        del paragraph[SCOPE_ATTRIBUTE]
