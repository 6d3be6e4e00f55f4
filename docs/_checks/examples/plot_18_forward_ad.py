"""The claims that ``examples/plot_18_forward_ad.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

import torch

from _checks._helpers import detach_clone_has_no_tangent, forward_tangents, tangent_of
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _tangents_follow_the_graph(matrix: Matrix) -> None:
    forward_tangents(matrix)
    detach_clone_has_no_tangent(matrix)


def _clone_under(
    mode: Callable[[], AbstractContextManager[object]],
) -> Callable[[torch.Tensor], torch.Tensor]:
    """Return a function that clones its tensor under ``mode``."""

    def make(t: torch.Tensor) -> torch.Tensor:
        with mode():
            return t.clone()

    return make


def _grad_modes_part_them(matrix: Matrix) -> None:
    """Check a clone under no_grad (tangent kept, no graph) and under inference_mode (neither)."""
    expect(tangent_of(_clone_under(torch.no_grad)) is not None, "under no_grad the clone dropped the tangent")
    expect(tangent_of(_clone_under(torch.inference_mode)) is None, "under inference_mode the clone kept it")
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        expect(x.clone().grad_fn is None, "under no_grad the clone recorded a backward graph")


CLAIMS = [
    Claim(
        "tangent",
        _tangents_follow_the_graph,
        quote="With gradients enabled, the copy methods treat the tangent the way they treat the backward "
        "graph: `detach()` drops it, `clone()` carries it along",
    ),
    Claim(
        "grad-modes-part",
        _grad_modes_part_them,
        quote="The grad modes part the two: under {class}`torch.no_grad` a clone records no backward graph "
        "yet keeps the tangent, and under {class}`torch.inference_mode` it keeps neither",
    ),
    Claim(
        "detach-clone",
        detach_clone_has_no_tangent,
        quote="`detach().clone()` copies the values only, so it has no tangent either",
        scope="stated: detach().clone()",
    ),
]
