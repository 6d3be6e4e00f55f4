"""The fact directives and roles: tables, lists and single values, all read from one matrix per build.

``tcdoc-summary``, ``tcdoc-matrix``, ``tcdoc-properties`` and ``tcdoc-scenarios``;
``{tcdoc-fact}`op/scenario/field``` and ``{tcdoc-env}`torch```. Every value comes from
:func:`tcdoc.matrix`, probed once per build on ``tcdoc_device``.

A field that did not apply (``None`` in a field of ``tcdoc._names.NOT_APPLICABLE``) shows as
"n/a", with its reason in the cell's tooltip and in a note under the table; a cell that was
not run shows "not run: needs numpy"; neither ever shows as "no".
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
from tcdoc._names import LABELS, NOT_APPLICABLE, not_applicable
from tcdoc.sphinxext._i18n import generated
from tcdoc.sphinxext._i18n import translate as _

logger = logging.getLogger(__name__)

__all__ = [
    "EnvRole",
    "FactRole",
    "MatrixDirective",
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


def _cell(value: object, field: str = "") -> nodes.entry:
    entry = nodes.entry()
    if isinstance(value, bool):
        entry += nodes.paragraph(text=_("yes") if value else _("no"))
        entry["classes"].append("tcdoc-yes" if value else "tcdoc-no")
    elif value is None and field in NOT_APPLICABLE:
        paragraph = nodes.paragraph()
        paragraph += _not_applicable(field)
        entry += paragraph
        entry["classes"].append("tcdoc-na")
    elif isinstance(value, nodes.paragraph):
        entry += value
    elif isinstance(value, nodes.Node):
        paragraph = nodes.paragraph()
        paragraph += value
        entry += paragraph
    else:
        entry += nodes.paragraph(text="–" if value is None else str(value))
    return entry


def _not_applicable(field: str) -> nodes.abbreviation:
    """Show "n/a", with the reason it does not apply as its tooltip."""
    return nodes.abbreviation(_("n/a"), _("n/a"), explanation=_(not_applicable(field)))


def _na_note(fields: Sequence[str]) -> list[nodes.Node]:
    """Say, under a table that shows "n/a", why each such column did not apply."""
    shown = [field for field in NOT_APPLICABLE if field in fields]
    if not shown:
        return []
    text = _("; ").join(
        _("under “{label}”, {reason}").format(label=_(LABELS[field]), reason=_(NOT_APPLICABLE[field]))
        for field in shown
    )
    note = _("“n/a” means there was nothing to copy: {reasons}.").format(reasons=text)
    return [nodes.paragraph(note, note, classes=["tcdoc-na-note"])]


def _not_run(outcome: tcdoc.NotRun) -> str:
    """Say why a cell was not run, in the build's language (``str(outcome)`` in English)."""
    packages = outcome.reason.removeprefix("needs ")
    if packages == outcome.reason:  # a reason of another kind: shown as it is
        return _("not run: {reason}").format(reason=outcome.reason)
    return _("not run: needs {packages}").format(packages=packages)


def _table(
    header: Sequence[str], rows: Sequence[Sequence[object]], classes: list[str], fields: Sequence[str] = ()
) -> nodes.table:
    """Make a table; ``fields`` names the field of each column, from the first (see :func:`_row`)."""
    table = nodes.table(classes=["tcdoc-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in header)
    head = nodes.thead()
    head += _row(header)
    body = nodes.tbody()
    body.extend(_row(row, len(header), fields if len(row) == len(header) else ()) for row in rows)
    group += [head, body]
    return table


def _row(cells: Sequence[object], width: int | None = None, fields: Sequence[str] = ()) -> nodes.row:
    """Make a table row; a row with fewer cells than ``width`` stretches its last cell.

    ``fields`` names the field of each cell, from the first, where the cells hold field values.
    """
    named = [*fields, *[""] * (len(cells) - len(fields))]
    entries = [_cell(cell, field) for cell, field in zip(cells, named, strict=True)]
    if width is not None and len(cells) < width:
        entries[-1]["morecols"] = width - len(cells)
    row = nodes.row()
    row.extend(entries)
    return row


def _code_link(env: BuildEnvironment, op: tcdoc.Operation) -> nodes.Node:
    """Show the operation's code, linked to its page in ``tcdoc_operation_docs`` if it has one.

    The link is resolved by :func:`resolve_operation_link`, which keeps the code formatting.
    """
    code = nodes.literal(op.code, op.code)
    docname = env.config.tcdoc_operation_docs.get(op.name)
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
    """Every operation on every scenario with every property, one table per operation."""

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged,
        "scenarios": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        matrix = _matrix(self.env)
        op_names = _names(self.options.get("operations")) or [op.name for op in tcdoc.operations()]
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
            docname = self.env.config.tcdoc_operation_docs.get(op.name)
            if docname is not None:
                before, _code, after = _("See {code} for the page that shows it at work.").partition("{code}")
                see = nodes.paragraph(before, before)
                see += _code_link(self.env, op)
                see += nodes.Text(after)
                section += see
            section.extend(self._table([matrix.get(op.name, s) for s in scenario_names]))
            output.append(section)
            domain = self.env.domains.standard_domain
            domain.note_hyperlink_target(node_id, self.env.docname, node_id, op.code)
        return generated(output)

    def _table(self, results: list[tcdoc.ProbeResult]) -> list[nodes.Node]:
        """One row per property, one column per scenario; errors and warnings listed under it.

        A scenario where the operation raised, or was not run, gets one cell spanning the
        whole column.
        """
        table = _table([_("property"), *(r.scenario for r in results)], [], ["tcdoc-matrix"])
        body = table.next_node(nodes.tbody)
        assert isinstance(body, nodes.tbody)
        shown: set[str] = set()
        for index, (field, label) in enumerate(LABELS.items()):
            row = nodes.row()
            row += _cell(_(label))
            for result in results:
                if isinstance(result.outcome, tcdoc.Comparison):
                    value = result.outcome.as_dict()[field]
                    row += _cell(value, field)
                    if value is None:
                        shown.add(field)
                elif index == 0:
                    if isinstance(result.outcome, tcdoc.ErrorInfo):
                        spanning = _cell(_("raises {type} (below)").format(type=result.outcome.type))
                        spanning["classes"].append("tcdoc-raises")
                    else:
                        spanning = _cell(_not_run(result.outcome))
                        spanning["classes"].append("tcdoc-not-run")
                    spanning["morerows"] = len(LABELS) - 1
                    row += spanning
            body.append(row)
        # The same message on several scenarios is listed once, with the scenarios that gave it.
        messages: dict[str, list[str]] = {}
        for result in results:
            if result.error is not None:
                messages.setdefault(_("raises {error}").format(error=result.error), []).append(
                    result.scenario
                )
            for warning in result.warnings:
                messages.setdefault(_("warns {warning}").format(warning=warning), []).append(result.scenario)
        notes = nodes.bullet_list()
        for text, scenarios in messages.items():
            notes += nodes.list_item("", self._note(", ".join(scenarios), text))
        return [table, *_na_note(sorted(shown)), *([notes] if messages else [])]

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
        shown: set[str] = set()
        for op in operations:
            for scenario in scenarios:
                result = matrix.get(op.name, scenario.name)
                cells: list[object] = [_code_link(self.env, op), *([scenario.name] if several else [])]
                if isinstance(result.outcome, tcdoc.ErrorInfo):
                    cells += [_("raises {type}").format(type=result.outcome.type)] * len(fields)
                elif isinstance(result.outcome, tcdoc.NotRun):
                    cells += [_not_run(result.outcome)] * len(fields)
                else:
                    values = result.outcome.as_dict()
                    cells += [values[field] for field in fields]
                    shown.update(field for field in fields if values[field] is None)
                rows.append(cells)
        output: list[nodes.Node] = []
        if not several:
            caption = _("Source x: {summary}").format(summary=_(scenarios[0].summary))
            output.append(nodes.paragraph(caption, caption))
        columns = ["", *([""] if several else []), *fields]  # the field of each column, if any
        table = _table(header, rows, ["tcdoc-properties"], columns)
        output += [table, *_na_note(sorted(shown)), _stamp(matrix)]
        return generated(output)


class ScenariosDirective(SphinxDirective):
    """List the registered scenarios with their summaries."""

    def run(self) -> list[nodes.Node]:
        items = nodes.bullet_list()
        for scenario in tcdoc.scenarios():
            paragraph = nodes.paragraph()
            paragraph += nodes.literal(scenario.name, scenario.name)
            paragraph += nodes.Text(_(": {summary}").format(summary=_(scenario.summary)))
            items += nodes.list_item("", paragraph)
        return generated([items])


class FactRole(SphinxRole):
    """``{tcdoc-fact}`op/scenario/field``: one measured value, shown as code.

    ``field`` is a :class:`tcdoc.Comparison` field, ``error`` or ``error.type`` (a build error
    where the operation did not raise: the sentence around it says that it does), or
    ``warning``. A field that did not apply shows as "n/a: x has no .grad" (its reason); a
    cell that was not run shows why.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        parts = self.text.split("/")
        if len(parts) != 3:
            msg = self.inliner.reporter.error(f"tcdoc-fact wants op/scenario/field, got {self.text!r}")
            return [], [msg]
        operation, scenario, field = parts
        try:
            result = _matrix(self.env).get(tcdoc.get_operation(operation).name, scenario)
        except (KeyError, ValueError) as exc:
            return [], [self.inliner.reporter.error(f"tcdoc-fact {self.text!r}: {exc}")]
        known = field in ("error", "error.type", "warning") or field in LABELS
        if not known:
            return [], [self.inliner.reporter.error(f"tcdoc-fact {self.text!r}: no field {field!r}")]
        if result.not_run is not None:
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
            value = result.properties.as_dict()[field]
            text = _(not_applicable(field)) if value is None and field in NOT_APPLICABLE else str(value)
        return [nodes.literal(text, text, classes=["tcdoc-fact"])], []


class EnvRole(SphinxRole):
    """``{tcdoc-env}`torch``: a field of the build's :class:`tcdoc.Environment`."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        environment = _matrix(self.env).environment
        if self.text not in ("torch", "device", "device_name", "python"):
            return [], [self.inliner.reporter.error(f"tcdoc-env: unknown field {self.text!r}")]
        value = str(getattr(environment, self.text))
        return [nodes.literal(value, value, classes=["tcdoc-env"])], []
