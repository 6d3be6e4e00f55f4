"""What each copy costs on a GPU
==============================

The same measurements as :doc:`/auto_examples/plot_19_cost`, on a CUDA device. Each copy
method is timed on tensors from 1 KiB to 256 MiB. Its new memory is read from the CUDA caching
allocator, and its speed set against a copy into device memory that is already allocated.
On a GPU, launching a kernel has a fixed cost of its own, so small and large tensors tell
different stories.

This example needs a CUDA device, and matplotlib for its figures
(``pip install "tcdoc[plot]"``). When this page is built on a machine with CUDA, every number
below comes from that run.
"""

# %%
# This page measures a CUDA device, so it stops at once, with a clear message, without one.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_cost.png"

if not torch.cuda.is_available():
    raise SystemExit("This example needs a CUDA device, and this torch has none.")
print(f"{torch.cuda.get_device_name() = }")

# %%
# The sweep: every method at ten sizes. Each method at each size is timed in blocks of calls.
# The clock waits for the device at both ends of a block, as
# :class:`torch.utils.benchmark.Timer` does. Each figure is the median of the blocks, with their
# quartiles q1 and q3, as :class:`torch.utils.benchmark.Measurement` computes them. The blocks
# are timed in rounds, one block of every method at every size per round. Their order is
# shuffled with a fixed seed. ``out`` is a tensor of ``x``'s shape, allocated before the
# timing. "Allocated" is the growth of :func:`torch.cuda.memory_allocated` while the result is alive.
import tcdoc.bench

sweep = tcdoc.bench.run(sizes=tcdoc.bench.FULL_SIZES, device="cuda", min_run_time=0.05)
print(sweep.machine)

# %%
# The limit: ``out.copy_(x)`` at the largest size, into device memory allocated beforehand, so
# that it pays for moving the bytes alone. Its bandwidth counts bytes read plus bytes written
# per second.
print(sweep.limit)

# %%
# Time against size
# -----------------
# On log-log axes, a flat stretch is a fixed cost per call; a diagonal is a cost that grows
# with the data. Each bar spans the quartiles of the blocks.
import matplotlib.pyplot as plt

import tcdoc.bench

tcdoc.bench.plot_time(sweep, methods=["detach", "clone", "detach_clone", "deepcopy", "copy_into"])
plt.show()

# %%
# How much longer each method took at the largest size than at the smallest (ratios of medians):
smallest, largest = sweep.sizes[0], sweep.sizes[-1]
print(f"size grew {largest // smallest} times")
print({code: round(factor, 1) for code, factor in sweep.growth().items()})

# %%
# What the run shows, in sentences that :func:`tcdoc.bench.findings` computes from it. "Beyond
# noise" means that the two spreads do not overlap, "within noise" that they do. A factor such as
# "twice" compares the medians. No page faults are counted on a GPU, so the sentences on
# allocation compare times, not faults. PyTorch's notes on `CUDA memory management
# <https://docs.pytorch.org/docs/stable/notes/cuda.html#cuda-memory-management>`__ describe how its
# caching allocator reuses freed device memory.
print(tcdoc.bench.findings(sweep))

# %%
# Bandwidth against size
# ----------------------
# Bytes moved per second (twice the bytes of ``x`` for a method that copies). The dashed line
# is the copy limit, in a band that spans its spread.
tcdoc.bench.plot_bandwidth(sweep)
plt.show()

# %%
# Every measurement
# -----------------
print(sweep)

# %%
# In one line, from the run:
print(sweep.headline())

# %%
# The CPU version of this page, with the reading of each figure, is
# :doc:`/auto_examples/plot_19_cost`.
