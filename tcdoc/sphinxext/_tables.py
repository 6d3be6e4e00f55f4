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
    WRITES,
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
    field_anchor,
    field_link,
    label_cells,
    legend,
    make_cell,
    make_table,
    message_list,
    not_applicable,
    note_list,
    plain_row,
    said,
    stamp,
)

__all__ = [
    "DefinitionsDirective",
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
            row = plain_row()
            row += make_cell(label_link(field))
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
            lead = _("Not shown, since they do not apply to any x of this table:")
            left_out += note_list(lead, [_(LABELS[field]) for field in hidden], ["tcdoc-na-note"])
        changes = [changed_note(self.env)] if marked else []
        return [table, *legend(table), *changes, *left_out, *message_list(messages)]


def label_link(field: str, modules: bool = False) -> field_link:
    """Return a row's label (``LABELS[field]``, translated), linked to its definition on the matrix page."""
    label = _(MODULE_LABELS[field] if modules else LABELS[field])
    link = field_link(label, label)
    link["anchor"] = field_anchor(field, modules)
    return link


def definitions() -> dict[str, str]:
    """Define each row of the operations' tables, in the build's language: one sentence a field.

    ``y`` is the result and ``x`` the source; each sentence says which of them it is about.
    """
    writes = _(
        "what the in-place write {write} into y does, on a fresh pair with grad mode enabled. "
        "“refused”: torch raised and changed nothing; “y only”: it changed y and left x as it was; "
        "“y and x”: it changed x too. “, raised” after either means that torch raised after the "
        "write."
    )
    return {
        "new_object": _("y is another Python object than x (“no”: y is x itself)."),
        "shares_storage": _("at least one byte of y lies in memory that x used before the operation."),
        "is_view": _(
            "torch records y as a view of x: y._base is x, or both are views of one base. Memory "
            "shared without that record, as x.detach() shares it, is not a view."
        ),
        "shares_version_counter": _(
            "an in-place change of y counts as a change of x for autograd's checks, and the other way round."
        ),
        "requires_grad": _("y.requires_grad."),
        "is_leaf": _("y.is_leaf."),
        "grad_fn": _("the class of y.grad_fn; “–” where y has none."),
        "gradient_flows_to_source": _("a backward pass from y reaches x."),
        "result_type": _("the class of y."),
        "copies_grad": _("y has a .grad of its own, apart from x.grad, with the same values."),
        "copies_attributes": _("y has every Python attribute (__dict__ entry) that x has."),
        "same_shape": _("y has the shape of x."),
        "same_strides": _("y has the strides of x."),
        "same_device": _("y is on the device of x."),
        "new_bytes": _(
            "bytes of memory that the operation allocated for y and for y.grad: memory that neither x "
            "nor x.grad used."
        ),
        "new_grad_bytes": _("the part of “new bytes” that y.grad holds."),
        "source_moved": _("x's own memory is no longer where it was before the operation."),
        "result_is_tensor": _("y is a torch.Tensor (of any subclass)."),
        "same_dtype": _("y has the dtype of x."),
        "overlaps_itself": _(
            "two elements of y are the same bytes of memory (a stride of 0, as expand makes): y's "
            "elements overlap each other, whatever x is."
        ),
        "keeps_hooks": _("y carries every hook that was registered on x with register_hook."),
        "keeps_conj": _("y has the conjugate bit set, as x has."),
        "keeps_inference": _("y is an inference tensor, as x is."),
        **{field: writes.format(write=LABELS[field]) for field in WRITES},
    }


def module_definitions() -> dict[str, str]:
    """Define each column of the module-level table, in the build's language."""
    return {
        "new_object": _("y is another Python object than x (“no”: y is x itself)."),
        "result_type": _("the class of y."),
        "tensors": _(
            "how many tensors y has that x has too, matched by name; the counts below are of these."
        ),
        "same_tensors": _(
            "how many of them are x's own tensor objects (the same Python objects), "
            "as x had them before the call."
        ),
        "shares_storage": _(
            "how many of them share memory with x's tensor of the same name, as x had it before the call."
        ),
        "requires_grad": _("how many of them require grad."),
        "with_grad": _("how many of them carry a .grad with the values that x's tensor of that name had."),
        "changes_source": _("the call changed x's own tensors: their dtype, device or memory."),
        "new_bytes": _(
            "bytes of memory behind y's tensors that x did not have before the call. The memory of "
            "their .grad is not counted (the tensor tables' “new bytes” count it)."
        ),
    }


class DefinitionsDirective(SphinxDirective):
    """Define every row label of the operations' tables (``:modules:``: the module-level table's).

    Each definition's id is the one the tables' labels link to (``field_anchor``).
    """

    option_spec: ClassVar[dict[str, Any]] = {"modules": directives.flag}

    def run(self) -> list[nodes.Node]:
        modules = "modules" in self.options
        labels = MODULE_LABELS if modules else LABELS
        words = module_definitions() if modules else definitions()
        if set(words) != set(labels):  # a new field needs its definition
            raise self.error(f"tcdoc-definitions: no definition for {sorted(set(labels) - set(words))}")
        items = nodes.definition_list(classes=["tcdoc-definitions"])
        for field, label in labels.items():
            anchor = field_anchor(field, modules)
            term = nodes.term(_(label), _(label), ids=[anchor])  # HTML writes a term's ids, not an item's
            item = nodes.definition_list_item("", term)
            item += nodes.definition("", nodes.paragraph(words[field], words[field]))
            items += item
        return generated([items])


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
        if not answers:  # each field's heading links to its definition
            head = table.next_node(nodes.thead)
            assert head is not None
            for entry, field in zip(list(head.findall(nodes.entry))[1:], MODULE_LABELS, strict=True):
                entry.children = []
                entry += nodes.paragraph("", "", label_link(field, modules=True))
        output: list[nodes.Node] = [nodes.paragraph(caption, caption), table, *legend(table, MODULE_LABELS)]
        output.append(stamp(matrix))
        return generated(output)
