"""Memory format and strides: what a clone looks like inside
=========================================================

A tensor is a block of memory plus *strides*: how many elements to step to reach the next
index along each dimension. Two tensors with the same values can lay them out differently,
for instance images stored ``channels_last`` rather than row-major. Code that relies on
one order sees the difference. ``clone()`` copies the values. This page shows which layout
the copy gets, and how much memory it takes when the source was an ``expand``-ed tensor
that had almost none.
"""

# %%
# ``clone()`` keeps ``channels_last``
# -----------------------------------
# A batch of images in ``channels_last`` order: the channel dimension has stride 1.
import torch

import tcdoc

torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
print(f"{x.stride() = }")
print(f"{x.is_contiguous(memory_format=torch.channels_last) = }")

# %%
# ``clone()`` defaults to ``memory_format=torch.preserve_format``. When the source covers its
# memory without gaps or overlaps, as here, the copy has the same strides as the source. A
# source with gaps (the stepped slice below) or overlaps (the ``expand`` below) gets new,
# dense strides.
c = x.clone()
print(f"{c.stride() = }")
print(f"{c.is_contiguous(memory_format=torch.channels_last) = }")

# sphinx_gallery_start_ignore
from tcdoc.claims import claim


def _clones_that_misbehave() -> list[tuple[str, str]]:
    """Clone every kind of tensor tcdoc builds, in each grad mode; return where the clone went wrong.

    A clone has memory of its own, and autograd records it only where the source requires grad and
    grad mode is on.
    """
    modes = {"enabled": torch.enable_grad, "no_grad": torch.no_grad, "inference_mode": torch.inference_mode}
    wrong = []
    for scenario in tcdoc.scenarios():
        if scenario.needs_cuda and not tcdoc.cuda_available():
            continue
        for mode_name, mode in modes.items():
            source = scenario.build(torch.device("cpu"))
            with mode():
                copied = source.clone()
            recorded = source.requires_grad and mode_name == "enabled"
            grad_fn = type(copied.grad_fn).__name__ if copied.grad_fn is not None else None
            if tcdoc.shares_memory(source, copied) or grad_fn != ("CloneBackward0" if recorded else None):
                wrong.append((scenario.name, mode_name))
    return wrong


_misbehave = _clones_that_misbehave()
claim(
    "`clone()` copies the values",
    torch.equal(c, x) and not tcdoc.shares_memory(c, x) and not _misbehave,
    f"the clone of x shares its memory: {tcdoc.shares_memory(c, x)}; clones that went wrong: {_misbehave}",
)
# sphinx_gallery_end_ignore

# %%
# Asking for row-major order
# --------------------------
# ``clone(memory_format=torch.contiguous_format)`` and :meth:`~torch.Tensor.contiguous`
# both give the usual row-major strides.
print(x.clone(memory_format=torch.contiguous_format).stride(), x.contiguous().stride())

# %%
# :func:`tcdoc.compare` reports the difference in its ``same_strides`` field.
print(f"{tcdoc.compare(x, x.clone()).same_strides = }")
print(f"{tcdoc.compare(x, x.contiguous()).same_strides = }")

# %%
# A transposed tensor keeps its strides too
# -----------------------------------------
# A transpose is dense (it covers its memory without gaps), only in another order. So
# ``clone()`` keeps its order while ``contiguous()`` rewrites it row-major.
m = torch.arange(12.0).reshape(3, 4).t()
print(f"{m.stride() = }")
print(f"{m.clone().stride() = }")
print(f"{m.contiguous().stride() = }")

# sphinx_gallery_start_ignore
claim(
    "A transpose is dense (it covers its memory without gaps), only in another order. So `clone()` keeps its "
    "order while `contiguous()` rewrites it row-major",
    m.clone().stride() == m.stride() == (1, 4)
    and m.contiguous().stride() == (3, 1)
    and torch.equal(m.clone(), m),
    f"strides of m, m.clone(), m.contiguous(): {m.stride()}, {m.clone().stride()}, {m.contiguous().stride()}",
)
# sphinx_gallery_end_ignore

# %%
# A stepped slice gets new, dense strides
# ---------------------------------------
# Every second column is not dense: it skips half of its storage. Its clone cannot keep
# those strides without keeping the gaps. So it is packed into new, dense memory that is
# half the size.
s = torch.arange(12.0).reshape(3, 4)[:, ::2]
print(f"{s.stride() = }")
print(f"{s.clone().stride() = }")
print(f"{s.untyped_storage().nbytes() = }")
print(f"{s.clone().untyped_storage().nbytes() = }")

# %%
# ``clone()`` materialises an ``expand``
# --------------------------------------
# :meth:`~torch.Tensor.expand` repeats a tensor without copying: stride 0 along the new
# dimension. So a million elements sit on a thousand floats of memory.
row = torch.randn(1000)
wide = row.expand(1000, 1000)
print(f"{wide.shape = }")
print(f"{wide.stride() = }")
print(f"{wide.untyped_storage().nbytes() = }")

# %%
# Its clone stores every element. The strides become ordinary row-major ones, and the
# memory grows a thousandfold. ``new_bytes`` counts the bytes of the copy.
wide_copy = wide.clone()
print(f"{wide_copy.stride() = }")
print(f"{wide_copy.untyped_storage().nbytes() = }")
print(f"{tcdoc.compare(wide, wide_copy).new_bytes = }")

# sphinx_gallery_start_ignore
_row_major, _first_column = torch.ones(3, 4), torch.zeros(3, 4)[:, :1]
_dense = {"x": (x, c), "m": (m, m.clone()), "a row-major tensor": (_row_major, _row_major.clone())}
_gappy = {"s": (s, s.clone()), "x[:, :1]": (_first_column, _first_column.clone()), "wide": (wide, wide_copy)}
_strides_changed = [name for name, (source, copied) in _dense.items() if copied.stride() != source.stride()]
_not_packed = [
    name
    for name, (source, copied) in _gappy.items()
    if copied.stride() == source.stride()
    or not copied.is_contiguous()
    or copied.untyped_storage().nbytes() != copied.numel() * copied.element_size()
]
claim(
    "`clone()` defaults to `memory_format=torch.preserve_format`. When the source covers its memory without "
    "gaps or overlaps, as here, the copy has the same strides as the source. A source with gaps (the stepped "
    "slice below) or overlaps (the `expand` below) gets new, dense strides",
    not _strides_changed and not _not_packed,
    f"new strides for the dense {_strides_changed}; strides not new and dense for {_not_packed}",
)
# sphinx_gallery_end_ignore

# %%
# :func:`copy.deepcopy` behaves differently here: it copies the storage and keeps the
# strides. So the stride-0 layout and the small memory survive. (Not for a conjugate or
# negative view: deepcopy resolves the bit, into new, dense memory.)
import copy

wide_deep = copy.deepcopy(wide)
print(f"{wide_deep.stride() = }")
print(f"{tcdoc.compare(wide, wide_deep).new_bytes = }")

# sphinx_gallery_start_ignore
_repeated = torch.tensor([1 + 1j]).expand(1000)
_bits = {"conjugate": _repeated.conj(), "negative": _repeated._neg_view()}
_unresolved = []
for _name, _view in _bits.items():
    _deep = copy.deepcopy(_view)
    if (
        _deep.is_conj()
        or _deep.is_neg()
        or not torch.equal(_deep, _view.resolve_conj().resolve_neg())
        or _deep.stride() != (1,)
        or _deep.untyped_storage().nbytes() != 1000 * _deep.element_size()
    ):
        _unresolved.append(_name)
claim(
    "`copy.deepcopy` behaves differently here: it copies the storage and keeps the strides. So the stride-0 "
    "layout and the small memory survive. (Not for a conjugate or negative view: deepcopy resolves the bit, "
    "into new, dense memory.)",
    wide_deep.stride() == wide.stride() == (0, 1)
    and wide_deep.untyped_storage().nbytes() == row.numel() * row.element_size()
    and not tcdoc.shares_memory(wide_deep, wide)
    and not _unresolved,
    f"the deep copy's strides {wide_deep.stride()}, memory {wide_deep.untyped_storage().nbytes()} bytes; "
    f"views whose bit was not resolved into dense memory: {_unresolved}",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.draw.draw_panels` draws the two results with their storage bars on one scale,
# so that the length of each new bar compares with the storage under ``wide``.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(wide, wide_copy, "wide.clone()", names=("wide", "wide_copy")),
        tcdoc.draw.diagram(wide, wide_deep, "copy.deepcopy(wide)", names=("wide", "wide_deep")),
    ]
)

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Why ``clone()`` keeps layout and history while copying the data:
# :doc:`/explanation/clone`.
