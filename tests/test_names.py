"""``tcdoc/_names.json`` holds the registry's names, up to date, for what must not import torch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import tcdoc
from tcdoc import _names
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_names_file_is_up_to_date() -> None:
    tool = load_script("tools/write_names.py")
    assert tool.PATH.read_text(encoding="utf-8") == tool.text(), "run python tools/write_names.py"


def test_the_names_are_the_registry_s() -> None:
    assert tuple(op.name for op in tcdoc.operations(include_unavailable=True)) == _names.OPERATION_NAMES
    assert tuple(s.name for s in tcdoc.scenarios(include_unavailable=True)) == _names.SCENARIO_NAMES
    modules = tcdoc.module_operations(include_unavailable=True)
    assert tuple(op.name for op in modules) == _names.MODULE_OPERATION_NAMES


def test_check_fails_on_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = load_script("tools/write_names.py")
    stale = tmp_path / "_names.json"
    stale.write_text('{"operations": [], "scenarios": [], "module_operations": []}\n', encoding="utf-8")
    monkeypatch.setattr(tool, "PATH", stale)
    assert tool.main(["--check"]) == 1
    assert tool.main([]) == 0
    assert tool.main(["--check"]) == 0


def test_the_names_load_without_torch() -> None:
    code = "import sys, tcdoc._names as n; assert n.OPERATION_NAMES; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_no_list_of_operations_is_typed_in_the_package() -> None:
    """The registry is the only list: no other module of tcdoc/ spells (nearly) every operation's name."""
    names = set(_names.OPERATION_NAMES)
    for path in (ROOT / "tcdoc").rglob("*.py"):
        if path.name in ("_registry.py",):
            continue
        text = path.read_text(encoding="utf-8")
        quoted = {name for name in names if f'"{name}"' in text}
        assert len(quoted) <= len(names) * 3 // 4, (path, len(quoted))
