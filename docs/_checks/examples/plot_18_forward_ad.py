"""The claims that ``examples/plot_18_forward_ad.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from contextlib import AbstractContextManager

import torch

from _checks._helpers import detach_clone_has_no_tangent, forward_tangents, raises_saying, tangent_of
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _tangents_follow_the_graph(matrix: Matrix) -> None:
    forward_tangents(matrix)
    detach_clone_has_no_tangent(matrix)


def _deepcopy_and_data_drop_it(matrix: Matrix) -> None:
    """Check the reader's break: deepcopy and .data drop a tangent, while deepcopy refuses a non-leaf."""
    expect(tangent_of(copy.deepcopy) is None, "copy.deepcopy kept the tangent")
    expect(tangent_of(lambda t: t.data) is None, ".data kept the tangent")
    raises_saying(lambda: copy.deepcopy(torch.ones(3, requires_grad=True) * 2), "graph leaves")


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


def _lost_tangent_gives_a_wrong_derivative(matrix: Matrix) -> None:
    """X * x has the derivative 2x; with one factor detached, forward AD gives x, and no error."""
    # tangent_of runs at x = 1 with the tangent 3: the derivative of x * x is then 6.
    right, wrong = tangent_of(lambda x: x * x), tangent_of(lambda x: x.detach() * x)
    expect(right is not None and torch.equal(right, torch.full((2,), 6.0)), f"x * x has the tangent {right}")
    expect(wrong is not None and torch.equal(wrong, torch.full((2,), 3.0)), f"x.detach() * x has {wrong}")


CLAIMS = [
    Claim(
        "lost-tangent",
        _lost_tangent_gives_a_wrong_derivative,
        quote="A tangent lost by mistake raises no error: a result computed from the copy together with "
        "tensors that kept theirs gets a wrong derivative",
        scope="stated: x.detach() * x against x * x",
    ),
    Claim(
        "tangent",
        _tangents_follow_the_graph,
        quote="With gradients enabled, `detach()` and `clone()` treat the tangent the way they treat the "
        "backward graph: `detach()` drops it, `clone()` carries it along",
        scope="stated: detach() and clone()",
    ),
    Claim(
        "deepcopy-drops-tangent",
        _deepcopy_and_data_drop_it,
        quote="Not every copy does: {func}`copy.deepcopy`, which refuses a tensor with a backward graph, "
        "drops the tangent silently, and so does `.data`",
        scope="stated: copy.deepcopy and .data, against a non-leaf's backward graph",
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
