"""The checks of the claims on ``docs/explanation/deepcopy.md``, by the id of each claim's span."""

from __future__ import annotations

import copy
import warnings

import numpy
import torch

from _checks._helpers import (
    built_source,
    deepcopy_plain_grad_and_attributes,
    deepcopy_refuses_recorded,
    does_not_raise,
    each_measured,
    module_computed_detached_stops_training,
    module_with_non_leaf,
    parameter_deepcopy_drops,
    raises,
    tied_module,
)
from _checks._helpers import slice_storage as _slice_copies_its_storage
from tcdoc import Matrix, shares_memory
from tcdoc.claims import IN_WORDS, REGISTRY, Claim, Scope, expect

__all__ = ["CLAIMS"]


def _deepcopy_shares_nothing(matrix: Matrix) -> None:
    copied = each_measured(matrix, "deepcopy")
    expect(copied, "deepcopy copied no kind of x")
    for scenario, report in copied:
        ok = not report.shares_storage and not report.shares_version_counter and report.is_leaf
        ok = ok and report.grad_fn is None and report.requires_grad == built_source(scenario).requires_grad
        expect(ok, f"deepcopy on {scenario} measured {report}")
    w = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        inside = copy.deepcopy(w)
        expect(inside.is_inference() and inside.requires_grad and inside.is_leaf, "no inference leaf")
        raises(lambda: inside._version, "do not track version counter")


def _integer_results_are_leaves(matrix: Matrix) -> None:
    x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
    expect(torch.is_grad_enabled(), "grad mode is off")
    for name, result in {"x.argmax()": x.argmax(), "x > 1": x > 1, "(x * 2).long()": (x * 2).long()}.items():
        ok = result.is_leaf and result.grad_fn is None and not result.requires_grad
        expect(ok, f"{name} of an x that requires grad: leaf {result.is_leaf}, grad_fn {result.grad_fn}")
        copied = copy.deepcopy(result)
        expect(torch.equal(copied, result) and not shares_memory(copied, result), f"deepcopy of {name}")


def _refuses_non_leaf_copies_no_grad_product(matrix: Matrix) -> None:
    deepcopy_refuses_recorded(matrix)
    _integer_results_are_leaves(matrix)  # "one with a grad_fn": an integer result is still a leaf


def _old_weight_norm(matrix: Matrix) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old weight_norm is deprecated
        old = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    old(torch.ones(1, 3))
    raises(lambda: copy.deepcopy(old), "103001")
    new = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    new(torch.ones(1, 3))
    does_not_raise(lambda: copy.deepcopy(new))


def aliasing_within_one_call(matrix: Matrix) -> None:
    """Check that one deepcopy call keeps a base and its view together; two calls do with one memo only."""
    base = torch.arange(4.0)
    view = base[1:]
    one_base, one_view = copy.deepcopy([base, view])
    expect(shares_memory(one_base, one_view), "one call did not keep the two together")
    one_base[1] = 100.0
    expect(one_view[0].item() == 100.0 and base[1].item() == 1.0, "the write did not behave")
    expect(not shares_memory(copy.deepcopy(base), copy.deepcopy(view)), "two calls kept the two together")
    memo: dict[int, object] = {}
    copied_base, copied_view = copy.deepcopy(base, memo), copy.deepcopy(view, memo)
    expect(shares_memory(copied_base, copied_view), "two calls with one memo did not keep the pair together")


def _memo_plain_tensors(matrix: Matrix) -> None:
    aliasing_within_one_call(matrix)
    base = torch.arange(4.0)
    pair = [torch.nn.Parameter(base), torch.nn.Parameter(base)]
    expect(not shares_memory(*copy.deepcopy(pair)), "the deep-copied Parameters share memory")
    complex_base = base.to(torch.complex64)
    expect(not shares_memory(*copy.deepcopy([complex_base, complex_base.conj()])), "the conj view is shared")
    negative = complex_base.conj().imag
    ok = negative.is_neg() and negative._is_view() and shares_memory(negative, complex_base)
    expect(ok and negative.layout == torch.strided, "x.conj().imag is no negative view of x")
    expect(not shares_memory(*copy.deepcopy([complex_base, negative])), "the negative view is shared")
    expect(shares_memory(*copy.deepcopy([base, base.detach()])), "x and x.detach() came apart in one call")
    sparse = torch.eye(2).to_sparse()
    copied, copied_detached = copy.deepcopy([sparse, sparse.detach()])
    expect(copied.values().data_ptr() != copied_detached.values().data_ptr(), "the sparse pair still shares")
    array = numpy.arange(4.0)
    first, second = copy.deepcopy([torch.from_numpy(array), torch.from_numpy(array[1:])])
    expect(not shares_memory(first, second), "two storages over the same bytes still overlap after one call")


def parameter_deepcopy_is_its_own(matrix: Matrix) -> None:
    """Check that Parameter defines a deepcopy of its own."""
    expect(torch.nn.Parameter.__deepcopy__ is not torch.Tensor.__deepcopy__, "Parameter uses Tensor's")


def _copy_keeps_parameter_attributes(matrix: Matrix, scope: Scope) -> None:
    for scenario, report in scope.cells(matrix, "copy"):
        ok = report.copies_attributes is True and report.copies_grad is False and report.shares_storage
        expect(ok, f"copy.copy on {scenario} measured {report}")


# Claims that share a check, each under its own name.
_two_calls_one_memo = aliasing_within_one_call


CLAIMS = [
    Claim(
        "shares-nothing",
        _deepcopy_shares_nothing,
        words="On every kind of `x` it copies, the copy shares nothing with `x`. It has new memory and "
        "a new version counter, and it is a new leaf that keeps `requires_grad` but no history. "
        "Inside `torch.inference_mode()` the copy is an inference tensor, with no version counter"
        " at all",
        covers=REGISTRY,
    ),
    Claim(
        "plain-grad-and-attributes",
        deepcopy_plain_grad_and_attributes,
        words="For a plain tensor, `.grad` and Python attributes set on `x` are deep-copied too. The "
        "copy's `.grad` is a new tensor, and an attribute that can change (a list, say) is a new "
        "object",
    ),
    Claim(
        "refuses-non-leaf",
        _refuses_non_leaf_copies_no_grad_product,
        words="A result that autograd recorded, such as `x * 2` for an `x` that requires gradients, has"
        " a `grad_fn`. It is not a leaf, and deepcopy refuses it. The same operation under "
        "`torch.no_grad()` gives a leaf, which deepcopy copies",
        covers=REGISTRY,
    ),
    Claim(
        "integer-results-are-leaves",
        _integer_results_are_leaves,
        words="A result with integer or boolean values, such as `x.argmax()` or `x > 1`, is never "
        "recorded: it is a leaf, and deepcopy copies it",
        covers=IN_WORDS,
    ),
    Claim(
        "module-fix",
        module_with_non_leaf,
        words="The module copies, and its weight still gets a gradient",
    ),
    Claim(
        "module-fix-detached-stops-training",
        module_computed_detached_stops_training,
        words="Computing with `self.weight.detach() * 2` would also make it copyable. But the weight "
        "would silently stop training: its `.grad` stays `None`",
    ),
    Claim(
        "weight-norm",
        _old_weight_norm,
        words="The old {py:func}`torch.nn.utils.weight_norm` is the best-known case: it recomputes the "
        "weight as such an attribute. Its replacement, "
        "{py:func}`torch.nn.utils.parametrizations.weight_norm`, does not",
    ),
    Claim(
        "memo",
        _memo_plain_tensors,
        words="Deepcopy remembers the storages it has copied during one call. So plain dense tensors "
        "that shared one storage, such as a tensor, its views and its `detach()`, still share one "
        "after the copy. A `Parameter`, a conjugate view, a negative view (such as "
        "`x.conj().imag`) and a sparse tensor are copied into memory of their own. So are two "
        "storages that merely cover the same bytes",
    ),
    Claim(
        "pair-kept",
        aliasing_within_one_call,
        words="Writing into the copied base changed the copied view, so the pair kept its relationship."
        " The originals were untouched",
    ),
    Claim(
        "two-calls",
        _two_calls_one_memo,
        words="Two separate calls, `copy.deepcopy(base)` and `copy.deepcopy(view)`, would give two "
        "unrelated copies. Passing both the same `memo` dictionary keeps them together",
    ),
    Claim(
        "whole-storage",
        _slice_copies_its_storage,
        words="For a plain tensor, deepcopy keeps the slice a slice of a copied storage. So it copies "
        "every byte of the storage, including the ones the slice never reads. The copy of a "
        "`Parameter` or of a conjugate view holds only its own elements, as `x.detach().clone()` does",
        covers=IN_WORDS,
    ),
    Claim(
        "ten-elements",
        _slice_copies_its_storage,
        words="Ten elements cost 4000 bytes through deepcopy and 40 through a clone",
    ),
    Claim(
        "parameter-has-its-own",
        parameter_deepcopy_is_its_own,
        words="{py:class}`torch.nn.Parameter` defines its own deepcopy, and it differs from the one for"
        " plain tensors",
    ),
    Claim(
        "parameter-drops-grad-and-attributes",
        parameter_deepcopy_drops,
        words="The deepcopy of a parameter is a `Parameter` again and keeps `requires_grad`. But it "
        "starts without `.grad` and without the Python attributes of `x`, both of which the "
        "deepcopy of a plain leaf copies",
    ),
    Claim(
        "copy-keeps-parameter-attributes",
        _copy_keeps_parameter_attributes,
        words="`copy.copy(x)` keeps its Python attributes (and shares its memory), but not its `.grad`",
    ),
    Claim(
        "module-ties",
        tied_module,
        words="Deepcopying a whole {py:class}`torch.nn.Module` copies every parameter and buffer once, "
        "so weights that were tied stay tied in the copy",
        covers=IN_WORDS,
    ),
    Claim(
        "one-parameter-inside",
        tied_module,
        words="Inside the copy the two layers share one parameter, as in the original, and that "
        "parameter is not the original's",
    ),
]
