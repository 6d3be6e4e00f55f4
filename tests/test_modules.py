"""Module-level operations: every count of tcdoc.probe_module checked by what the objects do."""

from __future__ import annotations

import warnings

import pytest
import torch

import tcdoc
from tcdoc._modules import named_tensors, trained_model

MODULE_OPS = [op.name for op in tcdoc.module_operations()]
MARK = "tcdoc_mark"
"""A Python attribute of our own (torch.Tensor declares none such): it shows on the same objects only."""


@pytest.mark.parametrize("name", MODULE_OPS)
def test_every_module_row_agrees_with_what_the_objects_do(name: str) -> None:
    row = tcdoc.probe_module(name)
    assert row.error is None
    report = row.properties
    assert report is not None
    # The same call on a fresh model, with what the source had just before it kept aside.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        op = tcdoc.get_module_operation(name)
        model, optimizer = trained_model()
        source = model if op.source == "model" else optimizer
        originals = named_tensors(source)
        aliases = {key: tensor.detach() for key, tensor in originals.items()}
        dtypes = {key: tensor.dtype for key, tensor in originals.items()}
        grads = {key: tensor.grad.clone() for key, tensor in originals.items() if tensor.grad is not None}
        result = op.apply(model, optimizer)
    found = {key: tensor for key, tensor in named_tensors(result).items() if key in originals}

    assert report.new_object == (result is not source)
    assert report.result_type == type(result).__name__
    assert report.tensors == len(found)

    # The same objects: a Python attribute set on one shows on the other.
    for tensor in found.values():
        setattr(tensor, MARK, True)
    assert report.same_tensors == sum(hasattr(tensor, MARK) for tensor in originals.values())

    # Changed in place: the source's tensors no longer have the dtype, or the memory, they had.
    changed = any(
        tensor.dtype != dtypes[key] or tensor.data_ptr() != aliases[key].data_ptr()
        for key, tensor in originals.items()
    )
    assert report.changes_source == changed

    # Gradients carried: a .grad on the result's tensor with the values the source's had.
    carried = sum(
        tensor.grad is not None and torch.equal(tensor.grad.double(), grads[key].double())
        for key, tensor in found.items()
        if key in grads
    )
    assert report.with_grad == (carried if grads else None)
    assert report.requires_grad == sum(tensor.requires_grad for tensor in found.values())

    # Memory: write through each of the result's tensors and look for the change in the old memory.
    shared = 0
    for key, tensor in found.items():
        kept = aliases[key].clone()
        with torch.no_grad():
            tensor.detach().add_(1)
        shared += not torch.equal(aliases[key], kept)
    assert report.shares_storage == shared


def test_module_answers_in_words() -> None:
    to_float64 = tcdoc.probe_module("module_to_float64").properties
    assert to_float64 is not None
    answers = tcdoc.module_answers(to_float64)
    assert answers["new_object"] == "no: it is the model itself"
    assert answers["source"] == "yes: the model itself was changed"
    optimizer = tcdoc.probe_module("optimizer_state_dict").properties
    assert optimizer is not None
    assert tcdoc.module_answers(optimizer, "optimizer")["grads"] == "n/a: x's tensors have no .grad"
    with pytest.raises(TypeError, match="report must be a ModuleComparison, got dict"):
        tcdoc.module_answers({})  # type: ignore[arg-type]  # not a ModuleComparison, on purpose
    with pytest.raises(ValueError, match="source must be 'model' or 'optimizer'"):
        tcdoc.module_answers(to_float64, "layer")


def test_the_model_is_built_without_touching_the_callers_random_state() -> None:
    torch.manual_seed(1)
    expected = torch.rand(3)
    torch.manual_seed(1)
    trained_model()
    assert torch.equal(torch.rand(3), expected)


def test_module_names_are_the_registry_names_and_unknown_ones_are_refused() -> None:
    from tcdoc._names import MODULE_OPERATION_NAMES

    names = tuple(op.name for op in tcdoc.module_operations(include_unavailable=True))
    assert names == MODULE_OPERATION_NAMES
    with pytest.raises(
        ValueError, match="unknown module operation 'state'; choose from: module_to_same_dtype"
    ):
        tcdoc.get_module_operation("state")
    with pytest.raises(TypeError, match="module operation name must be a str, got int"):
        tcdoc.get_module_operation(3)  # type: ignore[arg-type]  # not a str, on purpose
    with pytest.raises(ValueError, match="source must be 'model' or 'optimizer'"):
        tcdoc.ModuleOperation("x", "x", "x", lambda model, optimizer: model, source="layer")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message shown without CUDA")
def test_a_cuda_module_operation_without_cuda_is_a_clear_error() -> None:
    assert "module_to_cuda" not in MODULE_OPS
    with pytest.raises(ValueError, match="module_to_cuda needs CUDA"):
        tcdoc.probe_module("module_to_cuda")
