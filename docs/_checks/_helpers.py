"""What the checks of several pages share: sources, backward passes, and the like."""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import warnings
from collections.abc import Callable, Mapping

import torch
import torch.autograd.forward_ad as fwAD

from tcdoc import GRAD_MODES, Comparison, Matrix, get_scenario, operations, scenarios, shares_memory
from tcdoc.claims import ClaimFalse, expect, measured

__all__ = [
    "EXPAND_REFUSED",
    "EXPAND_WRITES",
    "INFERENCE_IN_PLACE_ERROR",
    "IN_PLACE_WRITES",
    "SAVED_TENSOR_HOOKS",
    "ScaledTensor",
    "aliasing_within_one_call",
    "autograd_sees_detached_changes",
    "backward",
    "backward_after_changing_x",
    "built_source",
    "changed_saved_output",
    "clone_copies_and_records",
    "clone_detach_records_first",
    "clones_come_apart_deepcopy_keeps",
    "data_change_goes_unnoticed",
    "data_shares_memory_not_counter",
    "deepcopy_grad_and_attribute_values",
    "deepcopy_plain_grad_and_attributes",
    "deepcopy_refuses_non_leaf",
    "detach_copies_nothing",
    "detach_fails_only_where_saved",
    "detach_in_place_refuses_views",
    "does_not_raise",
    "each_measured",
    "each_measured_on",
    "each_measured_under",
    "everyday",
    "everyday_names",
    "exp_backward_after_detached_change",
    "expand_index_writes",
    "expand_overlaps_and_refuses",
    "float_returns_float32_x",
    "forward_tangents",
    "hooks_not_carried",
    "hooks_skip_version_check",
    "hooks_warning",
    "in_place_through_float",
    "index_assignment_writes",
    "inference_in_place_error",
    "inference_mark",
    "inference_not_saved",
    "inference_tensor_has_no_counter",
    "keep_a_copy_first",
    "module_computed_detached_stops_training",
    "module_deepcopy_drops_grads",
    "module_row",
    "module_to_is_in_place",
    "module_with_non_leaf",
    "no_grad_product_is_a_copyable_leaf",
    "numpy_round_trip_shares",
    "optimizer_state_dict_references",
    "parameter_deepcopy_drops",
    "parameter_deepcopy_is_its_own",
    "raises",
    "raises_saying",
    "return_x_when_nothing_to_do",
    "right_sigmoid_gradient",
    "scenario_names",
    "silently_wrong",
    "slice_shares_index_copies",
    "state_dict_references",
    "state_dict_shares_both",
    "stops_backward",
    "strided_names",
    "tangent_of",
    "tensor_from_list",
    "tied_model_deepcopy",
    "tied_module",
    "tolist_values",
    "version_error_words",
    "view_or_fail_reshape_either",
    "where_measured",
    "write_through_detached",
    "written_then_raised",
    "zero_dim_values",
]


def raises(call: Callable[[], object], kind: type[BaseException] = RuntimeError) -> BaseException:
    """Run ``call``; return the ``kind`` it raised, or fail the claim if it raised nothing."""
    try:
        call()
    except kind as exc:
        return exc
    raise ClaimFalse(f"{getattr(call, '__name__', 'the call')} did not raise {kind.__name__}")


def does_not_raise(call: Callable[[], object]) -> None:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any error makes the claim false
        raise ClaimFalse(f"it raised {type(exc).__name__}: {exc}") from None


def backward(tensor: torch.Tensor) -> None:
    """Back-propagate from ``tensor`` (``Tensor.backward`` has no type hints)."""
    tensor.backward()  # type: ignore[no-untyped-call]


def built_source(scenario: str) -> torch.Tensor:
    return get_scenario(scenario).build(torch.device("cpu"))


def scenario_names() -> tuple[str, ...]:
    return tuple(s.name for s in scenarios())


def everyday_names() -> tuple[str, ...]:
    """Return the everyday scenarios: what a sentence about "a tensor" means, unless it says more.

    The special tensors (inference, conjugate, expanded, sparse, subclass, ...) have their own
    section on the special-tensors page, with their own claims.
    """
    return tuple(s.name for s in scenarios() if s.group == "everyday")


def strided_names() -> tuple[str, ...]:
    return tuple(name for name in scenario_names() if built_source(name).layout == torch.strided)


def each_measured(matrix: Matrix, operation: str) -> list[tuple[str, Comparison]]:
    """Every scenario where ``operation`` returned a tensor, with what it measured."""
    rows = [matrix.get(operation, name) for name in scenario_names()]
    return [(row.scenario, row.properties) for row in rows if row.properties is not None]


def changed_saved_output(reach: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor | RuntimeError:
    """Zero sigmoid's saved output through ``reach(output)``; return a's gradient or the error."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.sigmoid()
    with torch.no_grad():
        reach(b).zero_()
    try:
        backward(b.sum())
    except RuntimeError as error:
        return error
    assert a.grad is not None
    return a.grad


def right_sigmoid_gradient() -> torch.Tensor:
    s = torch.tensor([1.0, 2.0]).sigmoid()
    return s * (1 - s)


def silently_wrong(reach: Callable[[torch.Tensor], torch.Tensor], name: str) -> None:
    outcome = changed_saved_output(reach)
    expect(not isinstance(outcome, RuntimeError), f"a change through {name} raised: {outcome}")
    assert isinstance(outcome, torch.Tensor)
    expect(not torch.allclose(outcome, right_sigmoid_gradient()), f"through {name} the gradient stayed right")


def stops_backward(reach: Callable[[torch.Tensor], torch.Tensor], name: str) -> RuntimeError:
    outcome = changed_saved_output(reach)
    expect(isinstance(outcome, RuntimeError), f"a change through {name} did not stop the backward pass")
    assert isinstance(outcome, RuntimeError)
    return outcome


def exp_backward_after_detached_change(make: Callable[[torch.Tensor], torch.Tensor]) -> str | None:
    """Zero ``make(x)`` through a detached twin, then back-propagate; the error, or None."""
    x = torch.randn(4, requires_grad=True)
    y = make(x)
    y.detach().zero_()
    try:
        backward(y.sum())
    except RuntimeError as error:
        return str(error)
    return None


def version_error_words(matrix: Matrix) -> None:
    error = stops_backward(lambda t: t.detach(), "detach()")
    expect("is at version 1; expected version 0" in str(error), f"the error says: {error}")


def state_dict_shares_both(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()["weight"]
    expect(saved is not model.weight and shares_memory(saved, model.weight), "no shared memory")
    before = saved._version
    with torch.no_grad():
        model.weight.add_(1.0)
    expect(saved._version == before + 1, "the state_dict tensor does not share the version counter")


def each_measured_under(matrix: Matrix, operation: str, grad_mode: str) -> list[tuple[str, Comparison]]:
    """Return each scenario where ``operation``, under ``grad_mode``, returned a tensor, and its report."""
    rows = [matrix.get(operation, name, grad_mode) for name in scenario_names()]
    return [(row.scenario, row.properties) for row in rows if row.properties is not None]


def clone_copies_and_records(matrix: Matrix) -> None:
    """Check new memory in every grad mode, and a record only where x requires grad and autograd records."""
    for grad_mode in GRAD_MODES:
        for scenario, report in each_measured_under(matrix, "clone", grad_mode):
            where = f"clone on {scenario} under {grad_mode}"
            expect(not report.shares_storage and bool(report.new_bytes), f"{where} copied nothing")
            recorded = built_source(scenario).requires_grad and grad_mode == "enabled"
            expected = "CloneBackward0" if recorded else None
            expect(report.grad_fn == expected, f"{where} has grad_fn {report.grad_fn}, not {expected}")


def clone_detach_records_first(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    recorded = x.clone()
    expect(recorded.grad_fn is not None, "x.clone() recorded nothing")
    expect(recorded.detach().grad_fn is None, "detach() kept the record")
    expect(x.detach().clone().grad_fn is None, "x.detach().clone() recorded something")


def detach_copies_nothing(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "detach"):
        expect(report.new_bytes == 0 and not report.requires_grad, f"detach on {scenario} measured {report}")


def write_through_detached(matrix: Matrix) -> None:
    x = torch.zeros(3, requires_grad=True)
    d = x.detach()
    d[0] = 7.0
    expect(x[0].item() == 7.0, "the write into d did not reach x")
    expect((x._version, d._version) == (1, 1), f"the counters read {(x._version, d._version)}")


def autograd_sees_detached_changes(matrix: Matrix) -> None:
    error = exp_backward_after_detached_change(torch.exp)
    expect(
        error is not None and "modified by an inplace operation" in error, f"the backward pass gave {error}"
    )


def data_change_goes_unnoticed(matrix: Matrix) -> None:
    report = measured(matrix, "data", "leaf_requires_grad")
    expect(report.shares_storage and not report.shares_version_counter, f"x.data measured {report}")
    silently_wrong(lambda t: t.data, ".data")


def tangent_of(make: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor | None:
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore", DeprecationWarning)  # raised inside torch on some versions
        primal = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))  # type: ignore[no-untyped-call]
        tangent: torch.Tensor | None = fwAD.unpack_dual(make(primal)).tangent  # type: ignore[no-untyped-call]
    return tangent


def forward_tangents(matrix: Matrix) -> None:
    kept = tangent_of(lambda t: t.clone())
    expect(kept is not None and torch.equal(kept, torch.full((2,), 3.0)), f"the clone's tangent is {kept}")
    expect(tangent_of(lambda t: t.detach()) is None, "detach() kept the tangent")


def deepcopy_plain_grad_and_attributes(matrix: Matrix) -> None:
    report = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(report.copies_grad and report.copies_attributes, f"deepcopy of a plain leaf measured {report}")
    x = built_source("leaf_requires_grad")
    x.mutable = [1.0]  # type: ignore[attr-defined]
    y = copy.deepcopy(x)
    expect(y.grad is not x.grad and y.note is not None, "the copies are not new objects")  # type: ignore[attr-defined]
    expect(y.mutable == x.mutable and y.mutable is not x.mutable, "the list attribute is shared")  # type: ignore[attr-defined]


def deepcopy_grad_and_attribute_values(matrix: Matrix) -> None:
    """Check .grad into a new tensor, attributes as copy.deepcopy copies values; a Parameter keeps neither."""
    deepcopy_plain_grad_and_attributes(matrix)
    for requires_grad in (True, False):
        x = torch.ones(3, requires_grad=requires_grad)
        if requires_grad:
            x.grad = torch.full((3,), 2.0)
        x.note, x.tags = "a string", ["a", "list"]  # type: ignore[attr-defined]
        y = copy.deepcopy(x)
        if requires_grad:
            grad, old = y.grad, x.grad
            expect(grad is not None and old is not None and grad is not old, "no new .grad")
            assert grad is not None
            assert old is not None
            expect(torch.equal(grad, old), "the copied .grad differs")
        expect(y.note is x.note, "the string attribute was duplicated")  # type: ignore[attr-defined]
        expect(y.tags == x.tags and y.tags is not x.tags, "the list attribute is not a new list")  # type: ignore[attr-defined]
    parameter = torch.nn.Parameter(torch.ones(3))
    parameter.grad, parameter.note = torch.ones(3), "a string"  # type: ignore[attr-defined]
    kept = copy.deepcopy(parameter)
    expect(kept.grad is None and not hasattr(kept, "note"), "a Parameter's deepcopy kept .grad or attributes")
    # A .grad with a history of its own (higher-order gradients) is a tensor deepcopy refuses.
    x = torch.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns of the cycle between x and its .grad
        (x**3).sum().backward(create_graph=True)  # type: ignore[no-untyped-call]
    expect(x.grad is not None and x.grad.grad_fn is not None, "backward(create_graph=True) left no history")
    raises(lambda: copy.deepcopy(x))
    x.grad = None  # breaks the cycle


def no_grad_product_is_a_copyable_leaf(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        w = x * 2
    expect(w.is_leaf and w.grad_fn is None and not w.requires_grad, f"the no_grad product is {w!r}")
    copied = copy.deepcopy(w)
    expect(copied.is_leaf and torch.equal(copied, w) and copied is not w, "deepcopy did not copy it")
    recorded = x * 2
    expect(not recorded.is_leaf, "the product recorded with grad mode on is a leaf")


def deepcopy_refuses_non_leaf(matrix: Matrix) -> None:
    for scenario in ("non_leaf", "zero_dim"):
        row = matrix.get("deepcopy", scenario)
        expect(
            row.error is not None and "leaves" in row.error.message, f"deepcopy of {scenario}: {row.outcome}"
        )
    # A leaf is copied; a Tensor subclass is refused for a reason of its own (the special-tensors page).
    for scenario in everyday_names():
        if built_source(scenario).is_leaf:
            expect(matrix.get("deepcopy", scenario).error is None, f"deepcopy raised on the leaf {scenario}")


class ScaledTensor(torch.nn.Module):
    """The deepcopy page's module: it keeps ``weight * 2`` from its last forward pass.

    ``keep``: ``"attached"`` keeps the recorded product (deepcopy refuses it), ``"detached copy"``
    keeps its detached copy and computes with the product itself (the page's fix), and
    ``"computed detached"`` computes with ``self.weight.detach() * 2`` (copyable, and the weight no
    longer trains).
    """

    def __init__(self, keep: str) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))
        self.bias = torch.nn.Parameter(torch.zeros(3))
        self.keep = keep

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        weight = self.weight.detach() if self.keep == "computed detached" else self.weight
        scale = weight * 2
        self.scale = scale.detach() if self.keep == "detached copy" else scale
        return inputs * scale + self.bias


def _trained_once(keep: str) -> ScaledTensor:
    """Make a ``ScaledTensor`` and run one forward and backward pass through it."""
    module = ScaledTensor(keep)
    backward(module(torch.ones(3)).sum())
    return module


def module_with_non_leaf(matrix: Matrix) -> None:
    """Check that keeping a recorded tensor fails and keeping its detached copy copies and trains."""
    broken = ScaledTensor("attached")
    broken(torch.ones(3))
    raises(lambda: copy.deepcopy(broken))
    fixed = _trained_once("detached copy")
    does_not_raise(lambda: copy.deepcopy(fixed))
    trained = fixed.weight.grad is not None and fixed.bias.grad is not None
    expect(trained, "the fixed module's weight got no gradient")
    twin = copy.deepcopy(fixed)
    expect(not shares_memory(twin.scale, fixed.scale), "the copy's kept tensor shares the original's memory")
    for mode in (torch.no_grad, torch.inference_mode):  # the same forward pass, not recorded
        unrecorded = ScaledTensor("attached")
        with mode():
            unrecorded(torch.ones(3))
        does_not_raise(functools.partial(copy.deepcopy, unrecorded))


def module_computed_detached_stops_training(matrix: Matrix) -> None:
    """Check that computing with ``self.weight.detach() * 2`` copies and gives the weight no gradient."""
    module = _trained_once("computed detached")
    does_not_raise(lambda: copy.deepcopy(module))
    expect(module.weight.grad is None, f"the weight got a gradient: {module.weight.grad}")
    expect(module.bias.grad is not None, "the bias got no gradient either: nothing trained")


def aliasing_within_one_call(matrix: Matrix) -> None:
    base = torch.arange(4.0)
    view = base[1:]
    one_base, one_view = copy.deepcopy([base, view])
    expect(shares_memory(one_base, one_view), "one call did not keep the two together")
    one_base[1] = 100.0
    expect(one_view[0].item() == 100.0 and base[1].item() == 1.0, "the write did not behave")
    two_base, two_view = copy.deepcopy(base), copy.deepcopy(view)
    expect(not shares_memory(two_base, two_view), "two calls kept the two together")


def parameter_deepcopy_is_its_own(matrix: Matrix) -> None:
    expect(
        torch.nn.Parameter.__deepcopy__ is not torch.Tensor.__deepcopy__, "Parameter uses Tensor's deepcopy"
    )


def parameter_deepcopy_drops(matrix: Matrix) -> None:
    for scenario in ("parameter", "parameter_with_attribute"):
        report = measured(matrix, "deepcopy", scenario)
        ok = report.result_type == "Parameter" and report.requires_grad and report.copies_grad is False
        expect(ok, f"deepcopy on {scenario} measured {report}")
    expect(measured(matrix, "deepcopy", "parameter_with_attribute").copies_attributes is False, "kept them")
    plain = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(plain.copies_grad and plain.copies_attributes, f"a plain leaf's deepcopy measured {plain}")


def tied_module(matrix: Matrix) -> None:
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


def each_measured_on(matrix: Matrix, scenario: str) -> list[tuple[str, Comparison]]:
    rows = [matrix.get(op.name, scenario) for op in operations()]
    return [(row.operation, row.properties) for row in rows if row.properties is not None]


def data_shares_memory_not_counter(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "data"):
        ok = report.shares_storage and not report.shares_version_counter
        expect(ok, f"x.data on {scenario} measured {report}")
    report = measured(matrix, "detach", "leaf_requires_grad")
    expect(report.shares_storage and report.shares_version_counter, f"detach measured {report}")


def return_x_when_nothing_to_do(matrix: Matrix) -> None:
    for op in ("to_same_dtype", "cpu"):
        for scenario, report in each_measured(matrix, op):
            expect(not report.new_object, f"{op} on {scenario} made a new object")
    for scenario, report in each_measured(matrix, "contiguous"):
        dense = built_source(scenario).is_contiguous()
        expect(report.new_object != dense, f"contiguous on {scenario}: new object {report.new_object}")


def view_or_fail_reshape_either(matrix: Matrix) -> None:
    for scenario in strided_names():
        view, reshaped = matrix.get("view", scenario), matrix.get("reshape", scenario)
        expect(view.properties is None or view.properties.shares_storage, f"view on {scenario} copied")
        expect(reshaped.properties is not None, f"reshape on {scenario}: {reshaped.outcome}")
        assert reshaped.properties is not None
        expect(reshaped.properties.shares_storage == (view.error is None), f"reshape on {scenario} disagrees")


def numpy_round_trip_shares(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "numpy_roundtrip"):
        expect(report.shares_storage and not report.shares_version_counter, f"{scenario}: {report}")
    for scenario in everyday_names():
        expect(matrix.get("numpy_roundtrip", scenario).properties is not None, f"not measured on {scenario}")
    outcome = changed_saved_output(lambda t: torch.from_numpy(t.detach().numpy()))
    expect(isinstance(outcome, torch.Tensor), f"a change through NumPy was noticed: {outcome}")


def state_dict_references(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()
    expect(shares_memory(saved["weight"], model.weight) and not saved["weight"].requires_grad, "not detached")
    expect(saved["weight"] is not model.weight, "state_dict() returned the Parameter object itself")
    expect(type(saved["weight"]) is torch.Tensor, f"state_dict() returned a {type(saved['weight']).__name__}")
    best = copy.deepcopy(model.state_dict())
    with torch.no_grad():
        model.weight.add_(1.0)
    expect(torch.equal(saved["weight"], model.weight), "the saved tensor did not follow the update")
    expect(not torch.equal(best["weight"], model.weight), "the deep copy followed the update")


def backward_after_changing_x(
    make: Callable[[torch.Tensor], torch.Tensor],
    hooks: Callable[[], contextlib.AbstractContextManager[object]] = contextlib.nullcontext,
) -> str | None:
    """Change ``x`` in place through ``x.detach()`` after ``y = make(x)``, then back-propagate; the error.

    ``y`` is computed under ``hooks()``, a context such as a saved-tensor hook.
    """
    x = torch.randn(4, requires_grad=True)
    with hooks():
        y = make(x)
    x.detach().add_(1)
    try:
        backward(y.sum())
    except RuntimeError as error:
        return str(error)
    return None


SAVED_TENSOR_HOOKS: dict[str, Callable[[], contextlib.AbstractContextManager[object]]] = {
    "save_on_cpu": torch.autograd.graph.save_on_cpu,
    "saved_tensors_hooks": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
}
"""Saved-tensor hooks, under which autograd does not check the version of what it saved."""


def _has_counter(tensor: torch.Tensor) -> bool:
    # Read from torch here, not through tcdoc._compare's twin: the check must not lean on the
    # measurement whose table it vouches for.
    try:
        tensor._version  # noqa: B018 - reading it is the test
    except RuntimeError:
        return False
    return True


def inference_tensor_has_no_counter() -> None:
    """Check who has a version counter: an ordinary tensor has one, one made under inference mode has none.

    ``x.detach()`` and ``x.data`` of an inference tensor, made outside inference mode, are
    inference tensors too, yet each has a counter of its own, which an in-place write moves.
    """
    ordinary = torch.ones(3)
    with torch.inference_mode():
        made = {"a factory's result": torch.ones(3), "y * 2 of an ordinary y": ordinary * 2}
        base = torch.ones(3)
        made |= {"detach()": base.detach(), "a view": base[0:2], ".data": base.data, "clone()": base.clone()}
    for name, tensor in made.items():
        expect(tensor.is_inference(), f"{name} under inference mode is not an inference tensor")
        expect(not _has_counter(tensor), f"{name} under inference mode has a version counter")
    with torch.inference_mode():
        x = torch.ones(3)
    aliases = {"x.detach()": x.detach(), "x.data": x.data}
    for name, alias in aliases.items():
        expect(alias.is_inference() and _has_counter(alias), f"{name} of an inference tensor has no counter")
    aliases["x.detach()"].add_(1)
    expect(aliases["x.detach()"]._version == 1, "add_ did not move the counter of x.detach()")
    expect(aliases["x.data"]._version == 0, "x.detach() and x.data of an inference tensor share a counter")
    for scenario in scenario_names():
        source = built_source(scenario)
        if not source.is_inference():
            expect(_has_counter(source), f"the ordinary tensor of {scenario} has no version counter")


def hooks_skip_version_check(matrix: Matrix) -> None:
    """Check that a change through detach() goes unnoticed where saved-tensor hooks were on."""
    for name, hooks in SAVED_TENSOR_HOOKS.items():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with hooks():
            b = a.sigmoid()
        b.detach().zero_()
        backward(b.sum())
        assert a.grad is not None
        expect(
            not torch.allclose(a.grad, right_sigmoid_gradient()), f"under {name} the gradient stayed right"
        )
        expect(
            backward_after_changing_x(torch.sin, hooks) is None, f"under {name} the change of x was noticed"
        )


def detach_fails_only_where_saved(matrix: Matrix) -> None:
    report = measured(matrix, "detach", "leaf_requires_grad")
    expect(report.shares_storage and report.shares_version_counter, f"detach measured {report}")
    expect(backward_after_changing_x(torch.sin) is not None, "the change of x after sin went through")
    hooks_skip_version_check(matrix)
    for name, make in (("x + 1", lambda x: x + 1), ("x.exp()", torch.exp)):
        error = backward_after_changing_x(make)
        expect(error is None, f"the change of x after {name} stopped the backward pass: {error}")


def module_deepcopy_drops_grads(matrix: Matrix) -> None:
    layer = torch.nn.Linear(3, 1)
    backward(layer(torch.randn(2, 3)).sum())
    twin = copy.deepcopy(layer)
    expect(layer.weight.grad is not None and twin.weight.grad is None, "the copied layer has a gradient")


def clones_come_apart_deepcopy_keeps(matrix: Matrix) -> None:
    model = torch.nn.Sequential(torch.nn.Embedding(10, 4), torch.nn.Linear(4, 10, bias=False))
    model[1].weight = model[0].weight
    state = model.state_dict(keep_vars=False)
    state["1.weight"] = state["0.weight"]  # what state_dict gives for tied weights
    one_by_one = {name: tensor.detach().clone() for name, tensor in state.items()}
    whole = copy.deepcopy(state)
    expect(not shares_memory(one_by_one["0.weight"], one_by_one["1.weight"]), "the clones share memory")
    expect(shares_memory(whole["0.weight"], whole["1.weight"]), "the deep copy split the tie")


def tied_model_deepcopy(matrix: Matrix) -> None:
    tied_module(matrix)
    clones_come_apart_deepcopy_keeps(matrix)


def raises_saying(call: Callable[[], object], words: str = "") -> RuntimeError:
    """Run ``call``; return the RuntimeError it raised (whose message has ``words``), or fail."""
    try:
        call()
    except RuntimeError as exc:
        expect(words in str(exc), f"the error does not say {words!r}: {exc}")
        return exc
    raise ClaimFalse(f"{getattr(call, '__name__', 'the call')} did not raise")


def everyday() -> tuple[str, ...]:
    return tuple(s.name for s in scenarios() if s.group == "everyday")


def where_measured(matrix: Matrix, operation: str, names: tuple[str, ...]) -> list[tuple[str, Comparison]]:
    rows = [matrix.get(operation, name) for name in names]
    return [(row.scenario, row.properties) for row in rows if row.properties is not None]


def module_row(matrix: Matrix, operation: str) -> Mapping[str, object]:
    row = matrix.get_module(operation)
    if row.properties is None:
        raise ClaimFalse(f"{operation} raised: {row.outcome}")
    return row.properties.as_dict()


def float_returns_float32_x(matrix: Matrix) -> None:
    for op in ("float", "type_float32"):
        seen = 0
        for scenario in (s.name for s in scenarios()):
            row = matrix.get(op, scenario)
            if row.properties is None:
                continue
            seen += 1
            is_float32 = built_source(scenario).dtype == torch.float32
            expect(row.properties.new_object != is_float32, f"{op} on {scenario}: {row.properties}")
            if not is_float32:
                expect(not row.properties.shares_storage, f"{op} on {scenario} shares memory")
        expect(seen, f"{op} ran nowhere")


def in_place_through_float(matrix: Matrix) -> None:
    x = torch.zeros(3)
    y = x.float()
    y += 1
    expect(y is x and torch.equal(x, torch.ones(3)), "the change through y did not reach x")


def slice_shares_index_copies(matrix: Matrix) -> None:
    both = 0
    for scenario in everyday():
        sliced, indexed = matrix.get("slice", scenario), matrix.get("index", scenario)
        if sliced.properties is None or indexed.properties is None:
            continue
        both += 1
        expect(sliced.properties.shares_storage and sliced.properties.new_bytes == 0, f"slice on {scenario}")
        expect(not indexed.properties.shares_storage, f"indexing shares memory on {scenario}")
        expect(bool(indexed.properties.new_bytes), f"indexing holds no new bytes on {scenario}")
    expect(both, "slicing and indexing ran together nowhere")


def index_assignment_writes(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    x[torch.tensor([1])] = 5.0
    expect(torch.equal(x[1], torch.full((3,), 5.0)), "assignment through an index tensor did not write x")
    expect(torch.equal(x[0], torch.zeros(3)), "assignment wrote the wrong row")


IN_PLACE_WRITES: dict[str, Callable[[torch.Tensor], object]] = {
    "add_": lambda t: t.add_(1),
    "mul_": lambda t: t.mul_(2),
    "copy_": lambda t: t.copy_(torch.zeros_like(t)),
    "fill_": lambda t: t.fill_(7.0),
    "zero_": lambda t: t.zero_(),
    "indexed assignment": lambda t: t.__setitem__(0, 5.0),
}
"""The in-place writes that claims about writing into a tensor cover, each a function of the tensor."""

EXPAND_WRITES: dict[str, Callable[[torch.Tensor], object]] = {
    **{name: write for name, write in IN_PLACE_WRITES.items() if name != "indexed assignment"},
    "assignment into one element": lambda t: t.__setitem__((0, 0), 5.0),
    "assignment into one row": lambda t: t.__setitem__(0, torch.tensor([4.0, 5.0, 6.0])),
    "assignment across the repeated dimension": lambda t: t.__setitem__((slice(None), 0), 5.0),
}
"""The in-place writes that the claims about an expanded tensor cover."""

EXPAND_REFUSED = ("add_", "mul_", "copy_", "assignment across the repeated dimension")
"""Of :data:`EXPAND_WRITES`, the ones torch refuses on an expanded tensor; the others write through."""


def expand_overlaps_and_refuses(matrix: Matrix) -> None:
    runs = where_measured(matrix, "expand", everyday())
    expect(runs, "expand ran nowhere")
    for scenario, report in runs:
        expect(report.overlaps_itself and report.shares_storage, f"expand on {scenario}: {report}")
    wide = torch.arange(3.0).expand(2, 3)
    expect(0 in wide.stride(), f"the strides are {wide.stride()}")
    for name, write in EXPAND_WRITES.items():
        row = torch.tensor([1.0, 2.0, 3.0])
        before = row.clone()
        repeated = row.expand(4, 3)
        if name in EXPAND_REFUSED:
            raises_saying(functools.partial(write, repeated), "more than one element")
            expect(torch.equal(row, before), f"{name} was refused, yet changed the row")
            continue
        write(repeated)
        expect(not torch.equal(row, before), f"{name} into the expanded tensor did not reach the row")
        expect(all(torch.equal(line, row) for line in repeated), f"after {name} the rows differ")


def expand_index_writes(matrix: Matrix) -> None:
    """Check that assignment through an index tensor or a mask writes into an expanded tensor, and warns."""
    writes: dict[str, Callable[[torch.Tensor], object]] = {
        "an index tensor across the repeated dimension": lambda t: t.__setitem__(
            (torch.tensor([0, 1]), 0), 5.0
        ),
        "a mask": lambda t: t.__setitem__(torch.ones(2, 3, dtype=torch.bool), 5.0),
    }
    for name, write in writes.items():
        row = torch.zeros(3)
        wide = row.expand(2, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            write(wide)
        expect(bool(row[0] == 5.0), f"assignment through {name} did not reach x")
        said = [str(w.message) for w in caught]
        expect(any("deprecated" in m for m in said), f"assignment through {name} warned {said}")


def detach_in_place_refuses_views(matrix: Matrix) -> None:
    row = matrix.get("detach_", "strided_view")
    expect(row.error is not None and "views" in row.error.message, f"detach_ on a view: {row.outcome}")
    reshaped = torch.arange(6.0).reshape(2, 3)
    expect(reshaped._base is not None, "reshape of a new tensor is not a view")
    raises_saying(reshaped.detach_, "Can't detach views in-place")
    expect(torch.tensor([[0.0, 1.0]]).detach_() is not None, "detach_ refused a tensor that owns its memory")
    with torch.no_grad():
        unrecorded = torch.arange(6.0).reshape(2, 3)
    raises_saying(unrecorded.detach_, "Can't detach views in-place")
    with torch.inference_mode():  # the words say "outside inference mode": inside, reshape makes no view
        inside = torch.arange(6.0).reshape(2, 3)
        expect(inside._base is None, "inside inference mode the reshape is a tracked view")
        inside.detach_()


def module_to_is_in_place(matrix: Matrix) -> None:
    to = module_row(matrix, "module_to_float64")
    expect(to["new_object"] is False and to["changes_source"] is True, f"model.to(float64) measured {to}")
    expect(to["shares_storage"] != to["tensors"], "every tensor still shares the old memory")
    tensor = measured(matrix, "to_float64", "leaf_requires_grad")
    expect(tensor.new_object and not tensor.shares_storage, f"x.to(torch.float64) measured {tensor}")
    same = module_row(matrix, "module_to_same_dtype")
    expect(same["new_object"] is False and same["changes_source"] is False, f"model.to(float32): {same}")


def keep_a_copy_first(matrix: Matrix) -> None:
    deep = module_row(matrix, "module_deepcopy")
    ok = deep["new_object"] and deep["same_tensors"] == 0 and deep["shares_storage"] == 0
    expect(ok, f"copy.deepcopy(model) measured {deep}")
    expect(deep["changes_source"] is False, "the deep copy changed the model")


def optimizer_state_dict_references(matrix: Matrix) -> None:
    live, snap = (
        module_row(matrix, "optimizer_state_dict"),
        module_row(matrix, "optimizer_state_dict_deepcopy"),
    )
    n = live["tensors"]
    expect(bool(n) and live["same_tensors"] == n, f"optimizer.state_dict() measured {live}")
    expect(snap["same_tensors"] == 0 and snap["shares_storage"] == 0, f"its deep copy measured {snap}")
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(2):
        backward(model(torch.ones(1, 2)).sum())
        optimizer.step()
    saved = optimizer.state_dict()
    before = saved["state"][0]["exp_avg"].clone()
    backward(model(torch.ones(1, 2)).sum())
    optimizer.step()
    expect(not torch.equal(saved["state"][0]["exp_avg"], before), "the saved state did not change")


def inference_mark(matrix: Matrix) -> None:
    """Check that views and detach keep the mark in every mode; copies drop it outside inference mode."""
    for grad_mode in GRAD_MODES:
        for op in ("detach", "data", "view", "slice"):
            report = matrix.get(op, "inference", grad_mode).properties
            expect(report is not None and report.keeps_inference, f"{op} under {grad_mode} dropped the mark")
        for op in ("clone", "detach_clone", "deepcopy"):
            report = matrix.get(op, "inference", grad_mode).properties
            kept = grad_mode == "inference_mode"
            expect(report is not None and report.keeps_inference is kept, f"{op} under {grad_mode}: {report}")


INFERENCE_IN_PLACE_ERROR = "Inplace update to inference tensor outside InferenceMode"
"""What torch says when an in-place write into an inference tensor, outside inference mode, raises."""


def written_then_raised(
    name: str, write: Callable[[torch.Tensor], object], target: torch.Tensor, source: torch.Tensor
) -> str:
    """Write into ``target`` (``source``, or a tensor that reads its memory); check it wrote, then raised.

    Return the error's message. The claim fails if the write raised nothing, or raised before
    changing ``source``: a reader who catches the error would think the tensor was left alone.
    """
    before = source.clone()
    error = raises_saying(functools.partial(write, target), INFERENCE_IN_PLACE_ERROR)
    expect(not torch.equal(source, before), f"{name} raised and left the tensor as it was")
    return str(error)


def inference_in_place_error(matrix: Matrix) -> None:
    """Check that, outside inference mode, a write into an inference tensor or its view lands, then raises."""
    for mode in (torch.enable_grad, torch.no_grad):  # outside inference mode, with or without grad
        for name, write in IN_PLACE_WRITES.items():
            for reach in ("itself", "a view"):
                with torch.inference_mode():
                    x = torch.full((3,), 3.0)
                target = x if reach == "itself" else x[0:2]
                with mode():
                    message = written_then_raised(name, write, target, x)
                expect("make a clone" in message, f"the error of {name} does not suggest a clone: {message}")
    with torch.inference_mode():
        x = torch.ones(3)
    with contextlib.suppress(RuntimeError):
        x.add_(1)
    expect(torch.equal(x, torch.full((3,), 2.0)), f"after the add_ that raised, x holds {x}")
    y = x.clone()
    y.add_(1)
    expect(not y.is_inference(), "the clone is an inference tensor")


def inference_not_saved(matrix: Matrix) -> None:
    with torch.inference_mode():
        x = torch.ones(3)
    w = torch.ones(3, requires_grad=True)
    raises_saying(lambda: w * x, "Inference tensors cannot be saved for backward")
    backward((w * x.clone()).sum())
    expect(w.grad is not None, "the clone did not let the gradient through")


def hooks_not_carried(matrix: Matrix) -> None:
    for op in ("deepcopy", "copy", "save_load", "clone", "detach"):
        expect(measured(matrix, op, "hooked").keeps_hooks is False, f"{op} carried the hooks")
    calls: list[int] = []
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda grad: calls.append(1))  # type: ignore[no-untyped-call]
    backward(x.clone().sum())
    expect(calls == [1], "the hook of x did not run for a gradient through the clone")
    twin = copy.deepcopy(x)
    backward(twin.sum())
    expect(calls == [1], "a hook ran for the deep copy")


def hooks_warning(matrix: Matrix) -> None:
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
        if isinstance(made, torch.Tensor):
            expect(not made._backward_hooks, f"{name} of a Parameter kept its hook")


def zero_dim_values(matrix: Matrix) -> None:
    expect(measured(matrix, "tolist", "zero_dim").result_type == "float", "tolist() of a 0-d tensor")
    for op in ("cat", "slice", "index"):
        expect(matrix.get(op, "zero_dim").error is not None, f"{op} did not raise on a 0-d tensor")
    expect(measured(matrix, "stack", "zero_dim").result_is_tensor, "stack() of a 0-d tensor failed")
    z = torch.tensor(3.0)
    raises(lambda: z[0], IndexError)
    expect(torch.stack([z]).shape == (1,), "stack() did not give the 0-d tensor a dimension")


def tolist_values(matrix: Matrix) -> None:
    for scenario in (s.name for s in scenarios()):
        row = matrix.get("tolist", scenario)
        if row.properties is None:
            continue
        report = row.properties
        expect(not report.result_is_tensor and not report.shares_storage, f"tolist on {scenario}: {report}")
        expect(
            report.result_type in ("list", "float", "int", "complex"), f"tolist gave a {report.result_type}"
        )


def tensor_from_list(matrix: Matrix) -> None:
    for scenario, report in where_measured(matrix, "tensor_from_list", everyday()):
        ok = report.new_object and not report.shares_storage and report.is_leaf and not report.requires_grad
        expect(ok and report.grad_fn is None, f"torch.tensor(x.tolist()) on {scenario}: {report}")
