"""The checks of the claims on ``docs/index.md``, the landing page's verdict of one line per method.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

from _checks._helpers import deepcopy_grad_and_attribute_values, deepcopy_refuses_non_leaf
from tcdoc import Matrix
from tcdoc.claims import Claim, expect, measured

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
    deepcopy_grad_and_attribute_values(matrix)  # a plain tensor's .grad and attributes, none for a Parameter
    deepcopy_refuses_non_leaf(matrix)


def _verdict_detach_clone(matrix: Matrix) -> None:
    report = measured(matrix, "detach_clone", "leaf_requires_grad")
    ok = not report.shares_storage and report.shares_version_counter is False and report.grad_fn is None
    expect(
        ok and report.is_leaf and not report.gradient_flows_to_source, f"detach().clone() measured {report}"
    )


CLAIMS = [
    Claim("verdict-clone", _verdict_clone, pin="9bceeb6cd2", scope="stated: a leaf that requires grad"),
    Claim("verdict-detach", _verdict_detach, pin="b6c83a7774", scope="stated: a leaf that requires grad"),
    Claim(
        "non-leaf-deepcopy",
        deepcopy_refuses_non_leaf,
        pin="385cc3c57c",
        scope="stated: tensors that are not leaves",
    ),
    Claim(
        "verdict-detach-clone",
        _verdict_detach_clone,
        pin="0996f12030",
        scope="stated: a leaf that requires grad",
    ),
    Claim(
        "verdict-deepcopy",
        _verdict_deepcopy,
        pin="a417af5985",
        scope="stated: a leaf that requires grad; a plain tensor against an nn.Parameter",
    ),
]
