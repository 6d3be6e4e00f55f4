"""The ``tcdoc-grad-modes`` directive: the answers of a family that change under another grad mode.

The matrix measures every cell under each of :data:`tcdoc.GRAD_MODES`; the family pages show
the default mode's (``"enabled"``) tables, and under them this one compact table: one row per
(operation, field) whose value under ``torch.no_grad()`` or ``torch.inference_mode()``
differs from its value under grad mode enabled (:func:`tcdoc._diff.grad_mode_changes`), one
column per grad mode, then the kinds of ``x`` it changes for. Its cells are made as the other
tables' are (``_table_nodes``), and what torch printed is written verbatim
(:func:`tcdoc.sphinxext._table_nodes.said`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc._names import FAMILIES, LABELS
from tcdoc.sphinxext._i18n import generated
from tcdoc.sphinxext._i18n import translate as _
from tcdoc.sphinxext._links import code_link
from tcdoc.sphinxext._state import build_matrix
from tcdoc.sphinxext._table_nodes import (
    bare_paragraph,
    legend,
    make_cell,
    make_table,
    plain_code,
    plain_row,
    said,
    stamp,
)

__all__ = ["GradModesDirective", "field_label", "mode_heading"]


def mode_heading(mode: str) -> str:
    """Return the column heading of a grad mode: ``enabled``, or the context manager that sets it."""
    if mode == "no_grad":
        return "torch.no_grad()"
    if mode == "inference_mode":
        return "torch.inference_mode()"
    return _("enabled")


def field_label(field: str) -> str:
    """Return the heading of a changed field, in the build's language: a property, or the whole cell."""
    if field in LABELS:
        return _(LABELS[field])
    if field == "outcome":
        return _("outcome")
    if field == "error":
        return _("error")
    if field == "not_run":
        return _("not run")
    if field == "warnings":
        return _("warnings")
    raise ValueError(f"unknown field {field!r}")


def value_cell(result: tcdoc.ProbeResult, field: str) -> nodes.entry:
    """Make the cell of ``field`` of one measured cell (``result``), as the family's tables write it."""
    outcome = result.outcome
    if field == "warnings":
        if not result.warnings:
            return make_cell(_("none"))
        entry = nodes.entry()
        for warning in result.warnings:
            entry += said(_("warns {warning}"), str(warning))
        return entry
    if isinstance(outcome, tcdoc.ErrorInfo):
        return make_cell(said(_("raises {error}"), str(outcome)))
    if isinstance(outcome, tcdoc.NotRun):
        return make_cell(outcome)
    if field in LABELS:
        values = outcome.as_dict()
        return make_cell(values[field], field, values)
    return make_cell(_("measured"))  # "outcome": it was measured here, and raised or was not run elsewhere


class GradModesDirective(SphinxDirective):
    """The answers of one ``:family:`` that change under ``torch.no_grad()`` or ``torch.inference_mode()``.

    One row per operation and field, with the kinds of ``x`` whose three values are the same
    (:func:`grouped`), an operation's rows in the order of its fields; one column per grad mode,
    the value under grad mode enabled first, then the kinds of ``x``. A family where nothing
    changes gets one sentence.
    """

    option_spec: ClassVar[dict[str, Any]] = {"family": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        family = self.options.get("family")
        if family not in FAMILIES:
            raise self.error(
                f"tcdoc-grad-modes: unknown family {family!r}; choose from: {', '.join(FAMILIES)}"
            )
        from tcdoc._diff import grad_mode_changes  # imports torch: only a build that measures does

        matrix = build_matrix(self.env)
        changes = grad_mode_changes(matrix, family)
        if not changes:
            text = _("No answer of this family changes under torch.no_grad() or torch.inference_mode().")
            return generated([nodes.paragraph(text, text, classes=["tcdoc-grad-modes-none"]), stamp(matrix)])
        # The three modes' values right after what changed, where a 736 px column shows them;
        # the kinds of x, a list that can be long, last.
        header = [_("y ="), _("property"), *(mode_heading(mode) for mode in tcdoc.GRAD_MODES), "x"]
        table = make_table(header, [], ["tcdoc-grad-modes"])
        body = table.next_node(nodes.tbody)
        assert isinstance(body, nodes.tbody)
        for operation, scenarios, field, cells in grouped(matrix, changes):
            row = plain_row()
            row += _bare(make_cell(_plain(code_link(self.env, tcdoc.get_operation(operation)))))
            row += _bare(make_cell(field_label(field)))
            for cell in cells:
                row += cell
            row += _bare(make_cell(", ".join(scenarios)))
            body += row
        return generated([table, *legend(table), stamp(matrix)])


def _plain(link: nodes.Node) -> nodes.Node:
    """Return an operation's code (``code_link``) as :class:`plain_code`: one ``<code>``, no span per word."""
    if isinstance(link, nodes.literal):
        return plain_code(link.astext(), link.astext())
    for code in list(link.findall(nodes.literal)):
        code.replace_self(plain_code(code.astext(), code.astext()))
    return link


def _bare(entry: nodes.entry) -> nodes.entry:
    """Write a one-paragraph cell's text without ``<p>`` in HTML (see ``bare_paragraph``)."""
    if len(entry.children) == 1 and type(entry.children[0]) is nodes.paragraph:
        paragraph = entry.children[0]
        paragraph.replace_self(bare_paragraph("", "", *paragraph.children))
    return entry


def grouped(
    matrix: tcdoc.Matrix, changes: tuple[tuple[str, str, str], ...]
) -> list[tuple[str, list[str], str, list[nodes.entry]]]:
    """Join the scenarios of one operation and field whose three cells say the same, in first order.

    A row then reads "``x.clone()``, on ``leaf_requires_grad, non_leaf``: is a leaf, no / yes /
    yes" once, instead of once per kind of ``x``: the table lists every answer that changes, and
    no answer twice.
    """
    rows: dict[tuple[str, str, tuple[str, ...]], tuple[list[str], list[nodes.entry]]] = {}
    for operation, scenario, field in changes:
        cells = [value_cell(matrix.get(operation, scenario, mode), field) for mode in tcdoc.GRAD_MODES]
        key = (operation, field, tuple(cell.astext() for cell in cells))
        if key in rows:
            rows[key][0].append(scenario)
        else:
            rows[key] = ([scenario], cells)
    # Grouped by what changes: the rows of one operation in the order of its fields (a property,
    # then the whole cell's outcome, error and warnings), the operations in the matrix's order.
    operations = list(dict.fromkeys(operation for operation, _scenario, _field in changes))
    order = [*LABELS, "outcome", "error", "not_run", "warnings"]
    listed = [
        (operation, scenarios, field, cells) for (operation, field, _), (scenarios, cells) in rows.items()
    ]
    return sorted(
        listed,
        key=lambda row: (operations.index(row[0]), order.index(row[2]) if row[2] in order else len(order)),
    )
