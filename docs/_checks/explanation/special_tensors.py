"""The checks of the claims on ``docs/explanation/special-tensors.md``, by the id of each claim's span."""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import itertools
import warnings
from collections.abc import Callable
from typing import Any

import torch

from _checks._helpers import IN_PLACE_WRITES, backward, each_cell, raises, version_counter
from _checks._helpers import conjugate_bit as _conj_lazy
from _checks.reference.changes_between_releases import load_weights_only as _subclass_load
from tcdoc import GRAD_MODES, Matrix
from tcdoc._registry import TaggedTensor
from tcdoc.claims import IN_WORDS, Claim, expect, measured

__all__ = ["CLAIMS"]


def _inference_has_no_counter(matrix: Matrix) -> None:
    version_counter(matrix)  # x has none; its detach() and .data, made outside, have their own
    with torch.inference_mode():
        x = torch.ones(2)
    raises(lambda: x._version, "Inference tensors do not track version counter")
    each_cell(matrix, ("detach", "data", "clone"), lambda r: r.shares_version_counter is None, ("inference",))


def inference_mark(matrix: Matrix) -> None:
    """Check that views and detach() keep the mark in every mode; copies drop it outside inference mode."""
    for grad_mode in GRAD_MODES:
        for op in ("detach", "data", "view", "slice", "clone", "detach_clone", "deepcopy"):
            kept = op in ("detach", "data", "view", "slice") or grad_mode == "inference_mode"
            report = matrix.get(op, "inference", grad_mode).properties
            expect(report is not None and report.keeps_inference is kept, f"{op} under {grad_mode}: {report}")


INFERENCE_IN_PLACE_ERROR = "Inplace update to inference tensor outside InferenceMode"


def inference_in_place_error(matrix: Matrix) -> None:
    """Check that, outside inference mode, a write into an inference tensor or its view lands, then raises."""
    for mode in (torch.enable_grad, torch.no_grad):  # outside inference mode, with or without grad
        for (name, write), reach in itertools.product(IN_PLACE_WRITES.items(), ("itself", "a view")):
            with torch.inference_mode():
                x = torch.full((3,), 3.0)
            target = x if reach == "itself" else x[0:2]
            with mode():
                error = raises(functools.partial(write, target), INFERENCE_IN_PLACE_ERROR)
            expect(not torch.equal(x, torch.full((3,), 3.0)), f"{name} raised and left x as it was")
            expect("make a clone" in str(error), f"the error of {name} does not suggest a clone: {error}")
    with torch.inference_mode():
        x = torch.ones(3)
    with contextlib.suppress(RuntimeError):
        x.add_(1)
    y = x.clone()
    y.add_(1)
    expect(torch.equal(x, torch.full((3,), 2.0)) and not y.is_inference(), f"x holds {x}, its clone {y}")


def _inference_not_saved_unless_nothing_is(matrix: Matrix) -> None:
    with torch.inference_mode():
        features = torch.ones(3)
    weight = torch.ones(3, requires_grad=True)
    raises(lambda: weight * features, "Inference tensors cannot be saved for backward")
    backward((weight * features.clone()).sum())
    expect(weight.grad is not None, "the clone did not let the gradient through")
    weight.grad = None
    backward((weight + features).sum())  # add saves neither input
    expect(weight.grad is not None, "weight + features did not let the gradient through")


def _expanded_materialised(matrix: Matrix) -> None:
    each_cell(
        matrix,
        ("clone", "contiguous"),
        lambda r: r.overlaps_itself is False and not r.shares_storage and bool(r.new_bytes),
        ("expanded",),
    )
    expect(measured(matrix, "detach", "expanded").overlaps_itself, "detach() of it does not overlap")
    torch.arange(3.0).expand(2, 3).clone().add_(1)  # can be written in place


def _hooks_not_carried_clone_recorded(matrix: Matrix) -> None:
    each_cell(
        matrix,
        ("deepcopy", "copy", "save_load", "clone", "detach"),
        lambda r: r.keeps_hooks is False,
        ("hooked",),
    )
    calls: list[int] = []
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda grad: calls.append(1))  # type: ignore[no-untyped-call]
    backward(x.clone().sum())
    expect(calls == [1], "the hook of x did not run for a gradient through the clone")
    backward(copy.deepcopy(x).sum())
    expect(calls == [1], "a hook ran for the deep copy")
    with torch.no_grad():  # the words say "made while autograd records": this clone has no path back
        unrecorded = x.clone()
    expect(unrecorded.grad_fn is None and not unrecorded.requires_grad, "the no_grad clone kept a path to x")


def hooks_warning(matrix: Matrix) -> None:
    """Check that copy.copy and torch.save warn of a plain tensor's hooks, and drop a Parameter's silently."""
    for op in ("copy", "save_load"):
        warned = matrix.get(op, "hooked").warnings
        expect(any("will not be serialized" in w.message for w in warned), f"{op} did not warn")
    expect(not matrix.get("deepcopy", "hooked").warnings, "deepcopy warned")
    parameter = torch.nn.Parameter(torch.ones(2))
    parameter.register_hook(lambda grad: None)  # type: ignore[no-untyped-call]
    copies: dict[str, Callable[[], object]] = {
        "copy.copy": lambda: copy.copy(parameter),
        "torch.save": lambda: torch.save(parameter, io.BytesIO()),
        "copy.deepcopy": lambda: copy.deepcopy(parameter),
    }
    for name, make in copies.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            made = make()
        expect(not caught, f"{name} of a hooked Parameter warned: {[str(w.message) for w in caught]}")
        expect(not isinstance(made, torch.Tensor) or not made._backward_hooks, f"{name} kept the hook")


def _integer_refuses_grad(matrix: Matrix) -> None:
    for op in ("requires_grad_", "parameter_wrap"):
        row = matrix.get(op, "integer")
        expect(row.error is not None and "floating point" in row.error.message, f"{op}: {row.outcome}")
    each_cell(matrix, "float", lambda r: r.new_object and not r.shares_storage, ("integer",))


def _sparse_memory(matrix: Matrix) -> None:
    for op in ("view", "reshape", "expand"):
        expect(matrix.get(op, "sparse").error is not None, f"{op} did not raise on a sparse tensor")
    expect(measured(matrix, "detach", "sparse").shares_storage, "detach() of a sparse tensor copied")
    each_cell(matrix, "clone", lambda r: not r.shares_storage and bool(r.new_bytes), ("sparse",))


def zero_dim_values(matrix: Matrix) -> None:
    """Check that a 0-d tensor refuses slicing, indexing and cat, not stack, and tolist() is a number."""
    expect(measured(matrix, "tolist", "zero_dim").result_type == "float", "tolist() of a 0-d tensor")
    for op in ("cat", "slice", "index"):
        expect(matrix.get(op, "zero_dim").error is not None, f"{op} did not raise on a 0-d tensor")
    expect(measured(matrix, "stack", "zero_dim").result_is_tensor, "stack() of a 0-d tensor failed")
    z = torch.tensor(3.0)
    raises(lambda: z[0], kind=IndexError)
    expect(torch.stack([z]).shape == (1,), "stack() did not give the 0-d tensor a dimension")


def _subclass_kept_or_lost(matrix: Matrix) -> None:
    kept = ("clone", "detach", "detach_clone", "slice")
    for op in (*kept, "torch_tensor", "tensor_from_list", "numpy_roundtrip"):
        name = measured(matrix, op, "subclass").result_type
        expect(name == (TaggedTensor.__name__ if op in kept else "Tensor"), f"{op} returned a {name}")


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
    raises(lambda: copy.deepcopy(x), "new_empty()")
    for cls in (_MakesItsOwnEmpty, _CopiesItself):
        twin = copy.deepcopy(torch.ones(2).as_subclass(cls))
        expect(type(twin) is cls, f"deepcopy of {cls.__name__} gave a {type(twin).__name__}")


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
