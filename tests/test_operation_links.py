"""``tcdoc_operation_default_doc``: the page an operation links to when the map names no page for it."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import pytest
from docutils import nodes
from sphinx.errors import ConfigError
from sphinx.testing.util import SphinxTestApp

if TYPE_CHECKING:
    from sphinx.testing.fixtures import _app_params


def resolved(app: SphinxTestApp, docname: str = "index") -> nodes.document:
    """The doctree of ``docname`` with its references resolved, as the builder writes it."""
    if "tags" in inspect.signature(app.env.get_and_resolve_doctree).parameters:
        return app.env.get_and_resolve_doctree(docname, app.builder, tags=app.tags)
    return app.env.get_and_resolve_doctree(docname, app.builder)


N = TypeVar("N", bound=nodes.Node)


def first(node: nodes.Node, cls: type[N]) -> N:
    """The first ``cls`` below ``node``, as ``node.next_node(cls)`` finds it; the test needs one there."""
    found = node.next_node(cls)
    assert found is not None, f"no {cls.__name__} in {node.astext()[:60]!r}"
    return found


def first_cells(doctree: nodes.document, kind: str) -> dict[str, nodes.entry]:
    (table,) = [t for t in doctree.findall(nodes.table) if kind in t["classes"]]
    cells = {}
    for row in first(table, nodes.tbody).findall(nodes.row):
        cell = row[0]
        assert isinstance(cell, nodes.entry)
        cells[cell.astext()] = cell
    return cells


@pytest.mark.sphinx(
    "html",
    testroot="operation-docs",
    freshenv=True,
    confoverrides={"tcdoc_operation_docs": {}, "tcdoc_operation_default_doc": "operations/clone"},
)
def test_an_operation_the_map_does_not_name_links_to_the_default_page(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    doctree = resolved(app)
    for kind in ("tcdoc-summary", "tcdoc-properties"):
        for code, cell in first_cells(doctree, kind).items():
            link = cell.next_node(nodes.reference)
            assert link is not None, (kind, code)
            assert link["refuri"] == "operations/clone.html"
            assert first(link, nodes.literal).astext() == code
    sections = {section["ids"][0]: section for section in doctree.findall(nodes.section)}
    see = [p for p in sections["matrix-detach"].findall(nodes.paragraph) if p.astext().startswith("See ")]
    assert [p.astext() for p in see] == ["See x.detach() for the page that shows it at work."]


@pytest.mark.sphinx(
    "html",
    testroot="operation-docs",
    freshenv=True,
    confoverrides={"tcdoc_operation_default_doc": "index"},
)
def test_the_map_wins_over_the_default(app: SphinxTestApp) -> None:
    app.build()
    cells = first_cells(resolved(app), "tcdoc-summary")
    assert first(cells["x.clone()"], nodes.reference)["refuri"] == "operations/clone.html"
    assert first(cells["x.detach()"], nodes.reference)["refuri"] == ""  # this very page


@pytest.mark.sphinx("html", testroot="operation-docs")
@pytest.mark.parametrize("bad", ["look-alikes.md", "", 3])
def test_a_bad_default_is_a_configuration_error(
    make_app: Callable[..., SphinxTestApp], app_params: _app_params, bad: object
) -> None:
    overrides = {**app_params.kwargs, "confoverrides": {"tcdoc_operation_default_doc": bad}}
    with pytest.raises(ConfigError, match=r"tcdoc_operation_default_doc must be a docname .*; got"):
        make_app(*app_params.args, **overrides)
