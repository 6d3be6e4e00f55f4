"""The claims that ``examples/plot_08_deepcopy_aliasing.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import numpy
import torch

from _checks._helpers import deepcopy_grad_and_attribute_values, tied_model_deepcopy
from tcdoc import Matrix, compare, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _dictionary_view_kept(matrix: Matrix) -> None:
    base = torch.arange(8.0)
    copied = copy.deepcopy({"base": base, "view": base[2:5]})
    expect(shares_memory(copied["view"], copied["base"]), "the copied view left the copied base")
    expect(not shares_memory(copied["base"], base), "the copy shares the original's memory")
    copied["base"][2] = 100.0
    expect(copied["view"][0].item() == 100.0, "the change did not show through the copied view")
    expect(not shares_memory(copy.deepcopy(base), copy.deepcopy(base[2:5])), "two calls kept the link")


def _view_whole_storage(matrix: Matrix) -> None:
    big = torch.zeros(1_000_000)
    small = big[:10]
    expect(copy.deepcopy(small).untyped_storage().nbytes() == 4_000_000, "deepcopy did not copy 4 MB")
    clone = small.clone()
    expect(
        clone.untyped_storage().nbytes() == 40 and compare(small, clone).new_bytes == 40,
        "the clone is bigger",
    )


def _slice_costs_whole_for_plain_only(matrix: Matrix) -> None:
    """Check a plain slice's deepcopy holds the whole storage, and a Parameter slice's only its own."""
    big = torch.arange(1000.0)
    plain = copy.deepcopy(big[:10]).untyped_storage().nbytes()
    expect(plain == 4000, f"a plain slice's deepcopy holds {plain} bytes")
    of_a_slice = copy.deepcopy(big[100:200][:10]).untyped_storage().nbytes()
    expect(of_a_slice == 4000, f"the deepcopy of a slice of a slice holds {of_a_slice} bytes")
    parameter = torch.nn.Parameter(big[:10])
    kept = copy.deepcopy(parameter).untyped_storage().nbytes()
    expect(
        parameter.untyped_storage().nbytes() == 4000 and kept == 40,
        f"a Parameter slice's deepcopy holds {kept}",
    )
    z = torch.randn(1000, dtype=torch.cfloat)
    for name, view in {"conj": z.conj()[:10], "neg": z._neg_view()[:10]}.items():
        held = copy.deepcopy(view).untyped_storage().nbytes()
        expect(held == 80, f"the deepcopy of a {name} slice of 10 elements holds {held} bytes")


def _memo_keeps_plain_sharing(matrix: Matrix) -> None:
    """Check one call keeps a plain view and a tied weight, and splits Parameters and conj/neg views."""
    tied_model_deepcopy(matrix)
    _dictionary_view_kept(matrix)
    w = torch.arange(6.0)
    p1, p2 = torch.nn.Parameter(w), torch.nn.Parameter(w[:3])
    c1, c2 = copy.deepcopy([p1, p2])
    expect(shares_memory(p1, p2) and not shares_memory(c1, c2), "two Parameters kept their sharing")
    z = torch.randn(3, dtype=torch.cfloat)
    for name, view in {"conj": z.conj(), "neg": z._neg_view()}.items():
        cz, cv = copy.deepcopy([z, view])
        expect(shares_memory(z, view) and not shares_memory(cz, cv), f"the {name} view kept its sharing")
        expect(torch.equal(cv, view), f"the {name} view's copy changed its values")
    array = numpy.arange(6.0)
    first, second = torch.from_numpy(array), torch.from_numpy(array)
    first_copy, second_copy = copy.deepcopy([first, second])
    expect(
        shares_memory(first, second) and not shares_memory(first_copy, second_copy),
        "two storages over one array kept their sharing",
    )


CLAIMS = [
    Claim(
        "plain-slice-whole",
        _slice_costs_whole_for_plain_only,
        quote="On plain tensors deepcopy works on whole storages, the memory under the tensors, which is "
        "also why the deepcopy of a small slice of a plain tensor holds the whole storage the slice looks at "
        "(a `Parameter` goes through its own deepcopy, which clones only its elements, and the copy of a "
        "slice with the conjugate or negative bit ends up holding only its elements)",
        scope="stated: plain tensors, against a Parameter and conjugate or negative slices",
    ),
    Claim(
        "memo",
        _memo_keeps_plain_sharing,
        quote="`copy.deepcopy` remembers, for the length of one call, what it has already copied. Plain "
        "tensors that shared one storage before the call (a tensor and a view of it) still share it in the "
        "copy, and a weight used twice stays one tensor; copied in two calls, they come apart. A "
        "`Parameter` is cloned on its own, and conjugate or negative views are copied physically, so "
        "neither keeps the sharing; nor do two storages over the same memory, such as two "
        "`torch.from_numpy()` of one array",
        scope="stated: plain tensors on one storage, against Parameters, conjugate or negative views, and "
        "two storages over one array",
    ),
    Claim(
        "view-in-the-copy",
        _dictionary_view_kept,
        quote="Inside the copy, the view still looks at the copied base, and neither shares memory with the "
        "originals",
    ),
    Claim(
        "shows-through",
        _dictionary_view_kept,
        quote="So a change to the copied base shows through the copied view, as it would in the original",
    ),
    Claim(
        "one-at-a-time",
        _dictionary_view_kept,
        quote="Copied one at a time, the base and the view each get memory of their own, and the link "
        "between "
        "them is gone",
    ),
    Claim(
        "grad-and-attributes",
        deepcopy_grad_and_attribute_values,
        quote="Deepcopy also copies a plain leaf's gradient (one without a history of its own), into a new "
        "tensor, and its Python attributes, as `copy.deepcopy` copies any value (a `Parameter` keeps "
        "neither: see {doc}`plot_09_parameter`)",
        scope="stated: a plain leaf with a string and a list attribute, against a Parameter; a .grad with "
        "history",
    ),
    Claim(
        "whole-storage",
        _view_whole_storage,
        quote="Deepcopy copies the view's whole storage, so the copy holds four megabytes for forty bytes of "
        "values",
    ),
    Claim(
        "clone-elements",
        _view_whole_storage,
        quote="`clone()` copies only the elements of the view, into a storage of their own size",
        scope="stated: the view above",
    ),
]
