"""The claims that ``examples/plot_15_views_vs_copies.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import torch

from _checks._helpers import raises
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _catalogue(matrix: Matrix) -> None:
    x = torch.zeros(3, 4)
    views = [x.view(4, 3), x.reshape(4, 3), x.t(), x[1:], x[0], x.expand(2, 3, 4)]
    for y in views:
        expect(shares_memory(x, y) and y._is_view() and y._base is x, f"a view misbehaves: {y.shape}")
    for y in (x.detach(), x.view(torch.int32)):
        expect(
            shares_memory(x, y) and not y._is_view() and y._base is None, "detach or dtype view is tracked"
        )
    flat = x.reshape(12)
    expect(shares_memory(x, flat) and flat._base is x, "reshape of a contiguous tensor copied")
    flat_t = x.t().reshape(12)
    expect(not shares_memory(x, flat_t) and not flat_t._is_view(), "reshape of a transpose did not copy")
    raises(lambda: x.t().view(12))
    expect(x[1:][0]._base is x, "_base of a view of a view is not the owner")
    for chained in (x[1:][0], x.t()[1:].transpose(0, 1), x.unsqueeze(0)[0][1:], x.view(4, 3)[::2].t()):
        expect(chained._base is x, "_base of a chain of views is not its first tensor")
    for alias in (x.detach(), x.view(torch.int32)):
        expect(
            alias[1:]._base is alias and alias[1:][0]._base is alias, "a view of an alias has another base"
        )
    for y in (x.clone(), x.t().contiguous(), x[[0, 2]], x.flip(0), x.to(torch.float64), x + 0):
        expect(not shares_memory(x, y), "a copying operation shares memory")
    expect(x.contiguous() is x, "contiguous() of a contiguous tensor is not x")


def _three_ways(matrix: Matrix) -> None:
    """Check the catalogue's views, and the reader's break: a view of an inference tensor is untracked."""
    _catalogue(matrix)
    with torch.inference_mode():
        inference = torch.zeros(3, 4)
        views = {"inside": inference[1:], "of a chain": inference[1:][0]}
    views["outside"] = inference[1:]
    for name, view in views.items():
        expect(shares_memory(inference, view), f"{name}: the view of an inference tensor shares no memory")
        expect(
            not view._is_view() and view._base is None, f"{name}: the view of an inference tensor is tracked"
        )


CLAIMS = [
    Claim(
        "three-ways",
        _three_ways,
        quote="A view shares memory with its source ({func}`tcdoc.shares_memory`), reports `_is_view()` "
        "and keeps a reference to its base in `_base` (for a view of a view, the first tensor of the "
        "chain, below)",
    ),
    Claim(
        "inference-views",
        _three_ways,
        quote="A view of an inference tensor, made under {class}`torch.inference_mode`, has neither",
        scope="stated: views of an inference tensor",
    ),
    Claim(
        "views",
        _catalogue,
        quote="Slicing with integers and ranges, `view`, `reshape` of this contiguous `x`, transposes and "
        "`expand` return views: they share memory and know their base",
    ),
    Claim(
        "untracked",
        _catalogue,
        quote="`detach()` and a dtype view `view(torch.int32)` share memory without being tracked as "
        "views, so "
        "`_is_view()` and `_base` miss them. Only a memory check catches them",
        scope="stated: of the three ways the page shows",
    ),
    Claim(
        "reshape-view",
        _catalogue,
        quote="A contiguous tensor can be reshaped by changing its strides only, so `reshape` returns a view",
        scope="stated: a contiguous tensor",
    ),
    Claim(
        "reshape-copies",
        _catalogue,
        quote="A transpose cannot be flattened with a single stride, so `reshape` silently copies",
    ),
    Claim(
        "view-raises",
        _catalogue,
        quote="To insist on a view, call {meth}`~torch.Tensor.view`, which raises instead of copying",
    ),
    Claim(
        "base",
        _catalogue,
        quote="In a chain of tracked views, `_base` points to the first tensor of the chain, not to the "
        "intermediate view. A chain that starts from an untracked alias, such as `x.detach()`, points to "
        "that alias, not to `x`",
    ),
]
