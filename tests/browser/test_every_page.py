"""Every page of the built site, read in Chromium: accessibility, weight, and the landing page on a phone.

- axe-core (bundled by axe-playwright-python) finds no violation of the WCAG 2.1 A and AA rules on
  any page, in furo's light theme or its dark one;
- the median page, with everything Chromium fetches to show it, weighs at most 176 kB;
- on a 390-pixel phone the landing page's summary tables fit the screen, one card per copy.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Page

if TYPE_CHECKING:
    from tests.browser.conftest import Reading

MEDIAN_PAGE_LIMIT = 176_000  # bytes
THEMES = ["light", "dark"]  # those that the every_page fixture reads each page in (conftest.py)


def open_page(page: Page, url: str, wait_until: str = "load") -> None:
    response = page.goto(url, wait_until=wait_until)  # type: ignore[arg-type]
    assert response is not None, f"{url}: no response"
    assert response.ok, f"{url}: HTTP {response.status}"


# -- Accessibility ---------------------------------------------------------------------------------
#
# Each page is read once, in a fresh context, by the ``every_page`` fixture (conftest.py): weighed
# on its first load, then checked by axe-core in the light theme and, reloaded, in the dark one.


@pytest.mark.parametrize("theme", THEMES)
def test_no_page_violates_wcag_21_aa(every_page: dict[str, Reading], theme: str) -> None:
    found: list[str] = []
    for path, reading in every_page.items():
        found += reading.problems
        shown = reading.shown.get(theme)
        assert shown == theme, f"{path}: furo shows the {shown} theme, not {theme}"
        found += [f"{path} ({theme}): {violation}" for violation in reading.violations[theme]]
    assert not found, f"{len(found)} axe-core violations or page problems:\n" + "\n".join(found)


# -- Weight ----------------------------------------------------------------------------------------


def test_the_median_page_weighs_at_most_176_kb(every_page: dict[str, Reading]) -> None:
    problems = [problem for reading in every_page.values() for problem in reading.problems]
    assert not problems, "\n".join(problems)
    weights = {path: reading.weight for path, reading in every_page.items()}
    assert all(weights.values()), f"pages that weigh nothing: {[p for p, w in weights.items() if not w]}"
    median = statistics.median(weights.values())
    for path, weight in sorted(weights.items(), key=lambda item: -item[1]):
        print(f"{weight / 1000:9.1f} kB  {path}")
    print(f"median page: {median / 1000:.1f} kB over {len(weights)} pages")
    assert median <= MEDIAN_PAGE_LIMIT, f"the median page weighs {median / 1000:.1f} kB, over 176 kB"


# -- The landing page on a phone ---------------------------------------------------------------------


def test_landing_summary_fits_a_phone(phone: Page, site: str, screenshots: Path) -> None:
    open_page(phone, urljoin(site, "index.html"))
    width = phone.evaluate("window.innerWidth")
    scroll_width = phone.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"index.html: the page is {scroll_width}px wide on a {width}px phone"
    tables = phone.locator("table.tcdoc-summary")
    assert tables.count() > 0, "index.html: no summary table"
    for i in range(tables.count()):
        table = tables.nth(i)
        box = table.bounding_box()
        assert box is not None
        assert box["x"] >= 0, f"index.html: summary table {i + 1} starts off the screen"
        assert box["x"] + box["width"] <= width, f"index.html: summary table {i + 1} is wider than the phone"
        wrapper = table.locator("xpath=..")
        scrolls = wrapper.evaluate("w => w.scrollWidth > w.clientWidth")
        assert not scrolls, f"index.html: summary table {i + 1} scrolls sideways"
        labels = table.locator("tbody td[data-label]").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c, '::before').content)"
        )
        assert labels, f"index.html: summary table {i + 1} has no labelled cells"
        assert all(label not in ("none", "normal", '""') for label in labels), (
            f"index.html: summary table {i + 1} shows no question beside its answers: {labels}"
        )
    phone.screenshot(path=screenshots / "phone-landing.png", full_page=True)


def test_screenshots_in_the_dark_theme(page: Page, site: str, screenshots: Path) -> None:
    page.context.add_init_script("localStorage.setItem('theme', 'dark')")
    for name, path in {"dark-landing": "index.html", "dark-gallery": "auto_examples/index.html"}.items():
        open_page(page, urljoin(site, path))
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # bring lazy pictures in
        page.wait_for_load_state("networkidle")
        page.evaluate("window.scrollTo(0, 0)")
        target = screenshots / f"{name}.png"
        page.screenshot(path=target, full_page=True)
        assert target.stat().st_size > 10_000, f"{path}: the screenshot {target} is nearly empty"
