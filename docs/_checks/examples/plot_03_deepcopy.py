"""The claims that ``examples/plot_03_deepcopy.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import (
    backward,
    deepcopy_plain_grad_and_attributes,
    deepcopy_refuses_non_leaf,
    no_grad_product_is_a_copyable_leaf,
)
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _deepcopy_starts_with_old_grad(matrix: Matrix) -> None:
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    x.grad = torch.ones(2, 3)
    y = copy.deepcopy(x)
    expect(y.grad is not None and torch.equal(y.grad, torch.ones(2, 3)), "the copy did not start with x.grad")
    backward((2 * y).sum())
    expect(torch.equal(y.grad, torch.full((2, 3), 3.0)), f"y.grad holds {y.grad}")  # type: ignore[arg-type]
    expect(torch.equal(x.grad, torch.ones(2, 3)), "x.grad changed")


CLAIMS = [
    Claim(
        "refuses-non-leaves",
        deepcopy_refuses_non_leaf,
        quote="on a single tensor it refuses tensors that are not leaves",
        scope="stated: tensors that are not leaves",
    ),
    Claim(
        "grad-and-attribute",
        deepcopy_plain_grad_and_attributes,
        quote="`.grad` and the Python attribute were copied too, into new objects",
    ),
    Claim(
        "starts-with-old-grad",
        _deepcopy_starts_with_old_grad,
        quote="a deep copy starts out with a copy of the old `.grad`, and the backward pass adds its "
        "gradient, 2, "
        "to it, so `y.grad` holds 3s, not 2s",
    ),
    Claim(
        "non-leaf",
        deepcopy_refuses_non_leaf,
        quote="A tensor that an operation made from a tensor that requires gradients, while autograd "
        "records, is not a leaf, and deepcopy refuses it",
        scope="stated: made with grad mode on from a tensor that requires gradients",
    ),
    Claim(
        "no-grad-leaf",
        no_grad_product_is_a_copyable_leaf,
        quote="The same product computed under `torch.no_grad()` records no history: it is a leaf, and "
        "deepcopy copies it",
        scope="stated: the example's product, under no_grad",
    ),
]
