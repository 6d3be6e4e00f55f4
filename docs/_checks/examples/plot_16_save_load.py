"""The claims that ``examples/plot_16_save_load.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import io
import pathlib
import tempfile
import zipfile
from typing import Any

import torch

from _checks._helpers import raises
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _load(buffer: io.BytesIO) -> Any:
    """``torch.load(buffer)`` as torch 2.6 and newer run it, with ``weights_only=True``.

    Named so that torch 2.4 and 2.5, whose default is False (with a FutureWarning), load the
    same way; plain tensors and containers of them load either way.
    """
    return torch.load(buffer, weights_only=True)


def _file_records_its_name(matrix: Matrix) -> None:
    """Check that the records are named after the file's stem (a buffer's: archive), and the sizes.

    The reader's break: the difference is not a few bytes (it repeats in every record, padded), a
    suffix is not recorded, and a file whose stem is ``archive`` has the buffer's size.
    """
    signal = torch.randn(1000)
    saved = {"signal": signal, "window": signal[10:20]}
    buffer = io.BytesIO()
    torch.save(saved, buffer)
    buffer.seek(0)
    with zipfile.ZipFile(buffer) as archive:
        stems = {record.split("/")[0] for record in archive.namelist()}
    expect(stems == {"archive"}, f"the buffer's records are under {stems}, not archive")
    sizes = {"buffer": buffer.getbuffer().nbytes}
    with tempfile.TemporaryDirectory() as folder:
        for name in ("a.pt", "a.pth", "archive.pt", "best_model_weights.pth"):
            path = pathlib.Path(folder) / name
            torch.save(saved, path)
            sizes[name] = path.stat().st_size
            with zipfile.ZipFile(path) as archive:
                stems = {record.split("/")[0] for record in archive.namelist()}
            expect(stems == {path.stem}, f"{name}: the archive's records are under {stems}, not {path.stem}")
            with path.open("wb") as opened:
                torch.save(saved, opened)
            with zipfile.ZipFile(path) as archive:
                stems = {record.split("/")[0] for record in archive.namelist()}
            expect(stems == {"archive"}, f"{name}, passed open: the records are under {stems}, not archive")
            expect(
                path.stat().st_size == buffer.getbuffer().nbytes,
                f"{name}, passed open: not the buffer's size",
            )
    expect(sizes["a.pt"] == sizes["a.pth"], f"the suffix changed the size: {sizes}")
    expect(sizes["archive.pt"] == sizes["buffer"], f"a file named archive differs from the buffer: {sizes}")
    shown = [sizes["buffer"], sizes["a.pt"], sizes["best_model_weights.pth"]]
    expect(len(set(shown)) == len(shown), f"two of the example's sizes are the same: {sizes}")
    spread = max(abs(size - sizes["buffer"]) for size in shown)
    expect(0 < spread < 1000, f"the sizes differ from the buffer's by up to {spread} bytes: {sizes}")


def _two_storages_come_back_apart(matrix: Matrix) -> None:
    """Check the reader's break: memory shared through two storages is saved twice, and loads apart."""
    import numpy as np

    array = np.zeros(4, dtype=np.float32)
    first, second = torch.from_numpy(array), torch.from_numpy(array)
    expect(shares_memory(first, second), "two from_numpy of one array do not share memory")
    buffer = io.BytesIO()
    torch.save([first, second], buffer)
    buffer.seek(0)
    loaded = _load(buffer)
    expect(not shares_memory(*loaded), "the two storages came back sharing memory")
    loaded[0][0] = 1.0
    expect(loaded[1][0].item() == 0.0, "a write into one loaded tensor reached the other")


def _save_load_views(matrix: Matrix) -> None:
    signal = torch.randn(1000)
    window = signal[10:20]
    buffer = io.BytesIO()
    torch.save({"signal": signal, "window": window}, buffer)
    buffer.seek(0)
    loaded = _load(buffer)
    expect(shares_memory(loaded["signal"], loaded["window"]), "the loaded tensors do not share memory")
    expect(
        loaded["window"].storage_offset() == 10 and not loaded["window"]._is_view(), "view tracking came back"
    )
    z = torch.randn(3, dtype=torch.cfloat)
    parameter = torch.nn.Parameter(torch.randn(4))
    for name, pair in {"conj": (z, z.conj()), "parameter": (parameter, parameter.detach()[1:3])}.items():
        buffer = io.BytesIO()
        torch.save(list(pair), buffer)
        buffer.seek(0)
        expect(shares_memory(*_load(buffer)), f"{name}: the loaded pair does not share memory")
    floats = torch.zeros(4)
    error = raises(lambda: torch.save({"f": floats, "i": floats.view(torch.int32)}, io.BytesIO()))
    expect("as different types" in str(error), f"two dtypes: {error}")
    first, second = io.BytesIO(), io.BytesIO()
    torch.save(signal, first)
    torch.save(window, second)
    first.seek(0)
    second.seek(0)
    expect(not shares_memory(_load(first), _load(second)), "two saves came back sharing memory")
    second.seek(0)
    expect(_load(second).untyped_storage().nbytes() == 4000, "the slice did not bring its whole storage")


CLAIMS = [
    Claim(
        "file-records-name",
        _file_records_its_name,
        quote="A file saved by its path holds the same archive, except that its records are named after the "
        "file: its name less the suffix, where a buffer's records (and those of a file passed open) are "
        "named `archive`. So the file's size changes with that name, here by up to a few hundred bytes "
        "from the buffer's",
        scope="stated: the example's two names, against a.pth and archive.pt, and a file passed open",
    ),
    Claim(
        "views-survive",
        _save_load_views,
        quote="Tensors saved in one call that view one storage with one dtype (a tensor and its views) "
        "share it again after {func}`torch.load` ({func}`torch.save` refuses tensors that view one "
        "storage as different dtypes)",
        scope="stated: one call, one storage, one dtype, against two dtypes",
    ),
    Claim(
        "ten-elements-in",
        _save_load_views,
        quote="After loading, the two tensors share memory again: the loaded `window` starts ten elements "
        "into the "
        "loaded `signal`'s storage",
    ),
    Claim(
        "not-a-view",
        _save_load_views,
        quote="What comes back is the shared memory, not the view tracking: the loaded `window` is not "
        "marked as "
        "a view of the loaded `signal`",
    ),
    Claim("two-calls", _save_load_views, quote="Saved in two calls, they come back as two separate copies"),
    Claim(
        "two-storages",
        _two_storages_come_back_apart,
        quote="So do tensors saved in one call that share memory through two storages, such as two "
        "`torch.from_numpy()` of one array: what {func}`torch.save` joins again is a shared storage",
        needs=("numpy",),
    ),
    Claim(
        "whole-storage",
        _save_load_views,
        quote="Saving only `window` (10 floats) still writes all 1000 floats of `signal`'s storage",
        scope="stated: the slice window",
    ),
]
