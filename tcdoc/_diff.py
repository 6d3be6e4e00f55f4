"""Compare two matrices, say from two versions of torch: the cells that changed, and how.

Read by ``tcdoc diff``, on two files of ``tcdoc matrix --json``.
"""

from __future__ import annotations

import dataclasses

from tcdoc._compare import Comparison
from tcdoc._modules import ModuleComparison
from tcdoc._results import ErrorInfo, Matrix, ModuleResult, NotRun, ProbeResult

__all__ = ["CellChange", "diff"]


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
    ``"trained_model"``.

    >>> import dataclasses, tcdoc
    >>> old = tcdoc.matrix(["deepcopy"], ["non_leaf"])
    >>> measured = tcdoc.probe("clone", "non_leaf").outcome
    >>> changed = dataclasses.replace(old.rows[0], outcome=measured)
    >>> [c.field for c in tcdoc.diff(old, dataclasses.replace(old, rows=(changed,)))]
    ['outcome']
    """
    old_rows = _rows_by_key(old)
    new_rows = _rows_by_key(new)
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
            for field, was, now in _cell_changes(before, after)
        )
    return tuple(changes)


# -- Helpers -----------------------------------------------------------------------------


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
    before: ProbeResult | ModuleResult, after: ProbeResult | ModuleResult
) -> list[tuple[str, object, object]]:
    """List the (field, old, new) changes of one cell."""
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
            if value != now[field]:
                changes.append((field, value, now[field]))
    old_warnings, new_warnings = [str(w) for w in before.warnings], [str(w) for w in after.warnings]
    if old_warnings != new_warnings:
        changes.append(("warnings", old_warnings, new_warnings))
    return changes
