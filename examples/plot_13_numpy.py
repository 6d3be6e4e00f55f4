"""NumPy round trips: shared memory and copies
===========================================

Moving data between PyTorch and NumPy is often free: :meth:`torch.Tensor.numpy` (for a CPU
tensor NumPy can read) and :func:`torch.from_numpy` hand over the same memory instead of copying
it. That is fast, and
it also means that a write on one side shows up on the other. This page measures each
conversion, explains what ``numpy()`` asks of a tensor that requires gradients, and shows the
idiom ``.detach().cpu().numpy()``.

This example is about NumPy, so it needs ``numpy`` installed besides ``torch`` and ``tcdoc``.
"""

# %%
# ``tensor.numpy()`` shares memory
# --------------------------------
# The array looks at the tensor's memory, so writing into the array changes the tensor. It does
# not follow the tensor to new memory, though. ``share_memory_()`` moves the tensor, and a
# ``torch.multiprocessing`` queue does that to a tensor it sends. After that the two no longer
# share memory, and the array is left on memory that torch may have freed. Take the array again
# after the move.
import numpy as np
import torch

import tcdoc

x = torch.arange(4.0)
a = x.numpy()
a[0] = 100.0
print(f"{x = }")

# sphinx_gallery_start_ignore
from collections.abc import Callable

import torch.multiprocessing

from tcdoc.claims import claim, raised


def _send_through_a_queue(tensor: torch.Tensor) -> None:
    """Send ``tensor`` through a ``torch.multiprocessing`` queue, which moves it into shared memory."""
    queue = torch.multiprocessing.Queue()
    queue.put(tensor)
    queue.get(timeout=60)
    queue.close()
    queue.join_thread()


def _array_left_behind(move: Callable[[torch.Tensor], object]) -> bool:
    """Take the array of a new tensor, ``move`` the tensor; whether the array is left on other memory.

    The old memory is compared by address only, never read or written: torch may have freed it.
    """
    tensor = torch.arange(4.0)
    array = tensor.numpy()
    shared_before = tcdoc.shares_memory(tensor, torch.from_numpy(array))
    move(tensor)
    start, end = array.ctypes.data, array.ctypes.data + array.nbytes
    first, last = tensor.data_ptr(), tensor.data_ptr() + tensor.numel() * tensor.element_size()
    return shared_before and tensor.is_shared() and (end <= first or last <= start)


_left = {
    "share_memory_()": _array_left_behind(torch.Tensor.share_memory_),
    "a queue": _array_left_behind(_send_through_a_queue),
}
claim(
    "It does not follow the tensor to new memory, though. `share_memory_()` moves the tensor, and a "
    "`torch.multiprocessing` queue does that to a tensor it sends. After that the two no longer share "
    "memory, and the array is left on memory that torch may have freed",
    all(_left.values()),
    f"the array was left behind after {_left}",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.shares_memory` measures the same thing (it takes tensors, so we wrap the
# array with :func:`torch.from_numpy`, which copies nothing either).
print(f"{tcdoc.shares_memory(x, torch.from_numpy(a)) = }")

# sphinx_gallery_start_ignore
_array = np.zeros(3, dtype=np.float32)
_wrapped = torch.from_numpy(_array)
_array[0] = 1.0
claim(
    "`torch.from_numpy`, which copies nothing either",
    tcdoc.shares_memory(x, torch.from_numpy(a)) and _wrapped[0].item() == 1.0,
    f"a write into the array left the tensor at {_wrapped}",
)
# sphinx_gallery_end_ignore

# %%
# ``torch.from_numpy(array)`` shares memory
# -----------------------------------------
# The other direction: a tensor made from an array writes into the array. It also keeps the
# array's dtype, here NumPy's default ``float64``.
b = np.zeros(3)
t = torch.from_numpy(b)
t[1] = 5.0
print(f"{b = }")
print(f"{t.dtype = }")

# sphinx_gallery_start_ignore
claim(
    "`torch.Tensor.numpy` (for a CPU tensor NumPy can read) and `torch.from_numpy` hand over the same memory "
    "instead of copying it",
    tcdoc.shares_memory(x, torch.from_numpy(a))
    and x[0].item() == a[0] == 100.0
    and tcdoc.shares_memory(t, torch.from_numpy(b))
    and t[1].item() == b[1] == 5.0,
    f"after the writes, x = {x} and b = {b}",
)
# sphinx_gallery_end_ignore

# %%
# A tensor that requires gradients
# --------------------------------
# With gradients enabled, ``numpy()`` refuses a tensor that requires gradients: an array cannot
# carry autograd history. The error names the fix.
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
y = w * 2
try:
    y.numpy()
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
_refused = {"y = w * 2": raised(y.numpy), "the leaf w": raised(w.numpy)}
_shared_elsewhere = {}  # where gradients are not enabled, numpy() hands over the memory
for _mode in (torch.no_grad, torch.inference_mode):
    with _mode():
        _shared_elsewhere[_mode.__name__] = tcdoc.shares_memory(y, torch.from_numpy(y.numpy()))
claim(
    "With gradients enabled, `numpy()` refuses a tensor that requires gradients: an array cannot carry "
    "autograd history",
    all(isinstance(error, RuntimeError) for error in _refused.values()) and all(_shared_elsewhere.values()),
    f"numpy() raised {_refused}; it shared memory under {_shared_elsewhere}",
)
# sphinx_gallery_end_ignore

# %%
# Under :class:`torch.no_grad` there is no history to lose, and ``numpy()`` hands over the
# memory of the same tensor.
with torch.no_grad():
    print(f"{tcdoc.shares_memory(y, torch.from_numpy(y.numpy())) = }")

# %%
# ``.detach().cpu().numpy()``
# ---------------------------
# In the usual idiom, :meth:`~torch.Tensor.detach` leaves the graph (without copying).
# :meth:`~torch.Tensor.cpu` moves the data to the CPU (a no-op for a tensor already there).
# And ``numpy()`` wraps the memory of a strided CPU tensor (not sparse, not nested) whose dtype
# NumPy has and that has no conjugate or negative bit. It raises for conjugate or negative views
# (resolve them first, which copies), for ``bfloat16`` and for sparse and nested tensors.
# ``numpy(force=True)`` copies when it has to resolve the bit. On the CPU the array still shares
# memory with ``y``.
n = y.detach().cpu().numpy()
print(f"{n = }")
print(f"{tcdoc.shares_memory(y, torch.from_numpy(n)) = }")

# sphinx_gallery_start_ignore
import warnings

claim(
    "On the CPU the array still shares memory with `y`",
    tcdoc.shares_memory(y, torch.from_numpy(n)),
    "n has memory of its own",
)

_complex = torch.tensor([1 + 2j, 3 - 1j, -1j])
_bits = {"conjugate": _complex.conj(), "negative": _complex._neg_view()}
_zeros = torch.zeros(2, 3)  # float32, on the CPU, no bit set: only its layout keeps it from NumPy
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # CSR and CSC are "in beta", nested tensors a prototype
    _unreadable = {  # each tensor with the error numpy() raises and words the error says
        "conjugate": (_bits["conjugate"], RuntimeError, "conjugate bit set"),
        "negative": (_bits["negative"], RuntimeError, "negative bit set"),
        "bfloat16": (torch.zeros(3, dtype=torch.bfloat16), TypeError, ""),
        "sparse COO": (_zeros.to_sparse(), TypeError, "layout"),
        "sparse CSR": (_zeros.to_sparse_csr(), TypeError, "layout"),
        "sparse CSC": (_zeros.to_sparse_csc(), TypeError, "layout"),
        "nested": (torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]), Exception, ""),
    }
_errors = {name: raised(tensor.detach().cpu().numpy) for name, (tensor, _, _) in _unreadable.items()}
_not_refused = [
    name
    for name, (_, kind, words) in _unreadable.items()
    if not (isinstance(_errors[name], kind) and words in str(_errors[name]))
]
_forced = {name: view.numpy(force=True) for name, view in _bits.items()}
_not_copied = [
    name
    for name, view in _bits.items()
    if np.shares_memory(_forced[name], _complex.numpy())
    or not np.array_equal(_forced[name], view.resolve_conj().resolve_neg().numpy())
]
claim(
    "And `numpy()` wraps the memory of a strided CPU tensor (not sparse, not nested) whose dtype NumPy has "
    "and that has no conjugate or negative bit. It raises for conjugate or negative views (resolve them "
    "first, which copies), for `bfloat16` and for sparse and nested tensors. `numpy(force=True)` copies "
    "when it has to resolve the bit",
    tcdoc.shares_memory(y, torch.from_numpy(n))
    and tcdoc.shares_memory(y, torch.from_numpy(y.numpy(force=True)))
    and _unreadable["nested"][0].layout == torch.strided
    and not _not_refused
    and not _not_copied,
    f"numpy() raised {[(name, _errors[name]) for name in _not_refused]}; "
    f"numpy(force=True) did not copy the {_not_copied} view right",
)
# sphinx_gallery_end_ignore

# %%
# ``numpy(force=True)``
# ---------------------
# ``numpy(force=True)`` does the detaching and moving for you. We check whether the installed
# torch accepts it instead of assuming.
try:
    forced = y.numpy(force=True)
except TypeError as error:
    print(f"This torch has no numpy(force=True): {error}")
else:
    print(forced, "shares memory with y:", tcdoc.shares_memory(y, torch.from_numpy(forced)))

# %%
# ``torch.tensor(array)`` copies, ``torch.as_tensor(array)`` shares
# -----------------------------------------------------------------
# :func:`torch.tensor` always copies its data. :func:`torch.as_tensor` reuses the array's
# memory when it can.
c = np.arange(3.0)
copied = torch.tensor(c)
shared = torch.as_tensor(c)
print(f"{tcdoc.shares_memory(copied, torch.from_numpy(c)) = }")
print(f"{tcdoc.shares_memory(shared, torch.from_numpy(c)) = }")

# sphinx_gallery_start_ignore
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # it recommends x.detach().clone(), as the pages say
    _from_tensor = torch.tensor(x)
_copies = {
    "torch.tensor(c)": not tcdoc.shares_memory(copied, torch.from_numpy(c)),
    "torch.tensor(n), float32": not tcdoc.shares_memory(torch.tensor(n), torch.from_numpy(n)),
    "torch.tensor(x), a tensor": not tcdoc.shares_memory(_from_tensor, x),
}
claim("`torch.tensor` always copies its data", all(_copies.values()), f"copied: {_copies}")
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.draw.draw_panels` draws ``copied`` and ``shared`` against the array's memory
# (wrapped by :func:`torch.from_numpy`): a bar for each storage, and the bytes each tensor
# reaches in it.
import tcdoc.draw

array = torch.from_numpy(c)
tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(array, copied, "torch.tensor(c)", names=("c", "copied")),
        tcdoc.draw.diagram(array, shared, "torch.as_tensor(c)", names=("c", "shared")),
    ]
)

# %%
# "When it can": asking ``as_tensor`` for another dtype forces a conversion, hence a copy.
print(tcdoc.shares_memory(torch.as_tensor(c, dtype=torch.float32), torch.from_numpy(c)))

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# ``numpy()``, ``from_numpy`` and ``as_tensor`` next to the other ways of copying a tensor:
# :doc:`/explanation/look-alikes`. More on ``detach()``: :doc:`/explanation/detach`.
