"""Saving and loading: views survive, and slices carry their whole storage
=======================================================================

:func:`torch.save` does not write tensors one by one. It writes their *storages*, the blocks
of memory underneath, and records each tensor as a window onto one of them. Two things
follow that surprise people. Tensors saved in one call that view one storage with one dtype (a
tensor and its views) share it again after :func:`torch.load`. :func:`torch.save` refuses
tensors that view one storage as different dtypes. And saving a small slice of a big tensor
writes the big tensor's whole storage. We save into an in-memory :class:`io.BytesIO` buffer, so
no file is left behind. Saved to a path, a file's size depends on its name, as the last section
measures.
"""

# %%
# A tensor and a view of it, saved together
# -----------------------------------------
# ``window`` is a view of ten elements of ``signal``. We save both in one dictionary.
import io

import torch

import tcdoc

torch.manual_seed(0)
signal = torch.randn(1000)
window = signal[10:20]
buffer = io.BytesIO()
torch.save({"signal": signal, "window": window}, buffer)
print(f"{buffer.getbuffer().nbytes = }")

# %%
# After loading, the two tensors share memory again: the loaded ``window`` starts ten
# elements into the loaded ``signal``'s storage.
buffer.seek(0)
loaded = torch.load(buffer)
print(tcdoc.shares_memory(loaded["signal"], loaded["window"]), loaded["window"].storage_offset())

# sphinx_gallery_start_ignore
from typing import Any

from tcdoc.claims import claim, raised


def _saved_and_loaded(saved: object) -> Any:
    """Save ``saved`` into a new buffer and load it back, ``weights_only=True`` as from torch 2.6 on."""
    stream = io.BytesIO()
    torch.save(saved, stream)
    stream.seek(0)
    return torch.load(stream, weights_only=True)


_complex = torch.tensor([1 + 2j, 3 - 1j, -1j])
_parameter = torch.nn.Parameter(torch.arange(4.0))
_floats = torch.zeros(4)
_pairs = {
    "a complex tensor and its conjugate view": [_complex, _complex.conj()],
    "a Parameter and a slice of it": [_parameter, _parameter.detach()[1:3]],
}
_apart = [name for name, pair in _pairs.items() if not tcdoc.shares_memory(*_saved_and_loaded(pair))]
_two_dtypes = raised(lambda: torch.save({"f": _floats, "i": _floats.view(torch.int32)}, io.BytesIO()))
claim(
    "Tensors saved in one call that view one storage with one dtype (a tensor and its views) share it again "
    "after {func}`torch.load`. {func}`torch.save` refuses tensors that view one storage as different dtypes",
    tcdoc.shares_memory(loaded["signal"], loaded["window"])
    and not _apart
    and isinstance(_two_dtypes, RuntimeError)
    and "as different types" in str(_two_dtypes),
    f"loaded apart: {_apart}; saving two dtypes of one storage gave {_two_dtypes!r}",
)
claim(
    "After loading, the two tensors share memory again: the loaded `window` starts ten elements into the "
    "loaded `signal`'s storage",
    tcdoc.shares_memory(loaded["signal"], loaded["window"])
    and loaded["window"].untyped_storage().data_ptr() == loaded["signal"].untyped_storage().data_ptr()
    and loaded["window"].storage_offset() == 10,
    f"the loaded window starts {loaded['window'].storage_offset()} elements into its storage",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.draw.draw` shows where: the bytes of the loaded ``window`` are marked on the
# storage of the loaded ``signal``.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(loaded["signal"], loaded["window"], names=('loaded["signal"]', 'loaded["window"]'))

# %%
# So a write into one is visible in the other, as it was before saving.
loaded["signal"][10] = 99.0
print(f'{loaded["window"][0] = }')

# %%
# What comes back is the shared memory, not the view tracking: the loaded ``window`` is not
# marked as a view of the loaded ``signal``.
print(f'{loaded["window"]._is_view() = }')
print(f'{loaded["window"]._base is None = }')

# sphinx_gallery_start_ignore
claim(
    "What comes back is the shared memory, not the view tracking: the loaded `window` is not marked as a "
    "view of the loaded `signal`",
    tcdoc.shares_memory(loaded["signal"], loaded["window"])
    and not loaded["window"]._is_view()
    and loaded["window"]._base is None,
    f"the loaded window is a view: {loaded['window']._is_view()}",
)
# sphinx_gallery_end_ignore

# %%
# Saved in two calls, they come back as two separate copies. So do tensors saved in one call
# that share memory through two storages, such as two ``torch.from_numpy()`` of one array.
# What :func:`torch.save` joins again is a shared storage.
first, second = io.BytesIO(), io.BytesIO()
torch.save(signal, first)
torch.save(window, second)
first.seek(0)
second.seek(0)
print(tcdoc.shares_memory(torch.load(first), torch.load(second)))

# sphinx_gallery_start_ignore
import importlib.util

_signal_again = torch.load(io.BytesIO(first.getvalue()), weights_only=True)
_window_again = torch.load(io.BytesIO(second.getvalue()), weights_only=True)
claim(
    "Saved in two calls, they come back as two separate copies",
    not tcdoc.shares_memory(_signal_again, _window_again),
    "the two loaded tensors share memory",
)
if importlib.util.find_spec("numpy") is not None:  # NumPy is optional: without it, not checked
    import numpy as np

    _array = np.zeros(4, dtype=np.float32)
    _two_storages = [torch.from_numpy(_array), torch.from_numpy(_array)]
    _loaded_apart = _saved_and_loaded(_two_storages)
    _loaded_apart[0][0] = 1.0
    claim(
        "So do tensors saved in one call that share memory through two storages, such as two "
        "`torch.from_numpy()` of one array. What {func}`torch.save` joins again is a shared storage",
        tcdoc.shares_memory(*_two_storages)
        and not tcdoc.shares_memory(*_loaded_apart)
        and _loaded_apart[1][0].item() == 0.0,
        "the two tensors came back sharing memory",
    )
# sphinx_gallery_end_ignore

# %%
# A small slice writes its whole storage
# --------------------------------------
# Saving only ``window`` (10 floats) still writes all 1000 floats of ``signal``'s storage.
# Its clone owns just its 10 elements. Compare the buffer sizes.
as_slice, as_clone = io.BytesIO(), io.BytesIO()
torch.save(window, as_slice)
torch.save(window.clone(), as_clone)
print(f"{as_slice.getbuffer().nbytes = }")
print(f"{as_clone.getbuffer().nbytes = }")

# %%
# Loading the slice brings the whole storage back into memory, too.
as_slice.seek(0)
loaded_window = torch.load(as_slice)
print(f"{loaded_window.shape = }")
print(f"{loaded_window.untyped_storage().nbytes() = }")

# sphinx_gallery_start_ignore
claim(
    "Saving only `window` (10 floats) still writes all 1000 floats of `signal`'s storage",
    window.numel() == 10
    and signal.untyped_storage().nbytes() == 1000 * signal.element_size()
    and loaded_window.untyped_storage().nbytes() == signal.untyped_storage().nbytes()
    and as_slice.getbuffer().nbytes > signal.untyped_storage().nbytes(),
    f"the loaded slice has a storage of {loaded_window.untyped_storage().nbytes()} bytes",
)
# sphinx_gallery_end_ignore

# %%
# So before saving a slice of something large (one row of an embedding table, a few
# samples of a dataset), ``clone()`` it. :func:`tcdoc.compare` shows that the clone owns
# exactly its own bytes:
print(f"{tcdoc.compare(signal, window.clone()).new_bytes = }")

# %%
# A file saved by its path holds the same archive, except that its records are named after the
# file: its name less the suffix. A buffer's records (and those of a file passed open) are
# named ``archive``. So the file's size changes with that name, here by up to a few hundred bytes
# from the buffer's.
import pathlib
import tempfile

with tempfile.TemporaryDirectory() as folder:
    for name in ("a.pt", "best_model_weights.pth"):
        path = pathlib.Path(folder) / name
        torch.save({"signal": signal, "window": window}, path)
        print(f"{name}: {path.stat().st_size} bytes")

# sphinx_gallery_start_ignore
import zipfile


def _record_folders(archive_file: pathlib.Path | io.BytesIO) -> set[str]:
    """Return the folders that the records of a file saved by torch.save are in."""
    with zipfile.ZipFile(archive_file) as archive:
        return {record.split("/")[0] for record in archive.namelist()}


def _names_and_sizes() -> tuple[list[str], dict[str, int]]:
    """Save what the example saved under four names, by path and passed open; return misnamed saves and sizes.

    By path, a file's records are in a folder named after its stem; passed open, like a buffer's, in
    ``archive``, and then the file has the buffer's size.
    """
    saved = {"signal": signal, "window": window}
    sizes = {"buffer": buffer.getbuffer().nbytes}
    misnamed = [] if _record_folders(io.BytesIO(buffer.getvalue())) == {"archive"} else ["buffer"]
    with tempfile.TemporaryDirectory() as folder:
        for name in ("a.pt", "a.pth", "archive.pt", "best_model_weights.pth"):
            path = pathlib.Path(folder) / name
            torch.save(saved, path)
            sizes[name] = path.stat().st_size
            if _record_folders(path) != {path.stem}:
                misnamed.append(name)
            with path.open("wb") as opened:
                torch.save(saved, opened)
            if _record_folders(path) != {"archive"} or path.stat().st_size != sizes["buffer"]:
                misnamed.append(f"{name}, passed open")
    return misnamed, sizes


_misnamed, _sizes = _names_and_sizes()
_shown = [_sizes["buffer"], _sizes["a.pt"], _sizes["best_model_weights.pth"]]
_spread = max(abs(size - _sizes["buffer"]) for size in _shown)
claim(
    "A file saved by its path holds the same archive, except that its records are named after the file: "
    "its name less the suffix. A buffer's records (and those of a file passed open) are named "
    "`archive`. So the file's size changes with that name, here by up to a few hundred bytes from the "
    "buffer's",
    not _misnamed
    and _sizes["a.pt"] == _sizes["a.pth"]  # the suffix is not recorded
    and _sizes["archive.pt"] == _sizes["buffer"]
    and len(set(_shown)) == len(_shown)
    and 0 < _spread < 1000,
    f"records not named as said in {_misnamed}; sizes {_sizes}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# How ``clone()`` gives a tensor memory of its own: :doc:`/explanation/clone`.
