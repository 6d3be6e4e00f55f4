"""The claims that ``examples/plot_20_inference_mode.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch

from _checks._helpers import IN_PLACE_WRITES, backward, inference_in_place_error, raises_saying
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect, measured

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
} | {"-=": lambda t: t.__isub__(1)}


def _refused_on_tensor_and_views(matrix: Matrix) -> None:
    """Check the refusal on the tensor (the shared helper) and on a view, with and without grad."""
    inference_in_place_error(matrix)
    for mode in (torch.enable_grad, torch.no_grad):
        for write in {**IN_PLACE_WRITES, "-=": lambda t: t.__isub__(1)}.values():
            with torch.inference_mode():
                x = torch.ones(3)
            with mode():
                raises_saying(
                    functools.partial(write, x[:2]),
                    "Inplace update to inference tensor outside InferenceMode",
                )
                raises_saying(
                    functools.partial(write, x), "Inplace update to inference tensor outside InferenceMode"
                )


def _aliases_write_through(matrix: Matrix) -> None:
    """Check that detach() and .data are inference tensors whose in-place writes change x, but [i] = v."""
    for mode in (torch.enable_grad, torch.no_grad):
        for alias in ("detach", "data"):
            for name, write in ALIAS_WRITES.items():
                with torch.inference_mode():
                    x = torch.full((3,), 3.0)
                seen = x.detach() if alias == "detach" else x.data
                expect(seen.is_inference(), f"x.{alias} is not an inference tensor")
                with mode():
                    write(seen)
                expect(
                    not torch.equal(x, torch.full((3,), 3.0)), f"{name} through x.{alias} left x unchanged"
                )
            with torch.inference_mode():
                x = torch.ones(3)
            seen = x.detach() if alias == "detach" else x.data
            with mode():
                raises_saying(
                    functools.partial(seen.__setitem__, 0, 5.0), "Inplace update to inference tensor"
                )
                for write in ALIAS_WRITES.values():
                    raises_saying(
                        functools.partial(write, seen[0:2]), "Inplace update to inference tensor"
                    )  # a view of the alias: refused again


def _inference_records_nothing(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    expect(features.grad_fn is None and not features.requires_grad, "autograd recorded the extractor")
    expect(features.is_inference(), "the output is no inference tensor")
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
        "recording anything. The tensors it returns are *inference tensors*, and they carry that mark with "
        "them",
    ),
    Claim(
        "first-step-stops",
        _head_on_inference_features_stops,
        quote="Train a small model on top of such features and the first step stops with an error",
    ),
    Claim(
        "in-place",
        _refused_on_tensor_and_views,
        quote="Outside inference mode, torch refuses in-place operations on a tensor made under inference "
        "mode and on its views (`add_`, `mul_`, `copy_`, `fill_`, `zero_`, indexed assignment, and `-=` "
        "here), and its error suggests exactly the fix: a clone",
        scope="stated: outside inference mode; add_, mul_, copy_, fill_, zero_ and indexed assignment",
    ),
    Claim(
        "aliases-write",
        _aliases_write_through,
        quote="The refusal guards the tensor, not its memory: the aliases `x.detach()` and `x.data`, made "
        "outside inference mode though also marked `is_inference()`, still change it with every one of "
        "those operations but indexed assignment. Views of those aliases are refused again",
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
