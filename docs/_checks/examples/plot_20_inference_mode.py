"""The claims that ``examples/plot_20_inference_mode.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable

import torch

from _checks._helpers import (
    IN_PLACE_WRITES,
    backward,
    does_not_raise,
    inference_in_place_error,
    raises_saying,
    written_then_raised,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, ClaimFalse, expect, measured

__all__ = ["CLAIMS"]


def _extractor_features() -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    """Return a linear 'extractor', its inputs, and its output computed under inference mode."""
    extractor = torch.nn.Linear(4, 3)
    inputs = torch.ones(8, 4)
    with torch.inference_mode():
        features = extractor(inputs)
    return extractor, inputs, features


ALIAS_WRITES: dict[str, Callable[[torch.Tensor], object]] = {
    name: write for name, write in IN_PLACE_WRITES.items() if name != "indexed assignment"
} | {
    "-=": lambda t: t.__isub__(1),
    # "most of those operations": assignment through an index tensor, a mask, an ellipsis or the
    # whole slice [:] goes through silently too.
    "assignment through an index tensor": lambda t: t.__setitem__(torch.tensor([0]), 5.0),
    "assignment through a mask": lambda t: t.__setitem__(t > 0, 5.0),
    "assignment to [...]": lambda t: t.__setitem__(Ellipsis, 5.0),
}
# Assignment to [:] goes through silently on torch 2.13, and writes then raises on 2.4.1: either
# way it changes x, as both sentences allow ("most of those operations", "such as").
WHOLE_SLICE = {"[:] = ...": lambda t: t.__setitem__(slice(None), 5.0)}
# "Assignments such as x.detach()[0] = ... and x.detach()[0:1] = ...": through an alias (x.data
# too), they write, then raise.
ELEMENT_OR_SLICE = {
    "[0] = ...": IN_PLACE_WRITES["indexed assignment"],
    "[0:1] = ...": lambda t: t.__setitem__(slice(0, 1), 5.0),
}


def _made_under_inference_mode() -> dict[str, torch.Tensor]:
    """Return fresh inference tensors, made under inference mode in the ways the example meets them."""
    ordinary = torch.full((3,), 3.0)
    with torch.inference_mode():
        base = torch.full((3,), 3.0)
        return {
            "a factory's result": torch.full((3,), 3.0),
            "a computed result": ordinary * 1,
            "a layer's output": torch.nn.Linear(4, 3)(torch.ones(8, 4)),
            "detach() inside inference mode": torch.full((3,), 3.0).detach(),
            "a view made inside inference mode": base[:],
        }


def _written_then_refused_on_tensor_and_views(matrix: Matrix) -> None:
    """Check that a write into an inference tensor, or a view of it, changes it and then raises."""
    inference_in_place_error(matrix)
    writes = {**IN_PLACE_WRITES, "-=": lambda t: t.__isub__(1)}
    for mode in (torch.enable_grad, torch.no_grad):
        for name, write in writes.items():
            for kind in _made_under_inference_mode():
                for reach in ("itself", "a view"):
                    x = _made_under_inference_mode()[kind]
                    expect(x.is_inference(), f"{kind} is not an inference tensor")
                    with mode():
                        written_then_raised(
                            f"{name} on {kind}, {reach}", write, x if reach == "itself" else x[:2], x
                        )
    # the example's own step: after the -= that raised, the features are centred
    _, _, features = _extractor_features()
    try:
        features -= features.mean(0)
    except RuntimeError:
        pass
    else:
        raise ClaimFalse("centring the features in place did not raise")
    expect(bool(features.mean(0).abs().max() < 1e-6), "the -= that raised did not centre the features")


def _aliases_write_through(matrix: Matrix) -> None:
    """Check that through detach() and .data each write but [i] = v changes x silently; others raise after."""
    for mode in (torch.enable_grad, torch.no_grad):
        for alias in ("detach", "data"):
            for name, write in ALIAS_WRITES.items():
                with torch.inference_mode():
                    x = torch.full((3,), 3.0)
                seen = x.detach() if alias == "detach" else x.data
                expect(seen.is_inference(), f"x.{alias} is not an inference tensor")
                with mode():
                    does_not_raise(functools.partial(write, seen))
                expect(
                    not torch.equal(x, torch.full((3,), 3.0)), f"{name} through x.{alias} left x unchanged"
                )
            # element or slice assignment through the alias, and every write through a view of it:
            # written, then raised
            cases = [(name, write, False) for name, write in ELEMENT_OR_SLICE.items()]
            cases += [(name, write, True) for name, write in IN_PLACE_WRITES.items()]
            cases += [(name, write, True) for name, write in ALIAS_WRITES.items() if name == "-="]
            for name, write in WHOLE_SLICE.items():
                with torch.inference_mode():
                    x = torch.full((3,), 3.0)
                with mode(), contextlib.suppress(RuntimeError):
                    write(x.detach() if alias == "detach" else x.data)
                expect(
                    not torch.equal(x, torch.full((3,), 3.0)), f"{name} through x.{alias} left x unchanged"
                )
            for name, write, through_view in cases:
                with torch.inference_mode():
                    x = torch.full((3,), 3.0)
                seen = x.detach() if alias == "detach" else x.data
                with mode():
                    where = f"a view of x.{alias}" if through_view else f"x.{alias}"
                    written_then_raised(
                        f"{name} through {where}", write, seen[0:2] if through_view else seen, x
                    )


def _inference_records_nothing(matrix: Matrix) -> None:
    extractor, inputs, features = _extractor_features()
    expect(features.grad_fn is None and not features.requires_grad, "autograd recorded the extractor")
    expect(features.is_inference(), "the output is no inference tensor")
    with torch.inference_mode():
        computed = {
            "relu": torch.relu(inputs),
            "matmul": inputs @ inputs.T,
            "sum": inputs.sum(),
            "a network": torch.nn.Sequential(extractor, torch.nn.ReLU())(inputs),
        }
        # the words say "the features it computes" (its Linear layer); a layer that returns its
        # input computes nothing
        passed = torch.nn.Identity()(inputs)
    for name, tensor in computed.items():
        expect(tensor.is_inference(), f"{name} under inference mode is no inference tensor")
    expect(passed is inputs and not passed.is_inference(), "Identity() computed a new tensor")
    expect(measured(matrix, "detach", "inference").keeps_inference, "detach() dropped the mark")


def _head_on_inference_features_stops(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    head = torch.nn.Linear(3, 1)
    raises_saying(lambda: head(features), "Inference tensors cannot be saved for backward")


def _head_on_detached_features_stops(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    detached = features.detach()
    expect(detached.is_inference() and shares_memory(features, detached), "detach() is no inference view")
    report = measured(matrix, "detach", "inference")
    expect(report.new_bytes == 0 and report.keeps_inference, f"detach() on inference: {report}")
    raises_saying(lambda: torch.nn.Linear(3, 1)(detached), "Inference tensors cannot be saved for backward")


def _head_trains_on_clone(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    usable = features.clone()
    expect(not usable.is_inference() and not shares_memory(features, usable), "the clone is no ordinary copy")
    head = torch.nn.Linear(3, 1)
    backward(head(usable).sum())
    expect(head.weight.grad is not None, "the head did not get a gradient")


def _drawn_inference_copies(matrix: Matrix) -> None:
    detached, cloned = measured(matrix, "detach", "inference"), measured(matrix, "clone", "inference")
    expect(detached.shares_storage and detached.keeps_inference, f"detach() measured {detached}")
    expect(not cloned.shares_storage and cloned.keeps_inference is False, f"clone() measured {cloned}")


def _no_grad_features_are_ordinary(matrix: Matrix) -> None:
    extractor, inputs, _ = _extractor_features()
    with torch.no_grad():
        plain = extractor(inputs)
    expect(not plain.is_inference() and plain.grad_fn is None, "no_grad gave an inference tensor, or history")
    backward(torch.nn.Linear(3, 1)(plain).sum())


CLAIMS = [
    Claim(
        "records-nothing",
        _inference_records_nothing,
        quote="Running a frozen network under {py:class}`torch.inference_mode` computes features without "
        "autograd "
        "recording anything. The features it computes are *inference tensors*, and they carry "
        "that mark with them",
    ),
    Claim(
        "first-step-stops",
        _head_on_inference_features_stops,
        quote="Train a small model on top of such features and the first step stops with an error",
    ),
    Claim(
        "in-place",
        _written_then_refused_on_tensor_and_views,
        quote="Outside inference mode, an in-place operation on an inference tensor made under inference "
        "mode, or on a view of it (`add_`, `mul_`, `copy_`, `fill_`, `zero_`, indexed assignment, and `-=` "
        "here), raises an error, but only after it has written. The error suggests the fix: a clone",
        scope="stated: outside inference mode; add_, mul_, copy_, fill_, zero_ and indexed assignment",
    ),
    Claim(
        "aliases-write",
        _aliases_write_through,
        quote="Through the aliases `x.detach()` and `x.data`, made outside inference mode though also "
        "marked `is_inference()`, most of those operations change `x` without an error. Assignments such "
        "as `x.detach()[0] = ...` and `x.detach()[0:1] = ...`, and any of those operations through a view "
        "of an alias, change `x` and then raise",
        scope="stated: the in-place operations listed above, with and without grad",
    ),
    Claim(
        "not-saved",
        _head_on_inference_features_stops,
        quote="Its first forward pass already stops: the layer's weight requires gradients, so autograd "
        "would have "
        "to keep the features for the backward pass, and torch refuses to save an inference tensor for it",
        scope="stated: the layer's forward pass, whose weight requires gradients",
    ),
    Claim(
        "detach-keeps-mark",
        _head_on_detached_features_stops,
        quote='`detach()` is the usual answer to "keep this tensor out of autograd", and it copies '
        "nothing. But "
        "the detached tensor is still an inference tensor: it keeps the mark, and the same forward pass "
        "stops in the same way",
    ),
    Claim(
        "clone-trains",
        _head_trains_on_clone,
        quote="A clone made outside inference mode is an ordinary tensor with memory of its own, and the "
        "head "
        "trains on it",
    ),
    Claim(
        "drawn",
        _drawn_inference_copies,
        quote="the detached tensor reads the same bytes and is still marked `is_inference=True`; the "
        "clone has its "
        "own storage and no mark",
    ),
    Claim(
        "no-grad",
        _no_grad_features_are_ordinary,
        quote="A second fix: {py:class}`torch.no_grad` also keeps autograd from recording the extractor, "
        "and its results are ordinary tensors, so no copy is needed",
    ),
]
