"""The checks of the claims on ``docs/explanation/four-questions.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import (
    each_measured,
    silently_wrong,
    state_dict_shares_both,
    stops_backward,
    version_error_words,
)
from tcdoc import Comparison, Matrix
from tcdoc.claims import Claim, Only, expect, measured

__all__ = ["CLAIMS"]


def _new_objects(matrix: Matrix) -> None:
    for op in ("detach", "clone"):
        expect(measured(matrix, op, "leaf_requires_grad").new_object, f"{op} returned x itself")
    x = torch.ones(2, requires_grad=True)
    d, c = x.detach(), x.clone()
    d.note = c.note = "set on the result"  # type: ignore[attr-defined]
    expect(not hasattr(x, "note"), "an attribute set on a result appeared on x")


def _counter_moves_with_detach(matrix: Matrix) -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d, c = x.detach(), x.clone()
    before = (x._version, c._version)
    d.add_(1)
    expect(x._version == before[0] + 1, "the change through d did not move the counter of x")
    expect(c._version == before[1], "the counter of c moved")


def _sigmoid_saves_its_output(matrix: Matrix) -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.sigmoid()
    expect(torch.equal(b.grad_fn._saved_result, b), "sigmoid did not save its output")  # type: ignore[union-attr]
    stops_backward(lambda t: t.detach(), "detach()")


def _data_and_copy_escape(matrix: Matrix) -> None:
    for op in ("data", "copy"):
        report = measured(matrix, op, "leaf_requires_grad")
        expect(report.shares_storage and not report.shares_version_counter, f"{op} measured {report}")
    silently_wrong(lambda t: t.data, ".data")
    silently_wrong(copy.copy, "copy.copy")


def _views_and_parameters_share(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    flat = x.view(-1)
    expect(flat._is_view() and flat._base is x, "view(-1) is not tracked as a view of x")
    for scenario, report in each_measured(matrix, "parameter_wrap"):
        expect(report.shares_storage and report.new_bytes == 0, f"Parameter(x) on {scenario} copied")


def _shares_both(report: Comparison) -> bool:
    return report.new_object and report.shares_storage and report.shares_version_counter is True


CLAIMS = [
    Claim("new-objects", _new_objects, pin="d1515900a6", scope="stated: the two results d and c"),
    Claim("counter-moves-with-detach", _counter_moves_with_detach, pin="a4b6352bde"),
    Claim(
        "sigmoid-saves-output",
        _sigmoid_saves_its_output,
        pin="ae4079ebb2",
        scope="stated: sigmoid's saved output",
    ),
    Claim(
        "version-error", version_error_words, pin="838761ee47", scope="stated: the error of the snippet above"
    ),
    Claim("data-is-silent", lambda matrix: silently_wrong(lambda t: t.data, ".data"), pin="86eff9e19c"),
    Only(
        "only-detach-of-these",
        ops=("detach",),
        test=_shares_both,
        among=("clone", "detach", "deepcopy", "detach_clone", "data", "copy"),
        scenarios=("leaf_requires_grad",),
        pin="85516c87f9",
    ),
    Claim("data-and-copy-escape", _data_and_copy_escape, pin="abbe13fe1a"),
    Only(
        "shares-both-in-the-registry",
        ops=("detach", "view", "reshape", "parameter_wrap", "slice", "T", "permute", "expand"),
        test=_shares_both,
        scenarios=("leaf_requires_grad",),
        pin="4283db9a08",
    ),
    Claim("why-views-share", _views_and_parameters_share, pin="1be9f07bcb"),
    Claim("state-dict-shares-both", state_dict_shares_both, pin="e60df92a72"),
]
