"""Run operations on scenarios and record what happened: reports, errors and warnings.

Each cell of a matrix has one outcome, and its type says which of three things happened: a
:class:`Comparison` (the operation returned, and this is what was measured), an
:class:`ErrorInfo` (torch raised, and this is what it said) or a :class:`NotRun` (the
environment lacked something the operation needs, such as NumPy, so torch was never asked).
The environment is not torch: a missing package is never recorded as torch raising.

Module-level operations (``model.to()``, ``model.state_dict()``, ...) are probed the same way
by :func:`probe_module`, on the one model of ``tcdoc._modules.trained_model``; a matrix holds
their rows in ``modules``, beside the tensor cells.
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import platform
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import torch

from tcdoc._compare import Comparison, compare
from tcdoc._modules import (
    MODULE_SCENARIO,
    ModuleComparison,
    ModuleOperation,
    compare_modules,
    get_module_operation,
    module_operations,
    snapshot,
    trained_model,
)
from tcdoc._names import MODULE_OPERATION_NAMES, NOT_APPLICABLE
from tcdoc._registry import Operation, Scenario, check_device, cuda_available, get_operation, get_scenario
from tcdoc._registry import operations as all_operations
from tcdoc._registry import scenarios as all_scenarios

__all__ = [
    "SCHEMA",
    "CellChange",
    "Environment",
    "ErrorInfo",
    "Matrix",
    "ModuleResult",
    "NotRun",
    "ProbeResult",
    "WarningInfo",
    "diff",
    "environment",
    "matrix",
    "probe",
    "probe_module",
]

SCHEMA = 3
"""Version of the JSON layout written by :meth:`Matrix.to_json`.

Schema 3 adds the fields of ``SCHEMA_3_FIELDS`` to each row's properties (``null`` where
they do not apply, as for a result that is not a tensor) and the module-level rows under
``"modules"``. Schema 2 wrote ``null`` for a field that does not apply (``copies_grad`` where
the source has no ``.grad``) and added ``not_run`` to each row. Schema 1 wrote ``false`` both
for "no" and for "does not apply".

:meth:`Matrix.from_json` reads all three. A field an older schema did not measure is ``None``
there (``result_is_tensor`` is ``True``: every operation of those versions returned a tensor),
and :func:`diff` does not report it, nor a schema-1 ``false`` against a ``null``, as a change.
"""

SCHEMAS = (1, 2, 3)
"""The JSON layouts :meth:`Matrix.from_json` reads."""

SCHEMA_3_FIELDS = (
    "result_is_tensor",
    "same_dtype",
    "overlaps_itself",
    "keeps_hooks",
    "keeps_conj",
    "keeps_inference",
)
"""The :class:`Comparison` fields that schemas 1 and 2 did not have."""


@dataclasses.dataclass(frozen=True)
class Environment:
    """The software and device that produced a result: the stamp on every fact.

    >>> import tcdoc, torch
    >>> tcdoc.environment().torch == torch.__version__
    True
    """

    torch: str
    device: str
    device_name: str
    python: str

    def __str__(self) -> str:
        return f"torch {self.torch} on {self.device_name}, Python {self.python}"

    def _repr_html_(self) -> str:
        return f'<p class="tcdoc-environment">Measured with {html.escape(str(self))}.</p>'


def environment(device: str = "cpu") -> Environment:
    """Describe this torch and the given device.

    Raises
    ------
    ValueError
        If ``device`` is not ``"cpu"`` or ``"cuda"``, or is ``"cuda"`` without CUDA.

    """
    device = check_device(device)
    name = torch.cuda.get_device_name() if device == "cuda" else f"CPU ({platform.machine() or 'unknown'})"
    return Environment(
        torch=torch.__version__, device=device, device_name=name, python=platform.python_version()
    )


@dataclasses.dataclass(frozen=True)
class ErrorInfo:
    """An exception an operation raised, kept as a result.

    ``str()`` gives the one wording that tables, the command and the pictures show.

    >>> import tcdoc
    >>> str(tcdoc.ErrorInfo("RuntimeError", "it failed"))
    'RuntimeError: it failed'
    """

    type: str
    message: str

    def __str__(self) -> str:
        return f"{self.type}: {self.message}"


@dataclasses.dataclass(frozen=True)
class NotRun:
    """A cell that was not run, because the environment lacks what the operation needs.

    ``str()`` gives the one wording that tables and the command show.

    >>> import tcdoc
    >>> str(tcdoc.NotRun("needs numpy"))
    'not run: needs numpy'
    """

    reason: str

    def __str__(self) -> str:
        return f"not run: {self.reason}"


@dataclasses.dataclass(frozen=True)
class WarningInfo:
    """A warning an operation emitted."""

    category: str
    message: str

    def __str__(self) -> str:
        return f"{self.category}: {self.message}"


@dataclasses.dataclass(frozen=True)
class ProbeResult:
    """What one operation did to one scenario's fresh tensor.

    ``outcome`` is the measured :class:`Comparison`, the :class:`ErrorInfo` of the exception
    the operation raised, or :class:`NotRun` where the environment lacked what the operation
    needs: one field, so a result is always exactly one of them. ``properties``, ``error`` and
    ``not_run`` read it as one or the other.

    >>> import tcdoc
    >>> result = tcdoc.probe("deepcopy", "non_leaf")
    >>> isinstance(result.outcome, tcdoc.ErrorInfo), result.properties is None
    (True, True)
    """

    operation: str
    scenario: str
    outcome: Comparison | ErrorInfo | NotRun
    warnings: tuple[WarningInfo, ...] = ()

    @property
    def properties(self) -> Comparison | None:
        """The measured properties, or ``None`` where the operation raised or was not run."""
        return self.outcome if isinstance(self.outcome, Comparison) else None

    @property
    def error(self) -> ErrorInfo | None:
        """The exception the operation raised, or ``None`` where it did not raise."""
        return self.outcome if isinstance(self.outcome, ErrorInfo) else None

    @property
    def not_run(self) -> NotRun | None:
        """Why the operation was not run, or ``None`` where it was."""
        return self.outcome if isinstance(self.outcome, NotRun) else None

    def to_json(self) -> dict[str, Any]:
        """Return the row as JSON-ready data (see :meth:`Matrix.to_json`)."""
        return {
            "operation": self.operation,
            "scenario": self.scenario,
            "error": None if self.error is None else dataclasses.asdict(self.error),
            "not_run": None if self.not_run is None else dataclasses.asdict(self.not_run),
            "warnings": [dataclasses.asdict(w) for w in self.warnings],
            "properties": None if self.properties is None else self.properties.as_dict(),
        }

    @classmethod
    def from_json(cls, row: Mapping[str, Any], schema: int = SCHEMA) -> ProbeResult:
        """Rebuild a row written by :meth:`to_json` in ``schema``; ``ValueError`` if malformed."""
        try:
            properties, error, not_run = row["properties"], row["error"], row.get("not_run")
            given = [value for value in (properties, error, not_run) if value is not None]
            if len(given) != 1:
                raise TypeError("a row needs exactly one of 'properties', 'error' and 'not_run'")
            outcome: Comparison | ErrorInfo | NotRun
            if properties is not None:
                if schema < 3:
                    if set(SCHEMA_3_FIELDS) & set(properties):
                        raise TypeError(f"a schema-{schema} row has none of {', '.join(SCHEMA_3_FIELDS)}")
                    properties = {**properties, **dict.fromkeys(SCHEMA_3_FIELDS), "result_is_tensor": True}
                outcome = Comparison(**properties)
            elif error is not None:
                outcome = ErrorInfo(**error)
            else:
                outcome = NotRun(**given[0])
            return cls(
                operation=str(row["operation"]),
                scenario=str(row["scenario"]),
                outcome=outcome,
                warnings=tuple(WarningInfo(**w) for w in row["warnings"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed matrix row {row!r}: {exc}") from exc


def probe(operation: str | Operation, scenario: str | Scenario, device: str = "cpu") -> ProbeResult:
    """Build a fresh source tensor for ``scenario``, apply ``operation``, and report.

    The operation's own exceptions and warnings are results, not failures: they are
    recorded with their type and message. An operation whose optional package (its
    ``needs``) cannot be imported is not run, and the result says so.

    Parameters
    ----------
    operation
        An :class:`Operation` or its name, such as ``"detach_clone"``.
    scenario
        A :class:`Scenario` or its name, such as ``"non_leaf"``.
    device
        ``"cpu"`` or ``"cuda"``: where the source tensor is built.

    Raises
    ------
    TypeError, ValueError
        For an argument that is not an operation, scenario or device tcdoc knows.

    Examples
    --------
    >>> import tcdoc
    >>> tcdoc.probe("deepcopy", "non_leaf").error.type
    'RuntimeError'
    >>> tcdoc.probe("detach", "non_leaf").properties.shares_storage
    True

    """
    op = operation if isinstance(operation, Operation) else get_operation(operation)
    sc = scenario if isinstance(scenario, Scenario) else get_scenario(scenario)
    device = check_device(device)
    if (op.needs_cuda or sc.needs_cuda) and not cuda_available():
        raise ValueError(f"{op.name} on {sc.name} needs CUDA, and this torch has no CUDA device")
    missing = [name for name in op.needs if not _importable(name)]
    if missing:
        return ProbeResult(op.name, sc.name, NotRun(f"needs {', '.join(missing)}"))
    source = sc.build(torch.device(device))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = op.apply(source)
        except Exception as exc:  # noqa: BLE001 - the operation's errors are what we report
            return ProbeResult(op.name, sc.name, _error(exc), _warnings(caught))
    return ProbeResult(op.name, sc.name, compare(source, result), _warnings(caught))


@dataclasses.dataclass(frozen=True)
class ModuleResult:
    """What one module-level operation returned, on a fresh model and optimizer.

    ``outcome`` is the measured :class:`~tcdoc.ModuleComparison`, or the :class:`ErrorInfo` of
    what the call raised. ``scenario`` is always ``"trained_model"``: the one source there is.

    >>> import tcdoc
    >>> tcdoc.probe_module("module_to_float64").outcome.new_object
    False
    """

    operation: str
    outcome: ModuleComparison | ErrorInfo
    warnings: tuple[WarningInfo, ...] = ()

    @property
    def scenario(self) -> str:
        """Return the name of the one source of module-level operations, ``"trained_model"``."""
        return MODULE_SCENARIO

    @property
    def properties(self) -> ModuleComparison | None:
        """The measured properties, or ``None`` where the call raised."""
        return self.outcome if isinstance(self.outcome, ModuleComparison) else None

    @property
    def error(self) -> ErrorInfo | None:
        """The exception the call raised, or ``None``."""
        return self.outcome if isinstance(self.outcome, ErrorInfo) else None

    def to_json(self) -> dict[str, Any]:
        """Return the row as JSON-ready data (see :meth:`Matrix.to_json`)."""
        return {
            "operation": self.operation,
            "error": None if self.error is None else dataclasses.asdict(self.error),
            "warnings": [dataclasses.asdict(w) for w in self.warnings],
            "properties": None if self.properties is None else self.properties.as_dict(),
        }

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ModuleResult:
        """Rebuild a row written by :meth:`to_json`; ``ValueError`` if malformed."""
        try:
            properties, error = row["properties"], row["error"]
            if (properties is None) == (error is None):
                raise TypeError("a module row needs exactly one of 'properties' and 'error'")
            outcome = ModuleComparison(**properties) if properties is not None else ErrorInfo(**error)
            warned = tuple(WarningInfo(**w) for w in row["warnings"])
            return cls(operation=str(row["operation"]), outcome=outcome, warnings=warned)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed module row {row!r}: {exc}") from exc


def probe_module(operation: str | ModuleOperation, device: str = "cpu") -> ModuleResult:
    """Build a fresh trained model and its optimizer, apply a module-level ``operation``, and report.

    Parameters
    ----------
    operation
        A :class:`~tcdoc.ModuleOperation` or its name, such as ``"state_dict"``.
    device
        ``"cpu"`` or ``"cuda"``: where the model is built.

    Raises
    ------
    TypeError, ValueError
        For an operation or device tcdoc does not know, or a CUDA-only one without CUDA.

    Examples
    --------
    >>> import tcdoc
    >>> report = tcdoc.probe_module("state_dict").outcome
    >>> report.tensors, report.shares_storage, report.requires_grad
    (7, 7, 0)

    """
    op = operation if isinstance(operation, ModuleOperation) else get_module_operation(operation)
    device = check_device(device)
    if op.needs_cuda and not cuda_available():
        raise ValueError(f"{op.name} needs CUDA, and this torch has no CUDA device")
    model, optimizer = trained_model(device)
    source = model if op.source == "model" else optimizer
    before = snapshot(source)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = op.apply(model, optimizer)
        except Exception as exc:  # noqa: BLE001 - the operation's errors are what we report
            return ModuleResult(op.name, _error(exc), _warnings(caught))
    return ModuleResult(op.name, compare_modules(source, before, result), _warnings(caught))


@dataclasses.dataclass(frozen=True)
class Matrix:
    """Every operation probed on every scenario, stamped with its environment.

    ``schema`` is the JSON layout the matrix was read from (:data:`tcdoc.SCHEMA` for one
    measured here), so that :func:`diff` knows what its values can mean and :meth:`to_json`
    writes them back in the layout they came in. ``rows`` holds the tensor cells, ``modules``
    the module-level rows (see :func:`probe_module`).
    """

    environment: Environment
    rows: tuple[ProbeResult, ...]
    schema: int = SCHEMA
    modules: tuple[ModuleResult, ...] = ()

    def get(self, operation: str, scenario: str) -> ProbeResult:
        """Return the row for one operation and scenario; ``KeyError`` if it was not probed."""
        for row in self.rows:
            if row.operation == operation and row.scenario == scenario:
                return row
        raise KeyError(f"no row for operation {operation!r} on scenario {scenario!r}")

    def get_module(self, operation: str) -> ModuleResult:
        """Return the row of a module-level operation; ``KeyError`` if it was not probed."""
        for row in self.modules:
            if row.operation == operation:
                return row
        raise KeyError(f"no row for module operation {operation!r}")

    def to_json(self) -> dict[str, Any]:
        """Return JSON-ready data: ``{"schema": 3, "torch", "device", "rows": [...], "modules": [...]}``.

        A matrix read from an older schema goes back in its own layout.
        """
        rows = [row.to_json() for row in self.rows]
        for row in rows:
            if self.schema == 1:
                del row["not_run"]
            if self.schema < 3 and row["properties"] is not None:
                for field in SCHEMA_3_FIELDS:
                    del row["properties"][field]
        data = {
            "schema": self.schema,
            "torch": self.environment.torch,
            "device": self.environment.device,
            "device_name": self.environment.device_name,
            "python": self.environment.python,
            "rows": rows,
        }
        if self.schema >= 3:
            data["modules"] = [row.to_json() for row in self.modules]
        return data

    @classmethod
    def from_json(cls, data: object) -> Matrix:
        """Rebuild a matrix from :meth:`to_json`'s data, of schema 1 or 2.

        Raises
        ------
        ValueError
            If the data is not a matrix of schema 1 or 2.

        """
        if not isinstance(data, dict):
            raise ValueError(f"a matrix must be a JSON object, got {type(data).__name__}")
        schema = data.get("schema")
        if schema not in SCHEMAS:
            readable = f"{', '.join(map(str, SCHEMAS[:-1]))} or {SCHEMAS[-1]}"
            raise ValueError(f"unsupported matrix schema {schema!r}; this tcdoc reads schema {readable}")
        rows = data.get("rows")
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise ValueError("a matrix needs a list of row objects under 'rows'")
        if schema == 1 and any(row.get("not_run") is not None for row in rows):
            raise ValueError("a schema-1 matrix has no 'not_run' rows")
        modules = data.get("modules", [])
        if not isinstance(modules, list) or not all(isinstance(row, dict) for row in modules):
            raise ValueError("a matrix's 'modules' must be a list of row objects")
        if schema < 3 and modules:
            raise ValueError(f"a schema-{schema} matrix has no 'modules' rows")
        env = Environment(
            torch=str(data.get("torch", "?")),
            device=str(data.get("device", "?")),
            device_name=str(data.get("device_name", data.get("device", "?"))),
            python=str(data.get("python", "?")),
        )
        return cls(
            env,
            tuple(ProbeResult.from_json(row, int(schema)) for row in rows),
            schema=int(schema),
            modules=tuple(ModuleResult.from_json(row) for row in modules),
        )


def matrix(
    operations: Iterable[str] | None = None,
    scenarios: Iterable[str] | None = None,
    device: str = "cpu",
) -> Matrix:
    """Probe each operation on each scenario (all available ones by default).

    ``operations`` may also name module-level operations (``"state_dict"``); those are probed
    once each, on a trained model, into its ``modules``. By default all of them are.

    >>> import tcdoc
    >>> m = tcdoc.matrix(["clone", "detach"], ["no_grad"])
    >>> [(row.operation, row.properties.shares_storage) for row in m.rows]
    [('clone', False), ('detach', True)]
    >>> [row.operation for row in tcdoc.matrix(["state_dict"]).modules]
    ['state_dict']
    """
    device = check_device(device)
    if isinstance(operations, str):
        raise TypeError("pass a list of names, not a single string")
    if operations is None:
        tensor_names, module_ops = None, module_operations()
    else:
        names = list(operations)
        tensor_names = [name for name in names if name not in MODULE_OPERATION_NAMES]
        module_ops = tuple(get_module_operation(name) for name in names if name in MODULE_OPERATION_NAMES)
    ops = _select(tensor_names, all_operations(), get_operation)
    scs = _select(scenarios, all_scenarios(), get_scenario)
    rows = tuple(probe(op, sc, device) for op in ops for sc in scs)
    modules = tuple(probe_module(op, device) for op in module_ops)
    return Matrix(environment(device), rows, modules=modules)


@dataclasses.dataclass(frozen=True)
class CellChange:
    """One cell that differs between two matrices.

    ``field`` is a :class:`Comparison` field, ``"warnings"``, ``"error"`` (both raised, with
    different messages), ``"not_run"`` (both not run, for different reasons), ``"outcome"`` (the
    cell started or stopped raising, or being run: one change, with ``old`` and ``new`` in
    words) or ``"row"`` (the cell is in one matrix only).
    """

    operation: str
    scenario: str
    field: str
    old: object
    new: object


def diff(old: Matrix, new: Matrix) -> tuple[CellChange, ...]:
    """List the cells that differ between two matrices (say, from two torch versions).

    A cell that started or stopped raising, or being run, is one change with field
    ``"outcome"``, not one per property. A row present in only one matrix is one change with
    field ``"row"``. Module-level rows are compared the same way, under the scenario
    ``"trained_model"``. Against an older schema, what it did not measure is not a change: the
    fields of ``SCHEMA_3_FIELDS`` and the module rows (schemas 1 and 2), and a schema-1
    ``False`` where a field did not apply against a ``None`` (n/a).

    >>> import dataclasses, tcdoc
    >>> old = tcdoc.matrix(["deepcopy"], ["non_leaf"])
    >>> measured = tcdoc.probe("clone", "non_leaf").outcome
    >>> changed = dataclasses.replace(old.rows[0], outcome=measured)
    >>> [c.field for c in tcdoc.diff(old, dataclasses.replace(old, rows=(changed,)))]
    ['outcome']
    """
    old_rows = _rows_by_key(old)
    new_rows = _rows_by_key(new)
    oldest = min(old.schema, new.schema)
    if oldest < 3:  # the older layout has no module rows: their absence is not a change
        old_rows = {key: row for key, row in old_rows.items() if isinstance(row, ProbeResult)}
        new_rows = {key: row for key, row in new_rows.items() if isinstance(row, ProbeResult)}
    changes: list[CellChange] = []
    for key in [*old_rows, *(k for k in new_rows if k not in old_rows)]:
        before, after = old_rows.get(key), new_rows.get(key)
        if before is None or after is None:
            changes.append(
                CellChange(*key, "row", "present" if before else None, "present" if after else None)
            )
            continue
        operation, scenario = key
        changes.extend(
            CellChange(operation, scenario, field, was, now)
            for field, was, now in _cell_changes(before, after, oldest)
        )
    return tuple(changes)


# -- Helpers -----------------------------------------------------------------------------


def _warnings(caught: Sequence[warnings.WarningMessage]) -> tuple[WarningInfo, ...]:
    return tuple(WarningInfo(w.category.__name__, _plain(str(w.message))) for w in caught)


def _error(exc: Exception) -> ErrorInfo:
    return ErrorInfo(type(exc).__name__, _plain(str(exc)))


_TERMINAL_CODES = re.compile(r"\x1b\[[0-9;]*m")
_ADDRESSES = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")


def _plain(message: str) -> str:
    """Return a message as words that are the same on every run.

    The terminal colour codes some messages carry (torch.load's bold type) are dropped, and a
    memory address (``<function f at 0x7f…>``, different in every process) is written ``0x…``.

    >>> _plain("hook <function f at 0x7f3a2c1d9e40> will not be serialized")
    'hook <function f at 0x…> will not be serialized'
    """
    return _ADDRESSES.sub("0x…", _TERMINAL_CODES.sub("", message))


T = TypeVar("T", Operation, Scenario)


def _select(names: Iterable[str] | None, everything: tuple[T, ...], get: Callable[[str], T]) -> tuple[T, ...]:
    if names is None:
        return everything
    if isinstance(names, str):
        raise TypeError("pass a list of names, not a single string")
    return tuple(get(name) for name in names)


def _importable(name: str) -> bool:
    """Tell whether the optional package ``name`` can be imported here."""
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _rows_by_key(matrix: Matrix) -> dict[tuple[str, str], ProbeResult | ModuleResult]:
    rows: list[ProbeResult | ModuleResult] = [*matrix.rows, *matrix.modules]
    return {(row.operation, row.scenario): row for row in rows}


def _describe(outcome: Comparison | ModuleComparison | ErrorInfo | NotRun) -> str:
    """Say in words what kind of outcome a cell had: the value of an ``"outcome"`` change."""
    if isinstance(outcome, Comparison | ModuleComparison):
        return "measured"
    if isinstance(outcome, ErrorInfo):
        return f"raises {outcome}"
    return str(outcome)


def _cell_changes(
    before: ProbeResult | ModuleResult, after: ProbeResult | ModuleResult, oldest: int
) -> list[tuple[str, object, object]]:
    """List the (field, old, new) changes of one cell; ``oldest`` is the older schema (see :func:`diff`)."""
    changes: list[tuple[str, object, object]] = []
    old, new = before.outcome, after.outcome
    if type(old) is not type(new):
        changes.append(("outcome", _describe(old), _describe(new)))
    elif isinstance(old, ErrorInfo) and isinstance(new, ErrorInfo) and old != new:
        changes.append(("error", str(old), str(new)))
    elif isinstance(old, NotRun) and isinstance(new, NotRun) and old != new:
        changes.append(("not_run", old.reason, new.reason))
    elif isinstance(old, Comparison | ModuleComparison) and isinstance(new, Comparison | ModuleComparison):
        was, now = old.as_dict(), new.as_dict()
        for field, value in was.items():
            if value == now[field]:
                continue
            if oldest < 3 and field in SCHEMA_3_FIELDS:
                continue  # the older schema did not measure it
            if oldest == 1 and field in NOT_APPLICABLE and {value, now[field]} == {False, None}:
                continue  # schema 1 wrote False where the field did not apply
            changes.append((field, value, now[field]))
    old_warnings, new_warnings = [str(w) for w in before.warnings], [str(w) for w in after.warnings]
    if old_warnings != new_warnings:
        changes.append(("warnings", old_warnings, new_warnings))
    return changes
