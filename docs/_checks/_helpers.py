"""What the checks of several pages share: sources, cells of the matrix, backward passes, and the like."""

from __future__ import annotations

import contextlib
import copy
import functools
import warnings
from collections.abc import Callable

import torch

from tcdoc import GRAD_MODES, Comparison, Matrix, get_scenario, scenarios, shares_memory
from tcdoc.claims import ClaimFalse, expect, measured

Hooks = Callable[[], contextlib.AbstractContextManager[object]]
Reach = Callable[[torch.Tensor], torch.Tensor]
Ops = str | tuple[str, ...]

# -- Running calls --------------------------------------------------------------------------------


def raises(
    call: Callable[[], object], words: str = "", kind: type[BaseException] = RuntimeError
) -> BaseException:
    """Run ``call``; return the ``kind`` it raised, whose message says ``words``, or fail the claim."""
    try:
        call()
    except kind as exc:
        expect(words in str(exc), f"the error does not say {words!r}: {exc}")
        return exc
    raise ClaimFalse(f"{getattr(call, '__name__', 'the call')} did not raise {kind.__name__}")


def does_not_raise(call: Callable[[], object]) -> None:
    """Run ``call``; fail the claim if it raises."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any error makes the claim false
        raise ClaimFalse(f"it raised {type(exc).__name__}: {exc}") from None


def backward(tensor: torch.Tensor) -> None:
    """Back-propagate from ``tensor`` (``Tensor.backward`` has no type hints)."""
    tensor.backward()  # type: ignore[no-untyped-call]


# -- Scenarios and the cells of the matrix --------------------------------------------------------


def built_source(scenario: str) -> torch.Tensor:
    """Build the ``x`` of ``scenario`` on the CPU."""
    return get_scenario(scenario).build(torch.device("cpu"))


def everyday_names() -> tuple[str, ...]:
    """Return the everyday scenarios: what "a tensor" means (special tensors have claims of their own)."""
    return tuple(s.name for s in scenarios() if s.group == "everyday")


def each_measured(
    matrix: Matrix, operation: str, names: tuple[str, ...] = (), grad_mode: str = "enabled"
) -> list[tuple[str, Comparison]]:
    """Each scenario of ``names`` (default: all) where ``operation`` returned a tensor, with its report."""
    rows = [matrix.get(operation, name, grad_mode) for name in names or [s.name for s in scenarios()]]
    return [(row.scenario, row.properties) for row in rows if row.properties is not None]


def each_cell(
    matrix: Matrix,
    ops: Ops,
    test: Callable[[Comparison], object],
    names: tuple[str, ...] = (),
    grad_mode: str = "enabled",
) -> None:
    """Fail unless each of ``ops`` ran somewhere in ``names`` and ``test`` holds on every such cell."""
    for op in (ops,) if isinstance(ops, str) else ops:
        runs = each_measured(matrix, op, names, grad_mode)
        expect(runs, f"{op} ran nowhere under {grad_mode}")
        for scenario, report in runs:
            expect(test(report), f"{op} on {scenario} under {grad_mode} measured {report}")


def cells_check(
    ops: Ops, test: Callable[[Comparison], object], names: tuple[str, ...] = ()
) -> Callable[[Matrix], None]:
    """Return a check that :func:`each_cell` holds, with grad mode enabled."""
    return lambda matrix: each_cell(matrix, ops, test, names)


def module_row(matrix: Matrix, operation: str) -> dict[str, bool | int | str | None]:
    """Return what the module operation ``operation`` measured, or fail the claim."""
    row = matrix.get_module(operation)
    if row.properties is None:
        raise ClaimFalse(f"{operation} raised: {row.outcome}")
    return row.properties.as_dict()


# -- In-place changes and the backward pass -------------------------------------------------------

IN_PLACE_WRITES: dict[str, Callable[[torch.Tensor], object]] = {
    "add_": lambda t: t.add_(1),
    "mul_": lambda t: t.mul_(2),
    "copy_": lambda t: t.copy_(torch.zeros_like(t)),
    "fill_": lambda t: t.fill_(7.0),
    "zero_": lambda t: t.zero_(),
    "indexed assignment": lambda t: t.__setitem__(0, 5.0),
}
"""The in-place writes that claims about writing into a tensor cover."""

SAVED_TENSOR_HOOKS: dict[str, Hooks] = {
    "save_on_cpu": torch.autograd.graph.save_on_cpu,
    "saved_tensors_hooks": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
}
"""Saved-tensor hooks that keep the tensor itself, under which autograd does not check its version."""


def changed_saved_output(reach: Reach, hooks: Hooks = contextlib.nullcontext) -> torch.Tensor | RuntimeError:
    """Zero sigmoid's output, saved under ``hooks()``, through ``reach(output)``; a.grad or the error."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with hooks():
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
    """Return sigmoid's gradient at 1 and 2, from values no one changed."""
    s = torch.tensor([1.0, 2.0]).sigmoid()
    return s * (1 - s)


def silently_wrong(reach: Reach, name: str, hooks: Hooks = contextlib.nullcontext) -> None:
    """Fail unless changing sigmoid's saved output through ``reach`` gives a wrong gradient, no error."""
    outcome = changed_saved_output(reach, hooks)
    wrong = isinstance(outcome, torch.Tensor) and not torch.allclose(outcome, right_sigmoid_gradient())
    expect(wrong, f"a change through {name} gave {outcome}, not a silently wrong gradient")


def stops_backward(reach: Reach, name: str, words: str = "") -> None:
    """Fail unless changing sigmoid's saved output through ``reach`` raises an error that says ``words``."""
    outcome = changed_saved_output(reach)
    stopped = isinstance(outcome, RuntimeError) and words in str(outcome)
    expect(stopped, f"a change through {name} gave {outcome}")


def backward_error(make: Reach, hooks: Hooks = contextlib.nullcontext) -> str | None:
    """Change ``x`` through ``x.detach()`` after ``make(x)`` (under ``hooks()``); the backward error."""
    x = torch.randn(4, requires_grad=True)
    with hooks():
        y = make(x)
    x.detach().add_(1)
    try:
        backward(y.sum())
    except RuntimeError as error:
        return str(error)
    return None


def version_error_words(matrix: Matrix) -> None:
    """Check that the error of a saved value changed through detach() names the two versions."""
    stops_backward(lambda t: t.detach(), "detach()", "is at version 1; expected version 0")


def autograd_sees_detached_changes(matrix: Matrix) -> None:
    """Check that a change through detach() of a saved value stops the backward pass."""
    stops_backward(lambda t: t.detach(), "detach()", "modified by an inplace operation")


def hooks_skip_version_check(matrix: Matrix) -> None:
    """Check that a change through detach() goes unnoticed where saved-tensor hooks were on."""
    for name, hooks in SAVED_TENSOR_HOOKS.items():
        silently_wrong(lambda t: t.detach(), f"detach() under {name}", hooks)
        error = backward_error(torch.sin, hooks)
        expect(error is None, f"under {name} the change of x after sin was noticed: {error}")


def detach_fails_only_where_saved(matrix: Matrix) -> None:
    """Check that a change of x through detach() stops the backward pass only where x itself was saved."""
    report = measured(matrix, "detach", "leaf_requires_grad")
    expect(report.shares_storage and report.shares_version_counter, f"detach measured {report}")
    expect(backward_error(torch.sin) is not None, "the change of x after sin went through")
    hooks_skip_version_check(matrix)
    for name, make in (("x + 1", lambda x: x + 1), ("x.exp()", torch.exp)):
        error = backward_error(make)
        expect(error is None, f"the change of x after {name} stopped the backward pass: {error}")


def _has_counter(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` has a version counter, read from torch, not from the measurement."""
    try:
        tensor._version  # noqa: B018 - reading it is the test
    except RuntimeError:
        return False
    return True


def version_counter(matrix: Matrix) -> None:
    """Check what counts: in-place writes move the counter that detach() and views share; .data has its own.

    An inference tensor made under inference mode has no counter; ``x.detach()`` and ``x.data``
    of one, made outside inference mode, have one each.
    """
    for name, write in IN_PLACE_WRITES.items():
        x = torch.ones(3)
        before = x._version
        write(x)
        expect(x._version > before, f"{name} did not increase the counter")
    sharing = ("detach", "view", "slice", "T", "permute", "expand")
    each_cell(matrix, sharing, lambda r: r.shares_version_counter is not False)  # None: no counter to share
    each_cell(matrix, sharing, lambda r: r.shares_version_counter is True, ("leaf_requires_grad",))
    data_shares_memory_not_counter(matrix)
    autograd_sees_detached_changes(matrix)
    x = torch.ones(3)
    before = x._version
    x.data.add_(1)
    expect(x._version == before, "a write through x.data moved the counter of x")
    ordinary = torch.ones(3)
    with torch.inference_mode():
        made = {"a factory's result": torch.ones(3), "y * 2 of an ordinary y": ordinary * 2}
        base = torch.ones(3)
        made |= {"detach()": base.detach(), "a view": base[0:2], ".data": base.data, "clone()": base.clone()}
    for name, tensor in made.items():
        ok = tensor.is_inference() and not _has_counter(tensor)
        expect(ok, f"{name} under inference mode is not an inference tensor without a counter")
    aliases = {"x.detach()": base.detach(), "x.data": base.data}
    for name, alias in aliases.items():
        expect(alias.is_inference() and _has_counter(alias), f"{name} of an inference tensor has no counter")
    aliases["x.detach()"].add_(1)
    expect(aliases["x.detach()"]._version == 1, "add_ did not move the counter of x.detach()")
    expect(aliases["x.data"]._version == 0, "x.detach() and x.data of an inference tensor share a counter")
    for scenario in (s.name for s in scenarios()):
        source = built_source(scenario)
        expect(source.is_inference() or _has_counter(source), f"the x of {scenario} has no version counter")


# -- What the copies do ---------------------------------------------------------------------------


def clone_copies_and_records(matrix: Matrix) -> None:
    """Check new memory in every grad mode, and a record only where x requires grad and autograd records."""
    for grad_mode in GRAD_MODES:
        for scenario, report in each_measured(matrix, "clone", grad_mode=grad_mode):
            where = f"clone on {scenario} under {grad_mode}"
            expect(not report.shares_storage and bool(report.new_bytes), f"{where} copied nothing")
            recorded = built_source(scenario).requires_grad and grad_mode == "enabled"
            expected = "CloneBackward0" if recorded else None
            expect(report.grad_fn == expected, f"{where} has grad_fn {report.grad_fn}, not {expected}")


def clone_detach_records_first(matrix: Matrix) -> None:
    """Check that x.clone().detach() records a clone first, and x.detach().clone() records nothing."""
    x = torch.ones(3, requires_grad=True)
    recorded = x.clone()
    expect(recorded.grad_fn is not None, "x.clone() recorded nothing")
    expect(recorded.detach().grad_fn is None, "detach() kept the record")
    expect(x.detach().clone().grad_fn is None, "x.detach().clone() recorded something")


detach_copies_nothing = cells_check("detach", lambda r: r.new_bytes == 0 and not r.requires_grad)


def write_through_detached(matrix: Matrix) -> None:
    """Check that a write into x.detach() reaches x and counts once on the counter they share."""
    x = torch.zeros(3, requires_grad=True)
    d = x.detach()
    d[0] = 7.0
    expect(x[0].item() == 7.0, "the write into d did not reach x")
    expect((x._version, d._version) == (1, 1), f"the counters read {(x._version, d._version)}")


def data_shares_memory_not_counter(matrix: Matrix) -> None:
    """Check that x.data shares memory but not the counter, where detach() shares both."""
    each_cell(matrix, "data", lambda r: r.shares_storage and not r.shares_version_counter)
    report = measured(matrix, "detach", "leaf_requires_grad")
    expect(report.shares_storage and report.shares_version_counter, f"detach measured {report}")


def data_change_goes_unnoticed(matrix: Matrix) -> None:
    """Check that a change through x.data, which has no shared counter, gives a silently wrong gradient."""
    data_shares_memory_not_counter(matrix)
    silently_wrong(lambda t: t.data, ".data")


def deepcopy_plain_grad_and_attributes(matrix: Matrix) -> None:
    """Check that deepcopy of a plain tensor gives a new, equal .grad and copies attributes as values."""
    report = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(report.copies_grad and report.copies_attributes, f"deepcopy of a plain leaf measured {report}")
    for requires_grad in (True, False):
        x, grad = torch.ones(3, requires_grad=requires_grad), torch.full((3,), 2.0)
        x.grad = grad if requires_grad else None
        x.note, x.tags = "a string", ["a", "list"]  # type: ignore[attr-defined]
        y = copy.deepcopy(x)
        new = y.grad is not None and y.grad is not grad and torch.equal(y.grad, grad)
        expect(new or not requires_grad, f"the copied .grad is {y.grad}")
        expect(y.note is x.note, "the string attribute was duplicated")  # type: ignore[attr-defined]
        expect(y.tags == x.tags and y.tags is not x.tags, "the list attribute is not a new list")  # type: ignore[attr-defined]


def no_grad_product_is_a_copyable_leaf(matrix: Matrix) -> None:
    """Check that x * 2 is a leaf deepcopy copies under no_grad, and no leaf when recorded."""
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        w = x * 2
    expect(w.is_leaf and w.grad_fn is None and not w.requires_grad, f"the no_grad product is {w!r}")
    copied = copy.deepcopy(w)
    expect(copied.is_leaf and torch.equal(copied, w) and copied is not w, "deepcopy did not copy it")
    expect(not (x * 2).is_leaf, "the product recorded with grad mode on is a leaf")


both_orders_agree = cells_check(
    ("detach_clone", "clone_detach"),
    lambda r: r.is_leaf and not r.requires_grad and r.grad_fn is None and not r.shares_storage,
)
"""Check that x.detach().clone() and x.clone().detach() both give a new leaf, own memory, no history."""


def deepcopy_refuses_non_leaf(matrix: Matrix) -> None:
    """Check that deepcopy refuses the non-leaves and copies every everyday leaf."""
    for scenario in ("non_leaf", "zero_dim"):
        row = matrix.get("deepcopy", scenario)
        expect(
            row.error is not None and "leaves" in row.error.message, f"deepcopy of {scenario}: {row.outcome}"
        )
    # A Tensor subclass is refused for a reason of its own (the special-tensors page).
    for scenario in everyday_names():
        if built_source(scenario).is_leaf:
            expect(matrix.get("deepcopy", scenario).error is None, f"deepcopy raised on the leaf {scenario}")


def deepcopy_refuses_recorded(matrix: Matrix) -> None:
    """Check that deepcopy refuses a recorded x * 2 and copies the same product made under no_grad."""
    deepcopy_refuses_non_leaf(matrix)
    no_grad_product_is_a_copyable_leaf(matrix)
    recorded = torch.ones(3, requires_grad=True) * 2
    expect(recorded.grad_fn is not None, "x * 2 has no grad_fn")
    raises(lambda: copy.deepcopy(recorded), "leaves")


def parameter_deepcopy_drops(matrix: Matrix) -> None:
    """Check that deepcopy of a Parameter keeps its class and requires_grad, not .grad or attributes."""
    for scenario in ("parameter", "parameter_with_attribute"):
        report = measured(matrix, "deepcopy", scenario)
        ok = report.result_type == "Parameter" and report.requires_grad and report.copies_grad is False
        expect(ok, f"deepcopy on {scenario} measured {report}")
    expect(measured(matrix, "deepcopy", "parameter_with_attribute").copies_attributes is False, "kept them")
    plain = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(plain.copies_grad and plain.copies_attributes, f"a plain leaf's deepcopy measured {plain}")


class ScaledTensor(torch.nn.Module):
    """A module that keeps ``weight * 2`` from its last forward pass, as ``keep`` says.

    ``"attached"``: the recorded product; ``"detached copy"``: its detached copy, computing with
    the product itself; ``"computed detached"``: computes with ``self.weight.detach() * 2``.
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
    expect(fixed.weight.grad is not None and fixed.bias.grad is not None, "the fixed module did not train")
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


def tied_module(matrix: Matrix) -> None:
    """Check that deepcopy of a model copies each parameter and buffer once, keeping tied weights tied."""
    model = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
    model[1].weight = model[0].weight
    model.register_buffer("steps", torch.zeros(1))
    twin = copy.deepcopy(model)
    copied, original = twin[0].weight, model[0].weight
    assert isinstance(copied, torch.Tensor)
    assert isinstance(original, torch.Tensor)
    expect(twin[1].weight is copied, "the tie was lost")
    expect(copied is not original, "the copy holds the original parameter")
    expect(not shares_memory(copied, original), "the copy shares the original's memory")
    expect(
        not shares_memory(twin.get_buffer("steps"), model.get_buffer("steps")), "the buffer was not copied"
    )


def state_dict_references(matrix: Matrix) -> None:
    """Check that state_dict() gives detached tensors over the parameters' memory, which follow updates."""
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()
    expect(shares_memory(saved["weight"], model.weight) and not saved["weight"].requires_grad, "not detached")
    expect(type(saved["weight"]) is torch.Tensor, f"state_dict() returned a {type(saved['weight']).__name__}")
    best = copy.deepcopy(model.state_dict())
    with torch.no_grad():
        model.weight.add_(1.0)
    expect(torch.equal(saved["weight"], model.weight), "the saved tensor did not follow the update")
    expect(not torch.equal(best["weight"], model.weight), "the deep copy followed the update")


def optimizer_state_dict_references(matrix: Matrix) -> None:
    """Check that optimizer.state_dict() holds the live state tensors, and its deep copy does not."""
    live = module_row(matrix, "optimizer_state_dict")
    snap = module_row(matrix, "optimizer_state_dict_deepcopy")
    expect(bool(live["tensors"]) and live["same_tensors"] == live["tensors"], f"state_dict() measured {live}")
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


def numpy_round_trip_shares(matrix: Matrix) -> None:
    """Check that a NumPy round trip shares memory but no counter, on every everyday x, unnoticed."""
    each_cell(matrix, "numpy_roundtrip", lambda r: r.shares_storage and not r.shares_version_counter)
    for scenario in everyday_names():
        expect(matrix.get("numpy_roundtrip", scenario).properties is not None, f"not measured on {scenario}")
    outcome = changed_saved_output(lambda t: torch.from_numpy(t.detach().numpy()))
    expect(isinstance(outcome, torch.Tensor), f"a change through NumPy was noticed: {outcome}")


def float_returns_float32_x(matrix: Matrix) -> None:
    """Check that float() and type(float32) return x on float32 and new memory on other dtypes."""
    for op in ("float", "type_float32"):
        runs = each_measured(matrix, op)
        expect(runs, f"{op} ran nowhere")
        for scenario, report in runs:
            is_float32 = built_source(scenario).dtype == torch.float32
            expect(report.new_object != is_float32, f"{op} on {scenario}: {report}")
            expect(is_float32 or not report.shares_storage, f"{op} on {scenario} shares memory")


def in_place_through_float(matrix: Matrix) -> None:
    """Check that an in-place change to x.float() of a float32 x changes x."""
    x = torch.zeros(3)
    y = x.float()
    y += 1
    expect(y is x and torch.equal(x, torch.ones(3)), "the change through y did not reach x")


def detach_in_place_refuses_views(matrix: Matrix) -> None:
    """Check that, outside inference mode, detach_() refuses a view unless it is an inference tensor."""
    row = matrix.get("detach_", "strided_view")
    expect(row.error is not None and "views" in row.error.message, f"detach_ on a view: {row.outcome}")
    reshaped = torch.arange(6.0).reshape(2, 3)
    expect(reshaped._base is not None, "reshape of a new tensor is not a view")
    raises(reshaped.detach_, "Can't detach views in-place")
    expect(torch.tensor([[0.0, 1.0]]).detach_() is not None, "detach_ refused a tensor that owns its memory")
    with torch.no_grad():
        unrecorded = torch.arange(6.0).reshape(2, 3)
    raises(unrecorded.detach_, "Can't detach views in-place")
    plain = torch.zeros(4)
    with torch.inference_mode():  # inside, detach_() takes a view; reshape makes none
        inside = torch.arange(6.0).reshape(2, 3)
        expect(inside._base is None, "inside inference mode the reshape is a tracked view")
        inside.detach_()
        inference = torch.zeros(4)
        views = {"s[1:3] inside": inference[1:3], "reshape inside": torch.arange(6.0).reshape(2, 3)}
        of_plain = plain[1:3]  # a view of an ordinary tensor, made inside: no inference tensor
    views["s[1:3] outside"] = inference[1:3]
    for name, view in views.items():
        expect(view.is_inference(), f"the view {name} is not an inference tensor")
        expect(view.detach_() is view, f"detach_() outside inference mode did not return the view {name}")
    expect(inference[1:3].untyped_storage().data_ptr() == inference.untyped_storage().data_ptr(), "no view")
    expect(not of_plain.is_inference() and of_plain._base is plain, "the view of a plain tensor is untracked")
    raises(of_plain.detach_, "Can't detach views in-place")


def no_grad_counted_data_not(matrix: Matrix) -> None:
    """Check that a change under no_grad moves the counter, one through .data does not, and goes unnoticed."""
    p = torch.nn.Parameter(torch.ones(3))
    before = p._version
    with torch.no_grad():
        p.copy_(torch.zeros(3))
    expect(p._version == before + 1, "the change under no_grad was not counted")
    p.data.copy_(torch.ones(3))
    expect(p._version == before + 1, "the change through .data was counted")
    silently_wrong(lambda t: t.data, ".data")


# -- The look-alikes ------------------------------------------------------------------------------

ADVICE = ("sourceTensor.detach().clone()", "sourceTensor.clone().detach()")
"""The copy that the warning of ``torch.tensor(x)`` recommends, in each order it has named (2.7 swapped)."""


def like_detach_clone_with_a_warning(matrix: Matrix) -> None:
    """Check that torch.tensor(x) and x.new_tensor(x) give what x.detach().clone() gives, and warn so."""
    for op in ("torch_tensor", "new_tensor"):
        for scenario in everyday_names():
            row, reference = matrix.get(op, scenario), matrix.get("detach_clone", scenario)
            expect(
                row.properties == reference.properties, f"{op} on {scenario} differs from detach().clone()"
            )
            said = [w.message for w in row.warnings]
            expect(any(a in m for m in said for a in ADVICE), f"{op} on {scenario} warned {said}")


def as_tensor_returns_x(matrix: Matrix) -> None:
    """Check that torch.as_tensor(x) returns x itself, history and all."""
    for scenario, report in each_measured(matrix, "as_tensor"):
        # Where x has no history (requires no grad) the question does not apply (None).
        history = True if built_source(scenario).requires_grad else None
        expect(not report.new_object and report.gradient_flows_to_source is history, f"{scenario}: {report}")
    x = torch.ones(3)
    expect(torch.as_tensor(x) is x, "as_tensor(x) did not return x")


def copy_copy_new_window(matrix: Matrix) -> None:
    """Check that copy.copy gives a new object over the memory of x, with requires_grad, not the counter."""
    for scenario, report in each_measured(matrix, "copy"):
        ok = report.new_object and report.shares_storage and not report.shares_version_counter
        ok = ok and report.requires_grad == built_source(scenario).requires_grad
        expect(ok, f"copy.copy on {scenario} measured {report}")


def copy_copy_of_non_leaf(matrix: Matrix) -> None:
    """Check that copy.copy of a non-leaf is silently a new leaf whose gradients stop there."""
    report = measured(matrix, "copy", "non_leaf")
    ok = report.is_leaf and report.requires_grad and report.grad_fn is None
    expect(ok and not report.gradient_flows_to_source, f"copy.copy of a non-leaf measured {report}")
    a = torch.ones(3, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        c = copy.copy(a * 2)
        backward(c.sum())
    expect(not caught, f"it warned: {[str(w.message) for w in caught]}")
    expect(a.grad is None and c.grad is not None, f"a.grad is {a.grad}, c.grad is {c.grad}")
    expect(matrix.get("deepcopy", "non_leaf").error is not None, "deepcopy of the same tensor did not raise")


def slice_storage(matrix: Matrix) -> None:
    """Check that deepcopy of a plain slice copies its whole storage, and a clone only the slice."""
    big = torch.zeros(1000)
    part = big[:10]
    expect(part.untyped_storage().data_ptr() == big.untyped_storage().data_ptr(), "the slice has its own")
    deep, cloned = copy.deepcopy(part).untyped_storage().nbytes(), part.clone().untyped_storage().nbytes()
    expect((deep, cloned) == (4000, 40), f"deepcopy holds {deep} bytes, the clone {cloned}")
    conjugate = big.to(torch.complex64).conj()[:10]
    for name, own, size in (("Parameter", torch.nn.Parameter(part), 40), ("conjugate view", conjugate, 80)):
        held = copy.deepcopy(own).untyped_storage().nbytes()
        expect(held == size, f"the deepcopy of a {name} slice holds {held} bytes, not {size}")
    tracked = torch.zeros(1000, requires_grad=True)  # its slice is no leaf, and deepcopy refuses it
    raises(lambda: copy.deepcopy(tracked[:10]), "Only Tensors created explicitly by the user")


# -- Special tensors ------------------------------------------------------------------------------


def conjugate_bit(matrix: Matrix) -> None:
    """Check that conj() is a view that flips the conjugate bit, which views keep and copies resolve."""
    x = torch.tensor([1 + 2j, 3 - 1j])
    lazy = x.conj()
    expect(not x.is_conj() and lazy.is_conj(), "x.conj() does not set the bit")
    again = lazy.conj()  # "(or cleared, where x had it)"
    for name, view in (("x.conj()", lazy), ("x.conj().conj()", again)):
        ok = view._is_view() and shares_memory(x, view) and view.data_ptr() == x.data_ptr()
        expect(
            ok and view.is_conj() is (view is lazy), f"{name} is not a view of x's storage with the right bit"
        )
    each_cell(matrix, ("detach", "view", "slice"), lambda r: r.keeps_conj, ("conj",))
    # The words name x.view(-1) and slicing, not every view: x.real and x.imag are views without it.
    expect(not lazy.real.is_conj() and not lazy.imag.is_conj(), "x.real or x.imag kept the bit")
    each_cell(
        matrix, ("clone", "deepcopy"), lambda r: r.keeps_conj is False and not r.shares_storage, ("conj",)
    )
    resolved = lazy.resolve_conj()
    expect(
        not resolved.is_conj() and not shares_memory(resolved, x), "resolve_conj() kept the bit or x's memory"
    )
    expect(torch.equal(resolved, torch.tensor([1 - 2j, 3 + 1j])), f"resolve_conj() holds {resolved}")
    memory = torch.view_as_real(resolved)  # reads the memory itself, which it refuses while the bit is set
    expect(torch.equal(memory, torch.tensor([[1.0, -2.0], [3.0, 1.0]])), f"resolve_conj()'s memory: {memory}")


def module_deepcopy_drops_grads(matrix: Matrix) -> None:
    """Check that the deep copy of a layer with gradients has none (the GPU example's, checked on the CPU)."""
    layer = torch.nn.Linear(3, 1)
    backward(layer(torch.randn(2, 3)).sum())
    twin = copy.deepcopy(layer)
    expect(layer.weight.grad is not None and twin.weight.grad is None, "the copied layer has a gradient")
