"""Copies across devices: compare() must measure a result on another device without touching it.

Without CUDA, the ``meta`` device stands in for a second device: its tensors have a device,
shapes, strides and autograd history, but no data, so any code that tried to read or index
the other device's memory would fail here as it would on CUDA.
"""

from __future__ import annotations

import pytest
import torch

import tcdoc
from tcdoc.cli import main

TO_META = tcdoc.Operation("to_meta", 'x.to("meta")', "A move to another device.", lambda x: x.to("meta"))
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def test_compare_a_copy_on_another_device() -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    report = tcdoc.compare(x, x.to("meta"))
    assert not report.same_device
    assert not report.shares_storage
    assert not report.shares_version_counter
    assert report.new_bytes == x.untyped_storage().nbytes()
    assert report.grad_fn == "ToCopyBackward0"
    assert report.gradient_flows_to_source


def test_compare_from_another_device_back() -> None:
    source = torch.empty(2, 3, device="meta", requires_grad=True)
    report = tcdoc.compare(source, torch.zeros(2, 3))
    assert not report.same_device
    assert not report.shares_storage
    assert not report.gradient_flows_to_source


def test_probe_of_a_device_move_leaves_the_source_as_it_was() -> None:
    kept = []

    def build(device: torch.device) -> torch.Tensor:
        x = torch.arange(4.0, device=device).requires_grad_()
        x.grad = torch.ones(4)
        kept.append((x, x._version, x.grad))
        return x

    row = tcdoc.probe(TO_META, tcdoc.Scenario("cpu_leaf", "A CPU leaf.", build))
    assert row.error is None
    assert row.properties is not None
    assert not row.properties.same_device
    # The first x built is the one measured; the pairs built after it are compare()'s to write into.
    x, version, grad = kept[0]
    assert x._version == version
    assert x.grad is grad
    assert torch.equal(x.detach(), torch.arange(4.0))


def test_byte_addresses_are_computed_on_the_cpu_whatever_the_device() -> None:
    # Strided views take the slow path that lists byte addresses; on meta, indexing the tensor's own
    # device would fail, as a CPU index mixed with CUDA data would.
    base = torch.empty(4, 6, device="meta")
    assert tcdoc.shares_memory(base[:, ::2], base[1:, ::2])
    assert not tcdoc.shares_memory(base[:, 0::2], base[:, 1::2])


def test_faked_cuda_lists_the_cuda_operations_and_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert {"cuda", "to_cuda"} <= {op.name for op in tcdoc.operations()}
    assert "cuda" in {scenario.name for scenario in tcdoc.scenarios()}
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert not {"cuda", "to_cuda"} & {op.name for op in tcdoc.operations()}


# -- On a machine with CUDA --------------------------------------------------------------


@needs_cuda
@pytest.mark.parametrize("operation", ["cuda", "to_cuda"])
def test_moves_to_cuda_copy_and_keep_history(operation: str) -> None:
    report = tcdoc.probe(operation, "leaf_requires_grad").properties
    assert report is not None
    assert not report.same_device
    assert not report.shares_storage
    assert report.gradient_flows_to_source


@needs_cuda
def test_every_operation_on_the_cuda_scenario_gives_a_row() -> None:
    result = tcdoc.matrix(scenarios=["cuda"], device="cuda")
    assert len(result.rows) == len(tcdoc.operations())
    assert result.environment.device_name == torch.cuda.get_device_name()
    report = result.get("to_cuda", "cuda").properties
    assert report is not None
    assert report.new_object is False


@needs_cuda
def test_command_with_device_cuda(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--device", "cuda", "--op", "clone", "--scenario", "cuda"]) == 0
    out = capsys.readouterr().out
    assert torch.cuda.get_device_name() in out
