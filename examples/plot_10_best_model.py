"""Keeping the best model: ``state_dict()`` is not a snapshot
==========================================================

A common training loop keeps the weights of the epoch with the best validation score with
``best = model.state_dict()``, and loads them at the end. It loads the *last* weights
instead. :meth:`~torch.nn.Module.state_dict` returns tensors that share memory with the
model's parameters. So every training step that writes new values into them in place, as an
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

# sphinx_gallery_start_ignore
import tcdoc
from tcdoc.claims import claim


def _sgd_step(model: nn.Module) -> None:
    torch.optim.SGD(model.parameters(), lr=0.1).step()


def _adam_step(model: nn.Module) -> None:
    torch.optim.Adam(model.parameters(), lr=0.1).step()


def _subtract_in_place(model: nn.Module) -> None:
    for parameter in model.parameters():
        parameter -= 0.1 * parameter.grad


def _rebind_data(model: nn.Module) -> None:
    for parameter in model.parameters():
        parameter.data = parameter.data - 0.1 * parameter.grad


def _set(model: nn.Module) -> None:
    for parameter in model.parameters():
        parameter.set_(parameter - 0.1 * parameter.grad)


def _best_changed_by(step: Callable[[nn.Module], None]) -> bool:
    """Take ``best = model.state_dict()`` of a fresh model, run one ``step``; whether ``best`` changed."""
    with torch.random.fork_rng(devices=[]):  # the example's random numbers stay as they were
        model = nn.Linear(4, 1)
    best = model.state_dict()
    before = {name: tensor.clone() for name, tensor in best.items()}
    nn.functional.mse_loss(model(train_x), train_y).backward()
    with torch.no_grad():
        step(model)
    return not all(torch.equal(best[name], before[name]) for name in best)


# Steps that write into the parameters in place change best; steps that give them new memory do not.
_in_place = {"SGD.step()": _sgd_step, "Adam.step()": _adam_step, "p -= lr * p.grad": _subtract_in_place}
_rebinding = {"p.data = p.data - lr * p.grad": _rebind_data, "p.set_(p - lr * p.grad)": _set}
_changed = {name: _best_changed_by(step) for name, step in (_in_place | _rebinding).items()}
claim(
    "`state_dict` returns tensors that share memory with the model's parameters. So every training step "
    "that writes new values into them in place, as an optimizer's `step()` does, changes `best` as well",
    best_step < len(losses) - 1
    and all(torch.equal(best[name], tensor) for name, tensor in model.state_dict().items())
    and all(tcdoc.shares_memory(best[name], tensor) for name, tensor in model.named_parameters())
    and all(_changed[name] for name in _in_place)
    and not any(_changed[name] for name in _rebinding),
    f"best was taken at step {best_step} of {len(losses)}; best changed with {_changed}",
)
# sphinx_gallery_end_ignore

# %%
# Because ``best["weight"]`` is the parameter's memory, detached. It is a new tensor object that
# shares storage and version counter with ``model.weight``, as ``detach()`` gives.
import tcdoc

print(tcdoc.compare(model.weight, best["weight"]))

# sphinx_gallery_start_ignore
_measured = tcdoc.compare(model.weight, best["weight"])
claim(
    'Because `best["weight"]` is the parameter\'s memory, detached. It is a new tensor object '
    "that shares storage and version counter with `model.weight`, as `detach()` gives",
    type(best["weight"]) is torch.Tensor
    and _measured.new_object
    and _measured.shares_storage
    and _measured.shares_version_counter
    and _measured.as_dict() == tcdoc.compare(model.weight, model.weight.detach()).as_dict(),
    f"best['weight'] is a {type(best['weight']).__name__}, measured {_measured.as_dict()}",
)
# sphinx_gallery_end_ignore

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

# sphinx_gallery_start_ignore
claim(
    "`copy.deepcopy` copies every tensor of the dictionary into memory of its own",
    best.keys() == model.state_dict().keys()
    and not any(tcdoc.shares_memory(best[name], tensor) for name, tensor in model.state_dict().items()),
    f"the copies of {[name for name in best if tcdoc.shares_memory(best[name], model.state_dict()[name])]} "
    "share memory with the model",
)
# sphinx_gallery_end_ignore

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

# sphinx_gallery_start_ignore


def _still_shared(make_copy: Callable[[State], State]) -> dict[str, bool]:
    """Copy the state of a model whose two layers share one weight; whether the two copies share memory."""
    with torch.random.fork_rng(devices=[]):  # the example's random numbers stay as they were
        tied = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 10, bias=False))
    tied[1].weight = tied[0].weight
    state = tied.state_dict()  # two tensors on one memory
    one_tensor = {"0.weight": state["0.weight"], "1.weight": state["0.weight"]}
    shared = {}
    for name, tensors in {"state_dict()": state, "one tensor under two names": one_tensor}.items():
        copied = make_copy(tensors)
        shared[name] = tcdoc.shares_memory(copied["0.weight"], copied["1.weight"])
    return shared


_clones = _still_shared(lambda state: {name: tensor.detach().clone() for name, tensor in state.items()})
_deep = _still_shared(copy.deepcopy)
claim(
    "Unlike deepcopy, it copies tensors that share memory separately",
    not any(_clones.values())
    and all(_deep.values())
    and not any(tcdoc.shares_memory(best[name], tensor) for name, tensor in model.state_dict().items()),
    f"the two copies of a tied weight share memory: after clone() {_clones}, after deepcopy {_deep}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Which copy to make for each purpose: :doc:`/howto/which-copy`. Why ``state_dict()``
# tensors behave like ``detach()``: :doc:`/explanation/detach`.
