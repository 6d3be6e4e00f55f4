"""What each copy costs
====================

Which of ``clone()``, ``detach()`` and ``copy.deepcopy`` to use is a question of meaning. In a
loop over many tensors, or over a large one, the price matters too. Here each method is timed
on tensors from 1 KiB to 64 MiB on the machine that built this page. The story has four steps.
First, how the time of a copy grows with its bytes, next to ``detach()`` at the same sizes.
Then what ``deepcopy`` adds to ``clone()``, and what a large copy pays for its fresh memory.
Last, what to do about it.

This example needs matplotlib for its figures (``pip install "tcdoc[plot]"``). The numbers change
from run to run, and the sentences that compare them are computed from this run. They state a
difference where it stands out of the noise, and nowhere else. How the sweep times the statements, and what
each column means, is on :doc:`/reference/cost-method`.
"""

# %%
# The sweep
# ---------
# Eight statements at four sizes, on a float32 tensor ``x`` that does not require gradients,
# timed in shuffled rounds of blocks on one thread. The machine that ran them:
import tcdoc.bench

sweep = tcdoc.bench.run(
    sizes=tcdoc.bench.SMALL_SIZES,
    methods=tcdoc.bench.SMALL_METHODS,
    min_run_time=0.1,
    blocks=10,
    threads=1,
)
print(sweep.machine)

# %%
# The yardstick is ``out.copy_(x)`` at the largest size: a copy into memory allocated before the
# timing, which pays for moving the bytes and nothing else.
print(sweep.limit)

# %%
# 1. How the time of a copy grows with its bytes
# ----------------------------------------------
# On logarithmic axes, a time that grows with the size climbs a diagonal; one that does not
# stays flat. Each bar spans the middle half of the blocks' times.
import matplotlib.pyplot as plt

tcdoc.bench.plot_time(sweep, methods=["detach", "clone", "detach_clone", "deepcopy"])
plt.show()

# %%
# The figure in a sentence ("beyond noise": the spreads do not overlap):
print(tcdoc.bench.findings(sweep, "size"))

# %%
# 2. What ``deepcopy`` adds to ``clone()``
# ----------------------------------------
# ``copy.deepcopy`` goes through Python's copy protocol (:func:`copy.deepcopy`) before it reaches
# the tensor's own copy. How much that adds, at the smallest and the largest size (every size is
# in the table at the end):
print(tcdoc.bench.findings(sweep, "fixed cost"))

# %%
# On the largest tensor the three copies allocate and write the same bytes (the table below
# shows them), and cost the same:
print(tcdoc.bench.findings(sweep, "same work"))

# %%
# 3. A large copy also pays for fresh memory
# ------------------------------------------
# Four statements take a copy apart. ``torch.empty_like(x)`` gets the memory and writes nothing.
# ``torch.empty_like(x).copy_(x)`` gets it and writes it as ``x.clone()`` does.
# ``out.copy_(x)`` and ``torch.mul(x, 1, out=out)`` write into ``out``, allocated once. The page
# faults column counts the pages of new memory the operating system had to hand over.
print(sweep.table(("empty_like", "empty_like_copy", "clone", "copy_into", "mul_out")))

# %%
# The same times, drawn:
tcdoc.bench.plot_time(sweep, methods=["empty_like", "empty_like_copy", "clone", "copy_into", "mul_out"])
plt.show()

# %%
# Which of the two costs more at each size, the writing or the fresh pages (why fresh pages
# cost anything is on :doc:`/reference/cost-method`):
print(tcdoc.bench.findings(sweep, "allocation"))

# %%
# 4. What you can do about it
# ---------------------------
# Where a loop copies a large tensor again and again, allocate the result once and write into
# it. Use ``out.copy_(x)``, or the ``out=`` form of the operation, where it has one. How that compared
# with ``x.clone()`` at each size in this run:
print(tcdoc.bench.findings(sweep, "reuse"))

# %%
# The buffer then holds only the latest values. Where an earlier copy must stay as it was, it
# needs memory of its own.
#
# The same runs as bytes moved per second, against the yardstick (the dashed band). A point
# far below it is time spent on something other than moving bytes: the call, or fresh pages.
tcdoc.bench.plot_bandwidth(sweep)
plt.show()

# %%
# Every measurement of this run:
print(sweep)

# %%
# In one line, from this run: the copy limit, ``clone()``'s share of it on the largest tensor,
# and what ``deepcopy`` adds to ``clone()`` on the smallest.
print(sweep.headline())

# %%
# To time every method up to 256 MiB and keep the numbers as JSON, run
# ``tcdoc bench --full --out results.json``. Which copy to pick in the first place is the subject
# of :doc:`/howto/which-copy`; how ``deepcopy`` copies a tensor is in :doc:`/explanation/deepcopy`.
