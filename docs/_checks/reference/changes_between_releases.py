"""The checks of the claims on ``docs/reference/changes-between-releases.md``.

Both sentences are about history: their checks read the snapshots of earlier releases (``docs/_snapshots``)
beside the build's own matrix, and fail where a release the sentence names was not measured.
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import torch

from _checks._helpers import ADVICE, built_source, raises
from tcdoc import Matrix
from tcdoc._snapshots import read_snapshots, release
from tcdoc.claims import IN_WORDS, Claim, expect

__all__ = ["CLAIMS", "load_weights_only"]

SNAPSHOTS = Path(__file__).resolve().parents[2] / "_snapshots"


def _releases(matrix: Matrix, *minors: tuple[int, int]) -> dict[tuple[int, int, int], Matrix]:
    """Return every release measured (the build's own replaces its snapshot); fail unless ``minors`` were."""
    found = {snap.release: snap.matrix for snap in read_snapshots(sorted(SNAPSHOTS.glob("torch-*.json")))}
    found[release(matrix.environment.torch)] = matrix
    for minor in minors:
        expect(any(number[:2] == minor for number in found), f"no release of torch {minor} in {SNAPSHOTS}")
    return dict(sorted(found.items()))


def _advice_flipped(matrix: Matrix) -> None:
    for number, measured in _releases(matrix, (2, 6), (2, 7)).items():
        wanted, unwanted = ADVICE if number[:2] >= (2, 7) else ADVICE[::-1]
        rows = [row for row in measured.rows if row.operation in ("torch_tensor", "new_tensor")]
        rows = [row for row in rows if row.grad_mode == "enabled" and not row.not_run]
        expect(rows, f"torch {number}: torch.tensor(x) and x.new_tensor(x) were not measured")
        for row in rows:
            said = [w.message for w in row.warnings if "To copy construct from a tensor" in w.message]
            ok = len(said) == 1 and wanted in said[0] and unwanted not in said[0]
            expect(ok, f"torch {number}: {row.operation} on {row.scenario} warned {row.warnings!r}")


def load_weights_only(matrix: Matrix) -> None:
    """Check that torch.load refuses a saved subclass from torch 2.6 on, unless allowed, and 2.5 warned."""
    for number, measured in _releases(matrix, (2, 5), (2, 6)).items():
        result = measured.get("save_load", "subclass")
        if number[:2] >= (2, 6):
            refused = result.error is not None and result.error.type == "UnpicklingError"
            expect(refused, f"torch {number}: torch.load of a saved subclass gave {result.outcome!r}")
        elif number[:2] == (2, 5):
            warned = [
                w for w in result.warnings if w.category == "FutureWarning" and "weights_only" in w.message
            ]
            expect(result.properties is not None and warned, f"torch {number}: {result.outcome!r} {warned!r}")
    buffer, source = io.BytesIO(), built_source("subclass")
    torch.save(source, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    expect(type(loaded) is type(source), f"weights_only=False loaded a {type(loaded).__name__}")
    if release(torch.__version__)[:2] < (2, 6):
        return  # an earlier torch loads it by default: nothing to allow
    buffer.seek(0)
    raises(lambda: torch.load(buffer), kind=pickle.UnpicklingError)  # weights_only left at its default
    buffer.seek(0)
    with torch.serialization.safe_globals([type(source)]):
        inside = torch.load(buffer)
    expect(type(inside) is type(source), f"under safe_globals, torch.load gave a {type(inside).__name__}")
    before = torch.serialization.get_safe_globals()
    torch.serialization.add_safe_globals([type(source)])
    try:
        buffer.seek(0)
        added = torch.load(buffer)
    finally:  # leave the allowed list as it was, for every other check and measurement
        torch.serialization.clear_safe_globals()
        torch.serialization.add_safe_globals(before)
    expect(type(added) is type(source), f"after add_safe_globals, torch.load gave a {type(added).__name__}")


CLAIMS = [
    Claim(
        "advice-flipped",
        _advice_flipped,
        words="Up to torch 2.6, the warning that `torch.tensor(x)` and `x.new_tensor(x)` print "
        "recommended `sourceTensor.clone().detach()`; from torch 2.7 on it recommends "
        "`sourceTensor.detach().clone()`",
    ),
    Claim(
        "load-weights-only",
        load_weights_only,
        words="Since torch 2.6, `torch.load` refuses a saved tensor subclass, raising `UnpicklingError` "
        "([pytorch/pytorch#137602](https://github.com/pytorch/pytorch/pull/137602)). It loads one "
        "given `weights_only=False`, or where the class is allowed with "
        "`torch.serialization.add_safe_globals` or the `torch.serialization.safe_globals` context "
        "manager. Torch 2.5 loaded it, with a `FutureWarning` about that default",
        covers=IN_WORDS,
    ),
]
