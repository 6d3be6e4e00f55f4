"""The claims that ``examples/plot_11_ema_target_network.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from _checks._helpers import backward, tied_model_deepcopy, tied_module
from tcdoc import Matrix
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


CLAIMS = [
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
