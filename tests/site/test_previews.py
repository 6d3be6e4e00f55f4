"""Each built page's description (search results, link previews) is its first paragraph's text.

Checks both editions in docs/_build/html: ``<meta name="description">`` and
``og:description`` say the same, once each, in at most 200 characters, as words of the page's
own text, never at a colon or a comma; one cut to fit ends at a sentence or with an ellipsis. The
Chinese edition's descriptions are Chinese (tests/site/test_chinese_words.py reads them too).
Skipped when the English site has not been built; under CI a missing site is a failure.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)

# Pages that are lists, not prose: the general index, the module index, search.
LISTS = {"genindex.html", "py-modindex.html", "search.html"}
PAGES = sorted(page for page in HTML.rglob("*.html") if page.name not in LISTS and page.name[0] != "_")
DESCRIPTION = re.compile(r'<meta (?:name="description"|property="og:description") content="([^"]*)"')
ENDS = (".", "。", "...", "……", "?", "？", "!", "！", ")", "）", "”")


def _words(page_text: str) -> str:
    """Return the page's visible text on one line, as a description quotes it."""
    body = page_text.split('<article role="main"', 1)[-1]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.mark.parametrize("page", PAGES, ids=[page.relative_to(HTML).as_posix() for page in PAGES])
def test_a_page_is_described_by_its_own_first_words(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    found = [html.unescape(value) for value in DESCRIPTION.findall(text)]
    if page.name == "404.html" and not found:
        return  # the 404 page has no paragraph of its own to describe it
    assert len(found) == 2, f"{page.relative_to(HTML)}: descriptions {found}"
    assert found[0] == found[1], f"{page.relative_to(HTML)}: descriptions {found}"
    description = found[0]
    assert 0 < len(description) <= 200, f"{len(description)} characters: {description!r}"
    assert not description.endswith((":", "：", ",", "，", ";", "；")), f"ends at a clause: {description!r}"
    if len(description) > 190:  # cut to fit: at a sentence, or with an ellipsis
        assert description.endswith(ENDS), f"ends inside a sentence: {description!r}"
    # The words, up to the ellipsis, come from the page (spaces aside: inline code is spaced in Chinese).
    quoted = re.sub(r"\s", "", description.removesuffix("……").removesuffix("..."))
    assert quoted in re.sub(r"\s", "", _words(text)), f"not the page's own words: {description!r}"
    if page.is_relative_to(HTML / "zh_CN"):
        assert re.search(r"[\u4e00-\u9fff]", description), f"no Chinese: {description!r}"
