"""The tcdoc command: output, JSON, and a clear message with exit status 2 for each bad input."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import torch

from tcdoc.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse's own usage errors, with an int status
        if not isinstance(exc.code, int):
            raise
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def test_matrix_table_names_the_torch_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--op", "clone", "--scenario", "no_grad")
    assert status == 0
    assert torch.__version__ in out.splitlines()[0]
    assert out.splitlines()[2].startswith("clone")


def test_matrix_table_shows_errors_in_their_row(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "matrix", "--op", "deepcopy", "--scenario", "non_leaf", "--scenario", "no_grad"
    )
    assert status == 0
    rows = [line for line in out.splitlines()[2:] if not line.startswith("#")]
    assert len(rows) == 6  # each cell under the three grad modes
    assert rows[0].split()[:5] == ["deepcopy", "non_leaf", "enabled", "raises", "RuntimeError"]
    assert rows[3].split()[:4] == ["deepcopy", "no_grad", "enabled", "yes"]
    assert [row.split()[2] for row in rows[3:]] == ["enabled", "no_grad", "inference_mode"]


def test_matrix_takes_a_grad_mode(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--json", "--op", "clone", "--grad-mode", "no_grad")
    assert status == 0
    assert [row["grad_mode"] for row in json.loads(out)["rows"]] == ["no_grad"] * len(
        __import__("tcdoc").scenarios(include_unavailable=True)
    )
    argv = ["matrix", "--json", "--op", "clone", "--scenario", "no_grad"]
    status, out, _ = run(
        capsys, *argv, "--grad-mode", "inference_mode", "--grad-mode", "no_grad", "--grad-mode", "no_grad"
    )
    assert [row["grad_mode"] for row in json.loads(out)["rows"]] == ["inference_mode", "no_grad"]
    status, _, err = run(capsys, "matrix", "--grad-mode", "off")
    assert status == 2
    assert "invalid choice: 'off'" in err
    assert "enabled" in err


def test_explain_takes_a_grad_mode(capsys: pytest.CaptureFixture[str]) -> None:
    # Independent snippet: a clone of a leaf that requires grad, made under no_grad, is a leaf.
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x.clone()
    assert y.is_leaf
    assert not y.requires_grad
    status, out, _ = run(capsys, "explain", "clone", "--grad-mode", "no_grad")
    assert status == 0
    assert "y made under torch.no_grad()" in out.splitlines()[1]
    section = out.split("On leaf_requires_grad:")[1].split("\nOn ")[0]
    assert "requires_grad=False, a leaf" in section
    _, default, _ = run(capsys, "explain", "clone")
    assert "torch.no_grad()" not in default.splitlines()[1]
    assert "requires_grad=True, not a leaf" in default.split("On leaf_requires_grad:")[1].split("\nOn ")[0]
    _, scenario, _ = run(capsys, "explain", "leaf_requires_grad", "--grad-mode", "inference_mode")
    assert "y made under torch.inference_mode()" in scenario.splitlines()[1]


def test_matrix_json_follows_schema_4(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--json", "--op", "deepcopy", "--scenario", "non_leaf")
    data = json.loads(out)
    assert status == 0
    assert data["schema"] == 4
    assert data["modules"] == []  # none named
    assert data["torch"] == torch.__version__
    assert data["device"] == "cpu"
    assert [row["grad_mode"] for row in data["rows"]] == ["enabled", "no_grad", "inference_mode"]
    row = data["rows"][0]
    assert row["properties"] is None
    assert row["error"]["type"] == "RuntimeError"


def test_explain_answers_the_four_questions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "detach")
    assert status == 0
    assert out.startswith("x.detach():")
    assert "no: shares the storage of x" in out
    assert out.count("New Python object?") == len(__import__("tcdoc").scenarios())


def all_names() -> dict[str, list[str]]:
    """Every name of each kind, from the registry itself (CUDA-only ones included)."""
    import tcdoc

    return {
        "operations": [op.name for op in tcdoc.operations(include_unavailable=True)],
        "module-level operations": [op.name for op in tcdoc.module_operations(include_unavailable=True)],
        "scenarios": [s.name for s in tcdoc.scenarios(include_unavailable=True)] + ["trained_model"],
    }


@pytest.mark.parametrize(
    ("argv", "first_lines"),
    [
        (["explain", "spars"], ["unknown name 'spars'", "did you mean: sparse (a scenario)"]),
        (["explain", "deep_copy"], ["unknown name 'deep_copy'", "did you mean: deepcopy (an operation)"]),
        (
            ["explain", "statedict"],
            ["unknown name 'statedict'", "did you mean: state_dict (a module-level operation)"],
        ),
        (["matrix", "--op", "deep_copy"], ["unknown operation 'deep_copy'", "did you mean: deepcopy"]),
        (["matrix", "--scenario", "leaf"], ["unknown scenario 'leaf'"]),
    ],
)
def test_an_unknown_name_gets_the_closest_names_in_three_lines_at_most(
    capsys: pytest.CaptureFixture[str], argv: list[str], first_lines: list[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    lines = err.splitlines()
    assert len(lines) <= 3
    assert lines[0] == f"tcdoc {argv[0]}: error: {first_lines[0]}"
    for expected, line in zip(first_lines[1:], lines[1:], strict=False):
        assert line.startswith(expected)
    assert lines[-1] == "'tcdoc names' lists every operation and scenario"


def test_a_name_in_other_letters_is_found_by_its_case(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "explain", "t")
    assert err.splitlines()[1] == "did you mean: T (an operation)"


def test_names_lists_every_name_by_kind(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "names")
    assert status == 0
    # One list per kind (wrapped, its lines after the first indented), with every name in it.
    listed = " ".join(line.strip() for line in out.splitlines())
    kinds = all_names()
    pattern = "(" + "|".join(re.escape(kind) for kind in kinds) + "): "
    found = dict(zip(re.findall(pattern, listed), re.split(pattern, listed)[2::2], strict=True))
    assert {kind: names.strip().split(", ") for kind, names in found.items()} == kinds


def test_a_name_of_the_wrong_kind_says_where_it_belongs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "matrix", "--op", "sparse")
    assert (status, out) == (2, "")
    assert err == (
        "tcdoc matrix: error: 'sparse' is a scenario, not an operation: name it with --scenario sparse\n"
    )
    _, _, err = run(capsys, "matrix", "--scenario", "state_dict")
    assert err == (
        "tcdoc matrix: error: 'state_dict' is a module-level operation, not a scenario: "
        "name it with --op state_dict\n"
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message shown without CUDA")
def test_cuda_device_without_cuda(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "matrix", "--device", "cuda")
    assert status == 2
    assert "no CUDA device" in err


def test_diff_of_identical_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(capsys, "matrix", "--json", "--op", "clone")
    (tmp_path / "a.json").write_text(out)
    status, out, _ = run(capsys, "diff", str(tmp_path / "a.json"), str(tmp_path / "a.json"))
    assert status == 0
    assert "no differences" in out


def test_diff_reports_a_changed_cell(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(capsys, "matrix", "--json", "--op", "clone", "--scenario", "no_grad")
    data = json.loads(out)
    (tmp_path / "old.json").write_text(out)
    data["torch"] = "9.9.9"
    data["rows"][0]["properties"]["shares_storage"] = True
    (tmp_path / "new.json").write_text(json.dumps(data))
    status, out, _ = run(capsys, "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert status == 1  # as diff(1) says that its files differ
    assert "clone / no_grad / enabled / shares_storage: no -> yes" in out
    assert "torch 9.9.9" in out


def test_matrix_table_says_n_a_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--op", "deepcopy", "--scenario", "no_grad")
    assert status == 0
    header, row = out.splitlines()[1:3]
    assert header.split()[-5:] == [".grad", "attrs", "dtype", "new", "bytes"]
    assert row.split()[-4:-2] == ["n/a", "n/a"]
    assert row[header.index(".grad") :].startswith("n/a")  # under its heading
    assert row[header.index("grad to x") :].startswith("n/a")  # x does not require grad
    assert "# n/a under '.grad': x has no .grad" in out
    assert "# n/a under 'grad to x': x does not require grad, so no gradient can reach it" in out


def test_matrix_table_and_explain_show_a_cell_not_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    _, out, _ = run(capsys, "matrix", "--op", "numpy_roundtrip", "--scenario", "no_grad")
    last = ["numpy_roundtrip", "no_grad", "inference_mode", "not run: needs numpy"]
    assert out.splitlines()[-1].split(maxsplit=3) == last
    _, out, _ = run(capsys, "explain", "numpy_roundtrip")
    assert out.count("not run: needs numpy") == len(__import__("tcdoc").scenarios())
    assert "raises" not in out


def write_matrix(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> dict[str, Any]:
    _, out, _ = run(capsys, "matrix", "--json", *argv)
    path.write_text(out)
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_diff_reports_a_cell_not_run_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_matrix(capsys, tmp_path / "old.json", "--op", "numpy_roundtrip")
    monkeypatch.setitem(sys.modules, "numpy", None)
    write_matrix(capsys, tmp_path / "new.json", "--op", "numpy_roundtrip")
    _, out, _ = run(capsys, "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    changes = out.splitlines()[2:]
    assert len(changes) == len(__import__("tcdoc").scenarios()) * 3
    assert changes[0] == (
        "numpy_roundtrip / leaf_requires_grad / enabled / outcome: measured -> not run: needs numpy"
    )


def test_diff_says_in_one_line_that_an_older_schema_is_not_supported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = write_matrix(capsys, tmp_path / "new.json", "--op", "clone")
    data["schema"] = 1
    (tmp_path / "old.json").write_text(json.dumps(data))
    status, out, err = run(capsys, "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert status == 2
    assert out == ""
    assert err.splitlines() == [
        f"tcdoc diff: error: {tmp_path / 'old.json'}: a matrix of schema 1 is not supported: "
        "this tcdoc reads schema 4 only (write it again with 'tcdoc matrix --json')"
    ]


def test_diff_writes_values_as_the_tables_do(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    old = write_matrix(
        capsys, tmp_path / "old.json", "--op", "clone", "--op", "state_dict", "--grad-mode", "enabled"
    )
    new = json.loads(json.dumps(old))
    row = next(r for r in new["rows"] if r["scenario"] == "no_grad")
    was = dict(row["properties"])
    assert was["copies_grad"] is None  # x has no .grad here: n/a
    row["properties"].update(
        new_bytes=was["new_bytes"] * 2,
        result_type="Parameter",
        copies_grad=True,
        grad_fn="CloneBackward0",
    )
    row["warnings"] = [{"category": "UserWarning", "message": "it's 'quoted'"}]
    new["rows"] = [r for r in new["rows"] if r["scenario"] != "zero_dim"]
    new["modules"][0]["properties"]["tensors"] += 1
    (tmp_path / "new.json").write_text(json.dumps(new))
    status, out, _ = run(capsys, "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert status == 1
    lines = out.splitlines()[2:]
    tensors = old["modules"][0]["properties"]["tensors"]
    assert lines == [
        "clone / no_grad / enabled / grad_fn: \u2013 -> CloneBackward0",
        f"clone / no_grad / enabled / result_type: {was['result_type']} -> Parameter",
        "clone / no_grad / enabled / copies_grad: n/a -> yes",
        f"clone / no_grad / enabled / new_bytes: {was['new_bytes']} -> {was['new_bytes'] * 2}",
        "clone / no_grad / enabled / warnings: none -> UserWarning: it's 'quoted'",
        "clone / zero_dim / enabled / row: present -> absent",
        f"state_dict / trained_model / tensors: {tensors} -> {tensors + 1}",
    ]


def test_diff_exits_0_only_where_nothing_differs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = write_matrix(capsys, tmp_path / "a.json", "--op", "clone", "--scenario", "no_grad")
    data["rows"][0]["warnings"] = [{"category": "UserWarning", "message": "new"}]
    (tmp_path / "b.json").write_text(json.dumps(data))
    assert run(capsys, "diff", str(tmp_path / "a.json"), str(tmp_path / "a.json"))[0] == 0
    assert run(capsys, "diff", str(tmp_path / "a.json"), str(tmp_path / "b.json"))[0] == 1
    assert run(capsys, "diff", str(tmp_path / "b.json"), str(tmp_path / "a.json"))[0] == 1


def into_a_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tcdoc ARGV`` writing into a pipe whose reader has already gone."""
    reader = [sys.executable, "-c", "pass"]  # reads nothing, and is gone before tcdoc writes
    with subprocess.Popen(reader, stdin=subprocess.PIPE) as gone:
        gone.wait()
        assert gone.stdin is not None
        return subprocess.run(
            [sys.executable, "-m", "tcdoc", *argv],
            stdin=subprocess.DEVNULL,
            stdout=gone.stdin,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )


@pytest.mark.parametrize(
    "argv",
    [
        ["matrix", "--op", "clone", "--scenario", "no_grad"],
        ["matrix", "--json", "--op", "clone", "--scenario", "no_grad"],
        ["explain", "detach"],
        ["--help"],
        ["diff", "OLD", "NEW"],
    ],
)
def test_every_command_into_a_closed_pipe_ends_quietly_with_its_own_status(
    tmp_path: Path, argv: list[str]
) -> None:
    if argv[0] == "diff":
        old = tcdoc_json(["--op", "clone"])
        new = json.loads(old)
        new["rows"][0]["properties"]["new_object"] = False
        (tmp_path / "old.json").write_text(old)
        (tmp_path / "new.json").write_text(json.dumps(new))
        argv = ["diff", str(tmp_path / "old.json"), str(tmp_path / "new.json")]
    done = into_a_closed_pipe(argv)
    assert done.stderr == ""  # no BrokenPipeError, no traceback
    # The reader had all it wanted: nothing failed, and diff still says that the two differ.
    assert done.returncode == (1 if argv[0] == "diff" else 0)


def test_diff_into_head_exits_1_on_every_run(tmp_path: Path) -> None:
    # `tcdoc diff a b | head -1` once exited 1 or 0 by how far the output got before head left.
    old = tcdoc_json(["--op", "clone", "--op", "detach"])
    new = json.loads(old)
    for row in new["rows"]:
        if row["properties"] is not None:
            row["properties"]["new_object"] = not row["properties"]["new_object"]
    (tmp_path / "old.json").write_text(old)
    (tmp_path / "new.json").write_text(json.dumps(new))
    command = [sys.executable, "-m", "tcdoc", "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json")]
    statuses = []
    for _ in range(4):
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as diff:
            assert diff.stdout is not None
            diff.stdout.readline()  # head -1
            diff.stdout.close()
            diff.wait()
            statuses.append(diff.returncode)
    assert statuses == [1, 1, 1, 1]


def test_an_error_into_a_closed_pipe_still_exits_2() -> None:
    # Like `tcdoc explain spars 2>&1 | head -1`: the message cannot be written, the status says it.
    with subprocess.Popen([sys.executable, "-c", "pass"], stdin=subprocess.PIPE) as gone:
        gone.wait()
        command = [sys.executable, "-m", "tcdoc", "explain", "spars"]
        done = subprocess.run(
            command, stdin=subprocess.DEVNULL, stdout=gone.stdin, stderr=gone.stdin, check=False
        )
    assert done.returncode == 2


def tcdoc_json(argv: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tcdoc", "matrix", "--json", *argv], capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.skipif(not (shutil.which("bash") and shutil.which("head")), reason="needs bash and head")
def test_matrix_into_head_passes_under_pipefail() -> None:
    # The whole table is over 64 KiB, more than a pipe holds: head is gone before the rest is written.
    script = f"set -o pipefail; {sys.executable} -m tcdoc matrix | head -1"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"# torch {torch.__version__}")
    assert done.stdout.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"schema": 7, "rows": []}', "a matrix of schema 7 is not supported: this tcdoc reads schema 4"),
        ('{"schema": 4, "rows": [{"operation": "clone"}], "modules": []}', "malformed rows[0] (clone): "),
        ("[1, 2]", "a matrix must be a JSON object, got list"),
    ],
)
def test_diff_rejects_bad_files_without_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    status, _, err = run(capsys, "diff", str(bad), str(bad))
    assert status == 2
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["rows"][1]["properties"].pop("shares_storage"),
            "malformed rows[1] (clone / non_leaf / enabled): in 'properties', "
            "the field 'shares_storage' is missing",
        ),
        (
            lambda d: d["rows"][2]["properties"].update(shares_storage="yes"),
            "malformed rows[2] (clone / leaf_from_operation / enabled): in 'properties', "
            "the field 'shares_storage' must be true or false, not a string",
        ),
        (
            lambda d: d["rows"][2]["properties"].update(new_bytes=True),
            "malformed rows[2] (clone / leaf_from_operation / enabled): in 'properties', "
            "the field 'new_bytes' must be a whole number or null, not true or false",
        ),
        (
            lambda d: d["rows"][0]["properties"].update(shares_everything=True),
            "malformed rows[0] (clone / leaf_requires_grad / enabled): in 'properties', "
            "the field 'shares_everything' is not one of Comparison's",
        ),
        (
            lambda d: d["rows"][0].pop("warnings"),
            "malformed rows[0] (clone / leaf_requires_grad / enabled): the field 'warnings' is missing",
        ),
        (
            lambda d: d["rows"][0].update(warnings=[{"category": "UserWarning"}]),
            "malformed rows[0] (clone / leaf_requires_grad / enabled): "
            "in 'warnings[0]', the field 'message' is missing",
        ),
        (
            lambda d: d["rows"][0].update(properties=[1, 2]),
            "malformed rows[0] (clone / leaf_requires_grad / enabled): "
            "the field 'properties' must be an object or null, not a list",
        ),
        (
            lambda d: d["rows"][0].update(error={"type": "RuntimeError", "message": "no"}),
            "malformed rows[0] (clone / leaf_requires_grad / enabled): "
            "a row needs exactly one of 'properties', 'error' and 'not_run'",
        ),
        (
            lambda d: d["modules"][0]["properties"].update(tensors="7"),
            "malformed modules[0] (state_dict): in 'properties', the field 'tensors' must be a whole number, "
            "not a string",
        ),
    ],
)
def test_diff_names_the_row_and_field_of_a_malformed_file_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: Any, message: str
) -> None:
    data = write_matrix(
        capsys, tmp_path / "good.json", "--op", "clone", "--op", "state_dict", "--grad-mode", "enabled"
    )
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    status, out, err = run(capsys, "diff", str(tmp_path / "good.json"), str(bad))
    assert (status, out) == (2, "")
    assert err.splitlines() == [f"tcdoc diff: error: {bad}: {message}"]


def test_diff_of_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "diff", str(tmp_path / "nope.json"), str(tmp_path / "nope.json"))
    assert status == 2
    assert "cannot read" in err


def test_python_dash_m_runs_the_same_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tcdoc", "explain", "spars"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("tcdoc explain: error: unknown name 'spars'\ndid you mean: sparse")


# -- The names added with the complete reference -----------------------------------------------


def every_name() -> list[str]:
    import tcdoc

    available = [op.name for op in tcdoc.operations()]
    modules = [op.name for op in tcdoc.module_operations()]
    return [*available, *modules, *(s.name for s in tcdoc.scenarios()), "trained_model"]


@pytest.mark.parametrize("name", every_name())
def test_explain_works_for_every_name(capsys: pytest.CaptureFixture[str], name: str) -> None:
    import tcdoc

    status, out, err = run(capsys, "explain", name)
    assert (status, err) == (0, "")
    first = out.splitlines()[0]
    if name in [op.name for op in tcdoc.operations()]:
        assert first.startswith(tcdoc.get_operation(name).code + ":")
        # The CUDA scenario too, where there is no CUDA: "not run: no CUDA device".
        assert out.count("\nOn ") == len(tcdoc.scenarios(include_unavailable=True))
    elif name in [op.name for op in tcdoc.module_operations()]:
        op = tcdoc.get_module_operation(name)
        assert first.startswith(op.code + ":")
        assert f"x is the {op.source}." in out
        assert all(question in out for question in tcdoc.MODULE_QUESTIONS.values()) or "raises" in out
    elif name == "trained_model":  # the module-level operations' one source: every one of them on it
        assert first.startswith("trained_model: ")
        ops = tcdoc.module_operations()
        assert [line[len("y = ") :] for line in out.splitlines() if line.startswith("y = ")] == [
            f"{op.code}: {op.summary}" for op in ops
        ]
        assert [line for line in out.splitlines() if line.startswith("x is the ")] == [
            f"x is the {op.source}." for op in ops
        ]
    else:
        assert first == f"{name}: {tcdoc.get_scenario(name).summary}"
        assert out.count("\ny = ") == len(tcdoc.operations(include_unavailable=True))


def test_explain_of_a_list_result_says_it_is_not_a_tensor(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "explain", "tolist")
    assert "yes: y is a list, not a tensor" in out
    assert "yes: y is a float, not a tensor" in out  # a zero-dimensional tensor's tolist()


def test_matrix_table_lists_module_rows_after_the_tensor_rows(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--op", "clone", "--op", "state_dict", "--scenario", "no_grad")
    assert status == 0
    lines = out.splitlines()
    start = lines.index("# module-level operations, on trained_model (x is the model, or the optimizer)")
    assert lines[start + 1].split()[:3] == ["operation", "new", "object"]
    assert lines[start + 2].split()[:2] == ["state_dict", "yes"]
    assert lines[2].startswith("clone")


def test_a_name_repeated_is_taken_once_where_it_first_came(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--op", "detach", "--op", "clone", "--op", "detach", "--op", "state_dict", "--op", "state_dict"]
    argv += [
        "--scenario",
        "no_grad",
        "--scenario",
        "non_leaf",
        "--scenario",
        "no_grad",
        "--grad-mode",
        "enabled",
    ]
    data = write_matrix_data(capsys, *argv)
    cells = [(row["operation"], row["scenario"]) for row in data["rows"]]
    assert cells == [(op, scenario) for op in ("detach", "clone") for scenario in ("no_grad", "non_leaf")]
    assert [row["operation"] for row in data["modules"]] == ["state_dict"]


def write_matrix_data(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, _ = run(capsys, "matrix", "--json", *argv)
    assert status == 0
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_scenario_trained_model_asks_for_the_module_level_rows(capsys: pytest.CaptureFixture[str]) -> None:
    import tcdoc

    modules = [op.name for op in tcdoc.module_operations()]
    only = write_matrix_data(capsys, "--scenario", "trained_model")
    assert (only["rows"], [row["operation"] for row in only["modules"]]) == ([], modules)
    tensors = write_matrix_data(capsys, "--scenario", "no_grad", "--grad-mode", "enabled")
    listed = [row["operation"] for row in tensors["rows"]]
    assert [name for name in listed if name in {op.name for op in tcdoc.operations()}] == [
        op.name for op in tcdoc.operations()
    ]
    assert all(
        row["not_run"]
        for row in tensors["rows"]
        if row["operation"] not in {op.name for op in tcdoc.operations()}
    )
    assert tensors["modules"] == []
    both = write_matrix_data(capsys, "--scenario", "trained_model", "--scenario", "no_grad")
    assert {row["scenario"] for row in both["rows"]} == {"no_grad"}
    assert [row["operation"] for row in both["modules"]] == modules
    named = write_matrix_data(capsys, "--op", "state_dict", "--scenario", "trained_model")
    assert (named["rows"], [row["operation"] for row in named["modules"]]) == ([], ["state_dict"])
    # A tensor operation beside it would have no row: refused, not left out in silence.
    assert run(capsys, "matrix", "--op", "clone", "--op", "state_dict", "--scenario", "trained_model")[0] == 2


def test_explain_help_says_what_each_kind_of_name_shows(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "--help")
    assert status == 0
    words = " ".join(out.split())
    for shown in ("it on every scenario", "its row", "every operation on it", "every module-level operation"):
        assert shown in words


def test_explain_says_n_a_not_cut_where_x_had_no_history(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "clone")
    assert status == 0
    on_plain = out.split("On no_grad:")[1].split("\n\n")[0]
    assert "Autograd history     n/a: x has no history (it does not require grad)" in on_plain
    assert "cut" not in on_plain
    on_leaf = out.split("On leaf_requires_grad:")[1].split("\n\n")[0]
    assert "kept: grad_fn CloneBackward0, gradients reach x" in on_leaf


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["matrix", "--bogus"], "tcdoc matrix: error: unrecognized arguments: --bogus"),
        (
            ["explain", "clone", "--grad-mode", "no_grad", "--grad-mode", "inference_mode"],
            "tcdoc explain: error: argument --grad-mode: given twice: name one value",
        ),
        (
            ["matrix", "--op", "clone", "--scenario", "trained_model"],
            "tcdoc matrix: error: clone is a tensor operation, and trained_model holds module-level "
            "operations only: name a tensor scenario with --scenario",
        ),
        (
            ["explain", "module_deepcopy", "--grad-mode", "inference_mode"],
            "tcdoc explain: error: --grad-mode inference_mode does not apply to module_deepcopy: "
            "module-level operations are measured with gradients enabled only",
        ),
        (
            ["matrix", "--op", "state_dict", "--grad-mode", "no_grad"],
            "tcdoc matrix: error: --grad-mode no_grad does not apply to state_dict: module-level "
            "operations are measured with gradients enabled only",
        ),
    ],
)
def test_an_option_that_cannot_be_honoured_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == message  # argparse's own errors print the sub-command's usage first
    if "unrecognized" in message or "twice" in message:
        assert err.startswith(f"usage: tcdoc {argv[0]} ")


def test_a_grad_mode_alone_asks_for_the_tensor_rows(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--json", "--scenario", "no_grad", "--grad-mode", "no_grad")
    assert status == 0
    data = json.loads(out)
    assert data["modules"] == []
    assert {row["grad_mode"] for row in data["rows"]} == {"no_grad"}


def test_explain_says_which_tensor_is_an_inference_tensor_and_what_that_forbids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import torch

    from tcdoc.cli import INFERENCE_LIMITS

    _, out, _ = run(capsys, "explain", "clone", "--grad-mode", "inference_mode")
    assert f"Inference tensor?    y: {INFERENCE_LIMITS}" in out
    _, out, _ = run(capsys, "explain", "detach")
    assert out.count("Inference tensor?") == 1  # on the inference scenario only
    _, out, _ = run(capsys, "explain", "inference")
    assert "Inference tensor?    x and y: " in out
    assert "Inference tensor?    x: " in out
    # What the words say an inference tensor cannot do, outside inference mode, on this torch:
    # made by clone() in the mode, or an alias of one made outside it.
    with torch.inference_mode():
        y = torch.ones(3).clone()
    for inference in (y, y.detach(), y.data, y.view(3)):
        with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
            torch.ones(3, requires_grad=True) * inference


def test_a_matrix_file_with_two_rows_for_one_cell_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads(tcdoc_json(["--op", "clone", "--scenario", "no_grad"]))
    twin = json.loads(json.dumps(data["rows"][0]))
    twin["properties"]["new_object"] = not twin["properties"]["new_object"]
    data["rows"].append(twin)
    (tmp_path / "twice.json").write_text(json.dumps(data))
    status, _, err = run(capsys, "diff", str(tmp_path / "twice.json"), str(tmp_path / "twice.json"))
    assert status == 2
    assert err.splitlines()[-1].endswith(
        f"rows[0] and rows[{len(data['rows']) - 1}] are both clone / no_grad / enabled: "
        "a matrix has one row a cell"
    )
