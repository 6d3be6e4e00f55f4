"""Sphinx extension: render facts measured by tcdoc at build time.

Add ``"tcdoc.sphinxext"`` to ``extensions`` in ``conf.py``. It provides

- ``tcdoc-summary``: the four questions answered for a list of operations on one scenario;
- ``tcdoc-matrix``: every operation on every scenario, one table per operation;
- ``tcdoc-scenarios``: the registered scenarios;
- ``tcdoc-properties``: chosen properties (``:fields:``) of some operations on some scenarios,
  one compact table;
- ``tcdoc-command``: the output of a ``tcdoc`` command line, run in the build;
- ``tcdoc-diagram``: pictures of what operations did, drawn at build time (see
  :mod:`tcdoc.sphinxext_draw`);
- ``tcdoc-run``: a short code snippet, run in the build, shown with what it printed, its warnings
  and the value of its last line (``:raises: Name`` for a snippet that ends in an expected error,
  ``:continue:`` to run in the namespace of the page's previous snippet);
- ``{tcdoc-fact}`op/scenario/field``: one measured value inline, for example
  ``clone/no_grad/shares_storage`` or ``deepcopy/non_leaf/error``;
- ``{tcdoc-env}`torch``: the torch version (or ``device``, ``device_name``, ``python``) of the build;
- ``tcdoc-gpu-status``: whether this build ran the GPU examples, and on what; on a build without
  CUDA, each GPU example page also gets a note that it was not run (see :mod:`tcdoc.gating`);
- a re-run of every gallery example when tcdoc's own code changed, a build error for an
  executed example whose page shows no output, and a cache for the pages of examples the build
  does not execute, so that a build with nothing to do imports no torch (see
  :mod:`tcdoc._gallery_guard`);
- links from ``torch.*`` and standard-library names to their official documentation, resolved
  offline (see :func:`tcdoc._links.official_url`).

Every value is probed once per build, on the CPU, or on CUDA where ``tcdoc_device = "cuda"``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import shlex
from collections.abc import Sequence
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective, SphinxRole

import tcdoc
from tcdoc._gallery_guard import (
    check_examples_ran,
    drop_remote_scripts,
    record_build,
    reread_if_tcdoc_changed,
    rerun_if_tcdoc_changed,
)
from tcdoc._links import official_url
from tcdoc._snippets import SnippetError, run_snippet
from tcdoc.cli import main

__all__ = ["setup"]

# The matrix columns, with short headings; every Comparison field appears here.
MATRIX_COLUMNS = {
    "new_object": "new object",
    "shares_storage": "shares memory",
    "shares_version_counter": "shares version counter",
    "requires_grad": "requires_grad",
    "is_leaf": "is_leaf",
    "grad_fn": "grad_fn",
    "gradient_flows_to_source": "gradient reaches x",
    "result_type": "type",
    "copies_grad": "copies .grad",
    "copies_attributes": "copies attributes",
    "same_strides": "same strides",
    "same_device": "same device",
    "new_bytes": "new bytes",
}


@functools.cache
def build_matrix(device: str) -> tcdoc.Matrix:
    """Probe everything once per process; every directive and role reads this one matrix."""
    return tcdoc.matrix(device=device)


def _matrix(env: BuildEnvironment) -> tcdoc.Matrix:
    return build_matrix(env.config.tcdoc_device)


def _stamp(matrix: tcdoc.Matrix) -> nodes.paragraph:
    text = f"Measured at build time with {matrix.environment}."
    return nodes.paragraph(text, text, classes=["tcdoc-stamp"])


def _cell(value: object) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(value, bool):
        entry += nodes.paragraph(text="yes" if value else "no")
        entry["classes"].append("tcdoc-yes" if value else "tcdoc-no")
    elif isinstance(value, nodes.paragraph):
        entry += value
    elif isinstance(value, nodes.Node):
        paragraph = nodes.paragraph()
        paragraph += value
        entry += paragraph
    else:
        entry += nodes.paragraph(text="–" if value is None else str(value))
    return entry


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], classes: list[str]) -> nodes.table:
    table = nodes.table(classes=["tcdoc-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in header)
    head = nodes.thead()
    head += _row(header)
    body = nodes.tbody()
    body.extend(_row(row, len(header)) for row in rows)
    group += [head, body]
    return table


def _row(cells: Sequence[object], width: int | None = None) -> nodes.row:
    """Make a table row; a row with fewer cells than ``width`` stretches its last cell."""
    entries = [_cell(cell) for cell in cells]
    if width is not None and len(cells) < width:
        entries[-1]["morecols"] = width - len(cells)
    row = nodes.row()
    row.extend(entries)
    return row


def _code_link(env: BuildEnvironment, op: tcdoc.Operation) -> nodes.Node:
    """Show the operation's code, linked to its page in ``tcdoc_operation_docs`` if it has one."""
    code = nodes.literal(op.code, op.code)
    docname = env.config.tcdoc_operation_docs.get(op.name)
    if docname is None:
        return code
    ref = pending_xref(
        "", refdomain="std", reftype="doc", reftarget="/" + docname, refexplicit=True, refdoc=env.docname
    )
    ref += code
    return ref


def _names(argument: str | None) -> list[str]:
    return (argument or "").split()


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
            if result.properties is None:
                assert result.error is not None
                rows.append([_code_link(self.env, op), f"raises {result.error.type}: {result.error.message}"])
            else:
                rows.append([_code_link(self.env, op), *tcdoc.answers(result.properties).values()])
        caption = f"Source x: {scenario.summary}"
        table = _table(["y =", *tcdoc.QUESTIONS.values()], rows, ["tcdoc-summary"])
        return [nodes.paragraph(caption, caption), table, _stamp(matrix)]


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
            section += nodes.paragraph(op.summary, op.summary)
            docname = self.env.config.tcdoc_operation_docs.get(op.name)
            if docname is not None:
                see = nodes.paragraph("See ", "See ")
                see += _code_link(self.env, op)
                see += nodes.Text(" for the page that shows it at work.")
                section += see
            section.extend(self._table([matrix.get(op.name, s) for s in scenario_names]))
            output.append(section)
            domain = self.env.domains.standard_domain
            domain.note_hyperlink_target(node_id, self.env.docname, node_id, op.code)
        return output

    def _table(self, results: list[tcdoc.ProbeResult]) -> list[nodes.Node]:
        """One row per property, one column per scenario; errors and warnings listed under it.

        A scenario where the operation raised gets one cell spanning the whole column.
        """
        table = _table(["property", *(r.scenario for r in results)], [], ["tcdoc-matrix"])
        body = table.next_node(nodes.tbody)
        assert isinstance(body, nodes.tbody)
        for index, (field, label) in enumerate(MATRIX_COLUMNS.items()):
            row = nodes.row()
            row += _cell(label)
            for result in results:
                if result.properties is not None:
                    row += _cell(result.properties.as_dict()[field])
                elif index == 0:
                    assert result.error is not None
                    spanning = _cell(f"raises {result.error.type} (below)")
                    spanning["morerows"] = len(MATRIX_COLUMNS) - 1
                    spanning["classes"].append("tcdoc-raises")
                    row += spanning
            body.append(row)
        # The same message on several scenarios is listed once, with the scenarios that gave it.
        messages: dict[str, list[str]] = {}
        for result in results:
            if result.error is not None:
                messages.setdefault(f"raises {result.error.type}: {result.error.message}", []).append(
                    result.scenario
                )
            for warning in result.warnings:
                messages.setdefault(f"warns {warning.category}: {warning.message}", []).append(
                    result.scenario
                )
        notes = nodes.bullet_list()
        for text, scenarios in messages.items():
            notes += nodes.list_item("", self._note(", ".join(scenarios), text))
        return [table, notes] if messages else [table]

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
        fields = _names(self.options.get("fields")) or list(MATRIX_COLUMNS)
        unknown = [field for field in fields if field not in MATRIX_COLUMNS]
        if not operations or unknown:
            raise self.error(f"tcdoc-properties needs :operations: and known :fields:; unknown: {unknown}")
        several = len(scenarios) > 1
        header = ["y =", *(["x"] if several else []), *(MATRIX_COLUMNS[field] for field in fields)]
        rows: list[list[object]] = []
        for op in operations:
            for scenario in scenarios:
                result = matrix.get(op.name, scenario.name)
                cells: list[object] = [_code_link(self.env, op), *([scenario.name] if several else [])]
                if result.properties is None:
                    assert result.error is not None
                    cells += [f"raises {result.error.type}"] * len(fields)
                else:
                    values = result.properties.as_dict()
                    cells += [values[field] for field in fields]
                rows.append(cells)
        output: list[nodes.Node] = []
        if not several:
            caption = f"Source x: {scenarios[0].summary}"
            output.append(nodes.paragraph(caption, caption))
        output += [_table(header, rows, ["tcdoc-properties"]), _stamp(matrix)]
        return output


class ScenariosDirective(SphinxDirective):
    """List the registered scenarios with their summaries."""

    def run(self) -> list[nodes.Node]:
        items = nodes.bullet_list()
        for scenario in tcdoc.scenarios():
            paragraph = nodes.paragraph()
            paragraph += nodes.literal(scenario.name, scenario.name)
            paragraph += nodes.Text(f": {scenario.summary}")
            items += nodes.list_item("", paragraph)
        return [items]


class CommandDirective(SphinxDirective):
    """Run ``tcdoc ARGS`` in the build and show what it printed and its exit status."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        argv = shlex.split(self.arguments[0])
        status, output = run_command(argv)
        text = f"$ tcdoc {shlex.join(argv)}\n{output.rstrip()}"
        if status:
            text += f"\n[exit status {status}]"
        block = nodes.literal_block(text, text, language="console")
        return [block]


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """Run the ``tcdoc`` command in this process; return its exit status and output."""
    buffer = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps help text to this width
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            try:
                status = main(argv)
            except SystemExit as exc:  # --help and argparse's own errors exit
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return status, buffer.getvalue()


# The namespace of the last tcdoc-run snippet on each page, for ``:continue:``.
_NAMESPACES: dict[str, dict[str, Any]] = {}


def fresh_namespace() -> dict[str, Any]:
    """Return the namespace a ``tcdoc-run`` snippet starts in: torch, copy and tcdoc, seeded."""
    import copy

    import torch

    torch.manual_seed(0)
    return {"__name__": "__tcdoc_run__", "copy": copy, "torch": torch, "tcdoc": tcdoc}


class RunDirective(SphinxDirective):
    """Run the content as Python in the build; show the code, then what it showed.

    A snippet that raises fails the build, unless ``:raises:`` names the exception's class.
    """

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "raises": directives.unchanged_required,
        "continue": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        docname = self.env.docname
        if "continue" in self.options:
            if docname not in _NAMESPACES:
                raise self.error("tcdoc-run :continue: needs an earlier tcdoc-run snippet on this page")
            namespace = _NAMESPACES[docname]
        else:
            namespace = _NAMESPACES[docname] = fresh_namespace()
        try:
            result = run_snippet(code, namespace, raises=self.options.get("raises"))
        except (SnippetError, SyntaxError) as exc:
            raise self.error(f"tcdoc-run: {exc}") from exc
        output: list[nodes.Node] = [nodes.literal_block(code, code, language="python")]
        if result.output:
            block = nodes.literal_block(result.output, result.output, language="none")
            block["classes"].append("tcdoc-run-output")
            output.append(block)
        return output


def _forget_namespace(app: Sphinx, docname: str, source: list[str]) -> None:
    """Start each read of a page without the namespaces of an earlier read (``source-read``)."""
    _NAMESPACES.pop(docname, None)


class FactRole(SphinxRole):
    """``{tcdoc-fact}`op/scenario/field``: one measured value, shown as code."""

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
        if field == "error":
            value: object = None if result.error is None else f"{result.error.type}: {result.error.message}"
        elif field == "error.type":
            value = None if result.error is None else result.error.type
        elif field == "warning":
            value = "; ".join(f"{w.category}: {w.message}" for w in result.warnings) or None
        elif result.properties is not None and field in result.properties.as_dict():
            value = result.properties.as_dict()[field]
        else:
            return [], [self.inliner.reporter.error(f"tcdoc-fact {self.text!r}: no field {field!r}")]
        return [nodes.literal(str(value), str(value), classes=["tcdoc-fact"])], []


class EnvRole(SphinxRole):
    """``{tcdoc-env}`torch``: a field of the build's :class:`tcdoc.Environment`."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        environment = _matrix(self.env).environment
        if self.text not in ("torch", "device", "device_name", "python"):
            return [], [self.inliner.reporter.error(f"tcdoc-env: unknown field {self.text!r}")]
        value = str(getattr(environment, self.text))
        return [nodes.literal(value, value, classes=["tcdoc-env"])], []


def resolve_official(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Link ``torch.*`` and Python names to their official pages (``missing-reference`` handler)."""
    if node.get("refdomain") != "py":
        return None
    url = official_url(node["reftarget"])
    if url is None:
        return None
    reference = nodes.reference("", "", internal=False, refuri=url, reftitle=node["reftarget"])
    reference += contnode
    return reference


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, roles, offline links and settings."""
    app.add_config_value("tcdoc_device", "cpu", "env", types=[str])
    app.add_config_value("tcdoc_operation_docs", {}, "env", types=[dict])
    app.add_directive("tcdoc-summary", SummaryDirective)
    app.add_directive("tcdoc-matrix", MatrixDirective)
    app.add_directive("tcdoc-scenarios", ScenariosDirective)
    app.add_directive("tcdoc-properties", PropertiesDirective)
    app.add_directive("tcdoc-command", CommandDirective)
    app.add_directive("tcdoc-run", RunDirective)
    app.add_role("tcdoc-fact", FactRole())
    app.add_role("tcdoc-env", EnvRole())
    app.connect("missing-reference", resolve_official)
    app.setup_extension("tcdoc._sphinx_gpu")
    # Before sphinx-gallery's own builder-inited handler (priority 500) generates the pages.
    app.connect("builder-inited", rerun_if_tcdoc_changed, priority=400)
    app.connect("env-get-outdated", reread_if_tcdoc_changed)
    app.connect("build-finished", check_examples_ran)
    app.connect("build-finished", record_build, priority=900)
    app.connect("source-read", drop_remote_scripts)
    app.setup_extension("tcdoc.sphinxext_draw")  # the tcdoc-diagram directive
    app.connect("source-read", _forget_namespace)
    return {"version": tcdoc.__version__, "parallel_read_safe": True, "parallel_write_safe": True}
