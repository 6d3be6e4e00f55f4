"""The claims that ``examples/gpu/plot_gpu_01_copies.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _deepcopy_with_grad_costs_twice(matrix: Matrix) -> None:
    x = torch.randn(64, 64, requires_grad=True)
    x.grad = torch.ones_like(x)
    deep = copy.deepcopy(x)
    expect(deep.grad is not None and deep.grad is not x.grad, "deepcopy did not copy .grad")
    assert deep.grad is not None
    held = deep.untyped_storage().nbytes() + deep.grad.untyped_storage().nbytes()
    values = x.detach().clone().untyped_storage().nbytes()
    expect(held == 2 * values, f"the deep copy holds {held} bytes, the values {values}")


CLAIMS = [
    Claim(
        "deepcopy-grad",
        _deepcopy_with_grad_costs_twice,
        quote="`copy.deepcopy` also copies `.grad`. Once `x` has a gradient, a deep copy costs twice as "
        "much as "
        "`x.detach().clone()`, which copies the values only",
        scope="stated: the bytes of x and of its .grad",
    ),
]
