"""Print how long the full property matrix takes to compute: every operation on every scenario.

Run with ``python benchmarks/matrix_time.py`` (or ``nox -s bench``). The goal is well under one
second on a 2-core machine, since every docs build computes the matrix once.
"""

from __future__ import annotations

import statistics
import time

import torch

import tcdoc


def main(repeats: int = 7) -> None:
    """Time ``tcdoc.matrix()`` ``repeats`` times after one warm-up run and print the figures."""
    tcdoc.matrix()  # warm-up: first calls into torch load kernels and lazy modules
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = tcdoc.matrix()
        times.append(time.perf_counter() - start)
    print(f"{tcdoc.environment()}, {torch.get_num_threads()} threads")
    ops, scenarios = len(tcdoc.operations()), len(tcdoc.scenarios())
    modules = len(result.modules)
    print(f"{len(result.rows)} cells ({ops} operations x {scenarios} scenarios) and {modules} module rows")
    print(f"full matrix: median {statistics.median(times) * 1e3:.1f} ms, best {min(times) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
