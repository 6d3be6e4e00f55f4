"""What ``detach()`` does
======================

``y = x.detach()`` gives a new tensor object that looks at the *same memory* as ``x`` but
is cut out of the autograd graph. It is cheap, because nothing is copied, and it is what you
want when a value must leave the computation: logging, plotting, or a target that
gradients must not flow into. The price is that ``y`` and ``x`` share their data.
"""

# %%
# A tensor made by an operation, so that it has autograd history, and its detached twin.
import torch

torch.manual_seed(0)
w = torch.randn(2, 3, requires_grad=True)
x = w * 2
y = x.detach()
print(f"{y = }")

# %%
# 1. A new Python object?
print(f"{y is x = }")

# %%
# 2. Its own metadata: ``y`` does not require gradients and is a leaf, while ``x`` is not.
print((x.requires_grad, x.is_leaf), (y.requires_grad, y.is_leaf))

# %%
# 3. The same memory: both storages start at the same address.
print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

# %%
# So a value written into ``y`` in place shows up in ``x``.
y[0, 0] = 100.0
print(f"{x[0, 0].item() = }")

# %%
# They also share a version counter, which autograd uses to notice in-place changes.
# The write above counted for both.
print(f"{x._version = }")
print(f"{y._version = }")

# %%
# 4. The history is cut: ``y`` has no ``grad_fn``, so nothing can flow back to ``w``.
print(f"{y.grad_fn = }")

# %%
# All four at once
# ----------------
import tcdoc

x = torch.randn(2, 3, requires_grad=True) * 2
print(tcdoc.compare(x, x.detach()))

# %%
# The same measurements as a picture, drawn by :func:`tcdoc.draw.draw`: both boxes point at
# one storage and one version counter, and the autograd edge is cut. Drawing needs
# matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(x, x.detach(), "x.detach()")

# %%
# In words, as the ``tcdoc explain`` command prints them:
print(tcdoc.answers(tcdoc.compare(x, x.detach())))

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Next: :doc:`plot_03_deepcopy`, Python's copy of everything.
