"""The claims that ``examples/plot_21_indexing_views.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import torch

from _checks._helpers import (
    everyday,
    expand_overlaps_and_refuses,
    expanded_write,
    index_assignment_writes,
    selection_reads_copy,
    where_measured,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect, measured

__all__ = ["CLAIMS"]


def _slice_scales_batch(matrix: Matrix) -> None:
    for op in ("slice",):
        for scenario, report in where_measured(matrix, op, everyday()):
            expect(report.shares_storage, f"{op} on {scenario} copied")
    batch = torch.arange(12.0).reshape(4, 3)
    expect(shares_memory(batch, batch[1]) and batch[1]._is_view(), "integer indexing is no view")
    first_two = batch[0:2]
    first_two *= 10
    expect(batch[0, 1].item() == 10.0 and batch[2, 0].item() == 6.0, "the scaling did not reach batch")


def _selection_copies_and_leaves_batch(matrix: Matrix) -> None:
    batch = torch.arange(12.0).reshape(4, 3)
    for index in (torch.tensor([1]), torch.tensor([[1, 3]]), torch.tensor([1], dtype=torch.int32), [1, 3]):
        expect(not shares_memory(batch, batch[index]), f"indexing with {index!r} shares memory")
    chosen, large = batch[torch.tensor([1, 3])], batch[batch > 5]
    chosen *= 10
    large *= 0
    ok = not shares_memory(batch, chosen) and not shares_memory(batch, large)
    expect(ok and torch.equal(batch, torch.arange(12.0).reshape(4, 3)), "a selection reached batch")


def _zero_dim_index_is_a_view(matrix: Matrix) -> None:
    """Check that a 0-dim integer index tensor gives a view, and a uint8 or bool one a copy (a mask)."""
    batch = torch.arange(12.0).reshape(4, 3)
    for dtype in (torch.int8, torch.int16, torch.int32, torch.int64):
        row = batch[torch.tensor(1, dtype=dtype)]
        expect(shares_memory(batch, row) and row._is_view(), f"a 0-dim {dtype} index copied")
        expect(torch.equal(row, batch[1]), f"a 0-dim {dtype} index did not pick row 1")
    for dtype in (torch.uint8, torch.bool):  # the reader's break: uint8 is an integer dtype, yet a mask
        masked = batch[torch.tensor(1, dtype=dtype)]
        expect(not shares_memory(batch, masked), f"a 0-dim {dtype} index shares")
        expect(
            masked.shape == (1, 4, 3), f"a 0-dim {dtype} index gave shape {tuple(masked.shape)}, not a mask's"
        )


def _augmented_assignment_writes_back(matrix: Matrix) -> None:
    batch = torch.zeros(4)
    batch[batch == 0] += 1
    expect(torch.equal(batch, torch.ones(4)), "batch[mask] += 1 did not write into batch")


def _expand_repeats_without_copying(matrix: Matrix) -> None:
    row = torch.tensor([1.0, 2.0, 3.0])
    repeated = row.expand(4, 3)
    ok = repeated.stride()[0] == 0 and repeated.untyped_storage().nbytes() == row.untyped_storage().nbytes()
    expect(ok, "expand() copied, or the new dimension's stride is not 0")
    expand_overlaps_and_refuses(matrix)  # add_, mul_, copy_ refused; fill_, zero_, assignment write through


def _drawn_selections(matrix: Matrix) -> None:
    sliced, indexed = measured(matrix, "slice", "no_grad"), measured(matrix, "index", "no_grad")
    expanded = measured(matrix, "expand", "no_grad")
    expect(sliced.shares_storage and sliced.new_bytes == 0, f"slice measured {sliced}")
    expect(not indexed.shares_storage and bool(indexed.new_bytes), f"index measured {indexed}")
    expect(expanded.shares_storage and bool(expanded.overlaps_itself), f"expand measured {expanded}")


CLAIMS = [
    Claim(
        "one-case-or-other",
        selection_reads_copy,
        quote="Code that changes a selection in place (to augment a few samples, to zero out a few "
        "values) works "
        "on the batch in one case and on a copy in the other",
    ),
    Claim(
        "slice-is-view",
        _slice_scales_batch,
        quote="Basic slicing, with integers and ranges, returns a view: a new tensor over the memory of "
        "`batch`. "
        "Scaling the first two rows through the slice scales them in `batch`",
    ),
    Claim(
        "index-copies",
        _selection_copies_and_leaves_batch,
        quote="Advanced indexing, with a tensor of indices that has at least one dimension or a boolean "
        "mask, copies the chosen elements into new memory. Scaling the selection leaves `batch` as it was",
    ),
    Claim(
        "zero-dim-index",
        _zero_dim_index_is_a_view,
        quote="A zero-dimensional `int64` tensor (or `int32`, `int16`, `int8`) is the exception: it acts as "
        "an integer, and `batch[torch.tensor(1)]` is a view of row 1, like `batch[1]`. A zero-dimensional "
        "`uint8` or `bool` tensor acts as a mask instead, and copies",
        scope="stated: int8, int16, int32 and int64 against uint8 and bool",
    ),
    Claim(
        "assignment-writes",
        index_assignment_writes,
        quote="The same brackets on the left of `=` do write into `batch`: indexing copies when it reads, "
        "not when "
        "it assigns",
    ),
    Claim(
        "augmented-assignment",
        _augmented_assignment_writes_back,
        quote="So does an augmented assignment on the selection itself, `batch[index] += 1`: Python reads "
        "the "
        "selection, adds to it, and assigns the sum back through the same index",
    ),
    Claim(
        "expand",
        _expand_repeats_without_copying,
        quote="`expand` repeats a tensor without copying it: the new dimension has stride 0, so every row "
        "of the result is the same memory. Torch refuses `add_`, `mul_` and `copy_` into it, and an "
        "indexed assignment across the repeated dimension, while `fill_`, `zero_` and an indexed "
        "assignment into one element or one row succeed and write into the repeated row itself, and so "
        "into every row of the result",
        scope="stated: the example's row, expanded; the writes named",
    ),
    Claim(
        "expand-clone",
        expanded_write,
        quote="A write into `row` shows in every row of `repeated`; a clone gives each row memory of its "
        "own, "
        "which can be written",
        scope="stated: the example's repeated tensor and its clone",
    ),
    Claim(
        "drawn",
        _drawn_selections,
        quote="the slice reads part of the storage of `x`, the indexed row has a storage of its own, and the "
        "expanded tensor reads the same bytes twice",
    ),
]
