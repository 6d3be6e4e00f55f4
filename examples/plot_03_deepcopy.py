"""What ``copy.deepcopy`` does
===========================

:func:`copy.deepcopy` is Python's general "copy this and everything inside it". PyTorch
tensors support it, with their own rules: the copy of a plain tensor gets new memory, a copy of
``.grad`` and of any Python attributes, and becomes a new leaf with no history (a ``Parameter``
gets neither ``.grad`` nor attributes: :doc:`plot_09_parameter`). It is how you copy a whole
model, but on a single plain tensor it refuses tensors that are not leaves, and a leaf whose
``.grad`` has a history of its own, as ``backward(create_graph=True)`` can leave it.
"""

# %%
# A leaf that requires gradients, with a gradient and a Python attribute of its own.
import copy

import torch

torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
x.grad = torch.ones(2, 3)
x.note = "a Python attribute"
y = copy.deepcopy(x)
print(f"{y = }")

# %%
# 1. A new Python object?
print(f"{y is x = }")

# %%
# 2. Its own metadata: ``y`` keeps ``requires_grad`` and is a leaf of its own.
print(f"{y.requires_grad = }")
print(f"{y.is_leaf = }")

# %%
# ``.grad`` was copied too, into a new tensor, and so was the Python attribute, the way
# ``copy.deepcopy`` copies any value: a string is shared, since it cannot change, and a list
# would be copied into a new one.
print(f"{y.grad is x.grad = }")
print(f"{torch.equal(y.grad, x.grad) = }")
print(f"{y.note = }")
print(f"{y.note is x.note = }")

# %%
# 3. New memory:
print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

# %%
# 4. No history back to ``x``: ``y`` is a leaf, so gradients stop at ``y``. Look at the
# values, though: a deep copy starts out with a copy of the old ``.grad``, and the backward
# pass adds its gradient, 2, to it, so ``y.grad`` holds 3s, not 2s.
(2 * y).sum().backward()
print(f"{y.grad = }")

# %%
# ``x.grad`` is still the ones we set: nothing flowed back. To start the copy without a
# gradient, set ``y.grad = None`` after copying.
print(f"{x.grad = }")

# %%
# Only leaves
# -----------
# A tensor that a differentiable operation such as ``x * 2`` made from a tensor that requires
# gradients, while autograd records, is not a leaf, and deepcopy refuses it. (A result without a
# gradient, such as ``x > 0`` or ``x.int()``, is a leaf, and deepcopy copies it.) We catch the
# error to show its message.
z = x * 2
try:
    copy.deepcopy(z)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# %%
# The same product computed under ``torch.no_grad()`` records no history: it is a leaf, and
# deepcopy copies it.
with torch.no_grad():
    w = x * 2
print(w.is_leaf, copy.deepcopy(w).is_leaf)

# %%
# ``z.detach().clone()`` is the copy to make instead.
import tcdoc

print(tcdoc.compare(z, z.detach().clone()))

# %%
# All four at once, for the leaf:
x = torch.randn(2, 3, requires_grad=True)
print(tcdoc.compare(x, copy.deepcopy(x)))

# %%
# The same measurements as a picture, drawn by :func:`tcdoc.draw.draw`. Drawing needs
# matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(x, copy.deepcopy(x), "copy.deepcopy(x)")

# %%
# These values were measured with:
print(tcdoc.environment())
