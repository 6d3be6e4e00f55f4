"""Tensors shared with worker processes
====================================

Data loaders, Hogwild-style training and other parallel code hand tensors to worker
processes. Whether a worker's in-place write reaches the parent depends on how the tensor got
to the worker, and on how the worker was started. Python starts a worker in one of
three ways, its *start methods*. ``"fork"`` begins the child as a copy of the parent.
``"spawn"`` and ``"forkserver"`` start a fresh Python that receives its arguments pickled. By default
Python uses ``"spawn"`` on Windows and macOS, and ``"forkserver"`` on Linux from Python 3.14
(``"fork"`` before), as `Python's documentation
<https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods>`_ explains.

:mod:`torch.multiprocessing` adds a twist: sending a tensor through one of its queues moves the
tensor into shared memory. So a tensor you thought was private becomes shared (step 6 has an
exception). We run real workers on the CPU and follow one tensor at a time. Each step skips
a start method that :func:`multiprocessing.get_all_start_methods` does not list (Windows has
no ``"fork"``).
"""

# %%
# Step 1: memory that two processes can see
# -----------------------------------------
# :meth:`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory
# that other processes can map. Its views follow. An array taken before with ``numpy()`` does
# not, and is left on memory torch may have freed. Take it after the move (a queue moves the
# tensor too, step 6).
import torch

shared = torch.zeros(3)
print(f"before: {shared.is_shared() = }")
shared.share_memory_()
print(f"after:  {shared.is_shared() = }")

# sphinx_gallery_start_ignore
import importlib.util

from tcdoc.claims import claim

x = torch.zeros(3)
pointer, was_shared = x.data_ptr(), x.is_shared()
returned = x.share_memory_()
claim(
    "{meth}`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory "
    "that other processes can map",
    shared.is_shared() and not was_shared and returned is x and x.is_shared() and x.data_ptr() != pointer,
    f"shared before: {was_shared}, returned x: {returned is x}, moved: {x.data_ptr() != pointer}",
)
if importlib.util.find_spec("numpy") is not None:
    x = torch.arange(4.0)
    array, view = x.numpy(), x[1:]
    start, end = array.ctypes.data, array.ctypes.data + array.nbytes
    reached_before = start < x.data_ptr() + x.nbytes and x.data_ptr() < end
    x.share_memory_()
    apart = end <= x.data_ptr() or x.data_ptr() + x.nbytes <= start
    claim(
        "Its views follow. An array taken before with `numpy()` does not, and is left on memory torch "
        "may have freed. Take it after the move (a queue moves the tensor too, step 6)",
        reached_before and view.data_ptr() == x.data_ptr() + 4 and view.is_shared() and apart,
        f"array on x's memory before: {reached_before}, view followed: {view.is_shared()}, "
        f"array apart after: {apart}",
    )
    del array, view
del x, pointer, was_shared, returned
# sphinx_gallery_end_ignore

# %%
# Step 2: real workers, every start method
# ----------------------------------------
# :func:`tcdoc.start_methods` hands tensors of zeros to one worker per start method: an
# ordinary tensor (no gradients) and one in shared memory. Each goes once as an argument of the
# :class:`~multiprocessing.Process` and once through a :mod:`torch.multiprocessing` queue.
# The worker adds one to each, in place, and exits. Then the parent looks at its own tensors.
# The whole answer first:
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
# parent and the worker. So the parent sees ones, whether the tensor went as an argument or
# through a queue.
for method in found.methods:
    for passed in ("argument", "queue"):
        print(seen(method, "shared", passed))

# sphinx_gallery_start_ignore
import multiprocessing

from tcdoc.claims import claim

claim(
    "Under every start method measured, a tensor in shared memory is the same memory in the parent "
    "and the worker. So the parent sees ones, whether the tensor went as an argument or through a queue",
    set(found.methods) == set(multiprocessing.get_all_start_methods())
    and all(
        found.get(method, "shared", passed).parent_sees_write
        and not found.get(method, "shared", passed).moved
        for method in found.methods
        for passed in ("argument", "queue")
    ),
    f"measured: {found.writes}",
)
# sphinx_gallery_end_ignore

# %%
# Step 4: an ordinary tensor as an argument, under fork
# -----------------------------------------------------
# Under ``"fork"`` the child began as a copy of the parent's memory. Its write changed that
# copy only, and the parent still sees zeros.
if "fork" in found.methods:
    print(seen("fork", "ordinary", "argument"))
else:
    print("this machine has no fork start method")

# sphinx_gallery_start_ignore
if "fork" in found.methods:
    fork = found.get("fork", "ordinary", "argument")
    claim(
        'Under ``"fork"`` the child began as a copy of the parent\'s memory. Its write changed that '
        "copy only, and the parent still sees zeros",
        not fork.parent_sees_write and not fork.shared_after and not fork.moved,
        f"fork: {fork}",
    )
    del fork
# sphinx_gallery_end_ignore

# %%
# Step 5: the same, under spawn and forkserver
# --------------------------------------------
# Under ``"spawn"`` and ``"forkserver"`` the argument is pickled for the new process. That
# moves the parent's tensor into shared memory, so the parent sees ones.
for method in ("spawn", "forkserver"):
    if method in found.methods:
        print(seen(method, "ordinary", "argument"))

# sphinx_gallery_start_ignore
pickled = [
    found.get(method, "ordinary", "argument") for method in ("spawn", "forkserver") if method in found.methods
]
claim(
    'Under ``"spawn"`` and ``"forkserver"`` the argument is pickled for the new process. That '
    "moves the parent's tensor into shared memory, so the parent sees ones",
    all(write.parent_sees_write and write.shared_after and write.moved for write in pickled),
    f"measured: {pickled}",
)
del pickled
# sphinx_gallery_end_ignore

# %%
# Step 6: an ordinary tensor through a queue
# ------------------------------------------
# To send an ordinary tensor, the queue moves its storage into shared memory, under every
# start method measured. So the worker's write reaches the parent even though nobody called
# ``share_memory_()``.
#
# The exception: ``torch.multiprocessing`` refuses to pickle a non-leaf tensor that requires
# gradients. So ``Process.start()`` raises under spawn and forkserver, a ``SimpleQueue`` raises
# in ``put()``, and a ``Queue`` prints the error and drops the tensor. Send its ``detach()``.
for method in found.methods:
    print(seen(method, "ordinary", "queue"))

# sphinx_gallery_start_ignore
import contextlib
import io
import multiprocessing
from multiprocessing.reduction import ForkingPickler

import torch.multiprocessing

from tcdoc.claims import raised

sent = [found.get(method, "ordinary", "queue") for method in found.methods]
queue_moves = all(write.moved and write.shared_after and write.parent_sees_write for write in sent)
claim(
    "To send an ordinary tensor, the queue moves its storage into shared memory, under every start "
    "method measured. So the worker's write reaches the parent even though nobody called "
    "`share_memory_()`",
    queue_moves,
    f"measured: {sent}",
)


def refused(error: BaseException | None) -> bool:
    """Tell whether torch refused to pickle a non-leaf tensor that requires gradients, naming detach()."""
    return isinstance(error, RuntimeError) and "non-leaf tensor which requires_grad" in str(error)


def never_run() -> None:
    """Do nothing: a worker's target that never starts, since pickling its argument raises first."""


non_leaf = torch.zeros(3, requires_grad=True) * 1
refusals = {"pickle": raised(lambda: ForkingPickler.dumps(non_leaf))}
for method in ("spawn", "forkserver"):
    if method in multiprocessing.get_all_start_methods():
        context = torch.multiprocessing.get_context(method)
        worker = context.Process(target=never_run, args=(non_leaf,))
        refusals[method] = raised(worker.start)
simple = torch.multiprocessing.SimpleQueue()
refusals["SimpleQueue.put"] = raised(lambda: simple.put(non_leaf))
simple.close()
queue = torch.multiprocessing.Queue()
printed = io.StringIO()
with contextlib.redirect_stderr(printed):
    queue.put(non_leaf)
    queue.put("next")
    first = queue.get(timeout=60)
queue.close()
queue.join_thread()
dropped = first == "next" and "non-leaf tensor which requires_grad" in printed.getvalue()
claim(
    "The exception: `torch.multiprocessing` refuses to pickle a non-leaf tensor that requires "
    "gradients. So `Process.start()` raises under spawn and forkserver, a `SimpleQueue` raises in "
    "`put()`, and a `Queue` prints the error and drops the tensor. Send its `detach()`",
    {"spawn", "forkserver"} & set(multiprocessing.get_all_start_methods()) <= set(refusals)
    and all(refused(error) for error in refusals.values())
    and all("detach()" in str(refusals[method]) for method in {"spawn", "forkserver"} & set(refusals))
    and dropped
    and not non_leaf.is_shared(),
    f"raised: {refusals}; the queue delivered {first!r} first and printed {printed.getvalue()!r}",
)
claim(
    "sending a tensor through one of its queues moves the tensor into shared memory. So a tensor you "
    "thought was private becomes shared (step 6 has an exception)",
    queue_moves and dropped and refused(refusals["SimpleQueue.put"]),
    f"measured: {sent}; the queue delivered {first!r} first",
)
del sent, queue_moves, refusals, queue, printed, first, dropped
# sphinx_gallery_end_ignore

# %%
# Step 7: a copy of its own for the worker
# ----------------------------------------
# To give a worker a copy of its own, send a clone: under every start method the original
# stays private and unchanged. Sent through a queue, or as an argument under spawn or
# forkserver, the clone moves into shared memory like any ordinary tensor (steps 5 and 6).
# The parent sees the worker's write in it. Under fork, an argument is the child's own copy
# (step 4).
# :func:`tcdoc.draw.draw` shows why: the clone has a storage of its own.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

original = torch.zeros(3)
for_worker = original.clone()
tcdoc.draw.draw(original, for_worker, "original.clone()", names=("original", "for_worker"))

# sphinx_gallery_start_ignore
import multiprocessing

import torch.multiprocessing


def add_one(tensor: torch.Tensor) -> None:
    """Add one to the argument, in place: a fork worker's target."""
    tensor.add_(1)


own_storage = not tcdoc.compare(original, for_worker).shares_storage
clone_argument = [
    found.get(method, "ordinary", "argument") for method in ("spawn", "forkserver") if method in found.methods
]
clone_queue = [found.get(method, "ordinary", "queue") for method in found.methods]
under_fork = True
if "fork" in multiprocessing.get_all_start_methods():
    as_argument = original.clone()
    worker = torch.multiprocessing.get_context("fork").Process(target=add_one, args=(as_argument,))
    worker.start()
    worker.join(timeout=120)
    if worker.is_alive():
        worker.kill()
    under_fork = worker.exitcode == 0 and not as_argument.is_shared() and torch.equal(as_argument, original)
    del as_argument, worker
claim(
    "send a clone: under every start method the original stays private and unchanged. Sent through a "
    "queue, or as an argument under spawn or forkserver, the clone moves into shared memory like any "
    "ordinary tensor (steps 5 and 6). The parent sees the worker's write in it. Under fork, an "
    "argument is the child's own copy",
    own_storage
    and all(write.moved and write.shared_after and write.parent_sees_write for write in clone_queue)
    and all(write.moved and write.shared_after and write.parent_sees_write for write in clone_argument)
    and under_fork
    and not original.is_shared()
    and torch.equal(original, torch.zeros(3)),
    f"own storage: {own_storage}; under fork the clone stayed the child's: {under_fork}; "
    f"measured: {clone_queue + clone_argument}",
)
del own_storage, clone_argument, clone_queue, under_fork
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# ``clone()`` is the copy that gives a tensor memory of its own: :doc:`/explanation/clone`.
