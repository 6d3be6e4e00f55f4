"""Logging losses without keeping their graphs
===========================================

Adding up each batch's loss to report an average takes one line, ``total += loss``. But
``loss`` is part of the computation, so ``total`` joins it: every batch's autograd graph
stays reachable from ``total`` for as long as ``total`` lives. In an evaluation loop that forgot
:class:`torch.no_grad`, those graphs hold every batch's activations. ``loss.item()`` and
``loss.detach()`` log the same number and keep nothing.

:func:`tcdoc.graph_memory` measures what a tensor's graph holds: it walks the graph and adds
up the storages of the tensors its nodes saved for the backward pass.
"""

# %%
# A small seeded model and twenty batches.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 1))
batches = [(torch.randn(64, 32), torch.randn(64, 1)) for _ in range(20)]

# %%
# ``total += loss``
# -----------------
# An evaluation loop without :class:`torch.no_grad` that adds up the losses as tensors.
# We measure the saved bytes reachable from ``total`` after every batch.
import tcdoc

total = 0.0
held = []
for inputs, targets in batches:
    loss = nn.functional.mse_loss(model(inputs), targets)
    total += loss
    held.append(tcdoc.graph_memory(total).saved_bytes)
print(f"{total = }")

# %%
# ``total`` has a ``grad_fn``: it is the end of one graph that contains all twenty batches.
# Here is what that graph holds.
print(tcdoc.graph_memory(total))

# %%
# The bytes grow with every batch, because each batch adds its own saved activations
# (storages that all batches share, such as a weight, count once). Bytes held after 1, 10
# and 20 batches:
print({batches_seen: held[batches_seen - 1] for batches_seen in (1, 10, 20)})

# sphinx_gallery_start_ignore
import itertools

from tcdoc.claims import claim, raised

claim(
    "The bytes grow with every batch, because each batch adds its own saved activations (storages that all "
    "batches share, such as a weight, count once)",
    all(before < after for before, after in itertools.pairwise(held)),
    f"the saved bytes went {held}",
)
# sphinx_gallery_end_ignore

# %%
# The bytes held after every batch, as a plot.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import matplotlib.pyplot as plt

figure, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
ax.plot(range(1, len(held) + 1), [saved / 2**20 for saved in held], marker="o")
ax.set(
    title="total += loss: saved bytes reachable from total",
    xlabel="batches added to total",
    ylabel="MiB held by the graph",
    ylim=(0, None),
)
plt.show()

# %%
# ``total += loss.item()``
# ------------------------
# :meth:`torch.Tensor.item` returns a Python number, so the total is a float and holds no
# graph.
total_item = 0.0
for inputs, targets in batches:
    loss = nn.functional.mse_loss(model(inputs), targets)
    total_item += loss.item()
print(f"{total_item = }")

# %%
# What is still referenced is the last batch's graph, through ``loss``:
print(tcdoc.graph_memory(loss))

# %%
# ``total += loss.detach()``
# --------------------------
# :meth:`torch.Tensor.detach` keeps the value a tensor but cuts it out of the graph.
total_detached = torch.zeros(())
for inputs, targets in batches:
    loss = nn.functional.mse_loss(model(inputs), targets)
    total_detached += loss.detach()
print(total_detached, tcdoc.graph_memory(total_detached))

# %%
# All three loops logged the same total (the float adds in double precision, the tensors
# in single precision, so the last digits may differ).
print(f"{round(total.item(), 4) = }")
print(f"{round(total_item, 4) = }")
print(f"{round(total_detached.item(), 4) = }")

# %%
# In evaluation: ``torch.no_grad()``
# ----------------------------------
# Under :class:`torch.no_grad` no backward graph is recorded, so even ``total += loss``
# keeps no graph.
total_no_grad = 0.0
with torch.no_grad():
    for inputs, targets in batches:
        loss = nn.functional.mse_loss(model(inputs), targets)
        total_no_grad += loss
print(total_no_grad, tcdoc.graph_memory(total_no_grad))

# sphinx_gallery_start_ignore


def _total_added_in_place() -> torch.Tensor:
    """Add three losses into a tensor in place, ``total += loss``, under no_grad."""
    added = torch.zeros(())
    with torch.no_grad():
        for inputs, targets in batches[:3]:
            added += nn.functional.mse_loss(model(inputs), targets)
    return added


_sums = {"total_no_grad": total_no_grad, "a tensor added to in place": _total_added_in_place()}
claim(
    "Under {class}`torch.no_grad` no backward graph is recorded, so even `total += loss` keeps no graph",
    all(
        made.grad_fn is None and not made.requires_grad and tcdoc.graph_memory(made).saved_bytes == 0
        for made in _sums.values()
    )
    and total.grad_fn is not None,  # the same sum with gradients enabled keeps one
    f"grad_fn {[(name, made.grad_fn) for name, made in _sums.items()]}, with gradients on {total.grad_fn}",
)
# sphinx_gallery_end_ignore

# %%
# In training: ``backward()`` frees the buffers, not the chain
# ------------------------------------------------------------
# A training loop calls ``loss.backward()`` on every batch, and backward releases the
# tensors the graph saved. ``total += loss`` still keeps every batch's nodes alive, linked
# into one growing chain. (The update is a plain gradient step, written out.)
total = 0.0
for inputs, targets in batches:
    loss = nn.functional.mse_loss(model(inputs), targets)
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter -= 0.01 * parameter.grad
    total += loss
print(tcdoc.graph_memory(total))

# %%
# That chain is useless: its saved tensors are gone, so a backward pass through ``total``
# fails.
try:
    total.backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
# autograd.grad runs the same backward pass, and writes no .grad even where it would succeed.
_error = raised(lambda: torch.autograd.grad(total, list(model.parameters())))
claim(
    "That chain is useless: its saved tensors are gone, so a backward pass through `total` fails",
    isinstance(_error, RuntimeError) and "backward through the graph a second time" in str(_error),
    f"the backward pass gave {_error!r}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Why ``detach()`` cuts the graph while sharing the value's memory:
# :doc:`/explanation/detach`.
