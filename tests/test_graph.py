"""tcdoc.graph_memory: nodes and saved bytes of a graph, measured; input checked; tensors left alone."""

from __future__ import annotations

import weakref
from typing import cast

import pytest
import torch

import tcdoc
from tcdoc._graph import graph_nodes


def nbytes(*tensors: torch.Tensor) -> int:
    return sum(t.untyped_storage().nbytes() for t in tensors)


def test_a_tensor_without_history_holds_nothing() -> None:
    x = torch.ones(3, requires_grad=True)
    assert tcdoc.graph_memory(x) == tcdoc.GraphMemory(nodes=0, storages=0, saved_bytes=0, freed=0)
    assert tcdoc.graph_memory((x * 2).detach()).nodes == 0


def test_counts_the_inputs_a_multiplication_saves() -> None:
    w = torch.randn(5, requires_grad=True)
    x = torch.randn(5, requires_grad=True)
    report = tcdoc.graph_memory(w * x)
    assert report.nodes == 3  # MulBackward0 and the two AccumulateGrad nodes
    assert report.storages == 2
    assert report.saved_bytes == nbytes(w, x)
    assert report.freed == 0


def test_saves_only_what_a_needed_gradient_uses() -> None:
    w = torch.randn(5, requires_grad=True)
    x = torch.randn(50)[:5]
    report = tcdoc.graph_memory(w * x)  # w's gradient needs x; x needs none
    assert report.storages == 1
    assert report.saved_bytes == nbytes(x)


def test_a_tensor_saved_twice_is_counted_once() -> None:
    x = torch.randn(7, requires_grad=True)
    report = tcdoc.graph_memory(x * x)
    assert report.storages == 1
    assert report.saved_bytes == nbytes(x)


def test_a_saved_slice_holds_its_whole_storage() -> None:
    big = torch.randn(1000)
    w = torch.randn(10, requires_grad=True)
    report = tcdoc.graph_memory(w * big[:10])
    assert report.saved_bytes == nbytes(big)
    assert report.saved_bytes > big[:10].numel() * big.element_size()


def test_accumulating_losses_grows_the_graph_and_detaching_does_not() -> None:
    w = torch.randn(4, 4, requires_grad=True)
    kept = torch.zeros(())
    cut = torch.zeros(())
    sizes = []
    for _ in range(3):
        loss = (w @ torch.randn(4, 4)).square().sum()
        kept = kept + loss
        cut = cut + loss.detach()
        sizes.append(tcdoc.graph_memory(kept))
    assert sizes[0].nodes < sizes[1].nodes < sizes[2].nodes
    assert sizes[0].saved_bytes < sizes[1].saved_bytes < sizes[2].saved_bytes
    assert tcdoc.graph_memory(cut).nodes == 0


def test_backward_frees_the_saved_tensors_but_the_nodes_stay() -> None:
    w = torch.randn(6, requires_grad=True)
    y = (w * torch.randn(6)).sin().sum()
    before = tcdoc.graph_memory(y)
    y.backward()
    after = tcdoc.graph_memory(y)
    assert before.saved_bytes > 0
    assert before.freed == 0
    assert after.nodes == before.nodes
    assert after.saved_bytes == 0
    assert after.storages == 0
    assert after.freed > 0


def test_counts_what_a_custom_function_saves() -> None:
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):  # type: ignore[no-untyped-def]
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):  # type: ignore[no-untyped-def]
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = torch.randn(9, requires_grad=True)
    report = tcdoc.graph_memory(Square.apply(x))
    assert report.storages == 1
    assert report.saved_bytes == nbytes(x)


def test_leaves_the_tensor_alone() -> None:
    w = torch.randn(3, requires_grad=True)
    y = w * 2
    state = (y._version, w._version, y.requires_grad, w.grad)
    tcdoc.graph_memory(y)
    assert (y._version, w._version, y.requires_grad, w.grad) == state
    y.sum().backward()  # the graph still works
    assert w.grad is not None
    assert torch.equal(w.grad, torch.full((3,), 2.0))


@pytest.mark.parametrize("value", [None, 1.0, [torch.ones(1)]])
def test_rejects_what_is_not_a_tensor(value: object) -> None:
    with pytest.raises(TypeError, match=r"tensor must be a torch\.Tensor, got"):
        tcdoc.graph_memory(value)  # type: ignore[arg-type]  # not a tensor, on purpose


class FleetingNode:
    """A stand-in for a built-in autograd node as torch 2.4 to 2.8 show it in Python.

    Its Python object lives only while something refers to it: asked for again after that, the
    node is a new object, which may take the freed one's ``id``. While one is alive, asking
    again gives that one, as torch does.
    """

    def __init__(self, graph: FleetingGraph, index: int) -> None:
        self.graph, self.index = graph, index

    @property
    def next_functions(self) -> tuple[tuple[FleetingNode, int], ...]:
        return tuple((self.graph.node(child), 0) for child in self.graph.children[self.index])


class FleetingGraph:
    """The nodes' children by index, and the nodes' Python objects that are alive now."""

    def __init__(self, children: dict[int, list[int]]) -> None:
        self.children = children
        self.alive: weakref.WeakValueDictionary[int, FleetingNode] = weakref.WeakValueDictionary()

    def node(self, index: int) -> FleetingNode:
        found = self.alive.get(index)
        if found is None:
            found = self.alive[index] = FleetingNode(self, index)
        return found


@pytest.mark.parametrize(
    "children",
    [
        {0: [1], 1: [2], 2: [3], 3: [4], 4: []},  # a chain, as a long history is
        {0: [1, 2], 1: [3], 2: [3], 3: [4], 4: []},  # a diamond: node 3 reached twice
    ],
    ids=["chain", "diamond"],
)
def test_the_walk_meets_every_node_once_when_node_objects_do_not_last(children: dict[int, list[int]]) -> None:
    root = FleetingGraph(children).node(0)
    met = [cast(FleetingNode, node).index for node in graph_nodes(cast(torch.autograd.graph.Node, root))]
    assert sorted(met) == sorted(children)
