"""The registry: every copy method and every starting tensor that tcdoc knows about.

One list feeds the landing table, the matrix page, the ``tcdoc`` command and the tests,
so a fact is never written down twice.

Adding to it: run ``python tools/write_names.py``, which writes the names into ``_names.json``
for the tools that must not import torch (a test keeps the file up to date). An
operation that needs an optional package names it in ``needs`` (``needs=("numpy",)``): where
the package cannot be imported, :func:`tcdoc.probe` records the cell as not run, with that
reason, instead of reporting the ImportError, or torch's error about the missing package, as
something torch does. Give a copy something to copy: a scenario whose source has a ``.grad``
or Python attributes is what lets ``copies_grad`` and ``copies_attributes`` say yes or no;
elsewhere they are ``None`` (n/a). Likewise the ``hooked``, ``conj`` and ``inference``
scenarios give ``keeps_hooks``, ``keeps_conj`` and ``keeps_inference`` something to keep.
Each operation belongs to a family (``tcdoc._names.FAMILIES``), each scenario to a group
(``tcdoc._names.SCENARIO_GROUPS``): the matrix pages are laid out by them.

Module-level operations (``model.to(...)``, ``model.state_dict()``, ...) act on a model and
its optimizer, not on a tensor: they have their own registry in ``tcdoc._modules``.
"""

from __future__ import annotations

import copy
import dataclasses
import io
from collections.abc import Callable
from typing import TypeVar

import torch

from tcdoc._names import FAMILIES, SCENARIO_GROUPS

__all__ = [
    "Operation",
    "Scenario",
    "TaggedTensor",
    "cuda_available",
    "get_operation",
    "get_scenario",
    "operations",
    "scenarios",
]


@dataclasses.dataclass(frozen=True)
class Operation:
    """A way of copying (or not copying) a tensor ``x``.

    Attributes
    ----------
    name
        Short identifier, used by the ``tcdoc`` command and the pages.
    code
        The code a reader would write, with the tensor called ``x``.
    summary
        One line on what people use it for.
    apply
        Runs the operation on a tensor.
    needs_cuda
        Listed only where CUDA is available.
    needs
        Optional packages (module names) the operation cannot run without, such as
        ``("numpy",)``; where one is missing, the probe records the cell as not run.
    family
        The group it is listed in on the matrix pages, a key of ``tcdoc._names.FAMILIES``.
        Operations of the ``"in_place"`` family change ``x`` itself, by design.

    The result need not be a tensor: ``x.tolist()`` returns Python lists, and
    :func:`tcdoc.compare` says "n/a" for the questions only a tensor can answer.

    """

    name: str
    code: str
    summary: str
    apply: Callable[[torch.Tensor], object] = dataclasses.field(repr=False)
    needs_cuda: bool = False
    needs: tuple[str, ...] = ()
    family: str = "copies"

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"unknown family {self.family!r}; choose from: {', '.join(FAMILIES)}")


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A freshly built source tensor ``x`` to apply operations to.

    Attributes
    ----------
    name
        Short identifier.
    summary
        What the tensor is, in one line.
    build
        Makes a new source tensor on the given device.
    needs_cuda
        Listed only where CUDA is available.
    group
        ``"everyday"`` or ``"special"`` (a key of ``tcdoc._names.SCENARIO_GROUPS``): the
        matrix pages give each group a table of its own.

    """

    name: str
    summary: str
    build: Callable[[torch.device], torch.Tensor] = dataclasses.field(repr=False)
    needs_cuda: bool = False
    group: str = "everyday"

    def __post_init__(self) -> None:
        if self.group not in SCENARIO_GROUPS:
            raise ValueError(f"unknown group {self.group!r}; choose from: {', '.join(SCENARIO_GROUPS)}")


def cuda_available() -> bool:
    """Tell whether this torch can use a CUDA device (the one switch for GPU content).

    >>> import tcdoc, torch
    >>> tcdoc.cuda_available() == torch.cuda.is_available()
    True
    """
    return torch.cuda.is_available()


def check_device(device: object) -> str:
    """Return ``device`` if it is ``"cpu"``, or ``"cuda"`` where this torch has a CUDA device.

    The one check of a ``device`` argument, shared by the probe, the drawings and the benchmark.

    Raises
    ------
    TypeError
        If ``device`` is not a string.
    ValueError
        If it names another device, or ``"cuda"`` where there is none.

    Examples
    --------
    >>> from tcdoc._registry import check_device
    >>> check_device("cpu")
    'cpu'

    """
    if not isinstance(device, str):
        raise TypeError(f"device must be a str, got {type(device).__name__}")
    if device not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'cpu' or 'cuda', got {device!r}")
    if device == "cuda" and not cuda_available():
        raise ValueError("device 'cuda' needs CUDA, and this torch has no CUDA device")
    return device


# -- Operations --------------------------------------------------------------------------


def _save_load(x: torch.Tensor) -> torch.Tensor:
    buffer = io.BytesIO()
    torch.save(x, buffer)
    buffer.seek(0)
    loaded: torch.Tensor = torch.load(buffer)
    return loaded


def _numpy_roundtrip(x: torch.Tensor) -> torch.Tensor:
    return torch.from_numpy(x.detach().numpy())


def _numpy_direct(x: torch.Tensor) -> torch.Tensor:
    return torch.from_numpy(x.numpy())


def _index(x: torch.Tensor) -> torch.Tensor:
    return x[torch.tensor([0])]


def _reverse_dims(x: torch.Tensor) -> torch.Tensor:
    return x.permute(tuple(reversed(range(x.dim()))))


def _tensor_from_list(x: torch.Tensor) -> torch.Tensor:
    return torch.tensor(x.tolist())


def _empty_like_copy(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x).copy_(x)


_COPIES = (
    Operation("clone", "x.clone()", "A copy that stays in the autograd graph.", lambda x: x.clone()),
    Operation("detach", "x.detach()", "The same data, cut from the autograd graph.", lambda x: x.detach()),
    Operation(
        "detach_clone",
        "x.detach().clone()",
        "An independent copy with no history: the usual 'just copy it'.",
        lambda x: x.detach().clone(),
    ),
    Operation(
        "clone_detach",
        "x.clone().detach()",
        "The same result as detach().clone(), with a copy recorded in the graph first.",
        lambda x: x.clone().detach(),
    ),
    Operation("deepcopy", "copy.deepcopy(x)", "Python's generic deep copy protocol.", copy.deepcopy),
    Operation("copy", "copy.copy(x)", "Python's generic shallow copy protocol.", copy.copy),
    Operation("data", "x.data", "The legacy way to reach the data without autograd.", lambda x: x.data),
    Operation("torch_clone", "torch.clone(x)", "The function spelling of x.clone().", torch.clone),
    Operation(
        "empty_like_copy",
        "torch.empty_like(x).copy_(x)",
        "A copy written by hand: new memory, then the values.",
        _empty_like_copy,
    ),
    Operation("add_zero", "x + 0", "Arithmetic that leaves the values alone.", lambda x: x + 0),
)

_CONSTRUCTORS = (
    Operation(
        "torch_tensor",
        "torch.tensor(x)",
        "Copy-constructing a tensor from a tensor.",
        lambda x: torch.tensor(x),
        family="constructors",
    ),
    Operation(
        "new_tensor",
        "x.new_tensor(x)",
        "Copy-constructing through a tensor method.",
        lambda x: x.new_tensor(x),
        family="constructors",
    ),
    Operation(
        "as_tensor",
        "torch.as_tensor(x)",
        "Converting to a tensor only when needed.",
        lambda x: torch.as_tensor(x),
        family="constructors",
    ),
    Operation(
        "parameter_wrap",
        "torch.nn.Parameter(x)",
        "Making a tensor a module parameter.",
        lambda x: torch.nn.Parameter(x),
        family="constructors",
    ),
    Operation(
        "tolist",
        "x.tolist()",
        "The values as Python numbers in nested lists: not a tensor.",
        lambda x: x.tolist(),
        family="constructors",
    ),
    Operation(
        "tensor_from_list",
        "torch.tensor(x.tolist())",
        "A new tensor built from those Python numbers.",
        _tensor_from_list,
        family="constructors",
    ),
)

_CONVERSIONS = (
    Operation(
        "to_same_dtype",
        "x.to(x.dtype)",
        "A conversion to what x already is.",
        lambda x: x.to(x.dtype),
        family="conversions",
    ),
    Operation(
        "to_float64",
        "x.to(torch.float64)",
        "A conversion to another dtype.",
        lambda x: x.to(torch.float64),
        family="conversions",
    ),
    Operation(
        "to_copy",
        "x.to(x.dtype, copy=True)",
        "A conversion that is asked to copy.",
        lambda x: x.to(x.dtype, copy=True),
        family="conversions",
    ),
    Operation("float", "x.float()", "The float32 shorthand.", lambda x: x.float(), family="conversions"),
    Operation("double", "x.double()", "The float64 shorthand.", lambda x: x.double(), family="conversions"),
    Operation(
        "type_float32",
        "x.type(torch.float32)",
        "The older conversion method, to float32.",
        lambda x: x.type(torch.float32),
        family="conversions",
    ),
    Operation("cpu", "x.cpu()", "Moving to the CPU.", lambda x: x.cpu(), family="conversions"),
    Operation(
        "cuda",
        "x.cuda()",
        "Moving to the current CUDA device.",
        lambda x: x.cuda(),
        needs_cuda=True,
        family="conversions",
    ),
    Operation(
        "to_cuda",
        'x.to("cuda")',
        "Moving to CUDA with to().",
        lambda x: x.to("cuda"),
        needs_cuda=True,
        family="conversions",
    ),
    Operation(
        "to_cuda_non_blocking",
        'x.to("cuda", non_blocking=True)',
        "Moving to CUDA without waiting for the copy to finish.",
        lambda x: x.to("cuda", non_blocking=True),
        needs_cuda=True,
        family="conversions",
    ),
    Operation(
        "pin_memory",
        "x.pin_memory()",
        "Page-locked CPU memory, for fast copies to CUDA.",
        lambda x: x.pin_memory(),
        needs_cuda=True,
        family="conversions",
    ),
)

_MEMORY_FORMATS = (
    Operation(
        "contiguous",
        "x.contiguous()",
        "Dense row-major memory, when needed.",
        lambda x: x.contiguous(),
        family="memory_formats",
    ),
    Operation(
        "clone_contiguous_format",
        "x.clone(memory_format=torch.contiguous_format)",
        "A clone that is asked for row-major memory.",
        lambda x: x.clone(memory_format=torch.contiguous_format),
        family="memory_formats",
    ),
    Operation(
        "clone_channels_last",
        "x.clone(memory_format=torch.channels_last)",
        "A clone that is asked for channels-last memory.",
        lambda x: x.clone(memory_format=torch.channels_last),
        family="memory_formats",
    ),
)

_VIEWS = (
    Operation(
        "view", "x.view(-1)", "A new shape over the same memory.", lambda x: x.view(-1), family="views"
    ),
    Operation(
        "reshape",
        "x.reshape(-1)",
        "A new shape, by view when possible.",
        lambda x: x.reshape(-1),
        family="views",
    ),
    Operation(
        "slice", "x[0:1]", "Basic slicing: a range of the first dimension.", lambda x: x[0:1], family="views"
    ),
    Operation(
        "index",
        "x[torch.tensor([0])]",
        "Advanced indexing: the same row, chosen by an index tensor.",
        _index,
        family="views",
    ),
    Operation("T", "x.T", "The transpose attribute.", lambda x: x.T, family="views"),
    Operation(
        "permute",
        "x.permute(tuple(reversed(range(x.dim()))))",
        "The dimensions in reverse order.",
        _reverse_dims,
        family="views",
    ),
    Operation(
        "expand",
        "x.expand(2, *x.shape)",
        "Two copies of x side by side, without copying: a new dimension of stride 0.",
        lambda x: x.expand(2, *x.shape),
        family="views",
    ),
    Operation(
        "cat", "torch.cat([x])", "Joining a list of one tensor.", lambda x: torch.cat([x]), family="views"
    ),
    Operation(
        "stack",
        "torch.stack([x])",
        "Stacking a list of one tensor along a new dimension.",
        lambda x: torch.stack([x]),
        family="views",
    ),
)

_IN_PLACE = (
    Operation(
        "detach_",
        "x.detach_()",
        "Cutting x itself from the graph, in place.",
        lambda x: x.detach_(),
        family="in_place",
    ),
    Operation(
        "requires_grad_",
        "x.requires_grad_()",
        "Making x itself require grad, in place.",
        lambda x: x.requires_grad_(),
        family="in_place",
    ),
    Operation(
        "share_memory_",
        "x.share_memory_()",
        "Moving the memory of x itself into shared memory, for other processes.",
        lambda x: x.share_memory_(),  # type: ignore[no-untyped-call]
        family="in_place",
    ),
)

_ROUND_TRIPS = (
    Operation(
        "numpy_roundtrip",
        "torch.from_numpy(x.detach().numpy())",
        "A trip through a NumPy array.",
        _numpy_roundtrip,
        needs=("numpy",),
        family="round_trips",
    ),
    Operation(
        "numpy_direct",
        "torch.from_numpy(x.numpy())",
        "The same trip without detach() first.",
        _numpy_direct,
        needs=("numpy",),
        family="round_trips",
    ),
    Operation(
        "save_load",
        "torch.load(buffer) after torch.save(x, buffer)",
        "A trip through torch.save and torch.load in memory.",
        _save_load,
        family="round_trips",
    ),
)

_OPERATIONS = _COPIES + _CONSTRUCTORS + _CONVERSIONS + _MEMORY_FORMATS + _VIEWS + _IN_PLACE + _ROUND_TRIPS


# -- Scenarios ---------------------------------------------------------------------------


class TaggedTensor(torch.Tensor):
    """A minimal subclass of :class:`torch.Tensor`, as code that tags its tensors would write.

    It adds nothing: the ``subclass`` scenario shows which operations keep the class.
    """


def _double_the_gradient(grad: torch.Tensor) -> torch.Tensor:
    return grad * 2


def _grid(device: torch.device) -> torch.Tensor:
    """Return a new 2 x 3 float tensor that owns its memory (``arange(6).reshape(2, 3)`` is a view)."""
    return torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], device=device)


def _leaf_requires_grad(device: torch.device) -> torch.Tensor:
    x = _grid(device).requires_grad_()
    x.grad = torch.full_like(x, 0.5)
    x.note = "a Python attribute"  # type: ignore[attr-defined]
    return x


def _non_leaf(device: torch.device) -> torch.Tensor:
    leaf = _grid(device).requires_grad_()
    return leaf * 2


def _leaf_from_operation(device: torch.device) -> torch.Tensor:
    base = _grid(device).requires_grad_()
    with torch.no_grad():
        return base * 2


def _no_grad(device: torch.device) -> torch.Tensor:
    return _grid(device)


def _parameter(device: torch.device) -> torch.Tensor:
    x = torch.nn.Parameter(_grid(device))
    x.grad = torch.full_like(x, 0.5)
    return x


def _parameter_with_attribute(device: torch.device) -> torch.Tensor:
    x = _parameter(device)
    x.note = "a Python attribute"  # type: ignore[attr-defined]
    return x


def _strided_view(device: torch.device) -> torch.Tensor:
    return torch.arange(24.0, device=device).reshape(4, 6)[:, ::2]


def _channels_last(device: torch.device) -> torch.Tensor:
    x = torch.arange(96.0, device=device).reshape(2, 3, 4, 4)
    return x.to(memory_format=torch.channels_last)


def _cuda(device: torch.device) -> torch.Tensor:
    return _leaf_requires_grad(torch.device("cuda"))


def _inference(device: torch.device) -> torch.Tensor:
    with torch.inference_mode():
        return _grid(device)


def _conj(device: torch.device) -> torch.Tensor:
    values = torch.tensor([[1 + 2j, 3 - 1j, 0.5j], [2, -1j, 1 + 1j]], device=device)
    return values.conj()


def _expanded(device: torch.device) -> torch.Tensor:
    return torch.arange(3.0, device=device).reshape(1, 3).expand(2, 3)


def _hooked(device: torch.device) -> torch.Tensor:
    x = _grid(device).requires_grad_()
    x.register_hook(_double_the_gradient)  # type: ignore[no-untyped-call]
    return x


def _integer(device: torch.device) -> torch.Tensor:
    return torch.tensor([[0, 1, 2], [3, 4, 5]], device=device)


def _sparse(device: torch.device) -> torch.Tensor:
    return torch.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]], device=device).to_sparse()


def _zero_dim(device: torch.device) -> torch.Tensor:
    leaf = _grid(device).requires_grad_()
    return (leaf * 2).sum()


def _subclass(device: torch.device) -> torch.Tensor:
    return _grid(device).as_subclass(TaggedTensor)


_SCENARIOS = (
    Scenario(
        "leaf_requires_grad",
        "A leaf that requires grad, with .grad filled and a Python attribute set.",
        _leaf_requires_grad,
    ),
    Scenario("non_leaf", "The result of an operation on a leaf that requires grad.", _non_leaf),
    Scenario(
        "leaf_from_operation",
        "The result of an operation on a leaf that requires grad, computed under torch.no_grad(): "
        "made by an operation, yet a leaf.",
        _leaf_from_operation,
    ),
    Scenario("no_grad", "A plain tensor that does not require grad.", _no_grad),
    Scenario("parameter", "An nn.Parameter with .grad filled.", _parameter),
    Scenario("strided_view", "A non-contiguous slice x = base[:, ::2] of a larger tensor.", _strided_view),
    Scenario("channels_last", "A 4-D tensor in channels_last memory format.", _channels_last),
    Scenario(
        "parameter_with_attribute",
        "An nn.Parameter with .grad filled and a Python attribute set.",
        _parameter_with_attribute,
    ),
    Scenario("cuda", "A leaf that requires grad, on the CUDA device.", _cuda, needs_cuda=True),
    Scenario("inference", "A tensor made under torch.inference_mode().", _inference, group="special"),
    Scenario(
        "conj",
        "A complex tensor's conjugate view x = values.conj(), its conjugate bit set.",
        _conj,
        group="special",
    ),
    Scenario(
        "expanded",
        "An expanded tensor x = row.expand(2, 3): both rows are the same memory (stride 0).",
        _expanded,
        group="special",
    ),
    Scenario(
        "hooked",
        "A leaf that requires grad, with a hook registered by x.register_hook.",
        _hooked,
        group="special",
    ),
    Scenario("integer", "An integer (int64) tensor.", _integer, group="special"),
    Scenario("sparse", "A sparse COO tensor.", _sparse, group="special"),
    Scenario(
        "zero_dim",
        "A zero-dimensional tensor, such as a loss: the sum of a leaf that requires grad.",
        _zero_dim,
        group="special",
    ),
    Scenario(
        "subclass",
        "An instance of a torch.Tensor subclass that adds nothing (class TaggedTensor(torch.Tensor)).",
        _subclass,
        group="special",
    ),
)


# -- Look-ups ----------------------------------------------------------------------------


def operations(include_unavailable: bool = False) -> tuple[Operation, ...]:
    """Return the registered operations, in reading order.

    CUDA-only operations are left out where CUDA is absent, unless asked for.

    >>> import tcdoc
    >>> [op.name for op in tcdoc.operations()][:3]
    ['clone', 'detach', 'detach_clone']
    """
    return tuple(op for op in _OPERATIONS if include_unavailable or not op.needs_cuda or cuda_available())


def scenarios(include_unavailable: bool = False) -> tuple[Scenario, ...]:
    """Return the registered scenarios, in reading order.

    >>> import tcdoc
    >>> tcdoc.scenarios()[0].name
    'leaf_requires_grad'
    """
    return tuple(s for s in _SCENARIOS if include_unavailable or not s.needs_cuda or cuda_available())


def get_operation(name: str) -> Operation:
    """Return the operation called ``name``.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If no operation has that name; the message lists the valid names.

    Examples
    --------
    >>> import tcdoc
    >>> tcdoc.get_operation("detach_clone").code
    'x.detach().clone()'

    """
    return _lookup("operation", name, {op.name: op for op in operations(include_unavailable=True)})


def get_scenario(name: str) -> Scenario:
    """Return the scenario called ``name``.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If no scenario has that name; the message lists the valid names.

    Examples
    --------
    >>> import tcdoc
    >>> tcdoc.get_scenario("non_leaf").summary
    'The result of an operation on a leaf that requires grad.'

    """
    return _lookup("scenario", name, {s.name: s for s in scenarios(include_unavailable=True)})


T = TypeVar("T")


def _lookup(kind: str, name: object, table: dict[str, T]) -> T:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name must be a str, got {type(name).__name__}")
    if name not in table:
        raise ValueError(f"unknown {kind} {name!r}; choose from: {', '.join(table)}")
    return table[name]
