"""The claims that ``examples/gpu/plot_gpu_03_pinned.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import torch

from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _pin_memory_copies(matrix: Matrix) -> None:
    pageable = torch.randn(1024)
    pinned = pageable.pin_memory()
    expect(pinned.is_pinned() and not pageable.is_pinned(), "pin_memory() did not give pinned memory")
    expect(not shares_memory(pageable, pinned) and torch.equal(pageable, pinned), "pin_memory() is no copy")


def _non_blocking_to_cpu_is_pinned(matrix: Matrix) -> None:
    ones = torch.ones(1024, 1024, device="cuda")
    back = ones.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    expect(back.is_pinned(), "the tensor that .to('cpu', non_blocking=True) returned is not pinned")
    expect(back.sum().item() == ones.numel(), "after synchronizing, the values are not the copied ones")


CLAIMS = [
    Claim(
        "pin-memory",
        _pin_memory_copies,
        quote="`pin_memory()` is itself a copy: the two share no memory",
        needs_cuda=True,
    ),
    Claim(
        "non-blocking-to-cpu",
        _non_blocking_to_cpu_is_pinned,
        quote='The values read after synchronizing are the copied ones. `.to("cpu", '
        "non_blocking=True)` has the "
        "same hazard: it returns a tensor in pinned memory whose values may not be there yet",
        needs_cuda=True,
    ),
]
