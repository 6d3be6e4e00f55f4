"""The checks of the claims on ``docs/explanation/detach.md``, by the id of each claim's span."""

from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable

import torch
import torch.autograd.forward_ad as fwAD

from _checks._helpers import (
    Hooks,
    autograd_sees_detached_changes,
    backward,
    cells_check,
    data_change_goes_unnoticed,
    detach_copies_nothing,
    detach_in_place_refuses_views,
    does_not_raise,
    raises,
    write_through_detached,
)
from _checks._helpers import detach_fails_only_where_saved as _saved_x_would_fail
from tcdoc import Matrix
from tcdoc.claims import EVERYDAY, IN_WORDS, Claim, Every, expect

__all__ = ["CLAIMS"]

_detach_same_memory_no_autograd = cells_check(
    "detach", lambda r: r.new_object and r.shares_storage and not r.requires_grad and r.grad_fn is None
)


def _metadata_of_its_own(matrix: Matrix) -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d = x.detach()
    d.unsqueeze_(0)
    expect((x.shape, d.shape) == (torch.Size([2, 3]), torch.Size([1, 2, 3])), f"shapes {x.shape}, {d.shape}")
    _growing_resize_moves_x(matrix)  # "the shape of x": a growing resize_ still moves the memory x reads


def _growing_resize_moves_x(matrix: Matrix) -> None:
    x = torch.ones(2, 3, requires_grad=True)
    before = x.data_ptr()
    d = x.detach()
    d.resize_(100)
    expect(
        d.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), "d and x no longer share a storage"
    )
    moved = (x.data_ptr(), x.untyped_storage().nbytes())
    expect(moved[0] != before and moved[1] == 400, f"x's memory went from {before} to {moved}")
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
        does_not_raise(functools.partial(change, x.detach()))
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
        raises(view.detach_, "Can't detach views in-place")
    made_outside = torch.ones(4)[1:]
    with torch.inference_mode():  # "called outside": inside, detach_ takes even a view made outside
        made_outside.detach_()
    expect(made_outside._base is not None, "the view made outside inference mode stopped being a view")


def _tangent_of(make: Callable[[torch.Tensor], torch.Tensor], mode: Hooks = contextlib.nullcontext) -> object:
    """Return the forward-mode tangent of ``make(x)`` under ``mode()``, for an x whose tangent is 3."""
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore", DeprecationWarning)  # raised inside torch on some versions
        primal = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))  # type: ignore[no-untyped-call]
        with mode():
            tangent: object = fwAD.unpack_dual(make(primal)).tangent  # type: ignore[no-untyped-call]
    return tangent


def forward_tangents(matrix: Matrix) -> None:
    """Check that a clone carries the tangent 3 (outside inference mode) and the detached tensor none."""
    kept = _tangent_of(lambda t: t.clone())
    expect(
        isinstance(kept, torch.Tensor) and torch.equal(kept, torch.full((2,), 3.0)), f"the clone's: {kept}"
    )
    expect(_tangent_of(lambda t: t.detach()) is None, "detach() kept the tangent")
    expect(_tangent_of(lambda t: t.clone(), torch.no_grad) is not None, "under no_grad the clone dropped it")
    inside = _tangent_of(lambda t: t.clone(), torch.inference_mode)  # "outside inference mode" in the words
    expect(inside is None, f"inside inference mode the clone kept the tangent {inside}")


# Claims that share a check, each under its own name.
_drops_tangent = forward_tangents


CLAIMS = [
    Claim(
        "same-memory-no-autograd",
        _detach_same_memory_no_autograd,
        words="{py:meth}`x.detach() <torch.Tensor.detach>` returns a new tensor object that reads the "
        "same memory as `x` and has no autograd history",
    ),
    Claim(
        "copies-nothing",
        detach_copies_nothing,
        words="It copies nothing: it is a second window onto the bytes of `x`, with its own "
        "`requires_grad=False`",
    ),
    Every(
        "shares-memory",
        ops=("detach",),
        expected={"shares_storage": True, "new_bytes": 0, "is_leaf": True, "requires_grad": False},
        words="On {scenarios}, {ops} shares the storage of `x`, holds no new bytes, and is a leaf that "
        "does not require gradients",
    ),
    Every(
        "shares-both",
        ops=("detach",),
        expected={"shares_version_counter": True},
        scenarios=EVERYDAY,
        words="On {scenarios}, {ops} shares the version counter of `x` as well",
    ),
    Every(
        "parameter-to-tensor",
        ops=("detach",),
        expected={"result_type": "Tensor"},
        scenarios=("parameter", "parameter_with_attribute"),
        words="On {scenarios}, {ops} gives a plain `Tensor`",
    ),
    Claim(
        "write-goes-through",
        write_through_detached,
        words="The write into `d` shows up in `x`, because they are one block of memory",
    ),
    Claim(
        "counter-sees-changes",
        autograd_sees_detached_changes,
        words="Because `d` shares the version counter of `x`, autograd's checks see in-place changes "
        "made through `d`",
    ),
    Claim(
        "one-change-counts-twice",
        write_through_detached,
        words="The single write into `d` counts as one change to `x` as well",
    ),
    Claim(
        "saved-x-would-fail",
        _saved_x_would_fail,
        words="If autograd had saved `x` for a backward pass, that pass would now stop with an error "
        "instead of computing a wrong gradient. No error comes if saved-tensor hooks were on when"
        " it saved `x`",
    ),
    Claim(
        "data-goes-unnoticed",
        data_change_goes_unnoticed,
        words="`x.data` shares the memory without the counter, so the same change goes unnoticed",
    ),
    Claim(
        "own-metadata",
        _metadata_of_its_own,
        words="The result has metadata of its own. So changing its shape in place leaves the shape of "
        "`x` as it was",
    ),
    Claim(
        "bytes-not-description",
        _metadata_of_its_own,
        words="`d` gained a dimension while `x` kept its shape: only the bytes are shared, not the "
        "description of them",
        covers=IN_WORDS,
    ),
    Claim(
        "old-note-no-longer-holds",
        _old_note_disproved,
        words="In torch {tcdoc-env}`torch`, none of the four raises an error on a detached tensor, and "
        "none changes the shape or values of `x`",
    ),
    Claim(
        "growing-resize-moves-x",
        _growing_resize_moves_x,
        words="`d.resize_(100)` grows `d` past the storage it shares with `x`, and the change reaches "
        "`x` too. The storage they share moves to a larger block of memory, so `x.data_ptr()`"
        " changes. The shape and values of `x` stay",
    ),
    Claim(
        "drops-tangent",
        _drops_tangent,
        words="`detach()` drops it, while `clone()` keeps it outside inference mode",
    ),
    Claim(
        "tangent-3",
        forward_tangents,
        words="The clone still carries the tangent `3`, and the detached tensor carries none. "
        "`detach()` cuts forward-mode history just as it cuts the backward graph",
    ),
    Claim(
        "requires-grad-makes-a-leaf",
        _detached_leaf_stops_gradients,
        words="Calling {py:meth}`~torch.Tensor.requires_grad_` on the detached tensor makes it a leaf "
        "of its own, whose gradients stop there",
    ),
    Claim(
        "gradient-landed-in-d",
        _detached_leaf_stops_gradients,
        words="The gradient landed in `d.grad` and `x.grad` stayed `None`",
    ),
    Claim(
        "in-place-variant",
        _detach_in_place,
        words="Outside inference mode, {py:meth}`~torch.Tensor.detach_`, the in-place variant, turns "
        "`x` itself into a leaf, and refuses a view unless the view is an inference tensor",
        covers=IN_WORDS,
    ),
]
