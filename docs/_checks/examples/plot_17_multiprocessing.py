"""What ``examples/plot_17_multiprocessing.py`` claims and cannot check itself.

The example checks its claims in its own hidden blocks. What is left here sends a tensor through
a :mod:`torch.multiprocessing` queue from this very process: the queue passes the tensor's memory
through an AF_UNIX socket that multiprocessing puts under the temporary folder, and that fails
where ``TMPDIR`` is long (``OSError: AF_UNIX path too long``, issue 33). The example's download
must run there too, so these sends run here, in the build, where the claims' other cases already
hold (the example's blocks).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.queues

import torch
import torch.multiprocessing

from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _is_shared(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` is in shared memory (``Tensor.is_shared`` has no type hints)."""
    shared: bool = tensor.is_shared()  # type: ignore[no-untyped-call]
    return shared


def _send(tensor: torch.Tensor) -> object:
    """Send ``tensor`` through a queue of this process and return what came out."""
    queue: multiprocessing.queues.Queue[object] = torch.multiprocessing.Queue()
    queue.put(tensor)
    received = queue.get(timeout=60)
    queue.close()
    queue.join_thread()
    return received


def _disjoint(array: object, tensor: torch.Tensor) -> bool:
    """Tell whether a NumPy array's bytes and a tensor's bytes are apart in memory."""
    start = int(array.ctypes.data)  # type: ignore[attr-defined]
    end = start + int(array.nbytes)  # type: ignore[attr-defined]
    first = tensor.data_ptr()
    return end <= first or first + tensor.numel() * tensor.element_size() <= start


def _array_left_behind_by_a_queue(matrix: Matrix) -> None:
    """Check that an array taken before a queue's move does not follow it (its old memory is not read)."""
    sent = torch.arange(4.0)
    array = sent.numpy()
    expect(not _disjoint(array, sent), "the array does not share the tensor's memory before the move")
    _send(sent)
    expect(_is_shared(sent) and _disjoint(array, sent), "after a queue's move the array still reaches it")


def _detach_is_sent(matrix: Matrix) -> None:
    """Check that a refused non-leaf's detach() goes through a Queue, moving the non-leaf's memory."""
    non_leaf = torch.zeros(3, requires_grad=True) * 1
    received = _send(non_leaf.detach())
    sent = isinstance(received, torch.Tensor) and torch.equal(received, non_leaf.detach())
    expect(sent and _is_shared(non_leaf), "its detach() was not sent, or the non-leaf's memory did not move")


def _add_one_from_queue(queue: object) -> None:
    queue.get().add_(1)  # type: ignore[attr-defined]


def _a_clone_sent_under_fork(matrix: Matrix) -> None:
    """Check that a clone sent to a fork worker through a queue gets its write; the original stays."""
    if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
        return
    original = torch.zeros(3)
    for_worker = original.clone()
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


CLAIMS = [
    Claim(
        "numpy-left-behind-by-a-queue",
        _array_left_behind_by_a_queue,
        quote="Its views follow. An array taken before with `numpy()` does not, and is left on memory torch "
        "may have freed. Take it after the move (a queue moves the tensor too, step 6)",
        needs=("numpy",),
    ),
    Claim(
        "non-leaf-detach-sent",
        _detach_is_sent,
        quote="The exception: `torch.multiprocessing` refuses to pickle a non-leaf tensor that requires "
        "gradients. So `Process.start()` raises under spawn and forkserver, a `SimpleQueue` raises in "
        "`put()`, and a `Queue` prints the error and drops the tensor. Send its `detach()`",
        scope="stated: its detach() through a Queue in this process (the rest: the example's own check)",
    ),
    Claim(
        "send-a-clone-under-fork",
        _a_clone_sent_under_fork,
        quote="send a clone: under every start method the original stays private and unchanged. Sent "
        "through a queue, or as an argument under spawn or forkserver, the clone moves into shared memory "
        "like any ordinary tensor (steps 5 and 6). The parent sees the worker's write in it. Under "
        "fork, an argument is the child's own copy",
        scope="stated: a clone through a queue under fork (the rest: the example's own check)",
    ),
]
