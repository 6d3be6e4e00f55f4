"""The checks of the claims on ``docs/explanation/four-questions.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy
import torch

from _checks._helpers import (
    IN_PLACE_WRITES,
    backward,
    changed_saved_output,
    each_measured,
    hooks_skip_version_check,
    inference_tensor_has_no_counter,
    raises_saying,
    right_sigmoid_gradient,
    silently_wrong,
    state_dict_shares_both,
    stops_backward,
    version_error_words,
)
from tcdoc import Comparison, Matrix, shares_memory
from tcdoc.claims import Claim, Only, expect, measured

__all__ = ["CLAIMS"]


def _new_objects(matrix: Matrix) -> None:
    for op in ("detach", "clone"):
        expect(measured(matrix, op, "leaf_requires_grad").new_object, f"{op} returned x itself")
    x = torch.ones(2, requires_grad=True)
    d, c = x.detach(), x.clone()
    d.note = c.note = "set on the result"  # type: ignore[attr-defined]
    expect(not hasattr(x, "note"), "an attribute set on a result appeared on x")
    makes: tuple[Callable[[torch.Tensor], torch.Tensor], ...] = (torch.Tensor.detach, torch.Tensor.clone)
    for make in makes:
        x = torch.ones(2, requires_grad=True)
        y = make(x)
        if y.is_leaf:  # a non-leaf refuses the change, which leaves x alone as well
            y.requires_grad_(not y.requires_grad)
        y.grad = torch.full((2,), 3.0)
        y.data = torch.zeros(5)
        expect(x.requires_grad and x.grad is None, "setting requires_grad or grad on a result reached x")
        expect(torch.equal(x.detach(), torch.ones(2)), "setting data on a result changed x")


def _real_imag_write(matrix: Matrix) -> None:
    for part in ("real", "imag"):
        x = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
        d = x.detach()
        setattr(d, part, torch.ones(2))
        expect(bool(getattr(x, part).detach().eq(1).all()), f"d.{part} = ... did not write into x")
    # the page's x is real: there d.real = ... writes into x, and d.imag = ... raises
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d = x.detach()
    d.real = torch.zeros(2, 3)
    expect(bool(x.detach().eq(0).all()), "d.real = ... did not write into a real x")
    raises_saying(lambda: setattr(d, "imag", torch.zeros(2, 3)), "imag is not implemented")


def _version_counter(matrix: Matrix) -> None:
    for name, write in IN_PLACE_WRITES.items():
        x = torch.ones(3)
        before = x._version
        write(x)
        expect(x._version > before, f"{name} did not increase the counter")
    for op in ("detach", "view", "slice"):
        report = measured(matrix, op, "leaf_requires_grad")
        expect(report.shares_version_counter is True, f"{op} does not share the counter: {report}")
    data = measured(matrix, "data", "leaf_requires_grad")
    expect(data.shares_storage and data.shares_version_counter is False, f"x.data measured {data}")
    x = torch.ones(3)
    before = x._version
    x.data.add_(1)
    expect(x._version == before, "a write through x.data moved the counter of x")
    inference_tensor_has_no_counter()


def _hooks_that_copy(matrix: Matrix) -> None:
    """Check that a change through detach() misses a value that the pack hook copied."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
        b = a.sigmoid()
    b.detach().zero_()
    backward(b.sum())
    assert a.grad is not None
    expect(torch.allclose(a.grad, right_sigmoid_gradient()), f"with a copying hook the gradient is {a.grad}")


def _saved_tensor_hooks(matrix: Matrix) -> None:
    hooks_skip_version_check(matrix)  # save_on_cpu and an identity pair, on CPU tensors
    _hooks_that_copy(matrix)


def _data_gives_zero(matrix: Matrix) -> None:
    outcome = changed_saved_output(lambda t: t.data)
    expect(isinstance(outcome, torch.Tensor) and torch.equal(outcome, torch.zeros(2)), f"it gave {outcome}")


def _counter_moves_with_detach(matrix: Matrix) -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d, c = x.detach(), x.clone()
    before = (x._version, c._version)
    d.add_(1)
    expect(x._version == before[0] + 1, "the change through d did not move the counter of x")
    expect(c._version == before[1], "the counter of c moved")


def _sigmoid_saves_its_output(matrix: Matrix) -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.sigmoid()
    expect(torch.equal(b.grad_fn._saved_result, b), "sigmoid did not save its output")  # type: ignore[union-attr]
    stops_backward(lambda t: t.detach(), "detach()")
    hooks_skip_version_check(matrix)


def _data_and_copy_escape(matrix: Matrix) -> None:
    for op in ("data", "copy"):
        report = measured(matrix, op, "leaf_requires_grad")
        expect(report.shares_storage and not report.shares_version_counter, f"{op} measured {report}")
    silently_wrong(lambda t: t.data, ".data")
    silently_wrong(copy.copy, "copy.copy")


def _views_and_parameters_share(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    flat = x.view(-1)
    expect(flat._is_view() and flat._base is x, "view(-1) is not tracked as a view of x")
    for scenario, report in each_measured(matrix, "parameter_wrap"):
        expect(report.shares_storage and report.new_bytes == 0, f"Parameter(x) on {scenario} copied")


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


def _address_not_storage(matrix: Matrix) -> None:
    array = numpy.arange(4.0)
    first, second = torch.from_numpy(array), torch.from_numpy(array)
    one, two = first.untyped_storage(), second.untyped_storage()
    expect(one.data_ptr() == two.data_ptr(), "the two storages of one array are at two addresses")
    expect(one._cdata != two._cdata, "torch.from_numpy twice gave one storage")
    a, b = copy.deepcopy([first, second])
    same = a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    expect(not same and not shares_memory(a, b), "deepcopy kept the two storages together")


CLAIMS = [
    Claim(
        "version-counter",
        _version_counter,
        pin="c3eea995fd",
        scope="stated: the in-place writes named (IN_PLACE_WRITES); detach, views and x.data",
    ),
    Claim(
        "new-objects",
        _new_objects,
        pin="b41a0ca060",
        scope="stated: the two results d and c, the attributes named",
    ),
    Claim(
        "real-imag-write",
        _real_imag_write,
        pin="97357fe4f1",
        scope="stated: a detached tensor; d.imag where x is complex",
    ),
    Claim("counter-moves-with-detach", _counter_moves_with_detach, pin="a4b6352bde"),
    Claim(
        "sigmoid-saves-output",
        _sigmoid_saves_its_output,
        pin="6762ed037c",
        scope="stated: sigmoid's saved output",
    ),
    Claim(
        "version-error", version_error_words, pin="838761ee47", scope="stated: the error of the snippet above"
    ),
    Claim("data-is-silent", lambda matrix: silently_wrong(lambda t: t.data, ".data"), pin="3764902482"),
    Claim("data-gives-zero", _data_gives_zero, pin="bd343f24f4"),
    Claim(
        "saved-tensor-hooks",
        _saved_tensor_hooks,
        pin="9992334ea3",
        scope="stated: save_on_cpu() on a CPU tensor and a saved_tensors_hooks pair",
    ),
    Claim("hooks-that-copy", _hooks_that_copy, pin="ec303115b2", scope="stated: a pack hook that clones"),
    Claim(
        "address-limits",
        _address_limits,
        pin="267147f66a",
        scope="stated: overlapping NumPy arrays, interleaved slices",
    ),
    Claim(
        "address-not-storage",
        _address_not_storage,
        pin="f380dd782c",
        scope="stated: two torch.from_numpy calls on one array",
    ),
    Only(
        "only-detach-of-these",
        ops=("detach",),
        test=_shares_both,
        among=("clone", "detach", "deepcopy", "detach_clone", "data", "copy"),
        scenarios=("leaf_requires_grad",),
        pin="85516c87f9",
    ),
    Claim("data-and-copy-escape", _data_and_copy_escape, pin="abbe13fe1a"),
    Only(
        "shares-both-in-the-registry",
        ops=("detach", "view", "reshape", "parameter_wrap", "slice", "T", "permute", "expand"),
        test=_shares_both,
        scenarios=("leaf_requires_grad",),
        pin="4283db9a08",
    ),
    Claim("why-views-share", _views_and_parameters_share, pin="1be9f07bcb"),
    Claim("state-dict-shares-both", state_dict_shares_both, pin="e60df92a72"),
]
