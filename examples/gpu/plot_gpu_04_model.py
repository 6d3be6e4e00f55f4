"""``deepcopy`` of a model on the GPU
==================================

``copy.deepcopy(model)`` is how most code keeps a second model: a target network, an average
of the weights, the best model so far. On the GPU it matters where that copy lives and what it
costs. Here we ask the CUDA caching allocator.
"""

# %%
# This example needs a CUDA device. When it runs on one, it first prints that device.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_04_model.png"

if not torch.cuda.is_available():
    raise SystemExit("This example needs a CUDA device, and this torch has none.")
device = torch.device("cuda", torch.cuda.current_device())
print(f"{torch.cuda.get_device_name(device) = }")

# %%
# A small network on the GPU, and the bytes its weights take.
torch.manual_seed(0)
layers = [torch.nn.Linear(2048, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 10)]
model = torch.nn.Sequential(*layers).to(device)
weight_bytes = sum(p.untyped_storage().nbytes() for p in model.parameters())
print(f"{weight_bytes = }")

# %%
# Deep-copy it and ask :func:`torch.cuda.memory_allocated` how much more the device holds.
import copy

before = torch.cuda.memory_allocated(device)
twin = copy.deepcopy(model)
print(
    {"weights of model": weight_bytes, "allocated by deepcopy": torch.cuda.memory_allocated(device) - before}
)

# %%
# The copy lives on the same device as the original:
print({p.device for p in twin.parameters()})

# sphinx_gallery_start_ignore
from tcdoc.claims import claim

_copy_devices = {p.device for p in twin.parameters()}
claim(
    "`copy.deepcopy` always copies to the device the model is on",
    _copy_devices == {p.device for p in model.parameters()} == {device},
    f"the model is on {device}, its copy on {_copy_devices}",
)
# sphinx_gallery_end_ignore

# %%
# ... and none of its parameters shares memory with the original's.
import tcdoc

print(
    [tcdoc.compare(p, q).shares_storage for p, q in zip(model.parameters(), twin.parameters(), strict=True)]
)

# sphinx_gallery_start_ignore
claim(
    "and none of its parameters shares memory with the original's",
    not any(
        tcdoc.shares_memory(p, q) or p is q
        for p, q in zip(model.parameters(), twin.parameters(), strict=True)
    ),
    "a parameter of the copy shares memory with the model's",
)
# sphinx_gallery_end_ignore

# %%
# After a backward pass the model also holds gradients. ``deepcopy`` of a module copies each
# parameter's values but not its ``.grad``: compare the allocator's figure with the bytes of
# weights and gradients, and look at the copy's ``.grad``.
model(torch.randn(64, 2048, device=device)).sum().backward()
grad_bytes = sum(p.grad.untyped_storage().nbytes() for p in model.parameters())
before = torch.cuda.memory_allocated(device)
twin_after_backward = copy.deepcopy(model)
print(
    {
        "weights of model": weight_bytes,
        "gradients of model": grad_bytes,
        "allocated by deepcopy": torch.cuda.memory_allocated(device) - before,
        "gradients of the copy": {p.grad for p in twin_after_backward.parameters()},
    }
)

# sphinx_gallery_start_ignore
claim(
    "`deepcopy` of a module copies each parameter's values but not its `.grad`",
    all(
        p.grad is not None and q.grad is None and torch.equal(p, q) and not tcdoc.shares_memory(p, q)
        for p, q in zip(model.parameters(), twin_after_backward.parameters(), strict=True)
    ),
    "a parameter of the copy has a .grad, or values other than the model's",
)
# sphinx_gallery_end_ignore

# %%
# Copying to another device
# -------------------------
# ``copy.deepcopy`` always copies to the device the model is on. To put the copy on another
# GPU, move the copy with :meth:`torch.nn.Module.to`, which changes a module in place. The
# temporary copy on the first device is freed once it has moved.
del twin, twin_after_backward
count = torch.cuda.device_count()
if count > 1:
    other = torch.device("cuda", (device.index + 1) % count)
    before = torch.cuda.memory_allocated(device), torch.cuda.memory_allocated(other)
    moved = copy.deepcopy(model).to(other)
    after = torch.cuda.memory_allocated(device), torch.cuda.memory_allocated(other)
    print(f"copy on: {sorted(str(p.device) for p in moved.parameters())[0]}")
    print(f"allocated on {device}: {after[0] - before[0]} bytes more")
    print(f"allocated on {other}: {after[1] - before[1]} bytes more")
else:
    print(f"This machine has {count} CUDA device, so there is no other device to copy to.")

# %%
# These values were measured with:
print(tcdoc.environment("cuda"))

# %%
# Next: :ref:`sphx_glr_auto_examples_gpu_plot_gpu_05_probe.py` runs tcdoc's own probe on
# the GPU. ``copy.deepcopy`` of a single tensor, with its rules, is in
# :ref:`sphx_glr_auto_examples_plot_03_deepcopy.py`.
