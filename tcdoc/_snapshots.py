"""Snapshots: a release's whole matrix saved to a file, labelled with where and when it was measured.

A snapshot is the JSON of :meth:`tcdoc.Matrix.to_json` (the layout :data:`tcdoc.SCHEMA`, which
``tcdoc diff`` reads as it is) with one more key, ``"label"``: the platform, the date, the
version of tcdoc that measured it, the pip requirement that installed torch and the version of
NumPy (``"absent"`` where none was installed and its cells were not run). The matrix itself
already names torch, Python and the device. ``nox -s snapshot`` writes one
(``tools/write_snapshot.py``); the site's page of what changed between releases reads them all.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tcdoc._results import Matrix

__all__ = ["LABEL_FIELDS", "Snapshot", "read_snapshot", "read_snapshots", "release", "snapshot_name"]

LABEL_FIELDS = ("platform", "date", "tcdoc", "requirement", "numpy")
"""The keys of a snapshot's ``"label"``, besides what its matrix says (torch, Python, device)."""

_RELEASE = re.compile(r"^(\d+)\.(\d+)\.(\d+)")


def release(version: str) -> tuple[int, int, int]:
    """Return the release numbers of a torch version, its local part (``+cpu``) and suffixes dropped.

    >>> release("2.4.1+cu121"), release("2.13.0")
    ((2, 4, 1), (2, 13, 0))
    """
    found = _RELEASE.match(version)
    if found is None:
        raise ValueError(f"not a torch release version: {version!r}")
    major, minor, patch = (int(part) for part in found.groups())
    return major, minor, patch


def snapshot_name(version: str) -> str:
    """Return the file name of the snapshot of a torch version: ``torch-X.Y.Z.json``.

    >>> snapshot_name("2.4.1+cu121")
    'torch-2.4.1.json'
    """
    return "torch-{}.{}.{}.json".format(*release(version))


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """One release's matrix and its label (see :data:`LABEL_FIELDS`)."""

    matrix: Matrix
    platform: str
    date: str
    tcdoc: str
    requirement: str
    numpy: str

    @property
    def release(self) -> tuple[int, int, int]:
        """The torch release it measured, as numbers: ``(2, 4, 1)``."""
        return release(self.matrix.environment.torch)

    @property
    def version(self) -> str:
        """The torch release it measured, as a reader writes it: ``2.4.1``."""
        return ".".join(map(str, self.release))

    def to_json(self) -> dict[str, Any]:
        """Return the matrix's JSON with the label under ``"label"``."""
        label = {name: getattr(self, name) for name in LABEL_FIELDS}
        return {**self.matrix.to_json(), "label": label}

    @classmethod
    def from_json(cls, data: object) -> Snapshot:
        """Read what :meth:`to_json` wrote; ``ValueError`` if the label or the matrix is malformed."""
        matrix = Matrix.from_json(data)
        assert isinstance(data, dict)  # Matrix.from_json refuses anything else
        label = data.get("label")
        if not isinstance(label, Mapping):
            raise ValueError("a snapshot needs a 'label' object")
        missing = [name for name in LABEL_FIELDS if not isinstance(label.get(name), str)]
        if missing:
            raise ValueError(f"a snapshot's label needs text for {', '.join(map(repr, missing))}")
        release(matrix.environment.torch)  # a snapshot names a release
        return cls(matrix, **{name: str(label[name]) for name in LABEL_FIELDS})


def read_snapshot(path: Path) -> Snapshot:
    """Read one snapshot file; ``ValueError`` naming the file if it is not one."""
    try:
        return Snapshot.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from exc


def read_snapshots(paths: Iterable[Path]) -> tuple[Snapshot, ...]:
    """Read snapshot files, oldest release first; ``ValueError`` if two measured the same release."""
    found = sorted((read_snapshot(path) for path in paths), key=lambda snap: snap.release)
    for older, newer in itertools.pairwise(found):
        if older.release == newer.release:
            raise ValueError(f"two snapshots of torch {older.version}")
    return tuple(found)
