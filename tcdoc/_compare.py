"""Inspect what a tensor shares with another: the heart of every fact tcdoc states.

Every field of :class:`Comparison` answers a question about the two objects. Where a question
does not apply (there is no ``.grad`` to copy, no conjugate bit to keep, or the result is not a
tensor at all, as ``x.tolist()``'s list is not), the field is ``None``: "does not apply" is its
own answer, never "no". ``tcdoc._names`` lists those fields and says why
(:data:`~tcdoc._names.NOT_APPLICABLE`, :data:`~tcdoc._names.TENSOR_ONLY`).

Sparse tensors have no single storage: their memory is their index and value tensors, and
:func:`shares_memory` and ``new_bytes`` look at those.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Iterator

import torch
from torch.autograd.graph import increment_version

from tcdoc._compat import set_version_counters
from tcdoc._graph import graph_nodes
from tcdoc._names import is_not_applicable, not_applicable

__all__ = ["QUESTIONS", "Comparison", "answers", "compare", "shares_memory"]


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What ``result`` (``y``) shares with ``source`` (``x``), measured on the real objects.

    Every field is computed by :func:`compare`; none is looked up in a table. A field typed
    ``... | None`` is ``None`` where its question does not apply: every field but
    ``new_object``, ``shares_storage``, ``result_type`` and ``result_is_tensor`` where ``y`` is
    not a tensor, and the fields below that say so where ``x`` lacks what they ask about.

    Attributes
    ----------
    new_object
        ``result is not source``: a new Python object. ``False`` means ``y`` *is* ``x``.
    shares_storage
        At least one byte of ``result`` lies in memory that ``source`` also uses (for a result
        that is not a tensor: a tensor inside it does).
    shares_version_counter
        An in-place change of one is counted by the other's autograd checks; ``None`` where
        either is an inference tensor, which has no version counter.
    requires_grad
        ``result.requires_grad``.
    is_leaf
        ``result.is_leaf``.
    grad_fn
        The class name of ``result.grad_fn``, or ``None`` where it has none.
    gradient_flows_to_source
        A backward pass from ``result`` would reach ``source``.
    result_type
        The class name of ``result``, such as ``"Tensor"``, ``"Parameter"`` or ``"list"``.
    copies_grad
        ``result`` has its own, separate ``.grad`` with the same values as ``source.grad``;
        ``None`` where ``source`` has no ``.grad``, so there was nothing to copy.
    copies_attributes
        ``result`` has every Python attribute (``__dict__`` entry) that ``source`` has;
        ``None`` where ``source`` has none, so there was nothing to copy.
    same_strides
        ``result.stride() == source.stride()``; ``None`` where either is sparse.
    same_device
        ``result.device == source.device``.
    new_bytes
        Bytes of storage that ``result`` holds and does not share with ``source``.
    result_is_tensor
        ``result`` is a :class:`torch.Tensor` (of any subclass).
    same_dtype
        ``result.dtype == source.dtype``.
    overlaps_itself
        Two elements of ``result`` are the same bytes (a stride of 0, as ``expand`` makes), so
        torch refuses to write into it in place.
    keeps_hooks
        ``result`` carries every hook registered on ``source`` with ``register_hook``;
        ``None`` where ``source`` has none.
    keeps_conj
        ``result`` has the conjugate bit set, as ``source`` has; ``None`` where ``source``
        has none.
    keeps_inference
        ``result`` is an inference tensor, as ``source`` is; ``None`` where ``source`` is not.

    """

    new_object: bool
    shares_storage: bool
    shares_version_counter: bool | None
    requires_grad: bool | None
    is_leaf: bool | None
    grad_fn: str | None
    gradient_flows_to_source: bool | None
    result_type: str
    copies_grad: bool | None
    copies_attributes: bool | None
    same_strides: bool | None
    same_device: bool | None
    new_bytes: int | None
    result_is_tensor: bool
    same_dtype: bool | None
    overlaps_itself: bool | None
    keeps_hooks: bool | None
    keeps_conj: bool | None
    keeps_inference: bool | None

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
            f"  {name:<{width}}  {value!r}{self._note(name, '  # ')}"
            for name, value in self.as_dict().items()
        ]
        return "Comparison(\n" + "\n".join(lines) + "\n)"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th>{name}</th><td><code>{value!r}</code>{html.escape(self._note(name, ' '))}</td></tr>"
            for name, value in self.as_dict().items()
        )
        return f'<table class="tcdoc-comparison">{rows}</table>'

    def _note(self, name: str, prefix: str) -> str:
        """Say why a field is ``None`` where it does not apply; nothing for any other value."""
        if not is_not_applicable(name, self.as_dict()):
            return ""
        return f"{prefix}{not_applicable(name, self.result_is_tensor)}"


def compare(source: torch.Tensor, result: object) -> Comparison:
    """Measure what ``result`` shares with ``source``.

    Both are left exactly as they were: data, ``.grad``, ``requires_grad`` and the version
    counter (``_version``).

    Parameters
    ----------
    source
        The tensor that was copied.
    result
        What the copy method returned: usually a tensor, but ``x.tolist()`` returns a list,
        and then the questions only a tensor can answer are ``None`` (n/a).

    Returns
    -------
    Comparison
        The measured properties.

    Raises
    ------
    TypeError
        If ``source`` is not a :class:`torch.Tensor`.

    Examples
    --------
    >>> import torch, tcdoc
    >>> x = torch.ones(3, requires_grad=True)
    >>> report = tcdoc.compare(x, x.clone())
    >>> report.shares_storage, report.grad_fn, report.gradient_flows_to_source
    (False, 'CloneBackward0', True)
    >>> tcdoc.compare(x, x.detach()).shares_storage
    True
    >>> listed = tcdoc.compare(x, x.tolist())
    >>> listed.result_type, listed.shares_storage, listed.requires_grad
    ('list', False, None)

    """
    _check_tensor("source", source)
    if not isinstance(result, torch.Tensor):
        return _compare_with_value(source, result)
    source_grad = _grad_of(source)
    result_grad = _grad_of(result)
    source_attributes = set(vars(source))
    source_hooks = _hooks(source)
    strided = source.layout == torch.strided and result.layout == torch.strided
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
        same_strides=result.stride() == source.stride() if strided else None,
        same_device=result.device == source.device,
        new_bytes=_new_bytes(source, result),
        result_is_tensor=True,
        same_dtype=result.dtype == source.dtype,
        overlaps_itself=any(_overlaps_itself(part) for part in _parts(result)),
        keeps_hooks=None if not source_hooks else _keeps_hooks(source_hooks, _hooks(result)),
        keeps_conj=result.is_conj() if source.is_conj() else None,
        keeps_inference=result.is_inference() if source.is_inference() else None,
    )


def _compare_with_value(source: torch.Tensor, result: object) -> Comparison:
    """Compare with a result that is not a tensor: only four questions apply to it."""
    return Comparison(
        new_object=result is not source,
        shares_storage=any(shares_memory(source, tensor) for tensor in _tensors_inside(result)),
        shares_version_counter=None,
        requires_grad=None,
        is_leaf=None,
        grad_fn=None,
        gradient_flows_to_source=None,
        result_type=type(result).__name__,
        copies_grad=None,
        copies_attributes=None,
        same_strides=None,
        same_device=None,
        new_bytes=None,
        result_is_tensor=False,
        same_dtype=None,
        overlaps_itself=None,
        keeps_hooks=None,
        keeps_conj=None,
        keeps_inference=None,
    )


def _tensors_inside(value: object) -> Iterator[torch.Tensor]:
    """Yield every tensor in nested lists, tuples and dicts (none, for ``tolist()``'s numbers)."""
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _tensors_inside(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors_inside(item)


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
    return any(_dense_parts_share(p, q) for p in _parts(a) for q in _parts(b))


def _dense_parts_share(a: torch.Tensor, b: torch.Tensor) -> bool:
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


def _parts(tensor: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Return the strided tensors that hold ``tensor``'s memory: itself, or a sparse tensor's parts.

    Raises
    ------
    ValueError
        For a layout whose memory tcdoc cannot see (neither strided nor sparse).

    """
    layout = tensor.layout
    if layout == torch.strided:
        return (tensor,)
    if layout == torch.sparse_coo:
        return (tensor._indices(), tensor._values())
    if layout in (torch.sparse_csr, torch.sparse_bsr):
        return (tensor.crow_indices(), tensor.col_indices(), tensor.values())
    if layout in (torch.sparse_csc, torch.sparse_bsc):
        return (tensor.ccol_indices(), tensor.row_indices(), tensor.values())
    raise ValueError(f"tcdoc cannot see the memory of a tensor with layout {layout}")


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


def _element_offsets(tensor: torch.Tensor) -> torch.Tensor:
    """Return the storage offset, in elements, of each element of a strided ``tensor``."""
    offsets = torch.tensor(int(tensor.storage_offset()), dtype=torch.int64)
    for n, stride in zip(tensor.shape, tensor.stride(), strict=True):
        offsets = offsets.unsqueeze(-1) + torch.arange(n, dtype=torch.int64) * stride
    return offsets.flatten()


def _byte_addresses(tensor: torch.Tensor) -> torch.Tensor:
    """Return every byte address that ``tensor``'s elements occupy (for strided tensors)."""
    size = tensor.element_size()
    starts = tensor.untyped_storage().data_ptr() + _element_offsets(tensor) * size
    return (starts.unsqueeze(-1) + torch.arange(size, dtype=torch.int64)).flatten()


def _overlaps_itself(tensor: torch.Tensor) -> bool:
    """Tell whether two elements of a strided ``tensor`` are the same bytes.

    Element offsets are whole multiples of the element size, so two elements either are the
    same bytes or share none: counting distinct offsets is enough.
    """
    if tensor.numel() < 2 or tensor.is_contiguous():
        return False
    return len(set(_element_offsets(tensor).tolist())) < tensor.numel()


def _new_bytes(source: torch.Tensor, result: torch.Tensor) -> int:
    """Count the bytes of the storages behind ``result`` that are not storages behind ``source``."""
    owned = {(part.device, part.untyped_storage().data_ptr()) for part in _parts(source)}
    new = {}
    for part in _parts(result):
        storage = part.untyped_storage()
        if (part.device, storage.data_ptr()) not in owned:
            new[(part.device, storage.data_ptr())] = storage.nbytes()
    return sum(new.values())


def _has_version_counter(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` has a version counter: inference tensors refuse to show one."""
    try:
        tensor._version  # noqa: B018 - reading it is the test
    except RuntimeError:
        return False
    return True


def _shares_version_counter(source: torch.Tensor, result: torch.Tensor) -> bool | None:
    """Bump ``source``'s version counter, see whether ``result``'s moved, then restore both.

    ``None`` where either has no version counter (an inference tensor).
    """
    if not (_has_version_counter(source) and _has_version_counter(result)):
        return None
    if result is source:
        return True
    before = (source._version, result._version)
    increment_version(source)
    shared = result._version != before[1]
    set_version_counters((source, result), before)
    return shared


def _hooks(tensor: torch.Tensor) -> list[object]:
    """Return the hooks registered on ``tensor`` with ``register_hook``, oldest first."""
    registered = getattr(tensor, "_backward_hooks", None)
    return list(registered.values()) if registered else []


def _keeps_hooks(source_hooks: list[object], result_hooks: list[object]) -> bool:
    return all(any(hook is kept for kept in result_hooks) for hook in source_hooks)


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
    new = t("yes") if report.new_object else t("no")
    if not report.result_is_tensor:
        kind = t("y is a {type}, not a tensor").format(type=report.result_type)
        if report.shares_storage:
            memory = t("no: a tensor inside it shares the storage of x")
        else:
            memory = t("yes: {kind}").format(kind=kind)
        return {
            "new_object": new,
            "metadata": t("{answer}: {kind}").format(answer=new, kind=kind),
            "memory": memory,
            "history": t("none: {kind}").format(kind=kind),
        }
    if report.is_leaf:
        leaf = t("a leaf")
    else:
        leaf = t("not a leaf (grad_fn {grad_fn})").format(grad_fn=report.grad_fn)
    if not report.new_object:
        history = t("x's own, since y is x")
    elif report.gradient_flows_to_source:
        history = t("kept: grad_fn {grad_fn}, gradients reach x").format(grad_fn=report.grad_fn)
    elif report.requires_grad and report.is_leaf:
        history = t("cut: a new leaf that requires grad, gradients stop there")
    elif report.requires_grad:
        history = t("cut: grad_fn {grad_fn}, but gradients do not reach x").format(grad_fn=report.grad_fn)
    else:
        history = t("cut: no grad_fn, requires_grad=False")
    metadata = t("{answer}: {type}, requires_grad={requires_grad}, {leaf}").format(
        answer=new, type=report.result_type, requires_grad=report.requires_grad, leaf=leaf
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
