"""The checks of the claims on ``docs/explanation/four-questions.md``, by the id of each claim's span."""

from __future__ import annotations

import copy

import numpy
import torch

from _checks._helpers import (
    changed_saved_output,
    each_cell,
    hooks_skip_version_check,
    raises,
    right_sigmoid_gradient,
    silently_wrong,
    stops_backward,
    version_error_words,
)
from _checks._helpers import version_counter as _version_counter
from tcdoc import Comparison, Matrix, shares_memory
from tcdoc.claims import IN_WORDS, Claim, Only, expect, measured

__all__ = ["CLAIMS"]


def _new_objects(matrix: Matrix) -> None:
    for op in ("detach", "clone"):
        expect(measured(matrix, op, "leaf_requires_grad").new_object, f"{op} returned x itself")
    for make in (torch.Tensor.detach, torch.Tensor.clone):
        x = torch.ones(2, requires_grad=True)
        y = make(x)
        y.note = "set on the result"  # type: ignore[attr-defined]
        if y.is_leaf:  # a non-leaf refuses the change, which leaves x alone as well
            y.requires_grad_(not y.requires_grad)
        y.grad = torch.full((2,), 3.0)
        y.data = torch.zeros(5)
        expect(not hasattr(x, "note"), "an attribute set on a result appeared on x")
        expect(x.requires_grad and x.grad is None, "setting requires_grad or grad on a result reached x")
        expect(torch.equal(x.detach(), torch.ones(2)), "setting data on a result changed x")


def _real_imag_write(matrix: Matrix) -> None:
    for part in ("real", "imag"):
        x = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
        setattr(x.detach(), part, torch.ones(2))
        expect(bool(getattr(x, part).detach().eq(1).all()), f"d.{part} = ... did not write into x")
    # the page's x is real: there d.real = ... writes into x, and d.imag = ... raises
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d = x.detach()
    d.real = torch.zeros(2, 3)
    expect(bool(x.detach().eq(0).all()), "d.real = ... did not write into a real x")
    raises(lambda: setattr(d, "imag", torch.zeros(2, 3)), "imag is not implemented")


def _counter_moves_with_detach(matrix: Matrix) -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d, c = x.detach(), x.clone()
    before = (x._version, c._version)
    d.add_(1)
    moved = (x._version - before[0], c._version - before[1])
    expect(moved == (1, 0), f"the counters of x and c moved by {moved}")


def _sigmoid_saves_its_output(matrix: Matrix) -> None:
    b = torch.tensor([1.0, 2.0], requires_grad=True).sigmoid()
    expect(torch.equal(b.grad_fn._saved_result, b), "sigmoid did not save its output")  # type: ignore[union-attr]
    stops_backward(lambda t: t.detach(), "detach()")
    hooks_skip_version_check(matrix)


def _data_gives_zero(matrix: Matrix) -> None:
    outcome = changed_saved_output(lambda t: t.data)
    expect(isinstance(outcome, torch.Tensor) and torch.equal(outcome, torch.zeros(2)), f"it gave {outcome}")


def _hooks_that_copy(matrix: Matrix) -> None:
    hooks_skip_version_check(matrix)  # save_on_cpu and an identity pair, on CPU tensors
    copying = torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t)
    outcome = changed_saved_output(lambda t: t.detach(), lambda: copying)
    right = isinstance(outcome, torch.Tensor) and torch.allclose(outcome, right_sigmoid_gradient())
    expect(right, f"with a copying hook the gradient is {outcome}")


def _data_and_copy_escape(matrix: Matrix) -> None:
    each_cell(
        matrix,
        ("data", "copy"),
        lambda r: r.shares_storage and not r.shares_version_counter,
        ("leaf_requires_grad",),
    )
    silently_wrong(lambda t: t.data, ".data")
    silently_wrong(copy.copy, "copy.copy")


def _views_and_parameters_share(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    flat = x.view(-1)
    expect(flat._is_view() and flat._base is x, "view(-1) is not tracked as a view of x")
    each_cell(matrix, "parameter_wrap", lambda r: r.shares_storage and r.new_bytes == 0)


def state_dict_shares_both(matrix: Matrix) -> None:
    """Check that the tensors of state_dict() share the memory and the counter of the parameters."""
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()["weight"]
    expect(saved is not model.weight and shares_memory(saved, model.weight), "no shared memory")
    before = saved._version
    with torch.no_grad():
        model.weight.add_(1.0)
    expect(saved._version == before + 1, "the state_dict tensor does not share the version counter")


def _shares_both(report: Comparison) -> bool:
    return report.new_object and report.shares_storage and report.shares_version_counter is True


def _address_limits(matrix: Matrix) -> None:
    array = numpy.arange(4.0)
    first, second = torch.from_numpy(array), torch.from_numpy(array[1:])
    same = first.untyped_storage().data_ptr() == second.untyped_storage().data_ptr()
    expect(not same and shares_memory(first, second), "the overlapping arrays' storages did not behave")
    first[1] = 100.0
    expect(second[0].item() == 100.0, "a write into one did not reach the other")
    x = torch.arange(6.0)
    even, odd = x[::2], x[1::2]
    same = even.untyped_storage().data_ptr() == odd.untyped_storage().data_ptr()
    expect(same and not shares_memory(even, odd), "the interleaved slices did not behave")
    first, second = torch.from_numpy(array), torch.from_numpy(array)
    one, two = first.untyped_storage(), second.untyped_storage()
    expect(one.data_ptr() == two.data_ptr(), "the two storages of one array are at two addresses")
    expect(one._cdata != two._cdata, "torch.from_numpy twice gave one storage")
    a, b = copy.deepcopy([first, second])
    same = a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    expect(not same and not shares_memory(a, b), "deepcopy kept the two storages together")


# Claims that share a check, each under its own name.
_address_not_storage = _address_limits
_saved_tensor_hooks = _hooks_that_copy


CLAIMS = [
    Claim(
        "version-counter",
        _version_counter,
        words="Every ordinary tensor also holds a *version counter*: a number that in-place writes such"
        " as `add_`, `copy_`, `fill_`, `zero_` or an indexed assignment increase. An inference "
        "tensor made under inference mode has none. `x.detach()` and views share the counter of "
        "`x`, while `x.data` shares only its storage",
        covers=IN_WORDS,
    ),
    Claim(
        "new-objects",
        _new_objects,
        words="Both results are new objects, so rebinding them, or setting attributes such as "
        "`requires_grad`, `grad` or `data` on them, never touches `x`",
        covers=IN_WORDS,
    ),
    Claim(
        "real-imag-write",
        _real_imag_write,
        words="`d.real = ...` is the exception, and so is `d.imag = ...` where `x` is complex. They "
        "write into the memory that `d` shares with `x`",
    ),
    Claim(
        "counter-moves-with-detach",
        _counter_moves_with_detach,
        words="One in-place change to `d` moved the counter of `x` as well, because `d` shares it. The "
        "counter of `c` did not move",
    ),
    Claim(
        "sigmoid-saves-output",
        _sigmoid_saves_its_output,
        words="{py:meth}`~torch.Tensor.sigmoid` saves its output. Changing that output in place, even "
        "through a detached tensor, makes the backward pass refuse to run, unless saved-tensor "
        "hooks were on (below)",
        covers=IN_WORDS,
    ),
    Claim(
        "version-error",
        version_error_words,
        words="The error is the version counter at work: the saved output was at version 0 and is now "
        "at version 1. Autograd refuses to compute a gradient from a value that changed under it",
        covers=IN_WORDS,
    ),
    Claim(
        "data-is-silent",
        lambda matrix: silently_wrong(lambda t: t.data, ".data"),
        words="Without the shared counter the same change goes unnoticed and the gradient is silently "
        "wrong. That is exactly what `x.data` allows",
    ),
    Claim(
        "data-gives-zero",
        _data_gives_zero,
        words="No error, and a gradient of zero: sigmoid's derivative was computed from the zeroed output",
    ),
    Claim(
        "saved-tensor-hooks",
        _saved_tensor_hooks,
        words="Saved-tensor hooks, such as `torch.autograd.graph.save_on_cpu()`, switch the check off: "
        "a value saved while they were on is not checked. A hook may keep the tensor itself, as "
        "`save_on_cpu()` does with a CPU tensor. Then the change through `detach()` gives the wrong "
        "gradient that `.data` gave, with no error",
    ),
    Claim(
        "hooks-that-copy",
        _hooks_that_copy,
        words="Where it kept a copy, the change does not reach the saved value and the gradient is right",
    ),
    Claim(
        "address-limits",
        _address_limits,
        words="Different addresses do not prove separate bytes: two storages can cover the same memory,"
        " as `torch.from_numpy` of two overlapping NumPy arrays gives. "
        "{py:func}`tcdoc.shares_memory` asks whether any byte overlaps. It finds that case and "
        "tells two interleaved slices of one storage apart",
        covers=IN_WORDS,
    ),
    Claim(
        "address-not-storage",
        _address_not_storage,
        words="Equal addresses do not prove one storage, though. Two `torch.from_numpy` calls on one "
        "array give two storages at one address, which `copy.deepcopy` copies apart",
    ),
    Only(
        "only-detach-of-these",
        ops=("detach",),
        test=_shares_both,
        among=("clone", "detach", "deepcopy", "detach_clone", "data", "copy"),
        scenarios=("leaf_requires_grad",),
        words="Of {among}, on {scenarios}, only {ops} shares both the memory and the version counter of `x`",
    ),
    Claim(
        "data-and-copy-escape",
        _data_and_copy_escape,
        words="`x.data` and `copy.copy(x)` share the memory without the counter. So autograd's version "
        "check misses an in-place change made through them",
    ),
    Only(
        "shares-both-in-the-registry",
        ops=("detach", "view", "reshape", "parameter_wrap", "slice", "T", "permute", "expand"),
        test=_shares_both,
        scenarios=("leaf_requires_grad",),
        words="Of {among}, on {scenarios}, only {ops} return a new tensor that shares both the memory "
        "and the version counter of `x`",
    ),
    Claim(
        "why-views-share",
        _views_and_parameters_share,
        words="A view shares both because it is the same memory under other metadata. "
        "`torch.nn.Parameter(x)` shares both because it wraps `x` without copying its data",
    ),
    Claim(
        "state-dict-shares-both",
        state_dict_shares_both,
        words="The tensors of `model.state_dict()` share both with the module's parameters too",
    ),
]
