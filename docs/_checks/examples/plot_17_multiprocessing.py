"""The claims that ``examples/plot_17_multiprocessing.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
Most read :func:`tcdoc.start_methods`, the measurement the example shows (taken once per
build); the claims about ``share_memory_()`` and about sending a clone also run torch here.
"""

from __future__ import annotations

import torch

import tcdoc
from _checks._helpers import raises_saying
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _is_shared(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` is in shared memory (``Tensor.is_shared`` has no type hints)."""
    shared: bool = tensor.is_shared()  # type: ignore[no-untyped-call]
    return shared


def _measured() -> tcdoc.StartMethods:
    found = tcdoc.start_methods()
    expect(
        {"fork", "spawn", "forkserver"} <= set(found.methods),
        f"the example names fork, spawn and forkserver, and this platform has {list(found.methods)}",
    )
    return found


def _share_memory_moves_in_place(matrix: Matrix) -> None:
    x = torch.zeros(3)
    pointer = x.data_ptr()
    expect(not _is_shared(x), "a new tensor started in shared memory")
    expect(x.share_memory_() is x, "share_memory_() did not return x itself")  # type: ignore[no-untyped-call]
    expect(_is_shared(x) and x.data_ptr() != pointer, "the storage did not move into shared memory")


def _disjoint(array: object, tensor: torch.Tensor) -> bool:
    """Tell whether a NumPy array's bytes and a tensor's bytes are apart in memory."""
    start = int(array.ctypes.data)  # type: ignore[attr-defined]
    end = start + int(array.nbytes)  # type: ignore[attr-defined]
    first = tensor.data_ptr()
    return end <= first or first + tensor.numel() * tensor.element_size() <= start


def _numpy_array_left_behind(matrix: Matrix) -> None:
    """Check the reader's break: a view follows share_memory_() (and a queue's move), an earlier array not.

    The array's old memory is only compared by address, never read or written: torch may have freed it.
    """
    import multiprocessing.queues

    import torch.multiprocessing

    _share_memory_moves_in_place(matrix)
    x = torch.arange(4.0)
    array, view = x.numpy(), x[1:]
    expect(not _disjoint(array, x), "the array does not share the tensor's memory before the move")
    x.share_memory_()  # type: ignore[no-untyped-call]
    expect(view.data_ptr() == x.data_ptr() + 4 and _is_shared(view), "the view did not follow the move")
    expect(_disjoint(array, x), "the array followed the move")
    sent = torch.arange(4.0)
    array = sent.numpy()
    queue: multiprocessing.queues.Queue[object] = torch.multiprocessing.Queue()
    queue.put(sent)
    queue.get(timeout=60)
    queue.close()
    queue.join_thread()
    expect(_is_shared(sent) and _disjoint(array, sent), "after a queue's move the array still reaches it")


def _refuse(tensor: torch.Tensor) -> None:  # pragma: no cover - never runs: pickling it raises first
    """Do nothing: a worker's target that never starts."""


def _non_leaf_is_refused(matrix: Matrix) -> None:
    """Check the reader's break: a non-leaf that requires grad raises as an argument, a queue drops it."""
    import contextlib
    import io
    import multiprocessing
    import multiprocessing.queues
    from multiprocessing.reduction import ForkingPickler

    import torch.multiprocessing

    non_leaf = torch.zeros(3, requires_grad=True) * 1
    raises_saying(lambda: ForkingPickler.dumps(non_leaf), "non-leaf tensor which requires_grad")
    for method in ("spawn", "forkserver"):
        if method not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
            continue
        context = torch.multiprocessing.get_context(method)
        worker = context.Process(target=_refuse, args=(non_leaf,))  # type: ignore[attr-defined]
        error = raises_saying(worker.start, "non-leaf tensor which requires_grad")
        expect("detach()" in str(error), f"{method}: the error does not name detach(): {error}")
    simple: multiprocessing.queues.SimpleQueue[object] = torch.multiprocessing.SimpleQueue()
    raises_saying(lambda: simple.put(non_leaf), "non-leaf tensor which requires_grad")
    simple.close()
    queue: multiprocessing.queues.Queue[object] = torch.multiprocessing.Queue()
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed):  # the feeder thread prints the error here
        queue.put(non_leaf)
        queue.put("next")
        first = queue.get(timeout=60)
    queue.close()
    queue.join_thread()
    expect(first == "next", f"the queue delivered {first!r} first, not the next item")
    expect("non-leaf tensor which requires_grad" in printed.getvalue(), "the queue printed no error")
    expect(not _is_shared(non_leaf), "the refused tensor moved into shared memory")
    queue = torch.multiprocessing.Queue()
    queue.put(non_leaf.detach())
    received = queue.get(timeout=60)
    queue.close()
    queue.join_thread()
    sent = isinstance(received, torch.Tensor) and torch.equal(received, non_leaf.detach())
    expect(sent and _is_shared(non_leaf), "its detach() was not sent, or the non-leaf's memory did not move")


def _queues_move_or_refuse(matrix: Matrix) -> None:
    _queue_moves_under_every_method(matrix)
    _non_leaf_is_refused(matrix)


def _shared_reaches_the_parent_under_every_method(matrix: Matrix) -> None:
    found = _measured()
    for method in found.methods:
        for passed in ("argument", "queue"):
            write = found.get(method, "shared", passed)
            expect(write.parent_sees_write and not write.moved, f"{method}, {passed}: {write}")


def _ordinary_argument_under_each_method(matrix: Matrix) -> None:
    found = _measured()
    fork = found.get("fork", "ordinary", "argument")
    expect(not fork.parent_sees_write and not fork.shared_after and not fork.moved, f"fork: {fork}")
    for method in ("spawn", "forkserver"):
        write = found.get(method, "ordinary", "argument")
        expect(write.parent_sees_write and write.shared_after and write.moved, f"{method}: {write}")


def _queue_moves_under_every_method(matrix: Matrix) -> None:
    found = _measured()
    for method in found.methods:
        write = found.get(method, "ordinary", "queue")
        expect(write.moved and write.shared_after and write.parent_sees_write, f"{method}: {write}")


def _add_one_from_queue(queue: object) -> None:
    queue.get().add_(1)  # type: ignore[attr-defined]


def _add_one(tensor: torch.Tensor) -> None:
    tensor.add_(1)


def _a_sent_clone_leaves_the_original(matrix: Matrix) -> None:
    """Read that the queue moves what it sends (under every method); send a clone under fork."""
    import multiprocessing

    import torch.multiprocessing

    _queue_moves_under_every_method(matrix)
    original = torch.zeros(3)
    for_worker = original.clone()
    expect(not tcdoc.compare(original, for_worker).shares_storage, "the clone shares the original's storage")
    if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
        return
    context = torch.multiprocessing.get_context("fork")
    queue = context.Queue()
    worker = context.Process(target=_add_one_from_queue, args=(queue,))
    worker.start()
    queue.put(for_worker)
    worker.join(timeout=120)
    if worker.is_alive():  # pragma: no cover - a worker that hung
        worker.kill()
    queue.close()
    queue.join_thread()
    expect(worker.exitcode == 0, f"the worker exited with {worker.exitcode}")
    expect(
        _is_shared(for_worker) and torch.equal(for_worker, torch.ones(3)), "the clone did not get the write"
    )
    expect(not _is_shared(original) and torch.equal(original, torch.zeros(3)), "the original changed")
    # As an argument: a clone is an ordinary tensor, measured above under spawn and forkserver; under
    # fork run it here, since the words say the child gets its own copy.
    _ordinary_argument_under_each_method(matrix)
    as_argument = original.clone()
    worker = context.Process(target=_add_one, args=(as_argument,))
    worker.start()
    worker.join(timeout=120)
    if worker.is_alive():  # pragma: no cover - a worker that hung
        worker.kill()
    expect(worker.exitcode == 0, f"the worker exited with {worker.exitcode}")
    expect(
        not _is_shared(as_argument) and torch.equal(as_argument, torch.zeros(3)),
        "under fork the parent's clone saw the write",
    )
    expect(not _is_shared(original) and torch.equal(original, torch.zeros(3)), "the original changed")


CLAIMS = [
    Claim(
        "queues",
        _queues_move_or_refuse,
        quote="sending a tensor through one of its queues moves the tensor into shared memory, so a "
        "tensor you thought was private becomes shared (step 6 has an exception)",
    ),
    Claim(
        "share-memory",
        _share_memory_moves_in_place,
        quote="{meth}`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory "
        "that other processes can map",
    ),
    Claim(
        "numpy-left-behind",
        _numpy_array_left_behind,
        quote="Its views follow; an array taken before with `numpy()` does not, and is left on memory torch "
        "may have freed: take it after the move (a queue moves the tensor too, step 6)",
        needs=("numpy",),
    ),
    Claim(
        "non-leaf-refused",
        _non_leaf_is_refused,
        quote="The exception: `torch.multiprocessing` refuses to pickle a non-leaf tensor that requires "
        "gradients. So `Process.start()` raises under spawn and forkserver, a `SimpleQueue` raises in "
        "`put()`, and a `Queue` prints the error and drops the tensor. Send its `detach()`",
        scope="stated: spawn and forkserver arguments, a SimpleQueue and a Queue in this process",
    ),
    Claim(
        "shared-everywhere",
        _shared_reaches_the_parent_under_every_method,
        quote="Under every start method measured, a tensor in shared memory is the same memory in the "
        "parent and the worker, so the parent sees ones, whether the tensor went as an argument or "
        "through a queue",
        scope="stated: the start methods measured",
    ),
    Claim(
        "fork-copies-the-argument",
        _ordinary_argument_under_each_method,
        quote='Under ``"fork"`` the child began as a copy of the parent\'s memory: its write changed that '
        "copy only, and the parent still sees zeros",
        scope="stated: fork, an ordinary tensor passed as an argument",
    ),
    Claim(
        "spawn-moves-the-argument",
        _ordinary_argument_under_each_method,
        quote='Under ``"spawn"`` and ``"forkserver"`` the argument is pickled for the new process, '
        "which moves the parent's tensor into shared memory, so the parent sees ones",
        scope="stated: spawn and forkserver, an ordinary tensor passed as an argument",
    ),
    Claim(
        "queue-moves",
        _queue_moves_under_every_method,
        quote="To send an ordinary tensor, the queue moves its storage into shared memory, under every "
        "start method measured, so the worker's write reaches the parent even though nobody called "
        "`share_memory_()`",
        scope="stated: the start methods measured",
    ),
    Claim(
        "send-a-clone",
        _a_sent_clone_leaves_the_original,
        quote="send a clone: under every start method the original stays private and unchanged. Sent "
        "through a queue, or as an argument under spawn or forkserver, the clone moves into shared memory "
        "like any ordinary tensor (steps 5 and 6), and the parent sees the worker's write in it; under "
        "fork, an argument is the child's own copy",
        scope="stated: a queue under fork, an argument under fork (run here) and the ordinary tensor's "
        "measurements for the others",
    ),
]
