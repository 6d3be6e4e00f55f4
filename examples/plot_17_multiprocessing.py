"""Tensors shared with worker processes
====================================

Data loaders, Hogwild-style training and other parallel code hand tensors to worker
processes. Whether a worker's in-place write reaches the parent depends on how the tensor got
to the worker, and on how the worker was started. Python starts a worker in one of three ways,
its *start methods*: ``"fork"`` begins the child as a copy of the parent, while ``"spawn"``
and ``"forkserver"`` start a fresh Python that receives its arguments pickled. By default
Python uses ``"spawn"`` on Windows and macOS, and ``"forkserver"`` on Linux from Python 3.14
(``"fork"`` before), as `Python's documentation
<https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods>`_ explains.
:mod:`torch.multiprocessing` adds a twist: sending a tensor through one of its queues moves the
tensor into shared memory, so a tensor you thought was private becomes shared (step 6 has an
exception). We run real
workers on the CPU, under every start method this machine has, and follow one tensor at a time.
"""

# %%
# Step 1: memory that two processes can see
# -----------------------------------------
# :meth:`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory
# that other processes can map. Its views follow; an array taken before with ``numpy()`` does
# not, and is left on memory torch may have freed: take it after the move (a queue moves the
# tensor too, step 6).
import torch

shared = torch.zeros(3)
print(f"before: {shared.is_shared() = }")
shared.share_memory_()
print(f"after:  {shared.is_shared() = }")

# %%
# Step 2: real workers, every start method
# ----------------------------------------
# :func:`tcdoc.start_methods` hands tensors of zeros to one worker per start method: an
# ordinary tensor (no gradients) and one in shared memory, each once as an argument of the
# :class:`~multiprocessing.Process` and once through a :mod:`torch.multiprocessing` queue.
# The worker adds one to each, in place, and exits; then the parent looks at its own tensors.
# (Spawning Pythons that import torch takes a few seconds.) The whole answer first:
import tcdoc

found = tcdoc.start_methods()
print(found)


# %%
# The steps below read single cells of that table, one line each.
def seen(method: str, tensor: str, passed: str) -> str:
    """Say what the parent saw, for one start method, tensor and way of passing it."""
    write = found.get(method, tensor, passed)
    values = "ones" if write.parent_sees_write else "zeros"
    how = "as an argument" if passed == "argument" else "through a queue"
    return (
        f"{method:10} {tensor} tensor {how}: parent sees {values}, in shared memory now: {write.shared_after}"
    )


# %%
# Step 3: a tensor in shared memory
# ---------------------------------
# Under every start method measured, a tensor in shared memory is the same memory in the
# parent and the worker, so the parent sees ones, whether the tensor went as an argument or
# through a queue.
for method in found.methods:
    for passed in ("argument", "queue"):
        print(seen(method, "shared", passed))

# %%
# Step 4: an ordinary tensor as an argument, under fork
# -----------------------------------------------------
# Under ``"fork"`` the child began as a copy of the parent's memory: its write changed that
# copy only, and the parent still sees zeros.
print(seen("fork", "ordinary", "argument"))

# %%
# Step 5: the same, under spawn and forkserver
# --------------------------------------------
# Under ``"spawn"`` and ``"forkserver"`` the argument is pickled for the new process, which
# moves the parent's tensor into shared memory, so the parent sees ones.
for method in ("spawn", "forkserver"):
    print(seen(method, "ordinary", "argument"))

# %%
# Step 6: an ordinary tensor through a queue
# ------------------------------------------
# To send an ordinary tensor, the queue moves its storage into shared memory, under every
# start method measured, so the worker's write reaches the parent even though nobody called
# ``share_memory_()``.
#
# The exception: ``torch.multiprocessing`` refuses to pickle a non-leaf tensor that requires
# gradients. So ``Process.start()`` raises under spawn and forkserver, a ``SimpleQueue`` raises
# in ``put()``, and a ``Queue`` prints the error and drops the tensor. Send its ``detach()``.
for method in found.methods:
    print(seen(method, "ordinary", "queue"))

# %%
# Step 7: a copy of its own for the worker
# ----------------------------------------
# To give a worker a copy of its own, send a clone: under every start method the original
# stays private and unchanged. Sent through a queue, or as an argument under spawn or
# forkserver, the clone moves into shared memory like any ordinary tensor (steps 5 and 6), and
# the parent sees the worker's write in it; under fork, an argument is the child's own copy
# (step 4).
# :func:`tcdoc.draw.draw` shows why: the clone has a storage of its own.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

original = torch.zeros(3)
for_worker = original.clone()
tcdoc.draw.draw(original, for_worker, "original.clone()", names=("original", "for_worker"))

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# ``clone()`` is the copy that gives a tensor memory of its own: :doc:`/explanation/clone`.
