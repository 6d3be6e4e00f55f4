"""tcdoc.compare: the four properties, measured; inputs checked; tensors left alone."""

from __future__ import annotations

import copy
import typing
from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tcdoc

NOTE = "note"
"""A Python attribute of our own on a tensor (torch.Tensor declares none such): deepcopy keeps it."""


def leaf() -> torch.Tensor:
    return torch.arange(6.0).reshape(2, 3).requires_grad_()


def non_leaf() -> torch.Tensor:
    return leaf() * 2


def no_grad() -> torch.Tensor:
    return torch.arange(6.0).reshape(2, 3)


# -- The three methods on three kinds of tensor ------------------------------------------


@pytest.mark.parametrize("make", [leaf, non_leaf, no_grad])
def test_clone_is_a_new_tensor_with_new_memory_that_keeps_history(make: Callable[[], torch.Tensor]) -> None:
    x = make()
    report = tcdoc.compare(x, x.clone())
    assert report.new_object
    assert not report.shares_storage
    assert report.new_bytes == x.untyped_storage().nbytes()
    assert report.requires_grad == x.requires_grad
    if x.requires_grad:
        assert report.grad_fn is not None
        assert report.grad_fn.startswith("CloneBackward")
        assert not report.is_leaf
        assert report.gradient_flows_to_source
    else:
        assert report.grad_fn is None
        assert not report.gradient_flows_to_source


@pytest.mark.parametrize("make", [leaf, non_leaf, no_grad])
def test_detach_shares_memory_and_cuts_history(make: Callable[[], torch.Tensor]) -> None:
    x = make()
    report = tcdoc.compare(x, x.detach())
    assert report.new_object
    assert report.shares_storage
    assert report.shares_version_counter
    assert report.new_bytes == 0
    assert not report.requires_grad
    assert report.is_leaf
    assert report.grad_fn is None
    assert not report.gradient_flows_to_source


@pytest.mark.parametrize("times", [None, 2.0])
def test_detach_in_place_is_asked_of_x_as_it_was(times: float | None) -> None:
    # x required grad before x.detach_(), so a gradient could have reached it: the call cut it.
    # (leaf() is a view of arange's tensor, which detach_() refuses: these are no views.)
    x = torch.ones(2, 3, requires_grad=True)
    if times is not None:
        x = x * times
    before = tcdoc.footprint(x)
    report = tcdoc.compare(x, x.detach_(), before=before)
    assert before.requires_grad
    assert not x.requires_grad
    assert not report.new_object
    assert report.gradient_flows_to_source is False
    assert tcdoc.answers(report)["history"] == "cut: y is x, cut from the graph in place"
    # Without the footprint taken before the call, x no longer requires grad: the question is n/a.
    assert tcdoc.compare(x, x).gradient_flows_to_source is None


def test_requires_grad_in_place_keeps_x_its_own_history() -> None:
    x = leaf()
    report = tcdoc.compare(x, x.requires_grad_(), before=tcdoc.footprint(x))
    assert report.gradient_flows_to_source is True
    assert tcdoc.answers(report)["history"] == "x's own, since y is x"


@pytest.mark.parametrize("make", [leaf, no_grad])
def test_deepcopy_of_a_leaf_is_a_new_leaf_with_new_memory(make: Callable[[], torch.Tensor]) -> None:
    x = make()
    report = tcdoc.compare(x, copy.deepcopy(x))
    assert report.new_object
    assert not report.shares_storage
    assert not report.shares_version_counter
    assert report.requires_grad == x.requires_grad
    assert report.is_leaf
    assert report.grad_fn is None
    assert not report.gradient_flows_to_source


def leaf_from_operation() -> torch.Tensor:
    with torch.no_grad():
        return leaf() * 2


@pytest.mark.parametrize("make", [leaf, non_leaf, no_grad, leaf_from_operation])
def test_clone_under_no_grad_is_a_new_leaf_without_history(make: Callable[[], torch.Tensor]) -> None:
    x = make()
    with torch.no_grad():
        y = x.clone()
    report = tcdoc.compare(x, y)
    assert (report.is_leaf, report.requires_grad, report.grad_fn) == (True, False, None)
    assert not report.gradient_flows_to_source
    assert not report.shares_storage
    assert report.shares_version_counter is False


@pytest.mark.parametrize("make", [leaf, non_leaf, no_grad, leaf_from_operation])
def test_clone_under_inference_mode_is_an_inference_tensor(make: Callable[[], torch.Tensor]) -> None:
    x = make()
    with torch.inference_mode():
        y = x.clone()
    assert y.is_inference()
    report = tcdoc.compare(x, y)
    assert report.shares_version_counter is None  # y has no version counter
    flows = False if x.requires_grad else None  # n/a where x does not require grad: nothing can flow
    assert (report.requires_grad, report.grad_fn, report.gradient_flows_to_source) == (False, None, flows)
    assert report.keeps_inference is None  # x is not an inference tensor: nothing to keep


def test_a_leaf_an_operation_made_deep_copies_as_a_leaf() -> None:
    x = leaf_from_operation()
    assert x.is_leaf
    assert not x.requires_grad
    report = tcdoc.compare(x, copy.deepcopy(x))
    assert report.is_leaf
    assert not report.shares_storage


def test_deepcopy_of_a_non_leaf_raises() -> None:
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(non_leaf())


def test_deepcopy_copies_grad_and_attributes() -> None:
    x = leaf()
    x.grad = torch.ones(2, 3)
    setattr(x, NOTE, "kept")
    report = tcdoc.compare(x, copy.deepcopy(x))
    assert report.copies_grad
    assert report.copies_attributes
    clone_report = tcdoc.compare(x, x.clone())
    assert clone_report.copies_grad is False
    assert clone_report.copies_attributes is False


def test_nothing_to_copy_is_not_applicable_not_no() -> None:
    x = leaf()  # no .grad, no Python attribute
    for result in (copy.deepcopy(x), x.clone()):
        report = tcdoc.compare(x, result)
        assert report.copies_grad is None
        assert report.copies_attributes is None
    assert "copies_grad               None  # n/a: x has no .grad" in repr(tcdoc.compare(x, x.clone()))
    assert "n/a: x has no Python attributes" in tcdoc.compare(x, x.clone())._repr_html_()
    setattr(x, NOTE, "an attribute, still no .grad")
    report = tcdoc.compare(x, copy.deepcopy(x))
    assert (report.copies_grad, report.copies_attributes) == (None, True)


def test_a_copy_with_other_grad_values_does_not_copy_grad() -> None:
    x = leaf()
    x.grad = torch.ones(2, 3)
    y = x.detach().clone().requires_grad_()
    y.grad = torch.zeros(2, 3)
    assert tcdoc.compare(x, y).copies_grad is False
    y.grad = x.grad
    assert tcdoc.compare(x, y).copies_grad is False  # the same tensor is not a copy


def test_same_object_is_reported_as_such() -> None:
    x = leaf()
    report = tcdoc.compare(x, x)
    assert not report.new_object
    assert report.shares_storage
    assert report.shares_version_counter
    assert report.gradient_flows_to_source


def test_gradient_through_a_longer_graph_is_found() -> None:
    x = leaf()
    y = ((x * 2).sin() + 1).clone()
    assert tcdoc.compare(x, y).gradient_flows_to_source
    assert not tcdoc.compare(leaf(), y).gradient_flows_to_source


def test_view_with_offset_shares_storage_but_interleaved_slices_do_not() -> None:
    base = torch.arange(12.0)
    assert tcdoc.compare(base, base[5:]).shares_storage
    assert not tcdoc.shares_memory(base[0::2], base[1::2])
    assert tcdoc.shares_memory(base[0::2], base[2::4])
    assert not tcdoc.shares_memory(base[:6], base[6:])


def test_parameter_type_is_reported() -> None:
    p = torch.nn.Parameter(torch.ones(2))
    assert tcdoc.compare(p, copy.deepcopy(p)).result_type == "Parameter"
    assert tcdoc.compare(p, p.detach()).result_type == "Tensor"


# -- Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "result", "message"),
    [
        ([1.0], torch.ones(1), "source must be a torch.Tensor, got list"),
        (None, torch.ones(1), "source must be a torch.Tensor, got NoneType"),
    ],
)
def test_non_tensor_arguments_get_a_type_error_naming_them(source: Any, result: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        tcdoc.compare(source, result)


def test_answers_rejects_what_is_not_a_comparison() -> None:
    with pytest.raises(TypeError, match="report must be a Comparison, got dict"):
        tcdoc.answers({})  # type: ignore[arg-type]  # not a Comparison, on purpose


# -- compare never changes its arguments -----------------------------------------------------


Snapshot = tuple[torch.Tensor, torch.Tensor | None, bool, int, object]
"""What compare must leave as it was: the values, the .grad, requires_grad, _version, grad_fn."""


def snapshot(t: torch.Tensor) -> Snapshot:
    grad = t.grad.clone() if t.is_leaf and t.grad is not None else None
    return t.detach().clone(), grad, t.requires_grad, t._version, t.grad_fn


def assert_unchanged(t: torch.Tensor, before: Snapshot) -> None:
    data, grad, requires_grad, version, grad_fn = before
    assert torch.equal(t.detach(), data)
    if grad is None:
        assert not t.is_leaf or t.grad is None
    else:
        assert t.grad is not None
        assert torch.equal(t.grad, grad)
    assert t.requires_grad == requires_grad
    assert t._version == version
    assert t.grad_fn is grad_fn


@pytest.mark.parametrize("operation", [lambda x: x.clone(), lambda x: x.detach(), lambda x: x.view(-1)])
def test_compare_leaves_both_tensors_untouched(operation: Callable[[torch.Tensor], torch.Tensor]) -> None:
    x = leaf()
    x.grad = torch.full((2, 3), 0.25)
    y = operation(x)
    before_x, before_y = snapshot(x), snapshot(y)
    tcdoc.compare(x, y)
    assert_unchanged(x, before_x)
    assert_unchanged(y, before_y)


# -- Generated tensors: compare agrees with what the tensors do -------------------------------

DTYPES = [torch.float32, torch.float64, torch.int64, torch.int8, torch.bool]


@st.composite
def strided_tensors(draw: st.DrawFn) -> torch.Tensor:
    """A tensor of random shape and dtype, maybe a stepped, offset, transposed view of a larger one."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    dtype = draw(st.sampled_from(DTYPES))
    steps = draw(st.lists(st.integers(1, 3), min_size=len(shape), max_size=len(shape)))
    offset = draw(st.integers(0, 2))
    big = torch.zeros([offset + n * s for n, s in zip(shape, steps, strict=True)], dtype=dtype)
    view = big[tuple(slice(offset, None, s) for s in steps)][tuple(slice(0, n) for n in shape)]
    if len(shape) > 1 and draw(st.booleans()):
        view = view.transpose(0, -1)
    return view


@settings(max_examples=60, deadline=None)
@given(strided_tensors())
def test_generated_views_detach_and_clone(x: torch.Tensor) -> None:
    detached = tcdoc.compare(x, x.detach())
    assert detached.shares_storage
    assert detached.same_strides
    assert detached.new_bytes == 0
    cloned = tcdoc.compare(x, x.clone())
    assert not cloned.shares_storage
    assert cloned.new_bytes == x.numel() * x.element_size()
    assert cloned.same_strides == (x.clone().stride() == x.stride())


@settings(max_examples=60, deadline=None)
@given(strided_tensors(), strided_tensors())
def test_shares_memory_agrees_with_writing_through_one_tensor(a: torch.Tensor, b: torch.Tensor) -> None:
    # Lay both layouts over one buffer, then fill one and look for the change in the other.
    first_offset, second_offset = a.storage_offset() % 8, b.storage_offset() % 8 + 3
    needed = max(_extent(a) + first_offset, _extent(b) + second_offset)
    base = torch.zeros(needed, dtype=torch.float32)
    first = base.as_strided(a.shape, a.stride(), first_offset)
    second = base.as_strided(b.shape, b.stride(), second_offset)
    expected_overlap = _written_overlap(base, first, second)
    before = base.clone()
    assert tcdoc.shares_memory(first, second) == expected_overlap
    assert torch.equal(base, before)


def _extent(t: torch.Tensor) -> int:
    return 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride(), strict=True))


def _written_overlap(base: torch.Tensor, first: torch.Tensor, second: torch.Tensor) -> bool:
    scratch = torch.zeros_like(base)
    scratch.as_strided(first.shape, first.stride(), first.storage_offset()).fill_(1)
    return bool(scratch.as_strided(second.shape, second.stride(), second.storage_offset()).any())


def test_every_field_has_one_heading_and_the_short_ones_are_fields() -> None:
    from tcdoc._names import LABELS, SHORT_LABELS

    fields = list(tcdoc.Comparison.__dataclass_fields__)
    assert list(LABELS) == fields
    assert set(SHORT_LABELS) <= set(fields)


def test_the_fields_that_may_not_apply_are_exactly_those_typed_optional() -> None:
    from tcdoc._names import NOT_APPLICABLE, TENSOR_ONLY

    hints = typing.get_type_hints(tcdoc.Comparison)
    optional = {name for name, hint in hints.items() if type(None) in typing.get_args(hint)}
    about_x = {"source_moved"}  # a question about x alone, whatever y is
    assert optional == set(TENSOR_ONLY) | about_x
    assert set(NOT_APPLICABLE) <= optional
    always = {"new_object", "shares_storage", "result_type", "result_is_tensor"}
    assert always | optional == set(hints)
    # Each reason names what x (or y) lacks, or what compare() was not given to measure with.
    assert all(reason.startswith(("x ", "compare() ")) for reason in NOT_APPLICABLE.values())


def test_the_torch_free_names_are_the_registry_names() -> None:
    from tcdoc._names import OPERATION_NAMES, SCENARIO_NAMES

    assert tuple(op.name for op in tcdoc.operations(include_unavailable=True)) == OPERATION_NAMES
    assert tuple(s.name for s in tcdoc.scenarios(include_unavailable=True)) == SCENARIO_NAMES


def test_storage_extent_follows_strides_and_offset() -> None:
    from tcdoc._compare import storage_extent

    base = torch.arange(12.0).reshape(3, 4)
    assert storage_extent(base) == (0, 48)
    assert storage_extent(base[1:, 1:3]) == (20, 44)
    assert storage_extent(base.t()) == (0, 48)
    assert storage_extent(base[:, 3]) == (12, 48)


# -- Results that are not plain tensors -------------------------------------------------------


def test_a_result_that_is_not_a_tensor_answers_only_what_applies() -> None:
    from tcdoc._names import TENSOR_ONLY, not_applicable

    x = leaf()
    report = tcdoc.compare(x, x.tolist())
    assert (report.new_object, report.shares_storage, report.result_type) == (True, False, "list")
    assert report.result_is_tensor is False
    assert all(report.as_dict()[field] is None for field in TENSOR_ONLY)
    assert f"requires_grad             None  # {not_applicable('requires_grad', False)}" in repr(report)
    assert tcdoc.answers(report)["memory"] == "yes: y is a list, not a tensor"
    # A container holding a view of x does share its memory.
    assert tcdoc.compare(x, [x.detach()[0]]).shares_storage
    assert tcdoc.compare(x, {"a": x.detach().clone()}).shares_storage is False


def test_inference_tensors_have_no_version_counter_to_share() -> None:
    with torch.inference_mode():
        x = torch.ones(3)
    detached, cloned = tcdoc.compare(x, x.detach()), tcdoc.compare(x, x.clone())
    assert detached.shares_version_counter is None
    assert cloned.shares_version_counter is None
    assert (detached.keeps_inference, cloned.keeps_inference) == (True, False)
    assert tcdoc.compare(torch.ones(3), torch.ones(3)).keeps_inference is None


def test_the_reason_for_no_version_counter_names_the_tensor_that_has_none() -> None:
    # x.detach() and x.data of an inference tensor, made outside inference mode, are inference
    # tensors with counters of their own; x has none, so the question still does not apply.
    with torch.inference_mode():
        x = torch.ones(3)
    for y in (x.detach(), x.data):
        assert y.is_inference()
        y.add_(1)
        assert y._version == 1
        report = tcdoc.compare(x, y)
        assert report.shares_version_counter is None
        assert "n/a: x or y is an inference tensor without a version counter" in repr(report)
    with pytest.raises(RuntimeError, match="do not track version counter"):
        x._version  # noqa: B018 - reading it is the test
    assert tcdoc.compare(x.detach(), x.data).shares_version_counter is False  # each has its own


def test_conjugate_bit_hooks_and_overlap() -> None:
    z = torch.tensor([1 + 1j, 2 - 1j]).conj()
    assert tcdoc.compare(z, z.detach()).keeps_conj is True
    assert tcdoc.compare(z, z.resolve_conj()).keeps_conj is False
    assert tcdoc.compare(torch.ones(2), torch.ones(2)).keeps_conj is None

    x = leaf()
    x.register_hook(lambda grad: grad * 2)
    assert tcdoc.compare(x, x).keeps_hooks is True
    assert tcdoc.compare(x, copy.deepcopy(x)).keeps_hooks is False
    assert tcdoc.compare(leaf(), leaf()).keeps_hooks is None

    row = torch.arange(3.0)
    assert tcdoc.compare(row, row.expand(2, 3)).overlaps_itself is True
    assert tcdoc.compare(row, row.expand(2, 3).clone()).overlaps_itself is False
    assert tcdoc.compare(row, row[::2]).overlaps_itself is False


def test_sparse_memory_is_its_indices_and_values() -> None:
    s = torch.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse()
    detached = tcdoc.compare(s, s.detach())
    assert detached.shares_storage
    assert detached.new_bytes == 0
    assert detached.same_strides is None  # sparse: no strides to compare
    cloned = tcdoc.compare(s, s.clone())
    assert not cloned.shares_storage
    parts = (s._indices(), s._values())
    assert cloned.new_bytes == sum(part.untyped_storage().nbytes() for part in parts)
    assert tcdoc.shares_memory(s, s._values())
    assert not tcdoc.shares_memory(s, s._values().clone())


def test_the_n_a_reason_names_what_is_missing() -> None:
    from tcdoc._names import is_not_applicable, not_applicable, reason

    assert reason("grad_fn") is None  # no grad_fn is an answer of its own
    assert reason("grad_fn", False) == "y is not a tensor"
    assert is_not_applicable("keeps_hooks", {"keeps_hooks": None, "result_is_tensor": True})
    assert not is_not_applicable("keeps_hooks", {"keeps_hooks": False, "result_is_tensor": True})
    with pytest.raises(ValueError, match="always applies"):
        not_applicable("new_object")


# -- Is it a view? -------------------------------------------------------------------------------


def test_is_view_follows_what_torch_records_as_a_view() -> None:
    x = no_grad()
    assert tcdoc.compare(x, x[0]).is_view is True
    assert tcdoc.compare(x, x.view(-1)).is_view is True
    assert tcdoc.compare(x, x.T).is_view is True
    # Shared memory without torch's record of a view: not a view.
    assert tcdoc.compare(x, x.detach()).is_view is False
    assert tcdoc.compare(x, torch.from_numpy(x.numpy())).is_view is False
    assert tcdoc.compare(x, x[torch.tensor([0])]).is_view is False  # advanced indexing copies
    assert tcdoc.compare(x, x.clone()).is_view is False
    # A view of a view is recorded against the first base: both are views of it.
    base = torch.arange(24.0)
    sliced = base.reshape(4, 6)[:, ::2]
    assert sliced._base is base
    assert tcdoc.compare(sliced, sliced[0]).is_view is True
    assert tcdoc.compare(sliced, base.reshape(4, 6)).is_view is True  # another view of the same base


def test_is_view_does_not_apply_where_y_is_x_or_to_inference_tensors() -> None:
    from tcdoc._names import not_applicable

    x = no_grad()
    report = tcdoc.compare(x, x)
    assert report.is_view is None
    assert f"is_view                   None  # {not_applicable('is_view', report.as_dict())}" in repr(report)
    assert "n/a: y is x" in repr(report)
    with torch.inference_mode():
        inferred = torch.ones(2, 3)
    assert inferred.view(-1)._base is None  # torch records no view of an inference tensor
    assert tcdoc.compare(inferred, inferred.view(-1)).is_view is None
    assert "of which torch records no views" in repr(tcdoc.compare(inferred, inferred.view(-1)))


# -- In-place writes, on fresh pairs -------------------------------------------------------------


def expanded_pair() -> tuple[torch.Tensor, object]:
    row = torch.arange(3.0)
    return row, row.expand(2, 3)


def test_writes_into_an_expanded_tensor_are_refused_or_reach_every_row_and_x() -> None:
    # Ground truth, by hand: add_, mul_ and copy_ raise; fill_, zero_ and y[0, 0] = ... go through.
    for write in (lambda y: y.add_(1), lambda y: y.mul_(2), lambda y: y.copy_(y.detach() * 2)):
        with pytest.raises(RuntimeError, match="more than one element"):
            write(expanded_pair()[1])
    row, rep = expanded_pair()
    assert isinstance(rep, torch.Tensor)
    rep[0, 0] = 100
    assert row[0].item() == 100
    assert rep[1, 0].item() == 100
    report = tcdoc.compare(*expanded_pair(), remake=expanded_pair)
    writes = {field: getattr(report, field) for field in ("writes_add", "writes_mul", "writes_copy")}
    assert set(writes.values()) == {"refused"}
    assert (report.writes_fill, report.writes_zero, report.writes_index) == ("y and x",) * 3


def test_writes_into_a_view_reach_x_and_into_a_copy_do_not() -> None:
    def view_pair() -> tuple[torch.Tensor, object]:
        x = no_grad()
        return x, x[0]

    def clone_pair() -> tuple[torch.Tensor, object]:
        x = no_grad()
        return x, x.clone()

    view = tcdoc.compare(*view_pair(), remake=view_pair)
    clone = tcdoc.compare(*clone_pair(), remake=clone_pair)
    fields = ("writes_add", "writes_mul", "writes_copy", "writes_fill", "writes_zero", "writes_index")
    assert [getattr(view, f) for f in fields] == ["y and x"] * 6
    assert [getattr(clone, f) for f in fields] == ["y only"] * 6


def test_writes_into_an_inference_tensor_raise_after_writing_and_into_a_leaf_are_refused() -> None:
    def inference_pair() -> tuple[torch.Tensor, object]:
        with torch.inference_mode():
            x = torch.ones(2, 3)
        return x, x[0]

    x, y = inference_pair()
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        y.add_(1)  # type: ignore[attr-defined]  # remake's pair is typed (x, object)
    assert x[0].tolist() == [2.0, 2.0, 2.0]  # torch wrote first, then raised
    report = tcdoc.compare(*inference_pair(), remake=inference_pair)
    assert report.writes_add == report.writes_fill == report.writes_index == "y and x, raised"

    def detached_pair() -> tuple[torch.Tensor, object]:
        with torch.inference_mode():
            x = torch.ones(2, 3)
        return x, x.detach()

    # x.detach() of an inference tensor is one too, and yet torch lets a write through it, into x.
    x, y = detached_pair()
    assert isinstance(y, torch.Tensor)
    assert y.is_inference()
    y.add_(1)
    assert x[0, 0].item() == 2
    assert tcdoc.compare(*detached_pair(), remake=detached_pair).writes_add == "y and x"

    def leaf_pair() -> tuple[torch.Tensor, object]:
        x = leaf()
        return x, x.detach().requires_grad_()

    assert tcdoc.compare(*leaf_pair(), remake=leaf_pair).writes_zero == "refused"


def test_without_remake_no_write_is_tried_and_the_users_tensors_are_left_alone() -> None:
    x, y = expanded_pair()
    report = tcdoc.compare(x, y)
    assert report.writes_fill is None
    assert "n/a: compare() was given no remake, so the write was not tried" in repr(report)
    made: list[tuple[torch.Tensor, object]] = []

    def remake() -> tuple[torch.Tensor, object]:
        made.append(expanded_pair())
        return made[-1]

    x = no_grad()
    y = x[0]
    before = x.clone()
    report = tcdoc.compare(x, y, remake=lambda: (lambda z: (z, z[0]))(no_grad()))
    assert report.writes_fill == "y and x"
    assert torch.equal(x, before)  # the write went into fresh pairs, never into x
    tcdoc.compare(*expanded_pair(), remake=remake)
    assert len(made) == 6  # one fresh pair per write
    listed = tcdoc.compare(x, x.tolist(), remake=lambda: (x.clone(), x.tolist()))
    assert listed.writes_fill is None
    assert "n/a: y is not a tensor" in repr(listed)


# -- n/a where the question does not apply ------------------------------------------------------


def test_no_gradient_can_reach_an_x_that_does_not_require_grad() -> None:
    x = no_grad()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        torch.autograd.grad(x.clone().sum(), x)
    for result in (x.clone(), x.detach(), x, x.view(-1)):
        assert tcdoc.compare(x, result).gradient_flows_to_source is None
    assert "n/a: x does not require grad" in repr(tcdoc.compare(x, x.clone()))
    assert tcdoc.compare(leaf(), leaf().clone()).gradient_flows_to_source is False
    history = tcdoc.answers(tcdoc.compare(x, x.clone()))["history"]
    assert history == "n/a: x has no history (it does not require grad)"
    wrapped = tcdoc.answers(tcdoc.compare(x, torch.nn.Parameter(x)))["history"]
    assert wrapped == "n/a: x has no history (it does not require grad); y requires grad"
    assert "cut" in tcdoc.answers(tcdoc.compare(leaf(), leaf().detach()))["history"]


def test_where_y_is_x_the_copy_questions_answer_alike() -> None:
    from tcdoc._names import reason

    x = leaf()
    x.grad = torch.ones(2, 3)
    setattr(x, "note", "kept")  # noqa: B010 - an attribute torch does not declare
    report = tcdoc.compare(x, x)
    assert (report.copies_grad, report.copies_attributes) == (None, None)
    values = report.as_dict()
    assert reason("copies_grad", values) == reason("copies_attributes", values) == "y is x"
    assert report.new_bytes == 0
    assert report.new_grad_bytes == 0


def test_strides_of_another_shape_are_not_compared() -> None:
    from tcdoc._names import reason

    x = no_grad()
    for result in (x.view(-1), x.T, torch.stack([x, x])):
        report = tcdoc.compare(x, result)
        assert report.same_shape is False
        assert report.same_strides is None
        why = reason("same_strides", report.as_dict())
        assert why == "x and y differ in shape, so their strides cannot be compared"
    assert tcdoc.compare(x, x.clone()).same_shape is True
    sparse = x.to_sparse()
    sparse_reason = reason("same_strides", tcdoc.compare(sparse, sparse.clone()).as_dict())
    assert sparse_reason is not None
    assert sparse_reason.startswith("x or y is not")


def test_every_reason_is_listed_once() -> None:
    from tcdoc._names import NOT_A_TENSOR, NOT_APPLICABLE, REASONS, SHAPE_DIFFERS, Y_IS_X

    assert len(REASONS) == len(set(REASONS))
    assert set(REASONS) == {NOT_A_TENSOR, Y_IS_X, SHAPE_DIFFERS, *NOT_APPLICABLE.values()}


# -- The right frame: x as it was, and every byte a copy allocated --------------------------------


def test_share_memory_is_compared_with_x_as_it_was() -> None:
    x = torch.ones(2, 3)
    old = x.untyped_storage().data_ptr()
    before = tcdoc.footprint(x)
    y = x.share_memory_()
    assert y is x
    assert x.untyped_storage().data_ptr() != old
    report = tcdoc.compare(x, y, before=before)
    assert report.source_moved is True
    assert report.shares_storage is False
    assert report.new_bytes == x.untyped_storage().nbytes() == 24
    assert tcdoc.answers(report)["memory"] == "yes: x itself moved into 24 new bytes"
    # Without the footprint from before, the frame is x as it is, and nothing says it moved.
    assert tcdoc.compare(x, y).source_moved is None
    z = torch.ones(2, 3)
    still = tcdoc.compare(z, z.detach(), before=tcdoc.footprint(z))
    assert (still.source_moved, still.shares_storage, still.new_bytes) == (False, True, 0)


def test_new_bytes_counts_the_copied_grad() -> None:
    x = torch.ones(2, 3, requires_grad=True)
    x.grad = torch.full((2, 3), 0.5)
    deep = copy.deepcopy(x)
    assert deep.grad is not None
    assert deep.grad.data_ptr() != x.grad.data_ptr()
    allocated = deep.untyped_storage().nbytes() + deep.grad.untyped_storage().nbytes()
    report = tcdoc.compare(x, deep)
    assert report.new_bytes == allocated == 48
    assert report.new_grad_bytes == 24
    assert tcdoc.answers(report)["memory"] == "yes: 48 new bytes, 24 of them a copy of .grad"
    cloned = tcdoc.compare(x, x.clone())
    assert (cloned.new_bytes, cloned.new_grad_bytes) == (24, 0)
    assert tcdoc.compare(leaf(), leaf().clone()).new_grad_bytes is None  # x has no .grad
