"""The claims that ``examples/plot_12_logging_losses.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import itertools

import torch

from _checks._helpers import backward, raises
from tcdoc import Matrix, graph_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _graph_grows_per_batch(matrix: Matrix) -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    total = torch.zeros(())
    held = []
    for _ in range(4):
        total = total + torch.nn.functional.mse_loss(model(torch.randn(4, 8)), torch.randn(4, 1))
        held.append(graph_memory(total).saved_bytes)
    expect(all(a < b for a, b in itertools.pairwise(held)), f"the saved bytes went {held}")


def _chain_after_backward_fails(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    total = torch.zeros(())
    for step in range(3):
        loss = (w * step).exp().sum()
        backward(loss)
        total = total + loss
    error = raises(lambda: backward(total))
    expect("backward through the graph a second time" in str(error), f"the error says: {error}")


def _no_graph_under_no_grad(matrix: Matrix) -> None:
    """Check that a loss summed under no_grad keeps no graph (no grad_fn, no saved bytes)."""
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    total = torch.zeros(())
    with torch.no_grad():
        for _ in range(3):
            total += torch.nn.functional.mse_loss(model(torch.randn(4, 8)), torch.randn(4, 1))
    expect(total.grad_fn is None and not total.requires_grad, f"total has grad_fn {total.grad_fn}")
    expect(graph_memory(total).saved_bytes == 0, "total holds saved tensors")
    with_grad = torch.nn.functional.mse_loss(model(torch.randn(4, 8)), torch.randn(4, 1))
    expect(with_grad.grad_fn is not None, "with gradients enabled the loss recorded no graph either")


CLAIMS = [
    Claim(
        "bytes-grow",
        _graph_grows_per_batch,
        quote="The bytes grow with every batch, because each batch adds its own saved activations "
        "(storages that "
        "all batches share, such as a weight, count once)",
        scope="stated: the example's loop, batch after batch",
    ),
    Claim(
        "no-grad-no-graph",
        _no_graph_under_no_grad,
        quote="Under {class}`torch.no_grad` no backward graph is recorded, so even `total += loss` keeps no "
        "graph",
    ),
    Claim(
        "useless-chain",
        _chain_after_backward_fails,
        quote="That chain is useless: its saved tensors are gone, so a backward pass through `total` fails",
    ),
]
