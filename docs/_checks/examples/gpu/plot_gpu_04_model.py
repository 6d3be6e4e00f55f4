"""The claims that ``examples/gpu/plot_gpu_04_model.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import module_deepcopy_drops_grads
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _gpu_module_deepcopy(matrix: Matrix) -> None:
    model = torch.nn.Linear(8, 2).to("cuda")
    twin = copy.deepcopy(model)
    pairs = list(zip(model.parameters(), twin.parameters(), strict=True))
    expect(all(q.device == p.device for p, q in pairs), "the copy is on another device")
    expect(not any(shares_memory(p, q) for p, q in pairs), "a copied parameter shares memory")


CLAIMS = [
    Claim(
        "no-shared-parameter",
        _gpu_module_deepcopy,
        quote="and none of its parameters shares memory with the original's",
        needs_cuda=True,
    ),
    Claim(
        "grad-not-copied",
        module_deepcopy_drops_grads,
        quote="`deepcopy` of a module copies each parameter's values but not its `.grad`",
    ),
    Claim(
        "same-device",
        _gpu_module_deepcopy,
        quote="`copy.deepcopy` always copies to the device the model is on",
        scope="stated: a model on one CUDA device",
        needs_cuda=True,
    ),
]
