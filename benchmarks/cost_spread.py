"""Run the cost page's quick sweep three times and print how far apart the runs are.

For each method and size: the three medians (each with its quartiles) and how far apart they are, as
the largest over the smallest, minus one. Then whether any sentence of the page
(:func:`tcdoc.bench.findings`) would have changed from one run to another, and which.

Run with ``nox -s bench`` (after the full sweep), or alone::

    python benchmarks/cost_spread.py [--runs 3] [--busy 1]

``--busy N`` keeps N other processes spinning on the CPU while the sweeps run, to see whether
the sentences hold with other work on the machine. Exits with status 1 if a sentence changed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import tcdoc.bench
from tcdoc.bench import Sweep

# What examples/plot_19_cost.py runs: keep the two the same.
PAGE_SWEEP = {
    "sizes": tcdoc.bench.SMALL_SIZES,
    "methods": tcdoc.bench.SMALL_METHODS,
    "min_run_time": 0.1,
    "blocks": 10,
    "threads": 1,
}


def main(argv: list[str] | None = None) -> int:
    """Run the sweeps, print the spread and the sentences; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="how many sweeps (default 3)")
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes to run alongside")
    args = parser.parse_args(argv)
    if args.runs < 2:
        parser.error("--runs must be 2 or more")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        sweeps = []
        for run in range(1, args.runs + 1):
            start = time.perf_counter()
            sweeps.append(tcdoc.bench.run(**PAGE_SWEEP))  # type: ignore[arg-type]
            print(f"run {run}: {time.perf_counter() - start:.1f} s", flush=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(f"\n{sweeps[0].machine}; {args.busy} busy processes alongside; tcdoc.bench.run({_kwargs()})")
    print_spread(sweeps)
    return print_sentences(sweeps)


def print_spread(sweeps: list[Sweep]) -> None:
    """Print each method's medians at each size, run by run, and how far apart they are."""
    first = sweeps[0]
    header = ["size", "method", *(f"run {i}" for i in range(1, len(sweeps) + 1)), "apart"]
    rows = [header]
    apart: dict[tuple[str, int], float] = {}
    for nbytes in first.sizes:
        for method in first.methods:
            costs = [sweep.get(method, nbytes) for sweep in sweeps]
            medians = [cost.seconds for cost in costs]
            apart[(method, nbytes)] = max(medians) / min(medians) - 1
            rows.append(
                [
                    tcdoc.bench.format_size(nbytes),
                    costs[0].code,
                    *(tcdoc.bench.format_duration(c.seconds, c.interval) for c in costs),
                    f"{apart[(method, nbytes)]:.0%}",
                ]
            )
    limits = [sweep.limit for sweep in sweeps]
    seconds = [limit.seconds for limit in limits]
    rows.append(
        [
            tcdoc.bench.format_size(first.limit.nbytes),
            "copy limit",
            *(tcdoc.bench.format_duration(limit.seconds, limit.interval) for limit in limits),
            f"{max(seconds) / min(seconds) - 1:.0%}",
        ]
    )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    (method, nbytes), worst = max(apart.items(), key=lambda item: item[1])
    print(
        f"\nHow far apart the runs' medians are (largest / smallest - 1): median over the rows "
        f"{statistics.median(apart.values()):.0%}, largest {worst:.0%} "
        f"({tcdoc.bench.code_of(method)} at {tcdoc.bench.format_size(nbytes)}); "
        f"copy limit {max(seconds) / min(seconds) - 1:.0%}."
    )


def print_sentences(sweeps: list[Sweep]) -> int:
    """Print the page's sentences and whether they changed between runs; return 1 if they did."""
    found = [tuple(tcdoc.bench.findings(sweep)) for sweep in sweeps]
    print("\nThe cost page's sentences, from run 1:")
    for sentence in found[0]:
        print(f"  - {sentence}")
    changed = [i for i, sentences in enumerate(found[1:], start=2) if sentences != found[0]]
    if not changed:
        print(f"No sentence changed between the {len(sweeps)} runs.")
        return 0
    for run in changed:
        print(f"\nRun {run} differs from run 1:")
        for sentence in sorted(set(found[0]) - set(found[run - 1])):
            print(f"  - {sentence}")
        for sentence in sorted(set(found[run - 1]) - set(found[0])):
            print(f"  + {sentence}")
    return 1


def _kwargs() -> str:
    named = {"sizes": "SMALL_SIZES", "methods": "SMALL_METHODS"}
    return ", ".join(f"{name}={named.get(name, repr(value))}" for name, value in PAGE_SWEEP.items())


if __name__ == "__main__":
    sys.exit(main())
