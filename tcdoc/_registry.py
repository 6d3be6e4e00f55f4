"""The registry: every copy method and every starting tensor that tcdoc knows about.

One list feeds the landing table, the matrix page, the ``tcdoc`` command and the tests,
so a fact is never written down twice.

Adding to it: give each new name to ``tcdoc._names`` too (a test keeps the lists equal). An
operation that needs an optional package names it in ``needs`` (``needs=("numpy",)``): where
the package cannot be imported, :func:`tcdoc.probe` records the cell as not run, with that
reason, instead of reporting the ImportError, or torch's error about the missing package, as
something torch does. Give a copy something to copy: a scenario whose source has a ``.grad``
or Python attributes is what lets ``copies_grad`` and ``copies_attributes`` say yes or no;
elsewhere they are ``None`` (n/a).
"""

from __future__ import annotations

import copy
import dataclasses
import io
from collections.abc import Callable
from typing import TypeVar

import torch

__all__ = [
    "Operation",
    "Scenario",
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

    """

    name: str
    code: str
    summary: str
    apply: Callable[[torch.Tensor], torch.Tensor] = dataclasses.field(repr=False)
    needs_cuda: bool = False
    needs: tuple[str, ...] = ()


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

    """

    name: str
    summary: str
    build: Callable[[torch.device], torch.Tensor] = dataclasses.field(repr=False)
    needs_cuda: bool = False


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


_OPERATIONS = (
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
    Operation(
        "torch_tensor",
        "torch.tensor(x)",
        "Copy-constructing a tensor from a tensor.",
        lambda x: torch.tensor(x),
    ),
    Operation(
        "new_tensor",
        "x.new_tensor(x)",
        "Copy-constructing through a tensor method.",
        lambda x: x.new_tensor(x),
    ),
    Operation(
        "as_tensor",
        "torch.as_tensor(x)",
        "Converting to a tensor only when needed.",
        lambda x: torch.as_tensor(x),
    ),
    Operation(
        "to_same_dtype", "x.to(x.dtype)", "A conversion to what x already is.", lambda x: x.to(x.dtype)
    ),
    Operation(
        "to_float64",
        "x.to(torch.float64)",
        "A conversion to another dtype.",
        lambda x: x.to(torch.float64),
    ),
    Operation(
        "to_copy",
        "x.to(x.dtype, copy=True)",
        "A conversion that is asked to copy.",
        lambda x: x.to(x.dtype, copy=True),
    ),
    Operation(
        "contiguous", "x.contiguous()", "Dense row-major memory, when needed.", lambda x: x.contiguous()
    ),
    Operation("view", "x.view(-1)", "A new shape over the same memory.", lambda x: x.view(-1)),
    Operation("reshape", "x.reshape(-1)", "A new shape, by view when possible.", lambda x: x.reshape(-1)),
    Operation(
        "numpy_roundtrip",
        "torch.from_numpy(x.detach().numpy())",
        "A trip through a NumPy array.",
        _numpy_roundtrip,
        needs=("numpy",),
    ),
    Operation(
        "save_load",
        "torch.load(buffer) after torch.save(x, buffer)",
        "A trip through torch.save and torch.load in memory.",
        _save_load,
    ),
    Operation(
        "parameter_wrap",
        "torch.nn.Parameter(x)",
        "Making a tensor a module parameter.",
        lambda x: torch.nn.Parameter(x),
    ),
    Operation("cpu", "x.cpu()", "Moving to the CPU.", lambda x: x.cpu()),
    Operation(
        "clone_contiguous_format",
        "x.clone(memory_format=torch.contiguous_format)",
        "A clone that is asked for row-major memory.",
        lambda x: x.clone(memory_format=torch.contiguous_format),
    ),
    Operation("cuda", "x.cuda()", "Moving to the current CUDA device.", lambda x: x.cuda(), needs_cuda=True),
    Operation(
        "to_cuda", 'x.to("cuda")', "Moving to CUDA with to().", lambda x: x.to("cuda"), needs_cuda=True
    ),
)


# -- Scenarios ---------------------------------------------------------------------------


def _leaf_requires_grad(device: torch.device) -> torch.Tensor:
    x = torch.arange(6.0, device=device).reshape(2, 3).requires_grad_()
    x.grad = torch.full_like(x, 0.5)
    x.note = "a Python attribute"  # type: ignore[attr-defined]
    return x


def _non_leaf(device: torch.device) -> torch.Tensor:
    leaf = torch.arange(6.0, device=device).reshape(2, 3).requires_grad_()
    return leaf * 2


def _no_grad(device: torch.device) -> torch.Tensor:
    return torch.arange(6.0, device=device).reshape(2, 3)


def _parameter(device: torch.device) -> torch.Tensor:
    x = torch.nn.Parameter(torch.arange(6.0, device=device).reshape(2, 3))
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


_SCENARIOS = (
    Scenario(
        "leaf_requires_grad",
        "A leaf that requires grad, with .grad filled and a Python attribute set.",
        _leaf_requires_grad,
    ),
    Scenario("non_leaf", "The result of an operation on a leaf that requires grad.", _non_leaf),
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
