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


def _clone_preserves_dense_strides(matrix: Matrix) -> None:
    """Check preserve_format: dense sources keep their strides; gaps, overlaps (the reader's break) don't."""
    x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
    dense = {
        "channels_last": x,
        "transpose": torch.arange(12.0).reshape(3, 4).t(),
        "row-major": torch.ones(3, 4),
    }
    for name, source in dense.items():
        expect(
            source.clone().stride() == source.stride(),
            f"{name}: the clone's strides are {source.clone().stride()}",
        )
    gappy = {
        "x[:, ::2]": torch.arange(12.0).reshape(3, 4)[:, ::2],
        "x[:, :1]": torch.zeros(3, 4)[:, :1],
        "expand": torch.randn(1000).expand(1000, 1000),
    }
    for name, source in gappy.items():
        copied = source.clone()
        expect(copied.stride() != source.stride(), f"{name}: the clone kept the strides {source.stride()}")
        expect(copied.is_contiguous(), f"{name}: the clone's strides {copied.stride()} are not dense")
        expect(
            copied.untyped_storage().nbytes() == copied.numel() * copied.element_size(), f"{name}: not dense"
        )


def _deepcopy_keeps_expand(matrix: Matrix) -> None:
    wide = torch.randn(1000).expand(1000, 1000)
    deep = copy.deepcopy(wide)
    expect(
        deep.stride() == (0, 1) and compare(wide, deep).new_bytes == 4000, f"deepcopy strides {deep.stride()}"
    )
    # The reader's break: a conjugate or negative view of an expand comes back resolved and dense.
    repeated = torch.tensor([1 + 1j]).expand(1000)
    for name, view in {"conj": repeated.conj(), "neg": repeated._neg_view()}.items():
        deep = copy.deepcopy(view)
        resolved = (
            not deep.is_conj() and not deep.is_neg() and torch.equal(deep, view.resolve_conj().resolve_neg())
        )
        expect(resolved, f"{name}: deepcopy kept the bit or changed the values")
        expect(deep.stride() == (1,) and deep.untyped_storage().nbytes() == 8000, f"{name}: {deep.stride()}")


CLAIMS = [
    Claim("copies-values", clone_copies_and_records, quote="`clone()` copies the values"),
    Claim(
        "preserve-format",
        _clone_preserves_dense_strides,
        quote="`clone()` defaults to `memory_format=torch.preserve_format`: when the source covers its "
        "memory without gaps or overlaps, as here, the copy has the same strides as the source. A source "
        "with gaps (the stepped slice below) or overlaps (the `expand` below) gets new, dense strides",
        scope="stated: channels_last, a transpose and a row-major tensor, against two slices and an expand",
    ),
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
        "stride-0 layout and the small memory survive. (Not for a conjugate or negative view: deepcopy "
        "resolves the bit, into new, dense memory.)",
        scope="stated: the expand of the example, against conjugate and negative views of an expand",
    ),
]
