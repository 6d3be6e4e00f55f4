"""On the built site: torch's messages as torch printed them, and notes that explain every table's cells.

Checks on docs/_build/html (and its Chinese edition, once built), run after ``nox -s docs``;
skipped, like test_built_site.py, when the site has not been built (and a failure under CI).
``tests/test_table_notes.py`` checks the same on a small project.
"""

from __future__ import annotations

import gettext
import html
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, cast

import pytest

from tcdoc.sphinxext._i18n import CATALOG, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "docs" / "_build" / "html"

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)

PAGES = sorted(HTML.rglob("*.html"))
FAMILY_PAGES = [
    *sorted(HTML.glob("reference/matrix/*.html")),
    *sorted(HTML.glob("zh_CN/reference/matrix/*.html")),
]
MESSAGE = re.compile(r'<code class="[^"]*\btcdoc-message\b[^"]*">(.*?)</code>', re.DOTALL)
LONGEST = 400  # the characters of a message that a page shows at most (the JSON has them all)
# The page of changes between releases shows what earlier releases printed, from their snapshots.
RELEASES_PAGE = "changes-between-releases.html"
SNAPSHOTS = ROOT / "docs" / "_snapshots"


@pytest.fixture(scope="module")
def printed() -> dict[str, set[str]]:
    """``tcdoc matrix --json``, run afresh: its errors (of the default grad mode) and all its messages."""
    out = subprocess.run(
        [sys.executable, "-m", "tcdoc", "matrix", "--json"], capture_output=True, text=True, check=True
    ).stdout
    errors, everything = said_in(json.loads(out))
    earlier: set[str] = set()
    for path in sorted(SNAPSHOTS.glob("*.json")):
        earlier |= said_in(json.loads(path.read_text(encoding="utf-8")))[1]
    return {"errors": errors, "messages": everything, "earlier": earlier | everything}


def said_in(data: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The errors of the default grad mode, and every message, of one matrix's JSON."""
    errors: set[str] = set()
    everything: set[str] = set()
    for row in [*data["rows"], *data["modules"]]:
        if row["error"] is not None:
            error = f"{row['error']['type']}: {row['error']['message']}"
            everything.add(error)
            if row.get("grad_mode", "enabled") == "enabled":  # the mode whose tables list every error
                errors.add(error)
        everything |= {f"{w['category']}: {w['message']}" for w in row["warnings"]}
    return errors, everything


def is_shown_as(shown: str, message: str) -> bool:
    """Whether a page's ``shown`` is ``message``, or its start cut at a sentence (a long one)."""
    return shown == message or (
        len(message) > LONGEST and len(shown) <= LONGEST and message.startswith(shown) and shown.endswith(".")
    )


@pytest.mark.same_torch
def test_every_message_on_every_page_is_one_of_the_json_as_torch_printed_it(
    printed: dict[str, set[str]],
) -> None:
    messages = printed["messages"]
    assert any("'" in m for m in messages)
    assert any("  " in m for m in messages)
    found = 0
    wrong = []
    for page in PAGES:
        # The page of changes between releases: what this torch printed, or an earlier release.
        allowed = printed["earlier"] if page.name == RELEASES_PAGE else messages
        for raw in MESSAGE.findall(page.read_text(encoding="utf-8")):
            shown = html.unescape(raw)
            found += 1
            if "<" in raw or not any(is_shown_as(shown, message) for message in allowed):
                wrong.append(f"{page.relative_to(HTML)}: {shown[:120]!r}")
    assert found > 50
    assert not wrong, "messages not as torch printed them:\n" + "\n".join(wrong)


@pytest.mark.same_torch
def test_every_error_of_the_matrix_is_listed_on_a_family_page(printed: dict[str, set[str]]) -> None:
    english = [page for page in FAMILY_PAGES if not page.is_relative_to(HTML / "zh_CN")]
    shown = {
        html.unescape(raw) for page in english for raw in MESSAGE.findall(page.read_text(encoding="utf-8"))
    }
    modules = (HTML / "reference" / "matrix.html").read_text(encoding="utf-8")
    shown |= {html.unescape(raw) for raw in MESSAGE.findall(modules)}
    missing = [m for m in printed["errors"] if not any(is_shown_as(s, m) for s in shown)]
    assert not missing


# -- The notes under a table --------------------------------------------------------------------------

APOSTROPHE = "\u2019"  # the prose's typographic apostrophe; a tooltip keeps the ASCII one


class Words:
    """How the notes and cells of one language's pages are worded: the extension's own templates."""

    def __init__(self, language: str) -> None:
        if language == "en":
            translate: Callable[[str], str] = str
        else:
            translate = gettext.translation(CATALOG, str(LOCALE_DIR), [language]).gettext
        self.not_applicable = translate("n/a: {reason}").split("{reason}")[0]
        self.not_run = translate("not run: {reason}").split("{reason}")[0]
        self.needs = translate("needs {packages}").split("{packages}")[0]
        self.separator = translate("; ")
        self.note = translate("“n/a” means the question does not apply:")
        self.not_run_note = translate(
            "“not run” means that this build did not run the operation on that x ({reasons})."
        ).split("{reasons}")
        before, between, after = re.split(r"\{\w+\}", translate("Under {labels}, {reason}."))
        labels = f"(?:“[^”]+”(?:{re.escape(translate(', '))})?)+"
        self.under = re.compile(f"{re.escape(before)}({labels}){re.escape(between)}(.+){re.escape(after)}")

    def reason(self, text: str) -> str:
        """A reason, said in a cell or a note, without "needs" and with ASCII apostrophes."""
        return text.removeprefix(self.needs).replace(APOSTROPHE, "'")


class _Tables(HTMLParser):
    """Each tcdoc table of a page: its headings, its cells' text and "n/a" reasons, the notes after it."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list[object]]] = []
        self._in_table = False
        self._in_head = False
        self._cell: list[str] | None = None
        self._reasons: list[str] = []
        self._write = False
        self._row: list[tuple[str, list[str]]] = []
        self._note: list[str] | None = None
        self._items: list[str] | None = None  # the items of a note's list, after its lead
        self._after_note = False  # a note's lead has just ended: a list that starts now is its

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        after_note, self._after_note = self._after_note, False
        if tag == "table" and "tcdoc-table" in classes:
            self._in_table = True
            kind = (
                "matrix"
                if "tcdoc-matrix" in classes
                else "grad-modes"
                if "tcdoc-grad-modes" in classes
                else "other"
            )
            self.tables.append({"kind": [kind], "headings": [], "rows": [], "notes": []})
        elif self._in_table and tag == "thead":
            self._in_head = True
        elif self._in_table and tag == "tr":
            self._row = []
        elif self._in_table and tag in ("td", "th"):
            self._cell, self._reasons = [], []
            self._write = "tcdoc-write" in classes  # an in-place write's outcome: its tooltip is no n/a
        elif self._in_table and tag == "abbr" and not self._write:
            self._reasons.append(str(dict(attrs).get("title", "")))
        elif tag == "p" and "tcdoc-na-note" in classes and self.tables and not self._in_table:
            self._note = []
        elif tag == "ul" and after_note:
            self._items = []
        elif tag == "li" and self._items is not None:
            self._note = []

    def handle_endtag(self, tag: str) -> None:
        self._after_note = False
        if tag == "table" and self._in_table:
            self._in_table = False
        elif self._in_table and tag == "thead":
            self._in_head = False
        elif self._in_table and tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            if self._in_head:
                self.tables[-1]["headings"].append(text)
            else:
                self._row.append((text, self._reasons))
            self._cell = None
        elif self._in_table and tag == "tr" and self._row:
            self.tables[-1]["rows"].append(self._row)
        elif tag == "p" and self._note is not None and self._items is None:
            self.tables[-1]["notes"].append((" ".join("".join(self._note).split()), []))
            self._note = None
            self._after_note = True
        elif tag == "li" and self._note is not None and self._items is not None:
            self._items.append(" ".join("".join(self._note).split()))
            self._note = None
        elif tag == "ul" and self._items is not None:
            lead, _items = cast(tuple[str, list[str]], self.tables[-1]["notes"][-1])
            self.tables[-1]["notes"][-1] = (lead, self._items)
            self._items = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._note is not None:
            self._note.append(data)


def cells_and_notes(
    table: dict[str, list[object]], words: Words
) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(heading, reason) of each "n/a" and ("not run", reason) of each cell not run; then of the notes."""
    headings = [str(h) for h in table["headings"]]
    by_row = table["kind"] == ["matrix"]
    by_field = table["kind"] == ["grad-modes"]  # one row per (operation, property, x): its second cell
    cells: set[tuple[str, str]] = set()
    for row in table["rows"]:
        assert isinstance(row, list)
        for index, (text, reasons) in enumerate(row):
            heading = row[0][0] if by_row else row[1][0] if by_field else headings[index]
            for reason in reasons:
                assert reason.startswith(words.not_applicable), reason
                cells.add(
                    (
                        heading.replace(APOSTROPHE, "'"),
                        words.reason(reason.removeprefix(words.not_applicable)),
                    )
                )
            if text.startswith(words.not_run):
                cells.add(("not run", words.reason(text.removeprefix(words.not_run))))
    notes: set[tuple[str, str]] = set()
    for note, items in cast(list[tuple[str, list[str]]], table["notes"]):
        before, after = words.not_run_note
        if note.startswith(before) and note.endswith(after):
            for part in note.removeprefix(before).removesuffix(after).split(words.separator):
                notes.add(("not run", words.reason(part)))
        elif note == words.note:  # a lead, then one reason an item
            for item in items:
                found = words.under.fullmatch(item)
                assert found is not None, item
                for label in re.findall(r"“([^”]+)”", found[1]):
                    notes.add((label.replace(APOSTROPHE, "'"), words.reason(found[2])))
    return cells, notes


@pytest.mark.parametrize("page", FAMILY_PAGES, ids=lambda page: str(page.relative_to(HTML)))
def test_the_notes_under_each_table_explain_every_reason_its_cells_give_and_no_other(page: Path) -> None:
    parser = _Tables()
    parser.feed(page.read_text(encoding="utf-8"))
    assert len(parser.tables) >= 2
    words = Words("zh_CN" if page.is_relative_to(HTML / "zh_CN") else "en")
    explained = [cells_and_notes(table, words) for table in parser.tables]
    unexplained = [cells - notes for cells, notes in explained if cells - notes]
    absent = [notes - cells for cells, notes in explained if notes - cells]
    assert not unexplained, f"reasons in the cells that no note explains: {unexplained}"
    assert not absent, f"reasons in the notes that no cell gives: {absent}"
    assert any(cells for cells, _notes in explained)  # a family page has "n/a" cells to explain
