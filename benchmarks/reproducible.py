"""Build the site twice from scratch and check that the HTML is identical.

The only fields allowed to differ are sphinx-gallery's timings (each example's "Total running
time" and the computation-times tables), which are normalised before comparing, and the numbers
of the cost pages, which are measured times. The cost pages' sentences (the lists that
tcdoc.bench.findings renders) must match: they are computed from the times, and meant to come out
the same from any two runs on one machine. Both builds use the same SOURCE_DATE_EPOCH. Exits with
status 1 and lists the files that differ.

Run with ``nox -s reproducible``.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from _site import build, scratch_copy

# Pages that are all measurements of time: every number on them varies from run to run, and only
# their sentences are compared.
TIMING_PAGES = {Path("auto_examples/plot_19_cost.html"), Path("auto_examples/gpu/plot_gpu_cost.html")}

# The sentences of a cost page: each list that tcdoc.bench.Findings renders.
FINDINGS = re.compile(r'<ul class="tcdoc-findings"[^>]*>(.*?)</ul>', re.DOTALL)  # lang="en", and any other

# Timing fields that sphinx-gallery writes into pages; documented in the README as expected to vary.
TIMINGS = [
    re.compile(r"\d+ minutes? [\d.]+ seconds?"),  # "Total running time of the script: ..."
    re.compile(r"\d\d:\d\d\.\d{3}"),  # sg_execution_times tables
    re.compile(r"(<td><p>)[\d.]+(</p></td>)"),  # the memory column of those tables
]


def normalised(path: Path) -> str:
    """Return the page's text with the timing fields replaced by a placeholder."""
    text = path.read_text(encoding="utf-8")
    for pattern in TIMINGS:
        text = pattern.sub("<timing>", text)
    return text


def sentences(path: Path) -> list[str]:
    """Return the sentences of a cost page, list by list, one sentence a line."""
    return [
        re.sub(r"</li>\s*<li>", "\n", found).removeprefix("<li>").removesuffix("</li>")
        for found in FINDINGS.findall(path.read_text(encoding="utf-8"))
    ]


def main() -> int:
    """Build twice, compare, print the result; return the exit status."""
    env = {"SOURCE_DATE_EPOCH": "1767225600"}  # 2026-01-01
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        builds = [scratch_copy(Path(first)), scratch_copy(Path(second))]
        for docs in builds:
            build(docs, env)
        html = [docs / "_build" / "html" for docs in builds]
        pages = sorted(p.relative_to(html[0]) for p in html[0].rglob("*.html"))
        others = sorted(p.relative_to(html[1]) for p in html[1].rglob("*.html"))
        if pages != others:
            print("the two builds wrote different sets of pages")
            return 1
        differing = [
            page
            for page in pages
            if page not in TIMING_PAGES and normalised(html[0] / page) != normalised(html[1] / page)
        ]
        cost_pages = [page for page in pages if page in TIMING_PAGES]
        found = {page: (sentences(html[0] / page), sentences(html[1] / page)) for page in cost_pages}
    for page in differing:
        print(f"differs: {page}")
    changed = [page for page, (first, second) in found.items() if first != second]
    for page in changed:
        in_first, in_second = found[page]
        print(f"sentences differ: {page}")
        print("\n".join(f"  first:  {line}" for line in "\n".join(in_first).splitlines()))
        print("\n".join(f"  second: {line}" for line in "\n".join(in_second).splitlines()))
    print(
        f"{len(pages)} pages compared, {len(differing)} differ (timing fields excluded); "
        f"{len(found)} cost pages, {len(changed)} with other sentences"
    )
    return 1 if differing or changed else 0


if __name__ == "__main__":
    sys.exit(main())
