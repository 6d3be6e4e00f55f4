"""What one ``copy.deepcopy`` call keeps together
==============================================

:func:`copy.deepcopy` remembers, for the length of one call, what it has already copied.
Plain tensors that shared one storage before the call (a tensor and a view of it) still share
it in the copy, and a weight used twice stays one tensor; copied in two calls, they come apart.
A ``Parameter`` is cloned on its own, and conjugate or negative views are copied physically, so
neither keeps the sharing; nor do two storages over the same memory, such as two
``torch.from_numpy()`` of one array. On plain tensors deepcopy works on whole storages, the
memory under the tensors, which is also why the deepcopy of a small slice of a plain tensor holds
the whole storage the slice looks at (a ``Parameter`` goes through its own deepcopy, which
clones only its elements, and the copy of a slice with the conjugate or negative bit ends up
holding only its elements). This example measures both, with the
bytes each copy holds.
"""

# %%
# One call, several tensors
# -------------------------
# A tensor and a view of part of it, in one dictionary given to one deepcopy call.
import copy

import torch

base = torch.arange(8.0)
state = {"base": base, "view": base[2:5]}
copied = copy.deepcopy(state)
print(f"{copied = }")

# %%
# Inside the copy, the view still looks at the copied base, and neither shares memory with
# the originals.
import tcdoc

print(tcdoc.shares_memory(copied["view"], copied["base"]), tcdoc.shares_memory(copied["base"], base))

# %%
# So a change to the copied base shows through the copied view, as it would in the original.
copied["base"][2] = 100.0
print(f'{copied["view"] = }')

# %%
# Two calls, two storages
# -----------------------
# Copied one at a time, the base and the view each get memory of their own, and the link
# between them is gone.
base_copy = copy.deepcopy(base)
view_copy = copy.deepcopy(base[2:5])
print(f"{tcdoc.shares_memory(view_copy, base_copy) = }")

# %%
# A list works like the dictionary: what matters is that it is one call.
a, b = copy.deepcopy([base, base[2:5]])
print(f"{tcdoc.shares_memory(b, a) = }")

# %%
# ``.grad`` and attributes come along
# -----------------------------------
# Deepcopy also copies a plain leaf's gradient (one without a history of its own), into a new
# tensor, and its Python attributes, as ``copy.deepcopy`` copies any value (a ``Parameter`` keeps
# neither: see :doc:`plot_09_parameter`).
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
x.grad = torch.ones(3)
x.label = "encoder bias"
y = copy.deepcopy(x)
report = tcdoc.compare(x, y)
print(f"{report.copies_grad = }")
print(f"{report.copies_attributes = }")
print(f"{y.grad is x.grad = }")
print(f"{y.label = }")

# %%
# A small slice keeps its big storage
# -----------------------------------
# A slice is a view: ten numbers at the start of a storage of a million. Deepcopy copies
# the view's whole storage, so the copy holds four megabytes for forty bytes of values.
big = torch.zeros(1_000_000)
small = big[:10]
small_copy = copy.deepcopy(small)
print(f"{small.untyped_storage().nbytes() = }")
print(f"{small_copy.untyped_storage().nbytes() = }")

# %%
# :func:`tcdoc.compare` counts the same bytes as new memory that the copy holds.
print(f"{tcdoc.compare(small, small_copy).new_bytes = }")

# %%
# ``clone()`` copies only the elements of the view, into a storage of their own size.
small_clone = small.clone()
print(f"{small_clone.untyped_storage().nbytes() = }")
print(f"{tcdoc.compare(small, small_clone).new_bytes = }")

# %%
# :func:`tcdoc.draw.draw_panels` draws the two results with their storage bars on one scale,
# so that the length of each new bar compares with the storage under ``small``.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(small, small_copy, "copy.deepcopy(small)", names=("small", "small_copy")),
        tcdoc.draw.diagram(small, small_clone, "small.clone()", names=("small", "small_clone")),
    ]
)

# %%
# So to keep a slice, clone it; to deepcopy something that holds slices (a dictionary of
# them, say), clone them first.
kept = copy.deepcopy({"first_ten": small.clone()})
print(f'{kept["first_ten"].untyped_storage().nbytes() = }')

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# More on deepcopy: :doc:`/explanation/deepcopy`. A model whose layers use one weight
# twice: :doc:`plot_11_ema_target_network`.
