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
:mod:`torch.multiprocessing` adds a twist: sending a tensor through one of its queues *moves*
the tensor into shared memory, so a tensor you thought was private becomes shared. We run real
workers on the CPU, under every start method this machine has, and look at what the parent
sees.
"""

# %%
# ``share_memory_()``
# -------------------
# :meth:`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory
# that other processes can map.
import torch

shared = torch.zeros(3)
before = shared.is_shared()
shared.share_memory_()
print(f"{before = }")
print(f"{shared.is_shared() = }")

# %%
# What the parent sees, under each start method
# ---------------------------------------------
# :func:`tcdoc.start_methods` hands tensors of zeros to one worker per start method: an
# ordinary tensor and one in shared memory, each once as an argument of the
# :class:`~multiprocessing.Process` and once through a :mod:`torch.multiprocessing` queue.
# The worker adds one to each, in place, and exits; then the parent looks at its own tensors.
# The table marks this machine's default start method. (tcdoc starts the workers from a fresh
# Python of its own, so that no worker runs this script again; spawning Pythons that import
# torch takes a few seconds.)
import tcdoc

found = tcdoc.start_methods()
print(found)

# %%
# Under every start method measured, a tensor in shared memory is the same memory in the
# parent and the worker, so the parent sees ones, whether the tensor went as an argument or
# through a queue.
#
# An ordinary tensor passed as an argument is where the start methods differ
# ---------------------------------------------------------------------------
# Under ``"fork"`` the child began as a copy of the parent's memory: its write changed that
# copy only, and the parent still sees zeros. Under ``"spawn"`` and ``"forkserver"`` the
# argument is pickled for the new process, which moves the parent's tensor into shared memory,
# so the parent sees ones. The parent's ordinary tensors after the workers ran: whether each is
# in shared memory now, and whether it moved to new memory (its data pointer changed).
print(
    [
        (write.start_method, write.passed, write.shared_after, write.moved)
        for write in found.writes
        if write.tensor == "ordinary"
    ]
)

# %%
# Sent through a queue, a tensor moves into shared memory
# -------------------------------------------------------
# To send an ordinary tensor, the queue moves its storage into shared memory, under every
# start method measured, so the worker's write reaches the parent even though nobody called
# ``share_memory_()``.
#
# To give a worker a copy of its own, send a clone. The clone moves into shared memory and
# receives the worker's write; the original stays private and unchanged.
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
