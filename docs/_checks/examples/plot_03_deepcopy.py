"""The claims that ``examples/plot_03_deepcopy.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import (
    backward,
    deepcopy_grad_and_attribute_values,
    deepcopy_refuses_non_leaf,
    no_grad_product_is_a_copyable_leaf,
    results_without_gradient_are_leaves,
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


def _plain_copy_rules(matrix: Matrix) -> None:
    """Check new memory, .grad and attributes, a new leaf; and that a Parameter gets neither."""
    deepcopy_grad_and_attribute_values(matrix)
    x = torch.ones(3, requires_grad=True)
    y = copy.deepcopy(x)
    ok = y.is_leaf and y.grad_fn is None and y.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    expect(ok, "the deep copy is not a new leaf in new memory")


def _refuses_non_leaves_and_their_grads(matrix: Matrix) -> None:
    deepcopy_refuses_non_leaf(matrix)
    deepcopy_grad_and_attribute_values(matrix)  # a .grad with history among them


def _non_leaf_refused(matrix: Matrix) -> None:
    deepcopy_refuses_non_leaf(matrix)
    results_without_gradient_are_leaves(matrix)


CLAIMS = [
    Claim(
        "plain-rules",
        _plain_copy_rules,
        quote="the copy of a plain tensor gets new memory, a copy of `.grad` and of any Python attributes, "
        "and becomes a new leaf with no history (a `Parameter` gets neither `.grad` nor attributes: "
        "{doc}`plot_09_parameter`)",
        scope="stated: a plain tensor, against a Parameter; a string and a list attribute",
    ),
    Claim(
        "refuses-non-leaves",
        _refuses_non_leaves_and_their_grads,
        quote="on a single plain tensor it refuses tensors that are not leaves, and a leaf whose `.grad` "
        "has a history of its own, as `backward(create_graph=True)` can leave it",
        scope="stated: tensors that are not leaves, a .grad with history",
    ),
    Claim(
        "grad-and-attribute",
        deepcopy_grad_and_attribute_values,
        quote="`.grad` was copied too, into a new tensor, and so was the Python attribute, the way "
        "`copy.deepcopy` copies any value: a string is shared, since it cannot change, and a list would be "
        "copied into a new one",
        scope="stated: a string and a list attribute",
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
        _non_leaf_refused,
        quote="A tensor that a differentiable operation such as `x * 2` made from a tensor that requires "
        "gradients, while autograd records, is not a leaf, and deepcopy refuses it. (A result without a "
        "gradient, such as `x > 0` or `x.int()`, is a leaf, and deepcopy copies it.)",
        scope="stated: differentiable results against results without a gradient, with grad mode on",
    ),
    Claim(
        "no-grad-leaf",
        no_grad_product_is_a_copyable_leaf,
        quote="The same product computed under `torch.no_grad()` records no history: it is a leaf, and "
        "deepcopy copies it",
        scope="stated: the example's product, under no_grad",
    ),
]
