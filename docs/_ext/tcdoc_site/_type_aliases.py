"""A type alias, documented as data, found where a signature or a field names it as a class.

``tcdoc.claims`` documents ``Check`` and ``AnyClaim`` with ``autodata``, and autodoc's
descriptions of ``Claim.check`` and of ``verify`` name them as classes. Sphinx 9 resolves such a
``py:class`` reference to the ``py:data`` (or ``py:attr``) of that name; older releases, down to
the floor that pyproject.toml declares (Sphinx 8.1, the newest for Python 3.10), leave it
unresolved, which a nitpicky build reports. :func:`resolve_type_alias` does what Sphinx 9 does,
for a reference that Sphinx itself left unresolved, so that both build the same links.
"""

from __future__ import annotations

from docutils import nodes
from docutils.nodes import Element
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

__all__ = ["resolve_type_alias"]


def resolve_type_alias(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: Element
) -> nodes.reference | None:
    """Resolve a ``py:class`` reference Sphinx left unresolved as ``py:data``, then ``py:attr``."""
    if node.get("refdomain") != "py" or node.get("reftype") != "class":
        return None
    domain = env.get_domain("py")
    target = node["reftarget"]
    for role in ("data", "attr"):
        found = domain.resolve_xref(env, node.get("refdoc", ""), app.builder, role, target, node, contnode)
        if found is not None:
            return found
    return None
