"""Saving and loading: views survive, and slices carry their whole storage
=======================================================================

:func:`torch.save` does not write tensors one by one: it writes their *storages*, the blocks
of memory underneath, and records each tensor as a window onto one of them. Two things
follow that surprise people. Tensors saved in one call that view one storage with one dtype (a
tensor and its views) share it again after :func:`torch.load` (:func:`torch.save` refuses
tensors that view one storage as different dtypes). And saving a small slice of a big tensor
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

# %%
# Saved in two calls, they come back as two separate copies. So do tensors saved in one call
# that share memory through two storages, such as two ``torch.from_numpy()`` of one array:
# what :func:`torch.save` joins again is a shared storage.
first, second = io.BytesIO(), io.BytesIO()
torch.save(signal, first)
torch.save(window, second)
first.seek(0)
second.seek(0)
print(tcdoc.shares_memory(torch.load(first), torch.load(second)))

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

# %%
# So before saving a slice of something large (one row of an embedding table, a few
# samples of a dataset), ``clone()`` it. :func:`tcdoc.compare` shows that the clone owns
# exactly its own bytes:
print(f"{tcdoc.compare(signal, window.clone()).new_bytes = }")

# %%
# A file saved by its path holds the same archive, except that its records are named after the
# file: its name less the suffix, where a buffer's records (and those of a file passed open) are
# named ``archive``. So the file's size changes with that name, here by up to a few hundred bytes
# from the buffer's.
import pathlib
import tempfile

with tempfile.TemporaryDirectory() as folder:
    for name in ("a.pt", "best_model_weights.pth"):
        path = pathlib.Path(folder) / name
        torch.save({"signal": signal, "window": window}, path)
        print(f"{name}: {path.stat().st_size} bytes")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# How ``clone()`` gives a tensor memory of its own: :doc:`/explanation/clone`.
