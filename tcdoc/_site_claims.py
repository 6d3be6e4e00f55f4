"""The claims of tcdoc's own site: each sentence that states what torch does, and its check.

Grouped by page, in the order the sentences appear; see :mod:`tcdoc._claims` for the rules.
The claims of the complete reference (the look-alikes page's later sections, the which-copy
situations they answer, examples 20 to 22) are in ``tcdoc._reference_claims`` and added here.
A page renders a claim with ``{tcdoc-claim}`id```; an example quotes it word for word and is
named in ``quoted_in``. Every check returns when its sentence is true and raises
:class:`~tcdoc._claims.ClaimFalse` (through :func:`~tcdoc._claims.expect`) when it is not.
"""

from __future__ import annotations

import copy
import io
import itertools
import warnings
from collections.abc import Callable

import torch
import torch.autograd.forward_ad as fwAD

from tcdoc._claims import EVERYDAY, Check, Claim, ClaimFalse, Every, Only, expect, measured
from tcdoc._compare import Comparison, compare, shares_memory
from tcdoc._graph import graph_memory
from tcdoc._probe import Matrix
from tcdoc._reference_claims import REFERENCE_CLAIMS
from tcdoc._registry import get_scenario, operations, scenarios

__all__ = ["CLAIMS"]


# -- Helpers ---------------------------------------------------------------------------------


def _raises(call: Callable[[], object], kind: type[BaseException] = RuntimeError) -> BaseException:
    """Run ``call``; return the ``kind`` it raised, or fail the claim if it raised nothing."""
    try:
        call()
    except kind as exc:
        return exc
    raise ClaimFalse(f"{getattr(call, '__name__', 'the call')} did not raise {kind.__name__}")


def _does_not_raise(call: Callable[[], object]) -> None:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any error makes the claim false
        raise ClaimFalse(f"it raised {type(exc).__name__}: {exc}") from None


def _backward(tensor: torch.Tensor) -> None:
    """Back-propagate from ``tensor`` (``Tensor.backward`` has no type hints)."""
    tensor.backward()  # type: ignore[no-untyped-call]


def _source(scenario: str) -> torch.Tensor:
    return get_scenario(scenario).build(torch.device("cpu"))


def _scenario_names() -> tuple[str, ...]:
    return tuple(s.name for s in scenarios())


def _everyday_names() -> tuple[str, ...]:
    """Return the everyday scenarios: what a sentence about "a tensor" means, unless it says more.

    The special tensors (inference, conjugate, expanded, sparse, subclass, ...) have their own
    section on the look-alikes page, with their own claims.
    """
    return tuple(s.name for s in scenarios() if s.group == "everyday")


def _strided_names() -> tuple[str, ...]:
    return tuple(name for name in _scenario_names() if _source(name).layout == torch.strided)


def _with_counter(report: Comparison) -> bool:
    """Whether both tensors have a version counter to share (an inference tensor has none)."""
    return report.shares_version_counter is not None


def _each_measured(matrix: Matrix, operation: str) -> list[tuple[str, Comparison]]:
    """Every scenario where ``operation`` returned a tensor, with what it measured."""
    rows = [matrix.get(operation, name) for name in _scenario_names()]
    return [(row.scenario, row.properties) for row in rows if row.properties is not None]


def _changed_saved_output(reach: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor | RuntimeError:
    """Zero sigmoid's saved output through ``reach(output)``; return a's gradient or the error."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.sigmoid()
    with torch.no_grad():
        reach(b).zero_()
    try:
        _backward(b.sum())
    except RuntimeError as error:
        return error
    assert a.grad is not None
    return a.grad


def _right_sigmoid_gradient() -> torch.Tensor:
    s = torch.tensor([1.0, 2.0]).sigmoid()
    return s * (1 - s)


def _silently_wrong(reach: Callable[[torch.Tensor], torch.Tensor], name: str) -> None:
    outcome = _changed_saved_output(reach)
    expect(not isinstance(outcome, RuntimeError), f"a change through {name} raised: {outcome}")
    assert isinstance(outcome, torch.Tensor)
    expect(
        not torch.allclose(outcome, _right_sigmoid_gradient()), f"through {name} the gradient stayed right"
    )


def _stops_backward(reach: Callable[[torch.Tensor], torch.Tensor], name: str) -> RuntimeError:
    outcome = _changed_saved_output(reach)
    expect(isinstance(outcome, RuntimeError), f"a change through {name} did not stop the backward pass")
    assert isinstance(outcome, RuntimeError)
    return outcome


def _exp_backward_after_detached_change(make: Callable[[torch.Tensor], torch.Tensor]) -> str | None:
    """Zero ``make(x)`` through a detached twin, then back-propagate; the error, or None."""
    x = torch.randn(4, requires_grad=True)
    y = make(x)
    y.detach().zero_()
    try:
        _backward(y.sum())
    except RuntimeError as error:
        return str(error)
    return None


# -- index.md and four-questions.md ----------------------------------------------------------


def _new_objects(matrix: Matrix) -> None:
    for op in ("detach", "clone"):
        expect(measured(matrix, op, "leaf_requires_grad").new_object, f"{op} returned x itself")
    x = torch.ones(2, requires_grad=True)
    d, c = x.detach(), x.clone()
    d.note = c.note = "set on the result"  # type: ignore[attr-defined]
    expect(not hasattr(x, "note"), "an attribute set on a result appeared on x")


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
    _stops_backward(lambda t: t.detach(), "detach()")


def _version_error_words(matrix: Matrix) -> None:
    error = _stops_backward(lambda t: t.detach(), "detach()")
    expect("is at version 1; expected version 0" in str(error), f"the error says: {error}")


def _data_and_copy_escape(matrix: Matrix) -> None:
    for op in ("data", "copy"):
        report = measured(matrix, op, "leaf_requires_grad")
        expect(report.shares_storage and not report.shares_version_counter, f"{op} measured {report}")
    _silently_wrong(lambda t: t.data, ".data")
    _silently_wrong(copy.copy, "copy.copy")


def _views_and_parameters_share(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    flat = x.view(-1)
    expect(flat._is_view() and flat._base is x, "view(-1) is not tracked as a view of x")
    for scenario, report in _each_measured(matrix, "parameter_wrap"):
        expect(report.shares_storage and report.new_bytes == 0, f"Parameter(x) on {scenario} copied")


def _state_dict_shares_both(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()["weight"]
    expect(saved is not model.weight and shares_memory(saved, model.weight), "no shared memory")
    before = saved._version
    with torch.no_grad():
        model.weight.add_(1.0)
    expect(saved._version == before + 1, "the state_dict tensor does not share the version counter")


SHARES_BOTH = "return a new tensor that shares both the memory and the version counter of `x`"


def _shares_both(report: Comparison) -> bool:
    return report.new_object and report.shares_storage and report.shares_version_counter is True


FOUR_QUESTIONS: list[Claim | Only | Every] = [
    Claim(
        "four-questions.new-objects",
        "Both results are new objects, so rebinding or replacing attributes on them never touches `x`",
        _new_objects,
        scope="stated: the two results d and c",
    ),
    Claim(
        "four-questions.counter-moves-with-detach",
        "One in-place change to `d` moved the counter of `x` as well, because `d` shares it; "
        "the counter of `c` did not move",
        _counter_moves_with_detach,
    ),
    Claim(
        "four-questions.sigmoid-saves-output",
        "{py:meth}`~torch.Tensor.sigmoid` saves its output, so changing that output in place, even through "
        "a detached tensor, makes the backward pass refuse to run",
        _sigmoid_saves_its_output,
    ),
    Claim(
        "four-questions.version-error",
        "The error is the version counter at work: the saved output was at version 0 and is now at version "
        "1, and autograd refuses to compute a gradient from a value that changed under it",
        _version_error_words,
    ),
    Claim(
        "four-questions.data-is-silent",
        "Without the shared counter the same change would go unnoticed and the gradient would be silently "
        "wrong, which is exactly what `x.data` allows",
        lambda matrix: _silently_wrong(lambda t: t.data, ".data"),
    ),
    Only(
        "four-questions.only-detach-of-these",
        "Of {among}, on {scenarios}, only {ops} shares both the memory and the version counter of `x`",
        ops=("detach",),
        test=_shares_both,
        among=("clone", "detach", "deepcopy", "detach_clone", "data", "copy"),
        scenarios=("leaf_requires_grad",),
    ),
    Claim(
        "four-questions.data-and-copy-escape",
        "`x.data` and `copy.copy(x)` share the memory without the counter, which is why in-place changes "
        "through them escape autograd's checks",
        _data_and_copy_escape,
    ),
    Only(
        "four-questions.shares-both-in-the-registry",
        "Of {among}, on {scenarios}, only {ops} " + SHARES_BOTH,
        ops=("detach", "view", "reshape", "parameter_wrap", "slice", "T", "permute", "expand"),
        test=_shares_both,
        scenarios=("leaf_requires_grad",),
    ),
    Claim(
        "four-questions.why-views-share",
        "A view shares both because it is the same memory under other metadata, and `torch.nn.Parameter(x)` "
        "because it wraps `x` without copying its data",
        _views_and_parameters_share,
    ),
    Claim(
        "four-questions.state-dict-shares-both",
        "The tensors of `model.state_dict()` share both with the module's parameters too",
        _state_dict_shares_both,
    ),
]


# -- explanation/clone.md ---------------------------------------------------------------------


def _clone_copies_and_records(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "clone"):
        expect(not report.shares_storage and bool(report.new_bytes), f"clone on {scenario} copied nothing")
        if _source(scenario).requires_grad:
            expect(report.grad_fn == "CloneBackward0", f"clone on {scenario} has grad_fn {report.grad_fn}")


def _clone_independent_yet_connected(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "clone"):
        expect(not report.shares_storage, f"clone on {scenario} shares memory with x")
        if _source(scenario).requires_grad:
            expect(report.gradient_flows_to_source, f"on {scenario} gradients do not reach x")
    x = torch.ones(3, requires_grad=True)
    y = x.clone()
    with torch.no_grad():
        y.fill_(5.0)
    expect(torch.equal(x.detach(), torch.ones(3)), "writing into the clone changed x")
    _backward((2 * y).sum())
    expect(x.grad is not None and torch.equal(x.grad, torch.full((3,), 2.0)), "the gradient did not reach x")


def _clone_is_not_a_leaf(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "clone"):
        if _source(scenario).requires_grad:
            ok = not report.is_leaf and report.grad_fn == "CloneBackward0" and report.gradient_flows_to_source
            expect(ok, f"clone on {scenario} measured {report}")


def _clone_keeps_requires_grad(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "clone"):
        source = _source(scenario)
        expect(report.requires_grad == source.requires_grad, f"clone on {scenario} changed requires_grad")
        if not source.requires_grad:
            expect(report.grad_fn is None, f"clone on {scenario} invented a grad_fn")


def _clone_never_copies_grad(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "clone"):
        expect(report.copies_grad is not True, f"clone copied .grad on {scenario}")
    for scenario in ("parameter", "parameter_with_attribute"):
        expect(
            measured(matrix, "clone", scenario).result_type == "Tensor", f"clone on {scenario} is no Tensor"
        )


def _both_orders_agree(matrix: Matrix) -> None:
    for op in ("detach_clone", "clone_detach"):
        for scenario, report in _each_measured(matrix, op):
            expect(report.is_leaf and not report.requires_grad, f"{op} on {scenario}: {report}")
            expect(report.grad_fn is None and not report.shares_storage, f"{op} on {scenario}: {report}")


def _clone_detach_records_first(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    recorded = x.clone()
    expect(recorded.grad_fn is not None, "x.clone() recorded nothing")
    expect(recorded.detach().grad_fn is None, "detach() kept the record")
    expect(x.detach().clone().grad_fn is None, "x.detach().clone() recorded something")


def _preserve_format_is_the_default(matrix: Matrix) -> None:
    doc = torch.Tensor.clone.__doc__ or ""
    expect("memory_format=torch.preserve_format" in doc, "the signature shows another default")
    expect(measured(matrix, "clone", "channels_last").same_strides, "clone lost the channels_last strides")


def _channels_last_strides(matrix: Matrix) -> None:
    expect(measured(matrix, "clone", "channels_last").same_strides, "a plain clone lost the strides")
    expect(not measured(matrix, "clone_contiguous_format", "channels_last").same_strides, "they were kept")


def _strided_slice_packed(matrix: Matrix) -> None:
    report = measured(matrix, "clone", "strided_view")
    source = _source("strided_view")
    expect(not source.is_contiguous(), "the slice is dense")
    expect(not report.same_strides, "the clone kept the slice's strides")
    expect(
        report.new_bytes == source.numel() * source.element_size(),
        f"the clone holds {report.new_bytes} bytes",
    )
    expect(source.clone().is_contiguous(), "the clone is not row-major")


def _slice_strides(matrix: Matrix) -> None:
    x = torch.arange(24.0).reshape(4, 6)[:, ::2]
    expect(x.stride() == (6, 2), f"the slice has strides {x.stride()}")
    expect(x.clone().stride() == (3, 1), f"the clone has strides {x.clone().stride()}")


def _expand_materialised(matrix: Matrix) -> None:
    e = torch.ones(3, 1).expand(3, 1000)
    expect(
        e.untyped_storage().nbytes() == 12, f"the expanded tensor holds {e.untyped_storage().nbytes()} bytes"
    )
    expect(
        e.clone().untyped_storage().nbytes() == 4 * e.numel(), "the clone does not hold 4 bytes per element"
    )


CLONE: list[Claim | Only | Every] = [
    Claim(
        "clone.copies-and-records",
        "{py:meth}`x.clone() <torch.Tensor.clone>` copies the data of `x` into new memory and records the "
        "copy in the autograd graph",
        _clone_copies_and_records,
        scope="registry",
    ),
    Claim(
        "clone.independent-yet-connected",
        "The result is independent in memory and connected in gradients: writing into it never touches `x`, "
        "yet a backward pass through it reaches `x`",
        _clone_independent_yet_connected,
        scope="registry",
    ),
    Every(
        "clone.shares-no-memory",
        "On {scenarios}, {ops} shares no memory with `x`, so an in-place change to the clone is invisible "
        "to `x`",
        ops=("clone",),
        expected={"shares_storage": False},
    ),
    Every(
        "clone.shares-nothing",
        "On {scenarios}, {ops} does not share the version counter of `x` either, so such a change is "
        "invisible to autograd's checks on `x`",
        ops=("clone",),
        expected={"shares_version_counter": False},
        scenarios=EVERYDAY,
    ),
    Claim(
        "clone.leaf-or-not",
        "Where `x` requires gradients, the clone is not a leaf: its `grad_fn` is `CloneBackward0`, and "
        "gradients flow through it to `x`",
        _clone_is_not_a_leaf,
        scope="registry",
    ),
    Claim(
        "clone.invents-no-history",
        "Where `x` does not require gradients, the clone does not either: `clone()` copies the history that "
        "exists and invents none",
        _clone_keeps_requires_grad,
        scope="registry",
    ),
    Claim(
        "clone.never-copies-grad",
        "`clone()` never copies `.grad`, on any kind of `x` tcdoc builds, and the clone of a "
        "{py:class}`~torch.nn.Parameter` is a plain `Tensor`",
        _clone_never_copies_grad,
        scope="registry",
    ),
    Claim(
        "clone.both-orders-agree",
        "Both orders end in the same place, a new leaf with its own memory and no history",
        _both_orders_agree,
        scope="registry",
    ),
    Claim(
        "clone.detach-first",
        "`x.detach().clone()` is the order to prefer, because `x.clone().detach()` first records a copy in "
        "the graph only to cut it off again",
        _clone_detach_records_first,
        scope="idiom: 'only to' means 'just to'",
    ),
    Claim(
        "clone.preserve-format",
        "`clone()` takes a `memory_format` argument, and its default, {py:data}`torch.preserve_format`, "
        "keeps the layout of `x` where it can",
        _preserve_format_is_the_default,
    ),
    Claim(
        "clone.channels-last",
        "A tensor in {py:data}`torch.channels_last` format keeps its strides through a plain `clone()`, and "
        "loses them when the clone is asked for {py:data}`torch.contiguous_format`",
        _channels_last_strides,
    ),
    Claim(
        "clone.strided-slice",
        "A strided slice such as `base[:, ::2]` is not dense, so there is no layout to preserve: its clone "
        "gets ordinary row-major strides and only the bytes of the slice",
        _strided_slice_packed,
        scope="stated: a strided slice",
    ),
    Claim(
        "clone.slice-strides",
        "The slice skips every other element, with strides `(6, 2)`; the clone packs its elements densely",
        _slice_strides,
    ),
    Claim(
        "clone.expand-writes-out",
        "A tensor made by {py:meth}`~torch.Tensor.expand` repeats one value without storing it again, and "
        "`clone()` writes every repeat out",
        _expand_materialised,
    ),
    Claim(
        "clone.expand-bytes",
        "The expanded tensor holds 12 bytes behind its 3000 elements; its clone holds 4 bytes for each one",
        _expand_materialised,
    ),
]


# -- explanation/detach.md -------------------------------------------------------------------


def _detach_same_memory_no_autograd(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "detach"):
        ok = (
            report.new_object
            and report.shares_storage
            and not report.requires_grad
            and report.grad_fn is None
        )
        expect(ok, f"detach on {scenario} measured {report}")


def _detach_copies_nothing(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "detach"):
        expect(report.new_bytes == 0 and not report.requires_grad, f"detach on {scenario} measured {report}")


def _write_through_detached(matrix: Matrix) -> None:
    x = torch.zeros(3, requires_grad=True)
    d = x.detach()
    d[0] = 7.0
    expect(x[0].item() == 7.0, "the write into d did not reach x")
    expect((x._version, d._version) == (1, 1), f"the counters read {(x._version, d._version)}")


def _autograd_sees_detached_changes(matrix: Matrix) -> None:
    error = _exp_backward_after_detached_change(torch.exp)
    expect(
        error is not None and "modified by an inplace operation" in error, f"the backward pass gave {error}"
    )


def _data_change_goes_unnoticed(matrix: Matrix) -> None:
    report = measured(matrix, "data", "leaf_requires_grad")
    expect(report.shares_storage and not report.shares_version_counter, f"x.data measured {report}")
    _silently_wrong(lambda t: t.data, ".data")


def _metadata_of_its_own(matrix: Matrix) -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d = x.detach()
    d.unsqueeze_(0)
    expect((x.shape, d.shape) == (torch.Size([2, 3]), torch.Size([1, 2, 3])), f"shapes {x.shape}, {d.shape}")


def _old_note_disproved(matrix: Matrix) -> None:
    changes: dict[str, Callable[[torch.Tensor], object]] = {
        "resize_": lambda d: d.resize_(3, 2),
        "resize_as_": lambda d: d.resize_as_(torch.ones(6)),
        "set_": lambda d: d.set_(torch.zeros(4)),  # type: ignore[call-overload]  # a tensor is a source too
        "transpose_": lambda d: d.transpose_(0, 1),
    }
    for name, change in changes.items():
        x = torch.ones(2, 3, requires_grad=True)
        d = x.detach()
        try:
            change(d)
        except RuntimeError as error:
            raise ClaimFalse(f"{name} on a detached tensor raised: {error}") from None
        expect(x.shape == torch.Size([2, 3]), f"{name} on the detached tensor changed x's shape")


def _tangent(make: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor | None:
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore", DeprecationWarning)  # raised inside torch on some versions
        primal = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))  # type: ignore[no-untyped-call]
        tangent: torch.Tensor | None = fwAD.unpack_dual(make(primal)).tangent  # type: ignore[no-untyped-call]
    return tangent


def _forward_tangents(matrix: Matrix) -> None:
    kept = _tangent(lambda t: t.clone())
    expect(kept is not None and torch.equal(kept, torch.full((2,), 3.0)), f"the clone's tangent is {kept}")
    expect(_tangent(lambda t: t.detach()) is None, "detach() kept the tangent")


def _detach_clone_has_no_tangent(matrix: Matrix) -> None:
    expect(_tangent(lambda t: t.detach().clone()) is None, "detach().clone() has a tangent")


def _detached_leaf_stops_gradients(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    d = x.detach().requires_grad_()
    expect(d.is_leaf, "the detached tensor is not a leaf")
    _backward((d * 5).sum())
    expect(d.grad is not None and torch.equal(d.grad, torch.full((3,), 5.0)), f"d.grad is {d.grad}")
    expect(x.grad is None, f"x.grad is {x.grad}")


def _detach_in_place(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True) * 2
    expect(not x.is_leaf, "x started as a leaf")
    x.detach_()
    expect(x.is_leaf and not x.requires_grad, "detach_() did not make x a leaf")


DETACH: list[Claim | Only | Every] = [
    Claim(
        "detach.same-memory-no-autograd",
        "{py:meth}`x.detach() <torch.Tensor.detach>` returns a new tensor object that reads the same memory "
        "as `x` and takes no part in autograd",
        _detach_same_memory_no_autograd,
        scope="registry",
    ),
    Claim(
        "detach.copies-nothing",
        "It copies nothing: it is a second window onto the bytes of `x`, with its own `requires_grad=False`",
        _detach_copies_nothing,
        scope="registry",
    ),
    Every(
        "detach.shares-memory",
        "On {scenarios}, {ops} shares the storage of `x`, holds no new bytes, and is a leaf that does not "
        "require gradients",
        ops=("detach",),
        expected={"shares_storage": True, "new_bytes": 0, "is_leaf": True, "requires_grad": False},
    ),
    Every(
        "detach.shares-both",
        "On {scenarios}, {ops} shares the version counter of `x` as well",
        ops=("detach",),
        expected={"shares_version_counter": True},
        scenarios=EVERYDAY,
    ),
    Every(
        "detach.parameter-to-tensor",
        "On {scenarios}, {ops} gives a plain `Tensor`",
        ops=("detach",),
        expected={"result_type": "Tensor"},
        scenarios=("parameter", "parameter_with_attribute"),
    ),
    Claim(
        "detach.write-goes-through",
        "The write into `d` shows up in `x`, because they are one block of memory",
        _write_through_detached,
    ),
    Claim(
        "detach.counter-sees-changes",
        "Because `d` shares the version counter of `x`, autograd's checks see in-place changes made through "
        "`d`",
        _autograd_sees_detached_changes,
    ),
    Claim(
        "detach.one-change-counts-twice",
        "The single write into `d` counts as one change to `x` as well",
        _write_through_detached,
    ),
    Claim(
        "detach.saved-x-would-fail",
        "If autograd had saved `x` for a backward pass, that pass would now stop with an error instead of "
        "computing a wrong gradient",
        _autograd_sees_detached_changes,
    ),
    Claim(
        "detach.data-goes-unnoticed",
        "`x.data` shares the memory without the counter, so the same change goes unnoticed",
        _data_change_goes_unnoticed,
    ),
    Claim(
        "detach.own-metadata",
        "The result has metadata of its own, so changing its shape in place leaves `x` as it was",
        _metadata_of_its_own,
    ),
    Claim(
        "detach.bytes-not-description",
        "`d` gained a dimension while `x` kept its shape: only the bytes are shared, not the description of "
        "them",
        _metadata_of_its_own,
        scope="stated: d and x above",
    ),
    Claim(
        "detach.old-note-no-longer-holds",
        "In torch {tcdoc-env}`torch`, none of the four raises an error on a detached tensor, and none "
        "changes the shape of `x`",
        _old_note_disproved,
    ),
    Claim(
        "detach.drops-tangent",
        "`detach()` drops it, while `clone()` keeps it",
        _forward_tangents,
    ),
    Claim(
        "detach.tangent-3",
        "The clone still carries the tangent `3`, and the detached tensor carries none: `detach()` cuts "
        "forward-mode history just as it cuts the backward graph",
        _forward_tangents,
    ),
    Claim(
        "detach.requires-grad-makes-a-leaf",
        "Calling {py:meth}`~torch.Tensor.requires_grad_` on the detached tensor makes it a leaf of its own, "
        "whose gradients stop there",
        _detached_leaf_stops_gradients,
    ),
    Claim(
        "detach.gradient-landed-in-d",
        "The gradient landed in `d.grad` and `x.grad` stayed `None`",
        _detached_leaf_stops_gradients,
    ),
    Claim(
        "detach.in-place-variant",
        "{py:meth}`~torch.Tensor.detach_` is the in-place variant, which turns `x` itself into a leaf",
        _detach_in_place,
    ),
]


# -- explanation/deepcopy.md -----------------------------------------------------------------


def _deepcopy_shares_nothing(matrix: Matrix) -> None:
    copied = _each_measured(matrix, "deepcopy")
    expect(copied, "deepcopy copied no kind of x")
    for scenario, report in copied:
        source = _source(scenario)
        ok = not report.shares_storage and not report.shares_version_counter and report.is_leaf
        ok = ok and report.grad_fn is None and report.requires_grad == source.requires_grad
        expect(ok, f"deepcopy on {scenario} measured {report}")


def _deepcopy_plain_grad_and_attributes(matrix: Matrix) -> None:
    report = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(report.copies_grad and report.copies_attributes, f"deepcopy of a plain leaf measured {report}")
    x = _source("leaf_requires_grad")
    y = copy.deepcopy(x)
    expect(y.grad is not x.grad and y.note is not None, "the copies are not new objects")  # type: ignore[attr-defined]


def _deepcopy_refuses_non_leaf(matrix: Matrix) -> None:
    for scenario in ("non_leaf", "zero_dim"):
        row = matrix.get("deepcopy", scenario)
        expect(
            row.error is not None and "leaves" in row.error.message, f"deepcopy of {scenario}: {row.outcome}"
        )
    # A leaf is copied; a Tensor subclass is refused for a reason of its own (the look-alikes page).
    for scenario in _everyday_names():
        if _source(scenario).is_leaf:
            expect(matrix.get("deepcopy", scenario).error is None, f"deepcopy raised on the leaf {scenario}")


class _Scaled(torch.nn.Module):
    def __init__(self, detach: bool) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))
        self.detach = detach

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        self.scale = (self.weight.detach() if self.detach else self.weight) * 2
        return inputs * self.scale


def _module_with_non_leaf(matrix: Matrix) -> None:
    broken, fixed = _Scaled(detach=False), _Scaled(detach=True)
    broken(torch.ones(3))
    fixed(torch.ones(3))
    _raises(lambda: copy.deepcopy(broken))
    _does_not_raise(lambda: copy.deepcopy(fixed))


def _old_weight_norm(matrix: Matrix) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old weight_norm is deprecated
        old = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    old(torch.ones(1, 3))
    expect("103001" in str(_raises(lambda: copy.deepcopy(old))), "the error does not point at 103001")
    new = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    new(torch.ones(1, 3))
    _does_not_raise(lambda: copy.deepcopy(new))


def _aliasing_within_one_call(matrix: Matrix) -> None:
    base = torch.arange(4.0)
    view = base[1:]
    one_base, one_view = copy.deepcopy([base, view])
    expect(shares_memory(one_base, one_view), "one call did not keep the two together")
    one_base[1] = 100.0
    expect(one_view[0].item() == 100.0 and base[1].item() == 1.0, "the write did not behave")
    two_base, two_view = copy.deepcopy(base), copy.deepcopy(view)
    expect(not shares_memory(two_base, two_view), "two calls kept the two together")


def _slice_copies_its_storage(matrix: Matrix) -> None:
    big = torch.arange(1000.0)
    part = big[:10]
    deep = copy.deepcopy(part).untyped_storage().nbytes()
    cloned = part.clone().untyped_storage().nbytes()
    expect((deep, cloned) == (4000, 40), f"deepcopy holds {deep} bytes, the clone {cloned}")


def _parameter_deepcopy_is_its_own(matrix: Matrix) -> None:
    expect(
        torch.nn.Parameter.__deepcopy__ is not torch.Tensor.__deepcopy__, "Parameter uses Tensor's deepcopy"
    )


def _parameter_deepcopy_drops(matrix: Matrix) -> None:
    for scenario in ("parameter", "parameter_with_attribute"):
        report = measured(matrix, "deepcopy", scenario)
        ok = report.result_type == "Parameter" and report.requires_grad and report.copies_grad is False
        expect(ok, f"deepcopy on {scenario} measured {report}")
    expect(measured(matrix, "deepcopy", "parameter_with_attribute").copies_attributes is False, "kept them")
    plain = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(plain.copies_grad and plain.copies_attributes, f"a plain leaf's deepcopy measured {plain}")


def _copy_keeps_parameter_attributes(matrix: Matrix) -> None:
    report = measured(matrix, "copy", "parameter_with_attribute")
    ok = report.copies_attributes is True and report.copies_grad is False and report.shares_storage
    expect(ok, f"copy.copy of the parameter measured {report}")


def _tied_module(matrix: Matrix) -> None:
    model = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
    model[1].weight = model[0].weight
    model.register_buffer("steps", torch.zeros(1))
    twin = copy.deepcopy(model)
    copied, original = twin[0].weight, model[0].weight
    steps, original_steps = twin.get_buffer("steps"), model.get_buffer("steps")
    assert isinstance(copied, torch.Tensor)
    assert isinstance(original, torch.Tensor)
    expect(twin[1].weight is copied, "the tie was lost")
    expect(copied is not original, "the copy holds the original parameter")
    expect(not shares_memory(copied, original), "the copy shares the original's memory")
    expect(not shares_memory(steps, original_steps), "the buffer was not copied")


DEEPCOPY: list[Claim | Only | Every] = [
    Claim(
        "deepcopy.shares-nothing",
        "On every kind of `x` it copies, the copy shares nothing with `x`: new memory, a new version "
        "counter, and a new leaf that keeps `requires_grad` but no history",
        _deepcopy_shares_nothing,
        scope="registry",
    ),
    Claim(
        "deepcopy.plain-grad-and-attributes",
        "For a plain tensor, `.grad` and Python attributes set on `x` are copied too, into new objects",
        _deepcopy_plain_grad_and_attributes,
    ),
    Claim(
        "deepcopy.refuses-non-leaf",
        "A tensor that an operation produced is not a leaf, and deepcopy refuses it",
        _deepcopy_refuses_non_leaf,
        scope="registry",
    ),
    Claim(
        "deepcopy.module-fix",
        "Keeping `self.weight.detach() * 2`, or not keeping the tensor at all, makes the module copyable "
        "again",
        _module_with_non_leaf,
    ),
    Claim(
        "deepcopy.weight-norm",
        "The old {py:func}`torch.nn.utils.weight_norm` is the best-known case: it recomputes the weight as "
        "such an attribute, and its replacement {py:func}`torch.nn.utils.parametrizations.weight_norm` does "
        "not",
        _old_weight_norm,
    ),
    Claim(
        "deepcopy.memo",
        "Deepcopy remembers what it has copied during one call, so tensors that shared memory before still "
        "share it afterwards, with each other",
        _aliasing_within_one_call,
    ),
    Claim(
        "deepcopy.pair-kept",
        "Writing into the copied base changed the copied view, so the pair kept its relationship, while the "
        "originals were untouched",
        _aliasing_within_one_call,
    ),
    Claim(
        "deepcopy.two-calls",
        "Two separate calls, `copy.deepcopy(base)` and `copy.deepcopy(view)`, would give two unrelated "
        "copies",
        _aliasing_within_one_call,
    ),
    Claim(
        "deepcopy.whole-storage",
        "Deepcopy keeps the slice a slice of a copied storage, so it copies every byte of the storage, "
        "including the ones the slice never reads; `x.detach().clone()` copies only the elements of the "
        "slice",
        _slice_copies_its_storage,
        scope="stated: a slice",
    ),
    Claim(
        "deepcopy.ten-elements",
        "Ten elements cost 4000 bytes through deepcopy and 40 through a clone",
        _slice_copies_its_storage,
    ),
    Claim(
        "deepcopy.parameter-has-its-own",
        "{py:class}`torch.nn.Parameter` defines its own deepcopy, and it differs from the one for plain "
        "tensors",
        _parameter_deepcopy_is_its_own,
    ),
    Claim(
        "deepcopy.parameter-drops-grad-and-attributes",
        "The deepcopy of a parameter is a `Parameter` again and keeps `requires_grad`, but it starts without "
        "`.grad` and without the Python attributes of `x`, both of which the deepcopy of a plain leaf copies",
        _parameter_deepcopy_drops,
    ),
    Claim(
        "deepcopy.copy-keeps-parameter-attributes",
        "`copy.copy(x)` of the same parameter keeps its Python attributes (and shares its memory), but not "
        "its `.grad`",
        _copy_keeps_parameter_attributes,
    ),
    Claim(
        "deepcopy.module-ties",
        "Deepcopying a whole {py:class}`torch.nn.Module` copies every parameter and buffer once, so weights "
        "that were tied stay tied in the copy",
        _tied_module,
    ),
    Claim(
        "deepcopy.one-parameter-inside",
        "Inside the copy the two layers share one parameter, as in the original, and that parameter is not "
        "the original's",
        _tied_module,
    ),
]


# -- explanation/look-alikes.md --------------------------------------------------------------


def _some_copy_some_share_some_return_x(matrix: Matrix) -> None:
    reports = [report for _, report in _each_measured_on(matrix, "leaf_requires_grad")]
    expect(any(not r.shares_storage for r in reports), "none copies")
    expect(any(r.new_object and r.shares_storage for r in reports), "none shares memory")
    expect(any(not r.new_object for r in reports), "none returns x itself")


def _each_measured_on(matrix: Matrix, scenario: str) -> list[tuple[str, Comparison]]:
    rows = [matrix.get(op.name, scenario) for op in operations()]
    return [(row.operation, row.properties) for row in rows if row.properties is not None]


def _data_shares_memory_not_counter(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "data"):
        ok = report.shares_storage and not report.shares_version_counter
        expect(ok, f"x.data on {scenario} measured {report}")
    report = measured(matrix, "detach", "leaf_requires_grad")
    expect(report.shares_storage and report.shares_version_counter, f"detach measured {report}")


def _data_gives_zero(matrix: Matrix) -> None:
    outcome = _changed_saved_output(lambda t: t.data)
    expect(isinstance(outcome, torch.Tensor) and torch.equal(outcome, torch.zeros(2)), f"it gave {outcome}")
    _silently_wrong(lambda t: t.data, ".data")


def _detach_stops_backward(matrix: Matrix) -> None:
    _stops_backward(lambda t: t.detach(), "detach()")


def _counter_is_the_difference(matrix: Matrix) -> None:
    _stops_backward(lambda t: t.detach(), "detach()")
    _silently_wrong(lambda t: t.data, ".data")
    p = torch.nn.Parameter(torch.ones(3))
    before = p._version
    with torch.no_grad():
        p.copy_(torch.zeros(3))
    expect(p._version == before + 1, "an in-place change under no_grad was not counted")


def _copy_copy_is_a_new_window(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "copy"):
        ok = report.new_object and report.shares_storage and not report.shares_version_counter
        ok = ok and report.requires_grad == _source(scenario).requires_grad
        expect(ok, f"copy.copy on {scenario} measured {report}")


def _copy_copy_of_non_leaf(matrix: Matrix) -> None:
    report = measured(matrix, "copy", "non_leaf")
    expect(report.is_leaf and report.requires_grad and report.grad_fn is None, f"copy.copy measured {report}")
    expect(not report.gradient_flows_to_source, "gradients reach the source")
    a = torch.ones(3, requires_grad=True)
    z = a * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        c = copy.copy(z)
        _backward(c.sum())
    expect(not caught, f"it warned: {[str(w.message) for w in caught]}")
    expect(a.grad is None and c.grad is not None, f"a.grad is {a.grad}, c.grad is {c.grad}")
    expect(matrix.get("deepcopy", "non_leaf").error is not None, "deepcopy of the same tensor did not raise")


def _copy_copy_attributes_not_grad(matrix: Matrix) -> None:
    for scenario in ("leaf_requires_grad", "parameter_with_attribute"):
        report = measured(matrix, "copy", scenario)
        expect(report.copies_attributes is True and report.copies_grad is False, f"{scenario}: {report}")


def _tensor_constructors_copy(matrix: Matrix) -> None:
    for op in ("torch_tensor", "new_tensor"):
        for scenario, report in _each_measured(matrix, op):
            expect(not report.shares_storage, f"{op} on {scenario} shares memory")
    for scenario, report in _each_measured(matrix, "as_tensor"):
        expect(not report.new_object, f"as_tensor on {scenario} did not return x")
    x = torch.ones(3)
    expect(not shares_memory(x, torch.as_tensor(x, dtype=torch.float64)), "as_tensor did not copy to convert")


def _like_detach_clone_with_a_warning(matrix: Matrix) -> None:
    for op in ("torch_tensor", "new_tensor"):
        for scenario in _everyday_names():
            row, reference = matrix.get(op, scenario), matrix.get("detach_clone", scenario)
            expect(
                row.properties == reference.properties, f"{op} on {scenario} differs from detach().clone()"
            )
            expect(
                any("detach().clone()" in w.message for w in row.warnings), f"{op} did not warn on {scenario}"
            )


def _as_tensor_returns_x(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "as_tensor"):
        expect(
            not report.new_object and report.gradient_flows_to_source == _source(scenario).requires_grad,
            scenario,
        )


def _return_x_when_nothing_to_do(matrix: Matrix) -> None:
    for op in ("to_same_dtype", "cpu"):
        for scenario, report in _each_measured(matrix, op):
            expect(not report.new_object, f"{op} on {scenario} made a new object")
    for scenario, report in _each_measured(matrix, "contiguous"):
        dense = _source(scenario).is_contiguous()
        expect(report.new_object != dense, f"contiguous on {scenario}: new object {report.new_object}")


def _change_copies_no_change_is_x(matrix: Matrix) -> None:
    _return_x_when_nothing_to_do(matrix)
    for scenario, report in _each_measured(matrix, "to_float64"):
        expect(not report.shares_storage, f"to(float64) on {scenario} shares memory")
    expect(not measured(matrix, "contiguous", "strided_view").shares_storage, "contiguous() shares memory")


def _to_copy_always_copies(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "to_copy"):
        expect(report.new_object and not report.shares_storage, f"to(copy=True) on {scenario}: {report}")


def _view_or_fail_reshape_either(matrix: Matrix) -> None:
    for scenario in _strided_names():
        view, reshaped = matrix.get("view", scenario), matrix.get("reshape", scenario)
        expect(view.properties is None or view.properties.shares_storage, f"view on {scenario} copied")
        expect(reshaped.properties is not None, f"reshape on {scenario}: {reshaped.outcome}")
        assert reshaped.properties is not None
        expect(reshaped.properties.shares_storage == (view.error is None), f"reshape on {scenario} disagrees")


def _channels_last_view_raises(matrix: Matrix) -> None:
    expect(matrix.get("view", "channels_last").error is not None, "view(-1) did not raise on channels_last")
    report = measured(matrix, "reshape", "channels_last")
    expect(not report.shares_storage and bool(report.new_bytes), f"reshape measured {report}")


def _numpy_round_trip_shares(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "numpy_roundtrip"):
        expect(report.shares_storage and not report.shares_version_counter, f"{scenario}: {report}")
    for scenario in _everyday_names():
        expect(matrix.get("numpy_roundtrip", scenario).properties is not None, f"not measured on {scenario}")
    outcome = _changed_saved_output(lambda t: torch.from_numpy(t.detach().numpy()))
    expect(isinstance(outcome, torch.Tensor), f"a change through NumPy was noticed: {outcome}")


def _save_load_new_memory(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "save_load"):
        source = _source(scenario)
        ok = not report.shares_storage and report.result_type == type(source).__name__
        expect(ok and report.requires_grad == source.requires_grad, f"save/load on {scenario}: {report}")


def _save_load_whole_storage(matrix: Matrix) -> None:
    loaded = measured(matrix, "save_load", "strided_view").new_bytes
    cloned = measured(matrix, "detach_clone", "strided_view").new_bytes
    expect((loaded or 0) > (cloned or 0), f"the loaded slice holds {loaded} bytes, its clone {cloned}")


def _parameter_wrap_copies_nothing(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "parameter_wrap"):
        ok = report.shares_storage and report.new_bytes == 0 and report.requires_grad
        expect(ok, f"Parameter(x) on {scenario} measured {report}")
    expect(not _source("no_grad").requires_grad, "the no_grad scenario requires grad")


def _parameter_of_a_clone(matrix: Matrix) -> None:
    x = torch.ones(3)
    expect(not shares_memory(x, torch.nn.Parameter(x.detach().clone())), "the parameter shares x's memory")


def _state_dict_references(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()
    expect(shares_memory(saved["weight"], model.weight) and not saved["weight"].requires_grad, "not detached")
    best = copy.deepcopy(model.state_dict())
    with torch.no_grad():
        model.weight.add_(1.0)
    expect(torch.equal(saved["weight"], model.weight), "the saved tensor did not follow the update")
    expect(not torch.equal(best["weight"], model.weight), "the deep copy followed the update")


LOOK_ALIKES: list[Claim | Only | Every] = [
    Claim(
        "look-alikes.some-copy-some-share",
        "Some copy, some share memory, and some return `x` itself",
        _some_copy_some_share_some_return_x,
    ),
    Claim(
        "look-alikes.data-shares-memory-not-counter",
        "It shares the memory of `x`, like `detach()`, but not the version counter",
        _data_shares_memory_not_counter,
        scope="registry",
    ),
    Claim(
        "look-alikes.data-gives-zero",
        "No error, and a gradient of zero: sigmoid's derivative was computed from the zeroed output, so the "
        "gradient is silently wrong",
        _data_gives_zero,
    ),
    Claim(
        "look-alikes.detach-stops-it",
        "The same change through `detach()` stops the backward pass instead",
        _detach_stops_backward,
    ),
    Claim(
        "look-alikes.counter-is-the-difference",
        "The shared version counter is what turns a silent wrong answer into an error, which is the reason "
        "to prefer `detach()`, and {py:class}`torch.no_grad` (whose in-place changes are counted) for "
        "updating parameters in place",
        _counter_is_the_difference,
    ),
    Claim(
        "look-alikes.copy-copy-new-window",
        "On every kind of `x` tcdoc builds, {py:func}`copy.copy` gives a new tensor object over the same "
        "memory, with no shared version counter: the same hazard as `x.data`, but keeping `requires_grad`",
        _copy_copy_is_a_new_window,
        scope="registry",
    ),
    Claim(
        "look-alikes.copy-copy-non-leaf",
        "`copy.copy` of a tensor that is not a leaf silently makes a new leaf that keeps `requires_grad`: a "
        "backward pass through it fills its own `.grad` and never reaches the source, where `copy.deepcopy` "
        "of the same tensor raises",
        _copy_copy_of_non_leaf,
        scope="stated: a tensor that is not a leaf",
    ),
    Claim(
        "look-alikes.copy-copy-attributes",
        "`copy.copy` keeps the Python attributes of `x`, on a plain tensor and on a `Parameter`, but never "
        "copies its `.grad`",
        _copy_copy_attributes_not_grad,
        scope="stated: the two kinds of x tcdoc builds with attributes and .grad",
    ),
    Claim(
        "look-alikes.constructors",
        "{py:func}`torch.tensor` and {py:meth}`~torch.Tensor.new_tensor` always copy, and "
        "{py:func}`torch.as_tensor` copies only when it must",
        _tensor_constructors_copy,
        scope="registry",
    ),
    Claim(
        "look-alikes.like-detach-clone",
        "On every everyday kind of `x`, the first two give the same result as `x.detach().clone()`, with a "
        "warning that says so",
        _like_detach_clone_with_a_warning,
        scope="stated: the everyday scenarios",
    ),
    Claim(
        "look-alikes.as-tensor-returns-x",
        "`torch.as_tensor(x)` on a tensor of the right dtype and device returns `x` itself, history and all",
        _as_tensor_returns_x,
        scope="registry",
    ),
    Claim(
        "look-alikes.return-x",
        "{py:meth}`~torch.Tensor.to`, {py:meth}`~torch.Tensor.cpu` and {py:meth}`~torch.Tensor.contiguous` "
        "return `x` itself when there is nothing to convert",
        _return_x_when_nothing_to_do,
        scope="registry",
    ),
    Claim(
        "look-alikes.change-copies",
        "A conversion that changes something (another dtype, a non-contiguous source for `contiguous()`) "
        "makes a copy, and one that changes nothing is not a copy at all",
        _change_copies_no_change_is_x,
        scope="registry",
    ),
    Claim(
        "look-alikes.to-copy-always-copies",
        "`x.to(..., copy=True)` is the spelling that always copies",
        _to_copy_always_copies,
        scope="registry",
    ),
    Claim(
        "look-alikes.view-and-reshape",
        "On a dense (strided) tensor, {py:meth}`~torch.Tensor.view` always shares memory and fails when it "
        "cannot; {py:meth}`~torch.Tensor.reshape` shares when it can and copies when it must",
        _view_or_fail_reshape_either,
        scope="stated: every strided scenario",
    ),
    Claim(
        "look-alikes.channels-last-view-raises",
        "On a {py:data}`torch.channels_last` tensor, `view(-1)` raises and `reshape(-1)` quietly copies",
        _channels_last_view_raises,
    ),
    Claim(
        "look-alikes.numpy-shares",
        "{py:meth}`~torch.Tensor.numpy` and {py:func}`torch.from_numpy` share memory on the CPU, so a round "
        "trip is not a copy",
        _numpy_round_trip_shares,
        needs=("numpy",),
    ),
    Claim(
        "look-alikes.numpy-escapes",
        "The tensor that comes back reads the bytes of `x` but keeps no version counter in common with it, "
        "so in-place changes through NumPy escape autograd's checks just as `.data` does",
        _numpy_round_trip_shares,
        needs=("numpy",),
    ),
    Claim(
        "look-alikes.save-load",
        "A trip through {py:func}`torch.save` and {py:func}`torch.load` gives new memory and keeps the type "
        "and `requires_grad`",
        _save_load_new_memory,
        scope="registry",
    ),
    Claim(
        "look-alikes.save-load-whole-storage",
        "Like deepcopy, it writes a slice's whole storage: the loaded slice holds more bytes than a clone "
        "of it",
        _save_load_whole_storage,
    ),
    Claim(
        "look-alikes.parameter-wrap",
        "Wrapping a tensor in {py:class}`torch.nn.Parameter` copies nothing: the parameter reads the memory "
        "of `x`, and requires gradients even where `x` did not",
        _parameter_wrap_copies_nothing,
        scope="registry",
    ),
    Claim(
        "look-alikes.wrap-a-clone",
        "To make a parameter from values you want to keep separate, wrap a clone",
        _parameter_of_a_clone,
    ),
    Claim(
        "look-alikes.state-dict-references",
        "{py:meth}`torch.nn.Module.state_dict` returns the module's own tensors, detached, not copies of "
        "them",
        _state_dict_references,
    ),
    Claim(
        "look-alikes.snapshot-followed",
        'The saved "snapshot" followed the update, because it is the same memory',
        _state_dict_references,
    ),
]


# -- howto/which-copy.md ---------------------------------------------------------------------


def _deepcopy_error_words(matrix: Matrix) -> None:
    row = matrix.get("deepcopy", "non_leaf")
    expect(row.error is not None, "deepcopy of a non-leaf did not raise")
    assert row.error is not None
    expect(row.error.message.startswith("Only Tensors created explicitly by the user"), row.error.message)


def _may_share(matrix: Matrix) -> None:
    for op in ("to_same_dtype", "cpu", "contiguous", "reshape", "numpy_roundtrip"):
        expect(any(report.shares_storage for _, report in _each_measured(matrix, op)), f"{op} never shares")


def _loss_holds_its_graph(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    loss = (w * torch.arange(3.0)).exp().sum()
    expect(graph_memory(loss).saved_bytes > 0, "the loss holds no saved tensors")
    expect(graph_memory(loss.detach()).saved_bytes == 0, "the detached loss holds a graph")


def _accumulating_keeps_every_graph(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    total = torch.zeros(())
    held = []
    for step in range(4):
        total = total + (w * step).exp().sum()
        held.append(graph_memory(total).saved_bytes)
    expect(held == sorted(held) and held[-1] > held[0], f"the saved bytes went {held}")


def _deepcopy_separate_with_ties(matrix: Matrix) -> None:
    _tied_module(matrix)


def _requires_grad_false_on_non_leaf(matrix: Matrix) -> None:
    y = torch.ones(3, requires_grad=True) * 2
    error = _raises(lambda: setattr(y, "requires_grad", False))
    expect("leaf" in str(error), f"the error says: {error}")


def _detached_input_stops_backward(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    features = w * 2
    head = torch.ones(3, requires_grad=True)
    _backward((features.detach() * head).sum())
    expect(w.grad is None and head.grad is not None, f"w.grad is {w.grad}")
    expect(measured(matrix, "detach", "non_leaf").new_bytes == 0, "detach copied memory")


def _clone_protects(matrix: Matrix) -> None:
    report = measured(matrix, "clone", "leaf_requires_grad")
    ok = not report.shares_storage and not report.shares_version_counter and report.gradient_flows_to_source
    expect(ok, f"clone measured {report}")


def _detach_fails_only_where_saved(matrix: Matrix) -> None:
    report = measured(matrix, "detach", "leaf_requires_grad")
    expect(report.shares_storage and report.shares_version_counter, f"detach measured {report}")
    expect(_exp_backward_after_detached_change(torch.exp) is not None, "the change after exp went through")
    error = _exp_backward_after_detached_change(lambda x: x + 1)
    expect(error is None, f"the change after x + 1 stopped the backward pass: {error}")


def _no_grad_counted_data_not(matrix: Matrix) -> None:
    p = torch.nn.Parameter(torch.ones(3))
    before = p._version
    with torch.no_grad():
        p.copy_(torch.zeros(3))
    expect(p._version == before + 1, "the change under no_grad was not counted")
    p.data.copy_(torch.ones(3))
    expect(p._version == before + 1, "the change through .data was counted")
    _silently_wrong(lambda t: t.data, ".data")


def _torch_tensor_warns(matrix: Matrix) -> None:
    row = matrix.get("torch_tensor", "leaf_requires_grad")
    expect(row.properties == matrix.get("detach_clone", "leaf_requires_grad").properties, "results differ")
    warned = [w for w in row.warnings if w.category == "UserWarning" and "detach().clone()" in w.message]
    expect(warned, f"torch.tensor(x) warned {row.warnings}")


def _snapshot(matrix: Matrix) -> None:
    x = torch.zeros(3)
    alias, snapshot = x.detach(), x.detach().clone()
    x.add_(1)
    expect(torch.equal(alias, x) and not torch.equal(snapshot, x), "the snapshot or the alias misbehaved")


def _module_with_attribute_fails(matrix: Matrix) -> None:
    _module_with_non_leaf(matrix)
    _deepcopy_refuses_non_leaf(matrix)


def _clone_holds_only_the_slice(matrix: Matrix) -> None:
    big = torch.zeros(1000)
    part = big[:10]
    expect(part.clone().untyped_storage().nbytes() == 40, "the clone holds more than the slice")
    expect(copy.deepcopy(part).untyped_storage().nbytes() == 4000, "deepcopy did not copy the whole storage")
    expect(
        part.untyped_storage().data_ptr() == big.untyped_storage().data_ptr(), "the slice has its own storage"
    )


def _clone_detach_drop_parameter(matrix: Matrix) -> None:
    for op in ("clone", "detach", "detach_clone"):
        expect(measured(matrix, op, "parameter").result_type == "Tensor", f"{op} kept the Parameter class")
    report = measured(matrix, "deepcopy", "parameter")
    expect(report.result_type == "Parameter" and report.requires_grad, f"deepcopy measured {report}")


def _numpy_refuses_and_shares(matrix: Matrix) -> None:
    _raises(lambda: torch.ones(3, requires_grad=True).numpy())
    t = torch.zeros(3)
    array = t.numpy()
    array[0] = 5.0
    expect(t[0].item() == 5.0, "the array does not share the tensor's memory")


def _numpy_array_into_tensor(matrix: Matrix) -> None:
    import numpy as np

    array = np.zeros(3, dtype=np.float32)
    shared, copied = torch.from_numpy(array), torch.tensor(array)
    same_dtype, other_dtype = torch.as_tensor(array), torch.as_tensor(array, dtype=torch.float64)
    array[0] = 7.0
    seen = [float(t[0]) for t in (shared, copied, same_dtype, other_dtype)]
    expect(seen == [7.0, 0.0, 7.0, 0.0], f"the four tensors read {seen}")


def _contiguous_or_clone(matrix: Matrix) -> None:
    for scenario, report in _each_measured(matrix, "contiguous"):
        if _source(scenario).is_contiguous():
            expect(not report.new_object, f"contiguous() on {scenario} made a new object")
    for scenario, report in _each_measured(matrix, "clone"):
        expect(not report.shares_storage, f"clone on {scenario} shares memory")
        if scenario == "channels_last":
            expect(report.same_strides, "clone changed the channels_last layout")
    expect(torch.zeros(2, 3, 4, 4).to(memory_format=torch.channels_last).clone().is_contiguous(
        memory_format=torch.channels_last), "clone lost channels_last")  # fmt: skip


def _save_keeps_views(matrix: Matrix) -> None:
    base = torch.arange(10_000.0)
    buffer = io.BytesIO()
    torch.save([base, base[:2]], buffer)
    buffer.seek(0)
    loaded_base, loaded_view = torch.load(buffer)
    expect(shares_memory(loaded_base, loaded_view), "the loaded view does not share the loaded base")
    small, whole = io.BytesIO(), io.BytesIO()
    torch.save(base[:2].clone(), small)
    torch.save(base[:2], whole)
    expect(len(whole.getvalue()) - len(small.getvalue()) >= 9_000 * 4, "the slice did not write its storage")


def _fill_with_ones(tensor: torch.Tensor) -> None:
    tensor.fill_(1.0)


def _shared_memory_reaches_the_parent(matrix: Matrix) -> None:
    import multiprocessing

    import torch.multiprocessing  # registers how tensors in shared memory travel to a new process

    forks = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork") if forks else multiprocessing.get_context("spawn")
    x = torch.zeros(3)
    x.share_memory_()  # type: ignore[no-untyped-call]
    worker = context.Process(target=_fill_with_ones, args=(x,))
    worker.start()
    worker.join(timeout=120)
    expect(worker.exitcode == 0, f"the worker exited with {worker.exitcode}")
    expect(torch.equal(x, torch.ones(3)), "the worker's write did not reach the parent")


def _to_returns_x_or_moves(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    expect(x.to(x.device) is x and x.cpu() is x, "to() or cpu() copied a tensor already there")
    forced = x.to(x.device, copy=True)
    expect(forced is not x and forced.grad_fn is not None, "the forced copy left the graph")
    for scenario, report in _each_measured(matrix, "to_float64"):
        if _source(scenario).requires_grad:
            expect(report.gradient_flows_to_source, f"to(float64) on {scenario} left the graph")


def _view_costs_nothing(matrix: Matrix) -> None:
    for size in (10, 100_000):
        x = torch.ones(size)
        expect(compare(x, x.detach()).new_bytes == 0, "a view allocated memory")
        expect(compare(x, x.detach().clone()).new_bytes == size * 4, "a copy did not allocate its bytes")


WHICH_COPY: list[Claim | Only | Every] = [
    Claim(
        "which-copy.deepcopy-error-words",
        "A deepcopy that meets a tensor computed from one that requires gradients fails with an error that "
        'begins "Only Tensors created explicitly by the user"',
        _deepcopy_error_words,
        scope="quotes the start of torch's error message",
    ),
    Claim("which-copy.detach-copies-nothing", "it copies nothing", _detach_copies_nothing, scope="registry"),
    Claim(
        "which-copy.may-share",
        "each may return memory shared with `x`",
        _may_share,
        needs=("numpy",),
    ),
    Claim(
        "which-copy.loss-holds-its-graph",
        "`loss` holds its whole autograd graph, and every intermediate value in it, for as long as it is "
        "alive",
        _loss_holds_its_graph,
    ),
    Claim(
        "which-copy.accumulating-keeps-graphs",
        "appending `loss` itself to a list, or `total_loss += loss`, keeps one graph alive per iteration, so "
        "memory grows until training ends",
        _accumulating_keeps_every_graph,
    ),
    Claim(
        "which-copy.state-dict-references",
        "{py:meth}`~torch.nn.Module.state_dict` returns references to the live tensors, not copies",
        _state_dict_references,
    ),
    Claim(
        "which-copy.state-dict-keeps-changing",
        '`best = model.state_dict()` keeps changing as training continues, so "the best weights" end up '
        "being the last ones",
        _state_dict_references,
    ),
    Claim(
        "which-copy.deepcopy-separate-and-tied",
        "deepcopy gives separate parameters, buffers included, and keeps tied weights tied inside the copy",
        _deepcopy_separate_with_ties,
    ),
    Claim(
        "which-copy.detached-input",
        "the detached tensor has no history, so the backward pass stops there; no memory is copied",
        _detached_input_stops_backward,
    ),
    Claim(
        "which-copy.requires-grad-false-raises",
        "setting `requires_grad=False` on a tensor in the middle of the graph raises an error, since only "
        "leaves may change it",
        _requires_grad_false_on_non_leaf,
        scope="stated: a tensor in the middle of the graph",
    ),
    Claim(
        "which-copy.clone-protects",
        "the clone has its own memory and version counter, and gradients still flow through it",
        _clone_protects,
    ),
    Claim(
        "which-copy.detach-fails-where-saved",
        "`x.detach()` shares memory and version counter with `x`, so the in-place change reaches `x`; where "
        "autograd saved `x` for the backward pass (after `x.exp()`, say), that pass then fails, and where it "
        "saved nothing (after `x + 1`) it goes through",
        _detach_fails_only_where_saved,
    ),
    Claim(
        "which-copy.no-grad-counted",
        "the change is made in place on the real tensor, and the version counter still records it",
        _no_grad_counted_data_not,
    ),
    Claim(
        "which-copy.data-skips-counter",
        "`p.data.copy_(...)` skips the version counter, so a gradient computed from a saved value comes out "
        "silently wrong",
        _no_grad_counted_data_not,
    ),
    Claim(
        "which-copy.torch-tensor-warns",
        "`torch.tensor(x)` gives the same result with a `UserWarning` recommending exactly this",
        _torch_tensor_warns,
    ),
    Claim(
        "which-copy.snapshot",
        "it has its own memory and no history, so later updates to `x` do not reach it and it holds no graph",
        _snapshot,
    ),
    Claim(
        "which-copy.detach-follows",
        "`x.detach()` alone follows every later in-place update of `x`",
        _snapshot,
    ),
    Claim(
        "which-copy.deepcopy-refuses-modules",
        "deepcopy refuses tensors that are not leaves, and a forward pass that stores "
        "`self.something = self.weight * 2` leaves one on the module",
        _module_with_attribute_fails,
    ),
    Claim(
        "which-copy.memo-within-a-call",
        "deepcopy keeps aliasing within a call, and only within it",
        _aliasing_within_one_call,
        scope="stated: one call against two",
    ),
    Claim(
        "which-copy.two-calls-share-nothing",
        "two separate deepcopy calls give copies that no longer share anything, so an update to one is lost "
        "to the other",
        _aliasing_within_one_call,
    ),
    Claim(
        "which-copy.slice-clone",
        "the clone holds only the elements of the slice",
        _clone_holds_only_the_slice,
        scope="stated: a slice",
    ),
    Claim(
        "which-copy.slice-deepcopy",
        "`copy.deepcopy(big[:10])` copies the whole storage of `big`, and keeping the slice itself keeps "
        "all of `big` alive",
        _clone_holds_only_the_slice,
    ),
    Claim(
        "which-copy.parameter-class",
        "clone and detach turn a {py:class}`~torch.nn.Parameter` into a plain tensor; deepcopy keeps the "
        "class and `requires_grad`",
        _clone_detach_drop_parameter,
    ),
    Claim(
        "which-copy.parameter-grad",
        "expecting deepcopy to carry `.grad` across: the deepcopy of a parameter starts without `.grad` (and "
        "without its Python attributes), where the deepcopy of a plain tensor copies both",
        _parameter_deepcopy_drops,
    ),
    Claim(
        "which-copy.numpy-refuses-and-shares",
        "{py:meth}`~torch.Tensor.numpy` refuses tensors that require gradients, and on the CPU the array "
        "shares the tensor's memory",
        _numpy_refuses_and_shares,
        needs=("numpy",),
    ),
    Claim(
        "which-copy.array-writes-reach-tensor",
        "assuming the array is a copy; writing into it changes the tensor, behind autograd's version counter",
        _numpy_round_trip_shares,
        needs=("numpy",),
    ),
    Claim(
        "which-copy.from-numpy-or-tensor",
        "the two differ only in whether later changes to the array show up in the tensor",
        _numpy_array_into_tensor,
        needs=("numpy",),
        scope="stated: the two calls named",
    ),
    Claim(
        "which-copy.as-tensor-depends",
        "{py:func}`torch.as_tensor`, which shares or copies depending on the dtype asked for",
        _numpy_array_into_tensor,
        needs=("numpy",),
    ),
    Claim(
        "which-copy.contiguous-or-clone",
        "`contiguous()` returns `x` itself when it is already contiguous, while `clone()` always copies and "
        "keeps the layout unless told otherwise",
        _contiguous_or_clone,
        scope="registry",
    ),
    Claim(
        "which-copy.view-raises",
        "{py:meth}`~torch.Tensor.view` raises where it cannot share memory",
        _view_or_fail_reshape_either,
        scope="stated: every strided scenario (the guide is about dense tensors)",
    ),
    Claim(
        "which-copy.reshape-either",
        "{py:meth}`~torch.Tensor.reshape` returns a view when it can and a copy when it must, depending on "
        "the layout of `x`",
        _view_or_fail_reshape_either,
        scope="registry",
    ),
    Claim(
        "which-copy.save-keeps-views",
        "saving keeps view relationships between the tensors saved together, and so writes the whole storage "
        "behind a slice",
        _save_keeps_views,
    ),
    Claim(
        "which-copy.shared-memory-processes",
        "a tensor in shared memory is passed to other processes without a copy, and their writes are "
        "visible to every process",
        _shared_memory_reaches_the_parent,
    ),
    Claim(
        "which-copy.to-returns-x",
        "{py:meth}`~torch.Tensor.to` returns `x` itself when nothing changes, and a new tensor, still in the "
        "graph, when it converts or moves",
        _to_returns_x_or_moves,
    ),
    Claim(
        "which-copy.cpu-is-not-a-copy",
        "treating `x.cpu()` as a copy, which it is not for a tensor already on the CPU",
        _return_x_when_nothing_to_do,
    ),
    Claim(
        "which-copy.tangent",
        "the clone keeps the tangent and `detach()` drops it",
        _forward_tangents,
    ),
    Claim(
        "which-copy.detach-clone-tangent",
        "`x.detach().clone()`, whose tangent is gone",
        _detach_clone_has_no_tangent,
    ),
    Claim(
        "which-copy.view-costs-nothing",
        "a view allocates nothing whatever the size, and every copy allocates memory in proportion to the "
        "bytes it writes",
        _view_costs_nothing,
    ),
]


# -- reference/glossary.md -------------------------------------------------------------------


def _counter_shared_by_views_and_detach(matrix: Matrix) -> None:
    for op in ("detach", "view", "slice", "T", "permute", "expand"):
        for scenario, report in _each_measured(matrix, op):
            if _with_counter(report):  # an inference tensor has no counter at all
                expect(report.shares_version_counter, f"{op} on {scenario} has its own counter")
    _autograd_sees_detached_changes(matrix)


GLOSSARY: list[Claim | Only | Every] = [
    Claim(
        "glossary.version-counter",
        "A number shared by a tensor and the tensors that share its memory through `detach()` and views, "
        "increased by every in-place operation",
        _counter_shared_by_views_and_detach,
        scope="registry",
    ),
    Claim(
        "glossary.version-counter-checked",
        "Autograd records it when it saves a tensor and checks it in the backward pass, so a saved value "
        "changed in place raises an error instead of giving a wrong gradient",
        _version_error_words,
    ),
]


# -- The examples' text ----------------------------------------------------------------------
#
# An example's text must read without tcdoc in a downloaded script, so it quotes its claims
# word for word; each claim below names the example that quotes it.


def _deepcopy_starts_with_old_grad(matrix: Matrix) -> None:
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    x.grad = torch.ones(2, 3)
    y = copy.deepcopy(x)
    expect(y.grad is not None and torch.equal(y.grad, torch.ones(2, 3)), "the copy did not start with x.grad")
    _backward((2 * y).sum())
    expect(torch.equal(y.grad, torch.full((2, 3), 3.0)), f"y.grad holds {y.grad}")  # type: ignore[arg-type]
    expect(torch.equal(x.grad, torch.ones(2, 3)), "x.grad changed")


def _clone_detach_order(matrix: Matrix) -> None:
    expect(
        measured(matrix, "clone", "leaf_requires_grad").grad_fn == "CloneBackward0",
        "clone() recorded nothing",
    )
    _clone_detach_records_first(matrix)


def _detach_clone_shares_nothing(matrix: Matrix) -> None:
    report = measured(matrix, "detach_clone", "leaf_requires_grad")
    ok = not report.shares_storage and not report.shares_version_counter and report.grad_fn is None
    expect(ok and not report.gradient_flows_to_source, f"x.detach().clone() measured {report}")


def _exp_saves_output_and_error_says_versions(matrix: Matrix) -> None:
    x = torch.randn(4, requires_grad=True)
    y = x.exp()
    expect(torch.equal(y.grad_fn._saved_result, y), "exp did not save its output")  # type: ignore[union-attr]
    d = y.detach()
    expect(shares_memory(d, y) and (y._version, d._version) == (0, 0), "d and y do not start as said")
    d.zero_()
    expect(
        (y._version, d._version) == (1, 1) and torch.equal(y, torch.zeros(4)), "the change did not reach y"
    )
    error = _raises(lambda: _backward(y.sum()))
    expect("is at version 1; expected version 0" in str(error), f"the error says: {error}")


def _only_saved_tensors_are_checked(matrix: Matrix) -> None:
    _detach_fails_only_where_saved(matrix)
    x = torch.randn(4, requires_grad=True)
    z = x + 1
    z.detach().zero_()
    _backward(z.sum())
    expect(x.grad is not None and torch.equal(x.grad, torch.ones(4)), f"the gradient is {x.grad}")


def _data_counter_moves_alone(matrix: Matrix) -> None:
    y = torch.randn(4, requires_grad=True).exp()
    d = y.data
    d.zero_()
    expect((y._version, d._version) == (0, 1), f"the counters read {(y._version, d._version)}")
    expect(torch.equal(y, torch.zeros(4)), "the change did not reach y")


def _deepcopy_leaf_only(matrix: Matrix) -> None:
    _deepcopy_refuses_non_leaf(matrix)


class _Remembering(torch.nn.Module):
    def __init__(self, detach: bool) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)
        self.detach = detach
        self.last_output: torch.Tensor | None = None

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        output: torch.Tensor = self.linear(inputs)
        self.last_output = output.detach() if self.detach else output
        return output


def _remembering_module(matrix: Matrix) -> None:
    model = _Remembering(detach=False)
    _does_not_raise(lambda: copy.deepcopy(model))
    model(torch.randn(1, 3))
    expect(model.last_output is not None and model.last_output.grad_fn is not None, "no history kept")
    _raises(lambda: copy.deepcopy(model))
    fixed = _Remembering(detach=True)
    fixed(torch.randn(1, 3))
    _does_not_raise(lambda: copy.deepcopy(fixed))


def _computed_in_init(matrix: Matrix) -> None:
    class Scaled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(torch.randn(2, 3))
            self.initial_norm = self.weight.norm()

    scaled = Scaled()
    expect(scaled.initial_norm.grad_fn is not None, "the attribute has no grad_fn")
    _raises(lambda: copy.deepcopy(scaled))


def _old_weight_norm_after_passes(matrix: Matrix) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old weight_norm is deprecated
        old = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    with torch.no_grad():
        old(torch.randn(1, 3))
    _does_not_raise(lambda: copy.deepcopy(old))
    old(torch.randn(1, 3))
    _raises(lambda: copy.deepcopy(old))


def _buffer_is_copied(matrix: Matrix) -> None:
    module = torch.nn.Module()
    module.weight = torch.nn.Parameter(torch.randn(2, 3))
    module.register_buffer("initial_norm", module.weight.detach().norm())
    expect("initial_norm" in module.state_dict(), "the buffer is not in the state_dict")
    expect(module.to(torch.float64).get_buffer("initial_norm").dtype == torch.float64, "to() did not move it")
    twin = copy.deepcopy(module)
    copied, original = twin.get_buffer("initial_norm"), module.get_buffer("initial_norm")
    expect(torch.equal(copied, original) and not shares_memory(copied, original), "the buffer was not copied")


def _parametrized_weight_norm(matrix: Matrix) -> None:
    new = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    expect("weight" not in new.__dict__ and "weight" not in dict(new.named_parameters()), "weight is stored")
    new(torch.randn(1, 3))
    twin = copy.deepcopy(new)
    inputs = torch.randn(1, 3)
    expect(torch.equal(twin(inputs), new(inputs)), "the copy computes other outputs")


def _dictionary_view_kept(matrix: Matrix) -> None:
    base = torch.arange(8.0)
    copied = copy.deepcopy({"base": base, "view": base[2:5]})
    expect(shares_memory(copied["view"], copied["base"]), "the copied view left the copied base")
    expect(not shares_memory(copied["base"], base), "the copy shares the original's memory")
    copied["base"][2] = 100.0
    expect(copied["view"][0].item() == 100.0, "the change did not show through the copied view")
    expect(not shares_memory(copy.deepcopy(base), copy.deepcopy(base[2:5])), "two calls kept the link")


def _leaf_grad_and_attributes_copied(matrix: Matrix) -> None:
    _deepcopy_plain_grad_and_attributes(matrix)


def _view_whole_storage(matrix: Matrix) -> None:
    big = torch.zeros(1_000_000)
    small = big[:10]
    expect(copy.deepcopy(small).untyped_storage().nbytes() == 4_000_000, "deepcopy did not copy 4 MB")
    clone = small.clone()
    expect(
        clone.untyped_storage().nbytes() == 40 and compare(small, clone).new_bytes == 40,
        "the clone is bigger",
    )


def _parameter_methods_differ(matrix: Matrix) -> None:
    measured_here = _each_measured_on(matrix, "parameter")
    reports = [report for _, report in measured_here]
    types = {report.result_type for report in reports if report.result_is_tensor}
    expect(types == {"Parameter", "Tensor"}, f"the tensors returned are of types {types}")
    lists = {operation for operation, report in measured_here if not report.result_is_tensor}
    expect(lists == {"tolist"}, f"{lists} return no tensor")
    flags = {report.requires_grad for report in reports if report.result_is_tensor}
    expect(flags == {True, False}, "requires_grad is kept by all or dropped by all")
    _parameter_deepcopy_is_its_own(matrix)


def _parameter_self_results(matrix: Matrix) -> None:
    for operation, report in _each_measured_on(matrix, "parameter"):
        if not report.new_object:
            ok = report.result_type == "Parameter" and report.shares_storage and report.shares_version_counter
            expect(ok, f"{operation} returned x yet measured {report}")
    expect(any(not r.new_object for _, r in _each_measured_on(matrix, "parameter")), "none returns x")


def _no_result_copies_parameter_grad(matrix: Matrix) -> None:
    for operation, report in _each_measured_on(matrix, "parameter"):
        expected = False if report.result_is_tensor else None  # a list has no .grad: n/a
        expect(
            report.copies_grad is expected,
            f"{operation} on a Parameter measured copies_grad={report.copies_grad}",
        )


def _plain_deepcopy_parameter_values_alone(matrix: Matrix) -> None:
    _parameter_deepcopy_drops(matrix)


def _module_deepcopy_drops_grads(matrix: Matrix) -> None:
    layer = torch.nn.Linear(3, 1)
    _backward(layer(torch.randn(2, 3)).sum())
    twin = copy.deepcopy(layer)
    expect(layer.weight.grad is not None and twin.weight.grad is None, "the copied layer has a gradient")


def _best_model_state_dict(matrix: Matrix) -> None:
    _state_dict_references(matrix)
    _state_dict_shares_both(matrix)


def _state_dict_deepcopy_separate(matrix: Matrix) -> None:
    model = torch.nn.Linear(4, 1)
    best = copy.deepcopy(model.state_dict())
    expect(not any(shares_memory(best[k], v) for k, v in model.state_dict().items()), "a tensor is shared")


def _clones_come_apart_deepcopy_keeps(matrix: Matrix) -> None:
    model = torch.nn.Sequential(torch.nn.Embedding(10, 4), torch.nn.Linear(4, 10, bias=False))
    model[1].weight = model[0].weight
    state = model.state_dict(keep_vars=False)
    state["1.weight"] = state["0.weight"]  # what state_dict gives for tied weights
    one_by_one = {name: tensor.detach().clone() for name, tensor in state.items()}
    whole = copy.deepcopy(state)
    expect(not shares_memory(one_by_one["0.weight"], one_by_one["1.weight"]), "the clones share memory")
    expect(shares_memory(whole["0.weight"], whole["1.weight"]), "the deep copy split the tie")


def _tied_model_deepcopy(matrix: Matrix) -> None:
    _tied_module(matrix)
    _clones_come_apart_deepcopy_keeps(matrix)


def _graph_grows_per_batch(matrix: Matrix) -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    total = torch.zeros(())
    held = []
    for _ in range(4):
        total = total + torch.nn.functional.mse_loss(model(torch.randn(4, 8)), torch.randn(4, 1))
        held.append(graph_memory(total).saved_bytes)
    expect(all(a < b for a, b in itertools.pairwise(held)), f"the saved bytes went {held}")


def _chain_after_backward_fails(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    total = torch.zeros(())
    for step in range(3):
        loss = (w * step).exp().sum()
        _backward(loss)
        total = total + loss
    error = _raises(lambda: _backward(total))
    expect("backward through the graph a second time" in str(error), f"the error says: {error}")


def _from_numpy_copies_nothing(matrix: Matrix) -> None:
    import numpy as np

    array = np.zeros(3, dtype=np.float32)
    tensor = torch.from_numpy(array)
    array[0] = 1.0
    expect(tensor[0].item() == 1.0, "from_numpy copied the array")
    y = torch.randn(3, requires_grad=True) * 2
    _raises(lambda: y.numpy())
    n = y.detach().cpu().numpy()
    expect(shares_memory(y, torch.from_numpy(n)), "the array does not share memory with y")
    expect(not shares_memory(torch.tensor(n), torch.from_numpy(n)), "torch.tensor(array) shares memory")
    x = torch.ones(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # it recommends x.detach().clone(), as the pages say
        copied = torch.tensor(x)
    expect(not shares_memory(copied, x), "torch.tensor(tensor) shares memory")


def _transpose_clone_keeps_order(matrix: Matrix) -> None:
    m = torch.arange(12.0).reshape(3, 4).t()
    expect(m.clone().stride() == m.stride() == (1, 4), f"the clone's strides are {m.clone().stride()}")
    expect(m.contiguous().stride() == (3, 1), "contiguous() did not rewrite it row-major")
    expect(torch.equal(m.clone(), m), "clone() changed the values")


def _deepcopy_keeps_expand(matrix: Matrix) -> None:
    wide = torch.randn(1000).expand(1000, 1000)
    deep = copy.deepcopy(wide)
    expect(
        deep.stride() == (0, 1) and compare(wide, deep).new_bytes == 4000, f"deepcopy strides {deep.stride()}"
    )


def _catalogue(matrix: Matrix) -> None:
    x = torch.zeros(3, 4)
    views = [x.view(4, 3), x.reshape(4, 3), x.t(), x[1:], x[0], x.expand(2, 3, 4)]
    for y in views:
        expect(shares_memory(x, y) and y._is_view() and y._base is x, f"a view misbehaves: {y.shape}")
    for y in (x.detach(), x.view(torch.int32)):
        expect(
            shares_memory(x, y) and not y._is_view() and y._base is None, "detach or dtype view is tracked"
        )
    flat = x.reshape(12)
    expect(shares_memory(x, flat) and flat._base is x, "reshape of a contiguous tensor copied")
    flat_t = x.t().reshape(12)
    expect(not shares_memory(x, flat_t) and not flat_t._is_view(), "reshape of a transpose did not copy")
    _raises(lambda: x.t().view(12))
    expect(x[1:][0]._base is x, "_base of a view of a view is not the owner")
    for y in (x.clone(), x.t().contiguous(), x[[0, 2]], x.flip(0), x.to(torch.float64), x + 0):
        expect(not shares_memory(x, y), "a copying operation shares memory")
    expect(x.contiguous() is x, "contiguous() of a contiguous tensor is not x")


def _save_load_views(matrix: Matrix) -> None:
    signal = torch.randn(1000)
    window = signal[10:20]
    buffer = io.BytesIO()
    torch.save({"signal": signal, "window": window}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    expect(shares_memory(loaded["signal"], loaded["window"]), "the loaded tensors do not share memory")
    expect(
        loaded["window"].storage_offset() == 10 and not loaded["window"]._is_view(), "view tracking came back"
    )
    first, second = io.BytesIO(), io.BytesIO()
    torch.save(signal, first)
    torch.save(window, second)
    first.seek(0)
    second.seek(0)
    expect(not shares_memory(torch.load(first), torch.load(second)), "two saves came back sharing memory")
    second.seek(0)
    expect(torch.load(second).untyped_storage().nbytes() == 4000, "the slice did not bring its whole storage")


def _is_shared(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` is in shared memory (``Tensor.is_shared`` has no type hints)."""
    shared: bool = tensor.is_shared()  # type: ignore[no-untyped-call]
    return shared


def _add_one(tensor: torch.Tensor) -> None:
    tensor.add_(1)


def _add_one_from_queue(queue: object) -> None:
    queue.get().add_(1)  # type: ignore[attr-defined]


def _run_forked(target: Callable[..., None], *args: object) -> int | None:
    import multiprocessing

    process = multiprocessing.get_context("fork").Process(target=target, args=args)
    process.start()
    process.join(timeout=120)
    return process.exitcode


def _workers_and_shared_memory(matrix: Matrix) -> None:
    import multiprocessing

    import torch.multiprocessing  # its queues move tensors into shared memory

    expect("fork" in multiprocessing.get_all_start_methods(), "this system has no fork start method")
    shared = torch.zeros(3)
    shared.share_memory_()  # type: ignore[no-untyped-call]
    expect(_is_shared(shared) and _run_forked(_add_one, shared) == 0, "the worker failed")
    expect(torch.equal(shared, torch.ones(3)), "the write into shared memory did not reach the parent")
    plain = torch.zeros(3)
    expect(
        _run_forked(_add_one, plain) == 0 and torch.equal(plain, torch.zeros(3)), "a private tensor changed"
    )
    context = torch.multiprocessing.get_context("fork")
    queue = context.Queue()
    sent = torch.zeros(3)
    expect(not _is_shared(sent), "the tensor started shared")
    queue.put(sent)
    expect(_run_forked(_add_one_from_queue, queue) == 0, "the queue worker failed")
    expect(_is_shared(sent) and torch.equal(sent, torch.ones(3)), "the queue did not move the tensor")
    original = torch.zeros(3)
    for_worker = original.clone()
    queue.put(for_worker)
    expect(_run_forked(_add_one_from_queue, queue) == 0, "the queue worker failed")
    queue.close()
    queue.join_thread()
    ok = _is_shared(for_worker) and torch.equal(for_worker, torch.ones(3))
    expect(
        ok and not _is_shared(original) and torch.equal(original, torch.zeros(3)), "the clone did not behave"
    )


def _tangents_follow_the_graph(matrix: Matrix) -> None:
    _forward_tangents(matrix)
    _detach_clone_has_no_tangent(matrix)


def _quoted(
    example: str,
    claim_id: str,
    text: str,
    check: Check,
    scope: str = "",
    needs: tuple[str, ...] = (),
    needs_cuda: bool = False,
) -> Claim:
    """Make a claim that ``example`` quotes; its id is the example's name, then ``claim_id``."""
    name = example.removesuffix(".py").rsplit("/", 1)[-1]
    return Claim(f"{name}.{claim_id}", text, check, scope, needs, needs_cuda, quoted_in=(example,))


EXAMPLE_CLAIMS: list[Claim | Only | Every] = [
    _quoted("plot_02_detach.py", "cheap", "It is cheap, because nothing is copied", _detach_copies_nothing),
    _quoted(
        "plot_02_detach.py",
        "share-data",
        "The price is that `y` and `x` share their data",
        _write_through_detached,
    ),
    _quoted(
        "plot_02_detach.py",
        "share-counter",
        "They also share a version counter, which autograd uses to notice in-place changes",
        _autograd_sees_detached_changes,
    ),
    _quoted(
        "plot_03_deepcopy.py",
        "refuses-non-leaves",
        "on a single tensor it refuses tensors that are not leaves",
        _deepcopy_refuses_non_leaf,
    ),
    _quoted(
        "plot_03_deepcopy.py",
        "grad-and-attribute",
        "`.grad` and the Python attribute were copied too, into new objects",
        _deepcopy_plain_grad_and_attributes,
    ),
    _quoted(
        "plot_03_deepcopy.py",
        "starts-with-old-grad",
        "a deep copy starts out with a copy of the old `.grad`, and the backward pass adds its gradient, 2, "
        "to it, so `y.grad` holds 3s, not 2s",
        _deepcopy_starts_with_old_grad,
    ),
    _quoted(
        "plot_03_deepcopy.py",
        "non-leaf",
        "A tensor made by an operation is not a leaf, and deepcopy refuses it",
        _deepcopy_refuses_non_leaf,
    ),
    _quoted(
        "plot_04_detach_clone_order.py",
        "shares-nothing",
        "What `x.detach().clone()` shares with `x`: nothing, and it keeps no history",
        _detach_clone_shares_nothing,
    ),
    _quoted(
        "plot_04_detach_clone_order.py",
        "clone-first",
        "In `x.clone().detach()` the clone comes first, while `x` is still attached, so autograd records it "
        "(it gets a `grad_fn`) before `detach()` drops that record. In `x.detach().clone()` the clone "
        "copies a tensor with no history, and nothing is recorded",
        _clone_detach_order,
    ),
    _quoted(
        "plot_04_detach_clone_order.py",
        "dropped",
        "That record is made just to be dropped",
        _clone_detach_records_first,
    ),
    _quoted(
        "plot_05_inplace_after_detach.py",
        "refuses",
        "PyTorch notices, thanks to a version counter the two tensors share, and refuses to compute wrong "
        "gradients: `backward()` raises",
        _exp_saves_output_and_error_says_versions,
    ),
    _quoted(
        "plot_05_inplace_after_detach.py",
        "share-both",
        "`d` and `y` share their memory and their version counter",
        _exp_saves_output_and_error_says_versions,
    ),
    _quoted(
        "plot_05_inplace_after_detach.py",
        "change-moves-counter",
        "An in-place change through `d` writes into `y` and moves the shared counter",
        _exp_saves_output_and_error_says_versions,
    ),
    _quoted(
        "plot_05_inplace_after_detach.py",
        "raises",
        "At `backward()` autograd compares the counter of the saved `y` with the value it recorded when "
        "saving it (0), finds 1, and raises instead of using the zeros",
        _exp_saves_output_and_error_says_versions,
    ),
    _quoted(
        "plot_05_inplace_after_detach.py",
        "only-saved",
        "The check concerns only tensors that autograd saved. `x + 1` saves nothing, since the derivative "
        "of an addition does not depend on its values, so the same change to its detached twin goes "
        "through, and the gradient is still right",
        _only_saved_tensors_are_checked,
        scope="stated: what autograd saved, against x + 1",
    ),
    _quoted(
        "plot_05_inplace_after_detach.py",
        "data",
        "which shares the memory but not the counter: no error, and wrong gradients",
        _data_change_goes_unnoticed,
    ),
    _quoted(
        "plot_06_data_is_silent.py",
        "data-shares-memory",
        "Like `detach()` it shares memory with its source, but it does not share the version counter, so "
        "autograd cannot see changes made through it",
        _data_change_goes_unnoticed,
    ),
    _quoted(
        "plot_06_data_is_silent.py",
        "not-its-counter",
        "`y.data` shares memory with `y`, as `y.detach()` does, but not its version counter",
        _data_shares_memory_not_counter,
    ),
    _quoted(
        "plot_06_data_is_silent.py",
        "counter-moves-alone",
        "Zeroing through `.data` writes into `y`, and only the counter of the `.data` tensor moves",
        _data_counter_moves_alone,
        scope="stated: y and y.data",
    ),
    _quoted(
        "plot_06_data_is_silent.py",
        "mistake-raises",
        "a mistake then raises",
        _detach_stops_backward,
    ),
    _quoted(
        "plot_07_deepcopy_non_leaf.py",
        "leaves-only",
        "`copy.deepcopy` copies a tensor only if it is a leaf of the autograd graph: one you created, not "
        "one computed from tensors that require gradients",
        _deepcopy_leaf_only,
        scope="registry",
    ),
    _quoted(
        "plot_07_deepcopy_non_leaf.py",
        "after-a-forward-pass",
        "After one forward pass, `last_output` is a tensor with autograd history, and the same deepcopy "
        "fails",
        _remembering_module,
    ),
    _quoted(
        "plot_07_deepcopy_non_leaf.py",
        "from-the-start",
        "It fails before any forward pass: the attribute has a `grad_fn` from the start",
        _computed_in_init,
    ),
    _quoted(
        "plot_07_deepcopy_non_leaf.py",
        "evaluation-pass",
        "Under `torch.no_grad` it is recomputed without history, which is why such a model can copy after an "
        "evaluation pass and fail after a training pass",
        _old_weight_norm_after_passes,
    ),
    _quoted(
        "plot_07_deepcopy_non_leaf.py",
        "buffer",
        "it is then part of the `state_dict` and moves with the module in `.to()`, and deepcopy copies it",
        _buffer_is_copied,
    ),
    _quoted(
        "plot_07_deepcopy_non_leaf.py",
        "parametrization",
        "`torch.nn.utils.parametrizations.weight_norm` computes `weight` when it is read instead of storing "
        "it, so there is nothing to refuse, and the copy computes the same outputs",
        _parametrized_weight_norm,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "memo",
        "`copy.deepcopy` remembers, for the length of one call, what it has already copied. Tensors that "
        "shared memory before the call (a tensor and a view of it, a weight used twice) still share it in "
        "the copy; copied in two calls, they come apart",
        _tied_model_deepcopy,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "view-in-the-copy",
        "Inside the copy, the view still looks at the copied base, and neither shares memory with the "
        "originals",
        _dictionary_view_kept,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "shows-through",
        "So a change to the copied base shows through the copied view, as it would in the original",
        _dictionary_view_kept,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "one-at-a-time",
        "Copied one at a time, the base and the view each get memory of their own, and the link between "
        "them is gone",
        _dictionary_view_kept,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "grad-and-attributes",
        "Deepcopy also copies a leaf's gradient and its Python attributes, each into a new object",
        _leaf_grad_and_attributes_copied,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "whole-storage",
        "Deepcopy copies the view's whole storage, so the copy holds four megabytes for forty bytes of "
        "values",
        _view_whole_storage,
    ),
    _quoted(
        "plot_08_deepcopy_aliasing.py",
        "clone-elements",
        "`clone()` copies only the elements of the view, into a storage of their own size",
        _view_whole_storage,
        scope="stated: the view above",
    ),
    _quoted(
        "plot_09_parameter.py",
        "methods-differ",
        "Some return a `Parameter`, others a plain `Tensor` (and `x.tolist()` Python lists); some keep "
        "`requires_grad`, others drop it; and `copy.deepcopy` of a `Parameter` follows rules of its own, "
        "unlike those for a plain tensor",
        _parameter_methods_differ,
    ),
    _quoted(
        "plot_09_parameter.py",
        "return-x",
        'Several methods return `x` itself, which is why they "return a Parameter" and share everything',
        _parameter_self_results,
    ),
    _quoted(
        "plot_09_parameter.py",
        "no-grad-copied",
        "No result has a copy of `.grad` of its own, although the source had one: the `copies_grad` column "
        "is false on every row, or `None` where the result is a list, which has no `.grad` at all",
        _no_result_copies_parameter_grad,
    ),
    _quoted(
        "plot_09_parameter.py",
        "values-alone",
        "On a plain tensor, deepcopy copies `.grad` and Python attributes (see "
        "{doc}`plot_08_deepcopy_aliasing`). On a `Parameter` it makes a new `Parameter` from the values "
        "alone",
        _plain_deepcopy_parameter_values_alone,
    ),
    _quoted(
        "plot_09_parameter.py",
        "module",
        "The same rule applies inside a model: deepcopy of a module copies each weight through `Parameter`'s "
        "deepcopy, so the copy starts without gradients",
        _module_deepcopy_drops_grads,
    ),
    _quoted(
        "plot_10_best_model.py",
        "last-weights",
        "`state_dict` returns tensors that share memory with the model's parameters, so every training step "
        "changes `best` as well",
        _best_model_state_dict,
    ),
    _quoted(
        "plot_10_best_model.py",
        "detached",
        'Because `best["weight"]` is the parameter\'s memory, detached: a new tensor object that shares '
        "storage and version counter with `model.weight`, as `detach()` gives",
        _best_model_state_dict,
    ),
    _quoted(
        "plot_10_best_model.py",
        "deepcopy",
        "`copy.deepcopy` copies every tensor of the dictionary into memory of its own",
        _state_dict_deepcopy_separate,
    ),
    _quoted(
        "plot_10_best_model.py",
        "clones-separately",
        "Unlike deepcopy, it copies tensors that share memory separately",
        _clones_come_apart_deepcopy_keeps,
    ),
    _quoted(
        "plot_11_ema_target_network.py",
        "tie-kept",
        "A deep copy of the whole model keeps the tie inside the copy, because one deepcopy call copies a "
        "shared object once (see {doc}`plot_08_deepcopy_aliasing`), and shares nothing with the original",
        _tied_module,
    ),
    _quoted(
        "plot_11_ema_target_network.py",
        "separate-copies",
        "So a change to one of the separate copies no longer reaches the other, where in the deep-copied "
        "model it reaches both uses of the weight",
        _tied_model_deepcopy,
    ),
    _quoted(
        "plot_12_logging_losses.py",
        "bytes-grow",
        "The bytes grow with every batch, because each batch adds its own saved activations (storages that "
        "all batches share, such as a weight, count once)",
        _graph_grows_per_batch,
    ),
    _quoted(
        "plot_12_logging_losses.py",
        "useless-chain",
        "That chain is useless: its saved tensors are gone, so a backward pass through `total` fails",
        _chain_after_backward_fails,
    ),
    _quoted(
        "plot_13_numpy.py",
        "from-numpy",
        "`torch.from_numpy`, which copies nothing either",
        _from_numpy_copies_nothing,
        needs=("numpy",),
    ),
    _quoted(
        "plot_13_numpy.py",
        "refuses",
        "`numpy()` refuses a tensor that requires gradients: an array cannot carry autograd history",
        _from_numpy_copies_nothing,
        needs=("numpy",),
    ),
    _quoted(
        "plot_13_numpy.py",
        "still-shares",
        "On the CPU the array still shares memory with `y`",
        _from_numpy_copies_nothing,
        needs=("numpy",),
    ),
    _quoted(
        "plot_13_numpy.py",
        "tensor-copies",
        "`torch.tensor` always copies its data",
        _from_numpy_copies_nothing,
        needs=("numpy",),
        scope="stated: an array and a tensor, the two kinds of data the page gives it",
    ),
    _quoted(
        "plot_14_memory_format.py", "copies-values", "`clone()` copies the values", _clone_copies_and_records
    ),
    _quoted(
        "plot_14_memory_format.py",
        "transpose",
        "A transpose is dense (it covers its memory without gaps), only in another order, so `clone()` "
        "keeps its order while `contiguous()` rewrites it row-major",
        _transpose_clone_keeps_order,
        scope="idiom: 'only in another order' qualifies the transpose",
    ),
    _quoted(
        "plot_14_memory_format.py",
        "deepcopy-expand",
        "`copy.deepcopy` behaves differently here: it copies the storage and keeps the strides, so the "
        "stride-0 layout and the small memory survive",
        _deepcopy_keeps_expand,
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "three-ways",
        "A view shares memory with its source ({func}`tcdoc.shares_memory`), reports `_is_view()` and keeps "
        "a reference to the tensor it views in `_base`",
        _catalogue,
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "views",
        "Slicing with integers and ranges, `view`, `reshape`, transposes and `expand` return views: they "
        "share memory and know their base",
        _catalogue,
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "untracked",
        "`detach()` and a dtype view `view(torch.int32)` share memory without being tracked as views, so "
        "`_is_view()` and `_base` miss them. Only a memory check catches them",
        _catalogue,
        scope="stated: of the three ways the page shows",
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "reshape-view",
        "A contiguous tensor can be reshaped by changing its strides only, so `reshape` returns a view",
        _catalogue,
        scope="stated: a contiguous tensor",
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "reshape-copies",
        "A transpose cannot be flattened with a single stride, so `reshape` silently copies",
        _catalogue,
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "view-raises",
        "To insist on a view, call {meth}`~torch.Tensor.view`, which raises instead of copying",
        _catalogue,
    ),
    _quoted(
        "plot_15_views_vs_copies.py",
        "base",
        "`_base` always points to the tensor that owns the memory, not to the intermediate view",
        _catalogue,
        scope="stated: a view of a view",
    ),
    _quoted(
        "plot_16_save_load.py",
        "views-survive",
        "Tensors that shared memory when saved share it again after {func}`torch.load`",
        _save_load_views,
    ),
    _quoted(
        "plot_16_save_load.py",
        "ten-elements-in",
        "After loading, the two tensors share memory again: the loaded `window` starts ten elements into the "
        "loaded `signal`'s storage",
        _save_load_views,
    ),
    _quoted(
        "plot_16_save_load.py",
        "not-a-view",
        "What comes back is the shared memory, not the view tracking: the loaded `window` is not marked as "
        "a view of the loaded `signal`",
        _save_load_views,
    ),
    _quoted(
        "plot_16_save_load.py",
        "two-calls",
        "Saved in two calls, they come back as two separate copies",
        _save_load_views,
    ),
    _quoted(
        "plot_16_save_load.py",
        "whole-storage",
        "Saving only `window` (10 floats) still writes all 1000 floats of `signal`'s storage",
        _save_load_views,
        scope="stated: the slice window",
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "shared-or-copied",
        "a tensor in shared memory is the same memory in both processes, while an ordinary tensor is copied",
        _workers_and_shared_memory,
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "queues",
        "sending a tensor through one of its queues moves the tensor into shared memory, so a tensor you "
        "thought was private becomes shared",
        _workers_and_shared_memory,
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "share-memory",
        "{meth}`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory that "
        "other processes can map",
        _workers_and_shared_memory,
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "parent-sees-ones",
        "The child wrote into shared memory, so the parent sees ones",
        _workers_and_shared_memory,
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "parent-sees-zeros",
        "Its write changes that copy only, and the parent still sees zeros",
        _workers_and_shared_memory,
        scope="stated: a forked child and an ordinary tensor",
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "queue-moves",
        "the queue moves its storage into shared memory, so the child's write reaches the parent even though "
        "nobody called `share_memory_()`",
        _workers_and_shared_memory,
    ),
    _quoted(
        "plot_17_multiprocessing.py",
        "send-a-clone",
        "The clone moves into shared memory and receives the worker's write; the original stays private and "
        "unchanged",
        _workers_and_shared_memory,
    ),
    _quoted(
        "plot_18_forward_ad.py",
        "tangent",
        "The copy methods treat the tangent the way they treat the backward graph: `detach()` drops it, "
        "`clone()` carries it along",
        _tangents_follow_the_graph,
    ),
    _quoted(
        "plot_18_forward_ad.py",
        "detach-clone",
        "`detach().clone()` copies the values only, so it has no tangent either",
        _detach_clone_has_no_tangent,
        scope="stated: detach().clone()",
    ),
]


# -- The GPU examples' text (checked where CUDA exists; the docs-gpu build runs them) -------


def _deepcopy_with_grad_costs_twice(matrix: Matrix) -> None:
    x = torch.randn(64, 64, requires_grad=True)
    x.grad = torch.ones_like(x)
    deep = copy.deepcopy(x)
    expect(deep.grad is not None and deep.grad is not x.grad, "deepcopy did not copy .grad")
    assert deep.grad is not None
    held = deep.untyped_storage().nbytes() + deep.grad.untyped_storage().nbytes()
    values = x.detach().clone().untyped_storage().nbytes()
    expect(held == 2 * values, f"the deep copy holds {held} bytes, the values {values}")


def _devices_never_change(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    for moved in (x.to("cuda"), x.cuda()):
        expect(x.device.type == "cpu" and moved.device.type == "cuda" and moved is not x, "x changed device")
    g = x.detach().cuda()
    expect(g.to("cuda") is g and g.cuda() is g, "a call on a tensor already there made a copy")
    back = g.cpu()
    expect(g.device.type == "cuda" and back.device.type == "cpu", "g changed device")


def _pin_memory_copies(matrix: Matrix) -> None:
    pageable = torch.randn(1024)
    pinned = pageable.pin_memory()
    expect(pinned.is_pinned() and not pageable.is_pinned(), "pin_memory() did not give pinned memory")
    expect(not shares_memory(pageable, pinned) and torch.equal(pageable, pinned), "pin_memory() is no copy")


def _non_blocking_to_cpu_is_pinned(matrix: Matrix) -> None:
    ones = torch.ones(1024, 1024, device="cuda")
    back = ones.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    expect(back.is_pinned(), "the tensor that .to('cpu', non_blocking=True) returned is not pinned")
    expect(back.sum().item() == ones.numel(), "after synchronizing, the values are not the copied ones")


def _gpu_module_deepcopy(matrix: Matrix) -> None:
    model = torch.nn.Linear(8, 2).to("cuda")
    twin = copy.deepcopy(model)
    pairs = list(zip(model.parameters(), twin.parameters(), strict=True))
    expect(all(q.device == p.device for p, q in pairs), "the copy is on another device")
    expect(not any(shares_memory(p, q) for p, q in pairs), "a copied parameter shares memory")


GPU_EXAMPLE_CLAIMS: list[Claim | Only | Every] = [
    _quoted(
        "gpu/plot_gpu_01_copies.py",
        "deepcopy-grad",
        "`copy.deepcopy` also copies `.grad`. Once `x` has a gradient, a deep copy costs twice as much as "
        "`x.detach().clone()`, which copies the values only",
        _deepcopy_with_grad_costs_twice,
        scope="stated: the bytes of x and of its .grad",
    ),
    _quoted(
        "gpu/plot_gpu_02_devices.py",
        "never-moves",
        "yet a tensor never changes device. Each call either returns the very tensor you gave it, when it "
        "already is where you asked, or makes a copy on the other device",
        _devices_never_change,
        scope="stated: the three calls named",
        needs_cuda=True,
    ),
    _quoted(
        "gpu/plot_gpu_03_pinned.py",
        "pin-memory",
        "`pin_memory()` is itself a copy: the two share no memory",
        _pin_memory_copies,
        needs_cuda=True,
    ),
    _quoted(
        "gpu/plot_gpu_03_pinned.py",
        "non-blocking-to-cpu",
        'The values read after synchronizing are the copied ones. `.to("cpu", non_blocking=True)` has the '
        "same hazard: it returns a tensor in pinned memory whose values may not be there yet",
        _non_blocking_to_cpu_is_pinned,
        needs_cuda=True,
    ),
    _quoted(
        "gpu/plot_gpu_04_model.py",
        "no-shared-parameter",
        "and none of its parameters shares memory with the original's",
        _gpu_module_deepcopy,
        needs_cuda=True,
    ),
    _quoted(
        "gpu/plot_gpu_04_model.py",
        "grad-not-copied",
        "`deepcopy` of a module copies each parameter's values but not its `.grad`",
        _module_deepcopy_drops_grads,
    ),
    _quoted(
        "gpu/plot_gpu_04_model.py",
        "same-device",
        "`copy.deepcopy` always copies to the device the model is on",
        _gpu_module_deepcopy,
        scope="stated: a model on one CUDA device",
        needs_cuda=True,
    ),
]


CLAIMS: list[Claim | Only | Every] = [
    *FOUR_QUESTIONS,
    *CLONE,
    *DETACH,
    *DEEPCOPY,
    *LOOK_ALIKES,
    *WHICH_COPY,
    *REFERENCE_CLAIMS,
    *GLOSSARY,
    *EXAMPLE_CLAIMS,
    *GPU_EXAMPLE_CLAIMS,
]
"""Every claim of the site's pages and examples, page by page."""
