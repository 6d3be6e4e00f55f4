"""Write ``docs/_snapshots/torch-X.Y.Z.json``: the installed torch's whole matrix, measured twice.

Usage (``nox -s snapshot`` runs it in a new environment of the torch that ``TCDOC_TORCH`` names)::

    python tools/write_snapshot.py [--requirement "torch==2.4.1"] [--out docs/_snapshots]

Every operation on every scenario under every grad mode, with the module-level rows, on the CPU:
what ``tcdoc matrix --json`` prints, labelled (:mod:`tcdoc._snapshots`) with the platform, the
date, this tcdoc's version and the requirement that installed torch. The matrix is measured twice
and the script stops, writing nothing, if the two differ: a snapshot holds only what measures the
same each time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "docs" / "_snapshots"


def measure(requirement: str, date: datetime.date | None = None) -> Any:
    """Measure the matrix twice and return it as a :class:`tcdoc._snapshots.Snapshot`.

    Raises ``RuntimeError`` listing the cells that differed between the two measurements.
    """
    import tcdoc
    from tcdoc._snapshots import Snapshot

    first = tcdoc.matrix(device="cpu")
    second = tcdoc.matrix(device="cpu")
    unstable = tcdoc.diff(first, second)
    if unstable:
        cells = "\n".join(f"  {change.where}: {change.old!r} then {change.new!r}" for change in unstable)
        raise RuntimeError(f"{len(unstable)} cells measured differently twice:\n{cells}")
    return Snapshot(
        first,
        platform=platform.platform(),
        date=(date or datetime.datetime.now(datetime.timezone.utc).date()).isoformat(),
        tcdoc=tcdoc.__version__,
        requirement=requirement,
        numpy=_numpy_version(),
    )


def _numpy_version() -> str:
    try:
        import numpy
    except ImportError:
        return "absent"
    return str(numpy.__version__)


def dumps(data: dict[str, Any]) -> str:
    """Write a snapshot's JSON with one row a line, so that a diff of two files shows the cells."""
    head = {key: value for key, value in data.items() if key not in ("rows", "modules")}
    lines = ["{"]
    lines += [f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)}," for key, value in head.items()]
    for key in ("rows", "modules"):
        rows = ",\n".join(f"    {json.dumps(row, sort_keys=True)}" for row in data[key])
        end = "," if key == "rows" else ""
        lines.append(f'  "{key}": [\n{rows}\n  ]{end}' if rows else f'  "{key}": []{end}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure, write the file and say where, how big and how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requirement", default="torch", help="the pip requirement that installed torch")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder of snapshots")
    args = parser.parse_args(argv)
    from tcdoc._snapshots import snapshot_name

    start = time.perf_counter()
    try:
        snapshot = measure(args.requirement)
    except RuntimeError as exc:
        print(f"write_snapshot: {exc}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - start
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / snapshot_name(snapshot.matrix.environment.torch)
    path.write_text(dumps(snapshot.to_json()), encoding="utf-8")
    size = path.stat().st_size / 1024
    torch_version = snapshot.matrix.environment.torch
    print(f"{path}: torch {torch_version}, {size:.0f} KiB, measured twice in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
