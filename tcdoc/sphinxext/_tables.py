"""The fact directives and roles: tables, lists and single values, all read from one matrix per build.

``tcdoc-summary``, ``tcdoc-matrix``, ``tcdoc-properties``, ``tcdoc-scenarios`` and
``tcdoc-modules``; ``{tcdoc-fact}`op/scenario/field``` and ``{tcdoc-env}`torch```. Every value
comes from :func:`tcdoc.matrix`, probed once per build on ``tcdoc_device``.

A field that did not apply (see :func:`tcdoc._names.is_not_applicable`: nothing to copy, or a
result that is not a tensor) shows as "n/a", with its reason in the cell's tooltip and in a
note under the table; a cell that was not run shows "not run: needs numpy"; neither ever
shows as "no".
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import NoUri
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.nodes import make_refnode

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import (
    FAMILIES,
    LABELS,
    MODULE_LABELS,
    MODULE_NOT_APPLICABLE,
    MODULE_OPERATION_NAMES,
    MODULE_SCENARIO,
    MODULE_SCENARIO_SUMMARY,
    SCENARIO_GROUPS,
    is_not_applicable,
    reason,
)
from tcdoc.sphinxext._config import operation_doc
from tcdoc.sphinxext._i18n import generated
from tcdoc.sphinxext._i18n import translate as _

logger = logging.getLogger(__name__)

__all__ = [
    "EnvRole",
    "FactRole",
    "MatrixDirective",
    "ModulesDirective",
    "PropertiesDirective",
    "ScenariosDirective",
    "SummaryDirective",
    "build_matrix",
    "label_summary_cells",
    "resolve_operation_link",
]


@functools.cache
def build_matrix(device: str) -> tcdoc.Matrix:
    """Probe everything once per process; every directive and role reads this one matrix."""
    return tcdoc.matrix(device=device)


def _matrix(env: BuildEnvironment) -> tcdoc.Matrix:
    return build_matrix(env.config.tcdoc_device)


def _stamp(matrix: tcdoc.Matrix) -> nodes.paragraph:
    text = _("Measured at build time with {environment}.").format(environment=matrix.environment)
    return nodes.paragraph(text, text, classes=["tcdoc-stamp"])


def _cell(value: object, field: str = "", values: dict[str, Any] | None = None) -> nodes.entry:
    """Make a table cell; ``values`` (a comparison's ``as_dict()``) tells an "n/a" from a plain ``None``."""
    entry = nodes.entry()
    why = reason(field, values.get("result_is_tensor") is not False) if values is not None else None
    if isinstance(value, bool):
        entry += nodes.paragraph(text=cell(value, translate=_))
        entry["classes"].append("tcdoc-yes" if value else "tcdoc-no")
    elif value is None and why is not None:
        paragraph = nodes.paragraph()
        paragraph += _not_applicable(why)
        entry += paragraph
        entry["classes"].append("tcdoc-na")
    elif isinstance(value, nodes.paragraph):
        entry += value
    elif isinstance(value, nodes.Node):
        paragraph = nodes.paragraph()
        paragraph += value
        entry += paragraph
    else:
        entry += nodes.paragraph(text=cell(value))
    return entry


def _not_applicable(why: str) -> nodes.abbreviation:
    """Write "n/a", with why the question does not apply (``why``) as its explanation, a tooltip."""
    words = cell(None, not_applicable=True, translate=_)
    return nodes.abbreviation(words, words, explanation=_("n/a: {reason}").format(reason=_(why)))


def _not_run(outcome: tcdoc.NotRun) -> str:
    """Say why a cell was not run, in the build's language (``str(outcome)`` in English)."""
    packages = outcome.reason.removeprefix("needs ")
    if packages == outcome.reason:  # a reason of another kind: shown as it is
        return _("not run: {reason}").format(reason=outcome.reason)
    return _("not run: needs {packages}").format(packages=packages)


def _reasons(values: dict[str, Any], fields: Sequence[str]) -> dict[str, list[str]]:
    """Map each reason a field of ``values`` is n/a to those fields (for :func:`_na_note`)."""
    found: dict[str, list[str]] = {}
    for field in fields:
        if is_not_applicable(field, values):
            found.setdefault(str(reason(field, values["result_is_tensor"])), []).append(field)
    return found


def _na_note(reasons: dict[str, set[str]], labels: dict[str, str] = LABELS) -> list[nodes.Node]:
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


def _note_reasons(into: dict[str, set[str]], found: dict[str, list[str]]) -> None:
    for why, fields in found.items():
        into.setdefault(why, set()).update(fields)


def _table(
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    classes: list[str],
    fields: Sequence[str] = (),
    values: Sequence[dict[str, Any] | None] = (),
) -> nodes.table:
    """Make a table; ``fields`` names the field of each column, from the first (see :func:`_row`).

    ``values`` holds, for each row, the comparison its cells come from (or ``None``).
    """
    table = nodes.table(classes=["tcdoc-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in header)
    head = nodes.thead()
    head += _row(header)
    body = nodes.tbody()
    row_values = [*values, *[None] * (len(rows) - len(values))]
    body.extend(
        _row(row, len(header), fields if len(row) == len(header) else (), found)
        for row, found in zip(rows, row_values, strict=True)
    )
    group += [head, body]
    return table


def _row(
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
        _cell(cell, field, values if field else None) for cell, field in zip(cells, named, strict=True)
    ]
    if width is not None and len(cells) < width:
        entries[-1]["morecols"] = width - len(cells)
    row = nodes.row()
    row.extend(entries)
    return row


def _code_link(env: BuildEnvironment, op: tcdoc.Operation | tcdoc.ModuleOperation) -> nodes.Node:
    """Show the operation's code, linked to its page (see ``_config.operation_doc``) if it has one.

    The link is resolved by :func:`resolve_operation_link`, which keeps the code formatting.
    """
    code = nodes.literal(op.code, op.code)
    docname = operation_doc(env.config, op.name)
    if docname is None:
        return code
    ref = pending_xref("", refdomain="", reftype=_LINK_TYPE, reftarget=docname, refdoc=env.docname)
    ref += code
    return ref


# The type of the links _code_link makes. They name no domain, so Sphinx hands them to the
# missing-reference event, with the code node intact (its std :doc: role would make it plain text).
_LINK_TYPE = "tcdoc-operation"


def resolve_operation_link(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Link an operation's code to its page (``missing-reference`` handler).

    A page that does not exist is a warning of type ``tcdoc.link``, and the code stays unlinked.
    """
    if node.get("reftype") != _LINK_TYPE:
        return None
    docname = node["reftarget"]
    if docname in env.all_docs:
        return make_refnode(app.builder, node["refdoc"], docname, None, contnode)
    logger.warning(
        "tcdoc_operation_docs links %s to %r, which is not a page of this project",
        contnode.astext(),
        docname,
        location=node,
        type="tcdoc",
        subtype="link",
    )
    raise NoUri(docname)  # Sphinx then keeps the code, unlinked, and warns no more


LONGEST_MESSAGE = 400
"""Characters of an error or warning that the matrix pages show; the JSON holds every one."""


def _shortened(message: str) -> str:
    """Cut a very long message (torch lists every dispatch key in some) at a sentence, and say so.

    >>> _shortened("Short.")
    'Short.'
    >>> _shortened("One. " + "x" * 500)[:40]
    'One. […] (505 characters in all; the JSO'
    """
    if len(message) <= LONGEST_MESSAGE:
        return message
    head = message[:LONGEST_MESSAGE]
    cut = head.rfind(". ")
    kept = head[: cut + 1] if cut > 0 else head
    return f"{kept} […] ({len(message)} characters in all; the JSON of tcdoc matrix has the whole message)"


def _names(argument: str | None) -> list[str]:
    return (argument or "").split()


# The HTML that Sphinx writes for a summary table, and for the cells and rows inside it.
_SUMMARY_TABLE = re.compile(r'<table class="[^"]*\btcdoc-summary\b[^"]*">.*?</table>', re.DOTALL)
_HEADER_CELL = re.compile(r"<th\b[^>]*>(.*?)</th>", re.DOTALL)
_ROW = re.compile(r"<tr\b[^>]*>.*?</tr>", re.DOTALL)
_DATA_CELL = re.compile(r"<td\b([^>]*)>")
_TAG = re.compile(r"<[^>]+>")


def label_summary_cells(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Give each body cell of a ``tcdoc-summary`` table its column's heading as ``data-label``.

    On a narrow screen the stylesheet (``docs/_static/tcdoc.css``) shows each row as a card and
    writes each cell's label above its answer, so the table needs no sideways scrolling. A cell
    that spans several columns (an error) gets no label. Runs at ``html-page-context``.

    >>> table = (
    ...     '<table class="tcdoc-summary"><thead><tr><th><p>y =</p></th><th>New memory?</th></tr>'
    ...     "</thead><tbody><tr><td>x.clone()</td><td>yes</td></tr></tbody></table>"
    ... )
    >>> context = {"body": table}
    >>> label_summary_cells(None, "index", "page.html", context, None)
    >>> print(context["body"].partition("<tbody>")[2])
    <tr><td data-label="y =">x.clone()</td><td data-label="New memory?">yes</td></tr></tbody></table>
    """
    body = context.get("body")
    if isinstance(body, str) and "tcdoc-summary" in body:
        context["body"] = _SUMMARY_TABLE.sub(lambda table: _labelled(table.group(0)), body)


def _labelled(table: str) -> str:
    head, tbody, rows = table.partition("<tbody>")
    labels = [" ".join(html.unescape(_TAG.sub("", cell)).split()) for cell in _HEADER_CELL.findall(head)]

    def label_row(row: re.Match[str]) -> str:
        column = iter(labels)

        def label_cell(cell: re.Match[str]) -> str:
            label = next(column, "")
            if "colspan" in cell.group(1) or not label:
                return cell.group(0)
            return f'<td data-label="{html.escape(label, quote=True)}"{cell.group(1)}>'

        return _DATA_CELL.sub(label_cell, row.group(0))

    return head + tbody + _ROW.sub(label_row, rows)


class SummaryDirective(SphinxDirective):
    """Answer the four questions for some operations on one scenario."""

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged_required,
        "scenario": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        matrix = _matrix(self.env)
        scenario = tcdoc.get_scenario(self.options.get("scenario", "leaf_requires_grad"))
        names = _names(self.options.get("operations")) or ["clone", "detach", "deepcopy", "detach_clone"]
        rows: list[list[object]] = []
        for name in names:
            op = tcdoc.get_operation(name)
            result = matrix.get(op.name, scenario.name)
            if isinstance(result.outcome, tcdoc.ErrorInfo):
                rows.append([_code_link(self.env, op), _("raises {error}").format(error=result.outcome)])
            elif isinstance(result.outcome, tcdoc.NotRun):
                rows.append([_code_link(self.env, op), _not_run(result.outcome)])
            else:
                rows.append([_code_link(self.env, op), *tcdoc.answers(result.outcome, _).values()])
        caption = _("Source x: {summary}").format(summary=_(scenario.summary))
        table = _table([_("y ="), *map(_, tcdoc.QUESTIONS.values())], rows, ["tcdoc-summary"])
        return generated([nodes.paragraph(caption, caption), table, _stamp(matrix)])


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
        matrix = _matrix(self.env)
        family = self.options.get("family")
        if family is not None and family not in FAMILIES:
            raise self.error(f"tcdoc-matrix: unknown family {family!r}; choose from: {', '.join(FAMILIES)}")
        op_names = _names(self.options.get("operations")) or [
            op.name for op in tcdoc.operations() if family is None or op.family == family
        ]
        scenario_names = _names(self.options.get("scenarios")) or [s.name for s in tcdoc.scenarios()]
        output: list[nodes.Node] = [_stamp(matrix)]
        for name in op_names:
            op = tcdoc.get_operation(name)
            node_id = f"matrix-{op.name}"
            section = nodes.section(ids=[node_id])
            title = nodes.title()
            title += nodes.literal(op.code, op.code)
            section += title
            section += nodes.paragraph(_(op.summary), _(op.summary))
            if operation_doc(self.env.config, op.name) is not None:
                before, _code, after = _("See {code} for the page that shows it at work.").partition("{code}")
                see = nodes.paragraph(before, before)
                see += _code_link(self.env, op)
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
        table = _table([_("property"), *(r.scenario for r in results)], [], ["tcdoc-matrix"])
        body = table.next_node(nodes.tbody)
        assert isinstance(body, nodes.tbody)
        shown: dict[str, set[str]] = {}
        for index, field in enumerate(fields):
            row = nodes.row()
            row += _cell(_(LABELS[field]))
            for result in results:
                if isinstance(result.outcome, tcdoc.Comparison):
                    values = result.outcome.as_dict()
                    row += _cell(values[field], field, values)
                    _note_reasons(shown, _reasons(values, [field]))
                elif index == 0:
                    if isinstance(result.outcome, tcdoc.ErrorInfo):
                        spanning = _cell(_("raises {type} (below)").format(type=result.outcome.type))
                        spanning["classes"].append("tcdoc-raises")
                    else:
                        spanning = _cell(_not_run(result.outcome))
                        spanning["classes"].append("tcdoc-not-run")
                    spanning["morerows"] = len(fields) - 1
                    row += spanning
            body.append(row)
        # The same message on several scenarios is listed once, with the scenarios that gave it.
        messages: dict[str, list[str]] = {}
        for result in results:
            if result.error is not None:
                raised = _("raises {error}").format(error=_shortened(str(result.error)))
                messages.setdefault(raised, []).append(result.scenario)
            for warning in result.warnings:
                warned = _("warns {warning}").format(warning=_shortened(str(warning)))
                messages.setdefault(warned, []).append(result.scenario)
        notes = nodes.bullet_list()
        for text, scenarios in messages.items():
            notes += nodes.list_item("", self._note(", ".join(scenarios), text))
        left_out: list[nodes.Node] = []
        if hidden:
            text = _("Not shown, since they do not apply to any x of this table: {labels}.").format(
                labels=_(", ").join(_(LABELS[field]) for field in hidden)
            )
            left_out.append(nodes.paragraph(text, text, classes=["tcdoc-na-note"]))
        return [table, *_na_note(shown), *left_out, *([notes] if messages else [])]

    @staticmethod
    def _note(scenarios: str, text: str) -> nodes.paragraph:
        paragraph = nodes.paragraph()
        paragraph += nodes.strong(scenarios, scenarios)
        paragraph += nodes.Text(f" {text}")
        return paragraph


class PropertiesDirective(SphinxDirective):
    """Chosen properties of some operations on some scenarios, one row per cell, one table."""

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged_required,
        "scenarios": directives.unchanged,
        "fields": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        matrix = _matrix(self.env)
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
        shown: dict[str, set[str]] = {}
        for op in operations:
            for scenario in scenarios:
                result = matrix.get(op.name, scenario.name)
                cells: list[object] = [_code_link(self.env, op), *([scenario.name] if several else [])]
                if isinstance(result.outcome, tcdoc.ErrorInfo):
                    cells += [_("raises {type}").format(type=result.outcome.type)] * len(fields)
                    row_values.append(None)
                elif isinstance(result.outcome, tcdoc.NotRun):
                    cells += [_not_run(result.outcome)] * len(fields)
                    row_values.append(None)
                else:
                    values = result.outcome.as_dict()
                    cells += [values[field] for field in fields]
                    row_values.append(values)
                    _note_reasons(shown, _reasons(values, fields))
                rows.append(cells)
        output: list[nodes.Node] = []
        if not several:
            caption = _("Source x: {summary}").format(summary=_(scenarios[0].summary))
            output.append(nodes.paragraph(caption, caption))
        columns = ["", *([""] if several else []), *fields]  # the field of each column, if any
        table = _table(header, rows, ["tcdoc-properties"], columns, row_values)
        output += [table, *_na_note(shown), _stamp(matrix)]
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
        matrix = _matrix(self.env)
        names = _names(self.options.get("operations")) or [op.name for op in tcdoc.module_operations()]
        try:
            operations = [tcdoc.get_module_operation(name) for name in names]
            results = [matrix.get_module(op.name) for op in operations]
        except (KeyError, ValueError) as exc:
            raise self.error(f"tcdoc-modules: {exc}") from exc
        answers = "answers" in self.options
        header = [_("y ="), *map(_, tcdoc.MODULE_QUESTIONS.values() if answers else MODULE_LABELS.values())]
        rows: list[list[object]] = []
        shown: dict[str, set[str]] = {}
        for op, result in zip(operations, results, strict=True):
            cells: list[object] = [_code_link(self.env, op)]
            if isinstance(result.outcome, tcdoc.ErrorInfo):
                cells.append(_("raises {error}").format(error=result.outcome))
            elif answers:
                cells += tcdoc.module_answers(result.outcome, op.source, _).values()
            else:
                values = result.outcome.as_dict()
                for field in MODULE_LABELS:
                    if values[field] is None and field in MODULE_NOT_APPLICABLE:
                        shown.setdefault(MODULE_NOT_APPLICABLE[field], set()).add(field)
                        cells.append(_not_applicable(MODULE_NOT_APPLICABLE[field]))
                    else:
                        cells.append(values[field])
            rows.append(cells)
        caption = _("x is the model (the optimizer, for optimizer rows): {summary}").format(
            summary=_(MODULE_SCENARIO_SUMMARY)
        )
        output: list[nodes.Node] = [
            nodes.paragraph(caption, caption),
            _table(header, rows, ["tcdoc-modules"]),
        ]
        output += _na_note(shown, MODULE_LABELS)
        output.append(_stamp(matrix))
        return generated(output)


class FactRole(SphinxRole):
    """``{tcdoc-fact}`op/scenario/field``: one measured value, shown as code.

    ``field`` is a :class:`tcdoc.Comparison` field, ``error`` or ``error.type`` (a build error
    where the operation did not raise: the sentence around it says that it does), or
    ``warning``. A field that did not apply shows as "n/a: x has no .grad" (its reason); a
    cell that was not run shows why. A module-level operation's facts are read with the
    scenario ``trained_model`` and a :class:`tcdoc.ModuleComparison` field:
    ``module_to_float64/trained_model/new_object``.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        parts = self.text.split("/")
        if len(parts) != 3:
            msg = self.inliner.reporter.error(f"tcdoc-fact wants op/scenario/field, got {self.text!r}")
            return [], [msg]
        operation, scenario, field = parts
        module = operation in MODULE_OPERATION_NAMES
        labels = MODULE_LABELS if module else LABELS
        try:
            if module:
                if scenario != MODULE_SCENARIO:
                    raise ValueError(f"a module-level operation's scenario is {MODULE_SCENARIO!r}")
                result: tcdoc.ProbeResult | tcdoc.ModuleResult = _matrix(self.env).get_module(operation)
            else:
                result = _matrix(self.env).get(tcdoc.get_operation(operation).name, scenario)
        except (KeyError, ValueError) as exc:
            return [], [self.inliner.reporter.error(f"tcdoc-fact {self.text!r}: {exc}")]
        known = field in ("error", "error.type", "warning") or field in labels
        if not known:
            return [], [self.inliner.reporter.error(f"tcdoc-fact {self.text!r}: no field {field!r}")]
        if isinstance(result, tcdoc.ProbeResult) and result.not_run is not None:
            text = _not_run(result.not_run)
        elif field in ("error", "error.type"):
            if result.error is None:
                message = f"tcdoc-fact {self.text!r}: {operation} did not raise on {scenario}"
                return [], [self.inliner.reporter.error(message)]
            text = str(result.error) if field == "error" else result.error.type
        elif field == "warning":
            text = "; ".join(map(str, result.warnings)) or _("no warning")
        elif result.properties is None:
            message = f"tcdoc-fact {self.text!r}: {operation} raised on {scenario}, so it has no {field}"
            return [], [self.inliner.reporter.error(message)]
        else:
            values = result.properties.as_dict()
            value = values[field]
            if module:
                if value is None:
                    text = _("n/a: {reason}").format(reason=_(MODULE_NOT_APPLICABLE[field]))
                else:
                    text = str(value)
            else:
                if is_not_applicable(field, values):
                    why = _(str(reason(field, bool(values["result_is_tensor"]))))
                    text = _("n/a: {reason}").format(reason=why)
                else:
                    text = str(value)
        return [nodes.literal(text, text, classes=["tcdoc-fact"])], []


class EnvRole(SphinxRole):
    """``{tcdoc-env}`torch``: a field of the build's :class:`tcdoc.Environment`."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        environment = _matrix(self.env).environment
        if self.text not in ("torch", "device", "device_name", "python"):
            return [], [self.inliner.reporter.error(f"tcdoc-env: unknown field {self.text!r}")]
        value = str(getattr(environment, self.text))
        return [nodes.literal(value, value, classes=["tcdoc-env"])], []
