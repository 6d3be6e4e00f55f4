"""``.data`` changes are silent, and the gradients are wrong
=========================================================

``x.data`` reaches a tensor's values outside autograd, and older code and forum answers
still use it where ``x.detach()`` would do. Like ``detach()`` it shares
memory with its source, but it does not share the version counter, so autograd cannot see
changes made through it. Where :doc:`plot_05_inplace_after_detach` ends in an error, the same
change through ``.data`` ends in gradients that are simply wrong, with nothing to warn you.
"""

# %%
# The same start as in the ``detach()`` example: :func:`torch.exp` saves its output ``y``
# for the backward pass.
import torch

torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
y = x.exp()
print(f"{y = }")

# %%
# ``y.data`` shares memory with ``y``, as ``y.detach()`` does, but not its version counter.
import tcdoc

print(tcdoc.compare(y, y.data))

# %%
# Next to ``detach()``, measured on the same ``y``, the difference is that one field.
print(tcdoc.compare(y, y.detach()).shares_version_counter, tcdoc.compare(y, y.data).shares_version_counter)

# %%
# Drawn side by side by :func:`tcdoc.draw.draw_panels`, both stand on the storage of ``y``;
# the version counters are where the pictures differ.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(y, y.detach(), "y.detach()", names=("y", "d")),
        tcdoc.draw.diagram(y, y.data, "y.data", names=("y", "d")),
    ]
)

# %%
# Zeroing through ``.data`` writes into ``y``, and only the counter of the ``.data`` tensor
# moves. ``y``'s counter still reads 0.
d = y.data
d.zero_()
print(y, (y._version, d._version))

# %%
# So ``backward()`` runs without complaint, using the zeros as if they were ``exp(x)``.
y.sum().backward()
wrong = x.grad
print(f"{wrong = }")

# %%
# The right gradient, computed on a fresh graph from the same values of ``x``:
x_fresh = x.detach().clone().requires_grad_(True)
x_fresh.exp().sum().backward()
right = x_fresh.grad
print(f"{right = }")

# %%
# Side by side, first row from ``.data``, second row correct. They differ, and nothing
# said so.
assert not torch.allclose(wrong, right)
print(f"{torch.stack([wrong, right]) = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Use ``detach()`` where older code uses ``.data``: a mistake then raises, as in
# :doc:`plot_05_inplace_after_detach`, instead of going unnoticed, except in the cases that
# example names (saved-tensor hooks, and a write through another alias of the memory). Where
# ``.data`` sits among the other look-alikes: :doc:`/explanation/look-alikes`.
