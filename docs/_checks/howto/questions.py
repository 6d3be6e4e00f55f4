"""The checks of the claims on ``docs/howto/questions.md``, by the id of each claim's span.

Most answers repeat, in fewer words, a claim of the page they link to, and share its check.
"""

from __future__ import annotations

import torch

from _checks._helpers import as_tensor_returns_x as _as_tensor_returns_x
from _checks._helpers import (
    autograd_sees_detached_changes,
    cells_check,
    clone_copies_and_records,
    clone_detach_records_first,
    data_change_goes_unnoticed,
    data_shares_memory_not_counter,
    detach_copies_nothing,
    detach_fails_only_where_saved,
    each_cell,
    everyday_names,
    module_with_non_leaf,
    parameter_deepcopy_drops,
    state_dict_references,
    tied_module,
    write_through_detached,
)
from _checks._helpers import both_orders_agree as _both_orders_agree
from _checks._helpers import clone_copies_and_records as _clone_stays_in_graph
from _checks._helpers import copy_copy_new_window as _copy_copy_same_memory
from _checks._helpers import copy_copy_of_non_leaf as _copy_copy_new_leaf
from _checks._helpers import deepcopy_plain_grad_and_attributes as _plain_deepcopy_copies_both
from _checks._helpers import deepcopy_refuses_recorded as _deepcopy_refuses_history
from _checks._helpers import like_detach_clone_with_a_warning as _torch_tensor_copies
from tcdoc import Matrix
from tcdoc.claims import IN_WORDS, Claim, expect

__all__ = ["CLAIMS"]


def _clone_new_memory(matrix: Matrix) -> None:
    clone_copies_and_records(matrix)  # new memory on every kind of x, in every grad mode
    x = torch.ones(3)
    x.clone().add_(1)
    expect(torch.equal(x, torch.ones(3)), "a write into the clone reached x")


def _clone_gradients(matrix: Matrix) -> None:
    """Check that gradients through a clone reach x while autograd records, and not under no_grad."""
    names = ("leaf_requires_grad", "non_leaf", "parameter")
    each_cell(matrix, "clone", lambda r: r.gradient_flows_to_source is True, names)
    each_cell(
        matrix, "clone", lambda r: r.grad_fn is None and r.gradient_flows_to_source is False, names, "no_grad"
    )


def _detach_copies_nothing(matrix: Matrix) -> None:
    detach_copies_nothing(matrix)
    each_cell(
        matrix, "detach", lambda r: r.shares_storage and r.shares_version_counter is True, everyday_names()
    )


_deepcopy_no_history = cells_check("deepcopy", lambda r: r.is_leaf and r.grad_fn is None, everyday_names())


def _detach_change_counted(matrix: Matrix) -> None:
    write_through_detached(matrix)  # both version counters read 1 after the write
    autograd_sees_detached_changes(matrix)


# Claims that share a check, each under its own name.
_clone_under_no_grad = _clone_gradients


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
