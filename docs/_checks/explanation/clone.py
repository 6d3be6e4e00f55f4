"""The checks of the claims on ``docs/explanation/clone.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

import torch

from _checks._helpers import (
    backward,
    built_source,
    clone_copies_and_records,
    clone_detach_records_first,
    each_measured,
    each_measured_under,
)
from tcdoc import GRAD_MODES, Matrix
from tcdoc.claims import EVERYDAY, IN_WORDS, REGISTRY, Claim, Every, expect, measured

__all__ = ["CLAIMS"]


def _clone_independent_yet_connected(matrix: Matrix) -> None:
    for grad_mode in GRAD_MODES:
        for scenario, report in each_measured_under(matrix, "clone", grad_mode):
            expect(not report.shares_storage, f"clone on {scenario} under {grad_mode} shares memory with x")
    for scenario, report in each_measured(matrix, "clone"):  # recorded: grad mode enabled
        if built_source(scenario).requires_grad:
            expect(report.gradient_flows_to_source, f"on {scenario} gradients do not reach x")
    x = torch.ones(3, requires_grad=True)
    y = x.clone()
    with torch.no_grad():
        y.fill_(5.0)
    expect(torch.equal(x.detach(), torch.ones(3)), "writing into the clone changed x")
    backward((2 * y).sum())
    expect(x.grad is not None and torch.equal(x.grad, torch.full((3,), 2.0)), "the gradient did not reach x")


def _clone_is_not_a_leaf(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "clone"):
        if built_source(scenario).requires_grad:
            ok = not report.is_leaf and report.grad_fn == "CloneBackward0" and report.gradient_flows_to_source
            expect(ok, f"clone on {scenario} measured {report}")
    for grad_mode in ("no_grad", "inference_mode"):
        for scenario, report in each_measured_under(matrix, "clone", grad_mode):
            expect(
                report.is_leaf and report.grad_fn is None, f"clone on {scenario} under {grad_mode}: {report}"
            )


def _clone_keeps_requires_grad(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "clone"):
        source = built_source(scenario)
        expect(report.requires_grad == source.requires_grad, f"clone on {scenario} changed requires_grad")
        if not source.requires_grad:
            expect(report.grad_fn is None, f"clone on {scenario} invented a grad_fn")


def _clone_never_copies_grad(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "clone"):
        expect(report.copies_grad is not True, f"clone copied .grad on {scenario}")
    for scenario in ("parameter", "parameter_with_attribute"):
        expect(
            measured(matrix, "clone", scenario).result_type == "Tensor", f"clone on {scenario} is no Tensor"
        )


def _both_orders_agree(matrix: Matrix) -> None:
    for op in ("detach_clone", "clone_detach"):
        for scenario, report in each_measured(matrix, op):
            expect(report.is_leaf and not report.requires_grad, f"{op} on {scenario}: {report}")
            expect(report.grad_fn is None and not report.shares_storage, f"{op} on {scenario}: {report}")


def _preserve_format_is_the_default(matrix: Matrix) -> None:
    doc = torch.Tensor.clone.__doc__ or ""
    expect("memory_format=torch.preserve_format" in doc, "the signature shows another default")
    expect(measured(matrix, "clone", "channels_last").same_strides, "clone lost the channels_last strides")


def _channels_last_strides(matrix: Matrix) -> None:
    expect(measured(matrix, "clone", "channels_last").same_strides, "a plain clone lost the strides")
    expect(not measured(matrix, "clone_contiguous_format", "channels_last").same_strides, "they were kept")


def _strided_slice_packed(matrix: Matrix) -> None:
    # A slice of the transpose keeps its dimension order: column-major strides, densely packed.
    column = torch.arange(48.0).reshape(6, 8).t()[:, ::2]
    packed = column.clone()
    expect(not packed.is_contiguous(), f"the clone of a transposed slice is row-major: {packed.stride()}")
    expect(packed.stride()[0] < packed.stride()[1], f"the dimension order changed: {packed.stride()}")
    expect(
        packed.untyped_storage().nbytes() == packed.numel() * packed.element_size(),
        "the transposed slice's clone is not dense",
    )
    report = measured(matrix, "clone", "strided_view")
    source = built_source("strided_view")
    expect(not source.is_contiguous(), "the slice is dense")
    expect(not report.same_strides, "the clone kept the slice's strides")
    expect(
        report.new_bytes == source.numel() * source.element_size(),
        f"the clone holds {report.new_bytes} bytes",
    )
    expect(source.clone().is_contiguous(), "the clone is not row-major")


def _slice_strides(matrix: Matrix) -> None:
    x = torch.arange(24.0).reshape(4, 6)[:, ::2]
    expect(x.stride() == (6, 2), f"the slice has strides {x.stride()}")
    expect(x.clone().stride() == (3, 1), f"the clone has strides {x.clone().stride()}")


def _expand_materialised(matrix: Matrix) -> None:
    e = torch.ones(3, 1).expand(3, 1000)
    expect(
        e.untyped_storage().nbytes() == 12, f"the expanded tensor holds {e.untyped_storage().nbytes()} bytes"
    )
    expect(
        e.clone().untyped_storage().nbytes() == 4 * e.numel(), "the clone does not hold 4 bytes per element"
    )


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
        words="Where `x` does not require gradients, the clone does not either. `clone()` copies the "
        "history that exists and invents none",
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
