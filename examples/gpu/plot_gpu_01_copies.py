"""Copies in GPU memory
====================

On a GPU, memory runs out long before compute does, and every copy of a tensor takes some
of it. PyTorch's CUDA caching allocator keeps count of the bytes that live tensors hold, so
we can ask it directly what ``clone()``, ``detach()``, ``copy.deepcopy`` and
``detach().clone()`` each cost.
"""

# %%
# This example needs a CUDA device. When it runs on one, it first prints that device.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_01_copies.png"

if not torch.cuda.is_available():
    raise SystemExit("This example needs a CUDA device, and this torch has none.")
device = torch.device("cuda", torch.cuda.current_device())
print(f"{torch.cuda.get_device_name(device) = }")

# %%
# A 1024 x 1024 leaf of float32 numbers that requires gradients: 4 MiB of GPU memory.
torch.manual_seed(0)
x = torch.randn(1024, 1024, device=device, requires_grad=True)
print(f"{x.untyped_storage().nbytes() = }")

# %%
# :func:`torch.cuda.memory_allocated` counts the bytes held by live tensors on a device.
# We read it before and after each copy, while the copy is still alive.
import copy


def allocated_by(make_copy):
    """Return the growth of ``memory_allocated`` caused by the tensor that ``make_copy`` returns."""
    before = torch.cuda.memory_allocated(device)
    kept = make_copy()
    grown = torch.cuda.memory_allocated(device) - before
    del kept
    return grown


copies = {
    "x.clone()": lambda: x.clone(),
    "x.detach()": lambda: x.detach(),
    "copy.deepcopy(x)": lambda: copy.deepcopy(x),
    "x.detach().clone()": lambda: x.detach().clone(),
}
print({code: allocated_by(make_copy) for code, make_copy in copies.items()})

# %%
# :func:`tcdoc.compare` works the same figure out from the tensors themselves, as the bytes
# of storage that the copy holds apart from ``x``.
import tcdoc

print({code: tcdoc.compare(x, make_copy()).new_bytes for code, make_copy in copies.items()})

# %%
# ``copy.deepcopy`` also copies ``.grad``. Once ``x`` has a gradient, a deep copy costs
# twice as much as ``x.detach().clone()``, which copies the values only.
x.grad = torch.ones_like(x)
print(
    {
        "copy.deepcopy(x)": allocated_by(lambda: copy.deepcopy(x)),
        "x.detach().clone()": allocated_by(lambda: x.detach().clone()),
    }
)

# sphinx_gallery_start_ignore
from tcdoc.claims import claim


def _deep_copy_holds():
    """Return whether ``copy.deepcopy(x)`` has a ``.grad`` of its own, and the bytes it holds with it."""
    deep = copy.deepcopy(x)
    if deep.grad is None or deep.grad is x.grad or tcdoc.shares_memory(deep.grad, x.grad):
        return False, deep.untyped_storage().nbytes()
    return True, deep.untyped_storage().nbytes() + deep.grad.untyped_storage().nbytes()


_own_grad, _held = _deep_copy_holds()
_values = allocated_by(lambda: x.detach().clone())
claim(
    "`copy.deepcopy` also copies `.grad`. Once `x` has a gradient, a deep copy costs twice as much as "
    "`x.detach().clone()`, which copies the values only",
    _own_grad
    and _held == 2 * x.untyped_storage().nbytes()
    and allocated_by(lambda: copy.deepcopy(x)) == 2 * _values
    and _values == x.untyped_storage().nbytes(),
    f"the deep copy has a .grad of its own: {_own_grad}, and holds {_held} bytes; "
    f"x.detach().clone() takes {_values}",
)
# sphinx_gallery_end_ignore

# %%
# Freeing a copy returns its bytes to the caching allocator, not to the driver:
# :func:`torch.cuda.memory_reserved` counts what the allocator keeps for later tensors.
y = x.clone()
with_y = torch.cuda.memory_allocated(device), torch.cuda.memory_reserved(device)
del y
without_y = torch.cuda.memory_allocated(device), torch.cuda.memory_reserved(device)
print({"(allocated, reserved) with y": with_y, "(allocated, reserved) after del y": without_y})

# %%
# These values were measured with:
print(tcdoc.environment("cuda"))

# %%
# Next: :ref:`sphx_glr_auto_examples_gpu_plot_gpu_02_devices.py` moves tensors between
# devices. The same four methods on the CPU, one question at a time, are in
# :ref:`sphx_glr_auto_examples_plot_01_clone.py`.
