"""The wheel holds the library, not the site: no sentence of the site's pages, and no check of one.

The site's claims and their checks live under docs/ (docs/_checks), its own Sphinx extension
under docs/_ext; a project that installs tcdoc gets the measuring core, the Sphinx extension's
directives and roles, and the claim machinery only.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from tcdoc.claims import plain

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"tcdoc_{name}_tool_wheel", ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (path,) = out.glob("tcdoc-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_no_module_of_the_site(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    assert "tcdoc/claims.py" in names  # the machinery ships
    site = [
        name for name in names if "_checks" in name or "_site_claims" in name or "_reference_claims" in name
    ]
    assert not site


def test_the_wheel_holds_no_sentence_of_the_site(wheel: zipfile.ZipFile) -> None:
    texts = {
        name: wheel.read(name).decode("utf-8", errors="replace")
        for name in wheel.namelist()
        if name.endswith((".py", ".po", ".js", ".css", ".json", ".txt"))
    }
    shipped = plain(" ".join(" ".join(text.split()) for text in texts.values()))
    claims = list(_tool("claims").page_claims())
    assert len(claims) > 100
    found = [claim.id for claim in claims if len(plain(claim.words)) > 40 and plain(claim.words) in shipped]
    assert not found, f"sentences of the site shipped in the wheel: {found}"


def test_the_wheel_holds_none_of_the_site_extensions_words(wheel: zipfile.ZipFile) -> None:
    catalogue = wheel.read("tcdoc/sphinxext/locales/zh_CN/LC_MESSAGES/tcdoc.po").decode("utf-8")
    words = _tool("i18n").site_messages()
    assert words  # the GPU notes
    assert not [message for message in words if message in catalogue]
