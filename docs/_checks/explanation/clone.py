"""The checks of the claims on ``docs/explanation/clone.md``, by the id of each claim's span."""

from __future__ import annotations

import torch

from _checks._helpers import (
    backward,
    built_source,
    clone_copies_and_records,
    clone_detach_records_first,
    each_cell,
    each_measured,
)
from _checks._helpers import both_orders_agree as _both_orders_agree
from tcdoc import Matrix
from tcdoc.claims import EVERYDAY, IN_WORDS, REGISTRY, Claim, Every, expect, measured

__all__ = ["CLAIMS"]


def _clone_history(matrix: Matrix) -> None:
    """Check that a clone keeps requires_grad, and is recorded, not a leaf, only where autograd records."""
    for scenario, report in each_measured(matrix, "clone"):
        recorded = built_source(scenario).requires_grad
        expect(report.requires_grad == recorded, f"clone on {scenario} changed requires_grad")
        history = (
            not report.is_leaf and report.grad_fn == "CloneBackward0" and report.gradient_flows_to_source
        )
        expect(history if recorded else report.grad_fn is None, f"clone on {scenario} measured {report}")
    for grad_mode in ("no_grad", "inference_mode"):
        each_cell(matrix, "clone", lambda r: r.is_leaf and r.grad_fn is None, grad_mode=grad_mode)


def _clone_independent_yet_connected(matrix: Matrix) -> None:
    clone_copies_and_records(matrix)  # new memory in every grad mode
    _clone_history(matrix)
    x = torch.ones(3, requires_grad=True)
    y = x.clone()
    with torch.no_grad():
        y.fill_(5.0)
    expect(torch.equal(x.detach(), torch.ones(3)), "writing into the clone changed x")
    backward((2 * y).sum())
    expect(x.grad is not None and torch.equal(x.grad, torch.full((3,), 2.0)), "the gradient did not reach x")


def _clone_never_copies_grad(matrix: Matrix) -> None:
    each_cell(matrix, "clone", lambda r: r.copies_grad is not True)
    for scenario in ("parameter", "parameter_with_attribute"):
        expect(
            measured(matrix, "clone", scenario).result_type == "Tensor", f"clone on {scenario} is no Tensor"
        )


def _memory_format(matrix: Matrix) -> None:
    """Check that clone() keeps channels_last strides by default, preserve_format, and not when asked."""
    expect("memory_format=torch.preserve_format" in (torch.Tensor.clone.__doc__ or ""), "another default")
    expect(measured(matrix, "clone", "channels_last").same_strides, "a plain clone lost the strides")
    expect(not measured(matrix, "clone_contiguous_format", "channels_last").same_strides, "they were kept")


def _strided_slice_packed(matrix: Matrix) -> None:
    """Check that the clone of a strided slice is dense, in the slice's order of dimensions."""
    x = torch.arange(24.0).reshape(4, 6)[:, ::2]
    expect(
        (x.stride(), x.clone().stride()) == ((6, 2), (3, 1)), f"strides {x.stride()}, {x.clone().stride()}"
    )
    column = torch.arange(48.0).reshape(6, 8).t()[:, ::2]  # column-major strides
    packed = column.clone()
    expect(packed.stride()[0] < packed.stride()[1], f"the dimension order changed: {packed.stride()}")
    dense = packed.untyped_storage().nbytes() == packed.numel() * packed.element_size()
    expect(
        dense and not packed.is_contiguous(), f"the transposed slice's clone has strides {packed.stride()}"
    )
    report, source = measured(matrix, "clone", "strided_view"), built_source("strided_view")
    expect(
        not source.is_contiguous() and source.clone().is_contiguous(), "the slice is dense, or its clone not"
    )
    held = report.new_bytes == source.numel() * source.element_size()
    expect(held and not report.same_strides, f"the clone of the slice measured {report}")


def _expand_materialised(matrix: Matrix) -> None:
    e = torch.ones(3, 1).expand(3, 1000)
    held = (e.untyped_storage().nbytes(), e.clone().untyped_storage().nbytes())
    expect(held == (12, 4 * e.numel()), f"the expanded tensor and its clone hold {held} bytes")


# Claims that share a check, each under its own name.
_clone_is_not_a_leaf = _clone_keeps_requires_grad = _clone_history
_preserve_format_is_the_default = _channels_last_strides = _memory_format
_slice_strides = _strided_slice_packed


CLAIMS = [
    Claim(
        "copies-and-records",
        clone_copies_and_records,
        words="{py:meth}`x.clone() <torch.Tensor.clone>` copies the data of `x` into new memory. Where "
        "`x` requires gradients and autograd records (outside `torch.no_grad()` and "
        "`torch.inference_mode()`), it also records the copy in the autograd graph",
    ),
    Claim(
        "independent-yet-connected",
        _clone_independent_yet_connected,
        words="The result is independent in memory and, when recorded, connected in gradients. Writing "
        "into it never touches `x`, yet a backward pass through it reaches `x`",
        covers=REGISTRY,
    ),
    Every(
        "shares-no-memory",
        ops=("clone",),
        expected={"shares_storage": False},
        words="On {scenarios}, {ops} shares no memory with `x`, so an in-place change to the clone is "
        "invisible to `x`",
    ),
    Every(
        "shares-nothing",
        ops=("clone",),
        expected={"shares_version_counter": False},
        scenarios=EVERYDAY,
        words="On {scenarios}, {ops} does not share the version counter of `x` either, so such a change"
        " is invisible to autograd's checks on `x`",
    ),
    Claim(
        "leaf-or-not",
        _clone_is_not_a_leaf,
        words="Where `x` requires gradients and autograd records, the clone is not a leaf. Its "
        "`grad_fn` is `CloneBackward0`, and gradients flow through it to `x`. Made under "
        "`torch.no_grad()` or `torch.inference_mode()`, it is a leaf with no `grad_fn`",
    ),
    Claim(
        "invents-no-history",
        _clone_keeps_requires_grad,
        words="Where `x` does not require gradients, the clone does not either. `clone()` starts no "
        "history where `x` has none",
    ),
    Claim(
        "never-copies-grad",
        _clone_never_copies_grad,
        words="`clone()` never copies `.grad`, on any kind of `x` tcdoc builds. The clone of a "
        "{py:class}`~torch.nn.Parameter` is a plain `Tensor`",
        covers=REGISTRY,
    ),
    Claim(
        "both-orders-agree",
        _both_orders_agree,
        words="Both orders end in the same place, a new leaf with its own memory and no history",
    ),
    Claim(
        "detach-first",
        clone_detach_records_first,
        words="`x.detach().clone()` is the order to prefer. `x.clone().detach()` first records a copy "
        "in the graph only to cut it off again",
    ),
    Claim(
        "preserve-format",
        _preserve_format_is_the_default,
        words="`clone()` takes a `memory_format` argument. Its default, "
        "{py:data}`torch.preserve_format`, keeps the layout of `x` where it can",
    ),
    Claim(
        "channels-last",
        _channels_last_strides,
        words="A tensor in {py:data}`torch.channels_last` format keeps its strides through a plain "
        "`clone()`. It loses them when the clone is asked for {py:data}`torch.contiguous_format`",
    ),
    Claim(
        "strided-slice",
        _strided_slice_packed,
        words="A strided slice such as `base[:, ::2]` is not dense: its elements have gaps between them"
        " in memory. Its clone packs the elements densely and holds only the bytes of the slice. "
        "The clone keeps the order of the dimensions in memory: row-major for this slice, column-"
        "major for a slice of `base.t()`",
        covers=IN_WORDS,
    ),
    Claim(
        "slice-strides",
        _slice_strides,
        words="The slice skips every other element, with strides `(6, 2)`; the clone packs its elements"
        " densely",
        covers=IN_WORDS,
    ),
    Claim(
        "expand-writes-out",
        _expand_materialised,
        words="A tensor made by {py:meth}`~torch.Tensor.expand` repeats one value without storing it "
        "again, and `clone()` writes every repeat out",
        covers=IN_WORDS,
    ),
    Claim(
        "expand-bytes",
        _expand_materialised,
        words="The expanded tensor holds 12 bytes behind its 3000 elements; its clone holds 4 bytes for"
        " each one",
    ),
]
