"""The family pages' table of what changes under another grad mode, and their CUDA rows on a CPU build.

Built on the small project ``tests/roots/test-grad-modes``: a ``tcdoc-grad-modes`` table of the
copies and the ``tcdoc-matrix`` tables of the conversions (which has the CUDA operations).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

import tcdoc
from tcdoc._diff import grad_mode_changes
from tcdoc._names import LABELS
from tcdoc.sphinxext import _grad_modes

HEADINGS = ["y =", "property", "enabled", "torch.no_grad()", "torch.inference_mode()", "x"]


def build(
    make_app: Callable[..., SphinxTestApp], rootdir: Path, tmp_path: Path, **overrides: Any
) -> SphinxTestApp:
    srcdir = tmp_path / "grad-modes"
    shutil.copytree(rootdir / "test-grad-modes", srcdir)
    app = make_app("html", srcdir=srcdir, confoverrides=overrides, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    return app


def tables(app: SphinxTestApp, kind: str) -> list[nodes.table]:
    doctree = app.env.get_doctree("index")
    return [table for table in doctree.findall(nodes.table) if kind in table["classes"]]


def rows_of(table: nodes.table) -> list[list[nodes.entry]]:
    body = table.next_node(nodes.tbody)
    assert body is not None
    return [[e for e in row.children if isinstance(e, nodes.entry)] for row in body.findall(nodes.row)]


def said(entry: nodes.entry) -> tuple[str, tuple[str, ...]]:
    """What a cell shows: its text, and the tooltips of its "n/a" and in-place writes."""
    tooltips = tuple(str(a.get("explanation", "")) for a in entry.findall(nodes.abbreviation))
    return entry.astext(), tooltips


@pytest.fixture
def english(make_app: Callable[..., SphinxTestApp], rootdir: Path, tmp_path: Path) -> SphinxTestApp:
    return build(make_app, rootdir, tmp_path)


def test_the_grad_mode_table_lists_exactly_the_answers_that_change(english: SphinxTestApp) -> None:
    (table,) = tables(english, "tcdoc-grad-modes")
    head = table.next_node(nodes.thead)
    assert head is not None
    assert [e.astext() for e in head.findall(nodes.entry)] == HEADINGS
    changes = grad_mode_changes(tcdoc.matrix(), "copies")
    assert changes  # the copies do change: clone() is a leaf under no_grad
    rows = rows_of(table)
    listed = [
        (r[0].astext(), scenario, r[1].astext()) for r in rows for scenario in r[-1].astext().split(", ")
    ]
    expected = [
        (tcdoc.get_operation(op).code, scenario, LABELS.get(field, field.replace("_", " ")))
        for op, scenario, field in changes
    ]
    assert sorted(listed) == sorted(expected)  # every change once, its kinds of x joined where alike
    assert len(listed) == len(set(listed))
    assert len(rows) < len(expected)  # joined: shorter than a row per change
    for row in rows:
        assert len(row) == len(HEADINGS)
        values = {said(entry) for entry in row[2:5]}
        assert len(values) > 1, [e.astext() for e in row]  # it changes, so the cells differ
    # The stamp and no other table between this one and the next section.
    siblings = table.parent.children
    after = siblings[siblings.index(table) + 1 :]
    assert any(
        "tcdoc-stamp" in node.get("classes", []) for node in after if isinstance(node, nodes.paragraph)
    )


def test_the_grad_mode_table_shows_what_torch_does_in_each_mode(english: SphinxTestApp) -> None:
    # torch itself, without tcdoc: a clone of a leaf that requires grad, in each grad mode.
    leaf = torch.ones(3, requires_grad=True)
    with torch.enable_grad():
        enabled = leaf.clone()
    with torch.no_grad():
        no_grad = leaf.clone()
    with torch.inference_mode():
        inference = leaf.clone()
    word = {True: "yes", False: "no"}
    expected = {
        LABELS["is_leaf"]: [word[y.is_leaf] for y in (enabled, no_grad, inference)],
        LABELS["requires_grad"]: [word[y.requires_grad] for y in (enabled, no_grad, inference)],
    }
    assert expected[LABELS["is_leaf"]] == ["no", "yes", "yes"]  # the snippet shows a change to be listed
    (table,) = tables(english, "tcdoc-grad-modes")
    shown = {
        row[1].astext(): [e.astext() for e in row[2:5]]
        for row in rows_of(table)
        if row[0].astext() == "x.clone()" and "leaf_requires_grad" in row[-1].astext().split(", ")
    }
    for label, values in expected.items():
        if len(set(values)) > 1:  # an answer that changes is listed, with torch's value in each mode
            assert shown[label] == values
        else:
            assert label not in shown


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA build runs the CUDA cells")
def test_a_cpu_build_shows_the_cuda_rows_as_not_run(english: SphinxTestApp) -> None:
    doctree = english.env.get_doctree("index")
    cuda_ops = [op for op in tcdoc.operations(include_unavailable=True) if op.needs_cuda]
    assert {op.family for op in cuda_ops} == {"conversions"}
    for op in tcdoc.operations(include_unavailable=True):
        if op.family != "conversions":
            continue
        (section,) = [s for s in doctree.findall(nodes.section) if f"matrix-{op.name}" in s["ids"]]
        table_rows = [rows_of(t) for t in section.findall(nodes.table)]
        headings = [
            [e.astext() for e in head.findall(nodes.entry)]
            for head in (t.next_node(nodes.thead) for t in section.findall(nodes.table))
            if head is not None
        ]
        columns = [name for heading in headings for name in heading[1:]]
        assert "cuda" in columns  # the cuda scenario has its column
        for heading, rows in zip(headings, table_rows, strict=True):
            for index, scenario in enumerate(heading[1:], start=1):
                if op.needs_cuda or scenario == "cuda":
                    assert rows[0][index].astext() == "not run: no CUDA device", (op.name, scenario)
        note = " ".join(
            p.astext() for p in section.findall(nodes.paragraph) if "tcdoc-not-run-note" in p["classes"]
        )
        assert "no CUDA device" in note


def test_a_family_where_nothing_changes_says_so(
    make_app: Callable[..., SphinxTestApp], rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one_mode = tcdoc.matrix(["clone"], ["leaf_requires_grad"], grad_modes=["enabled"])
    monkeypatch.setattr(_grad_modes, "build_matrix", lambda env: one_mode)
    app = build(make_app, rootdir, tmp_path)
    assert tables(app, "tcdoc-grad-modes") == []
    doctree = app.env.get_doctree("index")
    (sentence,) = [p for p in doctree.findall(nodes.paragraph) if "tcdoc-grad-modes-none" in p["classes"]]
    assert (
        sentence.astext()
        == "No answer of this family changes under torch.no_grad() or torch.inference_mode()."
    )


# jieba, which Sphinx's Chinese search uses, leaves its dictionary file open.
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA build runs the CUDA cells")
def test_the_chinese_build_translates_the_new_words(
    make_app: Callable[..., SphinxTestApp], rootdir: Path, tmp_path: Path
) -> None:
    app = build(make_app, rootdir, tmp_path, language="zh_CN")
    (table,) = tables(app, "tcdoc-grad-modes")
    head = table.next_node(nodes.thead)
    assert head is not None
    shown = [e.astext() for e in head.findall(nodes.entry)]
    assert shown[2] != "enabled"
    assert shown[3:] == ["torch.no_grad()", "torch.inference_mode()", "x"]
    page = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "no CUDA device" not in page
