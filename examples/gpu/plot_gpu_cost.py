"""What each copy costs on a GPU
==============================

The same measurements as :doc:`/auto_examples/plot_19_cost`, on a CUDA device: each copy
method timed on tensors from 1 KiB to 256 MiB, its new memory read from the CUDA caching
allocator, and its speed set against the fastest that a plain copy goes on the same device.
On a GPU, launching a kernel has a fixed cost of its own, so small and large tensors tell
different stories.

This example needs a CUDA device, and matplotlib for its figures
(``pip install "tcdoc[plot]"``). Every number below comes from the run that built this page.
"""

# %%
# This page measures a CUDA device, so it stops at once, with a clear message, without one.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_cost.png"

if not torch.cuda.is_available():
    raise RuntimeError("plot_gpu_cost.py measures copies on a CUDA device, and this torch sees none")
torch.cuda.get_device_name()

# %%
# The sweep: every method at ten sizes, each timed by :class:`torch.utils.benchmark.Timer`
# (which waits for the device after each block of calls) for at least a twentieth of a second.
# "Allocated" is the growth of :func:`torch.cuda.memory_allocated` while the result is alive.
import tcdoc.bench

sweep = tcdoc.bench.run(sizes=tcdoc.bench.FULL_SIZES, device="cuda", min_run_time=0.05)
sweep.machine

# %%
# The limit: ``dst.copy_(src)`` at the largest size, into device memory allocated
# beforehand, counting bytes read plus bytes written per second.
sweep.limit

# %%
# Time against size
# -----------------
# On log-log axes, a flat stretch is a fixed cost per call; a diagonal is a cost that grows
# with the data.
import matplotlib.pyplot as plt

import tcdoc.bench

tcdoc.bench.plot_time(sweep)
plt.show()

# %%
# How much longer each method took at the largest size than at the smallest:
smallest, largest = sweep.sizes[0], sweep.sizes[-1]
print(f"size grew {largest // smallest} times")
{code: round(factor, 1) for code, factor in sweep.growth().items()}

# %%
# What ``copy.deepcopy`` added to ``clone()`` at the smallest size, in this run:
f"{sweep.deepcopy_overhead() * 1e6:.1f} µs"

# %%
# Bandwidth against size
# ----------------------
# Bytes moved per second (twice the bytes allocated); the dashed line is the copy limit.
tcdoc.bench.plot_bandwidth(sweep)
plt.show()

# %%
# Every measurement
# -----------------
sweep

# %%
# In one line, from this run:
print(sweep.headline())

# %%
# The CPU version of this page, with the reading of each figure, is
# :doc:`/auto_examples/plot_19_cost`.
