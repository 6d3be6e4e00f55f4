"""Inspect what a tensor shares with another: the heart of every fact tcdoc states.

Every field of :class:`Comparison` answers a question about the two tensors. Where a question
does not apply to the source (there is no ``.grad`` to copy, no Python attribute to keep), the
field is ``None``: "does not apply" is its own answer, never "no". Such fields are typed
``bool | None`` and listed, with the reason, in ``tcdoc._names.NOT_APPLICABLE``.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable

import torch
from torch.autograd.graph import increment_version

from tcdoc._graph import graph_nodes
from tcdoc._names import NOT_APPLICABLE, not_applicable

__all__ = ["QUESTIONS", "Comparison", "answers", "compare", "shares_memory"]


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What ``result`` shares with ``source``, measured on the real tensors.

    Every field is computed by :func:`compare`; none is looked up in a table.

    Attributes
    ----------
    new_object
        ``result is not source``: a new Python object.
    shares_storage
        At least one byte of ``result`` lies in memory that ``source`` also uses.
    shares_version_counter
        An in-place change of one is counted by the other's autograd checks.
    requires_grad
        ``result.requires_grad``.
    is_leaf
        ``result.is_leaf``.
    grad_fn
        The class name of ``result.grad_fn``, or ``None``.
    gradient_flows_to_source
        A backward pass from ``result`` would reach ``source``.
    result_type
        The class name of ``result``, such as ``"Tensor"`` or ``"Parameter"``.
    copies_grad
        ``result`` has its own, separate ``.grad`` with the same values as ``source.grad``;
        ``None`` where ``source`` has no ``.grad``, so there was nothing to copy.
    copies_attributes
        ``result`` has every Python attribute (``__dict__`` entry) that ``source`` has;
        ``None`` where ``source`` has none, so there was nothing to copy.
    same_strides
        ``result.stride() == source.stride()``.
    same_device
        ``result.device == source.device``.
    new_bytes
        Bytes of storage that ``result`` holds and does not share with ``source``.

    """

    new_object: bool
    shares_storage: bool
    shares_version_counter: bool
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None
    gradient_flows_to_source: bool
    result_type: str
    copies_grad: bool | None
    copies_attributes: bool | None
    same_strides: bool
    same_device: bool
    new_bytes: int

    def as_dict(self) -> dict[str, bool | int | str | None]:
        """Return the fields as a plain dictionary, in declaration order.

        >>> import torch, tcdoc
        >>> x = torch.ones(2)
        >>> tcdoc.compare(x, x.detach()).as_dict()["shares_storage"]
        True
        """
        return dataclasses.asdict(self)

    def __repr__(self) -> str:
        width = max(len(field.name) for field in dataclasses.fields(self))
        lines = [
            f"  {name:<{width}}  {value!r}{_note(name, value, '  # ')}"
            for name, value in self.as_dict().items()
        ]
        return "Comparison(\n" + "\n".join(lines) + "\n)"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th>{name}</th><td><code>{value!r}</code>{html.escape(_note(name, value, ' '))}</td></tr>"
            for name, value in self.as_dict().items()
        )
        return f'<table class="tcdoc-comparison">{rows}</table>'


def _note(name: str, value: object, prefix: str) -> str:
    """Say why a field is ``None`` where it does not apply; nothing for any other value."""
    return f"{prefix}{not_applicable(name)}" if value is None and name in NOT_APPLICABLE else ""


def compare(source: torch.Tensor, result: torch.Tensor) -> Comparison:
    """Measure what ``result`` shares with ``source``.

    Both tensors are left exactly as they were: data, ``.grad``, ``requires_grad`` and
    the version counter (``_version``).

    Parameters
    ----------
    source
        The tensor that was copied.
    result
        What the copy method returned.

    Returns
    -------
    Comparison
        The measured properties.

    Raises
    ------
    TypeError
        If either argument is not a :class:`torch.Tensor`.

    Examples
    --------
    >>> import torch, tcdoc
    >>> x = torch.ones(3, requires_grad=True)
    >>> report = tcdoc.compare(x, x.clone())
    >>> report.shares_storage, report.grad_fn, report.gradient_flows_to_source
    (False, 'CloneBackward0', True)
    >>> tcdoc.compare(x, x.detach()).shares_storage
    True

    """
    _check_tensor("source", source)
    _check_tensor("result", result)
    source_grad = _grad_of(source)
    result_grad = _grad_of(result)
    source_attributes = set(vars(source))
    return Comparison(
        new_object=result is not source,
        shares_storage=shares_memory(source, result),
        shares_version_counter=_shares_version_counter(source, result),
        requires_grad=result.requires_grad,
        is_leaf=result.is_leaf,
        grad_fn=None if result.grad_fn is None else type(result.grad_fn).__name__,
        gradient_flows_to_source=_gradient_flows(source, result),
        result_type=type(result).__name__,
        copies_grad=None if source_grad is None else _copies_grad(source_grad, result_grad),
        copies_attributes=None if not source_attributes else source_attributes <= set(vars(result)),
        same_strides=result.stride() == source.stride(),
        same_device=result.device == source.device,
        new_bytes=_new_bytes(source, result),
    )


def shares_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Tell whether any byte of ``a`` is also a byte of ``b``.

    Views with offsets count; two interleaved slices of one storage that touch no common
    byte do not.

    >>> import torch, tcdoc
    >>> base = torch.arange(6)
    >>> tcdoc.shares_memory(base, base[2:])
    True
    >>> tcdoc.shares_memory(base[0::2], base[1::2])
    False
    """
    _check_tensor("a", a)
    _check_tensor("b", b)
    if a.device != b.device or a.numel() == 0 or b.numel() == 0:
        return False
    a_start, a_end = _byte_span(a)
    b_start, b_end = _byte_span(b)
    if a_end <= b_start or b_end <= a_start:
        return False
    if a.is_contiguous() and b.is_contiguous():
        # Dense tensors cover every byte of their spans, so overlapping spans share bytes.
        return True
    return bool(torch.isin(_byte_addresses(a), _byte_addresses(b)).any())


def _check_tensor(name: str, value: object) -> None:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(value).__name__}")


def _copies_grad(source_grad: torch.Tensor, result_grad: torch.Tensor | None) -> bool:
    """Tell whether ``result_grad`` is a separate tensor with the values of ``source_grad``."""
    return (
        result_grad is not None
        and result_grad is not source_grad
        and result_grad.shape == source_grad.shape
        and bool(torch.equal(result_grad.detach().cpu(), source_grad.detach().cpu()))
    )


def _grad_of(tensor: torch.Tensor) -> torch.Tensor | None:
    # Reading .grad of a non-leaf warns; such tensors only have one after retain_grad().
    if tensor.is_leaf or tensor.retains_grad:
        return tensor.grad
    return None


def storage_extent(tensor: torch.Tensor) -> tuple[int, int]:
    """Return the first byte of ``tensor``'s storage that its elements reach, and one past the last.

    Worked out from shape, strides (negative ones too), storage offset and element size; the
    one such walk in tcdoc (:func:`shares_memory` and the drawings use it).

    >>> import torch
    >>> from tcdoc._compare import storage_extent
    >>> storage_extent(torch.arange(6.0)[2:4])
    (8, 16)
    """
    size, offset = tensor.element_size(), int(tensor.storage_offset())
    pairs = [(int(n), int(s)) for n, s in zip(tensor.shape, tensor.stride(), strict=True)]
    low = offset + sum(s * (n - 1) for n, s in pairs if s < 0)
    high = offset + sum(s * (n - 1) for n, s in pairs if s > 0)
    return low * size, (high + 1) * size


def _byte_span(tensor: torch.Tensor) -> tuple[int, int]:
    """Return the first and one-past-last byte address that ``tensor`` can touch."""
    base = tensor.untyped_storage().data_ptr()
    start, end = storage_extent(tensor)
    return base + start, base + end


def _byte_addresses(tensor: torch.Tensor) -> torch.Tensor:
    """Return every byte address that ``tensor``'s elements occupy (for strided tensors)."""
    size = tensor.element_size()
    offsets = torch.zeros((), dtype=torch.int64)
    for n, stride in zip(tensor.shape, tensor.stride(), strict=True):
        offsets = offsets.unsqueeze(-1) + torch.arange(n, dtype=torch.int64) * stride
    starts = tensor.data_ptr() + offsets.flatten() * size
    return (starts.unsqueeze(-1) + torch.arange(size, dtype=torch.int64)).flatten()


def _new_bytes(source: torch.Tensor, result: torch.Tensor) -> int:
    storage = result.untyped_storage()
    if result.device == source.device and storage.data_ptr() == source.untyped_storage().data_ptr():
        return 0
    return storage.nbytes()


def _shares_version_counter(source: torch.Tensor, result: torch.Tensor) -> bool:
    """Bump ``source``'s version counter, see whether ``result``'s moved, then restore both."""
    if result is source:
        return True
    if source.is_inference() or result.is_inference():
        return False  # Inference tensors have no version counter.
    before = (source._version, result._version)
    increment_version(source)
    shared = result._version != before[1]
    torch._C._autograd._unsafe_set_version_counter((source, result), before)
    return shared


def _gradient_flows(source: torch.Tensor, result: torch.Tensor) -> bool:
    """Walk ``result``'s autograd graph (without running it) looking for ``source``."""
    if result is source:
        return source.requires_grad
    if not source.requires_grad or result.grad_fn is None:
        return False
    target = source.grad_fn  # None for a leaf: then look for its AccumulateGrad node.
    for node in graph_nodes(result.grad_fn):
        if target is not None and node is target:
            return True
        if target is None and getattr(node, "variable", None) is source:
            return True
    return False


QUESTIONS = {
    "new_object": "New Python object?",
    "metadata": "Its own metadata?",
    "memory": "New memory?",
    "history": "Autograd history",
}
"""The four questions readers ask of a copy, keyed as in :func:`answers`."""


def answers(report: Comparison, translate: Callable[[str], str] | None = None) -> dict[str, str]:
    """Answer the four questions in words, from a measured :class:`Comparison`.

    The keys are those of ``tcdoc.QUESTIONS``, which maps each to the question itself.
    The words are derived from the fields; nothing here is known in advance about any
    method. ``translate``, if given, receives each English template before it is filled
    (the Sphinx extension passes its message catalogue's lookup).

    >>> import torch, tcdoc
    >>> x = torch.ones(3, requires_grad=True)
    >>> tcdoc.answers(tcdoc.compare(x, x.detach()))["memory"]
    'no: shares the storage of x'
    """
    if not isinstance(report, Comparison):
        raise TypeError(f"report must be a Comparison, got {type(report).__name__}")
    t = _same if translate is None else translate
    if report.is_leaf:
        leaf = t("a leaf")
    else:
        leaf = t("not a leaf (grad_fn {grad_fn})").format(grad_fn=report.grad_fn)
    if report.gradient_flows_to_source:
        history = t("kept: grad_fn {grad_fn}, gradients reach x").format(grad_fn=report.grad_fn)
    elif report.requires_grad:
        history = t("cut: a new leaf that requires grad, gradients stop there")
    else:
        history = t("cut: no grad_fn, requires_grad=False")
    metadata = t("{answer}: {type}, requires_grad={requires_grad}, {leaf}").format(
        answer=t("yes") if report.new_object else t("no"),
        type=report.result_type,
        requires_grad=report.requires_grad,
        leaf=leaf,
    )
    if report.shares_storage:
        memory = t("no: shares the storage of x")
    else:
        memory = t("yes: {new_bytes} new bytes").format(new_bytes=report.new_bytes)
    return {
        "new_object": t("yes") if report.new_object else t("no: it is x itself"),
        "metadata": metadata,
        "memory": memory,
        "history": history,
    }


def _same(text: str) -> str:
    return text
