"""Views and copies: which operations share memory
===============================================

Many tensor operations do not copy anything: they return a *view*, a new tensor object that
reads and writes the memory of its source with other sizes or strides. Views are why
slicing is cheap, and also why writing into a slice changes the original. Other operations
make a copy. This page measures which is which, shows ``reshape``, which does either, and
the three ways to tell.
"""

# %%
# Three ways to tell
# ------------------
# A view shares memory with its source (:func:`tcdoc.shares_memory`), reports
# ``_is_view()`` and keeps a reference to its base in ``_base`` (for a view of a view, the
# first tensor of the chain, below). The last two are the view tracking that autograd relies
# on. A view of an inference tensor, made under :class:`torch.inference_mode`, has neither.
import torch

import tcdoc

x = torch.zeros(3, 4)
v = x[1:]
print(f"{tcdoc.shares_memory(x, v) = }")
print(f"{v._is_view() = }")
print(f"{v._base is x = }")

# %%
# The consequence: a write through the view lands in ``x``.
v[0, 0] = 7.0
print(f"{x = }")

# %%
# A catalogue
# -----------
# Each expression below is applied to ``x`` and measured. ``eval`` runs the text of each
# line, so the label and the code cannot disagree.
expressions = [
    "x.view(4, 3)",
    "x.reshape(4, 3)",
    "x.t()",
    "x.transpose(0, 1)",
    "x.permute(1, 0)",
    "x[1:]",
    "x[:, ::2]",
    "x[0]",
    "x.narrow(1, 0, 2)",
    "x.unsqueeze(0)",
    "x.flatten()",
    "x.split(2)[0]",
    "x.unbind(0)[0]",
    "x.diagonal()",
    "x.expand(2, 3, 4)",
    "x.view(torch.int32)",
    "x.detach()",
    "x.contiguous()",
    "x.clone()",
    "x.t().contiguous()",
    "x[[0, 2]]",
    "x[x > 5]",
    "x.index_select(0, torch.tensor([0, 2]))",
    "x.flip(0)",
    "x.to(torch.float64)",
    "x + 0",
]
print(f"{'expression':40} {'shares memory':>13} {'_is_view()':>10} {'_base is x':>10} {'is x':>5}")
for expression in expressions:
    y = eval(expression)
    print(
        f"{expression:40} {tcdoc.shares_memory(x, y)!s:>13} {y._is_view()!s:>10} "
        f"{y._base is x!s:>10} {y is x!s:>5}"
    )

# %%
# Reading the table:
#
# * Slicing with integers and ranges, ``view``, ``reshape`` of this contiguous ``x``, transposes
#   and ``expand`` return views: they share memory and know their base.
# * ``detach()`` and a dtype view ``view(torch.int32)`` share memory without being tracked
#   as views, so ``_is_view()`` and ``_base`` miss them. Only a memory check catches them.
# * ``contiguous()`` on a tensor that already is contiguous returns the tensor itself.
# * ``clone()``, ``contiguous()`` of a transpose, indexing with a list or a mask,
#   ``index_select``, ``flip``, a dtype change and arithmetic all copy.
#
# PyTorch's own list of view operations is the
# `Tensor Views <https://docs.pytorch.org/docs/stable/tensor_view.html>`_ page of its
# documentation.

# %%
# ``reshape`` views when it can and copies when it cannot
# -------------------------------------------------------
# A contiguous tensor can be reshaped by changing its strides only, so ``reshape`` returns
# a view.
flat = x.reshape(12)
print(f"{tcdoc.shares_memory(x, flat) = }")
print(f"{flat._base is x = }")

# %%
# A transpose cannot be flattened with a single stride, so ``reshape`` silently copies.
# Writes into the result would no longer reach ``x``.
flat_t = x.t().reshape(12)
print(f"{tcdoc.shares_memory(x, flat_t) = }")
print(f"{flat_t._is_view() = }")

# %%
# The two reshapes, drawn by :func:`tcdoc.draw.draw_panels`: ``flat`` stands on the storage
# of ``x``, ``flat_t`` has a storage of its own.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(x, flat, "x.reshape(12)", names=("x", "flat")),
        tcdoc.draw.diagram(x, flat_t, "x.t().reshape(12)", names=("x", "flat_t")),
    ]
)

# %%
# To insist on a view, call :meth:`~torch.Tensor.view`, which raises instead of copying.
try:
    x.t().view(12)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# %%
# A view of a view
# ----------------
# In a chain of tracked views, ``_base`` points to the first tensor of the chain, not to the
# intermediate view. A chain that starts from an untracked alias, such as ``x.detach()``, points
# to that alias, not to ``x``.
row = x[1:][0]
print(f"{row._base is x = }")
print(f"{x.detach()[1:]._base is x = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# How views relate to ``clone()`` and its look-alikes: :doc:`/explanation/look-alikes`.
