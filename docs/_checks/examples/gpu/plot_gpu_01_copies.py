"""The claim of ``examples/gpu/plot_gpu_01_copies.py`` that a CPU build checks too.

The example runs only where CUDA does, and its hidden block checks this claim there. On a CPU
build the page still shows the sentence, so the same words are checked here on CPU tensors: what
``copy.deepcopy`` copies does not depend on the device.
"""

from __future__ import annotations

import copy

import torch

from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _deepcopy_with_grad_costs_twice(matrix: Matrix) -> None:
    x = torch.randn(64, 64, requires_grad=True)
    x.grad = torch.ones_like(x)
    deep = copy.deepcopy(x)
    expect(deep.grad is not None and deep.grad is not x.grad, "deepcopy did not copy .grad")
    assert deep.grad is not None
    held = deep.untyped_storage().nbytes() + deep.grad.untyped_storage().nbytes()
    values = x.detach().clone().untyped_storage().nbytes()
    expect(held == 2 * values, f"the deep copy holds {held} bytes, the values {values}")


CLAIMS = [
    Claim(
        "deepcopy-grad",
        _deepcopy_with_grad_costs_twice,
        quote="`copy.deepcopy` also copies `.grad`. Once `x` has a gradient, a deep copy costs twice as "
        "much as `x.detach().clone()`, which copies the values only",
    ),
]
