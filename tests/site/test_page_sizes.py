"""On the built site: no page weighs more than 300 KB of HTML, in either edition.

A reader on a slow line waits for every byte of a page before its tables show; the heaviest
pages were the API page (autodoc and its example galleries, now one page per topic) and the
family pages of the matrix (a thousand cells each, now without a tooltip or a ``<p>`` per cell).
Checks on docs/_build/html (and docs/_build/html/zh_CN where the Chinese edition is built),
skipped like test_built_site.py when the site has not been built (and a failure under CI).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
CHINESE = HTML / "zh_CN"
LIMIT = 300 * 1024
"""The most bytes one built page may weigh."""

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)


def pages(edition: Path) -> list[Path]:
    """Every HTML page of one edition (the Chinese edition's folder is not the English one's)."""
    found = sorted(edition.rglob("*.html"))
    if edition == HTML:
        found = [page for page in found if CHINESE not in page.parents]
    return found


def heavy(edition: Path) -> list[str]:
    """The pages of ``edition`` over :data:`LIMIT`, each with its size in KB."""
    return [
        f"{page.relative_to(HTML).as_posix()}: {page.stat().st_size // 1024} KB"
        for page in pages(edition)
        if page.stat().st_size > LIMIT
    ]


def test_the_size_check_reads_every_page() -> None:
    english = pages(HTML)
    assert HTML / "index.html" in english
    assert HTML / "reference" / "matrix" / "copies.html" in english
    assert not any(CHINESE in page.parents for page in english)


def test_no_english_page_weighs_over_300_kb() -> None:
    assert heavy(HTML) == []


def test_no_chinese_page_weighs_over_300_kb() -> None:
    if not (CHINESE / "index.html").is_file():
        if os.environ.get("TCDOC_REQUIRE_ZH") == "1":
            raise RuntimeError(f"{CHINESE} has no built edition: run 'nox -s docs-zh' before the tests")
        pytest.skip("the Chinese edition is not built: run 'nox -s docs-zh' first")
    assert heavy(CHINESE) == []
