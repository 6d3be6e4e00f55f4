"""Keeping the best model: ``state_dict()`` is not a snapshot
==========================================================

A common training loop keeps the weights of the epoch with the best validation score with
``best = model.state_dict()``, and loads them at the end. It loads the *last* weights
instead: :meth:`~torch.nn.Module.state_dict` returns tensors that share memory with the
model's parameters, so every training step that writes new values into them in place, as an
optimizer's ``step()`` does, changes ``best`` as well. This example trains a tiny model, catches the problem
with measurements, and checks the two usual fixes.
"""

# %%
# A tiny regression problem: few noisy training points, so that the model starts to fit the
# noise and the validation loss turns back up after a few steps.
import torch
from torch import nn

torch.manual_seed(5)
true_weight = torch.randn(4, 1)
train_x = torch.randn(6, 4)
train_y = train_x @ true_weight + torch.randn(6, 1)
valid_x = torch.randn(64, 4)
valid_y = valid_x @ true_weight


def validation_loss(model: nn.Module) -> float:
    """Return the mean squared error on the validation points."""
    with torch.no_grad():
        return nn.functional.mse_loss(model(valid_x), valid_y).item()


# %%
# The training loop takes the way to keep the best weights as an argument, ``snapshot``,
# so that we can run it unchanged with each. It seeds the model, so every run starts from
# the same weights and takes the same steps. Each step is plain gradient descent, written
# out: it changes every parameter in place, with ``-=``.
from collections.abc import Callable

State = dict[str, torch.Tensor]


def train(snapshot: Callable[[nn.Module], State], steps: int = 8) -> tuple[nn.Module, State, list[float]]:
    """Train, keeping ``snapshot(model)`` whenever the validation loss is the lowest so far."""
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    losses: list[float] = []
    best: State = {}
    for _ in range(steps):
        nn.functional.mse_loss(model(train_x), train_y).backward()
        with torch.no_grad():
            for parameter in model.parameters():
                parameter -= 0.1 * parameter.grad
                parameter.grad = None
        losses.append(validation_loss(model))
        if losses[-1] == min(losses):
            best = snapshot(model)
    return model, best, losses


# %%
# First with ``model.state_dict()``. The validation losses go down, then up: the best step
# (counted from 0) is not the last.
model, best, losses = train(lambda model: model.state_dict())
best_step = losses.index(min(losses))
assert best_step < len(losses) - 1
print(best_step, [round(loss, 3) for loss in losses])

# %%
# Yet ``best`` holds exactly the weights the model has now, after the last step:
print(f'{torch.equal(best["weight"], model.weight) = }')
print(f'{torch.equal(best["bias"], model.bias) = }')

# %%
# Because ``best["weight"]`` is the parameter's memory, detached: a new tensor object that
# shares storage and version counter with ``model.weight``, as ``detach()`` gives.
import tcdoc

print(tcdoc.compare(model.weight, best["weight"]))

# %%
# The same measurement as a picture, drawn by :func:`tcdoc.draw.draw`: the two tensors on
# one storage and one version counter.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(
    model.weight, best["weight"], 'model.state_dict()["weight"]', names=("model.weight", 'best["weight"]')
)

# %%
# So loading ``best`` changes nothing, and the validation loss is that of the last step,
# not the best one.
model.load_state_dict(best)
print(f"{validation_loss(model) == losses[-1] = }")
print(f"{validation_loss(model) == min(losses) = }")

# %%
# Fix 1: a deep copy of the state dict
# ------------------------------------
# :func:`copy.deepcopy` copies every tensor of the dictionary into memory of its own.
import copy

model, best, losses = train(lambda model: copy.deepcopy(model.state_dict()))
print(f'{tcdoc.shares_memory(best["weight"], model.weight) = }')

# %%
# Loading it restores the best weights: the validation loss is the lowest one seen.
model.load_state_dict(best)
assert validation_loss(model) == min(losses)
print(f"{validation_loss(model) = }")
print(f"{min(losses) = }")

# %%
# Fix 2: clone each tensor
# ------------------------
# ``{name: tensor.detach().clone() ...}`` does the same for a flat dictionary of tensors.
# Unlike deepcopy, it copies tensors that share memory separately: see
# :doc:`plot_11_ema_target_network` for where that matters.
model, best, losses = train(
    lambda model: {name: tensor.detach().clone() for name, tensor in model.state_dict().items()}
)
model.load_state_dict(best)
assert validation_loss(model) == min(losses)
print(f"{validation_loss(model) = }")
print(f"{min(losses) = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Which copy to make for each purpose: :doc:`/howto/which-copy`. Why ``state_dict()``
# tensors behave like ``detach()``: :doc:`/explanation/detach`.
