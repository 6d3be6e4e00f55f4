"""What each copy costs
====================

Choosing between ``clone()``, ``detach()`` and ``copy.deepcopy`` is mostly a question of
meaning, but in a training loop that copies millions of tensors, or one that copies a large
one, the price matters too. Here each method is timed on tensors from 1 KiB to 64 MiB on the
machine that built this page, its new memory is measured, and its speed is set against the
fastest that a plain copy goes on the same machine.

This example needs matplotlib for its figures (``pip install "tcdoc[plot]"``). The numbers
change from build to build and from machine to machine: every sentence below that quotes one
computes it from this run.
"""

# %%
# A quick sweep: every method at four sizes, each timed by
# :class:`torch.utils.benchmark.Timer` for at least a twentieth of a second. The source is a
# float32 tensor ``x`` that does not require gradients.
import tcdoc.bench

sweep = tcdoc.bench.run(sizes=tcdoc.bench.SMALL_SIZES, min_run_time=0.05)
sweep.machine

# %%
# The limit to compare against: ``dst.copy_(src)`` at the largest size, into memory that was
# allocated and written beforehand. Its bandwidth counts the bytes read plus the bytes
# written, per second.
sweep.limit

# %%
# Time against size
# -----------------
# Both axes are logarithmic, so a method whose time grows in proportion to the size climbs
# along a straight diagonal, and a method whose time does not depend on the size stays flat.
import matplotlib.pyplot as plt

import tcdoc.bench

tcdoc.bench.plot_time(sweep)
plt.show()

# %%
# How much longer each method took at the largest size than at the smallest, while the
# tensor grew by a factor of ``largest / smallest``:
smallest, largest = sweep.sizes[0], sweep.sizes[-1]
print(f"size grew {largest // smallest} times")
{code: round(factor, 1) for code, factor in sweep.growth().items()}

# %%
# ``detach()``'s new memory at each size, measured from the storage of its result. Set it
# next to ``detach()``'s time-growth factor above.
[cost.bytes_allocated for cost in sweep.of("detach")]

# %%
# At the smallest size the data is tiny, and what remains is each method's fixed cost.
# ``copy.deepcopy`` is Python's generic copy protocol (:func:`copy.deepcopy`) rather than one
# tensor operation. What it added to ``clone()`` in this run:
f"{sweep.deepcopy_overhead() * 1e6:.1f} µs"

# %%
# Bandwidth against size
# ----------------------
# The same runs as bytes moved per second: a copy reads each byte of ``x`` and writes it once,
# so it moves twice the bytes it allocates. ``detach()`` moves nothing and has no line. The
# dashed line is the copy limit measured above.
tcdoc.bench.plot_bandwidth(sweep)
plt.show()

# %%
# Each method's share of the limit at the largest size:
{cost.code: f"{cost.fraction_of_limit:.0%}" for cost in (sweep.get(m, largest) for m in sweep.methods)}

# %%
# A share above 100 % is possible: the limit was measured on a large copy, which has to go to
# main memory and back, while a tensor small enough to stay in the CPU's caches may never
# leave them. The sizes at which ``x.clone()`` went faster than the limit in this run:
[tcdoc.bench.format_size(cost.nbytes) for cost in sweep.of("clone") if cost.fraction_of_limit > 1]

# %%
# Every measurement
# -----------------
# Times are medians of many calls; "allocated" is the new storage of the result.
sweep

# %%
# In one line, from this run: the copy limit, ``clone()``'s share of it on the largest
# tensor, and what ``deepcopy`` adds to ``clone()`` on the smallest.
print(sweep.headline())

# %%
# To measure the fuller sweep, from 1 KiB to 256 MiB, and keep the numbers as JSON, run
# ``tcdoc bench --full --out results.json``. Which copy to pick in the first place
# is the subject of :doc:`/howto/which-copy`; how ``deepcopy`` copies a tensor is in
# :doc:`/explanation/deepcopy`.
