"""Compare two matrices, say from two versions of torch: the cells that changed, and how.

Read by ``tcdoc diff``, on two files of ``tcdoc matrix --json``, and by the history of releases
(:func:`history`, :func:`change_group`) that the site's page of what changed between releases
shows, from the snapshots of ``docs/_snapshots``.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence

from tcdoc._compare import Comparison
from tcdoc._modules import ModuleComparison
from tcdoc._results import ErrorInfo, Matrix, ModuleResult, NotRun, ProbeResult

__all__ = [
    "CHANGE_GROUPS",
    "CellChange",
    "Step",
    "change_group",
    "diff",
    "grad_mode_changes",
    "history",
    "words",
]

CHANGE_GROUPS = ("warnings", "load", "errors", "copies", "locations", "other")
"""The kinds of change between releases, in the order a reader meets them (:func:`change_group`).

``"warnings"``: what torch's warnings say; ``"load"``: what ``torch.load`` does; ``"errors"``: what
raises, and what its error says; ``"copies"``: what a copy shares or keeps (every measured
property); ``"locations"``: a message whose words are the same, and only the place in torch's C++
source it names, or the list of backends of the build that printed it, differ (:func:`words`);
``"other"``: a cell run in one matrix and not in the other.
"""

# What a message of torch's names that is not its words: the C++ file and line that raised it, the
# backends the build has (a build with CUDA lists more) and, after a blank line, where each
# backend's kernel was registered.
_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)")
_BACKENDS = re.compile(r"(is only available for these backends: )\[[^\]]*\]")


@dataclasses.dataclass(frozen=True)
class CellChange:
    """One cell that differs between two matrices.

    ``field`` is one of these:

    - a :class:`Comparison` field, or ``"warnings"``;
    - ``"error"``: both raised, with different messages;
    - ``"not_run"``: both not run, for different reasons;
    - ``"outcome"``: the cell started or stopped raising, or being run. This is one change, with
      ``old`` and ``new`` in words;
    - ``"row"``: the cell is in one matrix only.

    ``grad_mode`` is the grad mode both cells were run under (one of :data:`tcdoc.GRAD_MODES`);
    a module-level row has ``None``.
    """

    operation: str
    scenario: str
    field: str
    old: object
    new: object
    grad_mode: str | None = None

    @property
    def where(self) -> str:
        """The cell's name, ``operation / scenario / grad mode / field`` (a module row has no grad mode).

        >>> CellChange("clone", "non_leaf", "is_leaf", False, True, "no_grad").where
        'clone / non_leaf / no_grad / is_leaf'
        """
        parts = [self.operation, self.scenario, self.grad_mode, self.field]
        return " / ".join(part for part in parts if part is not None)


def diff(old: Matrix, new: Matrix) -> tuple[CellChange, ...]:
    """List the cells that differ between two matrices (say, from two torch versions).

    Like is compared with like: the same operation, scenario and grad mode. A cell that
    started or stopped raising, or being run, is one change with field ``"outcome"``, not one
    per property. A row present in only one matrix is one change with field ``"row"``.
    Module-level rows are compared the same way, under the scenario ``"trained_model"``.

    >>> import dataclasses, tcdoc
    >>> old = tcdoc.matrix(["deepcopy"], ["non_leaf"], grad_modes=["no_grad"])
    >>> measured = tcdoc.probe("clone", "non_leaf").outcome
    >>> changed = dataclasses.replace(old.rows[0], outcome=measured)
    >>> [c.where for c in tcdoc.diff(old, dataclasses.replace(old, rows=(changed,)))]
    ['deepcopy / non_leaf / no_grad / outcome']
    """
    old_rows = _rows_by_key(old)
    new_rows = _rows_by_key(new)
    changes: list[CellChange] = []
    for key in [*old_rows, *(k for k in new_rows if k not in old_rows)]:
        before, after = old_rows.get(key), new_rows.get(key)
        operation, scenario, grad_mode = key
        if before is None or after is None:
            old_row, new_row = "present" if before else None, "present" if after else None
            changes.append(CellChange(operation, scenario, "row", old_row, new_row, grad_mode))
            continue
        changes.extend(
            CellChange(operation, scenario, field, was, now, grad_mode)
            for field, was, now in _cell_changes(before, after)
        )
    return tuple(changes)


def grad_mode_changes(matrix: Matrix, family: str | None = None) -> tuple[tuple[str, str, str], ...]:
    """List the (operation, scenario, field) whose answer differs between grad modes.

    Each cell of ``matrix`` measured under ``"enabled"`` is compared with the same cell under
    each other grad mode the matrix has; ``field`` is named as :func:`diff` names it (a
    :class:`Comparison` field, ``"outcome"``, ``"error"``, ``"not_run"`` or ``"warnings"``).
    ``family`` (a key of ``tcdoc._names.FAMILIES``) keeps the operations of one family. In
    matrix order, each triple once: what a page's table of "what changes under ``no_grad``
    and ``inference_mode``" lists; read the values with ``matrix.get(op, scenario, mode)``.

    >>> import tcdoc
    >>> from tcdoc._diff import grad_mode_changes
    >>> m = tcdoc.matrix(["clone", "detach"], ["leaf_requires_grad"])
    >>> [c for c in grad_mode_changes(m) if c[2] == "is_leaf"]
    [('clone', 'leaf_requires_grad', 'is_leaf')]
    """
    from tcdoc._names import FAMILIES, GRAD_MODES
    from tcdoc._registry import operations

    if family is not None and family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; choose from: {', '.join(FAMILIES)}")
    kept = (
        None
        if family is None
        else {op.name for op in operations(include_unavailable=True) if op.family == family}
    )
    found: dict[tuple[str, str, str], None] = {}
    for row in matrix.rows:
        if row.grad_mode != GRAD_MODES[0] or (kept is not None and row.operation not in kept):
            continue
        for mode in GRAD_MODES[1:]:
            try:
                other = matrix.get(row.operation, row.scenario, mode)
            except KeyError:
                continue  # the matrix was not measured in this mode
            for field, _was, _now in _cell_changes(row, other):
                found[(row.operation, row.scenario, field)] = None
    return tuple(found)


@dataclasses.dataclass(frozen=True)
class Step:
    """The cells that differ between two matrices of consecutive releases, ``old`` before ``new``."""

    old: Matrix
    new: Matrix
    changes: tuple[CellChange, ...]


def history(matrices: Sequence[Matrix]) -> tuple[Step, ...]:
    """Compare each matrix with the one before it: what changed from one release to the next.

    ``matrices`` are in release order, oldest first. A cell measured in only one of two matrices
    (an operation that the older tcdoc had not yet) is not a change of torch's and is left out;
    everything else is :func:`diff`'s.

    >>> import tcdoc
    >>> from tcdoc._diff import history
    >>> m = tcdoc.matrix(["clone"], ["non_leaf"], grad_modes=["enabled"])
    >>> [len(step.changes) for step in history([m, m, m])]
    [0, 0]
    """
    return tuple(
        Step(old, new, tuple(change for change in diff(old, new) if change.field != "row"))
        for old, new in itertools.pairwise(matrices)
    )


def change_group(change: CellChange) -> str:
    """Return the kind of a change (one of :data:`CHANGE_GROUPS`), as a reader looks for it.

    Any change of an operation that runs ``torch.load`` is ``"load"``; otherwise a change of
    warnings is ``"warnings"``, a change of what raises or of its message ``"errors"``, a change
    of a measured property ``"copies"``, and a cell that was run in one matrix and not in the
    other ``"other"``; a change of warnings or of an error message whose :func:`words` are the
    same is ``"locations"``.

    >>> change_group(CellChange("clone", "non_leaf", "shares_storage", False, True, "enabled"))
    'copies'
    >>> change_group(CellChange("save_load", "subclass", "outcome", "measured", "raises E: e"))
    'load'
    """
    if change.operation in _load_operations():
        return "load"
    if change.field in ("warnings", "error") and words(change.old) == words(change.new):
        return "locations"
    if change.field == "warnings":
        return "warnings"
    if change.field in ("outcome", "error"):
        return "errors"
    if change.field in ("not_run", "row"):
        return "other"
    return "copies"


def words(message: object) -> object:
    r"""Return a message (or a list of them) without what names the build rather than the words.

    Dropped: the C++ place torch quotes ("(Triggered internally at ../aten/src/...cpp:305.)"), the
    list of backends a dispatcher error names, and everything after the first blank line (where
    each backend's kernel was registered). Anything other than text is returned as it is.

    >>> words("UserWarning: Casting (Triggered internally at ../aten/src/Copy.cpp:305.)")
    'UserWarning: Casting'
    >>> words(["E: only available for these backends: [CPU, CUDA].\n\nCPU: registered at a.cpp:1"])
    ['E: only available for these backends: [...].']
    """
    if isinstance(message, list | tuple):
        return [words(item) for item in message]
    if not isinstance(message, str):
        return message
    kept = message.split("\n\n", 1)[0]
    kept = _TRIGGERED.sub("", kept)
    return _BACKENDS.sub(r"\1[...]", kept).rstrip()


# -- Helpers -----------------------------------------------------------------------------


def _load_operations() -> frozenset[str]:
    """Return the operations whose code runs ``torch.load``."""
    from tcdoc._modules import module_operations
    from tcdoc._registry import operations

    tensor_ops = {op.name for op in operations(include_unavailable=True) if "torch.load" in op.code}
    module_ops = {op.name for op in module_operations(include_unavailable=True) if "torch.load" in op.code}
    return frozenset(tensor_ops | module_ops)


def _rows_by_key(matrix: Matrix) -> dict[tuple[str, str, str | None], ProbeResult | ModuleResult]:
    rows: dict[tuple[str, str, str | None], ProbeResult | ModuleResult] = {
        (row.operation, row.scenario, row.grad_mode): row for row in matrix.rows
    }
    rows.update({(row.operation, row.scenario, None): row for row in matrix.modules})
    return rows


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
