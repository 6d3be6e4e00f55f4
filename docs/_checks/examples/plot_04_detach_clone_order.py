"""The claims that ``examples/plot_04_detach_clone_order.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import warnings

import torch

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


def _torch_tensor_same_copy_for_plain(matrix: Matrix) -> None:
    """Plain tensor: the same report as detach().clone(), with a UserWarning; a subclass: plain Tensor."""

    class Tagged(torch.Tensor):
        pass

    for requires_grad in (True, False):
        x = torch.randn(2, 3, requires_grad=requires_grad)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t = torch.tensor(x)
        expect(any(w.category is UserWarning for w in caught), "torch.tensor(x) did not warn")
        from tcdoc import compare

        expect(
            compare(x, t) == compare(x, x.detach().clone()), "torch.tensor(x) differs from detach().clone()"
        )
    tagged = torch.ones(2).as_subclass(Tagged)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept, plain = type(tagged.detach().clone()), type(torch.tensor(tagged))
    expect(kept is Tagged and plain is torch.Tensor, f"detach().clone() gave {kept}, torch.tensor {plain}")


CLAIMS = [
    Claim(
        "torch-tensor-plain",
        _torch_tensor_same_copy_for_plain,
        quote="For a plain tensor, a third spelling, `torch.tensor(x)`, makes the same copy and warns you "
        "about it; a subclass of {class}`torch.Tensor` comes back from it as a plain `Tensor`",
    ),
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
