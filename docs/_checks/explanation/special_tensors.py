"""The checks of the claims on ``docs/explanation/special-tensors.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

import io

import torch

from _checks._helpers import (
    backward,
    hooks_not_carried,
    hooks_warning,
    inference_in_place_error,
    inference_mark,
    inference_not_saved,
    raises_saying,
    zero_dim_values,
)
from _checks.reference.changes_between_releases import load_weights_only
from tcdoc import Matrix, shares_memory
from tcdoc._registry import TaggedTensor
from tcdoc.claims import Claim, expect, measured

__all__ = ["CLAIMS"]


def _inference_has_no_counter(matrix: Matrix) -> None:
    with torch.inference_mode():
        x = torch.ones(2)
    raises_saying(lambda: x._version, "Inference tensors do not track version counter")
    for op in ("detach", "clone"):
        expect(measured(matrix, op, "inference").shares_version_counter is None, f"{op}: not n/a")


def _conj_lazy(matrix: Matrix) -> None:
    values = torch.tensor([1 + 2j, 3 - 1j])
    lazy = values.conj()
    expect(lazy.is_conj() and shares_memory(values, lazy), "conj() is not a view with the bit set")
    for op in ("detach", "view", "slice"):
        expect(measured(matrix, op, "conj").keeps_conj, f"{op} dropped the conjugate bit")
    for op in ("clone", "deepcopy"):
        report = measured(matrix, op, "conj")
        expect(report.keeps_conj is False and not report.shares_storage, f"{op} on conj: {report}")


def _expanded_materialised(matrix: Matrix) -> None:
    for op in ("clone", "contiguous"):
        report = measured(matrix, op, "expanded")
        ok = report.overlaps_itself is False and not report.shares_storage and bool(report.new_bytes)
        expect(ok, f"{op} on an expanded tensor measured {report}")
    expect(measured(matrix, "detach", "expanded").overlaps_itself, "detach() of it does not overlap")
    wide = torch.arange(3.0).expand(2, 3).clone()
    wide.add_(1)


def _integer_refuses_grad(matrix: Matrix) -> None:
    for op in ("requires_grad_", "parameter_wrap"):
        row = matrix.get(op, "integer")
        expect(row.error is not None and "floating point" in row.error.message, f"{op}: {row.outcome}")
    report = measured(matrix, "float", "integer")
    expect(report.new_object and not report.shares_storage, f"float() of an integer tensor: {report}")


def _sparse_memory(matrix: Matrix) -> None:
    for op in ("view", "reshape", "expand"):
        expect(matrix.get(op, "sparse").error is not None, f"{op} did not raise on a sparse tensor")
    expect(measured(matrix, "detach", "sparse").shares_storage, "detach() of a sparse tensor copied")
    cloned = measured(matrix, "clone", "sparse")
    expect(not cloned.shares_storage and bool(cloned.new_bytes), f"clone of a sparse tensor: {cloned}")


def _subclass_kept_or_lost(matrix: Matrix) -> None:
    for op in ("clone", "detach", "detach_clone", "slice"):
        name = measured(matrix, op, "subclass").result_type
        expect(name == TaggedTensor.__name__, f"{op} returned a {name}")
    for op in ("torch_tensor", "tensor_from_list", "numpy_roundtrip"):
        name = measured(matrix, op, "subclass").result_type
        expect(name == "Tensor", f"{op} returned a {name}")


def _subclass_deepcopy_and_load(matrix: Matrix) -> None:
    deep = matrix.get("deepcopy", "subclass")
    expect(deep.error is not None and "subclass" in deep.error.message, f"deepcopy: {deep.outcome}")
    load_weights_only(matrix)  # "since torch 2.6": every release measured, the build's own among them
    buffer = io.BytesIO()
    torch.save(torch.ones(2).as_subclass(TaggedTensor), buffer)
    buffer.seek(0)
    again = torch.load(buffer, weights_only=False)
    expect(type(again) is TaggedTensor, "weights_only=False did not load the subclass")


def _inference_not_saved_unless_nothing_is(matrix: Matrix) -> None:
    inference_not_saved(matrix)
    with torch.inference_mode():
        features = torch.ones(3)
    weight = torch.ones(3, requires_grad=True)
    backward((weight + features).sum())  # add saves neither input
    expect(weight.grad is not None, "weight + features did not let the gradient through")


def _hooks_not_carried_clone_recorded(matrix: Matrix) -> None:
    hooks_not_carried(matrix)
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda grad: None)  # type: ignore[no-untyped-call]
    with torch.no_grad():  # the words say "made while autograd records": this clone has no path back
        unrecorded = x.clone()
    expect(unrecorded.grad_fn is None and not unrecorded.requires_grad, "the no_grad clone kept a path to x")


CLAIMS = [
    Claim("inference-no-counter", _inference_has_no_counter, pin="9f63ae44b5"),
    Claim("inference-mark", inference_mark, pin="4f31e0b321"),
    Claim(
        "inference-in-place",
        inference_in_place_error,
        pin="294f11c66b",
        scope="stated: outside inference mode; add_, mul_, copy_, fill_, zero_ and indexed assignment",
    ),
    Claim(
        "inference-not-saved",
        _inference_not_saved_unless_nothing_is,
        pin="fc1dc5b967",
        scope="stated: a computation whose other input requires gradients",
    ),
    Claim("conj-lazy", _conj_lazy, pin="bcfb165922"),
    Claim(
        "expanded-materialised", _expanded_materialised, pin="45a6bf0e77", scope="stated: an expanded tensor"
    ),
    Claim(
        "hooks-not-carried",
        _hooks_not_carried_clone_recorded,
        pin="e13afa8bde",
        scope="stated: the copies measured on the hooked scenario",
    ),
    Claim("hooks-warning", hooks_warning, pin="7bb6642641"),
    Claim("integer-refuses-grad", _integer_refuses_grad, pin="96c88b0526", scope="stated: an integer tensor"),
    Claim("sparse-memory", _sparse_memory, pin="8bbf908a8e"),
    Claim("zero-dim", zero_dim_values, pin="4f888306d4"),
    Claim("subclass-kept-or-lost", _subclass_kept_or_lost, pin="ff94231e7b"),
    Claim(
        "subclass-deepcopy-load",
        _subclass_deepcopy_and_load,
        pin="735f6373d7",
        scope="stated: a subclass that does not define how to make an empty one",
    ),
]
