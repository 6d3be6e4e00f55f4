"""What tcdoc needs from torch that differs between the torch releases it supports.

Each function here hides one such difference, so that the measuring modules never branch on
torch themselves. Which path a function takes is found by trying what the installed torch
offers (feature detection), never by reading ``torch.__version__``; the comment at each path
says which releases take it. ``tests/test_compat.py`` runs every path on whichever torch is
installed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import torch

__all__ = ["set_version_counters"]

_Setter = Callable[[Sequence[torch.Tensor], Sequence[int]], None]


def set_version_counters(tensors: Sequence[torch.Tensor], versions: Sequence[int]) -> None:
    """Set the version counter of each of ``tensors`` to the matching value of ``versions``.

    How :func:`tcdoc.compare` undoes the bump it makes to see whether two tensors share a
    counter. torch has no public way to do this; its private
    ``torch._C._autograd._unsafe_set_version_counter`` changed its signature between releases,
    and this function calls whichever form the installed torch has.

    >>> import torch
    >>> from torch.autograd.graph import increment_version
    >>> from tcdoc._compat import set_version_counters
    >>> x = torch.ones(2)
    >>> increment_version(x)
    >>> x._version
    1
    >>> set_version_counters((x,), (0,))
    >>> x._version
    0
    """
    if len(tensors) != len(versions):
        raise ValueError(f"{len(tensors)} tensors but {len(versions)} versions")
    _version_setter()(tuple(tensors), tuple(int(version) for version in versions))


@functools.cache
def _version_setter() -> _Setter:
    """Return a setter of many version counters built on the installed torch's own function.

    Found once, by calling torch's function on a tensor of tcdoc's own, so that a tensor that
    is being measured is never the one a failed call was tried on.
    """
    # Typed as taking anything: torch's type stubs describe only the form of the installed release.
    raw: Callable[..., None] = torch._C._autograd._unsafe_set_version_counter
    with torch.inference_mode(False):  # a tensor with a counter, even inside inference_mode()
        probe = torch.zeros(())
    try:
        # torch 2.7 and newer: two sequences, every tensor set in one call (2.7.1, 2.8.0 and
        # 2.13.0 checked).
        raw((probe,), (0,))
    except TypeError:
        # torch 2.4 to 2.6: one tensor and one int a call; pybind11 refuses the sequences with
        # "incompatible function arguments", a TypeError (2.4.1, 2.5.1 and 2.6.0 checked).
        raw(probe, 0)

        def one_at_a_time(tensors: Sequence[torch.Tensor], versions: Sequence[int]) -> None:
            for tensor, version in zip(tensors, versions, strict=True):
                raw(tensor, version)

        return one_at_a_time
    return raw
