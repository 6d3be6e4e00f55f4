"""Count the words of prose on the site's explanation and how-to pages.

Prose is what a reader reads as sentences: headings, paragraphs, lists and quotes. Fenced blocks
(code and directives such as ``tcdoc-run`` or ``tcdoc-properties``), tables, comments and targets
are left out; markup is reduced to the words it shows (a role's or link's text, a claim span's
words without its ``{#id .claim}``). Usage: ``python tools/page_words.py [PAGE.md ...]``; with no
page it prints every explanation and how-to page and the landing page.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 1500
"""The most words of prose an explanation or how-to page may have (issue 24)."""

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}|:{3,})")
_ATTRS = re.compile(r"\]\{[^}]*\}")
_ROLE = re.compile(r"\{[\w:+-]+\}`([^`]*)`")
_LINK = re.compile(r"\]\([^)]*\)")


def limited_pages() -> list[Path]:
    """Return the pages the limit holds for: every explanation and how-to page."""
    docs = ROOT / "docs"
    return sorted((docs / "explanation").glob("*.md")) + sorted((docs / "howto").glob("*.md"))


def prose_lines(text: str) -> list[str]:
    """Return the lines of prose of a MyST page, fenced blocks, tables and comments left out."""
    lines: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        match = _FENCE.match(line)
        if fence is not None:
            marks = match.group(2) if match else ""
            if marks[:1] == fence[0] and len(marks) >= len(fence) and line.strip() == marks:
                fence = None
            continue
        if match:
            fence = match.group(2)
            continue
        stripped = line.strip()
        if stripped.startswith(("|", "%")) or re.fullmatch(r"\([\w-]+\)=", stripped):
            continue
        lines.append(line)
    return lines


def _shown(text: str) -> str:
    """Reduce MyST inline markup to the words a reader sees."""
    text = _ATTRS.sub("]", text)
    text = _LINK.sub("]", text)
    text = _ROLE.sub(lambda m: re.sub(r"\s*<[^>]*>$", "", m.group(1)), text)
    return text.replace("[", " ").replace("]", " ")


def words(text: str) -> int:
    """Return the number of words of prose in a MyST page's text."""
    count = 0
    for line in prose_lines(text):
        count += len([w for w in _shown(line).split() if re.search(r"\w", w)])
    return count


def main(argv: list[str]) -> int:
    """Print the words of prose of each page named, or of every limited page and the landing page."""
    pages = [Path(a) for a in argv] or [ROOT / "docs" / "index.md", *limited_pages()]
    for page in pages:
        page = page.resolve()
        n = words(page.read_text(encoding="utf-8"))
        shown = page.relative_to(ROOT) if page.resolve().is_relative_to(ROOT) else page
        print(f"{n:6d}  {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
