"""The checks of the claims on ``docs/howto/questions.md``, the page of questions people ask.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
Most answers repeat, in fewer words, a claim of the page they link to; their checks reuse that
page's helpers and the measured matrix.
"""

from __future__ import annotations

import copy
import warnings

import torch

from _checks._helpers import (
    autograd_sees_detached_changes,
    backward,
    built_source,
    clone_copies_and_records,
    clone_detach_records_first,
    data_change_goes_unnoticed,
    data_shares_memory_not_counter,
    deepcopy_refuses_non_leaf,
    detach_copies_nothing,
    detach_fails_only_where_saved,
    each_measured,
    everyday_names,
    module_with_non_leaf,
    no_grad_product_is_a_copyable_leaf,
    parameter_deepcopy_drops,
    state_dict_references,
    tied_module,
    where_measured,
    write_through_detached,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import IN_WORDS, Claim, expect, measured

__all__ = ["CLAIMS"]

ADVICE = ("sourceTensor.detach().clone()", "sourceTensor.clone().detach()")
"""The two wordings of the warning of ``torch.tensor(x)`` (its order changed in torch 2.7)."""


def _clone_new_memory(matrix: Matrix) -> None:
    clone_copies_and_records(matrix)  # new memory on every kind of x, in every grad mode
    x = torch.ones(3)
    y = x.clone()
    y.add_(1)
    expect(torch.equal(x, torch.ones(3)), "a write into the clone reached x")


def _clone_stays_in_graph(matrix: Matrix) -> None:
    for scenario in everyday_names():
        if built_source(scenario).requires_grad:
            report = measured(matrix, "clone", scenario)
            expect(report.grad_fn == "CloneBackward0", f"clone of {scenario} has grad_fn {report.grad_fn}")


def _clone_gradients(matrix: Matrix) -> None:
    for scenario in ("leaf_requires_grad", "non_leaf", "parameter"):
        report = measured(matrix, "clone", scenario)
        expect(report.gradient_flows_to_source is True, f"clone of {scenario} measured {report}")


def _clone_under_no_grad(matrix: Matrix) -> None:
    for scenario in ("leaf_requires_grad", "non_leaf", "parameter"):
        report = matrix.get("clone", scenario, "no_grad").properties
        ok = report is not None and report.grad_fn is None and report.gradient_flows_to_source is False
        expect(ok, f"clone of {scenario} under no_grad measured {report}")


def _detach_copies_nothing(matrix: Matrix) -> None:
    detach_copies_nothing(matrix)
    for scenario, report in where_measured(matrix, "detach", everyday_names()):
        ok = report.shares_storage and report.shares_version_counter is True
        expect(ok, f"detach of {scenario} measured {report}")


def _both_orders_agree(matrix: Matrix) -> None:
    for op in ("detach_clone", "clone_detach"):
        for scenario, report in where_measured(matrix, op, everyday_names()):
            ok = report.is_leaf and not report.shares_storage and report.grad_fn is None
            expect(ok and not report.gradient_flows_to_source, f"{op} of {scenario} measured {report}")


def _deepcopy_no_history(matrix: Matrix) -> None:
    for scenario, report in where_measured(matrix, "deepcopy", everyday_names()):
        expect(report.is_leaf and report.grad_fn is None, f"deepcopy of {scenario} measured {report}")


def _deepcopy_refuses_history(matrix: Matrix) -> None:
    deepcopy_refuses_non_leaf(matrix)
    no_grad_product_is_a_copyable_leaf(matrix)  # x * 2 recorded is no leaf; unrecorded, it is
    x = torch.ones(3, requires_grad=True)
    error: RuntimeError | None = None
    try:
        copy.deepcopy(x * 2)
    except RuntimeError as raised:
        error = raised
    expect(error is not None, "deepcopy of x * 2 did not raise")


def _plain_deepcopy_copies_both(matrix: Matrix) -> None:
    report = measured(matrix, "deepcopy", "leaf_requires_grad")
    expect(report.copies_grad is True and report.copies_attributes is True, f"deepcopy measured {report}")


def _copy_copy_same_memory(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "copy"):
        ok = report.new_object and report.shares_storage and not report.shares_version_counter
        expect(ok, f"copy.copy of {scenario} measured {report}")


def _copy_copy_new_leaf(matrix: Matrix) -> None:
    report = measured(matrix, "copy", "non_leaf")
    ok = report.is_leaf and report.requires_grad and not report.gradient_flows_to_source
    expect(ok, f"copy.copy of a non-leaf measured {report}")
    a = torch.ones(3, requires_grad=True)
    c = copy.copy(a * 2)
    backward(c.sum())
    expect(a.grad is None and c.grad is not None, f"a.grad is {a.grad}, c.grad is {c.grad}")


def _torch_tensor_copies(matrix: Matrix) -> None:
    for scenario in everyday_names():
        row, reference = matrix.get("torch_tensor", scenario), matrix.get("detach_clone", scenario)
        expect(
            row.properties == reference.properties,
            f"torch.tensor of {scenario} differs from detach().clone()",
        )
        said = any(advice in w.message for w in row.warnings for advice in ADVICE)
        expect(said, f"torch.tensor of {scenario} warned {[w.message for w in row.warnings]}")
    x = torch.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the warning the sentence names
        expect(not shares_memory(torch.tensor(x), x), "torch.tensor(x) shares the memory of x")


def _as_tensor_returns_x(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "as_tensor"):
        expect(not report.new_object, f"as_tensor of {scenario} made a new object")
    x = torch.ones(3)
    expect(torch.as_tensor(x) is x, "as_tensor(x) did not return x")


def _detach_change_counted(matrix: Matrix) -> None:
    write_through_detached(matrix)  # both version counters read 1 after the write
    autograd_sees_detached_changes(matrix)


CLAIMS = [
    Claim(
        "clone-new-memory",
        _clone_new_memory,
        words="`x.clone()` copies the values of `x` into new memory, so a write into the clone leaves `x` "
        "alone",
    ),
    Claim(
        "clone-stays-in-graph",
        _clone_stays_in_graph,
        words="For an `x` that requires gradients, the clone also stays in the autograd graph, as "
        "`CloneBackward0`",
    ),
    Claim(
        "clone-gradients-reach-x",
        _clone_gradients,
        words="Yes: while autograd records, gradients through `x.clone()` reach `x`",
    ),
    Claim(
        "clone-under-no-grad",
        _clone_under_no_grad,
        words="Under `torch.no_grad()` the clone is not recorded, and no gradient reaches `x` through it",
    ),
    Claim(
        "detach-copies-nothing",
        _detach_copies_nothing,
        words="No: `x.detach()` copies nothing; it shares the memory and the version counter of `x`",
    ),
    Claim(
        "detach-write-shows-in-x",
        write_through_detached,
        words="A write into the detached tensor shows up in `x`",
    ),
    Claim(
        "both-orders-agree",
        _both_orders_agree,
        words="Both give a new leaf with its own memory and no history",
    ),
    Claim(
        "detach-first",
        clone_detach_records_first,
        words="Prefer `x.detach().clone()`: `x.clone().detach()` first records a copy in the graph, then "
        "cuts it off",
    ),
    Claim(
        "deepcopy-no-history",
        _deepcopy_no_history,
        words="No: the deepcopy of a leaf is a new leaf, with no `grad_fn`",
    ),
    Claim(
        "deepcopy-refuses-history",
        _deepcopy_refuses_history,
        words="A tensor with a history, such as `x * 2` for an `x` that requires gradients, is not a leaf, "
        "and deepcopy raises an error for it",
        covers=IN_WORDS,
    ),
    Claim(
        "module-keeps-a-history",
        module_with_non_leaf,
        words="A forward pass run with gradients enabled that stores `self.scale = self.weight * 2` leaves "
        "a tensor with a history on the module, and deepcopy refuses it",
        covers=IN_WORDS,
    ),
    Claim(
        "module-fix",
        module_with_non_leaf,
        words="Store `scale.detach()` and compute with `scale` itself: the module then copies, and its "
        "weight still trains",
    ),
    Claim(
        "parameter-deepcopy-starts-empty",
        parameter_deepcopy_drops,
        words="The deepcopy of an `nn.Parameter` starts without `.grad` and without its Python attributes",
    ),
    Claim(
        "plain-deepcopy-copies-both",
        _plain_deepcopy_copies_both,
        words="The deepcopy of a plain tensor copies both",
    ),
    Claim(
        "data-no-counter",
        data_shares_memory_not_counter,
        words="`x.data` shares the memory of `x`, like `x.detach()`, but not its version counter",
    ),
    Claim(
        "data-silently-wrong",
        data_change_goes_unnoticed,
        words="So autograd misses an in-place change made through it, and a gradient can come out silently "
        "wrong",
    ),
    Claim(
        "copy-copy-same-memory",
        _copy_copy_same_memory,
        words="`copy.copy(x)` gives a new tensor object over the same memory as `x`, with a version counter "
        "of its own",
    ),
    Claim(
        "copy-copy-new-leaf",
        _copy_copy_new_leaf,
        words="Of a tensor that is not a leaf, it makes a new leaf, so gradients stop at the copy",
    ),
    Claim(
        "torch-tensor-copies",
        _torch_tensor_copies,
        words="Yes: for an ordinary tensor, `torch.tensor(x)` gives the same result as `x.detach().clone()`, "
        "with a warning that recommends `detach()` and `clone()`",
    ),
    Claim(
        "as-tensor-returns-x",
        _as_tensor_returns_x,
        words="`torch.as_tensor(x)` of a tensor with the right dtype and device returns `x` itself",
    ),
    Claim(
        "detach-change-counted",
        _detach_change_counted,
        words="`x.detach()` shares the version counter of `x`, so autograd counts an in-place change made "
        "through it",
    ),
    Claim(
        "detach-change-where-saved",
        detach_fails_only_where_saved,
        words="Where autograd saved `x` for the backward pass (after `x.sin()`), `backward()` then raises an"
        " error; after `x + 1` it goes through",
    ),
    Claim(
        "ema-copy-is-separate",
        tied_module,
        words="The copy gets parameters and buffers of its own, and tied weights stay tied inside it",
    ),
    Claim(
        "state-dict-keeps-changing",
        state_dict_references,
        words="`model.state_dict()` returns tensors over the parameters' memory, not copies, so it keeps "
        "changing as training goes on",
    ),
]
