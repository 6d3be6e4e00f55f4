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
    steps = {
        "SGD.step()": lambda model: torch.optim.SGD(model.parameters(), lr=0.1).step(),
        "Adam.step()": lambda model: torch.optim.Adam(model.parameters(), lr=0.1).step(),
        "p -= lr * p.grad": lambda model: [p.sub_(0.1 * p.grad) for p in model.parameters()],
        "p.data = p.data - lr * p.grad": lambda model: [
            setattr(p, "data", p.data - 0.1 * p.grad) for p in model.parameters()
        ],
        "p.set_(p - lr * p.grad)": lambda model: [p.set_(p - 0.1 * p.grad) for p in model.parameters()],
    }
    for name, step in steps.items():
        torch.manual_seed(0)
        model = torch.nn.Linear(4, 1)
        best = model.state_dict()
        before = {key: value.clone() for key, value in best.items()}
        model(torch.ones(2, 4)).sum().backward()  # type: ignore[no-untyped-call]
        with torch.no_grad():
            step(model)
        changed = not all(torch.equal(best[key], before[key]) for key in best)
        in_place = name in ("SGD.step()", "Adam.step()", "p -= lr * p.grad")
        expect(changed == in_place, f"{name}: best {'changed' if changed else 'stayed'}")


def _state_dict_deepcopy_separate(matrix: Matrix) -> None:
    model = torch.nn.Linear(4, 1)
    best = copy.deepcopy(model.state_dict())
    expect(not any(shares_memory(best[k], v) for k, v in model.state_dict().items()), "a tensor is shared")


CLAIMS = [
    Claim(
        "last-weights",
        _best_model_state_dict,
        quote="`state_dict` returns tensors that share memory with the model's parameters, so every "
        "training step that writes new values into them in place, as an optimizer's `step()` does, changes "
        "`best` as well",
        scope="stated: in-place writes (optimizers, -=), against steps that rebind .data or set_()",
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
