"""Run operations on scenarios, and record what happened: the measuring.

:func:`probe` applies one operation to one scenario's fresh tensor, :func:`probe_module` one
module-level operation (``model.to()``, ``model.state_dict()``, ...) to a fresh trained model,
and :func:`matrix` does both for every operation. What they return, and its JSON, is defined
in ``tcdoc._results`` (imported here too, so ``from tcdoc._probe import Matrix`` keeps working);
``tcdoc._diff`` compares two matrices.
"""

from __future__ import annotations

import contextlib
import importlib
import platform
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import torch

from tcdoc._compare import compare, footprint
from tcdoc._modules import (
    ModuleOperation,
    compare_modules,
    get_module_operation,
    module_operations,
    snapshot,
    trained_model,
)
from tcdoc._names import GRAD_MODES, MODULE_OPERATION_NAMES, check_grad_mode
from tcdoc._registry import Operation, Scenario, check_device, cuda_available, get_operation, get_scenario
from tcdoc._registry import operations as all_operations
from tcdoc._registry import scenarios as all_scenarios
from tcdoc._results import Environment, ErrorInfo, Matrix, ModuleResult, NotRun, ProbeResult, WarningInfo

__all__ = ["Matrix", "environment", "matrix", "probe", "probe_module"]


def environment(device: str = "cpu") -> Environment:
    """Describe this torch and the given device.

    Raises
    ------
    ValueError
        If ``device`` is not ``"cpu"`` or ``"cuda"``, or is ``"cuda"`` without CUDA.

    """
    device = check_device(device)
    name = torch.cuda.get_device_name() if device == "cuda" else f"CPU ({platform.machine() or 'unknown'})"
    return Environment(
        torch=torch.__version__, device=device, device_name=name, python=platform.python_version()
    )


def probe(
    operation: str | Operation, scenario: str | Scenario, device: str = "cpu", grad_mode: str = "enabled"
) -> ProbeResult:
    """Build a fresh source tensor for ``scenario``, apply ``operation`` under ``grad_mode``, and report.

    The source is built as its scenario says, outside any grad mode: grad enabled, not in
    inference mode, whatever the caller's mode is. Only the operation runs under ``grad_mode``,
    and the comparison is made outside it again. The operation's own exceptions and warnings
    are results, not failures: they are recorded with their type and message. They are recorded
    with ``torch.set_warn_always(True)``, so that a warning torch gives once per process shows
    in every cell that causes it. An operation whose optional package (its ``needs``) cannot
    be imported is not run, and the result says so.

    Parameters
    ----------
    operation
        An :class:`Operation` or its name, such as ``"detach_clone"``.
    scenario
        A :class:`Scenario` or its name, such as ``"non_leaf"``.
    device
        ``"cpu"`` or ``"cuda"``: where the source tensor is built.
    grad_mode
        One of :data:`tcdoc.GRAD_MODES`: ``"enabled"`` (``torch.enable_grad()``),
        ``"no_grad"`` (``torch.no_grad()``) or ``"inference_mode"``
        (``torch.inference_mode()``), the mode the operation runs under.

    Raises
    ------
    TypeError, ValueError
        For an argument that is not an operation, scenario, device or grad mode tcdoc knows.

    Examples
    --------
    >>> import tcdoc
    >>> tcdoc.probe("deepcopy", "non_leaf").error.type
    'RuntimeError'
    >>> tcdoc.probe("detach", "non_leaf").properties.shares_storage
    True
    >>> tcdoc.probe("clone", "leaf_requires_grad", grad_mode="no_grad").properties.is_leaf
    True

    """
    op = operation if isinstance(operation, Operation) else get_operation(operation)
    sc = scenario if isinstance(scenario, Scenario) else get_scenario(scenario)
    device = check_device(device)
    grad_mode = check_grad_mode(grad_mode)
    if (op.needs_cuda or sc.needs_cuda) and not cuda_available():
        raise ValueError(f"{op.name} on {sc.name} needs CUDA, and this torch has no CUDA device")
    missing = [name for name in op.needs if not _importable(name)]
    if missing:
        return ProbeResult(op.name, sc.name, NotRun(f"needs {', '.join(missing)}"), grad_mode=grad_mode)
    with _measuring():
        source = sc.build(torch.device(device))
        before = footprint(source)  # where x was: an operation such as share_memory_() moves it

        def remake() -> tuple[torch.Tensor, object]:
            """Build a fresh pair as this one was built, for compare()'s in-place writes."""
            fresh = sc.build(torch.device(device))
            with _GRAD_MODES[grad_mode]():
                return fresh, op.apply(fresh)

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with _GRAD_MODES[grad_mode]():
                    result = op.apply(source)
            except Exception as exc:  # noqa: BLE001 - the operation's errors are what we report
                return ProbeResult(op.name, sc.name, _error(exc), _warnings(caught), grad_mode)
        report = compare(source, result, before=before, remake=remake)
        return ProbeResult(op.name, sc.name, report, _warnings(caught), grad_mode)


def probe_module(operation: str | ModuleOperation, device: str = "cpu") -> ModuleResult:
    """Build a fresh trained model and its optimizer, apply a module-level ``operation``, and report.

    Parameters
    ----------
    operation
        A :class:`~tcdoc.ModuleOperation` or its name, such as ``"state_dict"``.
    device
        ``"cpu"`` or ``"cuda"``: where the model is built.

    Raises
    ------
    TypeError, ValueError
        For an operation or device tcdoc does not know, or a CUDA-only one without CUDA.

    Examples
    --------
    >>> import tcdoc
    >>> report = tcdoc.probe_module("state_dict").outcome
    >>> report.tensors, report.shares_storage, report.requires_grad
    (7, 7, 0)

    """
    op = operation if isinstance(operation, ModuleOperation) else get_module_operation(operation)
    device = check_device(device)
    if op.needs_cuda and not cuda_available():
        raise ValueError(f"{op.name} needs CUDA, and this torch has no CUDA device")
    with _measuring():
        model, optimizer = trained_model(device)
        source = model if op.source == "model" else optimizer
        before = snapshot(source)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = op.apply(model, optimizer)
            except Exception as exc:  # noqa: BLE001 - the operation's errors are what we report
                return ModuleResult(op.name, _error(exc), _warnings(caught))
        return ModuleResult(op.name, compare_modules(source, before, result), _warnings(caught))


def matrix(
    operations: Iterable[str] | None = None,
    scenarios: Iterable[str] | None = None,
    device: str = "cpu",
    grad_modes: Iterable[str] | None = None,
) -> Matrix:
    """Probe each operation on each scenario under each grad mode (by default every one of each).

    Rows come operation by operation, then scenario by scenario, then in the order of
    ``grad_modes`` (default :data:`tcdoc.GRAD_MODES`). Where this torch has no CUDA device, the
    CUDA-only operations and scenarios are rows all the same, not run: "no CUDA device".
    ``operations`` may also name module-level operations (``"state_dict"``); those are probed
    once each, on a trained model, into its ``modules``. By default all of them are.

    >>> import tcdoc
    >>> m = tcdoc.matrix(["clone", "detach"], ["no_grad"], grad_modes=["enabled"])
    >>> [(row.operation, row.properties.shares_storage) for row in m.rows]
    [('clone', False), ('detach', True)]
    >>> [row.grad_mode for row in tcdoc.matrix(["clone"], ["no_grad"]).rows]
    ['enabled', 'no_grad', 'inference_mode']
    >>> [row.operation for row in tcdoc.matrix(["state_dict"]).modules]
    ['state_dict']
    """
    device = check_device(device)
    if isinstance(operations, str):
        raise TypeError("pass a list of names, not a single string")
    if operations is None:
        tensor_names, module_ops = None, module_operations()
    else:
        names = list(operations)
        tensor_names = [name for name in names if name not in MODULE_OPERATION_NAMES]
        module_ops = tuple(get_module_operation(name) for name in names if name in MODULE_OPERATION_NAMES)
    ops = _select(tensor_names, all_operations(include_unavailable=True), get_operation)
    scs = _select(scenarios, all_scenarios(include_unavailable=True), get_scenario)
    modes = GRAD_MODES if grad_modes is None else _grad_modes(grad_modes)
    cuda = cuda_available()
    with _measuring():
        rows = tuple(
            probe(op, sc, device, mode)
            if cuda or not (op.needs_cuda or sc.needs_cuda)
            else ProbeResult(op.name, sc.name, NO_CUDA, grad_mode=mode)
            for op in ops
            for sc in scs
            for mode in modes
        )
        modules = tuple(probe_module(op, device) for op in module_ops)
    return Matrix(environment(device), rows, modules=modules)


NO_CUDA = NotRun("no CUDA device")
"""The outcome of a CUDA-only operation or scenario in a matrix measured without CUDA."""

_GRAD_MODES: dict[str, Callable[[], Any]] = {  # each makes the context manager of its mode
    "enabled": torch.enable_grad,
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
}


@contextlib.contextmanager
def _measuring() -> Iterator[None]:
    """Set torch up for measuring in the block, and restore every setting after, even on error.

    - Grad enabled and outside inference mode, whatever the caller's mode: sources are built
      as their scenarios say, and each cell enters its own grad mode from there.
    - ``torch.set_warn_always(True)``: a warning that torch gives once per process shows in
      every cell that causes it, not only in the first one measured.
    - One intra-op thread: the tensors are a few elements, and on a busy machine waking a
      thread pool for each of them costs more than the work (a batch norm took 100 ms). No
      answer depends on it: threads change how fast a kernel runs, not what it returns.
    """
    warn_always, threads = torch.is_warn_always_enabled(), torch.get_num_threads()
    with contextlib.ExitStack() as stack:
        if not torch.is_grad_enabled() or torch.is_inference_mode_enabled():
            stack.enter_context(torch.inference_mode(False))
            stack.enter_context(torch.enable_grad())
        torch.set_warn_always(True)
        if threads != 1:
            torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.set_warn_always(warn_always)
            if threads != 1:
                torch.set_num_threads(threads)


def _grad_modes(names: Iterable[str]) -> tuple[str, ...]:
    if isinstance(names, str):
        raise TypeError("pass a list of grad modes, not a single string")
    return tuple(check_grad_mode(name) for name in names)


# -- Helpers -----------------------------------------------------------------------------


def _warnings(caught: Sequence[warnings.WarningMessage]) -> tuple[WarningInfo, ...]:
    return tuple(WarningInfo(w.category.__name__, _plain(str(w.message))) for w in caught)


def _error(exc: Exception) -> ErrorInfo:
    return ErrorInfo(type(exc).__name__, _plain(str(exc)))


_TERMINAL_CODES = re.compile(r"\x1b\[[0-9;]*m")
_ADDRESSES = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")


def _plain(message: str) -> str:
    """Return a message as words that are the same on every run.

    The terminal colour codes some messages carry (torch.load's bold type) are dropped, and a
    memory address (``<function f at 0x7f…>``, different in every process) is written ``0x…``.

    >>> _plain("hook <function f at 0x7f3a2c1d9e40> will not be serialized")
    'hook <function f at 0x…> will not be serialized'
    """
    return _ADDRESSES.sub("0x…", _TERMINAL_CODES.sub("", message))


T = TypeVar("T", Operation, Scenario)


def _select(names: Iterable[str] | None, everything: tuple[T, ...], get: Callable[[str], T]) -> tuple[T, ...]:
    if names is None:
        return everything
    if isinstance(names, str):
        raise TypeError("pass a list of names, not a single string")
    return tuple(get(name) for name in names)


def _importable(name: str) -> bool:
    """Tell whether the optional package ``name`` can be imported here."""
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def inference_tensors(
    operation: str, scenario: str, device: str = "cpu", grad_mode: str = "enabled"
) -> tuple[bool, bool]:
    """Tell whether ``x`` and ``y = operation(x)`` are inference tensors, on a fresh ``x`` of ``scenario``.

    Run as :func:`probe` runs the operation (``x`` built outside any grad mode, the operation
    under ``grad_mode``); ``y`` counts as one only where it is a tensor. An operation that
    raises gives ``(x's answer, False)``.

    >>> inference_tensors("clone", "no_grad", grad_mode="inference_mode")
    (False, True)
    >>> inference_tensors("clone", "no_grad")
    (False, False)
    """
    op, sc = get_operation(operation), get_scenario(scenario)
    mode = check_grad_mode(grad_mode)
    with _measuring(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        source = sc.build(torch.device(check_device(device)))
        try:
            with _GRAD_MODES[mode]():
                result = op.apply(source)
        except Exception:  # noqa: BLE001 - what it raised is the probe's to report
            return source.is_inference(), False
    return source.is_inference(), isinstance(result, torch.Tensor) and result.is_inference()
