"""The checks of the claims on ``docs/reference/changes-between-releases.md``.

Both sentences are about history, so their checks read the snapshots of earlier releases
(``docs/_snapshots``, the files the page compares) beside the build's own matrix, and fail where
a release the sentence names was not measured.
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import torch

from _checks._helpers import built_source
from tcdoc import Matrix, ProbeResult
from tcdoc._snapshots import read_snapshots, release
from tcdoc.claims import IN_WORDS, Claim, ClaimFalse, expect

__all__ = ["CLAIMS", "load_weights_only"]

SNAPSHOTS = Path(__file__).resolve().parents[2] / "_snapshots"


def _releases(matrix: Matrix) -> dict[tuple[int, int, int], Matrix]:
    """Every release measured: the snapshots', and the build's own, which replaces its snapshot."""
    found = {snap.release: snap.matrix for snap in read_snapshots(sorted(SNAPSHOTS.glob("torch-*.json")))}
    found[release(matrix.environment.torch)] = matrix
    return dict(sorted(found.items()))


def _minor(releases: dict[tuple[int, int, int], Matrix], minor: tuple[int, int]) -> Matrix:
    """Return the matrix of a release of ``minor`` (2.6: any 2.6.x); ``ClaimFalse`` if none was measured."""
    for number, matrix in releases.items():
        if number[:2] == minor:
            return matrix
    raise ClaimFalse(f"no release of torch {minor[0]}.{minor[1]} was measured in {SNAPSHOTS}")


def _copy_warnings(matrix: Matrix) -> list[tuple[str, str]]:
    """Return the warning of torch.tensor(x) and x.new_tensor(x) on each x they were run on, enabled."""
    found = []
    for row in matrix.rows:
        if row.operation in ("torch_tensor", "new_tensor") and row.grad_mode == "enabled" and not row.not_run:
            said = [w.message for w in row.warnings if "To copy construct from a tensor" in w.message]
            expect(len(said) == 1, f"{row.operation} on {row.scenario} warned {row.warnings!r}")
            found.append((f"{row.operation} on {row.scenario}", said[0]))
    expect(bool(found), "torch.tensor(x) and x.new_tensor(x) were not measured")
    return found


def _advice_flipped(matrix: Matrix) -> None:
    releases = _releases(matrix)
    _minor(releases, (2, 6))
    _minor(releases, (2, 7))
    for number, measured in releases.items():
        old = number[:2] <= (2, 6)
        wanted, unwanted = (
            ("sourceTensor.clone().detach()", "sourceTensor.detach().clone()")
            if old
            else ("sourceTensor.detach().clone()", "sourceTensor.clone().detach()")
        )
        for where, said in _copy_warnings(measured):
            expect(wanted in said and unwanted not in said, f"torch {number}: {where} warned {said!r}")


def _subclass_load(matrix: Matrix) -> ProbeResult:
    return matrix.get("save_load", "subclass")


def load_weights_only(matrix: Matrix) -> None:
    """Check that torch.load refuses a saved subclass from torch 2.6 on, and loaded it on 2.5."""
    releases = _releases(matrix)
    _minor(releases, (2, 5))
    _minor(releases, (2, 6))
    for number, measured in releases.items():
        result = _subclass_load(measured)
        if number[:2] >= (2, 6):
            expect(
                result.error is not None and result.error.type == "UnpicklingError",
                f"torch {number}: torch.load of a saved subclass gave {result.outcome!r}",
            )
        elif number[:2] == (2, 5):
            expect(result.properties is not None, f"torch {number}: {result.outcome!r}")
            future = [
                w for w in result.warnings if w.category == "FutureWarning" and "weights_only" in w.message
            ]
            expect(bool(future), f"torch {number}: torch.load warned {result.warnings!r}")
    # "unless it is given weights_only=False": on the build's torch, that loads it.
    buffer = io.BytesIO()
    source = built_source("subclass")
    torch.save(source, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    expect(type(loaded) is type(source), f"weights_only=False loaded a {type(loaded).__name__}")
    if release(torch.__version__)[:2] >= (2, 6):
        _allowed_class_loads(buffer, type(source))


def _allowed_class_loads(buffer: io.BytesIO, kind: type) -> None:
    """Check that an allowed class loads under weights_only=True, and that it is refused otherwise."""
    buffer.seek(0)
    with torch.serialization.safe_globals([kind]):
        inside = torch.load(buffer)  # weights_only left at its default
    expect(type(inside) is kind, f"under safe_globals, torch.load gave a {type(inside).__name__}")
    buffer.seek(0)
    refused = None
    try:
        torch.load(buffer, weights_only=True)
    except pickle.UnpicklingError as error:
        refused = error
    expect(refused is not None, "outside safe_globals, torch.load loaded the subclass")
    before = torch.serialization.get_safe_globals()
    torch.serialization.add_safe_globals([kind])
    try:
        buffer.seek(0)
        added = torch.load(buffer, weights_only=True)
    finally:  # leave the allowed list as it was, for every other check and measurement
        torch.serialization.clear_safe_globals()
        torch.serialization.add_safe_globals(before)
    expect(type(added) is kind, f"after add_safe_globals, torch.load gave a {type(added).__name__}")


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
