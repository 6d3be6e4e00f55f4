"""The checks of the claims on ``docs/reference/glossary.md``, by the id of each claim's span."""

from __future__ import annotations

import torch

from _checks._helpers import conjugate_bit as _conjugate_bit
from _checks._helpers import hooks_skip_version_check, silently_wrong, stops_backward, version_error_words
from _checks._helpers import version_counter as _counter_shared_by_views_and_detach
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _leaves(matrix: Matrix) -> None:
    made = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        unrecorded = made * 2
    leaves = {
        "a tensor you created": made,
        "a detached result": (made * 2).detach(),
        "a no_grad result": unrecorded,
    }
    leaves["a result of tensors that need no gradient"] = torch.ones(3) * 2
    for name, leaf in leaves.items():
        expect(leaf.is_leaf and leaf.grad_fn is None, f"{name} is not a leaf")
    expect(not (made * 2).is_leaf, "a recorded result is a leaf")


def _inference_tensors(matrix: Matrix) -> None:
    outside = torch.ones(3)  # y, an ordinary tensor
    with torch.inference_mode():
        made, computed = torch.ones(3), outside * 2
    expect(made.is_inference() and computed.is_inference(), "torch.ones(3) or y * 2 under inference_mode()")
    expect(not outside.is_inference() and not (outside * 2).is_inference(), "the same calls outside it")


def _counter_checked(matrix: Matrix) -> None:
    version_error_words(matrix)
    stops_backward(lambda t: t, "the tensor itself")
    stops_backward(lambda t: t[:], "a view")
    hooks_skip_version_check(matrix)
    silently_wrong(lambda t: t.data, ".data")
    x = torch.ones(3)
    before, data = x._version, x.data
    data.add_(1.0)
    expect(data._version == 1 and x._version == before, "x.data does not count on a counter of its own")


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
