"""Measure what a tensor's autograd graph keeps alive: its nodes and the tensors they saved."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

import torch

__all__ = ["GraphMemory", "graph_memory", "graph_nodes"]


@dataclasses.dataclass(frozen=True)
class GraphMemory:
    """What the autograd graph behind a tensor holds, measured by :func:`graph_memory`.

    Attributes
    ----------
    nodes
        Autograd nodes reachable from the tensor's ``grad_fn`` (0 if it has none).
    storages
        Distinct storages of the tensors those nodes saved for the backward pass and still hold.
    saved_bytes
        The bytes of those storages, each counted once and in full: a saved slice holds its
        whole storage.
    freed
        Saved tensors that a backward pass has already released (reading them now would raise).

    """

    nodes: int
    storages: int
    saved_bytes: int
    freed: int


def graph_memory(tensor: torch.Tensor) -> GraphMemory:
    """Measure the autograd graph that ``tensor`` keeps alive, without running it.

    The walk starts at ``tensor.grad_fn``, follows ``next_functions`` and reads each node's
    saved tensors (the ``_saved_*`` attributes of built-in nodes, ``saved_tensors`` of a
    custom :class:`torch.autograd.Function`). Leaf tensors themselves are not counted:
    their owner holds them anyway. Nothing is changed.

    Parameters
    ----------
    tensor
        The tensor whose history to measure.

    Returns
    -------
    GraphMemory
        The node count and the saved storages and bytes.

    Raises
    ------
    TypeError
        If ``tensor`` is not a :class:`torch.Tensor`.

    Examples
    --------
    >>> import torch, tcdoc
    >>> w = torch.ones(1000, requires_grad=True)
    >>> x = torch.ones(1000)
    >>> tcdoc.graph_memory((w * x).sum())  # w's gradient needs x, so the product saved x
    GraphMemory(nodes=3, storages=1, saved_bytes=4000, freed=0)
    >>> tcdoc.graph_memory((w * x).sum().detach())
    GraphMemory(nodes=0, storages=0, saved_bytes=0, freed=0)

    """
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"tensor must be a torch.Tensor, got {type(tensor).__name__}")
    nodes = 0
    freed = 0
    storages: dict[tuple[torch.device, int], int] = {}
    for node in () if tensor.grad_fn is None else graph_nodes(tensor.grad_fn):
        nodes += 1
        for name in _saved_names(node):
            try:
                value = getattr(node, name)
            except RuntimeError:  # released by a backward pass
                freed += 1
                continue
            for saved in _tensors_in(value):
                storage = saved.untyped_storage()
                storages[(saved.device, storage.data_ptr())] = storage.nbytes()
    return GraphMemory(nodes=nodes, storages=len(storages), saved_bytes=sum(storages.values()), freed=freed)


def graph_nodes(root: torch.autograd.graph.Node) -> Iterator[torch.autograd.graph.Node]:
    """Yield every autograd node reachable from ``root`` once, following ``next_functions``.

    The one walk of a graph in tcdoc: :func:`graph_memory` counts what the nodes saved, and
    :func:`tcdoc.compare` looks among them for the source tensor.

    >>> import torch
    >>> from tcdoc._graph import graph_nodes
    >>> x = torch.ones(2, requires_grad=True)
    >>> [type(node).__name__ for node in graph_nodes((x * 2).sum().grad_fn)]
    ['SumBackward0', 'MulBackward0', 'AccumulateGrad']
    """
    # The walk holds every node it has seen, not only its id: torch 2.4 to 2.8 at least
    # (2.4.1, 2.5.1, 2.6.0, 2.7.1 and 2.8.0 checked; 2.13.0 does not) keep no Python object of
    # a built-in node while nothing refers to it and make a new one when asked again, so a
    # freed node's id could come back as another node's, and that node and all behind it
    # would be skipped.
    seen: dict[int, torch.autograd.graph.Node] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        yield node
        stack.extend(child for child, _ in node.next_functions if child is not None)


_NAMES: dict[type, tuple[str, ...]] = {}


def _saved_names(node: torch.autograd.graph.Node) -> tuple[str, ...]:
    """Return the attributes of ``node`` that hold what it saved for backward."""
    kind = type(node)
    if kind not in _NAMES:
        _NAMES[kind] = tuple(
            name for name in dir(node) if name.startswith("_saved_") or name == "saved_tensors"
        )
    return _NAMES[kind]


def _tensors_in(value: object) -> Iterable[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, tuple | list):
        return [item for item in value if isinstance(item, torch.Tensor)]
    return []
