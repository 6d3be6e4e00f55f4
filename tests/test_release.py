"""Releasing tcdoc: one version, and a workflow that checks the files before it publishes them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

import tcdoc

tomllib = pytest.importorskip("tomllib")  # Python 3.11 and newer

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
WORKFLOW = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))


def test_the_package_reports_the_version_of_pyproject() -> None:
    assert tcdoc.__version__ == VERSION


def test_no_other_file_spells_the_version() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    allowed = {"pyproject.toml", "CHANGES.md"}  # the one place, and the history of releases
    spelled = [
        path
        for path in tracked
        if path not in allowed
        and (ROOT / path).is_file()
        and not path.endswith((".inv", ".png", ".svg"))
        and not path.startswith("docs/_snapshots/")  # each records the tcdoc that measured it
        and f'"{VERSION}"' in (ROOT / path).read_text(encoding="utf-8", errors="replace")
    ]
    assert not spelled, f"{spelled} spell the version {VERSION!r}; read tcdoc.__version__ instead"


def test_workflow_publishes_only_version_tags() -> None:
    triggers = WORKFLOW[True]  # YAML reads the key `on` as True
    assert triggers["push"] == {"tags": ["v*"]}
    publish = WORKFLOW["jobs"]["publish"]
    assert "refs/tags/v" in publish["if"]
    assert "github.event_name == 'push'" in publish["if"]


def test_workflow_publishes_only_after_the_checks() -> None:
    # That it publishes through trusted publishing, with no token and no more permissions than it
    # needs, zizmor checks in `nox -s lint` (its use-trusted-publishing and excessive-permissions audits).
    jobs = WORKFLOW["jobs"]
    assert jobs["publish"]["needs"] == "build"
    runs = [step.get("run", "") for step in jobs["build"]["steps"]]
    assert "python -m nox -s release-check" in runs


def test_workflow_installs_the_cpu_build_of_torch() -> None:
    assert "download.pytorch.org/whl/cpu" in WORKFLOW["env"]["TCDOC_TORCH"]


def test_the_sdist_holds_what_its_tests_and_docs_read() -> None:
    include = PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    for needed in ("tools/", "CHANGES.md", "CONTRIBUTING.md", "docs/", "examples/", "tests/"):
        assert needed in include
