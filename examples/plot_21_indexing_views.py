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
# Basic slicing, with integers and ranges, returns a view: a new tensor over the memory of
# ``batch``. Scaling the first two rows through the slice scales them in ``batch``.
import tcdoc

first_two = batch[0:2]
first_two *= 10
print(f"{tcdoc.shares_memory(batch, first_two) = }")
print(f"{batch = }")

# %%
# An index tensor or a mask gives a copy
# --------------------------------------
# Advanced indexing, with a tensor of indices that has at least one dimension or a boolean
# mask, copies the chosen elements into new memory. Scaling the selection leaves ``batch`` as
# it was.
chosen = batch[torch.tensor([1, 3])]
chosen *= 10
large = batch[batch > 5]
large *= 0
print(f"{tcdoc.shares_memory(batch, chosen) = }")
print(f"{tcdoc.shares_memory(batch, large) = }")
print(f"{batch = }")

# %%
# A zero-dimensional ``int64`` tensor (or ``int32``, ``int16``, ``int8``) is the exception: it
# acts as an integer, and ``batch[torch.tensor(1)]`` is a view of row 1, like ``batch[1]``. A
# zero-dimensional ``uint8`` or ``bool`` tensor acts as a mask instead, and copies.
print(f"{tcdoc.shares_memory(batch, batch[torch.tensor(1)]) = }")

# %%
# Assigning through an index writes
# ---------------------------------
# The same brackets on the left of ``=`` do write into ``batch``: indexing copies when it
# reads, not when it assigns.
batch[torch.tensor([1, 3])] = 0.0
print(f"{batch = }")

# %%
# So does an augmented assignment on the selection itself, ``batch[index] += 1``: Python
# reads the selection, adds to it, and assigns the sum back through the same index.
batch[batch == 0] += 1
print(f"{batch = }")

# %%
# The whole family, measured
# --------------------------
# :func:`tcdoc.matrix` applies each selection and join of tcdoc's registry to a fresh
# tensor and measures the result: any memory it has in common with ``x``, the new bytes it
# holds, and whether two of its elements are the same bytes.
views = [op.name for op in tcdoc.operations() if op.family == "views"]
measured = tcdoc.matrix(views, ["no_grad"], grad_modes=["enabled"])
width = max(len(tcdoc.get_operation(name).code) for name in views)
print(f"{'y =':{width}} {'shares memory':>13} {'new bytes':>9} {'elements overlap':>16}")
for row in measured.rows:
    code = tcdoc.get_operation(row.operation).code
    report = row.properties
    print(
        f"{code:{width}} {report.shares_storage!s:>13} {report.new_bytes:>9} {report.overlaps_itself!s:>16}"
    )

# %%
# ``expand``: one row, seen many times
# ------------------------------------
# ``expand`` repeats a tensor without copying it: the new dimension has stride 0, so every
# row of the result is the same memory. Torch refuses ``add_``, ``mul_`` and ``copy_`` into
# it, and an indexed assignment across the repeated dimension, while ``fill_``, ``zero_`` and
# an indexed assignment into one element or one row succeed and write into the repeated row
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

# %%
# A write into ``row`` shows in every row of ``repeated``; a clone gives each row memory of
# its own, which can be written.
row[0] = -1.0
separate = repeated.clone()
separate[0, 0] = 100.0
print(f"{repeated[:, 0] = }")
print(f"{separate[:, 0] = }")

# %%
# The three kinds of selection drawn from a fresh tensor: the slice reads part of the
# storage of ``x``, the indexed row has a storage of its own, and the expanded tensor reads
# the same bytes twice. Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["slice", "index", "expand"], "no_grad", columns=3)
# sphinx_gallery_thumbnail_number = 1

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Which operations return views, and how to tell: :doc:`plot_15_views_vs_copies`. The other
# look-alikes: :doc:`/explanation/look-alikes`.
