"""tcdoc.probe, the registry and the matrix: every reported fact checked another way."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import re
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch

import tcdoc
from tcdoc._names import TENSOR_ONLY
from tcdoc._probe import _plain

# The grad modes, written here as torch spells them (not read from tcdoc).
MODES: dict[str, Callable[[], contextlib.AbstractContextManager[object]]] = {
    "enabled": torch.enable_grad,
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
}
CELLS = [(op.name, sc.name) for op in tcdoc.operations() for sc in tcdoc.scenarios()]
MODE_CELLS = [(op, sc, mode) for op, sc in CELLS for mode in MODES]


def fresh_result(operation: str, scenario: str, grad_mode: str = "enabled") -> tuple[torch.Tensor, object]:
    source = tcdoc.get_scenario(scenario).build(torch.device("cpu"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # probe records them; test_probe_records_warnings checks
        with MODES[grad_mode]():
            return source, tcdoc.get_operation(operation).apply(source)


def storages(tensor: torch.Tensor) -> dict[int, int]:
    """Each storage behind ``tensor`` (a sparse tensor's index and value tensors): address to size."""
    parts = [tensor] if tensor.layout == torch.strided else [tensor._indices(), tensor._values()]
    return {p.untyped_storage().data_ptr(): p.untyped_storage().nbytes() for p in parts}


def fresh_result_and_storages(
    operation: str, scenario: str, grad_mode: str = "enabled"
) -> tuple[torch.Tensor, object, dict[int, int]]:
    """A fresh pair, with the storages of the source as they were before the operation ran."""
    source = tcdoc.get_scenario(scenario).build(torch.device("cpu"))
    old = storages(source)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with MODES[grad_mode]():
            return source, tcdoc.get_operation(operation).apply(source), old


# Each in-place write of the write fields, written here again, as a reader would.
WRITES = {
    "writes_add": lambda y: y.add_(1),
    "writes_mul": lambda y: y.mul_(2),
    "writes_copy": lambda y: y.copy_(y.detach() * 2),
    "writes_fill": lambda y: y.fill_(7),
    "writes_zero": lambda y: y.zero_(),
    "writes_index": lambda y: y.__setitem__((0,) * y.dim(), 100),
}


def write_outcome(operation: str, scenario: str, field: str, grad_mode: str = "enabled") -> str:
    """Write into a fresh result as ordinary code does; say whether torch refused, and what changed."""
    source, result, _ = fresh_result_and_storages(operation, scenario, grad_mode)
    assert isinstance(result, torch.Tensor)
    before, before_result = values_of(source), values_of(result)
    try:
        WRITES[field](result)
    except (RuntimeError, NotImplementedError, TypeError, IndexError):
        if not torch.equal(values_of(source), before):
            return "y and x, raised"
        return "refused" if torch.equal(values_of(result), before_result) else "y only, raised"
    return "y only" if torch.equal(values_of(source), before) else "y and x"


def writable(tensor: torch.Tensor) -> torch.Tensor:
    """An alias of ``tensor``'s memory that an in-place operation may write: each byte once.

    A sparse tensor's values; a stride-0 dimension (expand) narrowed to one element.
    """
    target = tensor.detach()
    if target.layout != torch.strided:
        return target._values()
    for dim, stride in enumerate(target.stride()):
        if stride == 0:
            target = target.narrow(dim, 0, 1)
    return target


def values_of(tensor: torch.Tensor) -> torch.Tensor:
    """A dense, separate copy of ``tensor``'s values (inference tensors included)."""
    with torch.inference_mode():
        dense = tensor.detach().to_dense() if tensor.layout != torch.strided else tensor.detach()
        return dense.resolve_conj().clone()


def write_through(tensor: torch.Tensor) -> None:
    """Change every value ``tensor`` shows, in place (inference mode lets inference tensors be written)."""
    with torch.inference_mode():
        writable(tensor).fill_(-1)


def has_version_counter(tensor: torch.Tensor) -> bool:
    try:
        tensor._version  # noqa: B018 - reading it is the test
    except RuntimeError:
        return False
    return True


@pytest.mark.parametrize(("operation", "scenario", "grad_mode"), MODE_CELLS)
def test_every_cell_agrees_with_ground_truth(operation: str, scenario: str, grad_mode: str) -> None:
    """Check the report against what the objects do when written to and differentiated.

    The operation runs under each grad mode; the source is built outside it, and everything
    checked afterwards is checked outside it too.
    """
    row = tcdoc.probe(operation, scenario, grad_mode=grad_mode)
    assert row.grad_mode == grad_mode
    if row.error is not None:
        with pytest.raises(Exception) as raised:  # noqa: PT011 - the type is checked below
            fresh_result(operation, scenario, grad_mode)
        assert type(raised.value).__name__ == row.error.type
        assert row.error.message == _plain(str(raised.value))  # words only: no colour codes, no addresses
        return
    report = row.properties
    assert report is not None  # it neither raised nor was left out
    source, result, old = fresh_result_and_storages(operation, scenario, grad_mode)
    assert report.new_object == (result is not source)
    assert report.result_type == type(result).__name__
    # x moved where its storages are no longer where they were (share_memory_ moves x).
    moved = storages(source).keys() != old.keys()
    assert report.source_moved == moved

    if not isinstance(result, torch.Tensor):
        # A list of Python numbers: a change to x does not reach it, and no tensor question applies.
        assert not report.result_is_tensor
        kept = copy.deepcopy(result)
        write_through(source)
        assert result == kept
        assert not report.shares_storage
        assert all(report.as_dict()[field] is None for field in TENSOR_ONLY)
        return
    assert report.result_is_tensor
    assert report.requires_grad == result.requires_grad
    assert report.is_leaf == result.is_leaf
    assert report.grad_fn == (None if result.grad_fn is None else type(result.grad_fn).__name__)
    assert report.same_dtype == (result.dtype == source.dtype)
    assert report.keeps_conj == (result.is_conj() if source.is_conj() else None)
    assert report.keeps_inference == (result.is_inference() if source.is_inference() else None)

    # Gradients: autograd itself says whether source is reachable from result.
    total = result.sum() if result.requires_grad else None
    required = tcdoc.get_scenario(scenario).build(torch.device("cpu")).requires_grad  # x before the call
    if not required and not source.requires_grad:
        # Nothing can flow to an x that does not require grad: autograd refuses to ask.
        with pytest.raises(RuntimeError, match="does not require grad"):
            torch.autograd.grad(torch.ones((), requires_grad=True) * 2, source)
        assert report.gradient_flows_to_source is None
    elif total is not None and total.requires_grad and result is not source:
        (grad,) = torch.autograd.grad(total, source, allow_unused=True)
        assert report.gradient_flows_to_source == (grad is not None)
    elif result is not source:
        assert report.gradient_flows_to_source is False
    else:
        # y is x: a gradient reaches it if it requires grad now (x.detach_() cut x from the graph)
        assert report.gradient_flows_to_source is source.requires_grad

    # Hooks: a hook of x kept on y doubles the gradient that reaches y itself.
    if not source._backward_hooks:
        assert report.keeps_hooks is None
    elif result is source:
        assert report.keeps_hooks  # the same object, with the same hooks (detach_() keeps them)
    elif result.requires_grad:
        # A view made under no_grad requires grad, yet a gradient goes to its base, not to it.
        (grad,) = torch.autograd.grad((result * 1).sum(), result, allow_unused=True)
        assert report.keeps_hooks == (grad is not None and torch.equal(grad, torch.full_like(grad, 2.0)))
    else:
        assert report.keeps_hooks is False  # no gradient ever reaches y, so no hook of y runs

    # .grad and attributes: "does not apply" where the source has none; else the result has its own.
    # Read before the writes below: after a write to x, the .grad of a view y made under no_grad
    # can no longer be read.
    # Where y is x, nothing was copied: both answer n/a alike.
    source_grad = source.grad if source.is_leaf else None
    result_grad = result.grad if result.is_leaf else None
    if source_grad is None or result is source:
        assert report.copies_grad is None
    else:
        own = result_grad is not None and result_grad.data_ptr() != source_grad.data_ptr()
        assert report.copies_grad == (
            own and result_grad is not None and torch.equal(result_grad, source_grad)
        )
    if not vars(source) or result is source:
        assert report.copies_attributes is None
    else:
        assert report.copies_attributes == all(hasattr(result, name) for name in vars(source))

    # Version counter: an in-place change to source is or is not seen by result.
    if not (has_version_counter(source) and has_version_counter(result)):
        assert report.shares_version_counter is None
    elif result is not source:
        version = result._version
        with torch.no_grad():
            writable(source).mul_(1)
        assert report.shares_version_counter == (result._version != version)

    # Shape and strides: strides are compared only between dense tensors of one shape.
    assert report.same_shape == (result.shape == source.shape)
    dense = result.layout == source.layout == torch.strided
    if not dense or result.shape != source.shape:
        assert report.same_strides is None
    else:
        assert report.same_strides == (result.stride() == source.stride())

    # New bytes: every storage the copy allocated, a copied .grad's included.
    new_data = sum(size for address, size in storages(result).items() if address not in old)
    if source_grad is None:
        assert report.new_grad_bytes is None
        assert report.new_bytes == new_data
    else:
        mine = {**old, **storages(source_grad)}
        copied = result_grad is not None and result_grad.data_ptr() not in mine
        grad_bytes = result_grad.untyped_storage().nbytes() if copied and result_grad is not None else 0
        assert report.new_grad_bytes == grad_bytes
        assert report.new_bytes == new_data + grad_bytes

    # In-place writes, each on a fresh pair: refused, into y alone, or into x too.
    for field in WRITES:
        assert getattr(report, field) == write_outcome(operation, scenario, field, grad_mode), field

    # Memory: write through result and look for the change in source; an x that moved is
    # compared as it was, and its old memory (freed) is shared by nothing.
    before = values_of(source)
    # torch's own record, read by address of the tensor behind each object (not by identity).
    bases = {source._cdata, *([source._base._cdata] if source._base is not None else [])}
    shows_view = result._is_view() and result._base is not None and result._base._cdata in bases
    write_through(result)
    reaches = not torch.equal(values_of(source), before)
    if moved:
        spans = [(a, a + n) for a, n in old.items()]
        overlap = any(a < end and start < a + n for a, n in storages(result).items() for start, end in spans)
        assert report.shares_storage == overlap
    else:
        assert report.shares_storage == reaches

    # A view, as torch tracks it: torch says y is a view, and y's memory is x's.
    if result is source or source.is_inference() or result.is_inference():
        assert report.is_view is None
    else:
        assert report.is_view == shows_view
        assert not shows_view or reaches  # a view's memory is x's

    # Overlap: torch refuses an in-place write to a tensor whose elements overlap.
    if report.overlaps_itself:
        with pytest.raises(RuntimeError, match="more than one element"), torch.inference_mode():
            result.detach().mul_(1)
    else:
        with torch.inference_mode():
            result.detach().mul_(1)


def test_probe_records_errors_instead_of_raising() -> None:
    row = tcdoc.probe("deepcopy", "non_leaf")
    assert row.properties is None
    assert row.error is not None
    assert row.error.type == "RuntimeError"
    assert "leaves" in row.error.message


def test_probe_records_warnings() -> None:
    row = tcdoc.probe("torch_tensor", "leaf_requires_grad")
    assert row.properties is not None
    # What torch itself says, asked here: its words differ between releases.
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        torch.tensor(torch.ones(2, requires_grad=True))
    assert [(w.category, w.message) for w in row.warnings] == [
        (caught.category.__name__, _plain(str(caught.message))) for caught in said
    ]
    assert [w.category for w in row.warnings] == ["UserWarning"]
    assert tcdoc.probe("detach_clone", "leaf_requires_grad").warnings == ()


def test_probe_leaves_the_source_untouched() -> None:
    kept = []

    def build(device: torch.device) -> torch.Tensor:
        x = torch.arange(4.0, device=device).requires_grad_()
        x.grad = torch.ones(4)
        kept.append((x, x._version))
        return x

    scenario = tcdoc.Scenario("kept", "a leaf we keep", build)
    # The in-place family changes x by design (x.detach_() is the point); the rest must not.
    # Each probe builds x first; the pairs it builds after it are compare()'s to write into.
    measured = []
    for op in tcdoc.operations():
        if op.family != "in_place":
            first = len(kept)
            tcdoc.probe(op, scenario)
            measured.append(kept[first])
    assert len(measured) == len([op for op in tcdoc.operations() if op.family != "in_place"])
    for x, version in measured:
        assert torch.equal(x.detach(), torch.arange(4.0))
        assert x.grad is not None
        assert torch.equal(x.grad, torch.ones(4))
        assert x.requires_grad
        assert x._version == version


@pytest.mark.parametrize(
    ("operation", "scenario", "error", "message"),
    [
        ("deep_copy", "non_leaf", ValueError, r"unknown operation 'deep_copy'; choose from: clone, detach"),
        ("clone", "leaf", ValueError, r"unknown scenario 'leaf'; choose from: leaf_requires_grad"),
        (3, "non_leaf", TypeError, "operation name must be a str, got int"),
    ],
)
def test_probe_rejects_unknown_names(
    operation: str, scenario: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        tcdoc.probe(operation, scenario)


def test_probe_rejects_unknown_devices() -> None:
    with pytest.raises(ValueError, match="device must be 'cpu' or 'cuda', got 'tpu'"):
        tcdoc.probe("clone", "no_grad", device="tpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message shown without CUDA")
def test_cuda_without_cuda_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no CUDA device"):
        tcdoc.matrix(device="cuda")
    assert "cuda" not in [op.name for op in tcdoc.operations()]
    assert "cuda" in [op.name for op in tcdoc.operations(include_unavailable=True)]


def test_registry_has_every_required_name() -> None:
    required_ops = {
        "clone", "detach", "detach_clone", "clone_detach", "deepcopy", "copy", "data", "torch_tensor",
        "new_tensor", "as_tensor", "to_same_dtype", "to_float64", "to_copy", "contiguous", "view",
        "reshape", "numpy_roundtrip", "save_load", "parameter_wrap", "cpu", "clone_contiguous_format",
        "cuda", "to_cuda",
        # The look-alikes of issue 18.
        "float", "double", "type_float32", "clone_channels_last", "torch_clone", "index", "slice", "T",
        "permute", "expand", "cat", "stack", "add_zero", "detach_", "requires_grad_", "tolist",
        "tensor_from_list", "numpy_direct", "share_memory_", "pin_memory", "to_cuda_non_blocking",
        "empty_like_copy",
    }  # fmt: skip
    required_scenarios = {
        "leaf_requires_grad", "non_leaf", "no_grad", "parameter", "strided_view", "channels_last",
        "parameter_with_attribute", "cuda",
        "inference", "conj", "expanded", "hooked", "integer", "sparse", "zero_dim", "subclass",
    }  # fmt: skip
    assert required_ops <= {op.name for op in tcdoc.operations(include_unavailable=True)}
    assert required_scenarios <= {s.name for s in tcdoc.scenarios(include_unavailable=True)}
    names = [op.name for op in tcdoc.operations(include_unavailable=True)]
    assert len(names) == len(set(names))


def test_scenarios_build_what_they_say() -> None:
    cpu = torch.device("cpu")
    assert tcdoc.get_scenario("leaf_requires_grad").build(cpu).is_leaf
    assert not tcdoc.get_scenario("non_leaf").build(cpu).is_leaf
    assert not tcdoc.get_scenario("strided_view").build(cpu).is_contiguous()
    channels_last = tcdoc.get_scenario("channels_last").build(cpu)
    assert channels_last.is_contiguous(memory_format=torch.channels_last)
    assert isinstance(tcdoc.get_scenario("parameter").build(cpu), torch.nn.Parameter)
    full = tcdoc.get_scenario("parameter_with_attribute").build(cpu)
    assert isinstance(full, torch.nn.Parameter)
    assert full.grad is not None
    assert vars(full)
    assert tcdoc.get_scenario("inference").build(cpu).is_inference()
    assert tcdoc.get_scenario("conj").build(cpu).is_conj()
    assert 0 in tcdoc.get_scenario("expanded").build(cpu).stride()
    assert tcdoc.get_scenario("hooked").build(cpu)._backward_hooks
    assert not tcdoc.get_scenario("integer").build(cpu).is_floating_point()
    assert tcdoc.get_scenario("sparse").build(cpu).is_sparse
    assert tcdoc.get_scenario("zero_dim").build(cpu).dim() == 0
    subclass = tcdoc.get_scenario("subclass").build(cpu)
    assert type(subclass) is not torch.Tensor
    assert isinstance(subclass, torch.Tensor)
    # The everyday leaves own their memory: reshape() of a new tensor would be a view of it.
    assert tcdoc.get_scenario("leaf_requires_grad").build(cpu)._base is None
    assert tcdoc.get_scenario("no_grad").build(cpu)._base is None


def test_the_registry_meets_the_reference_goal_and_groups_it() -> None:
    from tcdoc._names import FAMILIES, SCENARIO_GROUPS

    assert len(tcdoc.operations()) >= 40
    assert len(tcdoc.scenarios()) >= 14
    assert {op.family for op in tcdoc.operations(include_unavailable=True)} == set(FAMILIES)
    assert {s.group for s in tcdoc.scenarios(include_unavailable=True)} == set(SCENARIO_GROUPS)
    with pytest.raises(ValueError, match="unknown family 'misc'; choose from: copies"):
        tcdoc.Operation("x", "x", "x", lambda x: x, family="misc")
    with pytest.raises(ValueError, match="unknown group 'odd'; choose from: everyday, special"):
        tcdoc.Scenario("x", "x", lambda device: torch.ones(1), group="odd")


def test_error_messages_are_words_without_terminal_codes() -> None:
    for row in tcdoc.matrix().rows:
        if row.error is not None:
            assert "\x1b" not in row.error.message, row


# -- The matrix, its JSON and diff -----------------------------------------------------------


def test_matrix_covers_every_operation_scenario_and_grad_mode() -> None:
    m = tcdoc.matrix()
    ops, scenarios = tcdoc.operations(include_unavailable=True), tcdoc.scenarios(include_unavailable=True)
    assert tcdoc.GRAD_MODES == ("enabled", "no_grad", "inference_mode")
    assert len(m.rows) == len(ops) * len(scenarios) * 3
    assert [(r.operation, r.scenario, r.grad_mode) for r in m.rows] == [
        (op.name, sc.name, mode) for op in ops for sc in scenarios for mode in tcdoc.GRAD_MODES
    ]
    assert m.environment.torch == torch.__version__
    assert m.get("clone", "no_grad").properties is not None
    assert m.get("clone", "no_grad").grad_mode == "enabled"
    assert m.get("clone", "no_grad", "inference_mode").grad_mode == "inference_mode"
    with pytest.raises(KeyError, match="no row for operation 'clone' on scenario 'nowhere'"):
        m.get("clone", "nowhere")
    with pytest.raises(
        ValueError, match="unknown grad mode 'off'; choose from: enabled, no_grad, inference_mode"
    ):
        m.get("clone", "no_grad", "off")
    one = tcdoc.matrix(["clone"], ["no_grad"], grad_modes=["no_grad"])
    with pytest.raises(KeyError, match="under grad mode 'enabled'"):
        one.get("clone", "no_grad")


def test_json_round_trip() -> None:
    m = tcdoc.matrix()
    text = json.dumps(m.to_json())
    data = json.loads(text)
    assert data["schema"] == tcdoc.SCHEMA == 4
    assert set(data) >= {"schema", "torch", "device", "rows", "modules"}
    assert len(data["modules"]) == len(tcdoc.module_operations())
    keys = {"operation", "scenario", "grad_mode", "error", "not_run", "warnings", "properties"}
    assert all(set(row) == keys for row in data["rows"])
    assert {row["grad_mode"] for row in data["rows"]} == {"enabled", "no_grad", "inference_mode"}
    assert tcdoc.Matrix.from_json(data) == m


def test_json_has_null_exactly_where_there_was_nothing_to_copy() -> None:
    data = tcdoc.matrix().to_json()
    for row in data["rows"]:
        if row["properties"] is None:
            continue
        source = tcdoc.get_scenario(row["scenario"]).build(torch.device("cpu"))
        values = row["properties"]
        assert values["source_moved"] is not None, row  # the probe hands compare() x as it was
        if not values["result_is_tensor"]:
            assert all(values[field] is None for field in TENSOR_ONLY), row
            continue
        has_grad = source.is_leaf and source.grad is not None
        same = not values["new_object"]
        assert (values["copies_grad"] is None) == (not has_grad or same), row
        assert (values["copies_attributes"] is None) == (not vars(source) or same), row
        assert (values["new_grad_bytes"] is None) == (not has_grad), row
        # n/a where x required grad neither before the call nor after it (x.detach_() changes x)
        after, _ = fresh_result(row["operation"], row["scenario"], row["grad_mode"])
        required = source.requires_grad or after.requires_grad
        assert (values["gradient_flows_to_source"] is None) == (not required), row
        assert (values["keeps_hooks"] is None) == (not source._backward_hooks), row
        assert (values["keeps_conj"] is None) == (not source.is_conj()), row
        assert (values["keeps_inference"] is None) == (not source.is_inference()), row
        dense = source.layout == torch.strided
        assert (values["same_strides"] is None) == (not dense or values["same_shape"] is False), row
        assert all(values[field] is not None for field in WRITES), row  # and a remake


def older(matrix: tcdoc.Matrix, schema: object) -> dict[str, Any]:
    """Write ``matrix`` as an unreleased older layout would have been numbered."""
    data = matrix.to_json()
    data["schema"] = schema
    return data


@pytest.mark.parametrize("schema", [1, 2, 3, 5, None, "4"])
def test_only_the_current_schema_is_read(schema: object) -> None:
    data = older(tcdoc.matrix(["clone"], ["no_grad"]), schema)
    with pytest.raises(ValueError, match=rf"a matrix of schema {re.escape(repr(schema))} is not supported"):
        tcdoc.Matrix.from_json(data)


def test_module_rows_round_trip_and_diff() -> None:
    m = tcdoc.matrix(["state_dict", "module_to_float64"], [])
    assert m.rows == ()
    assert tcdoc.Matrix.from_json(json.loads(json.dumps(m.to_json()))) == m
    row = m.get_module("state_dict")
    assert row.properties is not None
    changed = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, same_tensors=7))
    new = dataclasses.replace(m, modules=(changed, m.modules[1]))
    (change,) = tcdoc.diff(m, new)
    assert change == tcdoc.CellChange("state_dict", "trained_model", "same_tensors", 0, 7)
    assert change.grad_mode is None
    assert change.where == "state_dict / trained_model / same_tensors"
    with pytest.raises(KeyError, match="no row for module operation 'nope'"):
        m.get_module("nope")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a matrix must be a JSON object, got list"),
        ({"schema": 3, "rows": []}, "a matrix of schema 3 is not supported: this tcdoc reads schema 4 only"),
        ({"schema": 4, "rows": [], "modules": [{"operation": "x"}]}, r"malformed modules\[0\] \(x\)"),
        ({"schema": 4, "rows": []}, "a matrix needs a list of row objects under 'modules'"),
        ({"schema": 4}, "a matrix needs a list of row objects"),
        ({"schema": 4, "rows": [{"operation": "clone"}], "modules": []}, r"malformed rows\[0\] \(clone\)"),
        (
            {"schema": 4, "modules": [],
             "rows": [{"operation": "a", "scenario": "b", "grad_mode": "enabled",
                       "error": {"type": "E", "message": "m"},
                       "warnings": [], "properties": None, "not_run": {"reason": "r"}}]},
            "exactly one of 'properties', 'error' and 'not_run'",
        ),
        (
            {"schema": 4, "modules": [],
             "rows": [{"operation": "a", "scenario": "b", "error": {"type": "E", "message": "m"},
                       "warnings": [], "properties": None, "not_run": None}]},
            r"malformed rows\[0\] \(a / b\): the field 'grad_mode' is missing",
        ),
        (
            {"schema": 4, "modules": [],
             "rows": [{"operation": "a", "scenario": "b", "grad_mode": "off",
                       "error": {"type": "E", "message": "m"},
                       "warnings": [], "properties": None, "not_run": None}]},
            r"malformed rows\[0\] \(a / b / off\): .*unknown grad mode 'off'",
        ),
    ],
)  # fmt: skip
def test_from_json_rejects_malformed_data(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tcdoc.Matrix.from_json(data)


def test_from_json_refuses_two_rows_for_one_cell() -> None:
    data = tcdoc.matrix(["clone"], ["no_grad"], grad_modes=["enabled"]).to_json()
    data["rows"].append(data["rows"][0])
    with pytest.raises(ValueError, match=r"rows\[0\] and rows\[1\] are both clone / no_grad / enabled"):
        tcdoc.Matrix.from_json(data)


def test_diff_lists_changed_cells_only() -> None:
    old = tcdoc.matrix(["clone", "detach"], ["no_grad", "non_leaf"], grad_modes=["enabled"])
    assert tcdoc.diff(old, old) == ()
    row = old.get("detach", "no_grad")
    assert row.properties is not None
    changed = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, shares_storage=False))
    new = dataclasses.replace(old, rows=tuple(changed if r is row else r for r in old.rows))
    assert tcdoc.diff(old, new) == (
        tcdoc.CellChange("detach", "no_grad", "shares_storage", True, False, "enabled"),
    )
    fewer = dataclasses.replace(old, rows=old.rows[1:])
    (change,) = tcdoc.diff(old, fewer)
    assert (change.operation, change.field, change.old, change.new) == ("clone", "row", "present", None)


def replace_outcome(matrix: tcdoc.Matrix, operation: str, scenario: str, outcome: Any) -> tcdoc.Matrix:
    row = matrix.get(operation, scenario)
    changed = dataclasses.replace(row, outcome=outcome)
    return dataclasses.replace(matrix, rows=tuple(changed if r is row else r for r in matrix.rows))


def test_a_cell_that_starts_or_stops_raising_is_one_change() -> None:
    old = tcdoc.matrix(["clone", "deepcopy"], ["no_grad", "non_leaf"], grad_modes=["enabled"])
    error = tcdoc.ErrorInfo("RuntimeError", "no more clones")
    new = replace_outcome(old, "clone", "no_grad", error)
    assert tcdoc.diff(old, new) == (
        tcdoc.CellChange(
            "clone", "no_grad", "outcome", "measured", "raises RuntimeError: no more clones", "enabled"
        ),
    )
    assert [c.field for c in tcdoc.diff(new, old)] == ["outcome"]
    reworded = replace_outcome(old, "deepcopy", "non_leaf", tcdoc.ErrorInfo("RuntimeError", "other words"))
    ((field, new_words),) = [(c.field, c.new) for c in tcdoc.diff(old, reworded)]
    assert (field, new_words) == ("error", "RuntimeError: other words")


def test_a_cell_not_run_is_one_change_not_one_per_field() -> None:
    old = tcdoc.matrix(["numpy_roundtrip"], ["no_grad", "leaf_requires_grad"], grad_modes=["enabled"])
    new = replace_outcome(old, "numpy_roundtrip", "no_grad", tcdoc.NotRun("needs numpy"))
    assert tcdoc.diff(old, new) == (
        tcdoc.CellChange(
            "numpy_roundtrip", "no_grad", "outcome", "measured", "not run: needs numpy", "enabled"
        ),
    )


def test_a_missing_optional_package_is_not_run_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    row = tcdoc.probe("numpy_roundtrip", "no_grad")
    assert row.outcome == tcdoc.NotRun("needs numpy")
    assert (row.properties, row.error, row.warnings) == (None, None, ())
    assert str(row.not_run) == "not run: needs numpy"
    data = tcdoc.matrix(["numpy_roundtrip", "clone"], ["no_grad"], grad_modes=["enabled"]).to_json()
    assert data["rows"][0]["not_run"] == {"reason": "needs numpy"}
    assert data["rows"][0]["error"] is None
    assert data["rows"][1]["not_run"] is None
    assert tcdoc.Matrix.from_json(data).rows[0].not_run == tcdoc.NotRun("needs numpy")


def test_operations_that_need_a_package_say_so() -> None:
    needing = {op.name: op.needs for op in tcdoc.operations(include_unavailable=True) if op.needs}
    assert needing == {"numpy_roundtrip": ("numpy",), "numpy_direct": ("numpy",)}


# -- Grad modes, the leaf an operation made, CUDA rows, warnings per cell --------------------


def test_grad_mode_changes_what_clone_makes() -> None:
    """Independent snippets: the same clone of a leaf that requires grad, under each mode."""
    x = torch.ones(2, 3).requires_grad_()
    made = {}
    for mode, enter in MODES.items():
        with enter():
            made[mode] = x.clone()
    for mode, y in made.items():
        report = tcdoc.probe("clone", "leaf_requires_grad", grad_mode=mode).properties
        assert report is not None
        assert (report.is_leaf, report.requires_grad) == (y.is_leaf, y.requires_grad), mode
        assert report.grad_fn == (None if y.grad_fn is None else type(y.grad_fn).__name__), mode
        # An inference tensor has no version counter: the field is n/a where y is one.
        assert (report.shares_version_counter is None) == y.is_inference(), mode
    assert made["enabled"].grad_fn is not None
    assert not made["no_grad"].requires_grad
    assert made["inference_mode"].is_inference()


def test_probe_builds_the_source_outside_the_callers_grad_mode() -> None:
    expected = tcdoc.probe("clone", "non_leaf")
    with torch.no_grad():
        assert tcdoc.probe("clone", "non_leaf") == expected
        assert torch.is_grad_enabled() is False  # the caller's mode is back afterwards
    with torch.inference_mode():
        assert tcdoc.probe("clone", "non_leaf") == expected
        assert torch.is_inference_mode_enabled()


@pytest.mark.parametrize("grad_mode", ["off", "No_Grad", ""])
def test_an_unknown_grad_mode_is_a_clear_error(grad_mode: str) -> None:
    message = f"unknown grad mode {grad_mode!r}; choose from: enabled, no_grad, inference_mode"
    with pytest.raises(ValueError, match=re.escape(message)):
        tcdoc.probe("clone", "no_grad", grad_mode=grad_mode)
    with pytest.raises(ValueError, match=re.escape(message)):
        tcdoc.matrix(["clone"], ["no_grad"], grad_modes=[grad_mode])
    with pytest.raises(TypeError, match="not a single string"):
        tcdoc.matrix(["clone"], ["no_grad"], grad_modes="no_grad")


def test_leaf_from_operation_is_made_by_an_operation_yet_a_leaf() -> None:
    base = torch.ones(2, 3, requires_grad=True)
    with torch.no_grad():
        x = base * 2
    copied = copy.deepcopy(x)  # fine: deepcopy refuses only tensors that are not leaves
    source = tcdoc.get_scenario("leaf_from_operation").build(torch.device("cpu"))
    assert (source.is_leaf, source.requires_grad, source.grad_fn) == (x.is_leaf, x.requires_grad, None)
    assert source._base is None
    deep = tcdoc.probe("deepcopy", "leaf_from_operation")
    assert deep.error is None
    assert deep.properties is not None
    assert deep.properties.is_leaf == copied.is_leaf
    assert tcdoc.probe("deepcopy", "non_leaf").error is not None  # "not a leaf" is what refuses


def test_a_matrix_without_cuda_has_cuda_rows_not_run() -> None:
    m = tcdoc.matrix(["clone", "cuda"], ["no_grad", "cuda"], grad_modes=["enabled", "no_grad"])
    assert len(m.rows) == 8
    for row in m.rows:
        needs_cuda = "cuda" in (row.operation, row.scenario)
        if needs_cuda and not torch.cuda.is_available():
            assert row.outcome == tcdoc.NotRun("no CUDA device"), row
            assert str(row.outcome) == "not run: no CUDA device"
        else:
            assert row.properties is not None, row
    full = tcdoc.matrix(grad_modes=["enabled"])
    names = {(r.operation, r.scenario) for r in full.rows}
    assert ("to_cuda", "no_grad") in names
    assert ("clone", "cuda") in names
    assert tcdoc.Matrix.from_json(json.loads(json.dumps(m.to_json()))) == m


CASTING = "Casting complex values to real discards the imaginary part"


def test_a_cell_alone_warns_as_it_does_in_the_full_matrix() -> None:
    """torch warns of a complex cast once per process; each cell must report its own warning."""
    conversions = [op.name for op in tcdoc.operations() if op.family == "conversions"]
    m = tcdoc.matrix(conversions, ["conj"])
    for name in ("to_float64", "float", "double", "type_float32"):
        row = m.get(name, "conj")
        alone = tcdoc.probe(name, "conj")
        assert [str(w) for w in row.warnings] == [str(w) for w in alone.warnings], name
        assert any(CASTING in w.message for w in row.warnings), name
    # The same cell again, in the same process, still warns.
    assert any(CASTING in w.message for w in tcdoc.probe("float", "conj").warnings)


def test_measuring_restores_torchs_settings_even_on_error() -> None:
    def broken(device: torch.device) -> torch.Tensor:
        assert torch.is_warn_always_enabled()
        raise KeyboardInterrupt  # not the operation's error: it must pass through the probe

    threads = torch.get_num_threads()
    assert not torch.is_warn_always_enabled()
    with pytest.raises(KeyboardInterrupt):
        tcdoc.probe("clone", tcdoc.Scenario("broken", "raises while built", broken))
    assert not torch.is_warn_always_enabled()
    assert torch.get_num_threads() == threads
    tcdoc.matrix(["clone", "state_dict"], ["no_grad"])
    assert not torch.is_warn_always_enabled()
    assert torch.get_num_threads() == threads


def test_diff_compares_like_with_like_and_names_the_grad_mode() -> None:
    old = tcdoc.matrix(["clone"], ["leaf_requires_grad"])
    assert tcdoc.diff(old, old) == ()
    row = old.get("clone", "leaf_requires_grad", "no_grad")
    assert row.properties is not None
    changed = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, is_leaf=False))
    new = dataclasses.replace(old, rows=tuple(changed if r is row else r for r in old.rows))
    (change,) = tcdoc.diff(old, new)
    assert change == tcdoc.CellChange("clone", "leaf_requires_grad", "is_leaf", True, False, "no_grad")
    assert change.where == "clone / leaf_requires_grad / no_grad / is_leaf"
    # The rows in another order still pair by grad mode: no change.
    assert tcdoc.diff(old, dataclasses.replace(old, rows=old.rows[::-1])) == ()
    # A matrix of one mode against one of three: the other two modes' rows are in one only.
    enabled = tcdoc.matrix(["clone"], ["leaf_requires_grad"], grad_modes=["enabled"])
    assert {(c.grad_mode, c.field) for c in tcdoc.diff(enabled, old)} == {
        ("no_grad", "row"),
        ("inference_mode", "row"),
    }


def test_grad_mode_changes_lists_what_differs_between_modes() -> None:
    from tcdoc._diff import grad_mode_changes

    m = tcdoc.matrix([op.name for op in tcdoc.operations() if op.family == "copies"] + ["view"])
    changes = grad_mode_changes(m, "copies")
    assert changes
    assert {op for op, _, _ in changes} <= {op.name for op in tcdoc.operations() if op.family == "copies"}
    assert len(set(changes)) == len(changes)
    # Independent snippet: x.clone() of a leaf that requires grad is a leaf only under no_grad.
    x = torch.ones(2).requires_grad_()
    with torch.no_grad():
        made_under_no_grad = x.clone()
    assert x.clone().is_leaf != made_under_no_grad.is_leaf
    assert ("clone", "leaf_requires_grad", "is_leaf") in changes
    # And x.detach() of a plain tensor shares its memory in every mode: never listed.
    plain = torch.ones(2)
    for enter in MODES.values():
        with enter():
            assert plain.detach().data_ptr() == plain.data_ptr()
    assert ("detach", "no_grad", "shares_storage") not in changes
    for op, scenario, field in changes:
        rows = [m.get(op, scenario, mode) for mode in tcdoc.GRAD_MODES]
        if field in tcdoc.Comparison.__dataclass_fields__:
            values = {None if r.properties is None else r.properties.as_dict()[field] for r in rows}
            assert len(values) > 1, (op, scenario, field)
    assert all(op == "view" for op, _, _ in grad_mode_changes(m, "views"))
    assert grad_mode_changes(tcdoc.matrix(["clone"], ["leaf_requires_grad"], grad_modes=["enabled"])) == ()
    with pytest.raises(ValueError, match="unknown family 'misc'"):
        grad_mode_changes(m, "misc")
