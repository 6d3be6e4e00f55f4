"""The claims that ``examples/plot_10_best_model.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import torch

from _checks._helpers import (
    backward,
    clones_come_apart_deepcopy_keeps,
    state_dict_references,
    state_dict_shares_both,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _sgd_step(model: torch.nn.Module) -> None:
    torch.optim.SGD(model.parameters(), lr=0.1).step()


def _adam_step(model: torch.nn.Module) -> None:
    torch.optim.Adam(model.parameters(), lr=0.1).step()


def _subtract_in_place(model: torch.nn.Module) -> None:
    for p in model.parameters():
        assert p.grad is not None
        p.sub_(0.1 * p.grad)


def _rebind_data(model: torch.nn.Module) -> None:
    for p in model.parameters():
        assert p.grad is not None
        p.data = p.data - 0.1 * p.grad


def _set(model: torch.nn.Module) -> None:
    for p in model.parameters():
        assert p.grad is not None
        p.set_(p - 0.1 * p.grad)  # type: ignore[call-overload]


def _best_model_state_dict(matrix: Matrix) -> None:
    state_dict_references(matrix)
    state_dict_shares_both(matrix)
    steps: dict[str, Callable[[torch.nn.Module], object]] = {
        "SGD.step()": _sgd_step,
        "Adam.step()": _adam_step,
        "p -= lr * p.grad": _subtract_in_place,
        "p.data = p.data - lr * p.grad": _rebind_data,
        "p.set_(p - lr * p.grad)": _set,
    }
    for name, step in steps.items():
        torch.manual_seed(0)
        model = torch.nn.Linear(4, 1)
        best = model.state_dict()
        before = {key: value.clone() for key, value in best.items()}
        backward(model(torch.ones(2, 4)).sum())
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
