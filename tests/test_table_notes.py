"""What torch printed reaches the page as it printed it, and the notes under a table explain its cells.

Built on the small projects ``tests/roots/test-messages`` and ``tests/roots/test-legends``;
``tests/site/test_built_site.py`` checks the same on the built site.
"""

from __future__ import annotations

import copy
import html
import re
import shutil
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

import tcdoc

# -- Messages, verbatim ------------------------------------------------------------------------------

MESSAGE = re.compile(r'<code class="[^"]*\btcdoc-message\b[^"]*">(.*?)</code>', re.DOTALL)


def raised(run: Callable[[], object]) -> str:
    """``Type: message`` of what ``run`` raises, as a Python prompt would end it."""
    try:
        run()
    except Exception as exc:  # noqa: BLE001 - any exception is the expected message
        return f"{type(exc).__name__}: {exc}"
    raise AssertionError("expected an exception")


def _double_the_gradient(grad: torch.Tensor) -> torch.Tensor:
    """A hook, named as the scenario ``hooked`` names its own (torch's warning shows the name)."""
    return grad * 2


def torch_says() -> dict[str, str]:
    """The messages of the page ``test-messages``, from torch itself, without tcdoc."""
    leaf = torch.ones(3, requires_grad=True)
    non_leaf = leaf * 2
    channels_last = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last)
    hooked = torch.ones(3, requires_grad=True)
    hooked.register_hook(_double_the_gradient)  # type: ignore[no-untyped-call]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        copy.copy(hooked)
        torch.tensor(leaf)
    # tcdoc writes a memory address, different in every process, as 0x….
    warned = [f"{w.category.__name__}: {re.sub('0x[0-9a-f]+', '0x…', str(w.message))}" for w in caught]
    assert len(warned) == 2
    return {
        "deepcopy/non_leaf": raised(lambda: copy.deepcopy(non_leaf)),
        "numpy_direct/non_leaf": raised(non_leaf.numpy),
        "view/channels_last": raised(lambda: channels_last.view(-1)),
        "copy/hooked": warned[0],
        "torch_tensor/leaf_requires_grad": warned[1],
    }


def in_the_json(cell: str) -> str:
    """The message of ``op/scenario`` as tcdoc's results (and ``tcdoc matrix --json``) hold it."""
    operation, scenario = cell.split("/")
    result = tcdoc.probe(operation, scenario)
    if result.error is not None:
        return str(result.error)
    (warning,) = result.warnings
    return str(warning)


def build_root(
    make_app: Callable[..., SphinxTestApp],
    rootdir: Path,
    tmp_path: Path,
    name: str,
    **confoverrides: Any,
) -> SphinxTestApp:
    srcdir = tmp_path / name
    shutil.copytree(rootdir / f"test-{name}", srcdir)
    app = make_app("html", srcdir=srcdir, confoverrides=confoverrides, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    return app


EVERYWHERE: dict[str, list[str]] = {"languages": [], "builders": []}


# jieba, which Sphinx's Chinese search uses, leaves its dictionary file open.
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize(
    ("language", "excludes", "typographic"),
    [
        ("en", None, True),
        ("zh_CN", None, False),  # Sphinx leaves Chinese prose without smart quotes, by default
        ("zh_CN", EVERYWHERE, True),  # ... unless told otherwise: then with Chinese quotes
    ],
)
def test_a_message_on_the_page_is_the_message_in_the_json_byte_for_byte(
    make_app: Callable[..., SphinxTestApp],
    rootdir: Path,
    tmp_path: Path,
    language: str,
    excludes: dict[str, list[str]] | None,
    typographic: bool,
) -> None:
    expected = torch_says()
    assert {cell: in_the_json(cell) for cell in expected} == expected
    # What would tempt smart quotes: apostrophes, quotes, an ellipsis, runs of spaces.
    together = "".join(expected.values())
    assert "'" in together
    assert "..." in together
    assert "  " in together

    overrides: dict[str, Any] = {"language": language}
    if excludes is not None:
        overrides["smartquotes_excludes"] = excludes
    app = build_root(make_app, rootdir, tmp_path, "messages", **overrides)
    page = (app.outdir / "index.html").read_text(encoding="utf-8")
    shown = [html.unescape(text) for text in MESSAGE.findall(page)]
    assert "<" not in "".join(MESSAGE.findall(page))  # the message's text alone, no markup inside
    assert set(shown) == set(expected.values())
    # Nowhere on the page with typographic quotes or an ellipsis instead, not even in part.
    # Nor with the no-break spaces that inline code makes of a run of spaces.
    for educated in ("Can\u2019t", "tensor\u2019s", "reshape(…)", "moment.\u00a0"):
        assert educated not in html.unescape(page)
    # The prose around keeps the typographic quotes of the build's language.
    assert ("“Quoted” prose… isn\u2019t code" in page) is typographic
    assert ("&quot;Quoted&quot; prose... isn't code" in page) is not typographic


# -- The notes under a table --------------------------------------------------------------------------

NOT_APPLICABLE = "“n/a” means the question does not apply:"
NOT_RUN = "“not run” means that this build did not run the operation on that x ("


def plain(text: str) -> str:
    """``text`` with the prose's typographic apostrophes written as ASCII ones, as in a tooltip."""
    return text.replace("\u2019", "'")


def cells_say(table: nodes.table) -> tuple[set[tuple[str, str]], set[str]]:
    """What the cells of ``table`` say does not apply (heading, reason) and why some were not run.

    A heading is the column's, or in a ``tcdoc-matrix`` table (one row per property) the row's.
    """
    head = table.next_node(nodes.thead)
    body = table.next_node(nodes.tbody)
    assert head is not None
    assert body is not None
    headings = [entry.astext() for entry in head.findall(nodes.entry)]
    by_row = "tcdoc-matrix" in table["classes"]
    not_applicable: set[tuple[str, str]] = set()
    not_run: set[str] = set()
    for row in body.findall(nodes.row):
        entries = [child for child in row.children if isinstance(child, nodes.entry)]
        for index, entry in enumerate(entries):
            if "tcdoc-write" in entry["classes"]:
                continue  # an in-place write's outcome, whose tooltip says what it means: not an n/a
            for abbreviation in entry.findall(nodes.abbreviation):
                reason = str(abbreviation["explanation"]).removeprefix("n/a: ")
                heading = entries[0].astext() if by_row else headings[index]
                not_applicable.add((plain(heading), plain(reason)))
            if entry.astext().startswith("not run: "):
                not_run.add(entry.astext().removeprefix("not run: "))
    return not_applicable, not_run


def notes_say(table: nodes.table) -> tuple[set[tuple[str, str]], set[str]]:
    """What the notes between ``table`` and the next table explain: (heading, reason), not-run reasons."""
    siblings = table.parent.children
    not_applicable: set[tuple[str, str]] = set()
    not_run: set[str] = set()
    lead = ""  # the lead of the note whose list of reasons follows it
    for node in siblings[siblings.index(table) + 1 :]:
        if isinstance(node, nodes.table) or node.next_node(nodes.table) is not None:
            break
        if isinstance(node, nodes.bullet_list) and lead == NOT_APPLICABLE:
            # One reason an item: "Under “label”, “label”, reason."
            for item in node.children:
                found = re.fullmatch(r"Under ((?:“[^”]+”(?:, )?)+), (.+)\.", plain(item.astext()))
                assert found is not None, item.astext()
                not_applicable |= {(label, found[2]) for label in re.findall(r"“([^”]+)”", found[1])}
        if not isinstance(node, nodes.paragraph):
            lead = ""
            continue
        text = lead = plain(node.astext())
        if text.startswith(NOT_RUN):
            not_run |= set(text.removeprefix(NOT_RUN).removesuffix(").").split("; "))
    return not_applicable, not_run


@pytest.mark.parametrize("numpy", [True, False], ids=["with-numpy", "without-numpy"])
def test_the_note_under_a_table_explains_every_reason_its_cells_give_and_no_other(
    make_app: Callable[..., SphinxTestApp],
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    numpy: bool,
) -> None:
    if not numpy:  # the NumPy operations are not run; the build measures its own matrix
        monkeypatch.setitem(sys.modules, "numpy", None)
    app = build_root(make_app, rootdir, tmp_path, "legends")
    doctree = app.env.get_doctree("index")
    tables = [table for table in doctree.findall(nodes.table) if "tcdoc-table" in table["classes"]]
    assert len(tables) >= 10  # three operations by two groups of x, two properties, a summary, modules
    said = [cells_say(table) for table in tables]
    assert [notes_say(table) for table in tables] == said
    # The project shows n/a of several reasons, and not-run cells only where NumPy (or CUDA) is missing.
    reasons = {reason for not_applicable, _not_run in said for _heading, reason in not_applicable}
    assert {"x has no .grad", "y is not a tensor", "x has no Python attributes"} <= reasons
    assert "x's tensors have no .grad" in reasons  # the modules' table
    not_run = set().union(*(not_run for _not_applicable, not_run in said))
    # A build without CUDA shows the cuda scenario's column of the matrix as not run.
    no_cuda = set() if torch.cuda.is_available() else {"no CUDA device"}
    assert not_run == (no_cuda if numpy else {"needs numpy", *no_cuda})
