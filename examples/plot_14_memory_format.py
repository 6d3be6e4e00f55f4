"""Memory format and strides: what a clone looks like inside
=========================================================

A tensor is a block of memory plus *strides*: how many elements to step to reach the next
index along each dimension. Two tensors with the same values can lay them out differently,
for instance images stored ``channels_last`` rather than row-major, and code that relies on
one order sees the difference. ``clone()`` copies the values; this page shows which layout
the copy gets, and how much memory it takes when the source was an ``expand``-ed tensor
that had almost none.
"""

# %%
# ``clone()`` keeps ``channels_last``
# -----------------------------------
# A batch of images in ``channels_last`` order: the channel dimension has stride 1.
import torch

import tcdoc

torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
print(f"{x.stride() = }")
print(f"{x.is_contiguous(memory_format=torch.channels_last) = }")

# %%
# ``clone()`` defaults to ``memory_format=torch.preserve_format``: when the source covers its
# memory without gaps or overlaps, as here, the copy has the same strides as the source. A
# source with gaps (the stepped slice below) or overlaps (the ``expand`` below) gets new,
# dense strides.
c = x.clone()
print(f"{c.stride() = }")
print(f"{c.is_contiguous(memory_format=torch.channels_last) = }")

# %%
# Asking for row-major order
# --------------------------
# ``clone(memory_format=torch.contiguous_format)`` and :meth:`~torch.Tensor.contiguous`
# both give the usual row-major strides.
print(x.clone(memory_format=torch.contiguous_format).stride(), x.contiguous().stride())

# %%
# :func:`tcdoc.compare` reports the difference in its ``same_strides`` field.
print(f"{tcdoc.compare(x, x.clone()).same_strides = }")
print(f"{tcdoc.compare(x, x.contiguous()).same_strides = }")

# %%
# A transposed tensor keeps its strides too
# -----------------------------------------
# A transpose is dense (it covers its memory without gaps), only in another order, so
# ``clone()`` keeps its order while ``contiguous()`` rewrites it row-major.
m = torch.arange(12.0).reshape(3, 4).t()
print(f"{m.stride() = }")
print(f"{m.clone().stride() = }")
print(f"{m.contiguous().stride() = }")

# %%
# A stepped slice gets new, dense strides
# ---------------------------------------
# Every second column is not dense: it skips half of its storage. Its clone cannot keep
# those strides without keeping the gaps, so it is packed into new, dense memory that is
# half the size.
s = torch.arange(12.0).reshape(3, 4)[:, ::2]
print(f"{s.stride() = }")
print(f"{s.clone().stride() = }")
print(f"{s.untyped_storage().nbytes() = }")
print(f"{s.clone().untyped_storage().nbytes() = }")

# %%
# ``clone()`` materialises an ``expand``
# --------------------------------------
# :meth:`~torch.Tensor.expand` repeats a tensor without copying: stride 0 along the new
# dimension, so a million elements sit on a thousand floats of memory.
row = torch.randn(1000)
wide = row.expand(1000, 1000)
print(f"{wide.shape = }")
print(f"{wide.stride() = }")
print(f"{wide.untyped_storage().nbytes() = }")

# %%
# Its clone stores every element: the strides become ordinary row-major ones, and the
# memory grows a thousandfold. ``new_bytes`` counts the bytes of the copy.
wide_copy = wide.clone()
print(f"{wide_copy.stride() = }")
print(f"{wide_copy.untyped_storage().nbytes() = }")
print(f"{tcdoc.compare(wide, wide_copy).new_bytes = }")

# %%
# :func:`copy.deepcopy` behaves differently here: it copies the storage and keeps the
# strides, so the stride-0 layout and the small memory survive. (Not for a conjugate or
# negative view: deepcopy resolves the bit, into new, dense memory.)
import copy

wide_deep = copy.deepcopy(wide)
print(f"{wide_deep.stride() = }")
print(f"{tcdoc.compare(wide, wide_deep).new_bytes = }")

# %%
# :func:`tcdoc.draw.draw_panels` draws the two results with their storage bars on one scale,
# so that the length of each new bar compares with the storage under ``wide``.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(wide, wide_copy, "wide.clone()", names=("wide", "wide_copy")),
        tcdoc.draw.diagram(wide, wide_deep, "copy.deepcopy(wide)", names=("wide", "wide_deep")),
    ]
)

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Why ``clone()`` keeps layout and history while copying the data:
# :doc:`/explanation/clone`.
