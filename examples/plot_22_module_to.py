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

# %%
# ``model64`` is ``model``, and, with torch's default conversion settings, the first weight is
# the very ``Parameter`` object it was, now holding float64 values in new memory. The float32
# values are no longer in the model: they live on only in the alias we kept.
print(f"{tcdoc.shares_memory(float32_memory, weight) = }")
print(f"{float32_memory.dtype = }")

# %%
# The same object, seen from the outside: the storage of the weight before and after the
# conversion, drawn by :func:`tcdoc.draw.draw`. They are two storages, and the new one holds
# twice the bytes. Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(float32_memory, weight, "model[0].weight, after model.to(torch.float64)")
# sphinx_gallery_thumbnail_number = 1

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

# %%
# Loading the optimizer's own state dict back converts its floating-point state
# (``exp_avg``, ``exp_avg_sq``) to the dtype of each parameter, and training goes on in float64.
# Adam's ``step`` counter stays float32.
optimizer.load_state_dict(optimizer.state_dict())
print(f'{optimizer.state[weight]["exp_avg"].dtype = }')
print(f"{round(train_step(), 4) = }")

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
