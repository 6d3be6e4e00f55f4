"""The results of probing, and their JSON: what one cell, one module row and one matrix hold.

Each cell of a matrix has one outcome, and its type says which of three things happened: a
:class:`Comparison` (the operation returned, and this is what was measured), an
:class:`ErrorInfo` (torch raised, and this is what it said) or a :class:`NotRun` (the
environment lacked something the operation needs, such as NumPy, so torch was never asked).
The environment is not torch: a missing package is never recorded as torch raising.

:meth:`Matrix.to_json` writes the layout numbered :data:`SCHEMA`, and :meth:`Matrix.from_json`
reads that layout only. ``tcdoc._probe`` measures these results; ``tcdoc._diff`` compares two
matrices.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from tcdoc._compare import Comparison
from tcdoc._modules import ModuleComparison
from tcdoc._names import GRAD_MODES, MODULE_SCENARIO, check_grad_mode

__all__ = [
    "GRAD_MODES",
    "SCHEMA",
    "Environment",
    "ErrorInfo",
    "Matrix",
    "ModuleResult",
    "NotRun",
    "ProbeResult",
    "WarningInfo",
]

SCHEMA = 4
"""Version of the JSON layout written by :meth:`Matrix.to_json`, and the only one it reads.

Each row holds the operation, the scenario, the grad mode it was run under (one of
:data:`tcdoc.GRAD_MODES`), and exactly one of its ``properties`` (every :class:`Comparison` field,
``null`` where it does not apply), ``error`` and ``not_run``, with its ``warnings``; the
module-level rows are under ``"modules"``.
"""


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
    """What one operation did to one scenario's fresh tensor, run under one grad mode.

    ``grad_mode`` is one of :data:`tcdoc.GRAD_MODES`: ``"enabled"`` (as code runs by default),
    ``"no_grad"`` (inside ``torch.no_grad()``) or ``"inference_mode"`` (inside
    ``torch.inference_mode()``); the source is built outside any of them. ``outcome`` is the
    measured :class:`Comparison`, or the :class:`ErrorInfo` of the exception the operation
    raised. It is :class:`NotRun` where the environment lacked what the operation needs (a
    package, a CUDA device). It is one field, so a result is always exactly one of them.
    ``properties``, ``error`` and ``not_run`` read it as one or the other.

    >>> import tcdoc
    >>> result = tcdoc.probe("deepcopy", "non_leaf")
    >>> isinstance(result.outcome, tcdoc.ErrorInfo), result.properties is None
    (True, True)
    """

    operation: str
    scenario: str
    outcome: Comparison | ErrorInfo | NotRun
    warnings: tuple[WarningInfo, ...] = ()
    grad_mode: str = "enabled"

    def __post_init__(self) -> None:
        check_grad_mode(self.grad_mode)

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
            "grad_mode": self.grad_mode,
            "error": None if self.error is None else dataclasses.asdict(self.error),
            "not_run": None if self.not_run is None else dataclasses.asdict(self.not_run),
            "warnings": [dataclasses.asdict(w) for w in self.warnings],
            "properties": None if self.properties is None else self.properties.as_dict(),
        }

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ProbeResult:
        """Rebuild a row written by :meth:`to_json`; ``ValueError`` if malformed."""
        try:
            properties, error, not_run = row["properties"], row["error"], row["not_run"]
            given = [value for value in (properties, error, not_run) if value is not None]
            if len(given) != 1:
                raise TypeError("a row needs exactly one of 'properties', 'error' and 'not_run'")
            outcome: Comparison | ErrorInfo | NotRun
            if properties is not None:
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
                grad_mode=row["grad_mode"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed matrix row {row!r}: {exc}") from exc


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


@dataclasses.dataclass(frozen=True)
class Matrix:
    """Every operation probed on every scenario in each grad mode, stamped with its environment.

    ``rows`` holds the tensor cells (one per operation, scenario and grad mode), ``modules``
    the module-level rows (see :func:`tcdoc.probe_module`). :meth:`to_json` writes it in the
    layout :data:`SCHEMA`.
    """

    environment: Environment
    rows: tuple[ProbeResult, ...]
    modules: tuple[ModuleResult, ...] = ()

    def get(self, operation: str, scenario: str, grad_mode: str = "enabled") -> ProbeResult:
        """Return the row for one operation, scenario and grad mode; ``KeyError`` if it was not probed.

        >>> import tcdoc
        >>> m = tcdoc.matrix(["clone"], ["leaf_requires_grad"])
        >>> m.get("clone", "leaf_requires_grad", "no_grad").properties.requires_grad
        False

        Raises
        ------
        KeyError
            If the matrix has no such row.
        ValueError
            If ``grad_mode`` is not one of :data:`tcdoc.GRAD_MODES`.

        """
        check_grad_mode(grad_mode)
        try:
            return self._index[(operation, scenario, grad_mode)]
        except KeyError:
            where = f"operation {operation!r} on scenario {scenario!r} under grad mode {grad_mode!r}"
            raise KeyError(f"no row for {where}") from None

    @functools.cached_property
    def _index(self) -> dict[tuple[str, str, str], ProbeResult]:
        """The rows by (operation, scenario, grad mode), made on first look-up (the first row wins)."""
        index: dict[tuple[str, str, str], ProbeResult] = {}
        for row in self.rows:
            index.setdefault((row.operation, row.scenario, row.grad_mode), row)
        return index

    def get_module(self, operation: str) -> ModuleResult:
        """Return the row of a module-level operation; ``KeyError`` if it was not probed."""
        for row in self.modules:
            if row.operation == operation:
                return row
        raise KeyError(f"no row for module operation {operation!r}")

    def to_json(self) -> dict[str, Any]:
        """Return JSON-ready data: ``{"schema": 4, "torch", "device", "rows": [...], "modules": [...]}``."""
        return {
            "schema": SCHEMA,
            "torch": self.environment.torch,
            "device": self.environment.device,
            "device_name": self.environment.device_name,
            "python": self.environment.python,
            "rows": [row.to_json() for row in self.rows],
            "modules": [row.to_json() for row in self.modules],
        }

    @classmethod
    def from_json(cls, data: object) -> Matrix:
        """Rebuild a matrix from :meth:`to_json`'s data.

        Raises
        ------
        ValueError
            If the data is not a matrix of :data:`SCHEMA` (the layouts before it were never
            released, and are not read).

        """
        if not isinstance(data, dict):
            raise ValueError(f"a matrix must be a JSON object, got {type(data).__name__}")
        schema = data.get("schema")
        if schema != SCHEMA:
            raise ValueError(
                f"a matrix of schema {schema!r} is not supported: this tcdoc reads schema {SCHEMA} only "
                "(write it again with 'tcdoc matrix --json')"
            )
        rows = _read_rows(data, "rows", Comparison, ProbeResult.from_json)
        modules = _read_rows(data, "modules", ModuleComparison, ModuleResult.from_json)
        _refuse_conflicts(rows)
        env = Environment(
            torch=str(data.get("torch", "?")),
            device=str(data.get("device", "?")),
            device_name=str(data.get("device_name", data.get("device", "?"))),
            python=str(data.get("python", "?")),
        )
        return cls(env, tuple(rows), modules=tuple(modules))


# -- Reading a matrix's JSON, row by row --------------------------------------------------------

Row = TypeVar("Row", ProbeResult, ModuleResult)


def _read_rows(
    data: Mapping[str, Any], key: str, comparison: type[Any], read: Callable[[Mapping[str, Any]], Row]
) -> list[Row]:
    """Read the rows under ``key``; a malformed one is a ``ValueError`` that names its place and field."""
    rows = data.get(key)
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ValueError(f"a matrix needs a list of row objects under {key!r}")
    found = []
    for index, row in enumerate(rows):
        problem = _row_problem(row, comparison)
        if problem is None:
            try:
                found.append(read(row))
                continue
            except ValueError as exc:
                cause = exc.__cause__
                problem = _one_line(str(cause if cause is not None else exc))
                if isinstance(cause, KeyError):
                    problem = f"the field {cause.args[0]!r} is missing"
        raise ValueError(f"malformed {key}[{index}]{_cell_of(row)}: {problem}")
    return found


def _cell_of(row: Mapping[str, Any]) -> str:
    named = (row.get(part) for part in ("operation", "scenario", "grad_mode"))
    cell = " / ".join(name for name in named if isinstance(name, str))
    return f" ({cell})" if cell else ""


def _refuse_conflicts(rows: list[ProbeResult]) -> None:
    """Refuse two rows for one cell (operation, scenario, grad mode): either could be the answer."""
    first: dict[tuple[str, str, str], int] = {}
    for index, row in enumerate(rows):
        cell = (row.operation, row.scenario, row.grad_mode)
        if cell in first:
            raise ValueError(
                f"rows[{first[cell]}] and rows[{index}] are both {' / '.join(cell)}: "
                "a matrix has one row a cell"
            )
        first[cell] = index


def _row_problem(row: Mapping[str, Any], comparison: type[Any]) -> str | None:
    """Find a field of one row whose value is of the wrong shape; ``None`` where none is."""
    parts: list[tuple[str, object, type[Any]]] = [
        ("properties", row.get("properties"), comparison),
        ("error", row.get("error"), ErrorInfo),
        ("not_run", row.get("not_run"), NotRun),
    ]
    warned = row.get("warnings")
    if isinstance(warned, list):
        parts.extend((f"warnings[{i}]", w, WarningInfo) for i, w in enumerate(warned))
    elif "warnings" in row:
        return f"the field 'warnings' must be a list, not {_json_type(warned)}"
    for where, value, kind in parts:
        if value is None:
            continue
        if not isinstance(value, dict):
            return f"the field {where!r} must be an object or null, not {_json_type(value)}"
        problem = _fields_problem(value, kind)
        if problem is not None:
            return f"in {where!r}, {problem}"
    return None


_FieldTypes = tuple[tuple[str, bool, tuple[type[Any], ...] | None], ...]
_FIELD_TYPES: dict[type[Any], _FieldTypes] = {}


def _field_types(kind: type[Any]) -> _FieldTypes:
    """Each field of the dataclass ``kind``: its name, whether it is required, its plain JSON types.

    Read once per kind: a snapshot's thousands of rows ask the same question.
    """
    if kind not in _FIELD_TYPES:
        _FIELD_TYPES[kind] = _read_field_types(kind)
    return _FIELD_TYPES[kind]


def _read_field_types(kind: type[Any]) -> _FieldTypes:
    hints = typing.get_type_hints(kind)
    return tuple(
        (
            field.name,
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING,
            _json_types(hints[field.name]),
        )
        for field in dataclasses.fields(kind)
    )


def _fields_problem(value: Mapping[str, Any], kind: type[Any]) -> str | None:
    """Check an object's keys and values against the dataclass ``kind`` that it is read into."""
    fields = _field_types(kind)
    for name, required, expected in fields:
        if name not in value:
            if required:
                return f"the field {name!r} is missing"
            continue
        if expected is not None and not _is_of(value[name], expected):
            wanted = " or ".join(_JSON_NAMES[t] for t in expected)
            return f"the field {name!r} must be {wanted}, not {_json_type(value[name])}"
    names = {name for name, _, _ in fields}
    for name in value:
        if name not in names:
            return f"the field {name!r} is not one of {kind.__name__}'s"
    return None


_JSON_NAMES: dict[type[Any], str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "a string",
    type(None): "null",
}


def _json_types(hint: object) -> tuple[type[Any], ...] | None:
    """Return the plain types that a field typed ``hint`` holds (``bool | None``); ``None`` if not plain."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if all(option in _JSON_NAMES for option in options):
        return tuple(typing.cast("type[Any]", option) for option in options)
    return None


def _is_of(value: object, expected: tuple[type[Any], ...]) -> bool:
    # JSON's true is not a number here, nor 1 a boolean: bool is a subclass of int in Python.
    if isinstance(value, bool):
        return bool in expected
    if isinstance(value, int) and float in expected:
        return True
    return any(isinstance(value, t) and t is not bool for t in expected)


def _json_type(value: object) -> str:
    """Name the JSON type of a value read by ``json.loads``, as a message to a reader says it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    names = {int: "a number", float: "a number", str: "a string", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _one_line(text: str) -> str:
    return " ".join(text.split())
