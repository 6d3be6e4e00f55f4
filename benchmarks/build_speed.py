"""Print the build-speed figures of the site beside those of a bare site, measured in the same run.

For each of the two sites, built from scratch copies in a temporary folder:

1. a cold build (no earlier output; every example executed), virtual environment excluded;
2. a no-op rebuild (nothing changed): the median of three;
3. a rebuild after one example changed, and how many examples it re-executed.

The bare site (furo, MyST and sphinx-gallery with a few tiny examples, ``_site.bare_site``) is
what any such site pays on this machine at this moment: the ratios of the project's figures to
its figures compare runs on a busy machine better than seconds do. Then the examples that took
longest in the cold build, as sphinx-gallery timed them.

Run with ``nox -s build-speed``.
"""

from __future__ import annotations

import dataclasses
import re
import statistics
import tempfile
from pathlib import Path

from _site import bare_site, build, example_times, scratch_copy

SLOWEST = 5
"""How many of the project's slowest examples to list."""


def executed(log: str) -> str:
    """Return sphinx-gallery's count of executed examples, as it logged it."""
    match = re.search(r"successfully executed (\d+) out of (\d+)", log)
    return f"{match[1]} of {match[2]}" if match else "unknown"


@dataclasses.dataclass(frozen=True)
class Figures:
    """The three build times of one site, in seconds, and what each build executed."""

    cold: float
    noops: tuple[float, ...]
    one_changed: float
    cold_executed: str
    noop_executed: str
    one_executed: str
    changed: str
    example_times: dict[str, float]

    @property
    def noop(self) -> float:
        """The median of the no-op rebuilds."""
        return statistics.median(self.noops)


def measure(docs: Path) -> Figures:
    """Build ``docs`` cold, three times with nothing changed, then once after one example changed."""
    cold, cold_log = build(docs)
    times = example_times(docs)
    noops = [build(docs) for _ in range(3)]
    example = sorted((docs.parent / "examples").glob("plot_*.py"))[0]
    example.write_text(example.read_text(encoding="utf-8") + "\n# %%\n# Touched by build_speed.py.\n")
    one, one_log = build(docs)
    return Figures(
        cold=cold,
        noops=tuple(seconds for seconds, _ in noops),
        one_changed=one,
        cold_executed=executed(cold_log),
        noop_executed=executed(noops[-1][1]),
        one_executed=executed(one_log),
        changed=example.name,
        example_times=times,
    )


def report(project: Figures, bare: Figures) -> str:
    """Return the figures side by side, with the project's over the bare site's."""
    rows = [
        ("cold build", project.cold, bare.cold, project.cold_executed, bare.cold_executed),
        ("no-op rebuild", project.noop, bare.noop, project.noop_executed, bare.noop_executed),
        (
            "one example changed",
            project.one_changed,
            bare.one_changed,
            project.one_executed,
            bare.one_executed,
        ),
    ]
    lines = [f"{'':22}{'project':>9}{'bare':>9}{'ratio':>8}   examples executed (project; bare)"]
    for name, mine, theirs, ran, bare_ran in rows:
        lines.append(f"{name:22}{mine:8.1f}s{theirs:8.1f}s{mine / theirs:7.1f}x   {ran}; {bare_ran}")
    noops = ", ".join(f"{seconds:.2f}" for seconds in project.noops)
    bare_noops = ", ".join(f"{seconds:.2f}" for seconds in bare.noops)
    lines.append(f"no-op runs: project {noops} s; bare {bare_noops} s")
    lines.append(f"changed: project {project.changed}, bare {bare.changed}")
    slowest = sorted(project.example_times.items(), key=lambda item: -item[1])[:SLOWEST]
    total = sum(project.example_times.values())
    lines.append(f"the project's examples ran {total:.1f} s in the cold build; the slowest:")
    lines += [f"  {seconds:6.1f} s  {name}" for name, seconds in slowest]
    return "\n".join(lines)


def main() -> None:
    """Measure both sites and print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        bare = measure(bare_site(Path(tmp) / "bare"))
        project = measure(scratch_copy(Path(tmp) / "project"))
    print(report(project, bare))


if __name__ == "__main__":
    main()
