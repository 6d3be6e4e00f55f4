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

# sphinx_gallery_start_ignore
from tcdoc.claims import claim, raised

claim(
    "A view shares memory with its source ({func}`tcdoc.shares_memory`), reports `_is_view()` and keeps a "
    "reference to its base in `_base` (for a view of a view, the first tensor of the chain, below)",
    tcdoc.shares_memory(x, v) and v._is_view() and v._base is x and x[1:][0]._base is x,
    f"v shares memory: {tcdoc.shares_memory(x, v)}, is a view: {v._is_view()}, _base is x: {v._base is x}",
)

with torch.inference_mode():
    _inference = torch.zeros(3, 4)
    _inference_views = {"made inside": _inference[1:], "a chain made inside": _inference[1:][0]}
_inference_views["made outside"] = _inference[1:]
_tracked = [
    name
    for name, view in _inference_views.items()
    if not tcdoc.shares_memory(_inference, view) or view._is_view() or view._base is not None
]
claim(
    "A view of an inference tensor, made under {class}`torch.inference_mode`, has neither",
    not _tracked,
    f"tracked as a view, or sharing no memory: the views {_tracked}",
)
# sphinx_gallery_end_ignore

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

# sphinx_gallery_start_ignore
_views = {
    "x.view(4, 3)": x.view(4, 3),
    "x.reshape(4, 3)": x.reshape(4, 3),
    "x.t()": x.t(),
    "x.transpose(0, 1)": x.transpose(0, 1),
    "x.permute(1, 0)": x.permute(1, 0),
    "x[1:]": x[1:],
    "x[:, ::2]": x[:, ::2],
    "x[0]": x[0],
    "x.expand(2, 3, 4)": x.expand(2, 3, 4),
}
_copies = {  # the operations the table shows copying, for contrast
    "x.clone()": x.clone(),
    "x.t().contiguous()": x.t().contiguous(),
    "x[[0, 2]]": x[[0, 2]],
    "x[x > 5]": x[x > 5],
    "x.index_select(0, torch.tensor([0, 2]))": x.index_select(0, torch.tensor([0, 2])),
    "x.flip(0)": x.flip(0),
    "x.to(torch.float64)": x.to(torch.float64),
    "x + 0": x + 0,
}
_not_views = [
    name for name, y in _views.items() if not (tcdoc.shares_memory(x, y) and y._is_view() and y._base is x)
]
_sharing = [name for name, y in _copies.items() if tcdoc.shares_memory(x, y)]
claim(
    "Slicing with integers and ranges, `view`, `reshape` of this contiguous `x`, transposes and `expand` "
    "return views: they share memory and know their base",
    not _not_views and not _sharing and x.contiguous() is x,
    f"not views of x: {_not_views}; copies that share memory: {_sharing}; "
    f"x.contiguous() is x: {x.contiguous() is x}",
)

_aliases = {"x.detach()": x.detach(), "x.view(torch.int32)": x.view(torch.int32)}
_caught = [
    name
    for name, y in _aliases.items()
    if not tcdoc.shares_memory(x, y) or y._is_view() or y._base is not None
]
claim(
    "`detach()` and a dtype view `view(torch.int32)` share memory without being tracked as views, so "
    "`_is_view()` and `_base` miss them. Only a memory check catches them",
    not _caught,
    f"not as said: {_caught}",
)
# sphinx_gallery_end_ignore

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

# sphinx_gallery_start_ignore
claim(
    "A contiguous tensor can be reshaped by changing its strides only, so `reshape` returns a view",
    x.is_contiguous() and tcdoc.shares_memory(x, flat) and flat._base is x,
    f"flat shares memory with x: {tcdoc.shares_memory(x, flat)}, its _base is x: {flat._base is x}",
)
# sphinx_gallery_end_ignore

# %%
# A transpose cannot be flattened with a single stride, so ``reshape`` silently copies.
# Writes into the result would no longer reach ``x``.
flat_t = x.t().reshape(12)
print(f"{tcdoc.shares_memory(x, flat_t) = }")
print(f"{flat_t._is_view() = }")

# sphinx_gallery_start_ignore
claim(
    "A transpose cannot be flattened with a single stride, so `reshape` silently copies",
    not tcdoc.shares_memory(x, flat_t) and not flat_t._is_view(),
    f"flat_t shares memory with x: {tcdoc.shares_memory(x, flat_t)}, is a view: {flat_t._is_view()}",
)
# sphinx_gallery_end_ignore

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

# sphinx_gallery_start_ignore
_error = raised(lambda: x.t().view(12))
claim(
    "To insist on a view, call {meth}`~torch.Tensor.view`, which raises instead of copying",
    isinstance(_error, RuntimeError),
    f"x.t().view(12) gave {_error!r}",
)
# sphinx_gallery_end_ignore

# %%
# A view of a view
# ----------------
# In a chain of tracked views, ``_base`` points to the first tensor of the chain, not to the
# intermediate view. A chain that starts from an untracked alias, such as ``x.detach()``, points
# to that alias, not to ``x``.
row = x[1:][0]
print(f"{row._base is x = }")
print(f"{x.detach()[1:]._base is x = }")

# sphinx_gallery_start_ignore
_chains = {
    "x[1:][0]": row,
    "x.t()[1:].transpose(0, 1)": x.t()[1:].transpose(0, 1),
    "x.unsqueeze(0)[0][1:]": x.unsqueeze(0)[0][1:],
    "x.view(4, 3)[::2].t()": x.view(4, 3)[::2].t(),
}
_elsewhere = [name for name, chain in _chains.items() if chain._base is not x]
_alias_chains = [
    name
    for name, alias in _aliases.items()
    if alias[1:]._base is not alias or alias[1:][0]._base is not alias
]
claim(
    "In a chain of tracked views, `_base` points to the first tensor of the chain, not to the intermediate "
    "view. A chain that starts from an untracked alias, such as `x.detach()`, points to that alias, not to "
    "`x`",
    not _elsewhere and not _alias_chains,
    f"_base is not x for {_elsewhere}; _base is not the alias for the chains from {_alias_chains}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# How views relate to ``clone()`` and its look-alikes: :doc:`/explanation/look-alikes`.
