"""Module-level copies: what ``model.to()``, ``copy.deepcopy(model)`` and the state dicts return.

A module is not a tensor, so the four questions read a little differently for it:

- **a new object?** or is the result the model (or the optimizer) itself;
- **its own tensors?** are the tensors in the result the model's own tensor objects (``is``),
  so that a change to one is a change to the other in every way;
- **its own memory?** do they share memory with the model's tensors as they were before the
  call;
- **gradients and state**: do they carry the ``.grad`` the model's parameters had? For an
  optimizer, the tensors are its state (Adam's running averages), and this does not apply.

One more question matters only here: did the call **change the model itself**? ``model.to()``
converts a module in place and returns it.

Every answer is counted over the tensors of the result that the source also has, by name
(``"0.weight"``; ``"0.exp_avg"`` for the optimizer's state of its first parameter), so a
partial answer shows as "3 of 7", never as a rounded yes or no. The source is built fresh for
each operation by :func:`trained_model`; nothing here changes the caller's random state.
"""

from __future__ import annotations

import copy
import dataclasses
import html
from collections.abc import Callable, Mapping

import torch

from tcdoc._compare import shares_memory
from tcdoc._locale import english
from tcdoc._names import MODULE_NOT_APPLICABLE, MODULE_SCENARIO, MODULE_SCENARIO_SUMMARY

__all__ = [
    "MODULE_QUESTIONS",
    "MODULE_SCENARIO",
    "MODULE_SCENARIO_SUMMARY",
    "ModuleComparison",
    "ModuleOperation",
    "compare_modules",
    "get_module_operation",
    "module_answers",
    "module_operations",
    "trained_model",
]


@dataclasses.dataclass(frozen=True)
class ModuleOperation:
    """A module-level call that looks like a copy, applied to a model and its optimizer.

    Attributes
    ----------
    name
        Short identifier, used by the ``tcdoc`` command and the pages.
    code
        The code a reader would write, with ``model`` and ``optimizer``.
    summary
        One line on what people use it for.
    apply
        Runs the call on a model and its optimizer.
    source
        ``"model"`` or ``"optimizer"``: whose tensors the result is compared with.
    needs_cuda
        Listed only where CUDA is available.

    """

    name: str
    code: str
    summary: str
    apply: Callable[[torch.nn.Module, torch.optim.Optimizer], object] = dataclasses.field(repr=False)
    source: str = "model"
    needs_cuda: bool = False

    def __post_init__(self) -> None:
        if self.source not in ("model", "optimizer"):
            raise ValueError(f"source must be 'model' or 'optimizer', got {self.source!r}")


def trained_model(device: str = "cpu") -> tuple[torch.nn.Module, torch.optim.Optimizer]:
    """Return a small model after one Adam step: the source of every module operation.

    ``Linear(3, 2)`` then ``BatchNorm1d(2)``: four parameters, each with a ``.grad``, and
    three buffers (the running mean and variance, and an int64 count of batches); the
    optimizer holds a state for each parameter. The weights are drawn from a fixed seed
    without touching the caller's random state.

    >>> from tcdoc._modules import trained_model
    >>> model, optimizer = trained_model()
    >>> len(model.state_dict()), all(p.grad is not None for p in model.parameters())
    (7, True)
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    inputs = torch.linspace(-1.0, 1.0, 12, device=device).reshape(4, 3)
    model(inputs).pow(2).sum().backward()
    optimizer.step()
    return model, optimizer


_OPERATIONS = (
    ModuleOperation(
        "module_to_same_dtype",
        "model.to(torch.float32)",
        "A conversion to the dtype the model already has.",
        lambda model, optimizer: model.to(torch.float32),
    ),
    ModuleOperation(
        "module_to_float64",
        "model.to(torch.float64)",
        "A conversion to another dtype: a copy, as tensor.to() would make?",
        lambda model, optimizer: model.to(torch.float64),
    ),
    ModuleOperation(
        "module_to_cuda",
        'model.to("cuda")',
        "Moving the model to CUDA.",
        lambda model, optimizer: model.to("cuda"),
        needs_cuda=True,
    ),
    ModuleOperation(
        "module_deepcopy",
        "copy.deepcopy(model)",
        "A separate model: the target network or the EMA copy.",
        lambda model, optimizer: copy.deepcopy(model),
    ),
    ModuleOperation(
        "state_dict",
        "model.state_dict()",
        "The weights by name, as people save them.",
        lambda model, optimizer: model.state_dict(),
    ),
    ModuleOperation(
        "state_dict_keep_vars",
        "model.state_dict(keep_vars=True)",
        "The same, asked to keep the parameters themselves.",
        lambda model, optimizer: model.state_dict(keep_vars=True),
    ),
    ModuleOperation(
        "state_dict_deepcopy",
        "copy.deepcopy(model.state_dict())",
        "A snapshot of the weights, such as the best epoch's.",
        lambda model, optimizer: copy.deepcopy(model.state_dict()),
    ),
    ModuleOperation(
        "optimizer_state_dict",
        "optimizer.state_dict()",
        "The optimizer's state, as people save it.",
        lambda model, optimizer: optimizer.state_dict(),
        source="optimizer",
    ),
    ModuleOperation(
        "optimizer_state_dict_deepcopy",
        "copy.deepcopy(optimizer.state_dict())",
        "A snapshot of the optimizer's state.",
        lambda model, optimizer: copy.deepcopy(optimizer.state_dict()),
        source="optimizer",
    ),
)


def module_operations(include_unavailable: bool = False) -> tuple[ModuleOperation, ...]:
    """Return the module-level operations, in reading order (CUDA-only ones where CUDA exists).

    >>> import tcdoc
    >>> [op.code for op in tcdoc.module_operations()][:2]
    ['model.to(torch.float32)', 'model.to(torch.float64)']
    """
    available = torch.cuda.is_available()
    return tuple(op for op in _OPERATIONS if include_unavailable or not op.needs_cuda or available)


def get_module_operation(name: str) -> ModuleOperation:
    """Return the module-level operation called ``name``.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If no module-level operation has that name; the message lists the valid names.

    Examples
    --------
    >>> import tcdoc
    >>> tcdoc.get_module_operation("state_dict").code
    'model.state_dict()'

    """
    if not isinstance(name, str):
        raise TypeError(f"module operation name must be a str, got {type(name).__name__}")
    table = {op.name: op for op in _OPERATIONS}
    if name not in table:
        raise ValueError(f"unknown module operation {name!r}; choose from: {', '.join(table)}")
    return table[name]


@dataclasses.dataclass(frozen=True)
class ModuleComparison:
    """What a module-level call returned, measured against the model (or optimizer) it was given.

    The counts are over the result's tensors that the source has too, matched by name.

    Attributes
    ----------
    new_object
        The result is not the source object (the model, or the optimizer) itself.
    result_type
        The class name of the result, such as ``"Sequential"`` or ``"OrderedDict"``.
    tensors
        How many of the result's tensors were compared.
    same_tensors
        How many of them are the source's own tensor objects (``is``).
    shares_storage
        How many share memory with the source's tensor of that name as it was before the call.
    requires_grad
        How many require grad.
    with_grad
        How many carry a ``.grad`` with the values the source's tensor of that name had;
        ``None`` where the source's tensors had none (an optimizer's state).
    changes_source
        The call changed the source's own tensors: their dtype, device or memory.
    new_bytes
        Bytes of storage behind the result's tensors that the source did not have before.

    """

    new_object: bool
    result_type: str
    tensors: int
    same_tensors: int
    shares_storage: int
    requires_grad: int
    with_grad: int | None
    changes_source: bool
    new_bytes: int

    def as_dict(self) -> dict[str, bool | int | str | None]:
        """Return the fields as a plain dictionary, in declaration order."""
        return dataclasses.asdict(self)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th>{html.escape(name)}</th><td><code>{html.escape(repr(value))}</code></td></tr>"
            for name, value in self.as_dict().items()
        )
        return f'<table class="tcdoc-comparison">{rows}</table>'


@dataclasses.dataclass(frozen=True)
class _Before:
    """A source tensor, an alias of its memory and its ``.grad`` as they were before the call."""

    tensor: torch.Tensor
    memory: torch.Tensor
    dtype: torch.dtype
    device: torch.device
    grad: torch.Tensor | None


def snapshot(source: torch.nn.Module | torch.optim.Optimizer) -> dict[str, _Before]:
    """Record the source's tensors by name before a call, to measure the call against."""
    before = {}
    for name, tensor in named_tensors(source).items():
        grad = tensor.grad.detach().clone() if tensor.is_leaf and tensor.grad is not None else None
        before[name] = _Before(tensor, tensor.detach(), tensor.dtype, tensor.device, grad)
    return before


def compare_modules(
    source: torch.nn.Module | torch.optim.Optimizer, before: Mapping[str, _Before], result: object
) -> ModuleComparison:
    """Measure a module-level call's ``result`` against the ``source`` recorded in ``before``.

    ``before`` comes from :func:`snapshot`, taken just before the call; the source itself is
    read again after it, to tell whether the call changed it. Nothing is changed.

    >>> import tcdoc
    >>> from tcdoc._modules import compare_modules, snapshot, trained_model
    >>> model, _ = trained_model()
    >>> before = snapshot(model)
    >>> report = compare_modules(model, before, model.state_dict())
    >>> report.tensors, report.same_tensors, report.shares_storage
    (7, 0, 7)
    """
    if not isinstance(source, torch.nn.Module | torch.optim.Optimizer):
        raise TypeError(f"source must be a torch.nn.Module or an optimizer, got {type(source).__name__}")
    found = named_tensors(result)
    names = [name for name in found if name in before]
    with_grad = None
    if any(was.grad is not None for was in before.values()):
        with_grad = sum(_carries_grad(found[name], before[name].grad) for name in names)
    owned = {_storage_key(was.memory) for was in before.values()}
    new_storages = {
        _storage_key(tensor): tensor.untyped_storage().nbytes()
        for tensor in found.values()
        if _storage_key(tensor) not in owned
    }
    return ModuleComparison(
        new_object=result is not source,
        result_type=type(result).__name__,
        tensors=len(names),
        same_tensors=sum(found[name] is before[name].tensor for name in names),
        shares_storage=sum(shares_memory(found[name], before[name].memory) for name in names),
        requires_grad=sum(found[name].requires_grad for name in names),
        with_grad=with_grad,
        changes_source=any(_changed(was) for was in before.values()),
        new_bytes=sum(new_storages.values()),
    )


def named_tensors(value: object) -> dict[str, torch.Tensor]:
    """Return the tensors of a module, an optimizer, or a state dict of either, by name.

    A module's are its ``state_dict(keep_vars=True)``: parameters and buffers themselves. An
    optimizer's are its state tensors, named by the parameter's position and the state's key
    (``"0.exp_avg"``), as ``optimizer.state_dict()`` numbers them.
    """
    if isinstance(value, torch.nn.Module):
        return dict(value.state_dict(keep_vars=True))
    if isinstance(value, torch.optim.Optimizer):
        params = [p for group in value.param_groups for p in group["params"]]
        return {
            f"{index}.{key}": state
            for index, param in enumerate(params)
            for key, state in value.state.get(param, {}).items()
            if isinstance(state, torch.Tensor)
        }
    if isinstance(value, Mapping) and "state" in value and "param_groups" in value:
        return {
            f"{index}.{key}": state
            for index, entries in value["state"].items()
            for key, state in entries.items()
            if isinstance(state, torch.Tensor)
        }
    if isinstance(value, Mapping):
        return {str(name): tensor for name, tensor in value.items() if isinstance(tensor, torch.Tensor)}
    return {}


def _carries_grad(tensor: torch.Tensor, grad: torch.Tensor | None) -> bool:
    own = tensor.grad if tensor.is_leaf else None
    if own is None or grad is None or own.shape != grad.shape:
        return False
    return bool(torch.equal(own.detach().cpu().double(), grad.cpu().double()))


def _changed(was: _Before) -> bool:
    tensor = was.tensor
    return tensor.dtype != was.dtype or tensor.device != was.device or not shares_memory(tensor, was.memory)


def _storage_key(tensor: torch.Tensor) -> tuple[torch.device, int]:
    return tensor.device, tensor.untyped_storage().data_ptr()


# -- The questions, in words -----------------------------------------------------------------

MODULE_QUESTIONS = {
    "new_object": "New object?",
    "tensors": "Its own tensors?",
    "memory": "Its own memory?",
    "grads": "Gradients and state",
    "source": "Changes x?",
}
"""The questions asked of a module-level call, keyed as in :func:`module_answers`."""


def module_answers(
    report: ModuleComparison, source: str = "model", translate: Callable[[str], str] | None = None
) -> dict[str, str]:
    """Answer the questions in words, from a measured :class:`ModuleComparison`.

    ``source`` names what the call was given: ``"model"`` or ``"optimizer"``. The keys are
    those of ``tcdoc.MODULE_QUESTIONS``, which maps each to the question itself. They ask about
    the same object, its own tensors, its own memory, gradients and state, and whether the call
    changed ``x``. ``translate``, if given, receives each English template before it is filled (the
    Sphinx extension passes its message catalogue's lookup).

    >>> import tcdoc
    >>> report = tcdoc.probe_module("state_dict").outcome
    >>> tcdoc.module_answers(report)["tensors"]
    "yes: none of 7 is the model's own"
    >>> tcdoc.module_answers(report)["memory"]
    "no: all 7 share the model's memory"
    """
    if not isinstance(report, ModuleComparison):
        raise TypeError(f"report must be a ModuleComparison, got {type(report).__name__}")
    if source not in ("model", "optimizer"):
        raise ValueError(f"source must be 'model' or 'optimizer', got {source!r}")
    t = english if translate is None else translate
    n = report.tensors
    if source == "model":
        own = _counted(t, report.same_tensors, n, t("is the model's own"), t("are the model's own"))
        memory = _counted(
            t, report.shares_storage, n, t("shares the model's memory"), t("share the model's memory")
        )
    else:
        own = _counted(t, report.same_tensors, n, t("is the optimizer's own"), t("are the optimizer's own"))
        memory = _counted(
            t, report.shares_storage, n, t("shares the optimizer's memory"), t("share the optimizer's memory")
        )
    if report.new_bytes:
        # new_bytes counts the storages of the result's tensors, never those of their .grad (the
        # tensor tables' "new bytes" count a copied .grad too): the words say so.
        memory += t("; {new_bytes} new bytes, .grad not counted").format(new_bytes=report.new_bytes)
    if report.with_grad is None:
        grads = t("n/a: {reason}").format(reason=t(MODULE_NOT_APPLICABLE["with_grad"]))
    elif report.with_grad == 0:
        grads = (
            t("none carries the model's .grad")
            if source == "model"
            else t("none carries the optimizer's .grad")
        )
    elif source == "model":
        grads = t("{count} carry the model's .grad").format(count=report.with_grad)
    else:
        grads = t("{count} carry the optimizer's .grad").format(count=report.with_grad)
    if report.new_object:
        new_object = t("yes: {type}").format(type=report.result_type)
    else:
        new_object = (
            t("no: it is the model itself") if source == "model" else t("no: it is the optimizer itself")
        )
    if report.changes_source:
        changed = (
            t("yes: the model itself was changed")
            if source == "model"
            else t("yes: the optimizer itself was changed")
        )
    else:
        changed = t("no")
    return {
        "new_object": new_object,
        "tensors": t("{answer}: {detail}").format(answer=_own(t, report.same_tensors, n), detail=own),
        "memory": t("{answer}: {detail}").format(answer=_own(t, report.shares_storage, n), detail=memory),
        "grads": grads,
        "source": changed,
    }


def _own(t: Callable[[str], str], of_x: int, n: int) -> str:
    """Answer "its own?" of the result's ``n`` tensors, ``of_x`` of which are (or share) x's.

    "yes" where none is, "no" where all are, "partly" in between: the count that follows the
    answer then never reads against it.

    >>> _own(english, 0, 7), _own(english, 7, 7), _own(english, 5, 7)
    ('yes', 'no', 'partly')
    """
    if of_x == 0:
        return t("yes")
    if of_x == n:
        return t("no")
    return t("partly")


def _counted(t: Callable[[str], str], k: int, n: int, one: str, many: str) -> str:
    """Say how many of ``n`` tensors do something: "all 7 share", "none of 7 shares", "3 of 7 share"."""
    if k == n and n > 1:
        return t("all {n} {verb}").format(n=n, verb=many)
    if k == 0:
        return t("none of {n} {verb}").format(n=n, verb=one)
    return t("{k} of {n} {verb}").format(k=k, n=n, verb=one if k == 1 else many)
