"""Print how long the full property matrix takes to compute: every operation on every scenario.

Run with ``python benchmarks/matrix_time.py`` (or ``nox -s bench``). Every operation on every
scenario under each of the three grad modes, with the module-level rows: the goal is under one
second on a 2-core machine, since every docs build computes the matrix once. It also prints the
default mode's part alone.
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
    enabled = []
    for _ in range(repeats):
        start = time.perf_counter()
        tcdoc.matrix(grad_modes=["enabled"])
        enabled.append(time.perf_counter() - start)
    print(f"{tcdoc.environment()}, {torch.get_num_threads()} threads")
    ops = len(tcdoc.operations(include_unavailable=True))
    scenarios = len(tcdoc.scenarios(include_unavailable=True))
    modes, modules = len(tcdoc.GRAD_MODES), len(result.modules)
    not_run = sum(row.not_run is not None for row in result.rows)
    print(
        f"{len(result.rows)} cells ({ops} operations x {scenarios} scenarios x {modes} grad modes, "
        f"{not_run} of them not run) and {modules} module rows"
    )
    print(f"full matrix: median {statistics.median(times) * 1e3:.1f} ms, best {min(times) * 1e3:.1f} ms")
    print(
        f"grad mode 'enabled' alone: median {statistics.median(enabled) * 1e3:.1f} ms, "
        f"best {min(enabled) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
