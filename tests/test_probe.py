"""tcdoc.probe, the registry and the matrix: every reported fact checked another way."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import sys
import warnings
from typing import Any

import pytest
import torch

import tcdoc
from tcdoc._names import TENSOR_ONLY
from tcdoc._probe import _plain

CELLS = [(op.name, sc.name) for op in tcdoc.operations() for sc in tcdoc.scenarios()]


def fresh_result(operation: str, scenario: str) -> tuple[torch.Tensor, object]:
    source = tcdoc.get_scenario(scenario).build(torch.device("cpu"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # probe records them; test_probe_records_warnings checks
        return source, tcdoc.get_operation(operation).apply(source)


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


@pytest.mark.parametrize(("operation", "scenario"), CELLS)
def test_every_cell_agrees_with_ground_truth(operation: str, scenario: str) -> None:
    """Check the report against what the objects do when written to and differentiated."""
    row = tcdoc.probe(operation, scenario)
    if row.error is not None:
        with pytest.raises(Exception) as raised:  # noqa: PT011 - the type is checked below
            fresh_result(operation, scenario)
        assert type(raised.value).__name__ == row.error.type
        assert row.error.message == _plain(str(raised.value))  # words only: no colour codes, no addresses
        return
    report = row.properties
    assert report is not None  # it neither raised nor was left out
    source, result = fresh_result(operation, scenario)
    assert report.new_object == (result is not source)
    assert report.result_type == type(result).__name__

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
    assert report.same_dtype == (result.dtype == source.dtype)
    assert report.keeps_conj == (result.is_conj() if source.is_conj() else None)
    assert report.keeps_inference == (result.is_inference() if source.is_inference() else None)

    # Gradients: autograd itself says whether source is reachable from result.
    if result.requires_grad and source.requires_grad and result is not source:
        (grad,) = torch.autograd.grad(result.sum(), source, allow_unused=True)
        assert report.gradient_flows_to_source == (grad is not None)
    elif result is not source:
        assert not report.gradient_flows_to_source

    # Hooks: a hook of x kept on y doubles the gradient that reaches y itself.
    if not source._backward_hooks:
        assert report.keeps_hooks is None
    elif result is source:
        assert report.keeps_hooks  # the same object, with the same hooks (detach_() keeps them)
    elif result.requires_grad:
        (grad,) = torch.autograd.grad((result * 1).sum(), result)
        assert report.keeps_hooks == torch.equal(grad, torch.full_like(grad, 2.0))
    else:
        assert report.keeps_hooks is False  # no gradient ever reaches y, so no hook of y runs

    # Version counter: an in-place change to source is or is not seen by result.
    if not (has_version_counter(source) and has_version_counter(result)):
        assert report.shares_version_counter is None
    elif result is not source:
        version = result._version
        with torch.no_grad():
            writable(source).mul_(1)
        assert report.shares_version_counter == (result._version != version)

    # .grad and attributes: "does not apply" where the source has none; else the result has its own.
    source_grad = source.grad if source.is_leaf else None
    if source_grad is None:
        assert report.copies_grad is None
    else:
        result_grad = result.grad if result.is_leaf else None
        copied = (
            result_grad is not None
            and result_grad.data_ptr() != source_grad.data_ptr()
            and torch.equal(result_grad, source_grad)
        )
        assert report.copies_grad == copied
    if not vars(source):
        assert report.copies_attributes is None
    else:
        assert report.copies_attributes == all(hasattr(result, name) for name in vars(source))

    # Memory: write through result and look for the change in source.
    before = values_of(source)
    write_through(result)
    assert report.shares_storage == (not torch.equal(values_of(source), before))

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
    for op in tcdoc.operations():
        if op.family != "in_place":
            tcdoc.probe(op, scenario)
    assert len(kept) == len([op for op in tcdoc.operations() if op.family != "in_place"])
    for x, version in kept:
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


def test_matrix_covers_every_operation_and_scenario() -> None:
    m = tcdoc.matrix()
    assert len(m.rows) == len(tcdoc.operations()) * len(tcdoc.scenarios())
    assert m.environment.torch == torch.__version__
    assert m.get("clone", "no_grad").properties is not None
    with pytest.raises(KeyError, match="no row for operation 'clone' on scenario 'nowhere'"):
        m.get("clone", "nowhere")


def test_json_round_trip() -> None:
    m = tcdoc.matrix()
    text = json.dumps(m.to_json())
    data = json.loads(text)
    assert data["schema"] == tcdoc.SCHEMA == 3
    assert set(data) >= {"schema", "torch", "device", "rows", "modules"}
    assert len(data["modules"]) == len(tcdoc.module_operations())
    assert set(data["rows"][0]) == {"operation", "scenario", "error", "not_run", "warnings", "properties"}
    assert tcdoc.Matrix.from_json(data) == m


def test_json_has_null_exactly_where_there_was_nothing_to_copy() -> None:
    data = tcdoc.matrix().to_json()
    for row in data["rows"]:
        if row["properties"] is None:
            continue
        source = tcdoc.get_scenario(row["scenario"]).build(torch.device("cpu"))
        values = row["properties"]
        if not values["result_is_tensor"]:
            assert all(values[field] is None for field in TENSOR_ONLY), row
            continue
        has_grad = source.is_leaf and source.grad is not None
        assert (values["copies_grad"] is None) == (not has_grad), row
        assert (values["copies_attributes"] is None) == (not vars(source)), row
        assert (values["keeps_hooks"] is None) == (not source._backward_hooks), row
        assert (values["keeps_conj"] is None) == (not source.is_conj()), row
        assert (values["keeps_inference"] is None) == (not source.is_inference()), row
        assert (values["same_strides"] is None) == (source.layout != torch.strided), row


def older(matrix: tcdoc.Matrix, schema: object) -> dict[str, Any]:
    """Write ``matrix`` as an unreleased older layout would have been numbered."""
    data = matrix.to_json()
    data["schema"] = schema
    return data


@pytest.mark.parametrize("schema", [1, 2, 4, None, "3"])
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
    assert tcdoc.diff(m, new) == (tcdoc.CellChange("state_dict", "trained_model", "same_tensors", 0, 7),)
    with pytest.raises(KeyError, match="no row for module operation 'nope'"):
        m.get_module("nope")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a matrix must be a JSON object, got list"),
        ({"schema": 4, "rows": []}, "a matrix of schema 4 is not supported: this tcdoc reads schema 3 only"),
        ({"schema": 3, "rows": [], "modules": [{"operation": "x"}]}, "malformed module row"),
        ({"schema": 3, "rows": []}, "a matrix needs a list of row objects under 'modules'"),
        ({"schema": 3}, "a matrix needs a list of row objects"),
        ({"schema": 3, "rows": [{"operation": "clone"}], "modules": []}, "malformed matrix row"),
        (
            {"schema": 3, "modules": [],
             "rows": [{"operation": "a", "scenario": "b", "error": {"type": "E", "message": "m"},
                       "warnings": [], "properties": None, "not_run": {"reason": "r"}}]},
            "exactly one of 'properties', 'error' and 'not_run'",
        ),
    ],
)  # fmt: skip
def test_from_json_rejects_malformed_data(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tcdoc.Matrix.from_json(data)


def test_diff_lists_changed_cells_only() -> None:
    old = tcdoc.matrix(["clone", "detach"], ["no_grad", "non_leaf"])
    assert tcdoc.diff(old, old) == ()
    row = old.get("detach", "no_grad")
    assert row.properties is not None
    changed = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, shares_storage=False))
    new = dataclasses.replace(old, rows=tuple(changed if r is row else r for r in old.rows))
    assert tcdoc.diff(old, new) == (tcdoc.CellChange("detach", "no_grad", "shares_storage", True, False),)
    fewer = dataclasses.replace(old, rows=old.rows[1:])
    (change,) = tcdoc.diff(old, fewer)
    assert (change.operation, change.field, change.old, change.new) == ("clone", "row", "present", None)


def replace_outcome(matrix: tcdoc.Matrix, operation: str, scenario: str, outcome: Any) -> tcdoc.Matrix:
    row = matrix.get(operation, scenario)
    changed = dataclasses.replace(row, outcome=outcome)
    return dataclasses.replace(matrix, rows=tuple(changed if r is row else r for r in matrix.rows))


def test_a_cell_that_starts_or_stops_raising_is_one_change() -> None:
    old = tcdoc.matrix(["clone", "deepcopy"], ["no_grad", "non_leaf"])
    error = tcdoc.ErrorInfo("RuntimeError", "no more clones")
    new = replace_outcome(old, "clone", "no_grad", error)
    assert tcdoc.diff(old, new) == (
        tcdoc.CellChange("clone", "no_grad", "outcome", "measured", "raises RuntimeError: no more clones"),
    )
    assert [c.field for c in tcdoc.diff(new, old)] == ["outcome"]
    reworded = replace_outcome(old, "deepcopy", "non_leaf", tcdoc.ErrorInfo("RuntimeError", "other words"))
    ((field, new_words),) = [(c.field, c.new) for c in tcdoc.diff(old, reworded)]
    assert (field, new_words) == ("error", "RuntimeError: other words")


def test_a_cell_not_run_is_one_change_not_one_per_field() -> None:
    old = tcdoc.matrix(["numpy_roundtrip"], ["no_grad", "leaf_requires_grad"])
    new = replace_outcome(old, "numpy_roundtrip", "no_grad", tcdoc.NotRun("needs numpy"))
    assert tcdoc.diff(old, new) == (
        tcdoc.CellChange("numpy_roundtrip", "no_grad", "outcome", "measured", "not run: needs numpy"),
    )


def test_a_missing_optional_package_is_not_run_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    row = tcdoc.probe("numpy_roundtrip", "no_grad")
    assert row.outcome == tcdoc.NotRun("needs numpy")
    assert (row.properties, row.error, row.warnings) == (None, None, ())
    assert str(row.not_run) == "not run: needs numpy"
    data = tcdoc.matrix(["numpy_roundtrip", "clone"], ["no_grad"]).to_json()
    assert data["rows"][0]["not_run"] == {"reason": "needs numpy"}
    assert data["rows"][0]["error"] is None
    assert data["rows"][1]["not_run"] is None
    assert tcdoc.Matrix.from_json(data).rows[0].not_run == tcdoc.NotRun("needs numpy")


def test_operations_that_need_a_package_say_so() -> None:
    needing = {op.name: op.needs for op in tcdoc.operations(include_unavailable=True) if op.needs}
    assert needing == {"numpy_roundtrip": ("numpy",), "numpy_direct": ("numpy",)}
