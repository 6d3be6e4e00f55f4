"""The downloads run: each example's script with plain ``python``, each notebook with nbclient.

A reader installs torch and tcdoc, downloads an example from its page and runs it. These tests do
the same in a new environment (see conftest.py), so an example that needs a file, a package or a
device that the reader lacks fails here, named, with the end of what it printed.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

if TYPE_CHECKING:
    from conftest import Example

STANDALONE = {"torch", "tcdoc"}
EXTRAS = {"numpy", "matplotlib"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the colours of IPython's tracebacks
MISSING = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
TIMEOUT = 1800  # a guard against a hung example, not a goal


def skip_without_cuda(example: Example, cuda: bool) -> None:  # the notebooks' test
    if example.needs_cuda and not cuda:
        pytest.skip(f"{example.name} is a GPU example and this machine has no CUDA device")


def imported_extras(example: Example) -> set[str]:
    """Return the accepted extras that the script imports; fail if it imports anything else."""
    packages = {module.split(".")[0] for module in example.imports()} - STANDALONE
    unknown = sorted(packages - EXTRAS)
    assert not unknown, f"{example.name}: imports {unknown}; a reader has only torch and tcdoc"
    return packages


def lacking_package(stderr: str) -> str | None:
    """Return the package a run stopped for lack of (``No module named 'matplotlib'``), or None."""
    found = MISSING.findall(stderr)
    return found[-1].split(".")[0] if found else None


def test_script_runs_with_plain_python(
    example: Example,
    reader: Path,
    reader_plus: Path,
    cuda: bool,
    runner: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
) -> None:
    """Run with only torch and tcdoc (numpy or matplotlib where the example says it needs them).

    The script must print what its page shows (see ``assert_prints_its_page``). A GPU example on a
    machine without CUDA must say that it needs a CUDA device, and print nothing.
    """
    script = shutil.copy(example.script, tmp_path)
    if example.needs_cuda and not cuda:
        refused = runner(reader_plus, script, cwd=tmp_path, timeout=TIMEOUT)
        assert refused.returncode != 0, f"{example.name}.py, run without CUDA, exits with 0"
        assert "needs a CUDA device" in refused.stderr, (
            f"{example.name}.py, run without CUDA, does not say it needs CUDA:\n{tail(refused.stderr)}"
        )
        assert not refused.stdout.strip(), f"{example.name}.py prints without CUDA:\n{tail(refused.stdout)}"
        return
    extras = imported_extras(example)
    result: subprocess.CompletedProcess[str] | None = None
    if not extras:
        result = runner(reader, script, cwd=tmp_path, timeout=TIMEOUT)
        if result.returncode != 0:
            lacking = lacking_package(result.stderr)
            assert lacking in EXTRAS, (
                f"{example.name}.py exits with {result.returncode} when run as "
                f"`python {example.script.name}` with only torch and tcdoc installed:\n{tail(result.stderr)}"
            )
            extras = {lacking}
            result = None
    if result is None:
        prose = example.prose().lower()
        unsaid = sorted(package for package in extras if package not in prose)
        assert not unsaid, (
            f"{example.name}: needs {unsaid} (beyond torch and tcdoc) without saying so in its text"
        )
        result = runner(reader_plus, script, cwd=tmp_path, timeout=TIMEOUT)
        assert result.returncode == 0, (
            f"{example.name}.py exits with {result.returncode} when run as `python {example.script.name}` "
            f"with torch, tcdoc, {' and '.join(sorted(extras))} installed:\n{tail(result.stderr)}"
        )
    assert_prints_its_page(example, result.stdout)


def shown(text: str) -> list[str]:
    """Return the lines of ``text`` that are not blank, with memory addresses masked."""
    lines = [ADDRESS.sub("0x…", line.rstrip()) for line in text.splitlines()]
    return [line for line in lines if line.strip()]


def assert_prints_its_page(example: Example, stdout: str) -> None:
    """Fail unless the script printed something, and the same lines as its gallery page shows.

    A cell's bare last expression shows its value in the gallery only; printed, it shows in both.
    Addresses aside, the script's output and the page's must be the same lines. An example that
    times code prints other numbers, units and verdicts ("within noise") on every run: there
    the two must have as many lines.
    """
    printed = shown(stdout)
    assert printed, f"{example.name}.py prints nothing when run as `python {example.script.name}`"
    rich = example.rich_outputs()
    assert not rich, (
        f"{example.page}: {rich} cell(s) show a value as HTML, a bare last expression that the script "
        "does not print; print it instead"
    )
    page = shown("\n".join(example.outputs()))
    if example.times_code():
        assert len(printed) == len(page), (
            f"{example.name}.py prints {len(printed)} lines and its page shows {len(page)}"
        )
    elif printed != page:
        diff = "\n".join(difflib.unified_diff(page, printed, "the page", "python", lineterm="", n=1))
        pytest.fail(
            f"{example.name}.py prints other lines than its page shows:\n{tail(diff, 40)}", pytrace=False
        )


def test_notebook_executes(example: Example, kernel: str, cuda: bool, tmp_path: Path) -> None:
    skip_without_cuda(example, cuda)
    notebook = nbformat.read(example.notebook, as_version=4)  # type: ignore[no-untyped-call]
    # Its first cell installs tcdoc from PyPI (first_notebook_cell in docs/conf.py). The kernel's
    # environment holds this checkout's wheel already, which is the one to test: skip the install.
    install = notebook.cells[0]
    assert install.cell_type == "code", f"{example.name}.ipynb does not start with a code cell"
    assert "%pip install" in install.source, f"{example.name}.ipynb does not start by installing tcdoc"
    notebook.cells = notebook.cells[1:]
    client = NotebookClient(
        notebook, kernel_name=kernel, timeout=TIMEOUT, resources={"metadata": {"path": str(tmp_path)}}
    )
    failure = ""
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as error:
        failure = ANSI.sub("", str(error))
    if failure:
        pytest.fail(f"{example.name}.ipynb fails:\n{tail(failure)}", pytrace=False)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, f"{example.name}.ipynb has no code cells"
    assert all(cell.get("execution_count") for cell in code), f"{example.name}.ipynb: a code cell did not run"


def test_zips_hold_every_example(examples: list[Example], gallery_zips: tuple[str, list[Path]]) -> None:
    page, zips = gallery_zips
    assert len(zips) == 2, f"{page}: offers {[z.name for z in zips]}, expected a .py zip and a .ipynb zip"
    for archive_path in zips:
        with zipfile.ZipFile(archive_path) as archive:
            members = {name: archive.read(name) for name in archive.namelist()}
        suffix = ".ipynb" if any(name.endswith(".ipynb") for name in members) else ".py"
        expected = {f"{example.name}{suffix}": example for example in examples}
        where = f"{page}: {archive_path.name}"
        assert set(members) == set(expected), f"{where} holds {sorted(members)}, not {sorted(expected)}"
        for name, example in expected.items():
            offered = example.notebook if suffix == ".ipynb" else example.script
            assert members[name] == offered.read_bytes(), f"{where}: {name} differs from {example.page}'s"


def tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])
