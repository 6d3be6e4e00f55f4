"""``model.to()`` converts the model itself
========================================

``x.to(torch.float64)`` gives a new tensor and leaves ``x`` alone, so it is natural to read
``model64 = model.to(torch.float64)`` the same way: a float64 copy, with the float32 model
kept. It is not. :meth:`torch.nn.Module.to` converts the model in place and returns it.
This example converts a model that is being trained, follows its parameters and its
optimizer through the conversion, and keeps a float32 copy the way that works.
"""

# %%
# A model in training
# -------------------
# A small regression model and its Adam optimizer, one step into training.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
inputs, targets = torch.randn(16, 3), torch.randn(16, 1)


def train_step() -> float:
    """One step of training on the fixed batch, in the model's own dtype."""
    optimizer.zero_grad()
    dtype = model[0].weight.dtype
    loss = torch.nn.functional.mse_loss(model(inputs.to(dtype)), targets.to(dtype))
    loss.backward()
    optimizer.step()
    return loss.item()


print(f"{train_step() = }")

# %%
# A tensor first
# --------------
# For a tensor, ``to()`` with another dtype returns a new tensor in new memory, and the
# tensor it was called on keeps its dtype.
import tcdoc

x = model[0].weight.detach()
x64 = x.to(torch.float64)
print(f"{x64 is x = }")
print(f"{tcdoc.shares_memory(x, x64) = }")
print(f"{x.dtype = }")

# sphinx_gallery_start_ignore
from tcdoc.claims import claim, raised

_everyday = [scenario.name for scenario in tcdoc.scenarios() if scenario.group == "everyday"]
_converted = {name: tcdoc.probe("to_float64", name).properties for name in _everyday}
_converted = {name: report for name, report in _converted.items() if report is not None}
_tensor_to_is_new = (
    x64 is not x
    and not tcdoc.shares_memory(x, x64)
    and x.dtype == torch.float32
    and x64.dtype == torch.float64
    and bool(_converted)
    and all(report.new_object and not report.shares_storage for report in _converted.values())
)
claim(
    "`x.to(torch.float64)` gives a new tensor and leaves `x` alone",
    _tensor_to_is_new,
    f"x is {x.dtype}, x64 is x: {x64 is x}; x.to(torch.float64) measured {_converted}",
)
claim(
    "For a tensor, `to()` with another dtype returns a new tensor in new memory, and the tensor it was "
    "called on keeps its dtype",
    _tensor_to_is_new,
    f"x is {x.dtype}, x64 is x: {x64 is x}; x.to(torch.float64) measured {_converted}",
)
# sphinx_gallery_end_ignore

# %%
# The model
# ---------
# We keep a reference to the first weight, and a detached alias of its memory, then convert.
weight = model[0].weight
float32_memory = weight.detach()
model64 = model.to(torch.float64)
print(f"{model64 is model = }")
print(f"{model[0].weight is weight = }")
print(f"{weight.dtype = }")

# sphinx_gallery_start_ignore
_converted_in_place = (
    model64 is model
    and model[0].weight is weight
    and weight.dtype == torch.float64
    and float32_memory.dtype == torch.float32
    and not tcdoc.shares_memory(float32_memory, weight)
    and weight.untyped_storage().nbytes() == 2 * float32_memory.untyped_storage().nbytes()
)
claim(
    "{py:meth}`torch.nn.Module.to` converts the model in place and returns it",
    _converted_in_place,
    f"model64 is model: {model64 is model}; the weight is {weight.dtype}",
)
# sphinx_gallery_end_ignore

# %%
# ``model64`` is ``model``, and, with torch's default conversion settings, the first weight is
# the very ``Parameter`` object it was, now holding float64 values in new memory. The float32
# values are no longer in the model: they live on only in the alias we kept.
print(f"{tcdoc.shares_memory(float32_memory, weight) = }")
print(f"{float32_memory.dtype = }")


# sphinx_gallery_start_ignore
def _replaced_under_overwrite_setting():
    """Tell whether, with the setting that overwrites parameters on, ``to()`` replaces a layer's weight."""
    future = torch.__future__
    future.set_overwrite_module_params_on_conversion(True)
    try:
        with torch.random.fork_rng(devices=[]):  # the example's random numbers stay as they were
            layer = torch.nn.Linear(3, 4)
        kept = layer.weight
        layer.to(torch.float64)
        return layer.weight is not kept
    finally:
        future.set_overwrite_module_params_on_conversion(False)


claim(
    "`model64` is `model`, and, with torch's default conversion settings, the first weight is the very "
    "`Parameter` object it was, now holding float64 values in new memory. The float32 values are no "
    "longer in the model: they live on only in the alias we kept",
    not torch.__future__.get_overwrite_module_params_on_conversion()
    and not torch.__future__.get_swap_module_params_on_conversion()
    and _converted_in_place
    and _replaced_under_overwrite_setting(),
    "a conversion setting is on by default, or the Parameter stayed the same object under the setting "
    "that overwrites it, or the model was not converted in place",
)
# sphinx_gallery_end_ignore

# %%
# The same object, seen from the outside: the storage of the weight before and after the
# conversion, drawn by :func:`tcdoc.draw.draw`. They are two storages, and the new one holds
# twice the bytes. Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(float32_memory, weight, "model[0].weight, after model.to(torch.float64)")
# sphinx_gallery_thumbnail_number = 1

# sphinx_gallery_start_ignore
claim(
    "They are two storages, and the new one holds twice the bytes",
    not tcdoc.shares_memory(float32_memory, weight)
    and weight.untyped_storage().nbytes() == 2 * float32_memory.untyped_storage().nbytes(),
    f"{weight.untyped_storage().nbytes()} bytes after, {float32_memory.untyped_storage().nbytes()} before",
)
# sphinx_gallery_end_ignore

# %%
# The optimizer was not converted
# -------------------------------
# The optimizer holds the same ``Parameter`` objects, so it would update the converted
# weights. Its state, though, is still float32, and Adam's next step raises. (Not every
# optimizer raises: SGD with momentum and RMSprop, with their other settings at the defaults,
# step on, their state still float32. ``RMSprop(centered=True)`` and
# ``SGD(momentum=0.9, fused=True)`` raise like Adam.)
print(optimizer.param_groups[0]["params"][0] is weight, optimizer.state[weight]["exp_avg"].dtype)
try:
    train_step()
except RuntimeError as error:
    print(f"RuntimeError: {error}")


# sphinx_gallery_start_ignore
def _step_after_conversion(make_optimizer):
    """Step a fresh layer's optimizer, convert the layer to float64, step again.

    Return what the second step raised (None if it stepped on) and the dtypes of the weight's state.
    """
    with torch.random.fork_rng(devices=[]):  # the example's random numbers stay as they were
        layer = torch.nn.Linear(3, 1)
    stepper = make_optimizer(layer.parameters())
    layer(torch.ones(2, 3)).sum().backward()
    stepper.step()
    layer.to(torch.float64)
    stepper.zero_grad()
    layer(torch.ones(2, 3, dtype=torch.float64)).sum().backward()
    error = raised(stepper.step)
    return error, {name: value.dtype for name, value in stepper.state[layer.weight].items()}


_adam_error, _ = _step_after_conversion(torch.optim.Adam)
# with their other settings at the defaults, these step on and keep their state float32
_step_on = {
    "SGD(momentum=0.9)": _step_after_conversion(lambda params: torch.optim.SGD(params, lr=0.1, momentum=0.9)),
    "RMSprop()": _step_after_conversion(torch.optim.RMSprop),
}
# the readers' breaks: a centered RMSprop keeps a grad_avg it updates with lerp_, which refuses
# float64, and the fused SGD kernel wants one dtype
_raise_like_adam = {
    "RMSprop(centered=True)": _step_after_conversion(
        lambda params: torch.optim.RMSprop(params, centered=True)
    ),
    "SGD(momentum=0.9, fused=True)": _step_after_conversion(
        lambda params: torch.optim.SGD(params, lr=0.1, momentum=0.9, fused=True)
    ),
}
claim(
    "The optimizer holds the same `Parameter` objects, so it would update the converted weights. Its "
    "state, though, is still float32, and Adam's next step raises. (Not every optimizer raises: SGD with "
    "momentum and RMSprop, with their other settings at the defaults, step on, their state still float32. "
    "`RMSprop(centered=True)` and `SGD(momentum=0.9, fused=True)` raise like Adam.)",
    optimizer.param_groups[0]["params"][0] is weight
    and optimizer.state[weight]["exp_avg"].dtype == torch.float32
    and isinstance(_adam_error, RuntimeError)
    and all(
        error is None and dtypes and set(dtypes.values()) == {torch.float32}
        for error, dtypes in _step_on.values()
    )
    and all(
        isinstance(error, RuntimeError) and "type" in str(error) for error, _ in _raise_like_adam.values()
    ),
    f"Adam's step gave {_adam_error!r}; stepping on: {_step_on}; raising: {_raise_like_adam}",
)
# sphinx_gallery_end_ignore

# %%
# Loading the optimizer's own state dict back converts its floating-point state
# (``exp_avg``, ``exp_avg_sq``) to the dtype of each parameter, and training goes on in float64.
# Adam's ``step`` counter stays float32.
optimizer.load_state_dict(optimizer.state_dict())
print(f'{optimizer.state[weight]["exp_avg"].dtype = }')
print(f"{round(train_step(), 4) = }")

# sphinx_gallery_start_ignore
_dtypes = [{name: value.dtype for name, value in state.items()} for state in optimizer.state.values()]
claim(
    "Loading the optimizer's own state dict back converts its floating-point state (`exp_avg`, "
    "`exp_avg_sq`) to the dtype of each parameter, and training goes on in float64. Adam's `step` "
    "counter stays float32",
    len(_dtypes) == len(list(model.parameters()))
    and all(p.dtype == torch.float64 for p in model.parameters())
    and all(
        dtypes == {"step": torch.float32, "exp_avg": torch.float64, "exp_avg_sq": torch.float64}
        for dtypes in _dtypes
    ),
    f"after loading, the state's dtypes are {_dtypes}",
)
# sphinx_gallery_end_ignore

# %%
# Keeping the float32 model
# -------------------------
# To keep the model as it was, copy it *before* converting. The deep copy shares no tensor
# and no memory with the model, so converting the model leaves the copy float32.
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
import copy

original = copy.deepcopy(model)
model.to(torch.float64)
print(f"{original[0].weight.dtype = }")
print(f"{model[0].weight.dtype = }")

# sphinx_gallery_start_ignore
_deep = tcdoc.probe_module("module_deepcopy").outcome  # a trained model with buffers and an optimizer
_kept_state, _converted_state = original.state_dict(keep_vars=True), model.state_dict(keep_vars=True)
_pairs = [(_kept_state[name], _converted_state[name]) for name in _converted_state]
claim(
    "The deep copy shares no tensor and no memory with the model, so converting the model leaves the "
    "copy float32",
    all(kept is not converted and not tcdoc.shares_memory(kept, converted) for kept, converted in _pairs)
    and all(kept.dtype == torch.float32 for kept, _ in _pairs)
    and isinstance(_deep, tcdoc.ModuleComparison)
    and _deep.new_object
    and _deep.same_tensors == 0
    and _deep.shares_storage == 0
    and _deep.changes_source is False,
    f"copy.deepcopy(model) measured {_deep}; the copy's dtypes are {[kept.dtype for kept, _ in _pairs]}",
)
# sphinx_gallery_end_ignore

# %%
# Every module-level call, measured
# ---------------------------------
# :func:`tcdoc.probe_module` builds a fresh trained model for each call and answers the
# questions for it; ``x`` is the model, or the optimizer for the optimizer's rows.
for op in tcdoc.module_operations():
    answers = tcdoc.module_answers(tcdoc.probe_module(op).outcome, op.source)
    print(f"{op.code:40} new object? {answers['new_object']:28} changes x? {answers['source']}")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# ``state_dict()`` and its references: :doc:`plot_10_best_model`. The other look-alikes,
# module-level calls included: :doc:`/explanation/look-alikes`.
