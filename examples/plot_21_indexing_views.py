"""Slices, index tensors and masks: which selections are views
===========================================================

Picking rows out of a batch looks the same whatever goes inside the brackets:
``batch[0:2]``, ``batch[torch.tensor([1, 3])]``, ``batch[batch > 5]``. What comes back is
not the same. Code that changes a selection in place (to augment a few samples, to zero out
a few values) works on the batch in one case and on a copy in the other. This example
writes through each kind of selection and watches the batch.
"""

# %%
# A batch of four samples with three features each.
import torch

torch.manual_seed(0)
batch = torch.arange(12.0).reshape(4, 3)
print(f"{batch = }")

# %%
# A slice is a view
# -----------------
# Basic slicing, with integers and ranges, returns a view. It is a new tensor over the memory
# of ``batch``. Scaling the first two rows through the slice scales them in ``batch``.
import tcdoc

first_two = batch[0:2]
first_two *= 10
print(f"{tcdoc.shares_memory(batch, first_two) = }")
print(f"{batch = }")

# sphinx_gallery_start_ignore
import functools

from tcdoc.claims import claim, raised

_everyday = [scenario.name for scenario in tcdoc.scenarios() if scenario.group == "everyday"]


def _probed(operation):
    """Return what ``operation`` measured on each everyday kind of tensor where it ran."""
    results = {name: tcdoc.probe(operation, name).properties for name in _everyday}
    return {name: report for name, report in results.items() if report is not None}


_scaled = torch.arange(12.0).reshape(4, 3)  # what batch holds now: its first two rows times 10
_scaled[0:2] = torch.arange(6.0).reshape(2, 3) * 10
_sliced = _probed("slice")
claim(
    "Basic slicing, with integers and ranges, returns a view. It is a new tensor over the memory of `batch`. "
    "Scaling the first two rows through the slice scales them in `batch`",
    _sliced
    and all(report.shares_storage for report in _sliced.values())
    and tcdoc.shares_memory(batch, batch[1])
    and batch[1]._is_view()
    and tcdoc.shares_memory(batch, first_two)
    and torch.equal(batch, _scaled),
    f"slicing measured {_sliced}; batch is {batch}",
)
# sphinx_gallery_end_ignore

# %%
# An index tensor or a mask gives a copy
# --------------------------------------
# Advanced indexing uses a tensor of indices that has at least one dimension, or a boolean
# mask. It copies the chosen elements into new memory. Scaling the selection leaves ``batch`` as
# it was.
chosen = batch[torch.tensor([1, 3])]
chosen *= 10
large = batch[batch > 5]
large *= 0
print(f"{tcdoc.shares_memory(batch, chosen) = }")
print(f"{tcdoc.shares_memory(batch, large) = }")
print(f"{batch = }")

# sphinx_gallery_start_ignore
_indexed = _probed("index")
_x = torch.arange(6.0).reshape(2, 3)
_assigned = torch.zeros(2, 3)
_assigned[torch.tensor([1])] = 5.0
claim(
    "Code that changes a selection in place (to augment a few samples, to zero out a few values) works "
    "on the batch in one case and on a copy in the other",
    _indexed
    and all(not report.shares_storage and report.new_bytes for report in _indexed.values())
    and all(report.shares_storage and report.new_bytes == 0 for report in _sliced.values())
    and tcdoc.shares_memory(batch, first_two)
    and not tcdoc.shares_memory(batch, chosen)
    and not any(tcdoc.shares_memory(_x, picked) for picked in (_x[[0]], _x[_x > 2], _x[torch.tensor([0])]))
    and torch.equal(_assigned[1], torch.full((3,), 5.0))
    and torch.equal(_assigned[0], torch.zeros(3)),
    f"indexing measured {_indexed}; slicing {_sliced}; an assignment through an index gave {_assigned}",
)
_indices = (torch.tensor([1]), torch.tensor([[1, 3]]), torch.tensor([1], dtype=torch.int32), [1, 3])
claim(
    "Advanced indexing uses a tensor of indices that has at least one dimension, or a boolean mask. "
    "It copies the chosen elements into new memory. Scaling the selection leaves `batch` as it was",
    not any(tcdoc.shares_memory(batch, batch[index]) for index in _indices)
    and not tcdoc.shares_memory(batch, chosen)
    and not tcdoc.shares_memory(batch, large)
    and torch.equal(chosen, _scaled[[1, 3]] * 10)
    and torch.equal(batch, _scaled),
    f"an index shares memory with batch, or batch changed: {batch}",
)
# sphinx_gallery_end_ignore

# %%
# A zero-dimensional ``int64`` tensor (or ``int32``, ``int16``, ``int8``) is the exception. It
# acts as an integer: ``batch[torch.tensor(1)]`` is a view of row 1, like ``batch[1]``. A
# zero-dimensional ``uint8`` or ``bool`` tensor acts as a mask instead, and copies.
print(f"{tcdoc.shares_memory(batch, batch[torch.tensor(1)]) = }")

# sphinx_gallery_start_ignore
_integer_views = {
    dtype: batch[torch.tensor(1, dtype=dtype)]
    for dtype in (torch.int8, torch.int16, torch.int32, torch.int64)
}
# the reader's break: uint8 is an integer dtype, yet a mask
_mask_copies = {dtype: batch[torch.tensor(1, dtype=dtype)] for dtype in (torch.uint8, torch.bool)}
claim(
    "A zero-dimensional `int64` tensor (or `int32`, `int16`, `int8`) is the exception. It acts as an "
    "integer: `batch[torch.tensor(1)]` is a view of row 1, like `batch[1]`. A zero-dimensional "
    "`uint8` or `bool` tensor acts as a mask instead, and copies",
    all(
        tcdoc.shares_memory(batch, row) and row._is_view() and torch.equal(row, batch[1])
        for row in _integer_views.values()
    )
    and all(
        not tcdoc.shares_memory(batch, masked) and masked.shape == (1, 4, 3)
        for masked in _mask_copies.values()
    ),
    f"as integers: {_integer_views}; as masks: {_mask_copies}",
)
# sphinx_gallery_end_ignore

# %%
# Assigning through an index writes
# ---------------------------------
# The same brackets on the left of ``=`` do write into ``batch``. Indexing copies when it
# reads, not when it assigns.
batch[torch.tensor([1, 3])] = 0.0
print(f"{batch = }")

# sphinx_gallery_start_ignore
claim(
    "The same brackets on the left of `=` do write into `batch`. Indexing copies when it reads, not when "
    "it assigns",
    torch.equal(batch[1], torch.zeros(3))
    and torch.equal(batch[3], torch.zeros(3))
    and torch.equal(batch[0], _scaled[0])
    and torch.equal(batch[2], _scaled[2])
    and torch.equal(_assigned[1], torch.full((3,), 5.0))
    and torch.equal(_assigned[0], torch.zeros(3)),
    f"batch is {batch}",
)
# sphinx_gallery_end_ignore

# %%
# So does an augmented assignment on the selection itself, ``batch[index] += 1``: Python
# reads the selection, adds to it, and assigns the sum back through the same index.
batch[batch == 0] += 1
print(f"{batch = }")

# sphinx_gallery_start_ignore
_zeros = torch.zeros(4)
_zeros[_zeros == 0] += 1
claim(
    "So does an augmented assignment on the selection itself, `batch[index] += 1`: Python reads the "
    "selection, adds to it, and assigns the sum back through the same index",
    torch.equal(batch[1], torch.ones(3))
    and torch.equal(batch[3], torch.ones(3))
    and batch[0, 0].item() == 1.0
    and torch.equal(batch[0, 1:], _scaled[0, 1:])
    and torch.equal(batch[2], _scaled[2])
    and torch.equal(_zeros, torch.ones(4)),
    f"batch is {batch}",
)
# sphinx_gallery_end_ignore

# %%
# The whole family, measured
# --------------------------
# :func:`tcdoc.matrix` applies each selection and join of tcdoc's registry to a fresh
# tensor. Then it measures the result: any memory it has in common with ``x``, the new bytes it
# holds, and whether two of its elements are the same bytes.
views = [op.name for op in tcdoc.operations() if op.family == "views"]
measured = tcdoc.matrix(views, ["no_grad"], grad_modes=["enabled"])
width = max(len(tcdoc.get_operation(name).code) for name in views)
print(f"{'y =':{width}} {'shares memory':>13} {'new bytes':>9} {'overlaps itself':>16}")
for row in measured.rows:
    code = tcdoc.get_operation(row.operation).code
    report = row.properties
    print(
        f"{code:{width}} {report.shares_storage!s:>13} {report.new_bytes:>9} {report.overlaps_itself!s:>16}"
    )

# %%
# ``expand``: one row, seen many times
# ------------------------------------
# ``expand`` repeats a tensor without copying it. The new dimension has stride 0, so every
# row of the result is the same memory. Torch refuses ``add_``, ``mul_`` and ``copy_`` into
# it, and an indexed assignment across the repeated dimension. ``fill_``, ``zero_`` and an
# indexed assignment into one element or one row succeed. They write into the repeated row
# itself, and so into every row of the result.
row = torch.tensor([1.0, 2.0, 3.0])
repeated = row.expand(4, 3)
print(repeated.stride())


def assign_element(t):
    """Write 5 into the first element of ``t``."""
    t[0, 0] = 5.0


def assign_row(t):
    """Write a new first row into ``t``."""
    t[0] = torch.tensor([4.0, 5.0, 6.0])


def assign_column(t):
    """Write 5 into the first element of every row of ``t``: across the repeated dimension."""
    t[:, 0] = 5.0


writes = {
    "add_(1)": lambda t: t.add_(1),
    "mul_(2)": lambda t: t.mul_(2),
    "copy_(zeros)": lambda t: t.copy_(torch.zeros(4, 3)),
    "fill_(7)": lambda t: t.fill_(7.0),
    "zero_()": lambda t: t.zero_(),
    "t[0, 0] = 5": assign_element,
    "t[0] = [4, 5, 6]": assign_row,
    "t[:, 0] = 5": assign_column,
}
for name, write in writes.items():
    source = torch.tensor([1.0, 2.0, 3.0])
    try:
        write(source.expand(4, 3))
        print(f"{name:16} succeeds, and the source row is now {source.tolist()}")
    except RuntimeError as error:
        print(f"{name:16} RuntimeError: {str(error).splitlines()[0]}")

# sphinx_gallery_start_ignore
_REFUSED_ON_EXPAND = ("add_(1)", "mul_(2)", "copy_(zeros)", "t[:, 0] = 5")


def _expand_writes_gone_wrong():
    """Return the example's writes into an expanded row that were not refused, or did not write, as said."""
    wrong = []
    for name, write in writes.items():
        source = torch.tensor([1.0, 2.0, 3.0])
        wide = source.expand(4, 3)
        error = raised(functools.partial(write, wide))
        if name in _REFUSED_ON_EXPAND:
            refused = isinstance(error, RuntimeError) and "more than one element" in str(error)
            if not refused or not torch.equal(source, torch.tensor([1.0, 2.0, 3.0])):
                wrong.append(f"{name} gave {error!r} and left the row {source}")
        elif error is not None or torch.equal(source, torch.tensor([1.0, 2.0, 3.0])):
            wrong.append(f"{name} gave {error!r} and left the row {source}")
        elif not all(torch.equal(line, source) for line in wide):
            wrong.append(f"after {name} the rows differ: {wide}")
    return wrong


_expanded = _probed("expand")
_wrong = _expand_writes_gone_wrong()
claim(
    "`expand` repeats a tensor without copying it. The new dimension has stride 0, so every row of the "
    "result is the same memory. Torch refuses `add_`, `mul_` and `copy_` into it, and an indexed "
    "assignment across the repeated dimension. `fill_`, `zero_` and an indexed assignment into one "
    "element or one row succeed. They write into the repeated row itself, and so into every row of "
    "the result",
    repeated.stride()[0] == 0
    and tcdoc.shares_memory(row, repeated)
    and repeated.untyped_storage().nbytes() == row.untyped_storage().nbytes()
    and _expanded
    and all(report.overlaps_itself and report.shares_storage for report in _expanded.values())
    and not _wrong,
    f"repeated has the strides {repeated.stride()}; expand measured {_expanded}; {_wrong}",
)
# sphinx_gallery_end_ignore

# %%
# A write into ``row`` shows in every row of ``repeated``. A clone gives each row memory of
# its own, which can be written.
row[0] = -1.0
separate = repeated.clone()
separate[0, 0] = 100.0
print(f"{repeated[:, 0] = }")
print(f"{separate[:, 0] = }")

# sphinx_gallery_start_ignore
claim(
    "A write into `row` shows in every row of `repeated`. A clone gives each row memory of its own, "
    "which can be written",
    torch.equal(repeated[:, 0], torch.full((4,), -1.0))
    and separate[0, 0].item() == 100.0
    and torch.equal(separate[1:, 0], torch.full((3,), -1.0))
    and not tcdoc.shares_memory(row, separate),
    f"repeated[:, 0] is {repeated[:, 0]}, separate[:, 0] is {separate[:, 0]}",
)
# sphinx_gallery_end_ignore

# %%
# Here are the three kinds of selection, drawn from a fresh tensor. The slice reads part of the
# storage of ``x``, the indexed row has a storage of its own, and the expanded tensor reads
# the same bytes twice. Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["slice", "index", "expand"], "no_grad", columns=3)
# sphinx_gallery_thumbnail_number = 1

# sphinx_gallery_start_ignore
_drawn = {name: measured.get(name, "no_grad").properties for name in ("slice", "index", "expand")}
claim(
    "The slice reads part of the storage of `x`, the indexed row has a storage of its own, and the "
    "expanded tensor reads the same bytes twice",
    None not in _drawn.values()
    and _drawn["slice"].shares_storage
    and _drawn["slice"].new_bytes == 0
    and not _drawn["index"].shares_storage
    and _drawn["index"].new_bytes > 0
    and _drawn["expand"].shares_storage
    and _drawn["expand"].overlaps_itself,
    f"measured {_drawn}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Which operations return views, and how to tell: :doc:`plot_15_views_vs_copies`. The other
# look-alikes: :doc:`/explanation/look-alikes`.
