"""What each copy costs
====================

Choosing between ``clone()``, ``detach()`` and ``copy.deepcopy`` is mostly a question of
meaning, but in a training loop that copies many tensors, or one that copies a large one, the
price matters too. Here each method is timed on tensors from 1 KiB to 64 MiB on the machine that
built this page, with the new memory and the page faults of each call, and set against a copy
into memory that is already allocated. A large copy turns out to pay for two things: moving the
bytes, and the fresh memory it writes them into.

This example needs matplotlib for its figures (``pip install "tcdoc[plot]"``). The numbers change
from build to build and from machine to machine. The sentences that compare them are computed
from this run, and state a difference only where it stands out of the noise.
"""

# %%
# The sweep: eight statements at four sizes. The source is a float32 tensor ``x`` that does not
# require gradients; ``out`` is a tensor of the same shape, allocated and written before any
# timing. Each statement at each size is timed in blocks of calls, and each figure below is the
# median of its blocks, with their quartiles q1 and q3 (the middle half of the blocks lies
# between them), as :class:`torch.utils.benchmark.Measurement` computes them. The blocks are
# timed in rounds: a round times one block of every statement at every size, in an order
# shuffled with a fixed seed, so that a burst of other work on the machine slows them all alike.
# Torch uses one thread, so that no call waits for a second core that is busy with something
# else.
import tcdoc.bench

sweep = tcdoc.bench.run(
    sizes=tcdoc.bench.SMALL_SIZES,
    methods=tcdoc.bench.SMALL_METHODS,
    min_run_time=0.1,
    threads=1,
)
print(sweep.machine)

# %%
# The limit to compare against: ``out.copy_(x)`` at the largest size. ``out`` was allocated and
# written before the timing, so this copy pays for moving the bytes and for nothing else: it is a
# copy into memory already allocated. Its bandwidth counts the bytes read plus the bytes written,
# per second.
print(sweep.limit)

# %%
# Time against size
# -----------------
# Both axes are logarithmic, so a time that grows in proportion to the size climbs a straight
# diagonal, and one that does not depend on the size stays flat. Each bar spans the quartiles
# of the blocks, the spread that the tables show.
import matplotlib.pyplot as plt

import tcdoc.bench

tcdoc.bench.plot_time(sweep, methods=["detach", "clone", "detach_clone", "deepcopy"])
plt.show()

# %%
# What the figure shows, in sentences that :func:`tcdoc.bench.findings` computes from the same
# run. "Beyond noise" means that the two spreads do not overlap, "within noise" that they do; a
# factor such as "ten times" compares the medians.
print(tcdoc.bench.findings(sweep, "size"))

# %%
# On the smallest tensor, what is left is each method's fixed cost per call. ``copy.deepcopy``
# goes through Python's generic copy protocol (:func:`copy.deepcopy`) before it reaches the
# tensor's own copy:
print(tcdoc.bench.findings(sweep, "fixed cost"))

# %%
# On the largest tensor, the three copies allocate and write the same bytes (the table below
# shows them):
print(tcdoc.bench.findings(sweep, "same work"))

# %%
# Where the time of a large copy goes
# -----------------------------------
# A copy does two things: it gets memory for its result, and writes the values into it. Four
# statements take the two apart: ``torch.empty_like(x)`` asks for the memory and writes no
# value into it; ``torch.empty_like(x).copy_(x)`` asks for it and writes it, as ``x.clone()`` does.
# ``out.copy_(x)`` and ``torch.mul(x, 1, out=out)`` write into ``out``, allocated once before
# the timing. The column "page faults per call" counts how many times, during one call, the
# operating system had to give the process a page of memory it did not have yet.
print(sweep.table(("empty_like", "empty_like_copy", "clone", "copy_into", "mul_out")))

# %%
# The same times, drawn:
tcdoc.bench.plot_time(sweep, methods=["empty_like", "empty_like_copy", "clone", "copy_into", "mul_out"])
plt.show()

# %%
# Why fresh memory can cost more than the copy: on Linux, torch's CPU tensors get their memory
# from glibc's allocator, which serves a request above a threshold with a new mapping from the
# operating system (``M_MMAP_THRESHOLD`` in
# `mallopt(3) <https://man7.org/linux/man-pages/man3/mallopt.3.html>`__: the threshold starts at
# 128 KiB and rises as such blocks are freed, up to 32 MiB on 64-bit systems). A new anonymous
# mapping starts out as zeros (`mmap(2) <https://man7.org/linux/man-pages/man2/mmap.2.html>`__),
# and the kernel provides its pages one at a time: the first write to each page traps into the
# kernel, a page fault, which finds a physical page, fills it with zeros and maps it. A smaller
# block goes back to the process's own allocator when it is freed, and the next request of its
# size gets it again, pages and all. Which of the two costs, the copy itself or the fresh
# pages, decides the time at each size of this run:
print(tcdoc.bench.findings(sweep, "allocation"))

# %%
# What you can do about it
# ------------------------
# Where a loop copies a large tensor again and again, allocate the result once and write into it:
# ``out.copy_(x)``, or the ``out=`` form of the operation that computes the values, where it has
# one (``torch.mul(x, 1, out=out)`` here). What that saved in this run:
print(tcdoc.bench.findings(sweep, "reuse"))

# %%
# The buffer then holds only the latest values: where an earlier copy must stay as it was, it
# needs memory of its own.
#
# Bandwidth against size
# ----------------------
# The same runs as bytes moved per second. A statement that copies reads each byte of ``x`` and
# writes it once, so it moves twice the bytes of ``x``; ``x.detach()`` and
# ``torch.empty_like(x)`` move none and have no line. The dashed line is the copy limit, in a
# band that spans its spread. A point above the limit is possible: the limit copies a tensor too
# large for the CPU's caches, while a small tensor may never leave them. A point far below it is
# time spent on something other than moving the bytes: on the call itself, or on fresh pages.
tcdoc.bench.plot_bandwidth(sweep)
plt.show()

# %%
# Every measurement
# -----------------
# "median [q1, q3]" is the median time of one call over the blocks, and their first and third
# quartiles; "allocated" is the new storage of the result; "page faults per call" as
# above; "of limit" is the bandwidth as a share of the copy limit.
print(sweep)

# %%
# In one line, from this run: the copy limit, ``clone()``'s share of it on the largest tensor,
# and what ``deepcopy`` adds to ``clone()`` on the smallest.
print(sweep.headline())

# %%
# To time every method from 1 KiB to 256 MiB, ``torch.tensor(x)`` and
# ``x.to(x.dtype, copy=True)`` among them, and keep the numbers as JSON, run
# ``tcdoc bench --full --out results.json``; ``nox -s bench`` does that, and then runs this
# page's sweep three times to show how far apart the runs are. Which copy to pick in the first
# place is the subject of :doc:`/howto/which-copy`; how ``deepcopy`` copies a tensor is in
# :doc:`/explanation/deepcopy`.
