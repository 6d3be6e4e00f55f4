"""Each operation's displayed code, run as written, against the ``apply`` that the probe measures.

The site shows an operation's ``code`` (``torch.empty_like(x).copy_(x)``) and states what its
``apply`` did; until issue 31 nothing tied the two, and the ground-truth tests of
``test_probe.py`` call ``apply`` again. Here the expected side is the code string itself,
evaluated with ``x`` bound to a fresh source; ``apply`` runs on another source built the same
way, and every fact the site can state is compared field by field: the result's type, dtype,
shape, strides, device, autograd state and values, the source after the call, the memory and
version counter they share, what each in-place write reaches (``tcdoc.compare``, on fresh pairs
of each side's own), the gradient a backward pass brings to ``x``, and the warnings. Where the
code raises, ``apply`` must raise the same exception with the same message.

Module-level operations (``model.to(...)``, ``model.state_dict()``) show code too, with
``model`` and ``optimizer``: they are checked the same way, on a fresh trained model each.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import io
import warnings
from collections.abc import Callable, Iterator, Mapping

import pytest
import torch

import tcdoc
from tcdoc._modules import compare_modules, snapshot, trained_model
from tcdoc._probe import _plain

CPU = torch.device("cpu")

# The grad modes, as torch spells them; the test below checks that they are the registry's.
MODES: dict[str, Callable[[], contextlib.AbstractContextManager[object]]] = {
    "enabled": torch.enable_grad,
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
}

MODULES = {"copy": copy, "io": io, "torch": torch}
"""What a reader has imported before running a displayed code: ``import copy, io, torch``."""


@dataclasses.dataclass(frozen=True)
class StandIn:
    """The Python that runs a displayed code which is not Python as written.

    Attributes
    ----------
    why
        Why the displayed code cannot run as it is.
    code
        Statements that do what its words say and leave the result in ``y``.
    fragments
        The pieces of Python in the displayed code, each found in ``code``, in this order.

    """

    why: str
    code: str
    fragments: tuple[str, ...]


STAND_INS = {
    "save_load": StandIn(
        why=(
            "the code is words: 'torch.load(buffer) after torch.save(x, buffer)', two calls in "
            "the order they read, around an in-memory buffer the words leave out"
        ),
        code="buffer = io.BytesIO()\ntorch.save(x, buffer)\nbuffer.seek(0)\ny = torch.load(buffer)",
        fragments=("torch.save(x, buffer)", "torch.load(buffer)"),
    ),
}
"""The only displayed codes not run as written, each with why; a test keeps the list this short."""


@dataclasses.dataclass(frozen=True)
class Raised:
    """An exception, as the probe records it: its type's name and its words."""

    type: str
    message: str


# -- The checks ----------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _measuring() -> Iterator[None]:
    """Set torch up as the probe does, and restore it after.

    Torch repeats the warnings it gives once per process, so that both sides see each one; and
    it runs on one thread, since waking a pool for tensors of six elements costs more than the work.
    """
    kept = torch.is_warn_always_enabled(), torch.get_num_threads()
    torch.set_warn_always(True)
    torch.set_num_threads(1)
    yield
    torch.set_warn_always(kept[0])
    torch.set_num_threads(kept[1])


OPERATIONS = [op.name for op in tcdoc.operations()]
SCENARIOS = [sc.name for sc in tcdoc.scenarios()]
CELLS = [(op, sc, mode) for op in OPERATIONS for sc in SCENARIOS for mode in MODES]


@pytest.mark.parametrize(("operation", "scenario", "grad_mode"), CELLS)
def test_displayed_code_does_what_apply_does(operation: str, scenario: str, grad_mode: str) -> None:
    """Run the displayed code and ``apply``, each on its own fresh source, and compare every fact."""
    op = tcdoc.get_operation(operation)
    for package in op.needs:
        pytest.importorskip(package)  # the probe records such a cell as not run
    sc = tcdoc.get_scenario(scenario)
    expected = outcome(displayed(op.name), sc, grad_mode)
    actual = outcome(op.apply, sc, grad_mode)
    assert actual == expected


@pytest.mark.parametrize("name", [op.name for op in tcdoc.module_operations()])
def test_displayed_module_code_does_what_apply_does(name: str) -> None:
    """The same for a module-level operation: its code, with ``model`` and ``optimizer``, and ``apply``."""
    op = tcdoc.get_module_operation(name)

    def from_code(model: torch.nn.Module, optimizer: torch.optim.Optimizer) -> object:
        namespace = {**MODULES, "model": model, "optimizer": optimizer}
        return eval(op.code, namespace)  # running the code is the test

    assert module_outcome(op.apply, op.source) == module_outcome(from_code, op.source)


def test_the_registry_measures_these_grad_modes() -> None:
    assert tuple(MODES) == tcdoc.GRAD_MODES


def test_every_code_runs_as_written_but_a_listed_few() -> None:
    """Every displayed code is one Python expression, but for the stand-ins, which stay few and true."""
    codes = {op.name: op.code for op in tcdoc.operations(include_unavailable=True)}
    assert len(STAND_INS) <= 1
    for name, code in codes.items():
        if name not in STAND_INS:
            compile(code, f"<code of {name}>", "eval")
    for name, stand_in in STAND_INS.items():
        assert name in codes
        with pytest.raises(SyntaxError):  # a stand-in for a code that runs would hide it
            compile(codes[name], f"<code of {name}>", "exec")
        where = [stand_in.code.index(fragment) for fragment in stand_in.fragments]
        assert where == sorted(where)
        assert all(fragment in codes[name] for fragment in stand_in.fragments)
    for op in tcdoc.module_operations(include_unavailable=True):
        compile(op.code, f"<code of {op.name}>", "eval")


def test_a_changed_function_is_found() -> None:
    """The comparison can fail: ``x.detach()`` is not what ``x.detach().clone()`` shows."""
    sc = tcdoc.get_scenario("no_grad")
    assert outcome(lambda x: x.detach(), sc, "enabled") != outcome(displayed("detach_clone"), sc, "enabled")
    assert outcome(lambda x: x, sc, "enabled") != outcome(displayed("view"), sc, "enabled")
    # A state dict in place of its deep copy: the same keys and values, but the model's memory.
    assert module_outcome(lambda model, _: model.state_dict(), "model") != module_outcome(
        lambda model, _: copy.deepcopy(model.state_dict()), "model"
    )


def test_a_different_error_is_found() -> None:
    sc = tcdoc.get_scenario("non_leaf")
    raised = outcome(displayed("deepcopy"), sc, "enabled")
    assert isinstance(raised, Raised)
    assert raised.type == "RuntimeError"
    assert outcome(displayed("clone"), sc, "enabled") != raised


# -- Running a code ------------------------------------------------------------------------


def displayed(name: str) -> Callable[[torch.Tensor], object]:
    """Return a function that runs the operation's displayed code, or its stand-in, on ``x``.

    >>> displayed("detach")(torch.ones(2, requires_grad=True)).requires_grad
    False
    """
    code = tcdoc.get_operation(name).code
    if name in STAND_INS:
        statements = compile(STAND_INS[name].code, f"<stand-in for {name}>", "exec")

        def run_statements(x: torch.Tensor) -> object:
            namespace = {**MODULES, "x": x}
            exec(statements, namespace)  # running the code is the test
            return namespace["y"]

        return run_statements
    expression = compile(code, f"<code of {name}>", "eval")

    def run(x: torch.Tensor) -> object:
        return eval(expression, {**MODULES, "x": x})  # running the code is the test

    return run


def outcome(run: Callable[[torch.Tensor], object], scenario: tcdoc.Scenario, grad_mode: str) -> object:
    """Build a fresh source, call ``run`` on it under ``grad_mode``, and return every fact found.

    What it raised, as a :class:`Raised`, or a dictionary: :func:`tcdoc.compare`'s fields (the
    in-place writes on fresh pairs that ``run`` makes), the facts of the result and of the
    source after the call, the gradient that reaches the source, and the warnings.
    """

    def remake() -> tuple[torch.Tensor, object]:
        fresh = scenario.build(CPU)
        with MODES[grad_mode]():
            return fresh, run(fresh)

    source = scenario.build(CPU)
    before = tcdoc.footprint(source)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with MODES[grad_mode]():
                result = run(source)
        except Exception as exc:  # noqa: BLE001 - the error is the outcome
            return Raised(type(exc).__name__, _plain(str(exc)))
    found: dict[str, object] = {
        "warnings": [(w.category.__name__, _plain(str(w.message))) for w in caught],
        "result": describe(result),
        "source": describe(source),
        "gradient": gradient(source, result),
    }
    found.update(tcdoc.compare(source, result, before=before, remake=remake).as_dict())
    return found


def module_outcome(
    run: Callable[[torch.nn.Module, torch.optim.Optimizer], object], source_name: str
) -> object:
    """Call ``run`` on a fresh trained model and its optimizer; return every fact, as :func:`outcome`."""
    model, optimizer = trained_model()
    source = model if source_name == "model" else optimizer
    before = snapshot(source)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = run(model, optimizer)
        except Exception as exc:  # noqa: BLE001 - the error is the outcome
            return Raised(type(exc).__name__, _plain(str(exc)))
    return {
        "warnings": [(w.category.__name__, _plain(str(w.message))) for w in caught],
        "result": describe(result),
        "model": describe(model),
        "optimizer": describe(optimizer),
        "result is model": result is model,
        "result is optimizer": result is optimizer,
        **compare_modules(source, before, result).as_dict(),
    }


# -- Describing what a code returned --------------------------------------------------------


def describe(value: object) -> object:
    """Return what can be seen of ``value`` as plain Python, to compare with ``==``.

    Tensors by :func:`tensor_facts`; modules by their class, mode and tensors; optimizers by
    their class and state dict; lists, tuples and mappings item by item; anything else as it is.

    >>> describe([1.0, float("nan")])
    ('list', [1.0, 'nan'])
    >>> describe(torch.ones(2))["values"]
    [1.0, 1.0]
    """
    if isinstance(value, torch.Tensor):
        return tensor_facts(value)
    if isinstance(value, torch.nn.Module):
        return (type(value), value.training, describe(value.state_dict(keep_vars=True)))
    if isinstance(value, torch.optim.Optimizer):
        return (type(value), describe(value.state_dict()))
    if isinstance(value, Mapping):
        return (type(value), [(key, describe(item)) for key, item in value.items()])
    if isinstance(value, list | tuple):
        return (type(value).__name__, [describe(item) for item in value])
    return plain(value)


def tensor_facts(tensor: torch.Tensor) -> dict[str, object]:
    """Return what a reader can see of ``tensor``: class, dtype, layout, memory, autograd and values."""
    strided = tensor.layout == torch.strided
    leaf_grad = tensor.grad if tensor.is_leaf else None  # reading it on a non-leaf warns
    return {
        "type": type(tensor),
        "dtype": tensor.dtype,
        "shape": tuple(tensor.shape),
        "strides": tensor.stride() if strided else None,
        "storage_offset": tensor.storage_offset() if strided else None,
        "layout": tensor.layout,
        "device": tensor.device,
        "is_shared": tensor.is_shared() if strided else None,  # type: ignore[no-untyped-call]
        "is_pinned": tensor.is_pinned(),
        "requires_grad": tensor.requires_grad,
        "is_leaf": tensor.is_leaf,
        "grad_fn": None if tensor.grad_fn is None else type(tensor.grad_fn).__name__,
        "is_conj": tensor.is_conj(),
        "is_neg": tensor.is_neg(),
        "is_inference": tensor.is_inference(),
        "version": version(tensor),
        "attributes": {name: repr(item) for name, item in vars(tensor).items()},
        "hooks": len(getattr(tensor, "_backward_hooks", None) or {}),
        "values": values(tensor),
        "grad": None if leaf_grad is None else values(leaf_grad),
    }


def values(tensor: torch.Tensor) -> object:
    """Return the values of ``tensor`` as nested Python lists, each NaN as ``"nan"`` (NaN-aware)."""
    with torch.inference_mode(False), torch.no_grad():
        dense = tensor.detach()
        if dense.layout != torch.strided:
            dense = dense.to_dense()
        return plain(dense.resolve_conj().resolve_neg().tolist())


def plain(value: object) -> object:
    """Return ``value`` with every NaN written ``"nan"``, so that ``==`` finds two NaNs alike.

    >>> plain([[1.0, float("nan")], (2, complex("nan+1j"))])
    [[1.0, 'nan'], [2, 'nan']]
    """
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, float | complex) and value != value:  # only NaN differs from itself
        return "nan"
    return value


def version(tensor: torch.Tensor) -> int | None:
    """Return the version counter of ``tensor``, or ``None`` for an inference tensor without one."""
    try:
        return tensor._version
    except RuntimeError:
        return None


def gradient(source: torch.Tensor, result: object) -> object:
    """Return the gradient that ``result.sum()``'s backward pass brings to ``source``.

    ``None`` where no backward pass can be asked (a result that is no tensor, or either one not
    requiring grad) or where it does not reach ``source``; a :class:`Raised` where autograd refuses.
    """
    if not (isinstance(result, torch.Tensor) and source.requires_grad and result.requires_grad):
        return None
    try:
        with torch.enable_grad():
            (grad,) = torch.autograd.grad(result.sum(), source, allow_unused=True)
    except RuntimeError as exc:
        return Raised(type(exc).__name__, _plain(str(exc)))
    return None if grad is None else values(grad)
