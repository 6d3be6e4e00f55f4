"""What ``clone()`` does
=====================

With gradients enabled, ``y = x.clone()`` of a tensor ``x`` that requires them makes a copy of
the data that stays part of the computation: it has its own memory, yet gradients that reach
``y`` travel on to ``x``. Reach
for it when a computation needs its own copy, for instance to change the copy in place without
touching ``x``. Two heads of a network that read the same tensor need no copy; the last
section shows where one does.

We check the four questions one at a time, then let :func:`tcdoc.compare` measure them all.
"""

# %%
# A leaf tensor that requires gradients, and its clone.
import torch

torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = x.clone()
print(f"{y = }")

# %%
# 1. Is ``y`` a new Python object? ``is`` compares identity.
print(f"{y is x = }")

# %%
# 2. Does ``y`` have metadata of its own? It is not a leaf: it was made by an operation that
# autograd recorded, and ``grad_fn`` is the node for that operation.
print(f"{y.requires_grad = }")
print(f"{y.is_leaf = }")
print(f"{y.grad_fn.name() = }")

# %%
# 3. Does ``y`` have its own memory? Compare the addresses of the two storages.
print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

# %%
# Because the memory is separate, changing ``y`` in place leaves ``x`` as it was.
with torch.no_grad():
    y[0, 0] = 100.0
print(f"{x[0, 0].item() = }")
print(f"{y[0, 0].item() = }")

# %%
# 4. Is the autograd history kept? Back-propagate through ``y`` and look at ``x.grad``:
# the gradient of ``(3 * y).sum()`` reached ``x``.
(3 * y).sum().backward()
print(f"{x.grad = }")

# %%
# Under :class:`torch.no_grad`, the clone is not recorded: it is a leaf with no ``grad_fn``.
with torch.no_grad():
    unrecorded = x.clone()
print(f"{unrecorded.is_leaf = }")
print(f"{unrecorded.grad_fn = }")

# %%
# All four at once
# ----------------
# :func:`tcdoc.compare` measures the same properties, and a few more, without changing
# either tensor.
import tcdoc

x = torch.randn(2, 3, requires_grad=True)
print(tcdoc.compare(x, x.clone()))

# %%
# The same measurements as a picture: :func:`tcdoc.draw.draw` draws each tensor's box, the
# storage each one uses, their version counters and the autograd edge from ``y`` back to
# ``x``. Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(x, x.clone(), "x.clone()")

# %%
# Copying without the history
# ---------------------------
# To copy the values but not the graph, detach first: ``x.detach().clone()`` has its own
# memory and no ``grad_fn``.
print(tcdoc.compare(x, x.detach().clone()))

# %%
# Two heads, one input
# --------------------
# Two heads of a network that read the same tensor need no copy of it: autograd adds the
# gradients that reach it from both. Here they are 2 and 6 for each element of ``w``.
w = torch.ones(3, requires_grad=True)
features = w * 2
(features.sum() + (3 * features).sum()).backward()
print(f"{w.grad = }")


# %%
# A clone is needed where one head changes its input in place while the other head saved that
# input for its backward pass. Head ``a`` multiplies ``features`` by itself, which saves it;
# head ``b`` applies ``relu_`` to it. Without a clone the backward pass raises; with one it runs.
def two_heads(clone_for_b: bool) -> str:
    """Run both heads on one input and back-propagate; say what came of it."""
    w = torch.ones(3, requires_grad=True)
    features = w * 2
    a = (features * features).sum()
    b = (features.clone() if clone_for_b else features).relu_().sum()
    try:
        (a + b).backward()
    except RuntimeError as error:
        return f"RuntimeError: {str(error).split(':')[0]}"
    return f"w.grad = {w.grad}"


print("without a clone:", two_heads(clone_for_b=False))
print("with a clone:", two_heads(clone_for_b=True))

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Next: :doc:`plot_02_detach`, which gives the same data without a copy.
