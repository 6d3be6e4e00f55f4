"""The claims that ``examples/plot_22_module_to.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

import torch

from _checks._helpers import backward, everyday, keep_a_copy_first, raises, raises_saying, where_measured
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _weight_and_alias(matrix: Matrix) -> tuple[torch.Tensor, torch.Tensor, torch.nn.Linear, torch.nn.Module]:
    """Return a layer's weight, an alias of its float32 memory, the layer and what ``to(float64)`` gave."""
    layer = torch.nn.Linear(3, 4)
    weight = layer.weight
    alias = weight.detach()
    converted = layer.to(torch.float64)
    return weight, alias, layer, converted


def _tensor_to_is_new(matrix: Matrix) -> None:
    for scenario, report in where_measured(matrix, "to_float64", everyday()):
        expect(report.new_object and not report.shares_storage, f"to(float64) on {scenario}: {report}")
    x = torch.ones(2)
    x.to(torch.float64)
    expect(x.dtype == torch.float32, "x changed dtype")


def _module_weight_converted_in_place(matrix: Matrix) -> None:
    weight, alias, model, converted = _weight_and_alias(matrix)
    expect(converted is model and model.weight is weight, "the model or its Parameter was replaced")
    expect(weight.dtype == torch.float64 and not shares_memory(alias, weight), "the weight was not converted")
    expect(alias.dtype == torch.float32, "the alias is not float32")
    expect(weight.untyped_storage().nbytes() == 2 * alias.untyped_storage().nbytes(), "not twice the bytes")


def _same_parameter_under_default_settings_only(matrix: Matrix) -> None:
    """Check the default settings (the example's), and that the overwrite setting replaces the weight."""
    future = torch.__future__
    expect(not future.get_overwrite_module_params_on_conversion(), "the overwrite setting is on by default")
    expect(not future.get_swap_module_params_on_conversion(), "the swap setting is on by default")
    _module_weight_converted_in_place(matrix)
    future.set_overwrite_module_params_on_conversion(True)
    try:
        layer = torch.nn.Linear(3, 4)
        weight = layer.weight
        layer.to(torch.float64)
        expect(layer.weight is not weight, "with the overwrite setting, the Parameter object stayed")
    finally:
        future.set_overwrite_module_params_on_conversion(False)


def _optimizer_not_converted(matrix: Matrix) -> None:
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.Adam(model.parameters())
    backward(model(torch.ones(2, 3)).sum())
    optimizer.step()
    model.to(torch.float64)
    optimizer.zero_grad()
    expect(optimizer.param_groups[0]["params"][0] is model.weight, "the optimizer lost the Parameter")
    expect(optimizer.state[model.weight]["exp_avg"].dtype == torch.float32, "the state was converted")
    backward(model(torch.ones(2, 3, dtype=torch.float64)).sum())
    raises_saying(optimizer.step)
    optimizer.load_state_dict(optimizer.state_dict())
    state = {name: value.dtype for name, value in optimizer.state[model.weight].items()}
    expect(
        state == {"step": torch.float32, "exp_avg": torch.float64, "exp_avg_sq": torch.float64},
        f"after loading, the state's dtypes are {state}",
    )
    optimizer.step()
    for state_name in ("momentum_buffer", "square_avg"):
        model = torch.nn.Linear(3, 1)
        other: torch.optim.Optimizer
        if state_name == "momentum_buffer":
            other = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        else:
            other = torch.optim.RMSprop(model.parameters())
        backward(model(torch.ones(2, 3)).sum())
        other.step()
        model.to(torch.float64)
        other.zero_grad()
        backward(model(torch.ones(2, 3, dtype=torch.float64)).sum())
        other.step()  # raises, and fails the check, if this optimizer refuses the mixed dtypes
        kept = other.state[model.weight][state_name].dtype
        expect(kept == torch.float32, f"{type(other).__name__}'s state became {kept}")
    # The readers' breaks: a centered RMSprop keeps a grad_avg it updates with lerp_, which refuses
    # float64, and the fused SGD kernel wants one dtype.
    makers: dict[str, Callable[[Iterable[torch.nn.Parameter]], torch.optim.Optimizer]] = {
        "RMSprop(centered=True)": lambda params: torch.optim.RMSprop(params, centered=True),
        "SGD(momentum=0.9, fused=True)": lambda params: torch.optim.SGD(
            params, lr=0.1, momentum=0.9, fused=True
        ),
    }
    for name, make in makers.items():
        model = torch.nn.Linear(3, 1)
        mixed = make(model.parameters())
        backward(model(torch.ones(2, 3)).sum())
        mixed.step()
        model.to(torch.float64)
        mixed.zero_grad()
        backward(model(torch.ones(2, 3, dtype=torch.float64)).sum())
        error = raises(mixed.step)
        expect("type" in str(error), f"{name}: {error}")


def _deepcopy_before_converting(matrix: Matrix) -> None:
    keep_a_copy_first(matrix)
    model = torch.nn.Linear(3, 1)
    original = copy.deepcopy(model)
    model.to(torch.float64)
    expect(original.weight.dtype == torch.float32, "the copy was converted too")


CLAIMS = [
    Claim(
        "tensor-to", _tensor_to_is_new, quote="`x.to(torch.float64)` gives a new tensor and leaves `x` alone"
    ),
    Claim(
        "module-to",
        _module_weight_converted_in_place,
        quote="{py:meth}`torch.nn.Module.to` converts the model in place and returns it",
    ),
    Claim(
        "tensor-keeps-dtype",
        _tensor_to_is_new,
        quote="For a tensor, `to()` with another dtype returns a new tensor in new memory, and the tensor "
        "it was "
        "called on keeps its dtype",
    ),
    Claim(
        "same-parameter",
        _same_parameter_under_default_settings_only,
        quote="`model64` is `model`, and, with torch's default conversion settings, the first weight is the "
        "very `Parameter` object it was, now holding float64 values in new memory. The float32 values are "
        "no longer in the model: they live on only in the alias we kept",
        scope="stated: the model of the example, whose tensors are all float32 parameters",
    ),
    Claim(
        "two-storages",
        _module_weight_converted_in_place,
        quote="They are two storages, and the new one holds twice the bytes",
    ),
    Claim(
        "optimizer",
        _optimizer_not_converted,
        quote="The optimizer holds the same `Parameter` objects, so it would update the converted "
        "weights. Its state, though, is still float32, and Adam's next step raises. (Not every optimizer "
        "raises: SGD with momentum and RMSprop, with their other settings at the defaults, step on, their "
        "state still float32. `RMSprop(centered=True)` and `SGD(momentum=0.9, fused=True)` raise like "
        "Adam.)",
        scope="stated: Adam, SGD with momentum and RMSprop with their defaults, centered RMSprop, fused SGD "
        "with momentum",
    ),
    Claim(
        "load-state-dict",
        _optimizer_not_converted,
        quote="Loading the optimizer's own state dict back converts its floating-point state (`exp_avg`, "
        "`exp_avg_sq`) to the dtype of each parameter, and training goes on in float64. Adam's `step` "
        "counter stays float32",
        scope="stated: Adam's state, after loading its own state dict",
    ),
    Claim(
        "copy-first",
        _deepcopy_before_converting,
        quote="The deep copy shares no tensor and no memory with the model, so converting the model "
        "leaves the "
        "copy float32",
    ),
]
