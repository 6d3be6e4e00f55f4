"""The claims that ``examples/plot_13_numpy.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import functools
import warnings

import torch

from _checks._helpers import raises
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _from_numpy_copies_nothing(matrix: Matrix) -> None:
    import numpy as np

    array = np.zeros(3, dtype=np.float32)
    tensor = torch.from_numpy(array)
    array[0] = 1.0
    expect(tensor[0].item() == 1.0, "from_numpy copied the array")
    y = torch.randn(3, requires_grad=True) * 2
    raises(lambda: y.numpy())
    for mode in (torch.no_grad, torch.inference_mode):
        with mode():
            expect(
                shares_memory(y, torch.from_numpy(y.numpy())), f"{mode.__name__}: numpy() copied or refused"
            )
    n = y.detach().cpu().numpy()
    expect(shares_memory(y, torch.from_numpy(n)), "the array does not share memory with y")
    expect(not shares_memory(torch.tensor(n), torch.from_numpy(n)), "torch.tensor(array) shares memory")
    x = torch.ones(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # it recommends x.detach().clone(), as the pages say
        copied = torch.tensor(x)
    expect(not shares_memory(copied, x), "torch.tensor(tensor) shares memory")


def _numpy_wraps_only_what_numpy_reads(matrix: Matrix) -> None:
    """Check numpy() shares a plain CPU tensor, raises for conj/neg bits and bfloat16, and force copies."""
    _from_numpy_copies_nothing(matrix)
    import numpy as np

    x = torch.randn(3)
    expect(shares_memory(x, torch.from_numpy(x.detach().cpu().numpy())), "a plain CPU tensor was copied")
    expect(shares_memory(x, torch.from_numpy(x.numpy(force=True))), "force=True copied a plain CPU tensor")
    z = torch.randn(3, dtype=torch.cfloat)
    for name, view in {"conj": z.conj(), "neg": z._neg_view()}.items():
        error = raises(functools.partial(torch.Tensor.numpy, view.detach().cpu()))
        expect(f"{'conjugate' if name == 'conj' else 'negative'} bit set" in str(error), f"{name}: {error}")
        forced = view.numpy(force=True)
        expect(not np.shares_memory(forced, z.numpy()), f"{name}: force=True shares memory")
        expect(np.array_equal(forced, view.resolve_conj().resolve_neg().numpy()), f"{name}: wrong values")
    raises(lambda: torch.zeros(3, dtype=torch.bfloat16).detach().cpu().numpy(), TypeError)
    # The reader's break: float32, on the CPU, no bit set, yet not strided.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # CSR and CSC support is "in beta state"
        plain = torch.zeros(2, 3)
        for sparse in (plain.to_sparse(), plain.to_sparse_csr(), plain.to_sparse_csc()):
            expect(not sparse.is_conj() and not sparse.is_neg(), f"{sparse.layout} has a bit set")
            error = raises(functools.partial(torch.Tensor.numpy, sparse.detach().cpu()), TypeError)
            expect("layout" in str(error), f"{sparse.layout}: {error}")
        nested = torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)])  # warns: a prototype
    expect(nested.layout == torch.strided and nested.is_nested, f"the nested tensor is {nested.layout}")
    raises(functools.partial(torch.Tensor.numpy, nested.detach().cpu()), Exception)


def _array_stays_when_the_tensor_moves(matrix: Matrix) -> None:
    """Check the reader's break: share_memory_() and a queue's move leave an earlier array behind.

    The old memory is compared by address only, never read or written: torch may have freed it.
    """
    import multiprocessing.queues

    import torch.multiprocessing

    moved, sent = torch.arange(4.0), torch.arange(4.0)
    arrays = {"share_memory_()": moved.numpy(), "a queue": sent.numpy()}
    expect(
        all(
            shares_memory(t, torch.from_numpy(a)) for t, a in zip((moved, sent), arrays.values(), strict=True)
        ),
        "copied",
    )
    moved.share_memory_()  # type: ignore[no-untyped-call]
    queue: multiprocessing.queues.Queue[object] = torch.multiprocessing.Queue()
    queue.put(sent)
    queue.get(timeout=60)
    queue.close()
    queue.join_thread()
    for (name, array), tensor in zip(arrays.items(), (moved, sent), strict=True):
        start, end = array.ctypes.data, array.ctypes.data + array.nbytes
        first, last = tensor.data_ptr(), tensor.data_ptr() + tensor.numel() * tensor.element_size()
        expect(tensor.is_shared(), f"{name}: the tensor did not move into shared memory")  # type: ignore[no-untyped-call]
        expect(end <= first or last <= start, f"{name}: the array still reaches the tensor's memory")


CLAIMS = [
    Claim(
        "hand-over",
        _numpy_wraps_only_what_numpy_reads,
        quote="`torch.Tensor.numpy` (for a CPU tensor NumPy can read) and `torch.from_numpy` hand over the "
        "same memory instead of copying it",
        needs=("numpy",),
        scope="stated: a CPU tensor NumPy can read",
    ),
    Claim(
        "idiom",
        _numpy_wraps_only_what_numpy_reads,
        quote="and `numpy()` wraps the memory of a strided CPU tensor (not sparse, not nested) whose dtype "
        "NumPy has and that has no conjugate or negative bit. It raises for conjugate or negative views "
        "(resolve them first, which copies), for `bfloat16` and for sparse and nested tensors; "
        "`numpy(force=True)` copies when it has to resolve the bit",
        needs=("numpy",),
        scope="stated: conjugate and negative views, bfloat16, sparse layouts and a nested tensor, against a "
        "plain CPU tensor",
    ),
    Claim(
        "array-left-behind",
        _array_stays_when_the_tensor_moves,
        quote="It does not follow the tensor to new memory: after `share_memory_()`, which a "
        "`torch.multiprocessing` queue also does to a tensor it sends, the two no longer share memory, and "
        "the array is left on memory that torch may have freed",
        needs=("numpy",),
    ),
    Claim(
        "from-numpy",
        _from_numpy_copies_nothing,
        quote="`torch.from_numpy`, which copies nothing either",
        needs=("numpy",),
    ),
    Claim(
        "refuses",
        _from_numpy_copies_nothing,
        quote="With gradients enabled, `numpy()` refuses a tensor that requires gradients: an array cannot "
        "carry autograd history",
        needs=("numpy",),
        scope="stated: a tensor that requires gradients, with gradients enabled",
    ),
    Claim(
        "still-shares",
        _from_numpy_copies_nothing,
        quote="On the CPU the array still shares memory with `y`",
        needs=("numpy",),
    ),
    Claim(
        "tensor-copies",
        _from_numpy_copies_nothing,
        quote="`torch.tensor` always copies its data",
        scope="stated: an array and a tensor, the two kinds of data the page gives it",
        needs=("numpy",),
    ),
]
