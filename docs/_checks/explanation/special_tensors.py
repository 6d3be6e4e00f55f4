"""The checks of the claims on ``docs/explanation/special-tensors.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

import copy
import io
import pickle
from typing import Any

import torch

from _checks._helpers import (
    backward,
    hooks_not_carried,
    hooks_warning,
    inference_in_place_error,
    inference_mark,
    inference_not_saved,
    inference_tensor_has_no_counter,
    raises_saying,
    zero_dim_values,
)
from _checks.reference.changes_between_releases import load_weights_only
from tcdoc import Matrix, shares_memory
from tcdoc._registry import TaggedTensor
from tcdoc._snapshots import release
from tcdoc.claims import IN_WORDS, Claim, ClaimFalse, expect, measured

__all__ = ["CLAIMS"]


def _inference_has_no_counter(matrix: Matrix) -> None:
    inference_tensor_has_no_counter()  # x has none; its detach() and .data, made outside, have their own
    with torch.inference_mode():
        x = torch.ones(2)
    raises_saying(lambda: x._version, "Inference tensors do not track version counter")
    for op in ("detach", "data", "clone"):
        expect(measured(matrix, op, "inference").shares_version_counter is None, f"{op}: not n/a")
    expect(x.detach()._version == 0 and x.data._version == 0, "x.detach() or x.data has no counter")


def _conj_lazy(matrix: Matrix) -> None:
    values = torch.tensor([1 + 2j, 3 - 1j])
    lazy = values.conj()
    expect(lazy.is_conj() and shares_memory(values, lazy), "conj() is not a view with the bit set")
    # "(or cleared, where x had it)": conj() of a conjugate view is a view without the bit
    again = lazy.conj()
    expect(not again.is_conj() and again._is_view() and shares_memory(values, again), "conj() twice")
    for op in ("detach", "view", "slice"):
        expect(measured(matrix, op, "conj").keeps_conj, f"{op} dropped the conjugate bit")
    # the words name x.view(-1) and slicing, not every view: x.real and x.imag are views without it
    expect(not lazy.real.is_conj() and not lazy.imag.is_conj(), "x.real or x.imag kept the bit")
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


class _MakesItsOwnEmpty(TaggedTensor):
    """A subclass that overrides ``new_empty()`` to return its own class."""

    def new_empty(self, *args: Any, **kwargs: Any) -> torch.Tensor:
        return super().new_empty(*args, **kwargs).as_subclass(type(self))


class _CopiesItself(TaggedTensor):
    """A subclass that overrides ``__deepcopy__``."""

    def __deepcopy__(self, memo: dict[int, object]) -> torch.Tensor:
        return self.clone()


def _subclass_deepcopy(matrix: Matrix) -> None:
    deep = matrix.get("deepcopy", "subclass")
    expect(deep.error is not None and "new_empty()" in deep.error.message, f"deepcopy: {deep.outcome}")
    x = torch.ones(2).as_subclass(TaggedTensor)
    expect(type(x.new_empty([])) is TaggedTensor, "x.new_empty([]) did not return the subclass")
    with torch._C.DisableTorchFunctionSubclass():  # as deepcopy calls it
        plain = x.new_empty([])
    expect(type(plain) is torch.Tensor, f"with subclass handling off, new_empty() returned {type(plain)}")
    raises_saying(lambda: copy.deepcopy(x), "new_empty()")
    for cls in (_MakesItsOwnEmpty, _CopiesItself):
        twin = copy.deepcopy(torch.ones(2).as_subclass(cls))
        expect(type(twin) is cls, f"deepcopy of {cls.__name__} gave a {type(twin).__name__}")


def _subclass_load(matrix: Matrix) -> None:
    load_weights_only(matrix)  # "since torch 2.6": every release measured, the build's own among them
    buffer = io.BytesIO()
    torch.save(torch.ones(2).as_subclass(TaggedTensor), buffer)
    buffer.seek(0)
    again = torch.load(buffer, weights_only=False)
    expect(type(again) is TaggedTensor, "weights_only=False did not load the subclass")
    if release(torch.__version__) < (2, 6, 0):
        return  # a torch before 2.6 loads it by default: nothing to allow (load_weights_only checks when)
    buffer.seek(0)
    try:
        torch.load(buffer)
    except pickle.UnpicklingError:
        pass
    else:
        raise ClaimFalse("torch.load loaded the subclass by default")
    buffer.seek(0)
    with torch.serialization.safe_globals([TaggedTensor]):
        allowed = torch.load(buffer)
    expect(type(allowed) is TaggedTensor, f"the allowed class loaded as a {type(allowed).__name__}")


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
    Claim(
        "inference-no-counter",
        _inference_has_no_counter,
        words="`x`, made under inference mode, has no version counter, so whether a copy shares it does"
        " not apply (n/a). That holds even where the copy has one of its own, as `x.detach()` and"
        " `x.data` made outside inference mode do",
    ),
    Claim(
        "inference-mark",
        inference_mark,
        words="`detach()`, `x.data` and views keep the inference mark. Outside inference mode, "
        "`clone()`, `x.detach().clone()` and `copy.deepcopy` drop it and give an ordinary tensor."
        " Inside `torch.inference_mode()` they give inference tensors too",
    ),
    Claim(
        "inference-in-place",
        inference_in_place_error,
        words="Outside inference mode, an in-place operation (`add_`, `mul_`, `copy_`, `fill_`, "
        "`zero_`, indexed assignment) on `x` or a view of it raises an error. It raises only "
        "after it has written: `x` holds the new values. The error suggests the fix: a clone",
        covers=IN_WORDS,
    ),
    Claim(
        "inference-not-saved",
        _inference_not_saved_unless_nothing_is,
        words="Nor can autograd save an inference tensor for the backward pass. A recorded operation "
        "that would save it, such as `weight * features`, raises. One that saves nothing, such as"
        " `weight + features`, goes through, and a clone of it is accepted",
    ),
    Claim(
        "conj-lazy",
        _conj_lazy,
        words="`x.conj()` of a complex tensor copies nothing: it returns a view with the conjugate bit "
        "set (or cleared, where `x` had it). `detach()`, `x.view(-1)` and slicing keep the bit. "
        "`clone()` and `copy.deepcopy` resolve it into new memory",
    ),
    Claim(
        "expanded-materialised",
        _expanded_materialised,
        words="`clone()` and `contiguous()` of an expanded tensor write every element out into new "
        "memory, which can be written in place. `detach()` keeps the overlap",
        covers=IN_WORDS,
    ),
    Claim(
        "hooks-not-carried",
        _hooks_not_carried_clone_recorded,
        words="No copy carries the hooks of `x`. A clone made while autograd records keeps the path "
        "back to `x`, so the hook of `x` still runs for a gradient that flows through the clone. "
        "A gradient that reaches a deep copy runs no hook",
    ),
    Claim(
        "hooks-warning",
        hooks_warning,
        words="On a plain tensor, `copy.copy(x)` and `torch.save` warn that the hook will not be "
        "serialized. On a `Parameter` they drop it without a word, as `copy.deepcopy` does on "
        "both",
    ),
    Claim(
        "integer-refuses-grad",
        _integer_refuses_grad,
        words="An integer tensor refuses to require gradients, so `x.requires_grad_()` and "
        "`nn.Parameter(x)` raise. `x.float()` of it is a new tensor",
        covers=IN_WORDS,
    ),
    Claim(
        "sparse-memory",
        _sparse_memory,
        words="A sparse tensor has no strides to give a view, so `view`, `reshape` and `expand` raise "
        "on it. `detach()` shares its index and value tensors and `clone()` copies them",
    ),
    Claim(
        "zero-dim",
        zero_dim_values,
        words="A zero-dimensional tensor has no dimension to slice or to index with integers or index "
        "tensors, and `torch.cat` needs one too, so those raise. `torch.stack` gives it one, and "
        "its `tolist()` is a plain Python number",
    ),
    Claim(
        "subclass-kept-or-lost",
        _subclass_kept_or_lost,
        words="`clone()`, `detach()` and slicing keep a subclass. `torch.tensor(x)`, "
        "`torch.tensor(x.tolist())` and a NumPy round trip give a plain `Tensor`",
    ),
    Claim(
        "subclass-deepcopy",
        _subclass_deepcopy,
        words="`copy.deepcopy(x)` raises for a subclass that does not override `new_empty()` (or "
        "`__deepcopy__`) to return its own class. Deepcopy calls `new_empty()` with torch's "
        "subclass handling off, and the one inherited from `torch.Tensor` then returns a plain "
        "`Tensor`",
    ),
    Claim(
        "subclass-load",
        _subclass_load,
        words="By default `torch.load` refuses a saved subclass ([since torch "
        "2.6](../reference/changes-between-releases.md#the-two-changes-readers-meet-most), "
        "[pytorch#137602](https://github.com/pytorch/pytorch/pull/137602)). To load it, allow its"
        " class with `torch.serialization.safe_globals([...])`, or trust the file and pass "
        "`weights_only=False`",
        covers=IN_WORDS,
    ),
]
