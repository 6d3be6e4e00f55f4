"""A target network or EMA model made with ``copy.deepcopy``
=========================================================

Reinforcement learning (target networks), self-supervised learning and diffusion models
(exponential moving averages of the weights) keep a second copy of a model. It trails the
one being trained. It must have memory of its own, receive no gradients, and be updated by
hand. ``copy.deepcopy(model).requires_grad_(False)``, updated under :class:`torch.no_grad`,
gives exactly that for a model whose tensors are all parameters and buffers, such as this one.
The model's forward passes must change no buffers either. In training mode, a forward pass
through a BatchNorm layer that tracks running statistics also changes the copy's, even under
``torch.no_grad``. So such a copy also needs ``eval()``.

This example checks each property. It shows what goes wrong without ``requires_grad_(False)``
and without ``no_grad``, and what happens to a weight that two layers use.
"""

# %%
# The online model, trained as usual, and its target: a deep copy whose parameters do not
# require gradients.
import copy

import torch
from torch import nn

torch.manual_seed(0)
online = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
target = copy.deepcopy(online).requires_grad_(False)
print([parameter.requires_grad for parameter in target.parameters()])

# %%
# The target starts with the same values, in memory of its own.
import tcdoc

pairs = list(zip(target.parameters(), online.parameters(), strict=True))
print(f"{all(torch.equal(t, o) for t, o in pairs) = }")
print(f"{any(tcdoc.shares_memory(t, o) for t, o in pairs) = }")

# %%
# A training step whose loss uses the target's output, as a bootstrapped target would. The
# gradients reach the online parameters, and none reach the target's.
inputs, next_inputs = torch.randn(16, 4), torch.randn(16, 4)
loss = nn.functional.mse_loss(online(inputs), target(next_inputs))
loss.backward()
print([o.grad is not None for o in online.parameters()], [t.grad for t in target.parameters()])

# sphinx_gallery_start_ignore
from tcdoc.claims import claim


def _running_mean_moves(training: bool) -> bool:
    """Run a frozen copy of a model with a BatchNorm layer under no_grad; whether its running mean moved."""
    with torch.random.fork_rng(devices=[]):  # the example's random numbers stay as they were
        normed = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))
    frozen = copy.deepcopy(normed).requires_grad_(False).train(training)
    with torch.no_grad():
        frozen(inputs)
    return not torch.equal(frozen[1].running_mean, normed[1].running_mean)


_states = list(zip(target.state_dict().values(), online.state_dict().values(), strict=True))
_moved = {"train()": _running_mean_moves(True), "eval()": _running_mean_moves(False)}
claim(
    "`copy.deepcopy(model).requires_grad_(False)`, updated under {class}`torch.no_grad`, gives exactly that "
    "for a model whose tensors are all parameters and buffers, such as this one. The model's forward "
    "passes must change no buffers either. In training mode, a forward pass through a BatchNorm layer that "
    "tracks running statistics also changes the copy's, even under `torch.no_grad`. So such a copy also "
    "needs `eval()`",
    not any(tcdoc.shares_memory(t, o) for t, o in _states)
    and all(t.grad is None for t in target.parameters())
    and all(torch.equal(t, o) for t, o in _states)  # the forward and backward passes left it as it was
    and _moved == {"train()": True, "eval()": False},
    f"the target has .grad: {[t.grad is not None for t in target.parameters()]}; the running mean moved in "
    f"{_moved}",
)
# sphinx_gallery_end_ignore

# %%
# That is ``requires_grad_(False)``'s doing, not ``deepcopy``'s. A deep copy keeps
# ``requires_grad``. So without ``requires_grad_(False)``, the same ``loss.backward()`` fills the
# target's ``.grad`` too, even if every update of the target runs under :class:`torch.no_grad`.
plain_copy = copy.deepcopy(online)
for p in online.parameters():
    p.grad = None
nn.functional.mse_loss(online(inputs), plain_copy(next_inputs)).backward()
print([p.grad is not None for p in plain_copy.parameters()])

# sphinx_gallery_start_ignore


def _grads_after_a_no_grad_update() -> bool:
    """Update a deep copy under no_grad, then run the same loss on copies; whether its .grad is filled."""
    online_twin = copy.deepcopy(online)  # so that the example's online model keeps its .grad
    updated = copy.deepcopy(online_twin)
    with torch.no_grad():
        for t, o in zip(updated.parameters(), online_twin.parameters(), strict=True):
            t.lerp_(o, 0.1)
    nn.functional.mse_loss(online_twin(inputs), updated(next_inputs)).backward()
    return all(p.grad is not None for p in updated.parameters())


claim(
    "A deep copy keeps `requires_grad`. So without `requires_grad_(False)`, the same `loss.backward()` "
    "fills the target's `.grad` too, even if every update of the target runs under {class}`torch.no_grad`",
    all(p.requires_grad and p.grad is not None for p in plain_copy.parameters())
    and _grads_after_a_no_grad_update()
    and all(t.grad is None for t in target.parameters()),
    f"the deep copy's (requires_grad, has .grad): "
    f"{[(p.requires_grad, p.grad is not None) for p in plain_copy.parameters()]}",
)
# sphinx_gallery_end_ignore

# %%
# The online model takes a gradient-descent step, written out. The target does not move
# with it, so the two now differ.
with torch.no_grad():
    for o in online.parameters():
        o -= 0.1 * o.grad
print(f"{all(torch.equal(t, o) for t, o in pairs) = }")

# %%
# The moving-average update
# -------------------------
# Each target parameter moves a tenth of the way towards the online one:
# ``t = 0.9 * t + 0.1 * o``. So its distance to the online model shrinks by the factor
# 0.9, as measured below. We keep a copy of the target from before the update, to check the update two ways.
decay = 0.9
before = copy.deepcopy(target)


def distance(a: nn.Module, b: nn.Module) -> float:
    """Return the summed distance between the parameters of two models of one shape."""
    return sum((p - q).norm().item() for p, q in zip(a.parameters(), b.parameters(), strict=True))


with torch.no_grad():
    for t, o in zip(target.parameters(), online.parameters(), strict=True):
        t.lerp_(o, 1 - decay)
print(round(distance(target, online) / distance(before, online), 4))

# %%
# Written with ``mul_`` and ``add_`` instead of ``lerp_``, the update gives the same
# parameters, up to rounding.
with torch.no_grad():
    for t, o in zip(before.parameters(), online.parameters(), strict=True):
        t.mul_(decay).add_(o, alpha=1 - decay)
print(all(torch.allclose(t, b) for t, b in zip(target.parameters(), before.parameters(), strict=True)))

# %%
# After the update, the target parameters are still leaves without history and still do not
# require gradients.
print([(t.is_leaf, t.requires_grad, t.grad_fn) for t in target.parameters()])

# %%
# Why ``torch.no_grad()``
# -----------------------
# Without it, the in-place update is recorded by autograd, because the online parameter
# requires gradients. The target parameter stops being a leaf, and gradients from it would
# flow into the online model.
scratch = copy.deepcopy(target)
first, online_first = next(scratch.parameters()), next(online.parameters())
first.lerp_(online_first, 1 - decay)
report = tcdoc.compare(online_first, first)
print(f"{first.is_leaf = }")
print(f"{report.grad_fn = }")
print(f"{report.gradient_flows_to_source = }")

# %%
# :func:`tcdoc.draw.draw_panels` draws both updated parameters against the online one. They are
# the target's, updated under :class:`torch.no_grad`, and ``first``, updated without it. The
# arrow back to the online parameter shows, for each, whether an autograd edge is kept.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

target_first = next(target.parameters())
tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(online_first, target_first, names=("online_first", "target_first")),
        tcdoc.draw.diagram(online_first, first, names=("online_first", "first")),
    ]
)


# %%
# Tied weights
# ------------
# Some models use one ``Parameter`` in two places, such as a language model whose output
# layer reuses the embedding matrix.
class TiedModel(nn.Module):
    """An embedding and an output layer that share one weight."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.embed.weight


model = TiedModel()
print(f"{model.head.weight is model.embed.weight = }")
print(f"{len(list(model.parameters())) = }")

# %%
# A deep copy of the whole model keeps the tie inside the copy, because one deepcopy call
# copies a shared object once (see :doc:`plot_08_deepcopy_aliasing`). It shares nothing
# with the original.
twin = copy.deepcopy(model)
print(twin.head.weight is twin.embed.weight, tcdoc.shares_memory(twin.head.weight, model.head.weight))

# sphinx_gallery_start_ignore
_with_buffer = copy.deepcopy(model)
_with_buffer.register_buffer("steps", torch.zeros(1))
_buffer_twin = copy.deepcopy(_with_buffer)
_shared = [
    (mine, theirs)
    for mine, a in twin.state_dict().items()
    for theirs, b in model.state_dict().items()
    if tcdoc.shares_memory(a, b)
]
claim(
    "A deep copy of the whole model keeps the tie inside the copy, because one deepcopy call copies a "
    "shared object once (see {doc}`plot_08_deepcopy_aliasing`). It shares nothing with the original",
    twin.head.weight is twin.embed.weight
    and twin.embed.weight is not model.embed.weight
    and not _shared
    and _buffer_twin.head.weight is _buffer_twin.embed.weight
    and not tcdoc.shares_memory(_buffer_twin.get_buffer("steps"), _with_buffer.get_buffer("steps")),
    f"tie kept: {twin.head.weight is twin.embed.weight}; memory shared with the original: {_shared}",
)
# sphinx_gallery_end_ignore

# %%
# Copying the tensors one by one, as a dictionary of clones, makes two independent tensors
# out of the one weight. A deep copy of the state dict keeps them one.
state = model.state_dict()
one_by_one = {name: tensor.detach().clone() for name, tensor in state.items()}
whole = copy.deepcopy(state)
print(
    (
        tcdoc.shares_memory(one_by_one["embed.weight"], one_by_one["head.weight"]),
        tcdoc.shares_memory(whole["embed.weight"], whole["head.weight"]),
    )
)

# %%
# So a change to one of the separate copies no longer reaches the other. In the
# deep-copied model, it reaches both uses of the weight.
one_by_one["embed.weight"][0, 0] = 100.0
with torch.no_grad():
    twin.embed.weight[0, 0] = 100.0
print(f'{one_by_one["head.weight"][0, 0].item() = }')
print(f"{twin.head.weight[0, 0].item() = }")

# sphinx_gallery_start_ignore
_one_tensor = [state["embed.weight"], state["embed.weight"]]  # one tensor under two names
_clones = [tensor.detach().clone() for tensor in _one_tensor]
_deep = copy.deepcopy(_one_tensor)
claim(
    "So a change to one of the separate copies no longer reaches the other. In the deep-copied model, "
    "it reaches both uses of the weight",
    one_by_one["embed.weight"][0, 0].item() == 100.0
    and one_by_one["head.weight"][0, 0].item() != 100.0
    and twin.head.weight[0, 0].item() == 100.0
    and not tcdoc.shares_memory(one_by_one["embed.weight"], one_by_one["head.weight"])
    and tcdoc.shares_memory(whole["embed.weight"], whole["head.weight"])
    and not tcdoc.shares_memory(*_clones)
    and tcdoc.shares_memory(*_deep),
    f"after the writes: {one_by_one['head.weight'][0, 0].item()} in the separate copy, "
    f"{twin.head.weight[0, 0].item()} in the deep-copied model",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# More on deepcopy and ``Parameter``: :doc:`/explanation/deepcopy`.
# Which copy to make for each purpose: :doc:`/howto/which-copy`.
