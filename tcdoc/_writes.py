"""In-place writes into a result: refused, into ``y`` alone, or into ``x`` too, and whether torch raised.

:func:`tcdoc.compare` asks, for a fixed set of writes (:data:`tcdoc._names.WRITES`), what each
does when the reader writes into ``y`` in place: torch refuses it (raises, having changed
nothing), it changes ``y`` alone, or it also changes ``x``; and, where it changed something,
whether torch raised all the same, after writing (as it does for a write into an inference
tensor outside inference mode). Writing changes the tensors, and :func:`tcdoc.compare` must
never change the user's, so every write is tried on a fresh pair that ``remake`` builds, the
way the measured pair was built: :func:`tcdoc.probe` passes one that builds the scenario again
and applies the operation again.

Each write runs as ordinary code does, with gradients enabled and outside
:func:`torch.inference_mode`: a write that torch allows only under :func:`torch.no_grad` (into a
leaf that requires grad) reads "refused"; one into an inference tensor, which torch makes and
then reports, reads "y and x, raised" where ``y`` shares the memory of ``x``. Whether ``x`` and
``y`` changed is read from their values (every part's, for a sparse one), before and after; each
write is chosen to change every element it reaches, or all but a zero.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import torch

__all__ = ["WRITE_CODE", "Remake", "measure_writes", "try_write"]

Remake = Callable[[], tuple[torch.Tensor, object]]
"""A function of no arguments that returns a fresh ``(x, y)`` pair, built as the measured one was."""

REFUSED, Y_ONLY, Y_AND_X = "refused", "y only", "y and x"
# A write that changed y, or y and x, and then raised all the same.
Y_ONLY_RAISED, Y_AND_X_RAISED = "y only, raised", "y and x, raised"


def _add(y: torch.Tensor) -> None:
    y.add_(1)


def _mul(y: torch.Tensor) -> None:
    y.mul_(2)


def _copy(y: torch.Tensor) -> None:
    source = y.detach() * 2  # a new tensor, made before the write, so that only copy_ can fail
    y.copy_(source)


def _fill(y: torch.Tensor) -> None:
    y.fill_(7)


def _zero(y: torch.Tensor) -> None:
    y.zero_()


def _index(y: torch.Tensor) -> None:
    y[(0,) * y.dim()] = 100  # the first element: y[0, 0] of a 2-D y, y[()] of a 0-D one


_WRITES: dict[str, Callable[[torch.Tensor], None]] = {
    "writes_add": _add,
    "writes_mul": _mul,
    "writes_copy": _copy,
    "writes_fill": _fill,
    "writes_zero": _zero,
    "writes_index": _index,
}

WRITE_CODE = {
    "writes_add": "y.add_(1)",
    "writes_mul": "y.mul_(2)",
    "writes_copy": "y.copy_(y.detach() * 2)",
    "writes_fill": "y.fill_(7)",
    "writes_zero": "y.zero_()",
    "writes_index": "y[(0,) * y.dim()] = 100",
}
"""The code of each write, exactly as it runs (the headings, ``tcdoc._names.LABELS``, are shorter)."""


def _values(tensor: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Return copies of what ``tensor`` holds: its values, or a sparse tensor's parts."""
    with torch.inference_mode(False), torch.no_grad():
        if tensor.layout == torch.sparse_coo:
            return tensor._indices().clone(), tensor._values().clone()
        if tensor.layout != torch.strided:
            return (tensor.detach().to_dense().clone(),)
        return (tensor.detach().clone(),)


def try_write(field: str, x: torch.Tensor, y: torch.Tensor) -> str:
    """Write into ``y`` with the write of ``field``; say whether it was refused, or what it changed.

    ``x`` and ``y`` are changed: pass a fresh pair. A write that raised after it had changed
    ``y`` reads ``"y only, raised"`` or ``"y and x, raised"``.

    >>> import torch
    >>> row = torch.arange(3.0)
    >>> try_write("writes_add", row, row.expand(2, 3))
    'refused'
    >>> row = torch.arange(3.0)
    >>> try_write("writes_fill", row, row.expand(2, 3))
    'y and x'
    >>> row = torch.arange(3.0)
    >>> try_write("writes_fill", row, row.clone())
    'y only'
    >>> with torch.inference_mode():
    ...     x = torch.ones(3)
    >>> try_write("writes_add", x, x[0:2]), x
    ('y and x, raised', tensor([2., 2., 1.]))
    >>> with torch.inference_mode():
    ...     y = torch.ones(3)
    >>> try_write("writes_add", torch.zeros(3), y), y
    ('y only, raised', tensor([2., 2., 2.]))
    """
    before_x, before_y = _values(x), _values(y)
    raised = False
    try:
        with torch.inference_mode(False), torch.enable_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a write's warnings are no result of the operation
            _WRITES[field](y)
    except Exception:  # noqa: BLE001 - torch refusing the write is the answer
        raised = True
    x_changed = _changed(before_x, x)
    if raised:
        if x_changed:
            return Y_AND_X_RAISED
        return Y_ONLY_RAISED if _changed(before_y, y) else REFUSED
    return Y_AND_X if x_changed else Y_ONLY


def _changed(before: tuple[torch.Tensor, ...], tensor: torch.Tensor) -> bool:
    after = _values(tensor)
    return len(before) != len(after) or any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))


def measure_writes(remake: Remake | None) -> dict[str, str | None]:
    """Try every write on a fresh pair from ``remake``; ``None`` for each where there is no remake.

    A pair whose ``y`` is not a tensor has nothing to write into: ``None`` there too.
    """
    found: dict[str, str | None] = dict.fromkeys(_WRITES)
    if remake is None:
        return found
    with warnings.catch_warnings():
        # What remaking the pair warns was the operation's warning, reported once already.
        warnings.simplefilter("ignore")
        for field in _WRITES:
            x, y = remake()
            if not isinstance(y, torch.Tensor):
                return dict.fromkeys(_WRITES)
            found[field] = try_write(field, x, y)
    return found
