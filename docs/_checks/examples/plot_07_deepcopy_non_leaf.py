"""The claims that ``examples/plot_07_deepcopy_non_leaf.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy
import warnings

import torch

from _checks._helpers import (
    deepcopy_refuses_non_leaf,
    does_not_raise,
    raises,
    results_without_gradient_are_leaves,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _deepcopy_leaf_only(matrix: Matrix) -> None:
    """Check the registry's refusals, and that products made without recording are leaves it copies."""
    deepcopy_refuses_non_leaf(matrix)
    x = torch.ones(3, requires_grad=True)
    for mode in (torch.no_grad, torch.inference_mode):
        with mode():
            product = x * 2
        expect(
            product.is_leaf and torch.equal(copy.deepcopy(product), product), f"{mode.__name__}: not copied"
        )
    raises(lambda: copy.deepcopy(x * 2))
    results_without_gradient_are_leaves(matrix)
    weight = torch.nn.Parameter(torch.ones(3), requires_grad=False)
    weight.mul_(x)  # an in-place operation with a tensor that requires grad: weight is no leaf now
    expect(not weight.is_leaf, "the Parameter is still a leaf")
    copied = copy.deepcopy(weight)
    expect(
        isinstance(copied, torch.nn.Parameter) and torch.equal(copied, weight), "the Parameter was not copied"
    )


class _Remembering(torch.nn.Module):
    def __init__(self, detach: bool) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)
        self.detach = detach
        self.last_output: torch.Tensor | None = None

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        output: torch.Tensor = self.linear(inputs)
        self.last_output = output.detach() if self.detach else output
        return output


def _remembering_module(matrix: Matrix) -> None:
    model = _Remembering(detach=False)
    does_not_raise(lambda: copy.deepcopy(model))
    model(torch.randn(1, 3))
    expect(model.last_output is not None and model.last_output.grad_fn is not None, "no history kept")
    raises(lambda: copy.deepcopy(model))
    fixed = _Remembering(detach=True)
    fixed(torch.randn(1, 3))
    does_not_raise(lambda: copy.deepcopy(fixed))


def _computed_in_init(matrix: Matrix) -> None:
    class Scaled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(torch.randn(2, 3))
            self.initial_norm = self.weight.norm()

    scaled = Scaled()
    expect(scaled.initial_norm.grad_fn is not None, "the attribute has no grad_fn")
    raises(lambda: copy.deepcopy(scaled))


def _old_weight_norm_after_passes(matrix: Matrix) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old weight_norm is deprecated
        old = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    with torch.no_grad():
        old(torch.randn(1, 3))
    does_not_raise(lambda: copy.deepcopy(old))
    old(torch.randn(1, 3))
    raises(lambda: copy.deepcopy(old))
    old.eval()  # eval mode changes nothing: with gradients enabled the weight is recorded again
    with torch.no_grad():
        old(torch.randn(1, 3))
    does_not_raise(lambda: copy.deepcopy(old))
    old(torch.randn(1, 3))
    raises(lambda: copy.deepcopy(old))
    old.requires_grad_(False)  # frozen, its weight is recomputed as a leaf even with gradients enabled
    old(torch.randn(1, 3))
    does_not_raise(lambda: copy.deepcopy(old))


def _buffer_is_copied(matrix: Matrix) -> None:
    module = torch.nn.Module()
    module.weight = torch.nn.Parameter(torch.randn(2, 3))
    module.register_buffer("initial_norm", module.weight.detach().norm())
    expect("initial_norm" in module.state_dict(), "the buffer is not in the state_dict")
    expect(module.to(torch.float64).get_buffer("initial_norm").dtype == torch.float64, "to() did not move it")
    twin = copy.deepcopy(module)
    copied, original = twin.get_buffer("initial_norm"), module.get_buffer("initial_norm")
    expect(torch.equal(copied, original) and not shares_memory(copied, original), "the buffer was not copied")


def _parametrized_weight_norm(matrix: Matrix) -> None:
    new = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    expect("weight" not in new.__dict__ and "weight" not in dict(new.named_parameters()), "weight is stored")
    new(torch.randn(1, 3))
    twin = copy.deepcopy(new)
    inputs = torch.randn(1, 3)
    expect(torch.equal(twin(inputs), new(inputs)), "the copy computes other outputs")


CLAIMS = [
    Claim(
        "leaves-only",
        _deepcopy_leaf_only,
        quote="{func}`copy.deepcopy` copies a plain tensor only if it is a leaf of the autograd graph: one "
        "you created, one computed while autograd was not recording (under {class}`torch.no_grad`), or one "
        "without a gradient (`x > 0`, `x.int()`); not one computed by a differentiable operation, with "
        "autograd recording, from tensors that require gradients. (A `Parameter` goes through a deepcopy of "
        "its own, which copies it even when it is not a leaf.)",
        scope="registry",
    ),
    Claim(
        "after-a-forward-pass",
        _remembering_module,
        quote="After one forward pass, `last_output` is a tensor with autograd history, and the same "
        "deepcopy "
        "fails",
    ),
    Claim(
        "from-the-start",
        _computed_in_init,
        quote="It fails before any forward pass: the attribute has a `grad_fn` from the start",
        scope="stated: the example's module",
    ),
    Claim(
        "evaluation-pass",
        _old_weight_norm_after_passes,
        quote="Under `torch.no_grad` it is recomputed without history, which is why such a model can copy "
        "after such a pass and fails after any forward pass with gradients enabled, `model.eval()` or not, "
        "while its parameters require gradients",
        scope="stated: no_grad against gradients enabled, in training and in eval mode, frozen or not",
    ),
    Claim(
        "buffer",
        _buffer_is_copied,
        quote=(
            "it is then part of the `state_dict` and moves with the module in `.to()`, and deepcopy copies it"
        ),
    ),
    Claim(
        "parametrization",
        _parametrized_weight_norm,
        quote="`torch.nn.utils.parametrizations.weight_norm` computes `weight` when it is read instead of "
        "storing "
        "it, so there is nothing to refuse, and the copy computes the same outputs",
        scope="stated: weight_norm's module",
    ),
]
