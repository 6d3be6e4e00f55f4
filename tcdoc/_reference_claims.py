"""The claims of the complete reference: the look-alike families, the special tensors, module-level copies.

The sentences of the look-alikes page's later sections, of the situations they answer in the
which-copy guide, and of the examples that tell their stories (``plot_20`` to ``plot_22``),
each with the check that fails when it is false. The rules are those of :mod:`tcdoc._claims`;
``tcdoc._site_claims`` adds these to the site's claims.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable, Mapping

import torch

from tcdoc._claims import Claim, ClaimFalse, Every, Only, expect, measured
from tcdoc._compare import Comparison, shares_memory
from tcdoc._probe import Matrix
from tcdoc._registry import TaggedTensor, get_scenario, scenarios

__all__ = ["REFERENCE_CLAIMS"]


# -- Helpers ---------------------------------------------------------------------------------


def _raises(call: Callable[[], object], words: str = "") -> RuntimeError:
    """Run ``call``; return the RuntimeError it raised (whose message has ``words``), or fail."""
    try:
        call()
    except RuntimeError as exc:
        expect(words in str(exc), f"the error does not say {words!r}: {exc}")
        return exc
    raise ClaimFalse(f"{getattr(call, '__name__', 'the call')} did not raise")


def _source(scenario: str) -> torch.Tensor:
    return get_scenario(scenario).build(torch.device("cpu"))


def _everyday() -> tuple[str, ...]:
    return tuple(s.name for s in scenarios() if s.group == "everyday")


def _where_measured(matrix: Matrix, operation: str, names: tuple[str, ...]) -> list[tuple[str, Comparison]]:
    rows = [matrix.get(operation, name) for name in names]
    return [(row.scenario, row.properties) for row in rows if row.properties is not None]


def _module(matrix: Matrix, operation: str) -> Mapping[str, object]:
    row = matrix.get_module(operation)
    if row.properties is None:
        raise ClaimFalse(f"{operation} raised: {row.outcome}")
    return row.properties.as_dict()


def _backward(tensor: torch.Tensor) -> None:
    tensor.backward()  # type: ignore[no-untyped-call]


# -- Conversions that may return x itself ------------------------------------------------------


def _float_returns_float32_x(matrix: Matrix) -> None:
    for op in ("float", "type_float32"):
        seen = 0
        for scenario in (s.name for s in scenarios()):
            row = matrix.get(op, scenario)
            if row.properties is None:
                continue
            seen += 1
            is_float32 = _source(scenario).dtype == torch.float32
            expect(row.properties.new_object != is_float32, f"{op} on {scenario}: {row.properties}")
            if not is_float32:
                expect(not row.properties.shares_storage, f"{op} on {scenario} shares memory")
        expect(seen, f"{op} ran nowhere")


def _in_place_through_float(matrix: Matrix) -> None:
    x = torch.zeros(3)
    y = x.float()
    y += 1
    expect(y is x and torch.equal(x, torch.ones(3)), "the change through y did not reach x")


def _double_copies(matrix: Matrix) -> None:
    for op in ("double", "to_float64"):
        for scenario, report in _where_measured(matrix, op, _everyday()):
            expect(report.new_object and not report.shares_storage, f"{op} on {scenario}: {report}")
            expect(not report.same_dtype, f"{op} on {scenario} kept the dtype")


def _to_copy_float(matrix: Matrix) -> None:
    x = torch.zeros(3)
    y = x.to(torch.float32, copy=True)
    y += 1
    expect(y is not x and torch.equal(x, torch.zeros(3)), "x.to(torch.float32, copy=True) reached x")


# -- Indexing and views --------------------------------------------------------------------------


def _slice_shares_index_copies(matrix: Matrix) -> None:
    both = 0
    for scenario in _everyday():
        sliced, indexed = matrix.get("slice", scenario), matrix.get("index", scenario)
        if sliced.properties is None or indexed.properties is None:
            continue
        both += 1
        expect(sliced.properties.shares_storage and sliced.properties.new_bytes == 0, f"slice on {scenario}")
        expect(not indexed.properties.shares_storage, f"indexing shares memory on {scenario}")
        expect(bool(indexed.properties.new_bytes), f"indexing holds no new bytes on {scenario}")
    expect(both, "slicing and indexing ran together nowhere")


def _view_write_reaches_copy_does_not(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    row_view = x[0:1]
    row_copy = x[torch.tensor([1])]
    row_view += 1
    row_copy += 1
    expect(torch.equal(x[0], torch.ones(3)), "the write through the slice did not reach x")
    expect(torch.equal(x[1], torch.zeros(3)), "the write through the indexed copy reached x")


def _index_assignment_writes(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    x[torch.tensor([1])] = 5.0
    expect(torch.equal(x[1], torch.full((3,), 5.0)), "assignment through an index tensor did not write x")
    expect(torch.equal(x[0], torch.zeros(3)), "assignment wrote the wrong row")


def _transposes_are_views(matrix: Matrix) -> None:
    for op in ("T", "permute"):
        runs = _where_measured(matrix, op, _everyday())
        expect(runs, f"{op} ran nowhere")
        for scenario, report in runs:
            expect(report.shares_storage and report.new_bytes == 0, f"{op} on {scenario}: {report}")


def _expand_overlaps_and_refuses(matrix: Matrix) -> None:
    runs = _where_measured(matrix, "expand", _everyday())
    expect(runs, "expand ran nowhere")
    for scenario, report in runs:
        expect(report.overlaps_itself and report.shares_storage, f"expand on {scenario}: {report}")
    row = torch.arange(3.0)
    wide = row.expand(2, 3)
    expect(0 in wide.stride(), f"the strides are {wide.stride()}")
    _raises(lambda: wide.add_(1), "more than one element")


def _cat_and_stack_copy(matrix: Matrix) -> None:
    for op in ("cat", "stack"):
        runs = _where_measured(matrix, op, _everyday())
        expect(runs, f"{op} ran nowhere")
        for scenario, report in runs:
            expect(report.new_object and not report.shares_storage, f"{op} on {scenario}: {report}")


# -- In-place methods ----------------------------------------------------------------------------

IN_PLACE = ("detach_", "requires_grad_", "share_memory_")


def _in_place_return_x(matrix: Matrix) -> None:
    for op in IN_PLACE:
        runs = _where_measured(matrix, op, tuple(s.name for s in scenarios()))
        expect(runs, f"{op} ran nowhere")
        for scenario, report in runs:
            expect(not report.new_object, f"{op} on {scenario} returned a new object")
    x = torch.ones(2, requires_grad=True) * 2
    expect(x.detach_() is x and not x.requires_grad and x.is_leaf, "detach_() did not change x itself")
    shared = torch.zeros(2)
    moved = shared.share_memory_()  # type: ignore[no-untyped-call]
    expect(moved is shared and shared.is_shared(), "share_memory_() did not move x")


def _detach_in_place_is_x(matrix: Matrix) -> None:
    for scenario, report in _where_measured(matrix, "detach_", tuple(s.name for s in scenarios())):
        expect(not report.new_object and not report.requires_grad, f"detach_ on {scenario}: {report}")
    x = torch.ones(2, requires_grad=True) * 2
    y = x.detach_()
    expect(y is x and x.grad_fn is None, "x.detach_() did not cut x itself from the graph")


def _detach_works_on_views(matrix: Matrix) -> None:
    report = measured(matrix, "detach", "strided_view")
    expect(report.shares_storage, f"detach() of a view measured {report}")
    x = torch.arange(6.0).reshape(2, 3)
    x = x.detach()
    expect(x.grad_fn is None, "the detached view has history")


def _inference_has_no_counter(matrix: Matrix) -> None:
    with torch.inference_mode():
        x = torch.ones(2)
    _raises(lambda: x._version, "Inference tensors do not track version counter")
    for op in ("detach", "clone"):
        expect(measured(matrix, op, "inference").shares_version_counter is None, f"{op}: not n/a")


def _detach_in_place_refuses_views(matrix: Matrix) -> None:
    row = matrix.get("detach_", "strided_view")
    expect(row.error is not None and "views" in row.error.message, f"detach_ on a view: {row.outcome}")
    reshaped = torch.arange(6.0).reshape(2, 3)
    expect(reshaped._base is not None, "reshape of a new tensor is not a view")
    _raises(reshaped.detach_, "Can't detach views in-place")
    expect(torch.tensor([[0.0, 1.0]]).detach_() is not None, "detach_ refused a tensor that owns its memory")


# -- Module-level copies -------------------------------------------------------------------------


def _module_to_is_in_place(matrix: Matrix) -> None:
    to = _module(matrix, "module_to_float64")
    expect(to["new_object"] is False and to["changes_source"] is True, f"model.to(float64) measured {to}")
    expect(to["shares_storage"] != to["tensors"], "every tensor still shares the old memory")
    tensor = measured(matrix, "to_float64", "leaf_requires_grad")
    expect(tensor.new_object and not tensor.shares_storage, f"x.to(torch.float64) measured {tensor}")
    same = _module(matrix, "module_to_same_dtype")
    expect(same["new_object"] is False and same["changes_source"] is False, f"model.to(float32): {same}")


def _module_to_example(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    converted = model.to(torch.float64)
    expect(converted is model and model.weight.dtype == torch.float64, "model.to() made a new module")


def _keep_a_copy_first(matrix: Matrix) -> None:
    deep = _module(matrix, "module_deepcopy")
    ok = deep["new_object"] and deep["same_tensors"] == 0 and deep["shares_storage"] == 0
    expect(ok, f"copy.deepcopy(model) measured {deep}")
    expect(deep["changes_source"] is False, "the deep copy changed the model")


def _state_dict_kinds(matrix: Matrix) -> None:
    plain, kept = _module(matrix, "state_dict"), _module(matrix, "state_dict_keep_vars")
    n = plain["tensors"]
    expect(plain["same_tensors"] == 0 and plain["shares_storage"] == n, f"state_dict() measured {plain}")
    expect(plain["requires_grad"] == 0 and plain["with_grad"] == 0, f"state_dict() measured {plain}")
    expect(kept["same_tensors"] == n and kept["shares_storage"] == n, f"keep_vars=True measured {kept}")
    expect(bool(kept["with_grad"]), f"keep_vars=True measured {kept}")


def _optimizer_state_dict_references(matrix: Matrix) -> None:
    live, snap = _module(matrix, "optimizer_state_dict"), _module(matrix, "optimizer_state_dict_deepcopy")
    n = live["tensors"]
    expect(bool(n) and live["same_tensors"] == n, f"optimizer.state_dict() measured {live}")
    expect(snap["same_tensors"] == 0 and snap["shares_storage"] == 0, f"its deep copy measured {snap}")
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(2):
        _backward(model(torch.ones(1, 2)).sum())
        optimizer.step()
    saved = optimizer.state_dict()
    before = saved["state"][0]["exp_avg"].clone()
    _backward(model(torch.ones(1, 2)).sum())
    optimizer.step()
    expect(not torch.equal(saved["state"][0]["exp_avg"], before), "the saved state did not change")


def _module_deepcopy_starts_without_grad(matrix: Matrix) -> None:
    deep = _module(matrix, "module_deepcopy")
    expect(deep["with_grad"] == 0, f"the deep copy carries .grad: {deep}")


# -- Special tensors -----------------------------------------------------------------------------


def _inference_mark(matrix: Matrix) -> None:
    for op in ("detach", "data", "view", "slice"):
        expect(measured(matrix, op, "inference").keeps_inference, f"{op} dropped the inference mark")
    for op in ("clone", "detach_clone", "deepcopy"):
        expect(measured(matrix, op, "inference").keeps_inference is False, f"{op} kept the inference mark")


def _inference_in_place_error(matrix: Matrix) -> None:
    with torch.inference_mode():
        x = torch.ones(3)
    error = _raises(lambda: x.add_(1), "Inplace update to inference tensor outside InferenceMode")
    expect("make a clone" in str(error), f"the error does not suggest a clone: {error}")
    y = x.clone()
    y.add_(1)
    expect(not y.is_inference(), "the clone is an inference tensor")


def _inference_not_saved(matrix: Matrix) -> None:
    with torch.inference_mode():
        x = torch.ones(3)
    w = torch.ones(3, requires_grad=True)
    _raises(lambda: w * x, "Inference tensors cannot be saved for backward")
    _backward((w * x.clone()).sum())
    expect(w.grad is not None, "the clone did not let the gradient through")


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


def _hooks_not_carried(matrix: Matrix) -> None:
    for op in ("deepcopy", "copy", "save_load", "clone", "detach"):
        expect(measured(matrix, op, "hooked").keeps_hooks is False, f"{op} carried the hooks")
    calls: list[int] = []
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda grad: calls.append(1))  # type: ignore[no-untyped-call]
    _backward(x.clone().sum())
    expect(calls == [1], "the hook of x did not run for a gradient through the clone")
    twin = copy.deepcopy(x)
    _backward(twin.sum())
    expect(calls == [1], "a hook ran for the deep copy")


def _hooks_warning(matrix: Matrix) -> None:
    for op in ("copy", "save_load"):
        warned = matrix.get(op, "hooked").warnings
        expect(any("will not be serialized" in w.message for w in warned), f"{op} did not warn")
    expect(not matrix.get("deepcopy", "hooked").warnings, "deepcopy warned")


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


def _zero_dim_values(matrix: Matrix) -> None:
    expect(measured(matrix, "tolist", "zero_dim").result_type == "float", "tolist() of a 0-d tensor")
    for op in ("cat", "slice", "index"):
        expect(matrix.get(op, "zero_dim").error is not None, f"{op} did not raise on a 0-d tensor")
    expect(measured(matrix, "stack", "zero_dim").result_is_tensor, "stack() of a 0-d tensor failed")


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
    loaded = matrix.get("save_load", "subclass")
    expect(loaded.error is not None and "weights_only" in loaded.error.message, f"load: {loaded.outcome}")
    buffer = io.BytesIO()
    torch.save(torch.ones(2).as_subclass(TaggedTensor), buffer)
    buffer.seek(0)
    again = torch.load(buffer, weights_only=False)
    expect(type(again) is TaggedTensor, "weights_only=False did not load the subclass")


# -- Python values ---------------------------------------------------------------------------------


def _tolist_values(matrix: Matrix) -> None:
    for scenario in (s.name for s in scenarios()):
        row = matrix.get("tolist", scenario)
        if row.properties is None:
            continue
        report = row.properties
        expect(not report.result_is_tensor and not report.shares_storage, f"tolist on {scenario}: {report}")
        expect(
            report.result_type in ("list", "float", "int", "complex"), f"tolist gave a {report.result_type}"
        )


def _tensor_from_list(matrix: Matrix) -> None:
    for scenario, report in _where_measured(matrix, "tensor_from_list", _everyday()):
        ok = report.new_object and not report.shares_storage and report.is_leaf and not report.requires_grad
        expect(ok and report.grad_fn is None, f"torch.tensor(x.tolist()) on {scenario}: {report}")


def _is_x(report: Comparison) -> bool:
    return not report.new_object


LOOK_ALIKE_FAMILIES: list[Claim | Only | Every] = [
    Claim(
        "look-alikes.float-returns-x",
        "Where `x` already is float32, `x.float()` and `x.type(torch.float32)` return `x` itself; on any "
        "other dtype they return a new tensor in new memory",
        _float_returns_float32_x,
        scope="registry",
    ),
    Claim(
        "look-alikes.float-changed-original",
        "The in-place addition to `y` changed `x`, because `y` is `x`",
        _in_place_through_float,
    ),
    Claim(
        "look-alikes.double-copies",
        "`x.double()` and `x.to(torch.float64)` of a float32 tensor make a new float64 tensor in new memory",
        _double_copies,
        scope="stated: the everyday scenarios, all float32",
    ),
    Claim(
        "look-alikes.ask-for-a-copy",
        "To convert and be sure of a copy, say so: `x.to(torch.float32, copy=True)`",
        _to_copy_float,
    ),
    Claim(
        "look-alikes.slice-shares-index-copies",
        "On every everyday kind of `x`, basic slicing such as `x[0:1]` returns a view over the memory of "
        "`x`, while advanced indexing with an index tensor, `x[torch.tensor([0])]`, copies the chosen "
        "elements into new memory",
        _slice_shares_index_copies,
        scope="stated: the everyday scenarios",
    ),
    Claim(
        "look-alikes.view-write-reaches",
        "The write through the slice reached `x`; the write through the indexed copy did not",
        _view_write_reaches_copy_does_not,
    ),
    Claim(
        "look-alikes.index-assignment-writes",
        "Assigning through an index, `x[index] = value`, does write into `x`: indexing copies when it reads, "
        "not when it assigns",
        _index_assignment_writes,
    ),
    Claim(
        "look-alikes.transposes-are-views",
        "`x.T` and `x.permute(...)` are views too: new strides over the same bytes",
        _transposes_are_views,
        scope="stated: the everyday scenarios",
    ),
    Claim(
        "look-alikes.expand-refuses-writes",
        "`x.expand(...)` is a view whose new dimension has stride 0: its elements overlap, and torch "
        "refuses to write into it in place",
        _expand_overlaps_and_refuses,
        scope="stated: the everyday scenarios",
    ),
    Claim(
        "look-alikes.cat-stack-copy",
        "`torch.cat([x])` and `torch.stack([x])` copy, even when the list holds `x` alone",
        _cat_and_stack_copy,
        scope="stated: the everyday scenarios",
    ),
    Claim(
        "look-alikes.in-place-return-x",
        "`x.detach_()`, `x.requires_grad_()` and `x.share_memory_()` change `x` itself and return it, so "
        "the name you bind the result to is one more name for `x`",
        _in_place_return_x,
        scope="registry",
    ),
    Claim(
        "look-alikes.detach-in-place-is-x",
        "`y = x.detach_()` is therefore no copy and no detached twin of `x`: it is `x`, now cut from the "
        "graph",
        _detach_in_place_is_x,
        scope="registry",
    ),
    Claim(
        "look-alikes.detach-in-place-refuses-views",
        "`x.detach_()` refuses a view, and `torch.arange(6.0).reshape(2, 3)` is a view of the tensor "
        "`arange` made",
        _detach_in_place_refuses_views,
    ),
    Claim(
        "look-alikes.detach-works-on-views",
        "Write `x = x.detach()` instead: it rebinds the name, and works on views",
        _detach_works_on_views,
    ),
    Claim(
        "look-alikes.module-to-in-place",
        "`model.to(torch.float64)` converts the model in place and returns the model itself, where "
        "`x.to(torch.float64)` returns a new tensor and leaves `x` as it was",
        _module_to_is_in_place,
    ),
    Claim(
        "look-alikes.module-to-example",
        "`converted` is `model`, and the model's own weight is now float64",
        _module_to_example,
    ),
    Claim(
        "look-alikes.keep-a-copy-first",
        "To keep the float32 model, copy it first: `copy.deepcopy(model)` shares no tensor and no memory "
        "with it",
        _keep_a_copy_first,
    ),
    Claim(
        "look-alikes.state-dict-kinds",
        "`model.state_dict()` gives detached tensors over the model's memory; with `keep_vars=True` it gives "
        "the parameters themselves, `.grad` and all",
        _state_dict_kinds,
    ),
    Claim(
        "look-alikes.optimizer-state-references",
        "`optimizer.state_dict()` holds the optimizer's own state tensors, so a saved one keeps changing "
        "with every step; `copy.deepcopy(optimizer.state_dict())` is a snapshot",
        _optimizer_state_dict_references,
    ),
    Claim(
        "look-alikes.module-deepcopy-no-grad",
        "A deep copy of the model starts without the `.grad` of its parameters",
        _module_deepcopy_starts_without_grad,
    ),
    Claim(
        "look-alikes.inference-no-counter",
        "An inference tensor has no version counter, so whether a copy shares it does not apply (n/a)",
        _inference_has_no_counter,
    ),
    Claim(
        "look-alikes.inference-mark",
        "`detach()`, `x.data` and views keep the inference mark; `clone()`, `x.detach().clone()` and "
        "`copy.deepcopy` drop it and give an ordinary tensor",
        _inference_mark,
    ),
    Claim(
        "look-alikes.inference-in-place",
        "Outside inference mode, torch refuses to change an inference tensor in place, and its error "
        "suggests exactly the fix: a clone",
        _inference_in_place_error,
    ),
    Claim(
        "look-alikes.inference-not-saved",
        "Nor can an inference tensor take part in a computation that autograd records: torch refuses to "
        "save it for the backward pass, and a clone of it is accepted",
        _inference_not_saved,
    ),
    Claim(
        "look-alikes.conj-lazy",
        "`x.conj()` of a complex tensor copies nothing: it sets the conjugate bit on a view; `detach()` and "
        "views keep the bit, while `clone()` and `copy.deepcopy` resolve it into new memory",
        _conj_lazy,
    ),
    Claim(
        "look-alikes.expanded-materialised",
        "`clone()` and `contiguous()` of an expanded tensor write every element out into new memory, which "
        "can be written in place; `detach()` keeps the overlap",
        _expanded_materialised,
    ),
    Claim(
        "look-alikes.hooks-not-carried",
        "No copy carries the hooks of `x`; a clone keeps the path back to `x`, so the hook of `x` still "
        "runs for a gradient that flows through the clone, but one that reaches a deep copy runs no hook",
        _hooks_not_carried,
        scope="stated: the copies measured on the hooked scenario",
    ),
    Claim(
        "look-alikes.hooks-warning",
        "`copy.copy(x)` and `torch.save` warn that the hook will not be serialized; `copy.deepcopy` drops "
        "it without a word",
        _hooks_warning,
    ),
    Claim(
        "look-alikes.integer-refuses-grad",
        "An integer tensor refuses to require gradients, so `x.requires_grad_()` and `nn.Parameter(x)` "
        "raise; `x.float()` of it is a new tensor",
        _integer_refuses_grad,
    ),
    Claim(
        "look-alikes.sparse-memory",
        "A sparse tensor has no strides to give a view, so `view`, `reshape` and `expand` raise on it; "
        "`detach()` shares its index and value tensors and `clone()` copies them",
        _sparse_memory,
    ),
    Claim(
        "look-alikes.zero-dim",
        "A zero-dimensional tensor has nothing to slice, index or concatenate, so those raise, and its "
        "`tolist()` is a plain Python number",
        _zero_dim_values,
    ),
    Claim(
        "look-alikes.subclass-kept-or-lost",
        "`clone()`, `detach()` and slicing keep a subclass; `torch.tensor(x)`, `torch.tensor(x.tolist())` "
        "and a NumPy round trip give a plain `Tensor`",
        _subclass_kept_or_lost,
    ),
    Claim(
        "look-alikes.subclass-deepcopy-load",
        "`copy.deepcopy(x)` raises for a subclass that does not define how to make an empty one of itself, "
        "and `torch.load` refuses it unless you trust the file and pass `weights_only=False`",
        _subclass_deepcopy_and_load,
    ),
    Claim(
        "look-alikes.tolist",
        "`x.tolist()` returns Python numbers, in nested lists: not a tensor, so it shares no memory with `x` "
        "and the questions only a tensor can answer are n/a",
        _tolist_values,
        scope="registry",
    ),
    Claim(
        "look-alikes.tensor-from-list",
        "`torch.tensor(x.tolist())` builds a new leaf from those numbers, with no history and no link to `x`",
        _tensor_from_list,
        scope="stated: the everyday scenarios",
    ),
    Only(
        "look-alikes.conversions-that-return-x",
        "Of {among}, on {scenarios}, only {ops} return `x` itself",
        ops=("to_same_dtype", "float", "type_float32", "cpu", "contiguous", "as_tensor"),
        test=_is_x,
        among=(
            "to_same_dtype",
            "to_float64",
            "to_copy",
            "float",
            "double",
            "type_float32",
            "cpu",
            "contiguous",
            "as_tensor",
            "clone",
        ),
        scenarios=("no_grad",),
    ),
]


def _float_is_x_no_copy(matrix: Matrix) -> None:
    _float_returns_float32_x(matrix)
    _in_place_through_float(matrix)
    report = measured(matrix, "to_same_dtype", "no_grad")
    expect(not report.new_object, f"x.to(x.dtype) measured {report}")


def _inference_copies(matrix: Matrix) -> None:
    _inference_mark(matrix)
    _inference_not_saved(matrix)
    row = matrix.get("requires_grad_", "inference")
    expect(row.error is not None, f"requires_grad_() of an inference tensor: {row.outcome}")
    with torch.inference_mode():
        x = torch.ones(2)
    _raises(lambda: x.detach().requires_grad_(), "inference tensor")


def _selection_reads_copy(matrix: Matrix) -> None:
    _slice_shares_index_copies(matrix)
    _index_assignment_writes(matrix)
    x = torch.arange(6.0).reshape(2, 3)
    for chosen in (x[[0]], x[x > 2], x[torch.tensor([0])]):
        expect(not shares_memory(x, chosen), "a selection by list, mask or tensor shares memory")


def _kept_selection_is_separate(matrix: Matrix) -> None:
    x = torch.zeros(4)
    y = x[x == 0]
    y += 1
    expect(torch.equal(x, torch.zeros(4)), "writing into the kept selection changed x")


def _expanded_write(matrix: Matrix) -> None:
    _expand_overlaps_and_refuses(matrix)
    row = torch.zeros(3)
    wide = row.expand(2, 3)
    row[0] = 1.0
    expect(torch.equal(wide[:, 0], torch.ones(2)), "a write into x did not show in every row")
    copied = row.expand(2, 3).clone()
    copied[0, 0] = 5.0
    expect(copied[1, 0].item() == 1.0, "the clone's rows are not separate")


def _detach_copies_nothing(matrix: Matrix) -> None:
    for scenario, report in _where_measured(matrix, "detach", tuple(s.name for s in scenarios())):
        expect(report.new_bytes == 0 and report.shares_storage, f"detach on {scenario}: {report}")


def _module_parameters_converted(matrix: Matrix) -> None:
    _module_to_is_in_place(matrix)
    model = torch.nn.Linear(2, 1)
    weight = model.weight
    converted = model.to(torch.float64)
    expect(converted is model and model.weight is weight, "model.to() replaced the Parameter")
    expect(weight.dtype == torch.float64, "the Parameter object still holds float32 values")


def _hooks_lost(matrix: Matrix) -> None:
    _hooks_not_carried(matrix)
    _hooks_warning(matrix)


def _tolist_plain_data(matrix: Matrix) -> None:
    _tolist_values(matrix)
    _zero_dim_values(matrix)
    expect(measured(matrix, "tolist", "leaf_requires_grad").result_type == "list", "tolist() is no list")


def _tensor_from_list_like_detach_clone(matrix: Matrix) -> None:
    _tensor_from_list(matrix)
    x = torch.tensor([[1.5, 2.0]], requires_grad=True)
    expect(torch.equal(torch.tensor(x.tolist()), x.detach().clone()), "the values differ")


WHICH_COPY_SITUATIONS: list[Claim | Only | Every] = [
    Claim(
        "which-copy.float-is-x",
        "`x.float()` of a float32 tensor is `x` itself, so an in-place change to the result is a change to "
        "`x`",
        _float_is_x_no_copy,
    ),
    Claim(
        "which-copy.float-look-alikes",
        "`x.float()`, `x.type(torch.float32)` and `x.to(x.dtype)`, each of which returns `x` when there is "
        "nothing to convert",
        _float_is_x_no_copy,
    ),
    Claim(
        "which-copy.inference-clone",
        "`x.detach()` and views of an inference tensor are inference tensors too, which cannot require "
        "gradients or be saved for a backward pass; `x.clone()` is an ordinary tensor",
        _inference_copies,
    ),
    Claim(
        "which-copy.inference-detach",
        "`x.detach().requires_grad_()`, which raises, since the detached tensor is still an inference tensor",
        _inference_copies,
    ),
    Claim(
        "which-copy.selection-reads-copy",
        "Basic slicing returns a view of `x`; indexing with a tensor, a list or a mask returns a copy, while "
        "assigning through the same index writes into `x`",
        _selection_reads_copy,
    ),
    Claim(
        "which-copy.kept-selection",
        "keeping `y = x[mask]` and writing into `y`, which leaves `x` as it was",
        _kept_selection_is_separate,
    ),
    Claim(
        "which-copy.expanded-write",
        "An expanded tensor repeats its elements with a stride of 0: torch refuses to write into it in "
        "place, a write into `x` shows in every row, and `clone()` gives each element memory of its own",
        _expanded_write,
    ),
    Claim(
        "which-copy.detach-in-place-views",
        "`x.detach_()` changes `x` itself and refuses a view, such as `torch.arange(6.0).reshape(2, 3)`",
        _detach_in_place_refuses_views,
    ),
    Claim(
        "which-copy.detach-is-free",
        "`detach_()` to save memory, when `x.detach()` copies nothing either",
        _detach_copies_nothing,
        scope="registry",
    ),
    Claim(
        "which-copy.module-to-in-place",
        "`model.to(torch.float64)` returns the same model, whose parameters are the same `Parameter` "
        "objects, now holding float64 values",
        _module_parameters_converted,
    ),
    Claim(
        "which-copy.model64",
        "`model64 = model.to(torch.float64)`, expecting `model` to stay float32 as `x` does after "
        "`x.to(torch.float64)`",
        _module_to_is_in_place,
    ),
    Claim(
        "which-copy.optimizer-state",
        "`optimizer.state_dict()` holds the optimizer's live state tensors, which every step changes in "
        "place",
        _optimizer_state_dict_references,
    ),
    Claim(
        "which-copy.hooks-lost",
        "No copy of a tensor carries the hooks registered on it: `copy.deepcopy` drops them without a "
        "word, `copy.copy` and `torch.save` with a warning",
        _hooks_lost,
    ),
    Claim(
        "which-copy.tolist-plain",
        "The result is plain Python data, with no memory of `x` and no autograd history; for a "
        "zero-dimensional tensor it is one number, not a list",
        _tolist_plain_data,
    ),
    Claim(
        "which-copy.tensor-from-list",
        "`torch.tensor(x.tolist())` as a copy: it gives the values of `x.detach().clone()`, by way of "
        "Python numbers",
        _tensor_from_list_like_detach_clone,
    ),
]


def _quoted(
    example: str, claim_id: str, text: str, check: Callable[[Matrix], None], scope: str = ""
) -> Claim:
    """Make a claim that ``example`` quotes word for word; its id is the example's name, then ``claim_id``."""
    return Claim(f"{example.removesuffix('.py')}.{claim_id}", text, check, scope, quoted_in=(example,))


def _extractor_features() -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    """Return a linear 'extractor', its inputs, and its output computed under inference mode."""
    extractor = torch.nn.Linear(4, 3)
    inputs = torch.ones(8, 4)
    with torch.inference_mode():
        features = extractor(inputs)
    return extractor, inputs, features


def _inference_records_nothing(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    expect(features.grad_fn is None and not features.requires_grad, "autograd recorded the extractor")
    expect(features.is_inference(), "the output is no inference tensor")
    expect(measured(matrix, "detach", "inference").keeps_inference, "detach() dropped the mark")


def _head_on_inference_features_stops(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    head = torch.nn.Linear(3, 1)
    _raises(lambda: head(features), "Inference tensors cannot be saved for backward")


def _head_on_detached_features_stops(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    detached = features.detach()
    expect(detached.is_inference() and shares_memory(features, detached), "detach() is no inference view")
    report = measured(matrix, "detach", "inference")
    expect(report.new_bytes == 0 and report.keeps_inference, f"detach() on inference: {report}")
    _raises(lambda: torch.nn.Linear(3, 1)(detached), "Inference tensors cannot be saved for backward")


def _head_trains_on_clone(matrix: Matrix) -> None:
    _, _, features = _extractor_features()
    usable = features.clone()
    expect(not usable.is_inference() and not shares_memory(features, usable), "the clone is no ordinary copy")
    head = torch.nn.Linear(3, 1)
    _backward(head(usable).sum())
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
    _backward(torch.nn.Linear(3, 1)(plain).sum())
    with torch.inference_mode():
        features = extractor(inputs)
    message = str(_raises(lambda: torch.nn.Linear(3, 1)(features)))
    expect("torch.no_grad()" in message, f"the error does not offer no_grad: {message}")


def _slice_scales_batch(matrix: Matrix) -> None:
    for op in ("slice",):
        for scenario, report in _where_measured(matrix, op, _everyday()):
            expect(report.shares_storage, f"{op} on {scenario} copied")
    batch = torch.arange(12.0).reshape(4, 3)
    expect(shares_memory(batch, batch[1]) and batch[1]._is_view(), "integer indexing is no view")
    first_two = batch[0:2]
    first_two *= 10
    expect(batch[0, 1].item() == 10.0 and batch[2, 0].item() == 6.0, "the scaling did not reach batch")


def _selection_copies_and_leaves_batch(matrix: Matrix) -> None:
    batch = torch.arange(12.0).reshape(4, 3)
    chosen, large = batch[torch.tensor([1, 3])], batch[batch > 5]
    chosen *= 10
    large *= 0
    ok = not shares_memory(batch, chosen) and not shares_memory(batch, large)
    expect(ok and torch.equal(batch, torch.arange(12.0).reshape(4, 3)), "a selection reached batch")


def _augmented_assignment_writes_back(matrix: Matrix) -> None:
    batch = torch.zeros(4)
    batch[batch == 0] += 1
    expect(torch.equal(batch, torch.ones(4)), "batch[mask] += 1 did not write into batch")


def _expand_repeats_without_copying(matrix: Matrix) -> None:
    row = torch.tensor([1.0, 2.0, 3.0])
    repeated = row.expand(4, 3)
    ok = repeated.stride()[0] == 0 and repeated.untyped_storage().nbytes() == row.untyped_storage().nbytes()
    expect(ok, "expand() copied, or the new dimension's stride is not 0")
    _raises(lambda: repeated.add_(1), "more than one element")


def _drawn_selections(matrix: Matrix) -> None:
    sliced, indexed = measured(matrix, "slice", "no_grad"), measured(matrix, "index", "no_grad")
    expanded = measured(matrix, "expand", "no_grad")
    expect(sliced.shares_storage and sliced.new_bytes == 0, f"slice measured {sliced}")
    expect(not indexed.shares_storage and bool(indexed.new_bytes), f"index measured {indexed}")
    expect(expanded.shares_storage and bool(expanded.overlaps_itself), f"expand measured {expanded}")


def _weight_and_alias(matrix: Matrix) -> tuple[torch.Tensor, torch.Tensor, torch.nn.Linear, torch.nn.Module]:
    """Return a layer's weight, an alias of its float32 memory, the layer and what ``to(float64)`` gave."""
    layer = torch.nn.Linear(3, 4)
    weight = layer.weight
    alias = weight.detach()
    converted = layer.to(torch.float64)
    return weight, alias, layer, converted


def _tensor_to_is_new(matrix: Matrix) -> None:
    for scenario, report in _where_measured(matrix, "to_float64", _everyday()):
        expect(report.new_object and not report.shares_storage, f"to(float64) on {scenario}: {report}")
    x = torch.ones(2)
    x.to(torch.float64)
    expect(x.dtype == torch.float32, "x changed dtype")


def _module_weight_converted_in_place(matrix: Matrix) -> None:
    weight, alias, model, converted = _weight_and_alias(matrix)
    expect(converted is model and model.weight is weight, "the model or its Parameter was replaced")
    expect(weight.dtype == torch.float64 and not shares_memory(alias, weight), "the weight was not converted")
    expect(alias.dtype == torch.float32, "the alias is not float32")
    expect(weight.untyped_storage().nbytes() == 2 * alias.untyped_storage().nbytes(), "not twice the bytes")


def _optimizer_not_converted(matrix: Matrix) -> None:
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.Adam(model.parameters())
    _backward(model(torch.ones(2, 3)).sum())
    optimizer.step()
    model.to(torch.float64)
    optimizer.zero_grad()
    expect(optimizer.param_groups[0]["params"][0] is model.weight, "the optimizer lost the Parameter")
    expect(optimizer.state[model.weight]["exp_avg"].dtype == torch.float32, "the state was converted")
    _backward(model(torch.ones(2, 3, dtype=torch.float64)).sum())
    _raises(optimizer.step)
    optimizer.load_state_dict(optimizer.state_dict())
    expect(optimizer.state[model.weight]["exp_avg"].dtype == torch.float64, "loading did not convert it")
    optimizer.step()


def _deepcopy_before_converting(matrix: Matrix) -> None:
    _keep_a_copy_first(matrix)
    model = torch.nn.Linear(3, 1)
    original = copy.deepcopy(model)
    model.to(torch.float64)
    expect(original.weight.dtype == torch.float32, "the copy was converted too")


EXAMPLE_STORIES: list[Claim | Only | Every] = [
    _quoted(
        "plot_20_inference_mode.py",
        "records-nothing",
        "Running a frozen network under {py:class}`torch.inference_mode` computes features without autograd "
        "recording anything. The tensors it returns are *inference tensors*, and they carry that mark with "
        "them",
        _inference_records_nothing,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "first-step-stops",
        "Train a small model on top of such features and the first step stops with an error",
        _head_on_inference_features_stops,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "in-place",
        "Outside inference mode, torch refuses to change an inference tensor in place, and its error "
        "suggests exactly the fix: a clone",
        _inference_in_place_error,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "not-saved",
        "Its first forward pass already stops: the layer's weight requires gradients, so autograd would have "
        "to keep the features for the backward pass, and torch refuses to save an inference tensor for it",
        _head_on_inference_features_stops,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "detach-keeps-mark",
        '`detach()` is the usual answer to "keep this tensor out of autograd", and it copies nothing. But '
        "the detached tensor is still an inference tensor: it keeps the mark, and the same forward pass "
        "stops in the same way",
        _head_on_detached_features_stops,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "clone-trains",
        "A clone made outside inference mode is an ordinary tensor with memory of its own, and the head "
        "trains on it",
        _head_trains_on_clone,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "drawn",
        "the detached tensor reads the same bytes and is still marked `is_inference=True`; the clone has its "
        "own storage and no mark",
        _drawn_inference_copies,
    ),
    _quoted(
        "plot_20_inference_mode.py",
        "no-grad",
        "The error message offers a second fix: {py:class}`torch.no_grad` also keeps autograd from recording "
        "the extractor, and its results are ordinary tensors, so no copy is needed",
        _no_grad_features_are_ordinary,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "one-case-or-other",
        "Code that changes a selection in place (to augment a few samples, to zero out a few values) works "
        "on the batch in one case and on a copy in the other",
        _selection_reads_copy,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "slice-is-view",
        "Basic slicing, with integers and ranges, returns a view: a new tensor over the memory of `batch`. "
        "Scaling the first two rows through the slice scales them in `batch`",
        _slice_scales_batch,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "index-copies",
        "Advanced indexing, with a tensor of indices or a boolean mask, copies the chosen elements into new "
        "memory. Scaling the selection leaves `batch` as it was",
        _selection_copies_and_leaves_batch,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "assignment-writes",
        "The same brackets on the left of `=` do write into `batch`: indexing copies when it reads, not when "
        "it assigns",
        _index_assignment_writes,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "augmented-assignment",
        "So does an augmented assignment on the selection itself, `batch[index] += 1`: Python reads the "
        "selection, adds to it, and assigns the sum back through the same index",
        _augmented_assignment_writes_back,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "expand",
        "`expand` repeats a tensor without copying it: the new dimension has stride 0, so every row of the "
        "result is the same memory. Torch refuses to write into it in place",
        _expand_repeats_without_copying,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "expand-clone",
        "A write into `row` shows in every row of `repeated`; a clone gives each row memory of its own, "
        "which can be written",
        _expanded_write,
    ),
    _quoted(
        "plot_21_indexing_views.py",
        "drawn",
        "the slice reads part of the storage of `x`, the indexed row has a storage of its own, and the "
        "expanded tensor reads the same bytes twice",
        _drawn_selections,
    ),
    _quoted(
        "plot_22_module_to.py",
        "tensor-to",
        "`x.to(torch.float64)` gives a new tensor and leaves `x` alone",
        _tensor_to_is_new,
    ),
    _quoted(
        "plot_22_module_to.py",
        "module-to",
        "{py:meth}`torch.nn.Module.to` converts the model in place and returns it",
        _module_weight_converted_in_place,
    ),
    _quoted(
        "plot_22_module_to.py",
        "tensor-keeps-dtype",
        "For a tensor, `to()` with another dtype returns a new tensor in new memory, and the tensor it was "
        "called on keeps its dtype",
        _tensor_to_is_new,
    ),
    _quoted(
        "plot_22_module_to.py",
        "same-parameter",
        "`model64` is `model`, and the first weight is the very `Parameter` object it was, now holding "
        "float64 values in new memory. The float32 values are no longer in the model: they live on only in "
        "the alias we kept",
        _module_weight_converted_in_place,
        scope="stated: the model of the example, whose tensors are all float32 parameters",
    ),
    _quoted(
        "plot_22_module_to.py",
        "two-storages",
        "They are two storages, and the new one holds twice the bytes",
        _module_weight_converted_in_place,
    ),
    _quoted(
        "plot_22_module_to.py",
        "optimizer",
        "The optimizer holds the same `Parameter` objects, so it would update the converted weights. Its "
        "state, though, is still float32, and the next step raises",
        _optimizer_not_converted,
    ),
    _quoted(
        "plot_22_module_to.py",
        "load-state-dict",
        "Loading the optimizer's own state dict back converts its state to the dtype of each parameter, and "
        "training goes on in float64",
        _optimizer_not_converted,
    ),
    _quoted(
        "plot_22_module_to.py",
        "copy-first",
        "The deep copy shares no tensor and no memory with the model, so converting the model leaves the "
        "copy float32",
        _deepcopy_before_converting,
    ),
]

REFERENCE_CLAIMS: list[Claim | Only | Every] = [
    *LOOK_ALIKE_FAMILIES,
    *WHICH_COPY_SITUATIONS,
    *EXAMPLE_STORIES,
]
"""The claims of the reference's pages and examples, in the order they appear."""
