"""The claims that ``examples/plot_08_deepcopy_aliasing.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import deepcopy_plain_grad_and_attributes, tied_model_deepcopy
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


def _leaf_grad_and_attributes_copied(matrix: Matrix) -> None:
    deepcopy_plain_grad_and_attributes(matrix)


def _view_whole_storage(matrix: Matrix) -> None:
    big = torch.zeros(1_000_000)
    small = big[:10]
    expect(copy.deepcopy(small).untyped_storage().nbytes() == 4_000_000, "deepcopy did not copy 4 MB")
    clone = small.clone()
    expect(
        clone.untyped_storage().nbytes() == 40 and compare(small, clone).new_bytes == 40,
        "the clone is bigger",
    )


CLAIMS = [
    Claim(
        "memo",
        tied_model_deepcopy,
        quote="`copy.deepcopy` remembers, for the length of one call, what it has already copied. Tensors "
        "that "
        "shared memory before the call (a tensor and a view of it, a weight used twice) still share it in "
        "the copy; copied in two calls, they come apart",
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
        _leaf_grad_and_attributes_copied,
        quote="Deepcopy also copies a leaf's gradient and its Python attributes, each into a new object",
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
