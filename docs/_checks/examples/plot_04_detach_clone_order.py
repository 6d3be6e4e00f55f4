"""The claims that ``examples/plot_04_detach_clone_order.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from _checks._helpers import clone_detach_records_first
from tcdoc import Matrix
from tcdoc.claims import Claim, expect, measured

__all__ = ["CLAIMS"]


def _clone_detach_order(matrix: Matrix) -> None:
    expect(
        measured(matrix, "clone", "leaf_requires_grad").grad_fn == "CloneBackward0",
        "clone() recorded nothing",
    )
    clone_detach_records_first(matrix)


def _detach_clone_shares_nothing(matrix: Matrix) -> None:
    report = measured(matrix, "detach_clone", "leaf_requires_grad")
    ok = not report.shares_storage and not report.shares_version_counter and report.grad_fn is None
    expect(ok and not report.gradient_flows_to_source, f"x.detach().clone() measured {report}")


CLAIMS = [
    Claim(
        "shares-nothing",
        _detach_clone_shares_nothing,
        quote="What `x.detach().clone()` shares with `x`: nothing, and it keeps no history",
    ),
    Claim(
        "clone-first",
        _clone_detach_order,
        quote="In `x.clone().detach()` the clone comes first, while `x` is still attached, so autograd "
        "records it "
        "(it gets a `grad_fn`) before `detach()` drops that record. In `x.detach().clone()` the clone "
        "copies a tensor with no history, and nothing is recorded",
    ),
    Claim("dropped", clone_detach_records_first, quote="That record is made just to be dropped"),
]
