"""tcdoc.probe, the registry and the matrix: every reported fact checked another way."""

from __future__ import annotations

import dataclasses
import json
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
        "leaf_requires_grad", "non_leaf", "no_grad", "parameter", "strided_view", "channels_last", "cuda",
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
    assert data["schema"] == 1
    assert set(data) >= {"schema", "torch", "device", "rows"}
    assert set(data["rows"][0]) == {"operation", "scenario", "error", "warnings", "properties"}
    assert tcdoc.Matrix.from_json(data) == m


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a matrix must be a JSON object, got list"),
        ({"schema": 2, "rows": []}, "unsupported matrix schema 2; expected 1"),
        ({"schema": 1}, "a matrix needs a list of row objects"),
        ({"schema": 1, "rows": [{"operation": "clone"}]}, "malformed matrix row"),
    ],
)
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
