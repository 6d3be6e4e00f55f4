"""The claims that ``examples/plot_14_memory_format.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy

import torch

from _checks._helpers import clone_copies_and_records
from tcdoc import Matrix, compare
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _transpose_clone_keeps_order(matrix: Matrix) -> None:
    m = torch.arange(12.0).reshape(3, 4).t()
    expect(m.clone().stride() == m.stride() == (1, 4), f"the clone's strides are {m.clone().stride()}")
    expect(m.contiguous().stride() == (3, 1), "contiguous() did not rewrite it row-major")
    expect(torch.equal(m.clone(), m), "clone() changed the values")


def _deepcopy_keeps_expand(matrix: Matrix) -> None:
    wide = torch.randn(1000).expand(1000, 1000)
    deep = copy.deepcopy(wide)
    expect(
        deep.stride() == (0, 1) and compare(wide, deep).new_bytes == 4000, f"deepcopy strides {deep.stride()}"
    )


CLAIMS = [
    Claim("copies-values", clone_copies_and_records, quote="`clone()` copies the values"),
    Claim(
        "transpose",
        _transpose_clone_keeps_order,
        quote="A transpose is dense (it covers its memory without gaps), only in another order, so `clone()` "
        "keeps its order while `contiguous()` rewrites it row-major",
        scope="idiom: 'only in another order' qualifies the transpose",
    ),
    Claim(
        "deepcopy-expand",
        _deepcopy_keeps_expand,
        quote="`copy.deepcopy` behaves differently here: it copies the storage and keeps the strides, so the "
        "stride-0 layout and the small memory survive",
    ),
]
