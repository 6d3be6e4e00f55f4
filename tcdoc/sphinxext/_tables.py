"""The fact directives: tables and lists, all read from one matrix per build.

``tcdoc-summary``, ``tcdoc-matrix``, ``tcdoc-properties``, ``tcdoc-scenarios`` and
``tcdoc-modules``. Every value comes from the build's matrix
(:func:`tcdoc.sphinxext._state.build_matrix`, probed once per build on ``tcdoc_device``); the
cells and tables are made by ``_table_nodes``, the links of operations' code by ``_links``, and
the roles ``{tcdoc-fact}`` and ``{tcdoc-env}`` live in ``_roles``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc._names import (
    FAMILIES,
    LABELS,
    MODULE_LABELS,
    MODULE_NOT_APPLICABLE,
    MODULE_SCENARIO_SUMMARY,
    SCENARIO_GROUPS,
    is_not_applicable,
)
from tcdoc.sphinxext._changes import changed_cells, changed_mark, changed_note
from tcdoc.sphinxext._config import operation_doc
from tcdoc.sphinxext._i18n import generated
from tcdoc.sphinxext._i18n import translate as _
from tcdoc.sphinxext._links import code_link, resolve_operation_link
from tcdoc.sphinxext._roles import EnvRole, FactRole
from tcdoc.sphinxext._state import build_matrix
from tcdoc.sphinxext._table_nodes import (
    label_cells,
    legend,
    make_cell,
    make_table,
    message_list,
    not_applicable,
    said,
    stamp,
)

__all__ = [
    "EnvRole",
    "FactRole",
    "MatrixDirective",
    "ModulesDirective",
    "PropertiesDirective",
    "ScenariosDirective",
    "SummaryDirective",
    "build_matrix",
    "resolve_operation_link",
]


def _names(argument: str | None) -> list[str]:
    return (argument or "").split()


class SummaryDirective(SphinxDirective):
    """Answer the four questions for some operations on one scenario."""

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged_required,
        "scenario": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        names = _names(self.options.get("operations")) or ["clone", "detach", "deepcopy", "detach_clone"]
        try:
            scenario = tcdoc.get_scenario(self.options.get("scenario", "leaf_requires_grad"))
            operations = [tcdoc.get_operation(name) for name in names]
        except ValueError as exc:
            raise self.error(f"tcdoc-summary: {exc}") from exc
        matrix = build_matrix(self.env)
        rows: list[list[object]] = []
        for op in operations:
            result = matrix.get(op.name, scenario.name)
            if isinstance(result.outcome, tcdoc.ErrorInfo):
                raised = said(_("raises {error}"), str(result.outcome), cut=False)
                rows.append([code_link(self.env, op), raised])
            elif isinstance(result.outcome, tcdoc.NotRun):
                rows.append([code_link(self.env, op), result.outcome])
            else:
                rows.append([code_link(self.env, op), *tcdoc.answers(result.outcome, _).values()])
        caption = _("Source x: {summary}").format(summary=_(scenario.summary))
        table = make_table([_("y ="), *map(_, tcdoc.QUESTIONS.values())], rows, ["tcdoc-summary"])
        label_cells(table)  # each cell's heading, for the cards that a phone shows
        return generated([nodes.paragraph(caption, caption), table, *legend(table), stamp(matrix)])


class MatrixDirective(SphinxDirective):
    """Every operation on every scenario with every property, one section per operation.

    ``:family:`` keeps the operations of one family (a key of ``tcdoc._names.FAMILIES``);
    ``:operations:`` and ``:scenarios:`` name them instead. Each operation gets a table per
    group of scenarios (everyday, special), one row per property and one column per scenario;
    a property that does not apply to any scenario of a table is left out of it, and the
    note under the table says so.
    """

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged,
        "scenarios": directives.unchanged,
        "family": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        family = self.options.get("family")
        if family is not None and family not in FAMILIES:
            raise self.error(f"tcdoc-matrix: unknown family {family!r}; choose from: {', '.join(FAMILIES)}")
        # Every operation and scenario, those that need CUDA too: on a build without CUDA their
        # cells say "not run: no CUDA device" rather than leaving them out.
        op_names = _names(self.options.get("operations")) or [
            op.name
            for op in tcdoc.operations(include_unavailable=True)
            if family is None or op.family == family
        ]
        scenario_names = _names(self.options.get("scenarios")) or [
            s.name for s in tcdoc.scenarios(include_unavailable=True)
        ]
        try:
            operations = [tcdoc.get_operation(name) for name in op_names]
            for name in scenario_names:
                tcdoc.get_scenario(name)
        except ValueError as exc:
            raise self.error(f"tcdoc-matrix: {exc}") from exc
        matrix = build_matrix(self.env)
        output: list[nodes.Node] = [stamp(matrix)]
        for op in operations:
            node_id = f"matrix-{op.name}"
            section = nodes.section(ids=[node_id])
            title = nodes.title()
            title += nodes.literal(op.code, op.code)
            section += title
            section += nodes.paragraph(_(op.summary), _(op.summary))
            if operation_doc(self.env.config, op.name) is not None:
                before, _code, after = _("See {code} for the page that shows it at work.").partition("{code}")
                see = nodes.paragraph(before, before)
                see += code_link(self.env, op)
                see += nodes.Text(after)
                section += see
            for group in SCENARIO_GROUPS:
                in_group = [n for n in scenario_names if tcdoc.get_scenario(n).group == group]
                if in_group:
                    section.extend(self._table([matrix.get(op.name, s) for s in in_group]))
            output.append(section)
            domain = self.env.domains.standard_domain
            domain.note_hyperlink_target(node_id, self.env.docname, node_id, op.code)
        return generated(output)

    def _table(self, results: list[tcdoc.ProbeResult]) -> list[nodes.Node]:
        """One row per property, one column per scenario; errors and warnings listed under it.

        A scenario where the operation raised, or was not run, gets one cell spanning the
        whole column.
        """
        measured = [r.outcome.as_dict() for r in results if isinstance(r.outcome, tcdoc.Comparison)]
        hidden = [
            field for field in LABELS if measured and all(is_not_applicable(field, v) for v in measured)
        ]
        fields = [field for field in LABELS if field not in hidden]
        table = make_table([_("property"), *(r.scenario for r in results)], [], ["tcdoc-matrix"])
        body = table.next_node(nodes.tbody)
        assert isinstance(body, nodes.tbody)
        changed = changed_cells(self.env) or frozenset()
        marked = False
        for index, field in enumerate(fields):
            row = nodes.row()
            row += make_cell(_(LABELS[field]))
            for result in results:
                if isinstance(result.outcome, tcdoc.Comparison):
                    values = result.outcome.as_dict()
                    entry = make_cell(values[field], field, values)
                    if (result.operation, result.scenario, result.grad_mode, field) in changed:
                        _mark(entry, changed_mark(self.env))
                        marked = True
                    row += entry
                elif index == 0:
                    if isinstance(result.outcome, tcdoc.ErrorInfo):
                        spanning = make_cell(_("raises {type} (below)").format(type=result.outcome.type))
                        spanning["classes"].append("tcdoc-raises")
                    else:
                        spanning = make_cell(result.outcome)
                    spanning["morerows"] = len(fields) - 1
                    row += spanning
            body.append(row)
        # A change of the whole cell (it raised, or warned, or said otherwise) marks its heading.
        head = table.next_node(nodes.thead)
        assert isinstance(head, nodes.thead)
        headings = list(head.findall(nodes.entry))[1:]
        for heading, result in zip(headings, results, strict=True):
            whole = ("outcome", "error", "not_run", "warnings")
            if any((result.operation, result.scenario, result.grad_mode, f) in changed for f in whole):
                _mark(heading, changed_mark(self.env))
                marked = True
        # The same message on several scenarios is listed once, with the scenarios that gave it.
        messages: dict[tuple[str, str], list[str]] = {}
        for result in results:
            if result.error is not None:
                messages.setdefault((_("raises {error}"), str(result.error)), []).append(result.scenario)
            for warning in result.warnings:
                messages.setdefault((_("warns {warning}"), str(warning)), []).append(result.scenario)
        left_out: list[nodes.Node] = []
        if hidden:
            text = _("Not shown, since they do not apply to any x of this table: {labels}.").format(
                labels=_(", ").join(_(LABELS[field]) for field in hidden)
            )
            left_out.append(nodes.paragraph(text, text, classes=["tcdoc-na-note"]))
        changes = [changed_note(self.env)] if marked else []
        return [table, *legend(table), *changes, *left_out, *message_list(messages)]


def _mark(entry: nodes.entry, mark: nodes.Node) -> None:
    """Put ``mark`` at the end of the cell's last paragraph."""
    last = entry.children[-1]
    assert isinstance(last, nodes.Element)
    last += mark


class PropertiesDirective(SphinxDirective):
    """Chosen properties of some operations on some scenarios, one row per cell, one table.

    A row whose operation raised says so in each cell; the error itself is listed under the table.
    """

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged_required,
        "scenarios": directives.unchanged,
        "fields": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        matrix = build_matrix(self.env)
        try:
            operations = [tcdoc.get_operation(name) for name in _names(self.options.get("operations"))]
            scenarios = [
                tcdoc.get_scenario(n) for n in _names(self.options.get("scenarios") or "leaf_requires_grad")
            ]
        except ValueError as exc:
            raise self.error(f"tcdoc-properties: {exc}") from exc
        fields = _names(self.options.get("fields")) or list(LABELS)
        unknown = [field for field in fields if field not in LABELS]
        if not operations or unknown:
            raise self.error(f"tcdoc-properties needs :operations: and known :fields:; unknown: {unknown}")
        several = len(scenarios) > 1
        header = [_("y ="), *(["x"] if several else []), *(_(LABELS[field]) for field in fields)]
        rows: list[list[object]] = []
        row_values: list[dict[str, Any] | None] = []
        messages: dict[tuple[str, str], list[str]] = {}
        for op in operations:
            for scenario in scenarios:
                result = matrix.get(op.name, scenario.name)
                cells: list[object] = [code_link(self.env, op), *([scenario.name] if several else [])]
                if isinstance(result.outcome, tcdoc.ErrorInfo):
                    cells += [_("raises {type}").format(type=result.outcome.type)] * len(fields)
                    row_values.append(None)
                    where = _("{code} on {scenario}").format(code=op.code, scenario=scenario.name)
                    messages.setdefault((_("raises {error}"), str(result.outcome)), []).append(where)
                elif isinstance(result.outcome, tcdoc.NotRun):
                    cells += [result.outcome] * len(fields)
                    row_values.append(None)
                else:
                    values = result.outcome.as_dict()
                    cells += [values[field] for field in fields]
                    row_values.append(values)
                rows.append(cells)
        output: list[nodes.Node] = []
        if not several:
            caption = _("Source x: {summary}").format(summary=_(scenarios[0].summary))
            output.append(nodes.paragraph(caption, caption))
        columns = ["", *([""] if several else []), *fields]  # the field of each column, if any
        table = make_table(header, rows, ["tcdoc-properties"], columns, row_values)
        output += [table, *legend(table), *message_list(messages), stamp(matrix)]
        return generated(output)


class ScenariosDirective(SphinxDirective):
    """List the registered scenarios with their summaries (``:group:`` keeps one group)."""

    option_spec: ClassVar[dict[str, Any]] = {"group": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        group = self.options.get("group")
        if group is not None and group not in SCENARIO_GROUPS:
            raise self.error(
                f"tcdoc-scenarios: unknown group {group!r}; choose from: {', '.join(SCENARIO_GROUPS)}"
            )
        items = nodes.bullet_list()
        for scenario in tcdoc.scenarios():
            if group is not None and scenario.group != group:
                continue
            paragraph = nodes.paragraph()
            paragraph += nodes.literal(scenario.name, scenario.name)
            paragraph += nodes.Text(_(": {summary}").format(summary=_(scenario.summary)))
            items += nodes.list_item("", paragraph)
        return generated([items])


class ModulesDirective(SphinxDirective):
    """The module-level operations: one row each, one column per field or per question.

    ``:operations:`` names some (all by default); ``:answers:`` shows the questions answered in
    words instead of the fields.
    """

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged,
        "answers": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        matrix = build_matrix(self.env)
        names = _names(self.options.get("operations")) or [op.name for op in tcdoc.module_operations()]
        try:
            operations = [tcdoc.get_module_operation(name) for name in names]
            results = [matrix.get_module(op.name) for op in operations]
        except (KeyError, ValueError) as exc:
            raise self.error(f"tcdoc-modules: {exc}") from exc
        answers = "answers" in self.options
        header = [_("y ="), *map(_, tcdoc.MODULE_QUESTIONS.values() if answers else MODULE_LABELS.values())]
        rows: list[list[object]] = []
        for op, result in zip(operations, results, strict=True):
            cells: list[object] = [code_link(self.env, op)]
            if isinstance(result.outcome, tcdoc.ErrorInfo):
                cells.append(said(_("raises {error}"), str(result.outcome), cut=False))
            elif answers:
                cells += tcdoc.module_answers(result.outcome, op.source, _).values()
            else:
                values = result.outcome.as_dict()
                for field in MODULE_LABELS:
                    if values[field] is None and field in MODULE_NOT_APPLICABLE:
                        cells.append(not_applicable(MODULE_NOT_APPLICABLE[field], field))
                    else:
                        cells.append(values[field])
            rows.append(cells)
        caption = _("x is the model (the optimizer, for optimizer rows): {summary}").format(
            summary=_(MODULE_SCENARIO_SUMMARY)
        )
        table = make_table(header, rows, ["tcdoc-modules"])
        output: list[nodes.Node] = [nodes.paragraph(caption, caption), table, *legend(table, MODULE_LABELS)]
        output.append(stamp(matrix))
        return generated(output)
