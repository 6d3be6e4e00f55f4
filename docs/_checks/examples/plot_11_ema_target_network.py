"""The claims that ``examples/plot_11_ema_target_network.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from _checks._helpers import backward, tied_model_deepcopy, tied_module
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _deepcopy_target_gets_grads(matrix: Matrix) -> None:
    """Check that a deep copy keeps requires_grad, so backward fills its .grad, no_grad updates or not.

    Also that requires_grad_(False) is what keeps .grad empty, with the same loss.
    """
    torch.manual_seed(0)
    online = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    inputs, next_inputs = torch.randn(16, 4), torch.randn(16, 4)
    for updated in (False, True):
        target = copy.deepcopy(online)
        expect(all(p.requires_grad for p in target.parameters()), "the deep copy dropped requires_grad")
        if updated:
            with torch.no_grad():
                for t, o in zip(target.parameters(), online.parameters(), strict=True):
                    t.lerp_(o, 0.1)
        backward(nn.functional.mse_loss(online(inputs), target(next_inputs)))
        where = "after a no_grad update" if updated else "as copied"
        expect(all(p.grad is not None for p in target.parameters()), f"{where}: no .grad on the target")
    frozen = copy.deepcopy(online).requires_grad_(False)
    backward(nn.functional.mse_loss(online(inputs), frozen(next_inputs)))
    expect(all(p.grad is None for p in frozen.parameters()), "requires_grad_(False) still got a .grad")


def _frozen_copy_is_the_target(matrix: Matrix) -> None:
    """Own memory, no gradients, changed by hand only; except a BatchNorm copy in training mode."""
    torch.manual_seed(0)
    online = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    target = copy.deepcopy(online).requires_grad_(False)
    pairs = list(zip(target.state_dict().values(), online.state_dict().values(), strict=True))
    expect(not any(shares_memory(t, o) for t, o in pairs), "the target shares memory with the online model")
    before = [t.clone() for t in target.state_dict().values()]
    backward(nn.functional.mse_loss(online(torch.randn(16, 4)), target(torch.randn(16, 4))))
    expect(all(p.grad is None for p in target.parameters()), "the target got gradients")
    expect(
        all(torch.equal(b, t) for b, t in zip(before, target.state_dict().values(), strict=True)), "changed"
    )
    normed = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))
    for training in (True, False):
        frozen = copy.deepcopy(normed).requires_grad_(False).train(training)
        with torch.no_grad():
            frozen(torch.randn(16, 4))
        batch_norm = frozen[1]
        assert isinstance(batch_norm, nn.BatchNorm1d)
        moved = not torch.equal(batch_norm.running_mean, normed[1].running_mean)  # type: ignore[arg-type]
        expect(moved == training, f"train({training}): the running mean {'moved' if moved else 'stayed'}")


CLAIMS = [
    Claim(
        "frozen-copy",
        _frozen_copy_is_the_target,
        quote="`copy.deepcopy(model).requires_grad_(False)`, updated under {class}`torch.no_grad`, "
        "gives exactly that for a model whose tensors are all parameters and buffers, and whose forward "
        "passes change no buffers, such as this one. In training mode, a forward pass through a BatchNorm "
        "layer that tracks running statistics also changes the copy's, even under `torch.no_grad`, so such "
        "a copy also needs `eval()`",
        scope="stated: the example's model, against one with a BatchNorm layer in training and eval mode",
    ),
    Claim(
        "deepcopy-keeps-requires-grad",
        _deepcopy_target_gets_grads,
        quote="a deep copy keeps `requires_grad`, so without it the same `loss.backward()` fills the "
        "target's `.grad` too, even if every update of the target runs under {class}`torch.no_grad`",
        scope="stated: the example's target, updated under no_grad or not at all",
    ),
    Claim(
        "tie-kept",
        tied_module,
        quote="A deep copy of the whole model keeps the tie inside the copy, because one deepcopy call "
        "copies a "
        "shared object once (see {doc}`plot_08_deepcopy_aliasing`), and shares nothing with the original",
    ),
    Claim(
        "separate-copies",
        tied_model_deepcopy,
        quote="So a change to one of the separate copies no longer reaches the other, where in the "
        "deep-copied "
        "model it reaches both uses of the weight",
    ),
]
