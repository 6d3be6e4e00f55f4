"""Print the three build-speed figures of the site, measured on a scratch copy of the sources.

1. a cold build (no earlier output; every example executed), virtual environment excluded;
2. a no-op rebuild (nothing changed): the median of three;
3. a rebuild after one example changed, and how many examples it re-executed.

Run with ``nox -s build-speed``.
"""

from __future__ import annotations

import re
import statistics
import tempfile
from pathlib import Path

from _site import build, scratch_copy


def executed(log: str) -> str:
    """Return sphinx-gallery's count of executed examples, as it logged it."""
    match = re.search(r"successfully executed (\d+) out of (\d+)", log)
    return f"{match[1]} of {match[2]}" if match else "unknown"


def main() -> None:
    """Measure and print the three figures."""
    with tempfile.TemporaryDirectory() as tmp:
        docs = scratch_copy(Path(tmp))
        cold, log = build(docs)
        print(f"cold build:           {cold:6.1f} s  (examples executed: {executed(log)})")
        noops = [build(docs) for _ in range(3)]
        noop = statistics.median(seconds for seconds, _ in noops)
        runs = ", ".join(f"{seconds:.2f}" for seconds, _ in noops)
        ran = executed(noops[-1][1])
        print(f"no-op rebuild:        {noop:6.1f} s  (median of {runs} s; examples executed: {ran})")
        example = sorted((Path(tmp) / "examples").glob("*.py"))[0]
        example.write_text(example.read_text(encoding="utf-8") + "\n# %%\n# Touched by build_speed.py.\n")
        one, log = build(docs)
        print(f"one example changed:  {one:6.1f} s  (examples executed: {executed(log)}; {example.name})")


if __name__ == "__main__":
    main()
