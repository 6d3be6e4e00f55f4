"""Build the site twice from scratch and check that the HTML is identical.

The only fields allowed to differ are sphinx-gallery's timings (each example's "Total running
time" and the computation-times tables), which are normalised before comparing, and what the cost
pages' examples print: measured times, and the sentences that tcdoc.bench.findings computes from
them, which can come out otherwise on a busy machine (``benchmarks/cost_spread.py`` shows how
often). Everything else on a cost page must match, and each of its outputs must have as many
lines in both builds. Both builds use the same SOURCE_DATE_EPOCH. Exits with status 1 and lists
the files that differ.

Run with ``nox -s reproducible``.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from _site import build, scratch_copy

# Pages whose examples print measured times: what they print varies from run to run, and only
# how many lines each output has is compared.
TIMING_PAGES = {Path("auto_examples/plot_19_cost.html"), Path("auto_examples/gpu/plot_gpu_cost.html")}

# What an example printed: sphinx-gallery's output block.
OUTPUT = re.compile(
    r'(<div class="sphx-glr-script-out[^>]*><div class="highlight"><pre>)(.*?)(</pre>)', re.DOTALL
)

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


def compared(html: Path, page: Path) -> str:
    """Return what is compared of ``page``: its normalised text, a cost page's outputs as line counts."""
    text = normalised(html / page)
    if page in TIMING_PAGES:
        text = OUTPUT.sub(lambda m: f"{m[1]}<{len(m[2].splitlines())} lines>{m[3]}", text)
    return text


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
        differing = [page for page in pages if compared(html[0], page) != compared(html[1], page)]
    for page in differing:
        print(f"differs: {page}")
    print(
        f"{len(pages)} pages compared, {len(differing)} differ (timing fields excluded, and the outputs "
        f"of {len(TIMING_PAGES)} cost pages compared by their lines)"
    )
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
