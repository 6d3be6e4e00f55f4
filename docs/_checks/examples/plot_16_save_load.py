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
    """Check that the archive names its records after the file, and that sizes differ by a few bytes."""
    signal = torch.randn(1000)
    saved = {"signal": signal, "window": signal[10:20]}
    buffer = io.BytesIO()
    torch.save(saved, buffer)
    sizes = {"buffer": buffer.getbuffer().nbytes}
    with tempfile.TemporaryDirectory() as folder:
        for name in ("a.pt", "best_model_weights.pth"):
            path = pathlib.Path(folder) / name
            torch.save(saved, path)
            sizes[name] = path.stat().st_size
            with zipfile.ZipFile(path) as archive:
                stems = {record.split("/")[0] for record in archive.namelist()}
            expect(stems == {path.stem}, f"{name}: the archive's records are under {stems}, not {path.stem}")
    expect(len(set(sizes.values())) == len(sizes), f"two of the sizes are the same: {sizes}")
    spread = max(sizes.values()) - min(sizes.values())
    expect(0 < spread < 1024, f"the sizes differ by {spread} bytes, not a few: {sizes}")


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
        quote="A file holds the same archive, except that the archive records the file's name, so its size "
        "differs from the buffer's by a few bytes, and from one file name to another",
    ),
    Claim(
        "views-survive",
        _save_load_views,
        quote="Tensors saved in one call that shared memory with one dtype share it again after "
        "{func}`torch.load` ({func}`torch.save` refuses tensors that view the same memory as different "
        "dtypes)",
        scope="stated: one call, one dtype, against two dtypes",
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
        "whole-storage",
        _save_load_views,
        quote="Saving only `window` (10 floats) still writes all 1000 floats of `signal`'s storage",
        scope="stated: the slice window",
    ),
]
