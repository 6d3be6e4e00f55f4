"""The checks of the claims on ``docs/explanation/detach.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.autograd.forward_ad as fwAD

from _checks._helpers import (
    autograd_sees_detached_changes,
    backward,
    backward_after_changing_x,
    data_change_goes_unnoticed,
    detach_copies_nothing,
    detach_in_place_refuses_views,
    each_measured,
    forward_tangents,
    hooks_skip_version_check,
    raises_saying,
    write_through_detached,
)
from tcdoc import Matrix
from tcdoc.claims import EVERYDAY, Claim, ClaimFalse, Every, expect

__all__ = ["CLAIMS", "detach_in_place_spares_inference_views"]


def _detach_same_memory_no_autograd(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "detach"):
        ok = (
            report.new_object
            and report.shares_storage
            and not report.requires_grad
            and report.grad_fn is None
        )
        expect(ok, f"detach on {scenario} measured {report}")


def _metadata_of_its_own(matrix: Matrix) -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d = x.detach()
    d.unsqueeze_(0)
    expect((x.shape, d.shape) == (torch.Size([2, 3]), torch.Size([1, 2, 3])), f"shapes {x.shape}, {d.shape}")
    _growing_resize_moves_x(matrix)  # "the shape of x": a growing resize_ still moves the memory x reads


def _growing_resize_moves_x(matrix: Matrix) -> None:
    x = torch.ones(2, 3, requires_grad=True)
    before = (x.data_ptr(), x.untyped_storage().nbytes())
    d = x.detach()
    d.resize_(100)
    after = (x.data_ptr(), x.untyped_storage().nbytes())
    expect(
        d.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), "d and x no longer share a storage"
    )
    expect(after[0] != before[0] and after[1] == 400, f"x's memory went from {before} to {after}")
    expect(x.shape == torch.Size([2, 3]) and torch.equal(x, torch.ones(2, 3)), f"x became {x}")


def _old_note_disproved(matrix: Matrix) -> None:
    changes: dict[str, Callable[[torch.Tensor], object]] = {
        "resize_": lambda d: d.resize_(3, 2),
        "resize_as_": lambda d: d.resize_as_(torch.ones(6)),
        "set_": lambda d: d.set_(torch.zeros(4)),  # type: ignore[call-overload]  # a tensor is a source too
        "transpose_": lambda d: d.transpose_(0, 1),
    }
    for name, change in changes.items():
        x = torch.ones(2, 3, requires_grad=True)
        d = x.detach()
        try:
            change(d)
        except RuntimeError as error:
            raise ClaimFalse(f"{name} on a detached tensor raised: {error}") from None
        expect(x.shape == torch.Size([2, 3]), f"{name} on the detached tensor changed x's shape")
        expect(torch.equal(x, torch.ones(2, 3)), f"{name} on the detached tensor changed x's values")


def _detached_leaf_stops_gradients(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    d = x.detach().requires_grad_()
    expect(d.is_leaf, "the detached tensor is not a leaf")
    backward((d * 5).sum())
    expect(d.grad is not None and torch.equal(d.grad, torch.full((3,), 5.0)), f"d.grad is {d.grad}")
    expect(x.grad is None, f"x.grad is {x.grad}")


def _detach_in_place(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True) * 2
    expect(not x.is_leaf, "x started as a leaf")
    x.detach_()
    expect(x.is_leaf and not x.requires_grad, "detach_() did not make x a leaf")
    detach_in_place_refuses_views(matrix)
    for mode in (torch.enable_grad, torch.no_grad):
        with mode():
            view = torch.ones(4)[1:]
        raises_saying(view.detach_, "Can't detach views in-place")
    made_outside = torch.ones(4)[1:]
    with torch.inference_mode():  # "called outside": inside, detach_ takes even a view made outside
        made_outside.detach_()
    expect(made_outside._base is not None, "the view made outside inference mode stopped being a view")
    detach_in_place_spares_inference_views(matrix)


def detach_in_place_spares_inference_views(matrix: Matrix) -> None:
    """Outside inference mode, detach_() takes a view that is an inference tensor, and only such a view."""
    plain = torch.zeros(4)
    with torch.inference_mode():
        inference = torch.zeros(4)
        views = {"s[1:3] inside": inference[1:3], "reshape inside": torch.arange(6.0).reshape(2, 3)}
        of_plain = plain[1:3]  # a view of an ordinary tensor, made inside: no inference tensor
    views["s[1:3] outside"] = inference[1:3]
    for name, view in views.items():
        expect(view.is_inference(), f"the view {name} is not an inference tensor")
        expect(view.detach_() is view, f"detach_() outside inference mode did not return the view {name}")
    expect(inference[1:3].untyped_storage().data_ptr() == inference.untyped_storage().data_ptr(), "no view")
    expect(
        not of_plain.is_inference() and of_plain._base is plain, "the view of a plain tensor is not tracked"
    )
    raises_saying(of_plain.detach_, "Can't detach views in-place")


def _saved_x_would_fail(matrix: Matrix) -> None:
    autograd_sees_detached_changes(matrix)
    expect(backward_after_changing_x(torch.sin) is not None, "a change of x that sin saved went through")
    hooks_skip_version_check(matrix)


def _drops_tangent(matrix: Matrix) -> None:
    forward_tangents(matrix)
    with fwAD.dual_level():
        primal = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))  # type: ignore[no-untyped-call]
        with torch.no_grad():
            kept = fwAD.unpack_dual(primal.clone()).tangent  # type: ignore[no-untyped-call]
        with torch.inference_mode():  # the words say "outside inference mode": inside, the clone drops it
            inside = fwAD.unpack_dual(primal.clone()).tangent  # type: ignore[no-untyped-call]
    expect(kept is not None, "under no_grad the clone dropped the tangent")
    expect(inside is None, f"inside inference mode the clone kept the tangent {inside}")


CLAIMS = [
    Claim("same-memory-no-autograd", _detach_same_memory_no_autograd, pin="da23b6dd81", scope="registry"),
    Claim("copies-nothing", detach_copies_nothing, pin="b217f71aa9", scope="registry"),
    Every(
        "shares-memory",
        ops=("detach",),
        expected={"shares_storage": True, "new_bytes": 0, "is_leaf": True, "requires_grad": False},
        pin="8362f3b8bb",
    ),
    Every(
        "shares-both",
        ops=("detach",),
        expected={"shares_version_counter": True},
        scenarios=EVERYDAY,
        pin="6cfcb444e1",
    ),
    Every(
        "parameter-to-tensor",
        ops=("detach",),
        expected={"result_type": "Tensor"},
        scenarios=("parameter", "parameter_with_attribute"),
        pin="84b3ea4166",
    ),
    Claim("write-goes-through", write_through_detached, pin="a7439c558e"),
    Claim("counter-sees-changes", autograd_sees_detached_changes, pin="f3b68c9e0b"),
    Claim("one-change-counts-twice", write_through_detached, pin="e1a066f942"),
    Claim("saved-x-would-fail", _saved_x_would_fail, pin="5aa424aa49"),
    Claim("data-goes-unnoticed", data_change_goes_unnoticed, pin="41c3f46d5a"),
    Claim("own-metadata", _metadata_of_its_own, pin="8b4d64d361"),
    Claim("bytes-not-description", _metadata_of_its_own, pin="3c051e1af3", scope="stated: d and x above"),
    Claim("old-note-no-longer-holds", _old_note_disproved, pin="8ae9da5d60"),
    Claim(
        "growing-resize-moves-x",
        _growing_resize_moves_x,
        pin="079d1ad717",
        scope="stated: d.resize_(100) of a 2x3 x",
    ),
    Claim("drops-tangent", _drops_tangent, pin="22249551ed"),
    Claim("tangent-3", forward_tangents, pin="85912306b5"),
    Claim("requires-grad-makes-a-leaf", _detached_leaf_stops_gradients, pin="85cad491fe"),
    Claim("gradient-landed-in-d", _detached_leaf_stops_gradients, pin="b24b7fd9fc"),
    Claim(
        "in-place-variant",
        _detach_in_place,
        pin="a5093ad2ed",
        scope="stated: called outside inference mode (enable_grad and no_grad), on views, inference ones too",
    ),
]
