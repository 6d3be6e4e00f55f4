"""The tcdoc command: output, JSON, and a clear message with exit status 2 for each bad input."""

from __future__ import annotations

import json
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
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code)
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
    rows = out.splitlines()[2:]
    assert rows[0].split()[:4] == ["deepcopy", "non_leaf", "raises", "RuntimeError"]
    assert rows[1].split()[:3] == ["deepcopy", "no_grad", "yes"]


def test_matrix_json_follows_schema_3(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "matrix", "--json", "--op", "deepcopy", "--scenario", "non_leaf")
    data = json.loads(out)
    assert status == 0
    assert data["schema"] == 3
    assert data["modules"] == []  # none named
    assert data["torch"] == torch.__version__
    assert data["device"] == "cpu"
    (row,) = data["rows"]
    assert row["properties"] is None
    assert row["error"]["type"] == "RuntimeError"


def test_explain_answers_the_four_questions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "detach")
    assert status == 0
    assert out.startswith("x.detach():")
    assert "no: shares the storage of x" in out
    assert out.count("New Python object?") == len(__import__("tcdoc").scenarios())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["matrix", "--op", "deep_copy"], "unknown operation 'deep_copy'; choose from: clone"),
        (["matrix", "--scenario", "leaf"], "unknown scenario 'leaf'; choose from: leaf_requires_grad"),
        (["explain", "deep_copy"], "unknown operation 'deep_copy'; choose from: clone"),
    ],
)
def test_unknown_names_list_the_valid_ones(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert out == ""


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
    assert status == 0
    assert "clone / no_grad / shares_storage: no -> yes" in out
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
    assert out.splitlines()[-1].split(maxsplit=2) == ["numpy_roundtrip", "no_grad", "not run: needs numpy"]
    _, out, _ = run(capsys, "explain", "numpy_roundtrip")
    assert out.count("not run: needs numpy") == len(__import__("tcdoc").scenarios())
    assert "raises" not in out


def write_matrix(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> dict[str, Any]:
    _, out, _ = run(capsys, "matrix", "--json", *argv)
    path.write_text(out)
    return json.loads(out)


def test_diff_reports_a_cell_not_run_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_matrix(capsys, tmp_path / "old.json", "--op", "numpy_roundtrip")
    monkeypatch.setitem(sys.modules, "numpy", None)
    write_matrix(capsys, tmp_path / "new.json", "--op", "numpy_roundtrip")
    _, out, _ = run(capsys, "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    changes = out.splitlines()[2:]
    assert len(changes) == len(__import__("tcdoc").scenarios())
    assert (
        changes[0] == "numpy_roundtrip / leaf_requires_grad / outcome: 'measured' -> 'not run: needs numpy'"
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
        "this tcdoc reads schema 3 only (write it again with 'tcdoc matrix --json')"
    ]


def test_diff_into_a_pipe_that_closes_early_exits_quietly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write_matrix(capsys, tmp_path / "old.json", "--op", "clone")
    data = json.loads((tmp_path / "old.json").read_text())
    data["rows"][0]["properties"]["new_object"] = False
    (tmp_path / "new.json").write_text(json.dumps(data))
    tcdoc_diff = [
        sys.executable,
        "-m",
        "tcdoc",
        "diff",
        str(tmp_path / "old.json"),
        str(tmp_path / "new.json"),
    ]
    # Like `tcdoc diff old.json new.json | head -1`: the reader takes a line and is gone.
    reader = [sys.executable, "-c", "import sys; print(sys.stdin.readline(), end='')"]
    with subprocess.Popen(reader, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as head:
        head.stdin.write("the reader reads one line and exits\n")
        head.stdin.flush()
        first_line, _ = head.stdout.read(), head.wait()
        done = subprocess.run(tcdoc_diff, stdout=head.stdin, stderr=subprocess.PIPE, text=True, check=False)
    assert first_line == "the reader reads one line and exits\n"
    assert done.stderr == ""  # no BrokenPipeError, no traceback
    assert done.returncode == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"schema": 7, "rows": []}', "a matrix of schema 7 is not supported: this tcdoc reads schema 3"),
        ('{"schema": 3, "rows": [{"operation": "clone"}], "modules": []}', "malformed matrix row"),
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


def test_diff_of_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "diff", str(tmp_path / "nope.json"), str(tmp_path / "nope.json"))
    assert status == 2
    assert "cannot read" in err


def test_python_dash_m_runs_the_same_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tcdoc", "explain", "nope"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "unknown operation 'nope'" in done.stderr


# -- The names added with the complete reference -----------------------------------------------


def every_name() -> list[str]:
    import tcdoc

    available = [op.name for op in tcdoc.operations()]
    return [*available, *(op.name for op in tcdoc.module_operations()), *(s.name for s in tcdoc.scenarios())]


@pytest.mark.parametrize("name", every_name())
def test_explain_works_for_every_name(capsys: pytest.CaptureFixture[str], name: str) -> None:
    import tcdoc

    status, out, err = run(capsys, "explain", name)
    assert (status, err) == (0, "")
    first = out.splitlines()[0]
    if name in [op.name for op in tcdoc.operations()]:
        assert first.startswith(tcdoc.get_operation(name).code + ":")
        assert out.count("\nOn ") == len(tcdoc.scenarios())
    elif name in [op.name for op in tcdoc.module_operations()]:
        op = tcdoc.get_module_operation(name)
        assert first.startswith(op.code + ":")
        assert f"x is the {op.source}." in out
        assert all(question in out for question in tcdoc.MODULE_QUESTIONS.values()) or "raises" in out
    else:
        assert first == f"{name}: {tcdoc.get_scenario(name).summary}"
        assert out.count("\ny = ") == len(tcdoc.operations())


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


def test_explain_says_n_a_not_cut_where_x_had_no_history(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "clone")
    assert status == 0
    on_plain = out.split("On no_grad:")[1].split("\n\n")[0]
    assert "Autograd history     n/a: x has no history (it does not require grad)" in on_plain
    assert "cut" not in on_plain
    on_leaf = out.split("On leaf_requires_grad:")[1].split("\n\n")[0]
    assert "kept: grad_fn CloneBackward0, gradients reach x" in on_leaf
