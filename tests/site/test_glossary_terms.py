"""On the built site: the glossary's table of terms, in both editions, is the table in terms.txt.

Its English column is English on the Chinese edition too: a cell whose words are also a glossary
heading ("storage") once took that heading's translation. Skipped without a built site.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tcdoc_site._search_terms import read_terms

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
EDITIONS = [HTML / "reference/glossary.html", HTML / "zh_CN/reference/glossary.html"]

if not EDITIONS[0].is_file():
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)

TABLE = re.compile(r'<table class="[^"]*\btcdoc-terms\b[^"]*">(.*?)</table>', re.DOTALL)
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.DOTALL)
CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.DOTALL)


def rows(page: Path) -> list[list[str]]:
    """The text of each row of the page's term table, heading first."""
    found = TABLE.search(page.read_text(encoding="utf-8"))
    assert found, f"{page}: no table of terms"
    return [
        [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in CELL.findall(row)]
        for row in ROW.findall(found.group(1))
    ]


@pytest.mark.parametrize("page", [p for p in EDITIONS if p.is_file()], ids=lambda p: str(p.relative_to(HTML)))
def test_the_term_table_shows_each_term_in_english_and_chinese(page: Path) -> None:
    body = rows(page)[1:]
    expected = [[term.english, term.chinese, "、".join(term.aliases)] for term in read_terms()]
    assert body == expected
    assert not [english for english, *_ in body if re.search(r"[\u4e00-\u9fff]", english)]
