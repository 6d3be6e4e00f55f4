"""On the built site: each family page's table of what changes under another grad mode, and its CUDA rows.

Checks on docs/_build/html, run after ``nox -s docs``; skipped, like test_built_site.py, when
the site has not been built (and a failure under CI). ``tests/test_grad_mode_tables.py``
checks the same on a small project.
"""

from __future__ import annotations

import html
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
import torch

import tcdoc
from tcdoc._diff import grad_mode_changes
from tcdoc._names import FAMILIES

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)


class _GradModeRows(HTMLParser):
    """Collect the cells' text of each body row of the ``tcdoc-grad-modes`` table."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._depth = 0  # tables open inside the grad modes' table, it included
        self._body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and (self._depth or "tcdoc-grad-modes" in classes):
            self._depth += 1
        elif self._depth and tag == "tbody":
            self._body = True
        elif self._body and tag == "tr":
            self.rows.append([])
        elif self._body and tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if self._depth and tag == "table":
            self._depth -= 1
            self._body = self._body and self._depth > 0
        elif self._cell is not None and tag == "td":
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


pytestmark = pytest.mark.same_torch  # the pages against the matrix measured now


@pytest.fixture(scope="module")
def matrix() -> tcdoc.Matrix:
    return tcdoc.matrix()


@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_family_page_lists_the_answers_that_change_under_another_grad_mode(
    matrix: tcdoc.Matrix, family: str
) -> None:
    parser = _GradModeRows()
    parser.feed((HTML / "reference" / "matrix" / f"{family}.html").read_text(encoding="utf-8"))
    listed = {(html.unescape(row[0]), scenario) for row in parser.rows for scenario in row[-1].split(", ")}
    expected = {
        (tcdoc.get_operation(op).code, scenario) for op, scenario, _field in grad_mode_changes(matrix, family)
    }
    assert listed == expected
    assert all(len(row) == 6 for row in parser.rows)


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA build runs the CUDA cells")
def test_the_conversions_page_shows_the_cuda_operations_as_not_run() -> None:
    page = (HTML / "reference" / "matrix" / "conversions.html").read_text(encoding="utf-8")
    for op in tcdoc.operations(include_unavailable=True):
        if op.needs_cuda:
            assert f'id="matrix-{op.name}"' in page
    assert "not run: no CUDA device" in page
    copies = (HTML / "reference" / "matrix" / "copies.html").read_text(encoding="utf-8")
    family = [op for op in tcdoc.operations(include_unavailable=True) if op.family == "copies"]
    assert copies.count('<th class="head"><p>cuda</p></th>') == len(family)  # one column each
