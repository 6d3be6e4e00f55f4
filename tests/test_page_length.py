"""No explanation or how-to page has more than 1,500 words of prose (issue 24's editor's pass).

The words are counted by ``tools/page_words.py`` on the MyST sources: headings, paragraphs, lists
and quotes, with fenced blocks (code and directives), tables, comments and targets left out, and
markup reduced to the words it shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


TOOL = load_script("tools/page_words.py")


def test_the_limited_pages_are_the_explanation_and_how_to_pages() -> None:
    names = {page.relative_to(ROOT / "docs").as_posix() for page in TOOL.limited_pages()}
    assert "howto/which-copy.md" in names
    assert "explanation/look-alikes.md" in names
    assert all(name.startswith(("explanation/", "howto/")) for name in names)


@pytest.mark.parametrize("page", TOOL.limited_pages(), ids=lambda page: page.stem)
def test_page_has_at_most_the_limit_of_prose(page: Path) -> None:
    count = TOOL.words(page.read_text(encoding="utf-8"))
    assert 0 < count <= TOOL.LIMIT, f"{page.name}: {count} words of prose, the limit is {TOOL.LIMIT}"


LINE = (
    "[Two words]{#some-claim .claim} and {py:meth}`x.clone() <torch.Tensor.clone>`, [a link](page.md#anchor)."
)


def test_code_directives_tables_and_markup_are_not_prose() -> None:
    text = "\n".join(
        [
            "# A title",
            "",
            LINE,
            "",
            "```{tcdoc-run}",
            "x = torch.ones(3)  # not prose",
            "```",
            "",
            "````{note}",
            "```python",
            "nested = True",
            "```",
            "````",
            "",
            "| a | table |",
            "|---|---|",
            "% a comment",
            "(a-target)=",
        ]
    )
    assert TOOL.prose_lines(text) == [
        "# A title",
        "",
        LINE,
        "",
        "",
        "",
    ]
    # "A title" (2), "Two words and" (3), "x.clone()," (1), "a link." (2): the "#" of the heading is no word.
    assert TOOL.words(text) == 8


def test_a_page_over_the_limit_fails() -> None:
    assert TOOL.words("word " * (TOOL.LIMIT + 1)) > TOOL.LIMIT
