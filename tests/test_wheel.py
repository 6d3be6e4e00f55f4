"""The wheel holds the library, not the site: no sentence of the site's pages, and no check of one.

The site's claims and their checks live under docs/ (docs/_checks), its own Sphinx extension
under docs/_ext; a project that installs tcdoc gets the measuring core, the Sphinx extension's
directives and roles, and the claim machinery only.
"""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo

from tcdoc.claims import plain
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = "tcdoc/sphinxext/locales/zh_CN/LC_MESSAGES/tcdoc"


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
    assert {name.split("/")[0] for name in names if ".dist-info/" not in name} == {"tcdoc"}
    site = {
        path.read_bytes()
        for folder in ("_checks", "_ext")
        for path in (ROOT / "docs" / folder).rglob("*.py")
        if path.stat().st_size
    }
    assert len(site) > 30  # the checks of the pages and the examples, and the site's extension
    assert not [name for name in names if name.endswith(".py") and wheel.read(name) in site]


def test_the_wheel_ships_the_compiled_catalogue_only(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    assert f"{CATALOGUE}.mo" in names
    assert not [name for name in names if name.endswith(".po")]


def test_the_wheel_holds_no_sentence_of_the_site(wheel: zipfile.ZipFile) -> None:
    texts = {
        name: wheel.read(name).decode("utf-8", errors="replace")
        for name in wheel.namelist()
        if name.endswith((".py", ".po", ".js", ".css", ".json", ".txt"))
    }
    shipped = plain(" ".join(" ".join(text.split()) for text in texts.values()))
    claims = list(load_script("tools/claims.py").page_claims())
    assert len(claims) > 100
    found = [claim.id for claim in claims if len(plain(claim.words)) > 40 and plain(claim.words) in shipped]
    assert not found, f"sentences of the site shipped in the wheel: {found}"


def test_the_wheel_holds_none_of_the_site_extensions_words(wheel: zipfile.ZipFile) -> None:
    shipped = {message.id for message in read_mo(io.BytesIO(wheel.read(f"{CATALOGUE}.mo")))}
    assert len(shipped) > 100  # the package's own words
    words = load_script("tools/i18n.py").site_messages()
    assert words  # the GPU notes
    assert not [message for message in words if message in shipped]
