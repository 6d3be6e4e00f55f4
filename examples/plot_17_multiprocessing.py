"""Tensors shared with worker processes
====================================

Data loaders, Hogwild-style training and other parallel code hand tensors to worker
processes. Whether a worker's write reaches the parent depends on how the tensor got there:
a tensor in shared memory is the same memory in both processes, while an ordinary tensor is
copied. :mod:`torch.multiprocessing` adds a twist: sending a tensor through one of its
queues *moves* the tensor into shared memory, so a tensor you thought was private becomes
shared. We run real child processes on the CPU and look at what the parent sees.

This page starts its workers with the ``"fork"`` start method, in which the child begins as
a copy of the parent and so already knows the functions defined in this script. That keeps
the example one short file, but ``"fork"`` exists only on POSIX systems, Linux and macOS
among them, and Python's documentation calls it unsafe on macOS. The other two methods start
a fresh Python that must import the worker function from a module, and the script's top
level must sit under ``if __name__ == "__main__":``. By default Python uses ``"spawn"`` on
Windows and macOS, and ``"forkserver"`` on Linux from Python 3.14 (``"fork"`` before), as
`Python's documentation
<https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods>`_ explains.
"""

# %%
# ``share_memory_()``
# -------------------
# :meth:`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory
# that other processes can map.
import torch
import torch.multiprocessing

shared = torch.zeros(3)
before = shared.is_shared()
shared.share_memory_()
before, shared.is_shared()

# %%
# A worker that writes
# --------------------
# The worker adds one to the tensor it is given, in place. ``run`` starts it in a child
# process, waits for it and returns its exit code (0 means it finished normally).
context = torch.multiprocessing.get_context("fork")


def add_one(tensor):
    """Add one to ``tensor``, in place."""
    tensor.add_(1)


def run(target, *args):
    """Run ``target(*args)`` in a child process and return the child's exit code."""
    process = context.Process(target=target, args=args)
    process.start()
    process.join()
    return process.exitcode


run(add_one, shared), shared

# %%
# The child wrote into shared memory, so the parent sees ones.
#
# An ordinary tensor is copied
# ----------------------------
# A forked child gets a copy of the parent's memory. Its write changes that copy only, and
# the parent still sees zeros.
plain = torch.zeros(3)
run(add_one, plain), plain, plain.is_shared()

# %%
# Sent through a queue, a tensor moves into shared memory
# -------------------------------------------------------
# This worker takes its tensor from a :mod:`torch.multiprocessing` queue. To send ``sent``,
# the queue moves its storage into shared memory, so the child's write reaches the parent
# even though nobody called ``share_memory_()``.


def add_one_from_queue(queue):
    """Take a tensor from ``queue`` and add one to it, in place."""
    queue.get().add_(1)


queue = context.Queue()
sent = torch.zeros(3)
before = sent.is_shared()
queue.put(sent)
run(add_one_from_queue, queue), sent, (before, sent.is_shared())

# %%
# To give a worker a copy of its own, send a clone. The clone moves into shared memory and
# receives the worker's write; the original stays private and unchanged. (We are done with
# the queue after this, so we close it.)
original = torch.zeros(3)
for_worker = original.clone()
queue.put(for_worker)
exitcode = run(add_one_from_queue, queue)
queue.close()
queue.join_thread()
exitcode, original, for_worker, (original.is_shared(), for_worker.is_shared())

# %%
# :func:`tcdoc.draw.draw` shows why ``original`` stayed as it was: its clone has a storage
# of its own.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(original, for_worker, "original.clone()", names=("original", "for_worker"))

# %%
# These values were measured with:
import tcdoc

tcdoc.environment()

# %%
# ``clone()`` is the copy that gives a tensor memory of its own: :doc:`/explanation/clone`.
