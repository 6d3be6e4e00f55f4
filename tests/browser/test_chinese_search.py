"""The Chinese edition's search, asked what a Chinese reader types: unspaced questions, terms, aliases.

Sphinx splits the Chinese pages into words with jieba; the site's query splitter
(docs/_ext/tcdoc_site/_search_split.js) splits a typed query the same way, reads an alias as its
term (docs/locales/zh_CN/terms.txt) and leaves out the words of a question. Each query here must
find the pages named beside it. Skipped without the Chinese edition (`nox -s docs-zh`).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote, urljoin

import pytest
from playwright.sync_api import Page

HTML = Path(os.environ.get("TCDOC_HTML", Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"))
CHINESE = HTML / "zh_CN"

pytestmark = pytest.mark.skipif(
    not (CHINESE / "index.html").is_file(),
    reason="no Chinese edition: run `nox -s docs-zh` after `nox -s docs`",
)

QUESTION = "Pytorch张量中的detach，clone和deepcopy有什么区别"  # noqa: RUF001 (a reader types a Chinese comma)
METHOD_PAGES = ["index", "explanation/clone", "explanation/detach", "explanation/deepcopy"]

# Each query, typed without spaces as a reader types it, and pages it must find (docnames).
QUERIES = {
    QUESTION: METHOD_PAGES,
    "detach和clone的区别": ["explanation/detach", "explanation/clone"],
    "clone和deepcopy有什么不同": ["index", "explanation/deepcopy"],
    "叶子节点": ["reference/glossary", "explanation/detach"],  # an alias of 叶子张量
    "叶子张量": ["reference/glossary", "explanation/detach"],
    "原地操作": ["reference/glossary", "explanation/detach"],
    "原地修改": ["reference/glossary", "explanation/detach"],  # an alias of 原地操作
    "推理张量": ["reference/glossary", "auto_examples/plot_20_inference_mode"],
    "前向模式": ["reference/glossary", "auto_examples/plot_18_forward_ad"],
    "自动微分": ["reference/glossary", "auto_examples/plot_18_forward_ad"],
    "切向量": ["reference/glossary", "auto_examples/plot_18_forward_ad"],
    "共轭位": ["reference/glossary", "explanation/special-tensors"],
    "深拷贝": ["reference/glossary", "auto_examples/plot_03_deepcopy"],
    "深拷贝和浅拷贝的区别": ["reference/glossary"],
    "版本计数器": ["reference/glossary", "explanation/detach"],
    "计算图": ["reference/glossary", "explanation/detach"],
    "内存格式": ["reference/glossary", "auto_examples/plot_14_memory_format"],
    "锁页内存": ["reference/glossary", "auto_examples/gpu/plot_gpu_03_pinned"],
    "推理模式下的clone": ["auto_examples/plot_20_inference_mode"],
}


# Sphinx writes the summary ("found N pages") once the search has finished.
FINISHED = "() => (document.querySelector('#search-results .search-summary')?.innerText || '').length > 0"


def found(page: Page, site: str, query: str) -> list[str]:
    """Open the Chinese search page for ``query``; return the pages it lists, as docnames."""
    response = page.goto(urljoin(site, f"zh_CN/search.html?q={quote(query)}"), wait_until="load")
    assert response is not None, f"search.html?q={query}: no response"
    assert response.ok, f"search.html?q={query}: HTTP {response.status}"
    page.wait_for_function(
        FINISHED,
        timeout=30_000,
    )
    links = page.locator("#search-results ul.search li > a").evaluate_all("links => links.map(a => a.href)")
    prefix = urljoin(site, "zh_CN/")
    return [link.removeprefix(prefix).split("#")[0].split("?")[0].removesuffix(".html") for link in links]


def test_the_chinese_search_finds_the_pages_of_each_typed_query(page: Page, site: str) -> None:
    """Every query of QUERIES in one tab, which loads the search index once; all misses are listed."""
    misses: list[str] = []
    for query, expected in QUERIES.items():
        pages = found(page, site, query)
        missing = [name for name in expected if name not in pages]
        if missing:
            misses.append(f"{query!r} finds {pages}, not {missing}")
    assert not misses, f"{len(misses)} of {len(QUERIES)} queries miss pages:\n" + "\n".join(misses)


def test_the_question_typed_in_the_box_finds_the_landing_page_and_the_three_method_pages(
    page: Page, site: str
) -> None:
    response = page.goto(urljoin(site, "zh_CN/index.html"), wait_until="load")
    assert response is not None
    assert response.ok
    box = page.locator("input.sidebar-search")
    box.fill(QUESTION)
    box.press("Enter")
    page.wait_for_url("**/zh_CN/search.html?q=*")
    page.wait_for_function(
        FINISHED,
        timeout=30_000,
    )
    titles = page.locator("#search-results ul.search li > a").evaluate_all("links => links.map(a => a.href)")
    prefix = urljoin(page.url, "./")
    pages = [link.removeprefix(prefix).split("#")[0].removesuffix(".html") for link in titles]
    missing = [name for name in METHOD_PAGES if name not in pages[:15]]
    assert not missing, f"the question's first 15 pages are {pages[:15]}, without {missing}"


def test_the_query_is_split_as_the_pages_were(page: Page, site: str) -> None:
    """The splitter's own words for a few queries: aliases read as terms, a question's words left out."""
    response = page.goto(urljoin(site, "zh_CN/search.html"), wait_until="load")
    assert response is not None
    assert response.ok
    page.wait_for_function("() => typeof Search !== 'undefined' && Search.hasIndex()", timeout=30_000)
    split = page.evaluate(
        "queries => queries.map(q => splitQuery(q))",
        [QUESTION, "叶子节点", "原地修改", "detach和clone的区别", "张量", "深拷"],
    )
    assert split[0] == ["detach", "clone", "deepcopy"], split[0]
    assert split[1] == ["叶子张量"], split[1]
    assert split[2] == ["原地操作"], split[2]
    assert split[3] == ["detach", "clone"], split[3]
    assert split[4] == ["张量"], split[4]  # a question's word, kept when it is all there is
    assert split[5] == ["深拷贝"], split[5]  # no word covers it: the shortest indexed word holding it
