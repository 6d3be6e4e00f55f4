"""The nodes of the fact tables: cells, rows, tables and the notes under them.

A field that did not apply (see :func:`tcdoc._names.is_not_applicable`: nothing to copy, or a
result that is not a tensor) shows as "n/a", with its reason in the cell's tooltip and in a
note under the table; a cell that was not run shows "not run: needs numpy"; neither ever
shows as "no". The words of a cell are :func:`tcdoc._cells.cell`'s.

A table whose rows read as cards on a phone (the ``tcdoc-summary`` table, see
``docs/_static/tcdoc.css``) has :class:`labelled_entry` cells: each carries its column's
heading, which the HTML writer renders as the cell's ``data-label`` attribute.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import LABELS, WRITE_OUTCOMES, WRITES, is_not_applicable, reason
from tcdoc.sphinxext._i18n import translate as _

__all__ = ["LONGEST_MESSAGE", "add_nodes", "label_cells", "labelled_entry"]


class labelled_entry(nodes.entry):
    """A table cell that carries its column's heading, as ``label``, for narrow screens."""


def visit_labelled_entry(self: HTML5Translator, node: labelled_entry) -> None:
    """Write the cell's start tag, as for any cell, with ``data-label`` set to its heading."""
    self.visit_entry(node)
    start = self.body[-1]
    tag = start[1:3]  # "td" (a body cell) or "th"
    label = html.escape(node["label"], quote=True)
    self.body[-1] = start.replace(f"<{tag}", f'<{tag} data-label="{label}"', 1)


def depart_labelled_entry(self: HTML5Translator, node: labelled_entry) -> None:
    self.depart_entry(node)


def add_nodes(app: Sphinx) -> None:
    """Register :class:`labelled_entry`; other writers than HTML write it as a plain cell."""
    app.add_node(labelled_entry, html=(visit_labelled_entry, depart_labelled_entry))


def label_cells(table: nodes.table) -> None:
    """Make each body cell of ``table`` a :class:`labelled_entry` with its column's heading.

    A cell that spans several columns (an error) keeps no label.
    """
    head = table.next_node(nodes.thead)
    body = table.next_node(nodes.tbody)
    assert head is not None
    assert body is not None
    labels = [" ".join(entry.astext().split()) for entry in head.findall(nodes.entry)]
    for row in body.findall(nodes.row):
        for index, entry in enumerate(list(row.children)):
            if not isinstance(entry, nodes.entry) or "morecols" in entry or index >= len(labels):
                continue
            if not labels[index]:
                continue
            labelled = labelled_entry("", *entry.children, **entry.attributes)
            labelled["label"] = labels[index]
            row.replace(entry, labelled)


def stamp(matrix: tcdoc.Matrix) -> nodes.paragraph:
    text = _("Measured at build time with {environment}.").format(environment=matrix.environment)
    return nodes.paragraph(text, text, classes=["tcdoc-stamp"])


def make_cell(value: object, field: str = "", values: dict[str, Any] | None = None) -> nodes.entry:
    """Make a table cell; ``values`` (a comparison's ``as_dict()``) tells an "n/a" from a plain ``None``."""
    entry = nodes.entry()
    why = reason(field, values) if values is not None else None
    if isinstance(value, bool):
        entry += nodes.paragraph(text=cell(value, translate=_))
        entry["classes"].append("tcdoc-yes" if value else "tcdoc-no")
    elif value is None and why is not None:
        paragraph = nodes.paragraph()
        paragraph += not_applicable(why)
        entry += paragraph
        entry["classes"].append("tcdoc-na")
    elif isinstance(value, nodes.paragraph):
        entry += value
    elif isinstance(value, nodes.Node):
        paragraph = nodes.paragraph()
        paragraph += value
        entry += paragraph
    elif field in WRITES and isinstance(value, str) and value in WRITE_OUTCOMES:
        # An in-place write's outcome is words, not a value: "refused", "y only", "y and x".
        words, meaning = _(value), _(WRITE_OUTCOMES[value])
        entry += nodes.paragraph("", "", nodes.abbreviation(words, words, explanation=meaning))
        entry["classes"].append("tcdoc-write")
    else:
        entry += nodes.paragraph(text=cell(value))
    return entry


def not_applicable(why: str) -> nodes.abbreviation:
    """Write "n/a", with why the question does not apply (``why``) as its explanation, a tooltip."""
    words = cell(None, not_applicable=True, translate=_)
    return nodes.abbreviation(words, words, explanation=_("n/a: {reason}").format(reason=_(why)))


def not_run(outcome: tcdoc.NotRun) -> str:
    """Say why a cell was not run, in the build's language (``str(outcome)`` in English)."""
    packages = outcome.reason.removeprefix("needs ")
    if packages == outcome.reason:  # a reason of another kind: shown as it is
        return _("not run: {reason}").format(reason=outcome.reason)
    return _("not run: needs {packages}").format(packages=packages)


def reasons(values: dict[str, Any], fields: Sequence[str]) -> dict[str, list[str]]:
    """Map each reason a field of ``values`` is n/a to those fields (for :func:`na_note`).

    The reason is the one that applies to these values (:func:`tcdoc._names.reason`): the same
    field may be n/a for one reason in one column and another in the next ("x has no .grad",
    "y is x"), and the legend under the table gives each.
    """
    found: dict[str, list[str]] = {}
    for field in fields:
        if is_not_applicable(field, values):
            found.setdefault(str(reason(field, values)), []).append(field)
    return found


def na_note(reasons: dict[str, set[str]], labels: dict[str, str] = LABELS) -> list[nodes.Node]:
    """Say, under a table that shows "n/a", why each such column or row did not apply."""
    if not reasons:
        return []
    parts = [
        _("under {labels}, {reason}").format(
            labels=_(", ").join(_("“{label}”").format(label=_(labels[f])) for f in labels if f in fields),
            reason=_(why),
        )
        for why, fields in reasons.items()
    ]
    note = _("“n/a” means the question does not apply: {reasons}.").format(reasons=_("; ").join(parts))
    return [nodes.paragraph(note, note, classes=["tcdoc-na-note"])]


def note_reasons(into: dict[str, set[str]], found: dict[str, list[str]]) -> None:
    for why, fields in found.items():
        into.setdefault(why, set()).update(fields)


def make_table(
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    classes: list[str],
    fields: Sequence[str] = (),
    values: Sequence[dict[str, Any] | None] = (),
) -> nodes.table:
    """Make a table; ``fields`` names the field of each column, from the first (see :func:`make_row`).

    ``values`` holds, for each row, the comparison its cells come from (or ``None``).
    """
    table = nodes.table(classes=["tcdoc-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in header)
    head = nodes.thead()
    head += make_row(header)
    body = nodes.tbody()
    row_values = [*values, *[None] * (len(rows) - len(values))]
    body.extend(
        make_row(row, len(header), fields if len(row) == len(header) else (), found)
        for row, found in zip(rows, row_values, strict=True)
    )
    group += [head, body]
    return table


def make_row(
    cells: Sequence[object],
    width: int | None = None,
    fields: Sequence[str] = (),
    values: dict[str, Any] | None = None,
) -> nodes.row:
    """Make a table row; a row with fewer cells than ``width`` stretches its last cell.

    ``fields`` names the field of each cell, from the first, where the cells hold field values
    of the comparison ``values``.
    """
    named = [*fields, *[""] * (len(cells) - len(fields))]
    entries = [
        make_cell(value, field, values if field else None) for value, field in zip(cells, named, strict=True)
    ]
    if width is not None and len(cells) < width:
        entries[-1]["morecols"] = width - len(cells)
    row = nodes.row()
    row.extend(entries)
    return row


LONGEST_MESSAGE = 400
"""Characters of an error or warning that the matrix pages show; the JSON holds every one."""


def shortened(message: str) -> str:
    """Cut a very long message (torch lists every dispatch key in some) at a sentence, and say so.

    >>> shortened("Short.")
    'Short.'
    >>> shortened("One. " + "x" * 500)[:40]
    'One. […] (505 characters in all; the JSO'
    """
    if len(message) <= LONGEST_MESSAGE:
        return message
    head = message[:LONGEST_MESSAGE]
    cut = head.rfind(". ")
    kept = head[: cut + 1] if cut > 0 else head
    return f"{kept} […] ({len(message)} characters in all; the JSON of tcdoc matrix has the whole message)"
