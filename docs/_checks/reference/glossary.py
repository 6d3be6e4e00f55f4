"""The checks of the claims on ``docs/reference/glossary.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

import torch

from _checks._helpers import (
    IN_PLACE_WRITES,
    autograd_sees_detached_changes,
    each_measured,
    hooks_skip_version_check,
    inference_tensor_has_no_counter,
    silently_wrong,
    stops_backward,
    version_error_words,
)
from tcdoc import Comparison, Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _with_counter(report: Comparison) -> bool:
    """Whether both tensors have a version counter to share (the words speak of ordinary tensors)."""
    return report.shares_version_counter is not None


def _counter_shared_by_views_and_detach(matrix: Matrix) -> None:
    for op in ("detach", "view", "slice", "T", "permute", "expand"):
        for scenario, report in each_measured(matrix, op):
            if _with_counter(report):  # an inference tensor has no counter at all
                expect(report.shares_version_counter, f"{op} on {scenario} has its own counter")
    autograd_sees_detached_changes(matrix)
    for name, write in IN_PLACE_WRITES.items():
        x = torch.ones(3)
        before = x._version
        write(x)
        expect(x._version > before, f"{name} did not increase the counter")
    inference_tensor_has_no_counter()


def _leaves(matrix: Matrix) -> None:
    made = torch.ones(3, requires_grad=True)
    expect(made.is_leaf and made.grad_fn is None, "a tensor you created is not a leaf")
    expect((made * 2).detach().is_leaf, "a detached result is not a leaf")
    with torch.no_grad():
        unrecorded = made * 2
    expect(unrecorded.is_leaf and unrecorded.grad_fn is None, "a result made under no_grad is not a leaf")
    plain = torch.ones(3) * 2
    expect(plain.is_leaf and plain.grad_fn is None, "a result of tensors that need no gradient is not a leaf")
    expect(not (made * 2).is_leaf, "a recorded result is a leaf")


def _counter_checked(matrix: Matrix) -> None:
    version_error_words(matrix)
    stops_backward(lambda t: t, "the tensor itself")
    stops_backward(lambda t: t[:], "a view")
    hooks_skip_version_check(matrix)
    silently_wrong(lambda t: t.data, ".data")
    x = torch.ones(3)
    data = x.data
    data.add_(1.0)
    expect(data._version == 1 and x._version == 0, "x.data does not count on a counter of its own")


def _inference_tensors(matrix: Matrix) -> None:
    outside = torch.ones(3)  # y, an ordinary tensor
    expect(not outside.is_inference(), "torch.ones(3) outside inference mode is an inference tensor")
    with torch.inference_mode():
        made, computed = torch.ones(3), outside * 2
    expect(made.is_inference(), "torch.ones(3) under inference_mode() is not an inference tensor")
    expect(computed.is_inference(), "y * 2 under inference_mode() is not an inference tensor")
    expect(not (outside * 2).is_inference(), "y * 2 outside inference_mode() is an inference tensor")


def _conjugate_bit(matrix: Matrix) -> None:
    x = torch.tensor([1 + 2j, 3 - 1j])
    expect(not x.is_conj(), "a new complex tensor has the conjugate bit")
    lazy = x.conj()
    expect(lazy.is_conj(), "x.conj() does not set the bit")
    # "(or cleared, where x had it)": conj() of a tensor with the flag is a view of the storage without it
    again = lazy.conj()
    expect(not again.is_conj() and again._is_view(), "conj() of a conjugate view kept the flag")
    expect(again.data_ptr() == x.data_ptr(), "conj() of a conjugate view is not a view of x's storage")
    expect(
        shares_memory(x, lazy) and lazy.data_ptr() == x.data_ptr(), "x.conj() is not a view of x's storage"
    )
    resolved = lazy.resolve_conj()
    expect(not resolved.is_conj(), "resolve_conj() kept the bit")
    expect(not shares_memory(resolved, x), "resolve_conj() shares x's memory")
    expect(torch.equal(resolved, torch.tensor([1 - 2j, 3 + 1j])), f"resolve_conj() holds {resolved}")
    # view_as_real reads the memory itself, which it refuses to do while the bit is set.
    memory = torch.view_as_real(resolved)
    expect(
        torch.equal(memory, torch.tensor([[1.0, -2.0], [3.0, 1.0]])),
        f"resolve_conj()'s memory holds {memory}",
    )


CLAIMS = [
    Claim(
        "leaf",
        _leaves,
        words="A tensor that autograd did not produce. It is one you created, one cut from the graph by "
        "`detach()`, or one computed while autograd recorded nothing: under `torch.no_grad()`, or "
        "from tensors that do not require gradients",
    ),
    Claim(
        "inference-tensor",
        _inference_tensors,
        words="A tensor that `x.is_inference()` reports as one. Under `torch.inference_mode()`, a "
        "factory such as `torch.ones(3)` returns one, and so does an operation such as `y * 2` on "
        "an ordinary tensor `y`. The same calls outside inference mode return ordinary tensors",
    ),
    Claim(
        "conjugate-bit",
        _conjugate_bit,
        words="A flag of a complex tensor. `x.conj()` returns a view of `x`'s storage with the flag set "
        "(or cleared, where `x` had it) instead of new values. `x.is_conj()` reads the flag. "
        "`x.resolve_conj()` of a view with the flag returns a tensor of its own memory that holds "
        "the conjugated values, without the flag",
    ),
    Claim(
        "version-counter",
        _counter_shared_by_views_and_detach,
        words="A number that an ordinary tensor shares with its views and with `x.detach()`. In-place "
        "writes such as `add_`, `copy_`, `fill_`, `zero_` and indexed assignment increase it. An "
        "inference tensor made under inference mode has none. Outside inference mode, "
        "`x.detach()` and `x.data` of such a tensor each have one of their own",
    ),
    Claim(
        "version-counter-checked",
        _counter_checked,
        words="Autograd records it when it saves a tensor and checks it in the backward pass. A saved "
        "value changed in place through a tensor that shares its counter (itself, a view, "
        "`x.detach()`) then raises an error instead of giving a wrong gradient. Saved-tensor "
        "hooks that were on when it was saved are the exception. A change through `x.data`, which "
        "has a counter of its own, goes unnoticed",
    ),
]
