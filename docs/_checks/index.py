"""The checks of the claims on ``docs/index.md``, the landing page's verdict of one line per method."""

from __future__ import annotations

import copy
import warnings

import torch

from _checks._helpers import (
    deepcopy_plain_grad_and_attributes,
    deepcopy_refuses_non_leaf,
    parameter_deepcopy_drops,
    raises,
)
from tcdoc import Matrix
from tcdoc.claims import IN_WORDS, Claim, expect, measured

__all__ = ["CLAIMS"]


def _verdict_clone(matrix: Matrix) -> None:
    report = measured(matrix, "clone", "leaf_requires_grad")
    ok = not report.shares_storage and bool(report.new_bytes) and report.grad_fn == "CloneBackward0"
    expect(ok and report.gradient_flows_to_source, f"clone measured {report}")


def _verdict_detach(matrix: Matrix) -> None:
    report = measured(matrix, "detach", "leaf_requires_grad")
    ok = report.new_bytes == 0 and report.shares_storage and report.shares_version_counter is True
    expect(ok and not report.gradient_flows_to_source and report.grad_fn is None, f"detach measured {report}")


def _verdict_deepcopy(matrix: Matrix) -> None:
    report = measured(matrix, "deepcopy", "leaf_requires_grad")
    ok = not report.shares_storage and report.is_leaf and report.requires_grad and report.grad_fn is None
    expect(ok and not report.gradient_flows_to_source, f"deepcopy measured {report}")
    deepcopy_plain_grad_and_attributes(matrix)
    parameter_deepcopy_drops(matrix)  # not for an nn.Parameter
    deepcopy_refuses_non_leaf(matrix)
    x = torch.ones(3, requires_grad=True)  # a .grad with a history of its own is no leaf either
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns of the cycle between x and its .grad
        (x**3).sum().backward(create_graph=True)  # type: ignore[no-untyped-call]
    expect(x.grad is not None and x.grad.grad_fn is not None, "backward(create_graph=True) left no history")
    raises(lambda: copy.deepcopy(x))
    x.grad = None  # breaks the cycle


def _verdict_detach_clone(matrix: Matrix) -> None:
    report = measured(matrix, "detach_clone", "leaf_requires_grad")
    ok = not report.shares_storage and report.shares_version_counter is False and report.grad_fn is None
    expect(
        ok and report.is_leaf and not report.gradient_flows_to_source, f"detach().clone() measured {report}"
    )


CLAIMS = [
    Claim(
        "verdict-clone",
        _verdict_clone,
        words="copies the values into new memory and stays in the autograd graph, so gradients through "
        "it reach `x`",
    ),
    Claim(
        "verdict-detach",
        _verdict_detach,
        words="copies nothing: it shares the memory and the version counter of `x`, and is cut from the"
        " graph",
    ),
    Claim(
        "non-leaf-deepcopy",
        deepcopy_refuses_non_leaf,
        words="If `x` is not a leaf (it has autograd history), `copy.deepcopy(x)` does not copy at all",
        covers=IN_WORDS,
    ),
    Claim(
        "verdict-detach-clone",
        _verdict_detach_clone,
        words="For a copy with nothing shared and no history, write `x.detach().clone()`",
    ),
    Claim(
        "verdict-deepcopy",
        _verdict_deepcopy,
        words="copies the values into a new leaf that keeps `requires_grad` but no history. It copies "
        "`.grad` and Python attributes too for a plain tensor, not for an `nn.Parameter`. It "
        "refuses a tensor that is not a leaf",
        covers=IN_WORDS,
    ),
]
