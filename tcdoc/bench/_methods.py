"""The catalogue of a sweep: the methods it can time, by name, with their code, and its sizes.

Six methods are operations of tcdoc's registry, which gives their code; four more take a copy's
cost apart. Nothing here measures (:mod:`tcdoc.bench._measure` does) or writes a result.

>>> from tcdoc.bench._methods import LIMIT_METHOD, code_of
>>> LIMIT_METHOD, code_of(LIMIT_METHOD)
('copy_into', 'out.copy_(x)')
"""

from __future__ import annotations

from tcdoc._registry import get_operation

__all__ = [
    "FULL_SIZES",
    "LIMIT_METHOD",
    "METHODS",
    "SMALL_METHODS",
    "SMALL_SIZES",
    "code_of",
    "copies_data",
]

KIB = 1024
MIB = 1024 * KIB

FULL_SIZES: tuple[int, ...] = tuple(KIB * 4**k for k in range(10))
"""The fuller sweep's sizes in bytes, from 1 KiB to 256 MiB in steps of four times."""

SMALL_SIZES: tuple[int, ...] = (KIB, 64 * KIB, 4 * MIB, 64 * MIB)
"""The quick sweep's sizes in bytes (1 KiB, 64 KiB, 4 MiB, 64 MiB), which the documentation runs."""

METHODS: tuple[str, ...] = (
    "detach",
    "clone",
    "detach_clone",
    "deepcopy",
    "torch_tensor",
    "to_copy",
    "empty_like",
    "empty_like_copy",
    "copy_into",
    "mul_out",
)
"""The methods that :func:`tcdoc.bench.run` measures unless told otherwise, by name.

The first six are operations of tcdoc's registry. The last four take the allocation apart:
``torch.empty_like(x)`` only asks for memory, ``torch.empty_like(x).copy_(x)`` asks for it and
writes it, and ``out.copy_(x)`` and ``torch.mul(x, 1, out=out)`` write into a buffer ``out``
allocated (and written) once, before the timing.
"""

SMALL_METHODS: tuple[str, ...] = tuple(m for m in METHODS if m not in ("torch_tensor", "to_copy"))
"""The quick sweep's methods, which the documentation runs: :data:`METHODS` but the look-alikes
``torch.tensor(x)`` and ``x.to(x.dtype, copy=True)``, which do the work of ``x.clone()``."""

# The methods that the registry does not list: they take apart what a copy costs.
_EXTRA_CODE = {
    "empty_like": "torch.empty_like(x)",
    "empty_like_copy": "torch.empty_like(x).copy_(x)",
    "copy_into": "out.copy_(x)",
    "mul_out": "torch.mul(x, 1, out=out)",
}

# The methods that write no copy of x's values: a view, and memory asked for but never written.
_WRITE_NOTHING = frozenset({"detach", "empty_like"})

LIMIT_METHOD = "copy_into"
"""The method whose time at the largest size is the copy limit: a copy into memory already allocated."""


def code_of(method: str) -> str:
    """Return the code a reader would write for ``method``, with the tensor called ``x``.

    ``out`` is a buffer of the same shape as ``x``, allocated before the timing.

    >>> import tcdoc.bench
    >>> tcdoc.bench.code_of("empty_like_copy")
    'torch.empty_like(x).copy_(x)'
    >>> tcdoc.bench.code_of("deepcopy")
    'copy.deepcopy(x)'
    """
    if method in _EXTRA_CODE:
        return _EXTRA_CODE[method]
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    return get_operation(method).code


def copies_data(method: str) -> bool:
    """Say whether ``method`` writes a copy of ``x``'s values (and so reads and writes every byte).

    >>> import tcdoc.bench
    >>> tcdoc.bench.copies_data("clone"), tcdoc.bench.copies_data("empty_like")
    (True, False)
    """
    code_of(method)  # checks the name
    return method not in _WRITE_NOTHING
