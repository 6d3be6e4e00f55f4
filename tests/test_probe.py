"""tcdoc.probe, the registry and the matrix: every reported fact checked another way."""

from __future__ import annotations

import dataclasses
import json
import sys
import warnings

import pytest
import torch

import tcdoc

CELLS = [(op.name, sc.name) for op in tcdoc.operations() for sc in tcdoc.scenarios()]


def fresh_result(operation: str, scenario: str) -> tuple[torch.Tensor, torch.Tensor]:
    source = tcdoc.get_scenario(scenario).build(torch.device("cpu"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # probe records them; test_probe_records_warnings checks
        return source, tcdoc.get_operation(operation).apply(source)


@pytest.mark.parametrize(("operation", "scenario"), CELLS)
def test_every_cell_agrees_with_ground_truth(operation, scenario):
    """Check the report against what the tensors do when written to and differentiated."""
    row = tcdoc.probe(operation, scenario)
    if row.error is not None:
        with pytest.raises(Exception) as raised:  # noqa: PT011 - the type is checked below
            fresh_result(operation, scenario)
        assert (type(raised.value).__name__, str(raised.value)) == (row.error.type, row.error.message)
        return
    report = row.properties
    source, result = fresh_result(operation, scenario)

    # Gradients: autograd itself says whether source is reachable from result.
    if result.requires_grad and source.requires_grad and result is not source:
        (grad,) = torch.autograd.grad(result.sum(), source, allow_unused=True)
        assert report.gradient_flows_to_source == (grad is not None)
    elif result is not source:
        assert not report.gradient_flows_to_source

    # Version counter: an in-place change to source is or is not seen by result.
    if result is not source:
        version = result._version
        with torch.no_grad():
            source.add_(0)
        assert report.shares_version_counter == (result._version != version)

    # .grad and attributes: "does not apply" where the source has none; else the result has its own.
    source_grad = source.grad if source.is_leaf else None
    if source_grad is None:
        assert report.copies_grad is None
    else:
        result_grad = result.grad if result.is_leaf else None
        own = result_grad is not None and result_grad.data_ptr() != source_grad.data_ptr()
        assert report.copies_grad == (own and torch.equal(result_grad, source_grad))
    if not vars(source):
        assert report.copies_attributes is None
    else:
        assert report.copies_attributes == all(hasattr(result, name) for name in vars(source))

    # Memory: write through result and look for the change in source.
    before = source.detach().clone()
    with torch.no_grad():
        result.detach().fill_(-1)
    changed = not torch.equal(source.detach(), before)
    assert report.shares_storage == changed
    assert report.new_object == (result is not source)


def test_probe_records_errors_instead_of_raising():
    row = tcdoc.probe("deepcopy", "non_leaf")
    assert row.properties is None
    assert row.error is not None
    assert row.error.type == "RuntimeError"
    assert "leaves" in row.error.message


def test_probe_records_warnings():
    row = tcdoc.probe("torch_tensor", "leaf_requires_grad")
    assert row.properties is not None
    assert [w.category for w in row.warnings] == ["UserWarning"]
    assert "detach().clone()" in row.warnings[0].message
    assert tcdoc.probe("detach_clone", "leaf_requires_grad").warnings == ()


def test_probe_leaves_the_source_untouched():
    kept = []

    def build(device: torch.device) -> torch.Tensor:
        x = torch.arange(4.0, device=device).requires_grad_()
        x.grad = torch.ones(4)
        kept.append((x, x._version))
        return x

    scenario = tcdoc.Scenario("kept", "a leaf we keep", build)
    for op in tcdoc.operations():
        tcdoc.probe(op, scenario)
    for x, version in kept:
        assert torch.equal(x.detach(), torch.arange(4.0))
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
def test_probe_rejects_unknown_names(operation, scenario, error, message):
    with pytest.raises(error, match=message):
        tcdoc.probe(operation, scenario)


def test_probe_rejects_unknown_devices():
    with pytest.raises(ValueError, match="device must be 'cpu' or 'cuda', got 'tpu'"):
        tcdoc.probe("clone", "no_grad", device="tpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message shown without CUDA")
def test_cuda_without_cuda_is_a_clear_error():
    with pytest.raises(ValueError, match="no CUDA device"):
        tcdoc.matrix(device="cuda")
    assert "cuda" not in [op.name for op in tcdoc.operations()]
    assert "cuda" in [op.name for op in tcdoc.operations(include_unavailable=True)]


def test_registry_has_every_required_name():
    required_ops = {
        "clone", "detach", "detach_clone", "clone_detach", "deepcopy", "copy", "data", "torch_tensor",
        "new_tensor", "as_tensor", "to_same_dtype", "to_float64", "to_copy", "contiguous", "view",
        "reshape", "numpy_roundtrip", "save_load", "parameter_wrap", "cpu", "clone_contiguous_format",
        "cuda", "to_cuda",
    }  # fmt: skip
    required_scenarios = {
        "leaf_requires_grad", "non_leaf", "no_grad", "parameter", "strided_view", "channels_last",
        "parameter_with_attribute", "cuda",
    }  # fmt: skip
    assert required_ops <= {op.name for op in tcdoc.operations(include_unavailable=True)}
    assert required_scenarios <= {s.name for s in tcdoc.scenarios(include_unavailable=True)}
    names = [op.name for op in tcdoc.operations(include_unavailable=True)]
    assert len(names) == len(set(names))


def test_scenarios_build_what_they_say():
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


# -- The matrix, its JSON and diff -----------------------------------------------------------


def test_matrix_covers_every_operation_and_scenario():
    m = tcdoc.matrix()
    assert len(m.rows) == len(tcdoc.operations()) * len(tcdoc.scenarios())
    assert m.environment.torch == torch.__version__
    assert m.get("clone", "no_grad").properties is not None
    with pytest.raises(KeyError, match="no row for operation 'clone' on scenario 'nowhere'"):
        m.get("clone", "nowhere")


def test_json_round_trip():
    m = tcdoc.matrix()
    text = json.dumps(m.to_json())
    data = json.loads(text)
    assert data["schema"] == tcdoc.SCHEMA == 2
    assert set(data) >= {"schema", "torch", "device", "rows"}
    assert set(data["rows"][0]) == {"operation", "scenario", "error", "not_run", "warnings", "properties"}
    assert tcdoc.Matrix.from_json(data) == m


def test_json_has_null_exactly_where_there_was_nothing_to_copy():
    data = tcdoc.matrix().to_json()
    for row in data["rows"]:
        if row["properties"] is None:
            continue
        source = tcdoc.get_scenario(row["scenario"]).build(torch.device("cpu"))
        has_grad = source.is_leaf and source.grad is not None
        assert (row["properties"]["copies_grad"] is None) == (not has_grad), row
        assert (row["properties"]["copies_attributes"] is None) == (not vars(source)), row


def schema_1(matrix: tcdoc.Matrix) -> dict:
    """Write ``matrix`` as tcdoc 0.x did: schema 1, no ``not_run``, False for "does not apply"."""
    data = matrix.to_json()
    data["schema"] = 1
    for row in data["rows"]:
        del row["not_run"]
        for field in ("copies_grad", "copies_attributes"):
            if row["properties"] is not None and row["properties"][field] is None:
                row["properties"][field] = False
    return data


def test_schema_1_is_read_and_written_back_as_it_was():
    data = schema_1(tcdoc.matrix(["clone", "deepcopy"], ["no_grad", "non_leaf"]))
    old = tcdoc.Matrix.from_json(data)
    assert old.schema == 1
    assert old.get("clone", "no_grad").properties.copies_grad is False
    assert old.to_json() == data


def test_diff_against_schema_1_does_not_count_no_against_not_applicable():
    new = tcdoc.matrix(["clone", "deepcopy"], ["no_grad", "leaf_requires_grad"])
    old = tcdoc.Matrix.from_json(schema_1(new))
    assert tcdoc.diff(old, new) == ()
    assert tcdoc.diff(new, old) == ()
    # A real "no" against a real "yes" is still a change.
    row = old.get("clone", "leaf_requires_grad")
    copied = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, copies_grad=True))
    changed = dataclasses.replace(old, rows=tuple(copied if r is row else r for r in old.rows))
    assert tcdoc.diff(changed, new) == (
        tcdoc.CellChange("clone", "leaf_requires_grad", "copies_grad", True, False),
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a matrix must be a JSON object, got list"),
        ({"schema": 3, "rows": []}, "unsupported matrix schema 3; this tcdoc reads schema 1 or 2"),
        ({"schema": 2}, "a matrix needs a list of row objects"),
        ({"schema": 2, "rows": [{"operation": "clone"}]}, "malformed matrix row"),
        (
            {"schema": 1, "rows": [{"operation": "a", "scenario": "b", "error": None, "warnings": [],
                                    "properties": None, "not_run": {"reason": "needs numpy"}}]},
            "a schema-1 matrix has no 'not_run' rows",
        ),
        (
            {"schema": 2, "rows": [{"operation": "a", "scenario": "b", "error": {"type": "E", "message": "m"},
                                    "warnings": [], "properties": None, "not_run": {"reason": "r"}}]},
            "exactly one of 'properties', 'error' and 'not_run'",
        ),
    ],
)  # fmt: skip
def test_from_json_rejects_malformed_data(data, message):
    with pytest.raises(ValueError, match=message):
        tcdoc.Matrix.from_json(data)


def test_diff_lists_changed_cells_only():
    old = tcdoc.matrix(["clone", "detach"], ["no_grad", "non_leaf"])
    assert tcdoc.diff(old, old) == ()
    row = old.get("detach", "no_grad")
    changed = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, shares_storage=False))
    new = dataclasses.replace(old, rows=tuple(changed if r is row else r for r in old.rows))
    assert tcdoc.diff(old, new) == (tcdoc.CellChange("detach", "no_grad", "shares_storage", True, False),)
    fewer = dataclasses.replace(old, rows=old.rows[1:])
    (change,) = tcdoc.diff(old, fewer)
    assert (change.operation, change.field, change.old, change.new) == ("clone", "row", "present", None)


def replace_outcome(matrix: tcdoc.Matrix, operation: str, scenario: str, outcome) -> tcdoc.Matrix:
    row = matrix.get(operation, scenario)
    changed = dataclasses.replace(row, outcome=outcome)
    return dataclasses.replace(matrix, rows=tuple(changed if r is row else r for r in matrix.rows))


def test_a_cell_that_starts_or_stops_raising_is_one_change():
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


def test_a_cell_not_run_is_one_change_not_one_per_field():
    old = tcdoc.matrix(["numpy_roundtrip"], ["no_grad", "leaf_requires_grad"])
    new = replace_outcome(old, "numpy_roundtrip", "no_grad", tcdoc.NotRun("needs numpy"))
    assert tcdoc.diff(old, new) == (
        tcdoc.CellChange("numpy_roundtrip", "no_grad", "outcome", "measured", "not run: needs numpy"),
    )


def test_a_missing_optional_package_is_not_run_not_an_error(monkeypatch):
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


def test_operations_that_need_a_package_say_so():
    needing = {op.name: op.needs for op in tcdoc.operations(include_unavailable=True) if op.needs}
    assert needing == {"numpy_roundtrip": ("numpy",)}
