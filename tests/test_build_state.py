"""The build's state lives on env (made at builder-inited); the summary's phone labels are doctree markup."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

import tcdoc
import tcdoc.sphinxext
from tcdoc.sphinxext import _state, _table_nodes


@pytest.mark.sphinx("html", testroot="operation-docs", freshenv=True)
def test_the_matrix_is_the_build_s_and_is_not_pickled(app: SphinxTestApp) -> None:
    app.build()
    state = vars(app.env)["tcdoc_state"]  # the environment's own attribute
    assert isinstance(state, _state.BuildState)
    assert _state.build_matrix(app.env) is state.matrices["cpu"]
    assert pickle.loads(pickle.dumps(state)) == _state.BuildState()  # live objects stay in memory
    _state.reset(app)
    assert vars(app.env)["tcdoc_state"].matrices == {}


def test_a_later_build_reuses_the_matrix_kept_unless_what_it_depends_on_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = tcdoc.matrix(["clone"], ["leaf_requires_grad"])
    measured: list[str] = []

    def measure(device: str = "cpu") -> tcdoc.Matrix:
        measured.append(device)
        return small

    monkeypatch.setattr(tcdoc, "matrix", measure)
    assert _state._kept_matrix(tmp_path, "cpu") == small
    assert _state._kept_matrix(tmp_path, "cpu") == small  # read back from tmp_path
    assert measured == ["cpu"]
    key = _state._matrix_key("cpu")
    monkeypatch.setattr(_state, "_matrix_key", lambda device: {**key, "torch": "another torch"})
    assert _state._kept_matrix(tmp_path, "cpu") == small
    assert measured == ["cpu", "cpu"]  # measured again


def test_no_module_of_the_extension_holds_a_build_s_state() -> None:
    """Module-level dicts, lists and caches of per-build state are gone from the modules this change owns."""
    for module in ("_tables", "_table_nodes", "_roles", "_links", "_snippets", "_command", "_diagram"):
        source = (Path(tcdoc.sphinxext.__path__[0]) / f"{module}.py").read_text(encoding="utf-8")
        assert "functools.cache" not in source, module
        assert not re.search(r"^_[A-Z_]+: dict\[", source, re.MULTILINE), module
        assert "html-page-context" not in source, module


@pytest.mark.sphinx("html", testroot="operation-docs", freshenv=True)
def test_summary_cells_carry_their_heading_for_phones(app: SphinxTestApp) -> None:
    app.build()
    doctree = app.env.get_doctree("index")
    (table,) = [t for t in doctree.findall(nodes.table) if "tcdoc-summary" in t["classes"]]
    head, body = table.next_node(nodes.thead), table.next_node(nodes.tbody)
    assert head is not None
    assert body is not None
    headings = [" ".join(e.astext().split()) for e in head.findall(nodes.entry)]
    for row in body.findall(nodes.row):
        cells = list(row.findall(nodes.entry))
        assert [type(cell) for cell in cells] == [_table_nodes.labelled_entry] * len(cells)
        assert [cell["label"] for cell in cells] == headings[: len(cells)]
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<table class="[^"]*tcdoc-summary.*?</table>', html, re.DOTALL)
    assert found is not None
    summary = found.group(0)
    labels = re.findall(r'<td data-label="([^"]*)"', summary)
    assert labels[:2] == ["y =", headings[1]]
    assert len(labels) == 2 * len(headings)  # two rows (clone, detach), every cell labelled
    # No other table gets labels.
    assert "data-label" not in html.replace(summary, "")


@pytest.mark.sphinx("text", testroot="operation-docs", freshenv=True)
def test_other_writers_write_a_labelled_cell_as_a_plain_one(app: SphinxTestApp) -> None:
    app.build()
    assert "x.clone()" in (app.outdir / "index.txt").read_text(encoding="utf-8")
