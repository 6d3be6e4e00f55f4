"""Changing a detached tensor in place breaks ``backward()``
=========================================================

``detach()`` does not copy: the detached tensor looks at the same memory as its source. If
autograd kept that source to compute gradients later, an in-place change made through the
detached tensor (zeroing it, clamping it, normalising it) also changes what autograd kept.
PyTorch notices a change that a torch operation makes through the detached tensor, thanks to a
version counter the two tensors share, and refuses to compute wrong gradients: ``backward()``
raises, unless saved-tensor hooks packed the tensor autograd saved. Then there is no check, and
the gradients are silently wrong whenever the change reaches what the hook kept, as it does with
``torch.autograd.graph.save_on_cpu()`` and a tensor already on the CPU. A write through another
alias of the memory, such as ``d.numpy()``, ``d.untyped_storage()``, ``torch.from_dlpack(d)`` or
``d.data``, moves no counter and goes unnoticed too. This example triggers the error, reads it, and fixes it.
"""

# %%
# :func:`torch.exp` keeps its *output* ``y`` for the backward pass, since the derivative of
# ``exp(x)`` is ``exp(x)`` itself. We detach ``y`` to work on its values outside autograd.
import torch

torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
y = x.exp()
d = y.detach()
print(f"{y = }")

# %%
# ``d`` and ``y`` share their memory and their version counter. Both counters start at 0.
import tcdoc

print(tcdoc.shares_memory(d, y), (y._version, d._version))

# %%
# An in-place change through ``d`` writes into ``y`` and moves the shared counter.
d.zero_()
print(y, (y._version, d._version))

# %%
# In a picture drawn by :func:`tcdoc.draw.draw`, ``y`` and ``d`` stand on one storage and
# are tied to one version counter, whose circle shows the value it has now.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(y, d, "y.detach()", names=("y", "d"))

# %%
# At ``backward()`` autograd compares the counter of the saved ``y`` with the value it
# recorded when saving it (0), finds 1, and raises instead of using the zeros.
try:
    y.sum().backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# %%
# The check concerns only tensors that autograd saved. ``x + 1`` saves nothing, since the
# derivative of an addition does not depend on its values, so the same change to its
# detached twin goes through, and the gradient is still right.
z = x + 1
z.detach().zero_()
z.sum().backward()
print(f"{x.grad = }")

# %%
# The fix: copy before changing
# -----------------------------
# ``y.detach().clone()`` has memory of its own, so changing it leaves ``y``, and its
# counter, as they were, and the backward pass succeeds.
x.grad = None
y = x.exp()
d = y.detach().clone()
d.zero_()
y.sum().backward()
print((y._version, d._version), tcdoc.shares_memory(d, y))

# %%
# The gradient is ``exp(x)``, as it should be.
assert torch.allclose(x.grad, x.detach().exp())
print(f"{x.grad = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# :doc:`plot_06_data_is_silent` makes the same change through ``.data``, which shares the
# memory but not the counter: no error, and wrong gradients. More on ``detach()``:
# :doc:`/explanation/detach`; what the counter is and how to read it:
# :doc:`/explanation/four-questions`.
