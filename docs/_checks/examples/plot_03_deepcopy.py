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


def _grad_and_attributes_deep_copied(matrix: Matrix) -> None:
    """Check .grad into a new tensor, attributes as copy.deepcopy copies values; a Parameter keeps neither."""
    deepcopy_plain_grad_and_attributes(matrix)
    for requires_grad in (True, False):
        x = torch.ones(3, requires_grad=requires_grad)
        if requires_grad:
            x.grad = torch.full((3,), 2.0)
        x.note, x.tags = "a string", ["a", "list"]  # type: ignore[attr-defined]
        y = copy.deepcopy(x)
        if requires_grad:
            grad, old = y.grad, x.grad
            expect(grad is not None and old is not None and grad is not old, "no new .grad")
            assert grad is not None
            assert old is not None
            expect(torch.equal(grad, old), "the copied .grad differs")
        expect(y.note is x.note, "the string attribute was duplicated")  # type: ignore[attr-defined]
        expect(y.tags == x.tags and y.tags is not x.tags, "the list attribute is not a new list")  # type: ignore[attr-defined]
    parameter = torch.nn.Parameter(torch.ones(3))
    parameter.grad, parameter.note = torch.ones(3), "a string"  # type: ignore[attr-defined]
    kept = copy.deepcopy(parameter)
    expect(kept.grad is None and not hasattr(kept, "note"), "a Parameter's deepcopy kept .grad or attributes")


def _plain_copy_rules(matrix: Matrix) -> None:
    """Check new memory, .grad and attributes, a new leaf; and that a Parameter gets neither."""
    _grad_and_attributes_deep_copied(matrix)
    x = torch.ones(3, requires_grad=True)
    y = copy.deepcopy(x)
    ok = y.is_leaf and y.grad_fn is None and y.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    expect(ok, "the deep copy is not a new leaf in new memory")


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
        deepcopy_refuses_non_leaf,
        quote="on a single tensor it refuses tensors that are not leaves",
        scope="stated: tensors that are not leaves",
    ),
    Claim(
        "grad-and-attribute",
        _grad_and_attributes_deep_copied,
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
