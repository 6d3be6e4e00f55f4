"""Run operations on scenarios and record what happened: reports, errors and warnings."""

from __future__ import annotations

import dataclasses
import html
import platform
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import torch

from tcdoc._compare import Comparison, compare
from tcdoc._registry import Operation, Scenario, check_device, cuda_available, get_operation, get_scenario
from tcdoc._registry import operations as all_operations
from tcdoc._registry import scenarios as all_scenarios

__all__ = [
    "SCHEMA",
    "CellChange",
    "Environment",
    "ErrorInfo",
    "Matrix",
    "ProbeResult",
    "WarningInfo",
    "diff",
    "environment",
    "matrix",
    "probe",
]

SCHEMA = 1
"""Version of the JSON layout written by :meth:`Matrix.to_json`."""


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
class WarningInfo:
    """A warning an operation emitted."""

    category: str
    message: str

    def __str__(self) -> str:
        return f"{self.category}: {self.message}"


@dataclasses.dataclass(frozen=True)
class ProbeResult:
    """What one operation did to one scenario's fresh tensor.

    ``outcome`` is either the measured :class:`Comparison` or the :class:`ErrorInfo` of the
    exception the operation raised: one field, so a result can never hold both or neither.
    ``properties`` and ``error`` read it as one or the other.

    >>> import tcdoc
    >>> result = tcdoc.probe("deepcopy", "non_leaf")
    >>> isinstance(result.outcome, tcdoc.ErrorInfo), result.properties is None
    (True, True)
    """

    operation: str
    scenario: str
    outcome: Comparison | ErrorInfo
    warnings: tuple[WarningInfo, ...] = ()

    @property
    def properties(self) -> Comparison | None:
        """The measured properties, or ``None`` where the operation raised."""
        return self.outcome if isinstance(self.outcome, Comparison) else None

    @property
    def error(self) -> ErrorInfo | None:
        """The exception the operation raised, or ``None`` where it returned a tensor."""
        return self.outcome if isinstance(self.outcome, ErrorInfo) else None

    def to_json(self) -> dict[str, Any]:
        """Return the row as JSON-ready data (see :meth:`Matrix.to_json`)."""
        return {
            "operation": self.operation,
            "scenario": self.scenario,
            "error": None if self.error is None else dataclasses.asdict(self.error),
            "warnings": [dataclasses.asdict(w) for w in self.warnings],
            "properties": None if self.properties is None else self.properties.as_dict(),
        }

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ProbeResult:
        """Rebuild a row written by :meth:`to_json`; raises ``ValueError`` if it is malformed."""
        try:
            properties = row["properties"]
            error = row["error"]
            if (properties is None) == (error is None):
                raise TypeError("a row needs exactly one of 'properties' and 'error'")
            outcome = ErrorInfo(**error) if properties is None else Comparison(**properties)
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
    recorded with their type and message.

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
    source = sc.build(torch.device(device))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = op.apply(source)
        except Exception as exc:  # noqa: BLE001 - the operation's errors are what we report
            return ProbeResult(op.name, sc.name, ErrorInfo(type(exc).__name__, str(exc)), _warnings(caught))
    return ProbeResult(op.name, sc.name, compare(source, result), _warnings(caught))


@dataclasses.dataclass(frozen=True)
class Matrix:
    """Every operation probed on every scenario, stamped with its environment."""

    environment: Environment
    rows: tuple[ProbeResult, ...]

    def get(self, operation: str, scenario: str) -> ProbeResult:
        """Return the row for one operation and scenario; ``KeyError`` if it was not probed."""
        for row in self.rows:
            if row.operation == operation and row.scenario == scenario:
                return row
        raise KeyError(f"no row for operation {operation!r} on scenario {scenario!r}")

    def to_json(self) -> dict[str, Any]:
        """Return JSON-ready data: ``{"schema": 1, "torch", "device", "rows": [...]}``."""
        return {
            "schema": SCHEMA,
            "torch": self.environment.torch,
            "device": self.environment.device,
            "device_name": self.environment.device_name,
            "python": self.environment.python,
            "rows": [row.to_json() for row in self.rows],
        }

    @classmethod
    def from_json(cls, data: object) -> Matrix:
        """Rebuild a matrix from :meth:`to_json`'s data.

        Raises
        ------
        ValueError
            If the data is not a matrix of schema 1.

        """
        if not isinstance(data, dict):
            raise ValueError(f"a matrix must be a JSON object, got {type(data).__name__}")
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unsupported matrix schema {data.get('schema')!r}; expected {SCHEMA}")
        rows = data.get("rows")
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise ValueError("a matrix needs a list of row objects under 'rows'")
        env = Environment(
            torch=str(data.get("torch", "?")),
            device=str(data.get("device", "?")),
            device_name=str(data.get("device_name", data.get("device", "?"))),
            python=str(data.get("python", "?")),
        )
        return cls(env, tuple(ProbeResult.from_json(row) for row in rows))


def matrix(
    operations: Iterable[str] | None = None,
    scenarios: Iterable[str] | None = None,
    device: str = "cpu",
) -> Matrix:
    """Probe each operation on each scenario (all available ones by default).

    >>> import tcdoc
    >>> m = tcdoc.matrix(["clone", "detach"], ["no_grad"])
    >>> [(row.operation, row.properties.shares_storage) for row in m.rows]
    [('clone', False), ('detach', True)]
    """
    device = check_device(device)
    ops = _select(operations, all_operations(), get_operation)
    scs = _select(scenarios, all_scenarios(), get_scenario)
    rows = tuple(probe(op, sc, device) for op in ops for sc in scs)
    return Matrix(environment(device), rows)


@dataclasses.dataclass(frozen=True)
class CellChange:
    """One cell that differs between two matrices."""

    operation: str
    scenario: str
    field: str
    old: object
    new: object


def diff(old: Matrix, new: Matrix) -> tuple[CellChange, ...]:
    """List the cells that differ between two matrices (say, from two torch versions).

    A row present in only one matrix is one change with field ``"row"``.
    """
    old_rows = {(r.operation, r.scenario): _flatten(r) for r in old.rows}
    new_rows = {(r.operation, r.scenario): _flatten(r) for r in new.rows}
    changes: list[CellChange] = []
    for key in [*old_rows, *(k for k in new_rows if k not in old_rows)]:
        before, after = old_rows.get(key), new_rows.get(key)
        if before is None or after is None:
            changes.append(
                CellChange(*key, "row", "present" if before else None, "present" if after else None)
            )
            continue
        for field in [*before, *(f for f in after if f not in before)]:
            if before.get(field) != after.get(field):
                changes.append(CellChange(*key, field, before.get(field), after.get(field)))
    return tuple(changes)


# -- Helpers -----------------------------------------------------------------------------


def _warnings(caught: Sequence[warnings.WarningMessage]) -> tuple[WarningInfo, ...]:
    return tuple(WarningInfo(w.category.__name__, str(w.message)) for w in caught)


T = TypeVar("T", Operation, Scenario)


def _select(names: Iterable[str] | None, everything: tuple[T, ...], get: Callable[[str], T]) -> tuple[T, ...]:
    if names is None:
        return everything
    if isinstance(names, str):
        raise TypeError("pass a list of names, not a single string")
    return tuple(get(name) for name in names)


def _flatten(row: ProbeResult) -> dict[str, object]:
    cells: dict[str, object] = {
        "error": None if row.error is None else str(row.error),
        "warnings": [str(w) for w in row.warnings],
    }
    if row.properties is not None:
        cells.update(row.properties.as_dict())
    return cells
