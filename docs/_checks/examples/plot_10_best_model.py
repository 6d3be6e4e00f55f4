"""The claims that ``examples/plot_10_best_model.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import (
    clones_come_apart_deepcopy_keeps,
    state_dict_references,
    state_dict_shares_both,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _best_model_state_dict(matrix: Matrix) -> None:
    state_dict_references(matrix)
    state_dict_shares_both(matrix)


def _state_dict_deepcopy_separate(matrix: Matrix) -> None:
    model = torch.nn.Linear(4, 1)
    best = copy.deepcopy(model.state_dict())
    expect(not any(shares_memory(best[k], v) for k, v in model.state_dict().items()), "a tensor is shared")


CLAIMS = [
    Claim(
        "last-weights",
        _best_model_state_dict,
        quote="`state_dict` returns tensors that share memory with the model's parameters, so every "
        "training step "
        "changes `best` as well",
        scope="stated: the example's training loop",
    ),
    Claim(
        "detached",
        _best_model_state_dict,
        quote='Because `best["weight"]` is the parameter\'s memory, detached: a new tensor object '
        "that shares "
        "storage and version counter with `model.weight`, as `detach()` gives",
    ),
    Claim(
        "deepcopy",
        _state_dict_deepcopy_separate,
        quote="`copy.deepcopy` copies every tensor of the dictionary into memory of its own",
        scope="stated: the example's state_dict",
    ),
    Claim(
        "clones-separately",
        clones_come_apart_deepcopy_keeps,
        quote="Unlike deepcopy, it copies tensors that share memory separately",
    ),
]
