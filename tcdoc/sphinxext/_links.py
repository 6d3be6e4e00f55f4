"""Links from an operation's code in a table to the page that shows it best.

The page is :func:`tcdoc.sphinxext._config.operation_doc`'s: ``tcdoc_operation_docs``, or
``tcdoc_operation_default_doc``.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import NoUri
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

import tcdoc
from tcdoc.sphinxext._config import operation_doc

__all__ = ["code_link", "resolve_operation_link"]

logger = logging.getLogger(__name__)


def code_link(env: BuildEnvironment, op: tcdoc.Operation | tcdoc.ModuleOperation) -> nodes.Node:
    """Show the operation's code, linked to its page (see ``_config.operation_doc``) if it has one.

    The link is resolved by :func:`resolve_operation_link`, which keeps the code formatting.
    """
    code = nodes.literal(op.code, op.code)
    docname = operation_doc(env.config, op.name)
    if docname is None:
        return code
    ref = pending_xref("", refdomain="", reftype=_LINK_TYPE, reftarget=docname, refdoc=env.docname)
    ref += code
    return ref


# The type of the links code_link makes. They name no domain, so Sphinx hands them to the
# missing-reference event, with the code node intact (its std :doc: role would make it plain text).
_LINK_TYPE = "tcdoc-operation"


def resolve_operation_link(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Link an operation's code to its page (``missing-reference`` handler).

    A page that does not exist is a warning of type ``tcdoc.link``, and the code stays unlinked.
    """
    if node.get("reftype") != _LINK_TYPE:
        return None
    docname = node["reftarget"]
    if docname in env.all_docs:
        return make_refnode(app.builder, node["refdoc"], docname, None, contnode)
    logger.warning(
        "tcdoc_operation_docs links %s to %r, which is not a page of this project",
        contnode.astext(),
        docname,
        location=node,
        type="tcdoc",
        subtype="link",
    )
    raise NoUri(docname)  # Sphinx then keeps the code, unlinked, and warns no more
