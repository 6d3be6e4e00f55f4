"""One formatter, ``tcdoc._cells.cell``, writes every yes / no / n/a cell: the tables' and the command's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tcdoc
from tcdoc import _cells, cli
from tcdoc._cells import cell

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("value", "not_applicable", "words"),
    [
        (True, False, "yes"),
        (False, False, "no"),
        (None, True, "n/a"),
        (None, False, "\u2013"),
        (0, False, "0"),
        ("Tensor", False, "Tensor"),
        (True, True, "yes"),  # a value is never "n/a"
    ],
)
def test_each_value_has_one_wording(value: object, not_applicable: bool, words: str) -> None:
    assert cell(value, not_applicable) == words


def test_only_the_words_are_translated() -> None:
    shout = str.upper
    assert [cell(True, translate=shout), cell(None, True, shout)] == ["YES", "N/A"]
    assert cell("no", translate=shout) == "no"  # a value that reads like a word stays as it is
    assert cell(None, translate=shout) == _cells.EMPTY


def test_the_command_writes_a_plain_none_as_the_tables_do() -> None:
    report = tcdoc.probe("clone", "no_grad").properties
    assert report is not None
    values = report.as_dict()
    assert values["grad_fn"] is None
    assert cli._text(values, "grad_fn") == _cells.EMPTY == "\u2013"
    assert cli._text(values, "copies_grad") == "n/a"
    assert cli._text(values, "new_object") == "yes"
    assert cli._module_text(None, "with_grad") == "n/a"
    assert cli._shown(None, "copies_grad") == "n/a"
    assert cli._shown("CloneBackward0", "grad_fn") == "CloneBackward0"  # a word, unquoted


def test_no_other_module_spells_the_words_of_a_cell() -> None:
    """The tables, the command and the drawings write no "yes", "no", "n/a" or dash of their own."""
    places = [ROOT / "tcdoc" / "cli.py", ROOT / "tcdoc" / "sphinxext", ROOT / "tcdoc" / "draw"]
    words = {"yes", "no", "n/a", "-", "\u2013"}
    for place in places:
        for path in sorted(place.rglob("*.py")) if place.is_dir() else [place]:
            if path.name == "_claims.py":  # the claim role, rewritten elsewhere
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            # A piece of an f-string ("bytes 0\u201312", a range) is not a cell.
            pieces = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
            spelled = [
                node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in words
                and id(node) not in pieces
            ]
            assert not spelled, (path.relative_to(ROOT), spelled)
