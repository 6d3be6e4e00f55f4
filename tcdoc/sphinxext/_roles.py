"""The fact roles: ``{tcdoc-fact}`op/scenario/field[/grad_mode]``` and ``{tcdoc-env}`torch```.

A role that cannot render its value reports an error with the page and line, and leaves its
text in the page as a problematic node, as Sphinx's own roles do.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.util.docutils import SphinxRole

import tcdoc
from tcdoc._names import (
    GRAD_MODES,
    LABELS,
    MODULE_LABELS,
    MODULE_NOT_APPLICABLE,
    MODULE_OPERATION_NAMES,
    MODULE_SCENARIO,
    is_not_applicable,
    reason,
)
from tcdoc.sphinxext._i18n import translate as _
from tcdoc.sphinxext._state import build_matrix
from tcdoc.sphinxext._table_nodes import message, not_run

__all__ = ["EnvRole", "FactRole"]


class _FactsRole(SphinxRole):
    """A role that reports a bad use with its page and line and keeps its text, marked problematic."""

    def problem(self, message: str) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """Report ``message`` as an error at the role's line; show the role's text as problematic."""
        msg = self.inliner.reporter.error(message, line=self.lineno)
        return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]


class FactRole(_FactsRole):
    """``{tcdoc-fact}`op/scenario/field``: one measured value, shown as code.

    An optional fourth part names the grad mode the operation ran under, one of
    :data:`tcdoc.GRAD_MODES` (``clone/leaf_requires_grad/is_leaf/no_grad``); without it, the
    value is the default mode's, ``enabled``.

    ``field`` is a :class:`tcdoc.Comparison` field, ``error`` or ``error.type`` (a build error
    where the operation did not raise: the sentence around it says that it does), or
    ``warning``; the error and each warning show exactly as torch printed them (a
    :class:`~tcdoc.sphinxext._table_nodes.message`). A field that did not apply shows as
    "n/a: x has no .grad" (its reason); a cell that was not run shows why. A module-level
    operation's facts are read with the scenario ``trained_model`` and a
    :class:`tcdoc.ModuleComparison` field: ``module_to_float64/trained_model/new_object``.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        parts = self.text.split("/")
        if len(parts) not in (3, 4):
            return self.problem(
                f"tcdoc-fact wants op/scenario/field, got {self.text!r} (or op/scenario/field/grad_mode)"
            )
        operation, scenario, field = parts[:3]
        grad_mode = parts[3] if len(parts) == 4 else GRAD_MODES[0]
        module = operation in MODULE_OPERATION_NAMES
        if module and len(parts) == 4:
            return self.problem(f"tcdoc-fact {self.text!r}: a module-level operation has no grad mode")
        labels = MODULE_LABELS if module else LABELS
        try:
            if module:
                if scenario != MODULE_SCENARIO:
                    raise ValueError(f"a module-level operation's scenario is {MODULE_SCENARIO!r}")
                result: tcdoc.ProbeResult | tcdoc.ModuleResult = build_matrix(self.env).get_module(operation)
            else:
                result = build_matrix(self.env).get(tcdoc.get_operation(operation).name, scenario, grad_mode)
        except (KeyError, ValueError) as exc:
            return self.problem(f"tcdoc-fact {self.text!r}: {exc}")
        known = field in ("error", "error.type", "warning") or field in labels
        if not known:
            return self.problem(f"tcdoc-fact {self.text!r}: no field {field!r}")
        if isinstance(result, tcdoc.ProbeResult) and result.not_run is not None:
            text = not_run(result.not_run)
        elif field in ("error", "error.type"):
            if result.error is None:
                return self.problem(f"tcdoc-fact {self.text!r}: {operation} did not raise on {scenario}")
            if field == "error":
                return [self.said(str(result.error))], []
            text = result.error.type
        elif field == "warning" and result.warnings:
            warned: list[nodes.Node] = []
            for index, warning in enumerate(result.warnings):
                if index:
                    warned.append(nodes.Text("; "))
                warned.append(self.said(str(warning)))
            return warned, []
        elif field == "warning":
            text = _("no warning")
        elif result.properties is None:
            return self.problem(
                f"tcdoc-fact {self.text!r}: {operation} raised on {scenario}, so it has no {field}"
            )
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
                    why = _(str(reason(field, values)))
                    text = _("n/a: {reason}").format(reason=why)
                else:
                    text = str(value)
        return [nodes.literal(text, text, classes=["tcdoc-fact"])], []

    @staticmethod
    def said(text: str) -> message:
        """Show what torch printed, ``text``, as a fact: verbatim."""
        return message(text, text, classes=["tcdoc-fact", "tcdoc-message"])


class EnvRole(_FactsRole):
    """``{tcdoc-env}`torch``: a field of the build's :class:`tcdoc.Environment`."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        if self.text not in ("torch", "device", "device_name", "python"):
            return self.problem(
                f"tcdoc-env: unknown field {self.text!r}; choose from: torch, device, device_name, python"
            )
        environment = build_matrix(self.env).environment
        value = str(getattr(environment, self.text))
        return [nodes.literal(value, value, classes=["tcdoc-env"])], []
