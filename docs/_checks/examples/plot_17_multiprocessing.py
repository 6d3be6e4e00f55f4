"""The claims that ``examples/plot_17_multiprocessing.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _is_shared(tensor: torch.Tensor) -> bool:
    """Tell whether ``tensor`` is in shared memory (``Tensor.is_shared`` has no type hints)."""
    shared: bool = tensor.is_shared()  # type: ignore[no-untyped-call]
    return shared


def _add_one(tensor: torch.Tensor) -> None:
    tensor.add_(1)


def _add_one_from_queue(queue: object) -> None:
    queue.get().add_(1)  # type: ignore[attr-defined]


def _run_forked(target: Callable[..., None], *args: object) -> int | None:
    import multiprocessing

    process = multiprocessing.get_context("fork").Process(target=target, args=args)
    process.start()
    process.join(timeout=120)
    return process.exitcode


def _workers_and_shared_memory(matrix: Matrix) -> None:
    import multiprocessing

    import torch.multiprocessing  # its queues move tensors into shared memory

    expect("fork" in multiprocessing.get_all_start_methods(), "this system has no fork start method")
    shared = torch.zeros(3)
    shared.share_memory_()  # type: ignore[no-untyped-call]
    expect(_is_shared(shared) and _run_forked(_add_one, shared) == 0, "the worker failed")
    expect(torch.equal(shared, torch.ones(3)), "the write into shared memory did not reach the parent")
    plain = torch.zeros(3)
    expect(
        _run_forked(_add_one, plain) == 0 and torch.equal(plain, torch.zeros(3)), "a private tensor changed"
    )
    context = torch.multiprocessing.get_context("fork")
    queue = context.Queue()
    sent = torch.zeros(3)
    expect(not _is_shared(sent), "the tensor started shared")
    queue.put(sent)
    expect(_run_forked(_add_one_from_queue, queue) == 0, "the queue worker failed")
    expect(_is_shared(sent) and torch.equal(sent, torch.ones(3)), "the queue did not move the tensor")
    original = torch.zeros(3)
    for_worker = original.clone()
    queue.put(for_worker)
    expect(_run_forked(_add_one_from_queue, queue) == 0, "the queue worker failed")
    queue.close()
    queue.join_thread()
    ok = _is_shared(for_worker) and torch.equal(for_worker, torch.ones(3))
    expect(
        ok and not _is_shared(original) and torch.equal(original, torch.zeros(3)), "the clone did not behave"
    )


CLAIMS = [
    Claim(
        "shared-or-copied",
        _workers_and_shared_memory,
        quote=(
            "a tensor in shared memory is the same memory in both processes, while an ordinary tensor "
            "is copied"
        ),
    ),
    Claim(
        "queues",
        _workers_and_shared_memory,
        quote="sending a tensor through one of its queues moves the tensor into shared memory, so a "
        "tensor you "
        "thought was private becomes shared",
    ),
    Claim(
        "share-memory",
        _workers_and_shared_memory,
        quote="{meth}`torch.Tensor.share_memory_` moves a tensor's storage, in place, into shared memory "
        "that "
        "other processes can map",
    ),
    Claim(
        "parent-sees-ones",
        _workers_and_shared_memory,
        quote="The child wrote into shared memory, so the parent sees ones",
    ),
    Claim(
        "parent-sees-zeros",
        _workers_and_shared_memory,
        quote="Its write changes that copy only, and the parent still sees zeros",
        scope="stated: a forked child and an ordinary tensor",
    ),
    Claim(
        "queue-moves",
        _workers_and_shared_memory,
        quote="the queue moves its storage into shared memory, so the child's write reaches the parent "
        "even though "
        "nobody called `share_memory_()`",
    ),
    Claim(
        "send-a-clone",
        _workers_and_shared_memory,
        quote="The clone moves into shared memory and receives the worker's write; the original stays "
        "private and "
        "unchanged",
    ),
]
