"""Snapshots of a release's matrix, the history of releases, and the page that shows it.

The writer of ``nox -s snapshot`` (``tools/write_snapshot.py``) is run on the installed torch;
the grouping of changes is tried on real measurements, changed by swapping in what another
operation measured; and the small project ``tests/roots/test-changes`` is built from two small
snapshots, then built again after one of them changed, to see that the page follows the files.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import platform
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from sphinx.testing.util import SphinxTestApp
from sphinx.util.docutils import docutils_namespace

import tcdoc
from tcdoc import cli
from tcdoc._diff import CHANGE_GROUPS, change_group, history, words
from tcdoc._snapshots import LABEL_FIELDS, Snapshot, read_snapshot, read_snapshots, release, snapshot_name
from tcdoc.sphinxext._changes import TARGET
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


write_snapshot = load_script("tools/write_snapshot.py")

OPERATIONS = ["clone", "detach", "torch_tensor", "new_tensor", "save_load", "deepcopy"]
SCENARIOS = ["leaf_requires_grad", "non_leaf"]


@pytest.fixture(scope="module")
def small() -> tcdoc.Matrix:
    """A real matrix of a few operations, on two kinds of x, in every grad mode."""
    return tcdoc.matrix(OPERATIONS, SCENARIOS)


def relabelled(matrix: tcdoc.Matrix, torch_version: str) -> tcdoc.Matrix:
    return dataclasses.replace(
        matrix, environment=dataclasses.replace(matrix.environment, torch=torch_version)
    )


def swapped(
    matrix: tcdoc.Matrix, target: tuple[str, str, str], source: tuple[str, str, str], part: str
) -> tcdoc.Matrix:
    """``matrix`` with the ``part`` ("outcome" or "warnings") of one cell taken from another measured cell."""
    donor = matrix.get(*source)
    rows = tuple(
        dataclasses.replace(row, **{part: getattr(donor, part)})
        if (row.operation, row.scenario, row.grad_mode) == target
        else row
        for row in matrix.rows
    )
    return dataclasses.replace(matrix, rows=rows)


def snapshot(matrix: tcdoc.Matrix, date: str = "2026-01-02") -> Snapshot:
    return Snapshot(
        matrix,
        platform="test-platform",
        date=date,
        tcdoc=tcdoc.__version__,
        requirement="torch",
        numpy="absent",
    )


def write(folder: Path, snap: Snapshot) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / snapshot_name(snap.matrix.environment.torch)
    path.write_text(write_snapshot.dumps(snap.to_json()), encoding="utf-8")
    return path


# -- The writer -----------------------------------------------------------------------------


def test_the_writer_labels_a_matrix_of_the_current_schema(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, small: tcdoc.Matrix
) -> None:
    measured: list[dict[str, Any]] = []
    real = tcdoc.matrix

    def few(**kwargs: Any) -> tcdoc.Matrix:
        measured.append(kwargs)
        return real(OPERATIONS[:2], SCENARIOS, **kwargs)

    monkeypatch.setattr(tcdoc, "matrix", few)
    assert write_snapshot.main(["--requirement", "torch==9.9.9", "--out", str(tmp_path)]) == 0
    assert measured == [{"device": "cpu"}, {"device": "cpu"}]  # measured twice, on the CPU
    (path,) = tmp_path.iterdir()
    assert path.name == snapshot_name(tcdoc.environment().torch)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema"] == tcdoc.SCHEMA
    assert set(data["label"]) == set(LABEL_FIELDS)
    assert data["label"]["requirement"] == "torch==9.9.9"
    assert data["label"]["platform"] == platform.platform()
    assert data["label"]["tcdoc"] == tcdoc.__version__
    assert (
        datetime.date.fromisoformat(data["label"]["date"])
        <= datetime.datetime.now(datetime.timezone.utc).date()
    )
    assert data["torch"] == tcdoc.environment().torch
    assert data["python"] == platform.python_version()
    read = read_snapshot(path)
    assert tcdoc.diff(read.matrix, real(OPERATIONS[:2], SCENARIOS)) == ()
    assert {row.grad_mode for row in read.matrix.rows} == set(tcdoc.GRAD_MODES)
    # One row a line: a diff of two snapshots shows the cells that changed.
    assert len(path.read_text(encoding="utf-8").splitlines()) >= len(read.matrix.rows) + len(
        read.matrix.modules
    )


def test_tcdoc_diff_reads_snapshots_as_they_are(
    tmp_path: Path, small: tcdoc.Matrix, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(tmp_path, snapshot(relabelled(small, "2.1.0")))
    changed = swapped(small, ("clone", "non_leaf", "enabled"), ("detach", "non_leaf", "enabled"), "outcome")
    new = write(tmp_path, snapshot(relabelled(changed, "2.2.0")))
    assert cli.main(["diff", str(old), str(new)]) == cli.DIFFERENT
    assert "clone / non_leaf / enabled / " in capsys.readouterr().out


def test_the_writer_refuses_a_matrix_that_measures_differently_twice(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, small: tcdoc.Matrix, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = swapped(small, ("clone", "non_leaf", "enabled"), ("detach", "non_leaf", "enabled"), "outcome")
    answers = iter([small, changed])
    monkeypatch.setattr(tcdoc, "matrix", lambda **kwargs: next(answers))
    assert write_snapshot.main(["--out", str(tmp_path)]) == 1
    assert "clone / non_leaf / enabled" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_snapshot_needs_its_label_and_a_release(small: tcdoc.Matrix) -> None:
    data = snapshot(relabelled(small, "2.1.0")).to_json()
    assert Snapshot.from_json(data).version == "2.1.0"
    with pytest.raises(ValueError, match="'date'"):
        Snapshot.from_json({**data, "label": {**data["label"], "date": None}})
    with pytest.raises(ValueError, match="label"):
        Snapshot.from_json({key: value for key, value in data.items() if key != "label"})
    with pytest.raises(ValueError, match="not a torch release"):
        Snapshot.from_json({**data, "torch": "main"})
    assert release("2.4.1+cu121") == (2, 4, 1)


def test_two_snapshots_of_one_release_are_refused(tmp_path: Path, small: tcdoc.Matrix) -> None:
    one = write(tmp_path / "a", snapshot(relabelled(small, "2.1.0")))
    other = write(tmp_path / "b", snapshot(relabelled(small, "2.1.0+cpu")))
    with pytest.raises(ValueError, match=r"two snapshots of torch 2\.1\.0"):
        read_snapshots([one, other])


# -- The grouping ---------------------------------------------------------------------------


def test_each_kind_of_real_change_lands_in_its_group(small: tcdoc.Matrix) -> None:
    """Swap measured parts between cells and see where each difference is grouped."""
    cases = {
        # what detach measured, in clone's cell: properties differ
        "copies": (("clone", "non_leaf", "enabled"), ("detach", "non_leaf", "enabled"), "outcome"),
        # deepcopy raises on a non-leaf: a cell that starts raising
        "errors": (("clone", "non_leaf", "enabled"), ("deepcopy", "non_leaf", "enabled"), "outcome"),
        # new_tensor's warning in torch.tensor's cell: other words
        "warnings": (
            ("torch_tensor", "non_leaf", "enabled"),
            ("new_tensor", "non_leaf", "enabled"),
            "warnings",
        ),
        # anything of torch.load's cell
        "load": (("save_load", "non_leaf", "enabled"), ("clone", "non_leaf", "enabled"), "outcome"),
    }
    for group, (target, source, part) in cases.items():
        changes = tcdoc.diff(small, swapped(small, target, source, part))
        assert changes, group
        assert {change_group(change) for change in changes} == {group}, (group, changes)
    assert set(cases) < set(CHANGE_GROUPS)


def test_a_message_that_differs_only_in_its_source_location_is_told_apart(small: tcdoc.Matrix) -> None:
    row = small.get("torch_tensor", "non_leaf")
    (warning,) = row.warnings
    elsewhere = dataclasses.replace(
        warning, message=warning.message + " (Triggered internally at ../aten/x.cpp:1.)"
    )
    moved = dataclasses.replace(
        small,
        rows=tuple(dataclasses.replace(r, warnings=(elsewhere,)) if r is row else r for r in small.rows),
    )
    (change,) = tcdoc.diff(small, moved)
    assert change_group(change) == "locations"
    assert words(change.old) == words(change.new)
    assert change.old != change.new


def test_history_lists_a_change_at_the_first_release_that_shows_it(small: tcdoc.Matrix) -> None:
    changed = swapped(small, ("clone", "non_leaf", "enabled"), ("detach", "non_leaf", "enabled"), "outcome")
    steps = history([small, small, changed, changed])
    assert [len(step.changes) for step in steps] == [0, len(tcdoc.diff(small, changed)), 0]
    assert steps[1].changes == tcdoc.diff(small, changed)


# -- The page follows the files -------------------------------------------------------------


def build(make_app: Callable[..., SphinxTestApp], srcdir: Path, fresh: bool) -> SphinxTestApp:
    with docutils_namespace():  # each build registers the extension's directives afresh
        app = make_app("html", srcdir=srcdir, freshenv=fresh)
        app.build()
    assert app.warning.getvalue() == ""
    return app


def sections(app: SphinxTestApp) -> dict[str, nodes.section]:
    doctree = app.env.get_doctree("index")
    return {
        ident.removeprefix("changes-"): section
        for section in doctree.findall(nodes.section)
        for ident in section["ids"]
        if ident.startswith("changes-")
    }


def marked(app: SphinxTestApp) -> list[str]:
    """The text of each cell of the matrix tables that carries a "changed" mark."""
    doctree = app.env.get_doctree("index")
    return [
        entry.astext()
        for table in doctree.findall(nodes.table)
        if "tcdoc-matrix" in table["classes"]
        for entry in table.findall(nodes.entry)
        if any("tcdoc-changed" in inline["classes"] for inline in entry.findall(nodes.inline))
    ]


def test_a_changed_snapshot_changes_the_page(
    make_app: Callable[..., SphinxTestApp], rootdir: Path, tmp_path: Path, small: tcdoc.Matrix
) -> None:
    srcdir = tmp_path / "changes"
    shutil.copytree(rootdir / "test-changes", srcdir)
    folder = srcdir / "_snapshots"
    write(folder, snapshot(relabelled(small, "2.1.0")))
    write(folder, snapshot(relabelled(small, "2.2.0")))

    app = build(make_app, srcdir, fresh=True)
    found = sections(app)
    for group in ("warnings", "load", "errors", "copies"):
        (paragraph,) = found[group].findall(nodes.paragraph)
        assert "tcdoc-changes-none" in paragraph["classes"], group
    assert "other" not in found  # nothing to say of cells run in one release only
    assert marked(app) == []
    assert app.env.domains.standard_domain.anonlabels[TARGET] == ("index", TARGET)

    # torch 2.2.0 measured clone as detach measures it, and torch.tensor's warning as new_tensor's.
    changed = swapped(small, ("clone", "non_leaf", "enabled"), ("detach", "non_leaf", "enabled"), "outcome")
    changed = swapped(
        changed,
        ("torch_tensor", "leaf_requires_grad", "no_grad"),
        ("new_tensor", "leaf_requires_grad", "no_grad"),
        "warnings",
    )
    write(folder, snapshot(relabelled(changed, "2.2.0"), date="2026-01-03"))
    app = build(make_app, srcdir, fresh=False)  # an incremental build: the file is a dependency
    found = sections(app)
    expected = tcdoc.diff(small, changed)
    copies = found["copies"].next_node(nodes.table)
    assert copies is not None
    rows = [[entry.astext() for entry in row.findall(nodes.entry)] for row in copies.findall(nodes.row)][1:]
    fields = {change.field for change in expected if change_group(change) == "copies"}
    # Each changed property twice: from 2.1.0 to 2.2.0, and back from 2.2.0 to this build's torch.
    assert len(rows) == 2 * len(fields)
    assert {row[0] for row in rows} == {
        "2.2.0 (after 2.1.0)",
        f"{'.'.join(map(str, release(tcdoc.environment().torch)))} (after 2.2.0)",
    }
    assert all(row[1] == "x.clone()" and row[2] == "non_leaf" and row[3] == "enabled" for row in rows)
    warned = found["warnings"].next_node(nodes.table)
    assert warned is not None
    assert "torch.no_grad()" in warned.astext()
    assert "new_tensor" in warned.astext()
    assert "2026-01-03" in app.env.get_doctree("index").astext()
    # The matrix marks clone's cells that changed (its enabled tables only), at most one per field.
    assert 0 < len(marked(app)) <= len(fields)


def test_a_row_of_changes_stands_for_as_many_cells_as_its_release_counts(
    make_app: Callable[..., SphinxTestApp], rootdir: Path, tmp_path: Path, small: tcdoc.Matrix
) -> None:
    """A change on one kind of x in one grad mode and on another in all three is not 2 x 3 cells."""
    srcdir = tmp_path / "changes"
    shutil.copytree(rootdir / "test-changes", srcdir)
    folder = srcdir / "_snapshots"
    write(folder, snapshot(relabelled(small, "2.1.0")))
    # torch 2.2.0 warned, in torch.tensor(x), as new_tensor does: for a leaf under no_grad only, and
    # for a non-leaf in every grad mode. The warnings' words are the same for both kinds of x.
    changed = swapped(
        small,
        ("torch_tensor", "leaf_requires_grad", "no_grad"),
        ("new_tensor", "leaf_requires_grad", "no_grad"),
        "warnings",
    )
    for mode in tcdoc.GRAD_MODES:
        changed = swapped(
            changed, ("torch_tensor", "non_leaf", mode), ("new_tensor", "non_leaf", mode), "warnings"
        )
    write(folder, snapshot(relabelled(changed, "2.2.0")))
    app = build(make_app, srcdir, fresh=True)
    doctree = app.env.get_doctree("index")
    (releases,) = [table for table in doctree.findall(nodes.table) if "tcdoc-releases" in table["classes"]]
    counts = {
        row[0]: row[4]
        for row in (
            [entry.astext() for entry in row.findall(nodes.entry)] for row in releases.findall(nodes.row)
        )
    }
    table = sections(app)["warnings"].next_node(nodes.table)
    assert table is not None
    rows = [[entry.astext() for entry in row.findall(nodes.entry)] for row in table.findall(nodes.row)][1:]
    shown = [row for row in rows if row[0] == "2.2.0 (after 2.1.0)"]
    cells = sum(
        len(row[2].split(", ")) * (3 if row[3] == "all three" else len(row[3].split(", "))) for row in shown
    )
    assert counts["2.2.0"] == str(cells) == "4", (counts, shown)
    modes = {row[2]: row[3] for row in shown}
    assert sorted(modes) == ["leaf_requires_grad", "non_leaf"], shown
    assert modes["non_leaf"] == "all three"
    assert modes["leaf_requires_grad"] not in ("all three", ""), modes


def test_the_committed_snapshots_are_read_and_named_by_their_release() -> None:
    paths = sorted((ROOT / "docs" / "_snapshots").glob("*.json"))
    assert paths, "no snapshot in docs/_snapshots"
    found = read_snapshots(paths)  # every file of the current schema, one per release
    for path in paths:
        snap = read_snapshot(path)
        assert path.name == snapshot_name(snap.matrix.environment.torch)
        assert snap.matrix.environment.device == "cpu"
        assert {row.grad_mode for row in snap.matrix.rows} == set(tcdoc.GRAD_MODES)
    assert [snap.release for snap in found] == sorted(snap.release for snap in found)
