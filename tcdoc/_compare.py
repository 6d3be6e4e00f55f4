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
import math
from collections.abc import Callable, Iterator

import torch
from torch.autograd.graph import increment_version

from tcdoc._compat import set_version_counters
from tcdoc._graph import graph_nodes
from tcdoc._locale import english
from tcdoc._names import is_not_applicable, not_applicable
from tcdoc._writes import Remake, measure_writes

__all__ = [
    "QUESTIONS",
    "Comparison",
    "Footprint",
    "StoragePart",
    "answers",
    "compare",
    "footprint",
    "shares_memory",
]


@dataclasses.dataclass(frozen=True)
class Footprint:
    """Where a tensor's memory lay at one moment: each part's device, storage address and layout.

    An operation may move ``x`` itself: ``x.share_memory_()`` copies ``x`` into newly allocated
    shared memory and frees the old. Tensors that share ``x``'s storage move with it; a NumPy
    array taken before the call is left pointing at the freed memory. Given the footprint taken
    before the call (``before=footprint(x)``), :func:`compare` measures memory against ``x`` *as
    it was*, and says whether ``x`` moved. A footprint holds addresses only, never the memory.

    >>> import torch, tcdoc
    >>> x = torch.ones(2, 3)
    >>> before = tcdoc.footprint(x)
    >>> report = tcdoc.compare(x, x.share_memory_(), before=before)
    >>> report.new_object, report.source_moved, report.shares_storage, report.new_bytes
    (False, True, False, 24)
    """

    parts: tuple[StoragePart, ...]
    requires_grad: bool = False  # whether the tensor required grad then: x.detach_() changes it

    @property
    def storages(self) -> frozenset[tuple[str, int]]:
        """The ``(device, data pointer)`` of each storage behind the tensor."""
        return frozenset((part.device, part.base) for part in self.parts)


@dataclasses.dataclass(frozen=True)
class StoragePart:
    """One strided tensor's place in memory, as a :class:`Footprint` holds it: which bytes it covers.

    A dense tensor is one part; a sparse tensor's parts are its index and value tensors.
    ``base`` is the data pointer of the storage, ``nbytes`` its size; ``offset``, ``shape`` and
    ``stride`` are in elements of ``element_size`` bytes, as :meth:`torch.Tensor.stride` gives.
    """

    device: str
    base: int  # the storage's data pointer
    nbytes: int  # the storage's size
    offset: int
    shape: tuple[int, ...]
    stride: tuple[int, ...]
    element_size: int
    contiguous: bool

    @classmethod
    def of(cls, tensor: torch.Tensor) -> StoragePart:
        """Record where the strided ``tensor`` lies now."""
        storage = tensor.untyped_storage()
        return cls(
            device=str(tensor.device),
            base=storage.data_ptr(),
            nbytes=storage.nbytes(),
            offset=int(tensor.storage_offset()),
            shape=tuple(int(n) for n in tensor.shape),
            stride=tuple(int(s) for s in tensor.stride()),
            element_size=tensor.element_size(),
            contiguous=tensor.is_contiguous(),
        )

    @property
    def numel(self) -> int:
        """The number of elements, ``0`` for an empty part."""
        return math.prod(self.shape)


def footprint(tensor: torch.Tensor) -> Footprint:
    """Record where ``tensor``'s memory lies now, to compare a result with it later.

    See :class:`Footprint`; :func:`tcdoc.probe` takes one of every source before it applies the
    operation.

    >>> import torch, tcdoc
    >>> tcdoc.footprint(torch.ones(2)).parts[0].nbytes
    8
    """
    _check_tensor("tensor", tensor)
    return Footprint(tuple(StoragePart.of(part) for part in _parts(tensor)), tensor.requires_grad)


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What ``result`` (``y``) shares with ``source`` (``x``), measured on the real objects.

    Every field is computed by :func:`compare`; none is looked up in a table. A field typed
    ``... | None`` is ``None`` where its question does not apply:

    - every field but ``new_object``, ``shares_storage``, ``result_type`` and
      ``result_is_tensor``, where ``y`` is not a tensor;
    - ``is_view``, ``copies_grad`` and ``copies_attributes``, where ``y`` *is* ``x``;
    - the fields below that say so, where ``x`` lacks what they ask about.

    ``tcdoc._names.reason`` names the reason for each.

    Attributes
    ----------
    new_object
        ``result is not source``: a new Python object. ``False`` means ``y`` *is* ``x``.
    shares_storage
        At least one byte of ``result`` lies in memory that ``source`` used (for a result
        that is not a tensor: a tensor inside it does). Given ``before``, the memory that
        ``source`` used before the operation, so that an ``x`` that moved shares nothing.
    is_view
        ``result`` is a view of ``source`` as torch tracks views: ``result._base is source``,
        or both are views of one base. Torch records a view of a view against the first
        base: ``result._base is source._base``. Memory that is shared without that record is
        no view in this sense: ``x.detach()``, ``x.data`` and ``torch.from_numpy(x.numpy())``
        share ``x``'s memory and are not views. ``None`` where ``y`` is ``x``, or where either
        is an inference tensor, of which torch records no views.
    shares_version_counter
        An in-place change of one is counted by the other's autograd checks. ``None`` where
        either has no version counter: an inference tensor made under inference mode, or a
        view of one, has none. ``x.detach()`` and ``x.data`` of one, made outside inference
        mode, have one of their own. Autograd never checks it, since it saves no inference
        tensor.
    requires_grad
        ``result.requires_grad``.
    is_leaf
        ``result.is_leaf``.
    grad_fn
        The class name of ``result.grad_fn``, or ``None`` where it has none.
    gradient_flows_to_source
        A backward pass from ``result`` would reach ``source``. ``None`` where ``source``
        required grad neither before the call (its footprint) nor after it, since no gradient
        can reach it then (``torch.autograd.grad(x.clone().sum(), x)`` raises). ``x.detach_()``
        on an ``x`` that required grad gives ``False``.
    result_type
        The class name of ``result``, such as ``"Tensor"``, ``"Parameter"`` or ``"list"``.
    copies_grad
        ``result`` has its own, separate ``.grad`` with the same values as ``source.grad``;
        ``None`` where ``source`` has no ``.grad``, so there was nothing to copy.
    copies_attributes
        ``result`` has every Python attribute (``__dict__`` entry) that ``source`` has;
        ``None`` where ``source`` has none, so there was nothing to copy.
    same_shape
        ``result.shape == source.shape``.
    same_strides
        ``result.stride() == source.stride()``; ``None`` where either is sparse, or where the
        shapes differ (strides of different shapes are not comparable).
    same_device
        ``result.device == source.device``.
    new_bytes
        Bytes of every storage the copy allocated. They are those behind ``result`` that are
        not ``source``'s (as it was, given ``before``). They also count those behind
        ``result.grad`` that are neither ``source``'s nor ``source.grad``'s. ``copy.deepcopy``
        of a leaf with a ``.grad`` counts the copied ``.grad`` too. Where ``y`` is ``x`` it is
        ``0``, unless ``x`` moved.
    new_grad_bytes
        The part of ``new_bytes`` that is ``result.grad``'s: ``0`` where ``result`` has no
        ``.grad`` of its own (``x.clone()``); ``None`` where ``source`` has no ``.grad``.
    source_moved
        ``source``'s memory is no longer where it was before the operation (a data pointer
        changed), as ``x.share_memory_()`` moves it; ``None`` where :func:`compare` was not
        given ``before``.
    result_is_tensor
        ``result`` is a :class:`torch.Tensor` (of any subclass).
    same_dtype
        ``result.dtype == source.dtype``.
    overlaps_itself
        Two elements of ``result`` are the same bytes (a stride of 0, as ``expand`` makes).
        Torch refuses some in-place writes into it (``add_``, ``copy_``) and lets others
        through (``fill_``; see the write fields).
    keeps_hooks
        ``result`` carries every hook registered on ``source`` with ``register_hook``;
        ``None`` where ``source`` has none.
    keeps_conj
        ``result`` has the conjugate bit set, as ``source`` has; ``None`` where ``source``
        has none.
    keeps_inference
        ``result`` is an inference tensor, as ``source`` is; ``None`` where ``source`` is not.
    writes_add, writes_mul, writes_copy, writes_fill, writes_zero, writes_index
        What an in-place write into ``result`` does. The writes are ``y.add_(1)``, ``y.mul_(2)``,
        ``y.copy_(y.detach() * 2)``, ``y.fill_(7)``, ``y.zero_()``, and ``y[(0,) * y.dim()] = 100``
        (its first element). ``"refused"``: torch raised, having changed nothing. ``"y only"``: it
        succeeded and left ``source`` as it was. ``"y and x"``: it also changed ``source``.
        ``"y only, raised"`` and ``"y and x, raised"``: torch raised after the write had changed
        them (an inference tensor's, outside inference mode). Measured on fresh pairs from
        ``remake``, in ordinary grad mode (see ``tcdoc._writes``); ``None`` where :func:`compare`
        was not given ``remake``.

    """

    new_object: bool
    shares_storage: bool
    is_view: bool | None
    shares_version_counter: bool | None
    requires_grad: bool | None
    is_leaf: bool | None
    grad_fn: str | None
    gradient_flows_to_source: bool | None
    result_type: str
    copies_grad: bool | None
    copies_attributes: bool | None
    same_shape: bool | None
    same_strides: bool | None
    same_device: bool | None
    new_bytes: int | None
    new_grad_bytes: int | None
    source_moved: bool | None
    result_is_tensor: bool
    same_dtype: bool | None
    overlaps_itself: bool | None
    keeps_hooks: bool | None
    keeps_conj: bool | None
    keeps_inference: bool | None
    writes_add: str | None = None
    writes_mul: str | None = None
    writes_copy: str | None = None
    writes_fill: str | None = None
    writes_zero: str | None = None
    writes_index: str | None = None

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
        values = self.as_dict()
        if not is_not_applicable(name, values):
            return ""
        return f"{prefix}{not_applicable(name, values)}"


def compare(
    source: torch.Tensor,
    result: object,
    *,
    before: Footprint | None = None,
    remake: Remake | None = None,
) -> Comparison:
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
    before
        :func:`footprint` of ``source`` taken before the operation ran: memory is then
        compared with ``source`` as it was, and ``source_moved`` says whether it moved.
        Without it, memory is compared with ``source`` as it is, and ``source_moved`` is
        ``None``.
    remake
        A function of no arguments that returns a fresh ``(source, result)`` pair, built as
        these two were: the in-place writes (``writes_add``, ...) are tried on such pairs, one
        pair per write, never on ``source`` and ``result``. Without it they are ``None``.

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
    >>> def pair():
    ...     row = torch.arange(3.0)
    ...     return row, row.expand(2, 3)
    >>> expanded = tcdoc.compare(*pair(), remake=pair)
    >>> expanded.is_view, expanded.writes_add, expanded.writes_fill
    (True, 'refused', 'y and x')

    """
    _check_tensor("source", source)
    frame = footprint(source) if before is None else before
    moved = None if before is None else footprint(source).storages != before.storages
    if not isinstance(result, torch.Tensor):
        return _compare_with_value(source, result, frame, moved)
    same = result is source
    source_grad = _grad_of(source)
    result_grad = _grad_of(result)
    source_attributes = set(vars(source))
    source_hooks = _hooks(source)
    strided = source.layout == torch.strided and result.layout == torch.strided
    same_shape = result.shape == source.shape
    data_bytes = _new_bytes(frame.storages, result)
    grad_bytes = _new_grad_bytes(frame, source_grad, result_grad)
    return Comparison(
        new_object=not same,
        shares_storage=_shares_frame(frame, result),
        is_view=None if same else _is_view(source, result),
        shares_version_counter=_shares_version_counter(source, result),
        requires_grad=result.requires_grad,
        is_leaf=result.is_leaf,
        grad_fn=None if result.grad_fn is None else type(result.grad_fn).__name__,
        gradient_flows_to_source=(
            _gradient_flows(source, result) if frame.requires_grad or source.requires_grad else None
        ),
        result_type=type(result).__name__,
        copies_grad=None if same or source_grad is None else _copies_grad(source_grad, result_grad),
        copies_attributes=(None if same or not source_attributes else source_attributes <= set(vars(result))),
        same_shape=same_shape,
        same_strides=result.stride() == source.stride() if strided and same_shape else None,
        same_device=result.device == source.device,
        new_bytes=data_bytes + (grad_bytes or 0),
        new_grad_bytes=grad_bytes,
        source_moved=moved,
        result_is_tensor=True,
        same_dtype=result.dtype == source.dtype,
        overlaps_itself=any(_overlaps_itself(part) for part in _parts(result)),
        keeps_hooks=None if not source_hooks else _keeps_hooks(source_hooks, _hooks(result)),
        keeps_conj=result.is_conj() if source.is_conj() else None,
        keeps_inference=result.is_inference() if source.is_inference() else None,
        **measure_writes(remake),
    )


def _compare_with_value(
    source: torch.Tensor, result: object, frame: Footprint, moved: bool | None
) -> Comparison:
    """Compare with a result that is not a tensor: only five questions apply to it."""
    return Comparison(
        new_object=result is not source,
        shares_storage=any(_shares_frame(frame, tensor) for tensor in _tensors_inside(result)),
        is_view=None,
        shares_version_counter=None,
        requires_grad=None,
        is_leaf=None,
        grad_fn=None,
        gradient_flows_to_source=None,
        result_type=type(result).__name__,
        copies_grad=None,
        copies_attributes=None,
        same_shape=None,
        same_strides=None,
        same_device=None,
        new_bytes=None,
        new_grad_bytes=None,
        source_moved=moved,
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
    return _shares_frame(footprint(a), b)


def _shares_frame(frame: Footprint, tensor: torch.Tensor) -> bool:
    """Tell whether any byte of ``tensor`` lies where ``frame`` recorded a tensor's bytes."""
    theirs = footprint(tensor).parts
    return any(_parts_share(p, q) for p in frame.parts for q in theirs)


def _parts_share(a: StoragePart, b: StoragePart) -> bool:
    if a.device != b.device or a.numel == 0 or b.numel == 0:
        return False
    if a.base + a.nbytes <= b.base or b.base + b.nbytes <= a.base:
        return False  # elements lie inside their storage: storages apart, no byte shared (cheap)
    a_start, a_end = _byte_span(a)
    b_start, b_end = _byte_span(b)
    if a_end <= b_start or b_end <= a_start:
        return False
    if a.contiguous and b.contiguous:
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
    return _extent(StoragePart.of(tensor))


def _extent(part: StoragePart) -> tuple[int, int]:
    pairs = list(zip(part.shape, part.stride, strict=True))
    low = part.offset + sum(s * (n - 1) for n, s in pairs if s < 0)
    high = part.offset + sum(s * (n - 1) for n, s in pairs if s > 0)
    return low * part.element_size, (high + 1) * part.element_size


def _byte_span(part: StoragePart) -> tuple[int, int]:
    """Return the first and one-past-last byte address that ``part`` can touch."""
    start, end = _extent(part)
    return part.base + start, part.base + end


def _element_offsets(part: StoragePart) -> torch.Tensor:
    """Return the storage offset, in elements, of each element of a strided ``part``."""
    offsets = torch.tensor(part.offset, dtype=torch.int64)
    for n, stride in zip(part.shape, part.stride, strict=True):
        offsets = offsets.unsqueeze(-1) + torch.arange(n, dtype=torch.int64) * stride
    return offsets.flatten()


def _byte_addresses(part: StoragePart) -> torch.Tensor:
    """Return every byte address that ``part``'s elements occupy."""
    size = part.element_size
    starts = part.base + _element_offsets(part) * size
    return (starts.unsqueeze(-1) + torch.arange(size, dtype=torch.int64)).flatten()


def _overlaps_itself(tensor: torch.Tensor) -> bool:
    """Tell whether two elements of a strided ``tensor`` are the same bytes.

    Element offsets are whole multiples of the element size, so two elements either are the
    same bytes or share none: counting distinct offsets is enough.
    """
    if tensor.numel() < 2 or tensor.is_contiguous():
        return False
    return len(set(_element_offsets(StoragePart.of(tensor)).tolist())) < tensor.numel()


def _new_bytes(owned: frozenset[tuple[str, int]], result: torch.Tensor) -> int:
    """Count the bytes of the storages behind ``result`` that are not among ``owned``."""
    new = {}
    for part in footprint(result).parts:
        if (part.device, part.base) not in owned:
            new[(part.device, part.base)] = part.nbytes
    return sum(new.values())


def _new_grad_bytes(
    frame: Footprint, source_grad: torch.Tensor | None, result_grad: torch.Tensor | None
) -> int | None:
    """Count the bytes of ``result.grad`` that are neither ``source``'s nor ``source.grad``'s.

    ``None`` where ``source`` has no ``.grad``; ``0`` where ``result`` has none.
    """
    if source_grad is None:
        return None
    if result_grad is None:
        return 0
    return _new_bytes(frame.storages | footprint(source_grad).storages, result_grad)


def _is_view(source: torch.Tensor, result: torch.Tensor) -> bool | None:
    """Tell whether torch records ``result`` as a view of ``source`` (see :class:`Comparison`)."""
    if source.is_inference() or result.is_inference():
        return None
    base = result._base
    if base is None:
        return False
    return base is source or (source._base is not None and base is source._base)


def _has_version_counter(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` has a version counter: most inference tensors have none to show."""
    try:
        tensor._version  # noqa: B018 - reading it is the test
    except RuntimeError:
        return False
    return True


def _shares_version_counter(source: torch.Tensor, result: torch.Tensor) -> bool | None:
    """Bump ``source``'s version counter, see whether ``result``'s moved, then restore both.

    ``None`` where either has no version counter (an inference tensor without one).
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
    """Walk ``result``'s autograd graph (without running it) looking for ``source``, which required grad."""
    if result is source:  # x.detach_() returns x, cut from the graph
        return source.requires_grad
    if result.grad_fn is None:
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
    (the Sphinx extension passes its message catalogue's lookup). Where ``x`` does not require
    grad it has no history, and "Autograd history" says "n/a", not "cut". Where ``x`` moved
    (``source_moved``), "New memory?" says so. Where the copy allocated a ``.grad`` too, it says
    how many of the new bytes are the ``.grad``'s.

    >>> import torch, tcdoc
    >>> x = torch.ones(3, requires_grad=True)
    >>> tcdoc.answers(tcdoc.compare(x, x.detach()))["memory"]
    'no: shares the storage of x'
    >>> tcdoc.answers(tcdoc.compare(torch.ones(3), torch.ones(3).clone()))["history"]
    'n/a: x has no history (it does not require grad)'
    """
    if not isinstance(report, Comparison):
        raise TypeError(f"report must be a Comparison, got {type(report).__name__}")
    t = english if translate is None else translate
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
    if not report.new_object and report.gradient_flows_to_source is False:
        history = t("cut: y is x, cut from the graph in place")
    elif not report.new_object:
        history = t("x's own, since y is x")
    elif report.gradient_flows_to_source is None:
        # x does not require grad: it has no history, so none was kept or cut.
        if report.requires_grad:
            history = t("n/a: x has no history (it does not require grad); y requires grad")
        else:
            history = t("n/a: x has no history (it does not require grad)")
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
    elif report.source_moved and not report.new_object:
        memory = t("yes: x itself moved into {new_bytes} new bytes").format(new_bytes=report.new_bytes)
    elif report.new_grad_bytes:
        memory = t("yes: {new_bytes} new bytes, {grad_bytes} of them a copy of .grad").format(
            new_bytes=report.new_bytes, grad_bytes=report.new_grad_bytes
        )
    else:
        memory = t("yes: {new_bytes} new bytes").format(new_bytes=report.new_bytes)
    if report.source_moved and report.new_object:
        memory = t("{memory}; x moved").format(memory=memory)
    return {
        "new_object": t("yes") if report.new_object else t("no: it is x itself"),
        "metadata": metadata,
        "memory": memory,
        "history": history,
    }
