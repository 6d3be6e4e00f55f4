"""At 1280 px, every table fits furo's text column, or keeps its first column in place and says it scrolls.

A table wider than the column scrolls sideways inside furo's ``.table-wrapper``; a reader then
needs each row's label in view (the first cell of each row is ``position: sticky; left: 0``, on
a background of its own) and a cue that there is more to the right (the wrapper's shadow,
``docs/_static/tcdoc.css``). Each test scrolls such a table and checks that the labels stayed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

# What each table of the page does at this width, from the browser itself: its width, its
# column's, and, for a wider one, whether each row's first cell stays put when it scrolls.
MEASURE = """() => [...document.querySelectorAll("article table")].map((table) => {
  const wrapper = table.closest(".table-wrapper") || table.parentElement;
  const column = document.querySelector("article").getBoundingClientRect().width;
  const width = table.getBoundingClientRect().width;
  const firsts = [...table.rows].map((row) => row.cells[0]).filter(Boolean);
  const before = firsts.map((cell) => cell.getBoundingClientRect().left);
  wrapper.scrollLeft = 200;
  const after = firsts.map((cell) => cell.getBoundingClientRect().left);
  const moved = wrapper.scrollLeft;
  wrapper.scrollLeft = 0;
  const styles = firsts.map((cell) => getComputedStyle(cell));
  return {
    name: (table.className + " " + (table.rows[0] ? table.rows[0].innerText : "")).slice(0, 80),
    width, column,
    scrolled: moved,
    stayed: before.every((left, i) => Math.abs(left - after[i]) < 1),
    opaque: styles.every((s) => !["rgba(0, 0, 0, 0)", "transparent"].includes(s.backgroundColor)),
    cue: getComputedStyle(wrapper).backgroundImage.includes("gradient"),
  };
})"""


def table_pages(html: Path, site_pages: list[str]) -> list[str]:
    """The built pages that hold a table, both editions."""
    return [path for path in site_pages if "<table" in (html / path).read_text(encoding="utf-8")]


def test_some_page_has_a_table_wider_than_the_column_to_check(page: Page, site: str, html: Path) -> None:
    # The check below must meet a wide table somewhere, or it proves nothing: the matrix's are.
    page.goto(f"{site}reference/matrix/copies.html", wait_until="load")
    tables = page.evaluate(MEASURE)
    assert any(t["width"] > t["column"] + 1 for t in tables), tables


def test_no_table_is_wider_than_the_column_without_a_fixed_first_column(
    page: Page, site: str, html: Path, site_pages: list[str]
) -> None:
    pages = table_pages(html, site_pages)
    assert "reference/matrix/copies.html" in pages
    page.set_viewport_size({"width": 1280, "height": 900})
    failed: list[str] = []
    for path in pages:
        page.goto(f"{site}{path}", wait_until="load")
        for table in page.evaluate(MEASURE):
            if table["width"] <= table["column"] + 1:
                continue  # it fits
            if not (table["scrolled"] > 0 and table["stayed"] and table["opaque"] and table["cue"]):
                failed.append(f"{path}: {table}")
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("path", ["reference/matrix/copies.html"])
def test_the_grad_mode_table_shows_every_grad_mode_without_scrolling(
    page: Page, site: str, path: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}{path}", wait_until="load")
    table = page.locator("table.tcdoc-grad-modes")
    column = page.locator("article").bounding_box()
    assert column is not None
    for heading in ("enabled", "torch.no_grad()", "torch.inference_mode()"):
        box = table.locator("th", has_text=heading).first.bounding_box()
        assert box is not None, heading
        assert box["x"] + box["width"] <= column["x"] + column["width"] + 1, heading
