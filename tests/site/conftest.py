"""What the built site was measured with, for the tests that compare it with torch measured now.

A test marked ``same_torch`` compares the built pages with what tcdoc measures on the torch
these tests run: the footer's versions, each family page's grad-mode table, every message as
torch prints it. The site states the facts of the torch that built it, so where the tests run
another torch (the workflow's matrix builds the site with the site's torch and tests the package
on the floor release), those tests are skipped, saying which two releases differ.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

INDEX = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html" / "index.html"
_MEASURED = re.compile(r"Measured at build time with torch (\S+) on ")


def site_torch() -> str | None:
    """Return the torch version the built site names as its measurements', or ``None`` if not built."""
    if not INDEX.is_file():
        return None
    found = _MEASURED.search(INDEX.read_text(encoding="utf-8"))
    return found[1] if found else None


def pytest_runtest_setup(item: pytest.Item) -> None:
    built_with = site_torch()
    if item.get_closest_marker("same_torch") and built_with is not None and built_with != torch.__version__:
        pytest.skip(f"compares the site, measured with torch {built_with}, with torch {torch.__version__}")
