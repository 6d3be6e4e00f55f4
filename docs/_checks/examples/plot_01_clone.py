"""The claims that ``examples/plot_01_clone.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from _checks._helpers import IN_PLACE_WRITES, backward, clone_copies_and_records
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]

INPUTS: dict[str, Callable[[], torch.Tensor]] = {
    "a leaf": lambda: torch.ones(3, requires_grad=True),
    "a Parameter": lambda: torch.nn.Parameter(torch.ones(3)),
    "a complex leaf": lambda: torch.ones(3, dtype=torch.complex64, requires_grad=True),
}
"""The tensors the heads' checks start from: the features are computed from each."""


def _clone_unrecorded_without_grad(matrix: Matrix) -> None:
    for mode in (torch.no_grad, torch.inference_mode):
        x = torch.ones(3, requires_grad=True)
        with mode():
            y = x.clone()
        expect(
            y.is_leaf and y.grad_fn is None and not y.requires_grad,
            f"{mode.__name__}: the clone was recorded",
        )


def _heads_add_gradients(matrix: Matrix) -> None:
    """Two heads on one tensor, leaf or computed: its gradient is the sum of the heads' own."""
    for kind, make in INPUTS.items():
        for computed in (False, True):
            grads = []
            for heads in ((0, 1), (0,), (1,)):
                w = make()
                features = w * 2 if computed else w
                outputs = [(features * 3).sum(), (features * features).sum()]
                total = outputs[heads[0]] + outputs[1] if heads == (0, 1) else outputs[heads[0]]
                backward(total.real if total.is_complex() else total)
                assert w.grad is not None
                grads.append(w.grad)
            both, first, second = grads
            where = f"{kind}, {'computed features' if computed else 'read directly'}"
            expect(torch.allclose(both, first + second), f"{where}: {both} is not {first} + {second}")


def _clone_needed_for_in_place_head(matrix: Matrix) -> None:
    """Without a clone the backward pass raises, or (saved-tensor hooks) computes a wrong gradient."""
    writes: dict[str, Callable[[torch.Tensor], object]] = {**IN_PLACE_WRITES, "relu_": torch.Tensor.relu_}
    for name, write in writes.items():
        grads = {}
        for clone in (True, False):
            w = torch.ones(3, requires_grad=True)
            features = w * 2
            a = (features * features).sum()
            b_input = features.clone() if clone else features
            write(b_input)
            try:
                backward(a + b_input.sum())
            except RuntimeError as error:
                expect(not clone, f"{name}: the backward pass raised with a clone: {error}")
                expect("modified by an inplace operation" in str(error), f"{name}: {error}")
                continue
            expect(clone, f"{name}: the backward pass ran without a clone")
            assert w.grad is not None
            grads[clone] = w.grad
        if name == "relu_":
            continue  # on these positive features relu_ changes no value, so no gradient can be wrong
        w = torch.ones(3, requires_grad=True)
        with torch.autograd.graph.save_on_cpu():
            features = w * 2
            a = (features * features).sum()
        write(features)
        backward(a + features.sum())
        expect(
            w.grad is not None and not torch.equal(w.grad, grads[True]),
            f"{name}: under save_on_cpu, no clone gave the gradient a clone gives ({w.grad})",
        )


CLAIMS = [
    Claim(
        "stays-in-computation",
        clone_copies_and_records,
        quote="With gradients enabled, `y = x.clone()` of a tensor `x` that requires them makes a copy of "
        "the data that stays part of the computation",
    ),
    Claim(
        "no-grad-unrecorded",
        _clone_unrecorded_without_grad,
        quote="Under {class}`torch.no_grad`, the clone is not recorded: it is a leaf with no `grad_fn`",
    ),
    Claim(
        "heads-add",
        _heads_add_gradients,
        quote="Two heads of a network that read the same tensor need no copy of it: autograd adds the "
        "gradients that reach it from both",
    ),
    Claim(
        "clone-for-in-place-head",
        _clone_needed_for_in_place_head,
        quote="A clone is needed where one head changes its input in place while the other head saved that "
        "input for its backward pass. Head `a` multiplies `features` by itself, which saves it; head `b` "
        "applies `relu_` to it. Without a clone the backward pass raises; with one it runs",
    ),
]
