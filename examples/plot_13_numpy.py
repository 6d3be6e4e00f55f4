"""NumPy round trips: shared memory and copies
===========================================

Moving data between PyTorch and NumPy is often free: :meth:`torch.Tensor.numpy` (for a CPU
tensor NumPy can read) and :func:`torch.from_numpy` hand over the same memory instead of copying
it. That is fast, and
it also means that a write on one side shows up on the other. This page measures each
conversion, explains what ``numpy()`` asks of a tensor that requires gradients, and shows the
idiom ``.detach().cpu().numpy()``.

This example is about NumPy, so it needs ``numpy`` installed besides ``torch`` and ``tcdoc``.
"""

# %%
# ``tensor.numpy()`` shares memory
# --------------------------------
# The array looks at the tensor's memory, so writing into the array changes the tensor. It does
# not follow the tensor to new memory: after ``share_memory_()``, which a
# ``torch.multiprocessing`` queue also does to a tensor it sends, the two no longer share memory,
# and the array is left on memory that torch may have freed. Take the array again after the move.
import numpy as np
import torch

import tcdoc

x = torch.arange(4.0)
a = x.numpy()
a[0] = 100.0
print(f"{x = }")

# %%
# :func:`tcdoc.shares_memory` measures the same thing (it takes tensors, so we wrap the
# array with :func:`torch.from_numpy`, which copies nothing either).
print(f"{tcdoc.shares_memory(x, torch.from_numpy(a)) = }")

# %%
# ``torch.from_numpy(array)`` shares memory
# -----------------------------------------
# The other direction: a tensor made from an array writes into the array. It also keeps the
# array's dtype, here NumPy's default ``float64``.
b = np.zeros(3)
t = torch.from_numpy(b)
t[1] = 5.0
print(f"{b = }")
print(f"{t.dtype = }")

# %%
# A tensor that requires gradients
# --------------------------------
# With gradients enabled, ``numpy()`` refuses a tensor that requires gradients: an array cannot
# carry autograd history. The error names the fix.
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
y = w * 2
try:
    y.numpy()
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# %%
# Under :class:`torch.no_grad` there is no history to lose, and ``numpy()`` hands over the
# memory of the same tensor.
with torch.no_grad():
    print(f"{tcdoc.shares_memory(y, torch.from_numpy(y.numpy())) = }")

# %%
# ``.detach().cpu().numpy()``
# ---------------------------
# The usual idiom: :meth:`~torch.Tensor.detach` leaves the graph (without copying),
# :meth:`~torch.Tensor.cpu` moves the data to the CPU (a no-op for a tensor already there),
# and ``numpy()`` wraps the memory of a strided CPU tensor (not sparse, not nested) whose dtype
# NumPy has and that has no conjugate or negative bit. It raises for conjugate or negative views
# (resolve them first, which copies), for ``bfloat16`` and for sparse and nested tensors;
# ``numpy(force=True)`` copies when it has to resolve the bit. On the CPU the array still shares
# memory with ``y``.
n = y.detach().cpu().numpy()
print(f"{n = }")
print(f"{tcdoc.shares_memory(y, torch.from_numpy(n)) = }")

# %%
# ``numpy(force=True)``
# ---------------------
# ``numpy(force=True)`` does the detaching and moving for you. We check whether the installed
# torch accepts it instead of assuming.
try:
    forced = y.numpy(force=True)
except TypeError as error:
    print(f"This torch has no numpy(force=True): {error}")
else:
    print(forced, "shares memory with y:", tcdoc.shares_memory(y, torch.from_numpy(forced)))

# %%
# ``torch.tensor(array)`` copies, ``torch.as_tensor(array)`` shares
# -----------------------------------------------------------------
# :func:`torch.tensor` always copies its data. :func:`torch.as_tensor` reuses the array's
# memory when it can.
c = np.arange(3.0)
copied = torch.tensor(c)
shared = torch.as_tensor(c)
print(f"{tcdoc.shares_memory(copied, torch.from_numpy(c)) = }")
print(f"{tcdoc.shares_memory(shared, torch.from_numpy(c)) = }")

# %%
# :func:`tcdoc.draw.draw_panels` draws ``copied`` and ``shared`` against the array's memory
# (wrapped by :func:`torch.from_numpy`): a bar for each storage, and the bytes each tensor
# reaches in it.
import tcdoc.draw

array = torch.from_numpy(c)
tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(array, copied, "torch.tensor(c)", names=("c", "copied")),
        tcdoc.draw.diagram(array, shared, "torch.as_tensor(c)", names=("c", "shared")),
    ]
)

# %%
# "When it can": asking ``as_tensor`` for another dtype forces a conversion, hence a copy.
print(tcdoc.shares_memory(torch.as_tensor(c, dtype=torch.float32), torch.from_numpy(c)))

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# ``numpy()``, ``from_numpy`` and ``as_tensor`` next to the other ways of copying a tensor:
# :doc:`/explanation/look-alikes`. More on ``detach()``: :doc:`/explanation/detach`.
