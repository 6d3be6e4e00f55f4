"""The two editions: every page links to itself in the other language, and search reads Chinese.

The Chinese edition lies in zh_CN/ inside the English site once `nox -s docs-zh` has built it;
without it these tests are skipped and say so.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Page

# As in conftest.py: the built site, or the one TCDOC_HTML names.
HTML = Path(os.environ.get("TCDOC_HTML", Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"))
CHINESE = HTML / "zh_CN"
SWITCH = "nav.tcdoc-language"

pytestmark = pytest.mark.skipif(
    not (CHINESE / "index.html").is_file(),
    reason="no Chinese edition: run `nox -s docs-zh` after `nox -s docs`",
)


def open_page(page: Page, url: str) -> None:
    response = page.goto(url, wait_until="load")
    assert response is not None, f"{url}: no response"
    assert response.ok, f"{url}: HTTP {response.status}"


@pytest.mark.parametrize(
    "path", ["index.html", "explanation/clone.html", "auto_examples/plot_02_detach.html"]
)
def test_the_switch_leads_to_the_same_page_in_the_other_language_and_back(
    page: Page, site: str, path: str
) -> None:
    open_page(page, urljoin(site, path))
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator(f"{SWITCH} a[hreflang='zh-CN']").click()
    page.wait_for_load_state("load")
    assert page.url == urljoin(site, f"zh_CN/{path}"), f"{path}: the switch went to {page.url}"
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    assert page.locator(f"{SWITCH} [aria-current='true']").inner_text() == "简体中文"
    page.locator(f"{SWITCH} a[hreflang='en']").click()
    page.wait_for_load_state("load")
    assert page.url == urljoin(site, path), f"zh_CN/{path}: the switch back went to {page.url}"


def test_every_page_of_both_editions_has_the_switch_and_its_target_exists(html: Path) -> None:
    missing = []
    for page in sorted(html.rglob("*.html")):
        relative = page.relative_to(html)
        if relative.parts[0].startswith("_") or page.name == "404.html":
            continue
        text = page.read_text(encoding="utf-8")
        start = text.find('class="tcdoc-language"')
        if start < 0:
            missing.append(f"{relative}: no language switch")
            continue
        href = text[text.find('href="', start) + 6 :].split('"', 1)[0]
        if not (page.parent / href).resolve().is_file():
            missing.append(f"{relative}: the switch points at {href}, which is not there")
    assert not missing, "\n".join(missing)


def test_the_chinese_pages_are_in_chinese(page: Page, site: str) -> None:
    open_page(page, urljoin(site, "zh_CN/index.html"))
    body = page.locator("article").inner_text()
    chinese = sum("\u4e00" <= character <= "\u9fff" for character in body)
    assert chinese > 200, f"zh_CN/index.html: only {chinese} Chinese characters"
    assert "是" in page.locator("table.tcdoc-summary").first.inner_text(), (
        "the summary's answers are not translated"
    )


@pytest.mark.parametrize(("word", "expected"), [("深拷贝", "deepcopy"), ("版本计数器", "")])
def test_search_finds_chinese_words(page: Page, site: str, word: str, expected: str) -> None:
    open_page(page, urljoin(site, "zh_CN/index.html"))
    box = page.locator("input.sidebar-search")
    box.fill(word)
    box.press("Enter")
    page.wait_for_url("**/zh_CN/search.html?q=*")
    results = page.locator("#search-results ul.search li")
    results.first.wait_for(timeout=15_000)
    links = results.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert links, f"no result for {word}"
    assert any(expected in link for link in links), (
        f"no result for {word} leads to a {expected} page: {links}"
    )
