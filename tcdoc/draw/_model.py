"""The model of what a copy did: two tensors, their storage, version counters and autograd edge.

Every picture that :mod:`tcdoc.draw` renders is drawn from a :class:`Diagram`, built by
:func:`diagram` from :func:`tcdoc.compare` and the tensors' own shape, strides, storage offset and
byte counts; nothing in it is a template for a particular method. This module needs only torch,
so the model can be tested without matplotlib.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable
from typing import Literal

import torch

import tcdoc
from tcdoc._compare import storage_extent
from tcdoc._locale import COMMA, SENTENCE_BREAK, translator
from tcdoc._registry import check_device

__all__ = [
    "MAX_CELLS",
    "Diagram",
    "Edge",
    "Failure",
    "Span",
    "StorageBar",
    "TensorBox",
    "alt_text",
    "diagram",
    "diagrams",
]

Edge = Literal["kept", "cut", "none", "same object"]
"""What happened to the autograd edge from the result back to the source."""

# Storages with at most this many elements are drawn cell by cell; their elements are listed.
MAX_CELLS = 64


# -- The model -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Span:
    """The bytes of a storage that one tensor can reach.

    Attributes
    ----------
    offset
        First byte the tensor can touch, counted from the start of its storage.
    extent
        Bytes from ``offset`` to one past the last byte it can touch.
    elements
        Byte offset of every element the tensor touches, in increasing order, when its storage
        has at most ``MAX_CELLS`` elements; otherwise ``None``.

    """

    offset: int
    extent: int
    elements: tuple[int, ...] | None

    @property
    def end(self) -> int:
        """Return one past the last byte the tensor can touch, ``offset + extent``."""
        return self.offset + self.extent


@dataclasses.dataclass(frozen=True)
class TensorBox:
    """One tensor as drawn: its metadata, and where it lies in which storage.

    Attributes
    ----------
    name
        The name the picture gives it: ``"x"`` for the source and ``"y"`` for the result,
        unless :func:`diagram` was given other ``names``.
    type_name, dtype, shape, strides
        As the tensor reports them (``dtype`` without the ``torch.`` prefix).
    requires_grad, is_leaf, grad_fn
        Its autograd metadata, as measured by :func:`tcdoc.compare`.
    version
        Its version counter's value (``_version``); ``None`` for an inference tensor, which
        has no version counter.
    storage
        Index of its storage in :attr:`Diagram.storages`.
    span
        The bytes of that storage it reaches.
    inference
        It is an inference tensor (made under :class:`torch.inference_mode`); its box says so.

    """

    name: str
    type_name: str
    dtype: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None
    version: int | None
    storage: int
    span: Span
    inference: bool = False

    def lines(self, language: str = "en") -> tuple[str, ...]:
        """Return the metadata lines written in the box, in ``language`` (``"en"`` or ``"zh_CN"``).

        >>> import torch
        >>> from tcdoc.draw import diagram
        >>> diagram(torch.zeros(2), torch.zeros(2)).source.lines()[:2]
        ('Tensor float32', 'shape (2,)')
        >>> diagram(torch.zeros(2), torch.zeros(2)).source.lines("zh_CN")[1]
        '形状 (2,)'
        """
        t = translator(language)
        return (
            f"{self.type_name} {self.dtype}",
            t("shape {shape}").format(shape=self.shape),
            t("strides {strides}").format(strides=self.strides),
            f"requires_grad={self.requires_grad}",
            f"is_leaf={self.is_leaf}",
            f"grad_fn={self.grad_fn}",
            *(["is_inference=True"] if self.inference else []),
        )


@dataclasses.dataclass(frozen=True)
class StorageBar:
    """One storage, drawn as a bar of bytes.

    Attributes
    ----------
    nbytes
        Its size in bytes.
    element_size
        Bytes per element of the tensors drawn on it (the width of one cell).
    users
        Names of the tensors that use it: the source's, the result's, or both (by default
        ``("x",)``, ``("y",)`` or ``("x", "y")``).

    """

    nbytes: int
    element_size: int
    users: tuple[str, ...]

    @property
    def shared(self) -> bool:
        """Whether both tensors use this storage."""
        return len(self.users) > 1


@dataclasses.dataclass(frozen=True)
class Diagram:
    """What one copy did, as drawn by :func:`draw`.

    Attributes
    ----------
    code
        The code that made ``y`` from ``x``, such as ``"x.clone()"``, or ``None``.
    source, result
        The boxes for ``x`` and ``y``.
    storages
        One bar per distinct storage: one when ``y`` uses the storage of ``x``, else two.
    new_object
        ``y`` is a different Python object from ``x``.
    shares_storage
        At least one byte of ``y`` is a byte of ``x`` (as :func:`tcdoc.compare` measured).
    shares_version_counter
        ``x`` and ``y`` count in-place changes on one version counter; ``None`` where either
        is an inference tensor, which has none.
    edge
        ``"kept"`` when gradients flow from ``y`` back to ``x``. ``"cut"`` when ``x`` requires
        grad and they do not. ``"none"`` when ``x`` has no autograd history to keep.
        ``"same object"`` when ``y is x``.
    new_bytes
        Bytes of storage that ``y`` holds and ``x`` does not: ``y``'s data, the storage drawn
        (``Comparison.new_bytes`` counts a copied ``.grad`` too).

    """

    code: str | None
    source: TensorBox
    result: TensorBox
    storages: tuple[StorageBar, ...]
    new_object: bool
    shares_storage: bool
    shares_version_counter: bool | None
    edge: Edge
    new_bytes: int

    @property
    def names(self) -> tuple[str, str]:
        """The names of the source and the result, ``("x", "y")`` unless chosen otherwise."""
        return self.source.name, self.result.name

    @property
    def heading(self) -> str:
        """The picture's heading, such as ``"y = x.clone()"``."""
        return f"{self.result.name} = {self.code}" if self.code else self.result.name


@dataclasses.dataclass(frozen=True)
class Failure:
    """An operation that raised instead of returning a tensor, drawn as a panel that says so."""

    code: str
    error_type: str
    message: str

    @property
    def heading(self) -> str:
        """The panel's heading, such as ``"y = copy.deepcopy(x)"``."""
        return f"y = {self.code}"

    @property
    def error(self) -> tcdoc.ErrorInfo:
        """The exception, worded as everywhere else in tcdoc (``str()`` of it)."""
        return tcdoc.ErrorInfo(self.error_type, self.message)


def diagram(
    source: torch.Tensor,
    result: torch.Tensor,
    code: str | None = None,
    names: tuple[str, str] = ("x", "y"),
) -> Diagram:
    """Build the model of the picture of ``result = <code applied to> source``.

    The sharing, autograd and byte facts come from :func:`tcdoc.compare`; the positions in
    storage from each tensor's shape, strides, storage offset and element size. Neither tensor
    is changed.

    Parameters
    ----------
    source
        The tensor that was copied, drawn as ``x``.
    result
        What the copy returned, drawn as ``y``.
    code
        The code that made ``result``, written with the source's name, such as ``"x.clone()"``;
        it titles the picture.
    names
        What to call the source and the result in the picture and its alt text, such as
        ``("y", "d")`` for ``d = y.detach()``; two different, non-empty strings.

    Returns
    -------
    Diagram
        The model that :func:`draw` renders.

    Raises
    ------
    TypeError
        If ``source`` or ``result`` is not a tensor (``x.tolist()`` returns a list, which has
        no storage to draw), or ``code`` is not a string.
    ValueError
        If ``names`` is not two different, non-empty strings, or either tensor is not strided
        (a sparse tensor has no one storage to draw).

    Examples
    --------
    >>> import torch
    >>> from tcdoc.draw import diagram
    >>> x = torch.arange(6.0, requires_grad=True)
    >>> d = diagram(x, x.clone(), "x.clone()")
    >>> d.edge, d.result.grad_fn, len(d.storages), d.new_bytes
    ('kept', 'CloneBackward0', 2, 24)
    >>> base = torch.arange(6.0)
    >>> diagram(base, base[2:]).result.span.offset
    8
    >>> diagram(base, base[2:], "base[2:]", names=("base", "tail")).heading
    'tail = base[2:]'

    """
    for name, value in (("source", source), ("result", result)):
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(value).__name__}")
        if value.layout != torch.strided:
            raise ValueError(f"{name} is a {value.layout} tensor; tcdoc.draw draws strided tensors only")
    report = tcdoc.compare(source, result)
    own = tcdoc.compare(source, source)  # the source's own metadata, measured the same way
    if code is not None and not isinstance(code, str):
        raise TypeError(f"code must be a str or None, got {type(code).__name__}")
    _check_names(names)
    x, y = names
    assert report.new_bytes is not None  # both are strided tensors, checked above
    # The storage drawn is y's data; a .grad the copy made too (deepcopy's) is not drawn.
    new_bytes = report.new_bytes - (report.new_grad_bytes or 0)
    one_storage = new_bytes == 0 and source.device == result.device
    source_bar = StorageBar(
        source.untyped_storage().nbytes(), source.element_size(), (x, y) if one_storage else (x,)
    )
    storages = (source_bar,) if one_storage else (source_bar, _bar(result, y))
    edge: Edge
    if not report.new_object:
        edge = "same object"
    elif report.gradient_flows_to_source:
        edge = "kept"
    else:
        edge = "cut" if own.requires_grad else "none"
    return Diagram(
        code=code,
        source=_box(source, x, own, 0),
        result=_box(result, y, report, 0 if one_storage else 1),
        storages=storages,
        new_object=report.new_object,
        shares_storage=report.shares_storage,
        shares_version_counter=report.shares_version_counter,
        edge=edge,
        new_bytes=new_bytes,
    )


def diagrams(
    operations: Iterable[str | tcdoc.Operation],
    scenario: str | tcdoc.Scenario,
    device: str = "cpu",
) -> tuple[Diagram | Failure, ...]:
    """Apply each operation to a fresh source tensor of ``scenario`` and model the result.

    An operation that raises gives a :class:`Failure` with the exception's type and message;
    warnings it emits are not shown.

    Raises
    ------
    TypeError, ValueError
        For operations or a scenario that tcdoc does not know, or a single string in place of
        a list of operations.

    Examples
    --------
    >>> from tcdoc.draw import diagrams
    >>> [type(d).__name__ for d in diagrams(["clone", "deepcopy"], "non_leaf")]
    ['Diagram', 'Failure']

    """
    if isinstance(operations, str) or not isinstance(operations, Iterable):
        raise TypeError(f"operations must be a list of names, got {type(operations).__name__}")
    ops = [op if isinstance(op, tcdoc.Operation) else tcdoc.get_operation(op) for op in operations]
    if not ops:
        raise ValueError("operations is empty; name at least one operation")
    sc = scenario if isinstance(scenario, tcdoc.Scenario) else tcdoc.get_scenario(scenario)
    return tuple(_diagram_of(op, sc, torch.device(check_device(device))) for op in ops)


def alt_text(model: Diagram | Failure, language: str = "en") -> str:
    """State in words the facts that the picture of ``model`` shows, in ``language``.

    ``language`` is one of ``"en"`` and ``"zh_CN"``; code, names and torch's messages stay as
    they are.

    >>> import torch
    >>> from tcdoc.draw import alt_text, diagram
    >>> x = torch.ones(3, requires_grad=True)
    >>> print(alt_text(diagram(x, x.detach(), "x.detach()")))  # doctest: +NORMALIZE_WHITESPACE
    y = x.detach(): a new object. x: Tensor float32, shape (3,), strides (1,), requires_grad=True,
    is_leaf=True, grad_fn=None. y: Tensor float32, shape (3,), strides (1,), requires_grad=False,
    is_leaf=True, grad_fn=None. Memory: one storage of 12 bytes, shared; x uses bytes 0 to 12,
    y uses bytes 0 to 12; 0 new bytes. Version counter: shared. Autograd edge from y to x: cut.
    """
    t = translator(language)
    if isinstance(model, Failure):
        return t("{heading} raises {error}").format(heading=model.heading, error=model.error)
    if not isinstance(model, Diagram):
        raise TypeError(f"model must be a Diagram or a Failure, got {type(model).__name__}")
    x, y = model.source, model.result
    who = t("a new object") if model.new_object else t("the same object as {x}").format(x=x.name)
    sep = COMMA[language]
    parts = [
        t("{heading}: {who}.").format(heading=model.heading, who=who),
        t("{name}: {lines}.").format(name=x.name, lines=sep.join(x.lines(language))),
    ]
    if model.new_object:
        parts.append(t("{name}: {lines}.").format(name=y.name, lines=sep.join(y.lines(language))))
    parts.append(t("Memory: {words}.").format(words=_memory_words(model, language)))
    counter = {
        True: t("shared"),
        False: t("separate"),
        None: t("none, inference tensors have no version counter"),
    }
    parts.append(t("Version counter: {words}.").format(words=counter[model.shares_version_counter]))
    parts.append(
        t("Autograd edge from {y} to {x}: {words}.").format(
            y=y.name, x=x.name, words=_edge_words(model, language)
        )
    )
    return SENTENCE_BREAK[language].join(parts)


# -- Helpers -----------------------------------------------------------------------------------


def _box(tensor: torch.Tensor, name: str, report: tcdoc.Comparison, storage: int) -> TensorBox:
    assert report.requires_grad is not None  # a tensor's fields all apply
    assert report.is_leaf is not None
    return TensorBox(
        name=name,
        type_name=report.result_type,
        dtype=str(tensor.dtype).removeprefix("torch."),
        shape=tuple(tensor.shape),
        strides=tuple(tensor.stride()),
        requires_grad=report.requires_grad,
        is_leaf=report.is_leaf,
        grad_fn=report.grad_fn,
        version=None if tensor.is_inference() else tensor._version,
        storage=storage,
        span=_span(tensor),
        inference=tensor.is_inference(),
    )


def _bar(tensor: torch.Tensor, user: str) -> StorageBar:
    return StorageBar(tensor.untyped_storage().nbytes(), tensor.element_size(), (user,))


def _span(tensor: torch.Tensor) -> Span:
    """Where ``tensor``'s elements lie in its storage, in bytes, from shape, strides and offset."""
    size, start = tensor.element_size(), int(tensor.storage_offset())
    if tensor.numel() == 0:
        return Span(start * size, 0, ())
    first, end = storage_extent(tensor)
    elements: tuple[int, ...] | None = None
    if tensor.untyped_storage().nbytes() // size <= MAX_CELLS:
        offsets = {start}
        for n, stride in zip(tensor.shape, tensor.stride(), strict=True):
            offsets = {o + k * stride for o in offsets for k in range(n)}
        elements = tuple(sorted(o * size for o in offsets))
    return Span(first, end - first, elements)


def _diagram_of(op: tcdoc.Operation, scenario: tcdoc.Scenario, device: torch.device) -> Diagram | Failure:
    source = scenario.build(device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tcdoc.probe records warnings; a picture does not show them
        try:
            result = op.apply(source)
        except Exception as exc:  # noqa: BLE001 - the operation's error is what the panel shows
            return Failure(op.code, type(exc).__name__, str(exc))
    if not isinstance(result, torch.Tensor):
        raise TypeError(
            f"{op.code} returns a {type(result).__name__}, not a tensor: there is nothing to draw"
        )
    return diagram(source, result, op.code)


def _memory_words(model: Diagram, language: str) -> str:
    t = translator(language)
    reach = COMMA[language].join(
        t("{name} uses bytes {start} to {end}").format(name=box.name, start=box.span.offset, end=box.span.end)
        for box in (model.source, model.result)
    )
    if len(model.storages) == 1:
        shared = t("shared") if model.shares_storage else t("used by both, with no byte in common")
        return t("one storage of {nbytes} bytes, {shared}; {reach}; 0 new bytes").format(
            nbytes=model.storages[0].nbytes, shared=shared, reach=reach
        )
    x_bar, y_bar = model.storages
    x, y = model.names
    return t(
        "two storages, {x}'s of {x_bytes} bytes and {y}'s own of {y_bytes} bytes; {reach}; {new} new bytes"
    ).format(x=x, x_bytes=x_bar.nbytes, y=y, y_bytes=y_bar.nbytes, reach=reach, new=model.new_bytes)


def _edge_words(model: Diagram, language: str) -> str:
    t = translator(language)
    x, y = model.names
    if model.edge == "kept":
        return t("kept, gradients flow back to {x} through {grad_fn}").format(
            x=x, grad_fn=model.result.grad_fn
        )
    if model.edge == "none":
        return t("none, {x} has no autograd history").format(x=x)
    if model.edge == "same object":
        return t("none needed, {y} is {x}").format(x=x, y=y)
    return t("cut")


def _check_names(names: object) -> None:
    if (
        not isinstance(names, tuple)
        or len(names) != 2
        or not all(isinstance(name, str) and name.strip() for name in names)
        or names[0] == names[1]
    ):
        raise ValueError(f"names must be two different, non-empty strings, got {names!r}")
