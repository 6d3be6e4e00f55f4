"""Build the site twice from scratch and check that the HTML is identical.

The only fields allowed to differ are sphinx-gallery's timings (each example's "Total running
time"), which are normalised before comparing, and what the cost pages' examples print: measured
times, and the sentences that tcdoc.bench.findings computes from them, which can come out otherwise
on a busy machine (``benchmarks/cost_spread.py`` shows how often). Everything else on a cost page
must match, and each of its outputs must have as many lines in both builds. The computation-times
pages (``sg_execution_times.html``) hold nothing but timings and are not compared: sphinx-gallery
writes the whole site's one at the end of a build, so a clean build has it or not depending on
what the folder held before. Both builds use the same SOURCE_DATE_EPOCH (from the environment, or
2026-01-01). Exits with status 1 and lists the files that differ.

Run with ``nox -s reproducible``. ``--first docs/_build/html`` takes a clean build of this commit
already made, with the same SOURCE_DATE_EPOCH, as the first of the two and builds only the second,
in a scratch copy at another path; the pages of the first build's other editions (``zh_CN/``) are
left out, since the second has only the English one. CI does this with the docs session's build.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

from _site import ROOT, build, scratch_copy

EPOCH = "1767225600"  # 2026-01-01, when SOURCE_DATE_EPOCH is not set
# The other editions' folders inside the English site (docs/locales/zh_CN gives zh_CN/).
EDITIONS = sorted(path.name for path in (ROOT / "docs" / "locales").iterdir() if path.is_dir())

# Pages whose examples print measured times: what they print varies from run to run, and only
# how many lines each output has is compared.
TIMING_PAGES = {Path("auto_examples/plot_19_cost.html"), Path("auto_examples/gpu/plot_gpu_cost.html")}

# What an example printed: sphinx-gallery's output block.
OUTPUT = re.compile(
    r'(<div class="sphx-glr-script-out[^>]*><div class="highlight"><pre>)(.*?)(</pre>)', re.DOTALL
)

# sphinx-gallery's computation-times pages: timings only, and the site's own one is written at the
# end of a build, for the next build to show.
COMPUTATION_TIMES = "sg_execution_times.html"
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


def english_pages(html: Path) -> list[Path]:
    """Return the English edition's pages of a built site, relative to it (``index.html``, ...).

    The computation-times pages are left out: they hold only timings.
    """
    pages = (path.relative_to(html) for path in html.rglob("*.html"))
    return sorted(page for page in pages if page.parts[0] not in EDITIONS and page.name != COMPUTATION_TIMES)


def differing(first: Path, second: Path) -> list[Path] | None:
    """Return the pages of two builds' HTML that differ, or ``None`` if they wrote other pages."""
    pages = english_pages(first)
    if pages != english_pages(second):
        return None
    return [page for page in pages if compared(first, page) != compared(second, page)]


def main(argv: list[str] | None = None) -> int:
    """Build twice (or once, after ``--first``), compare, print the result; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--first", type=Path, help="a clean build's HTML folder, to compare with one new build"
    )
    first_build: Path | None = parser.parse_args(argv).first
    if first_build is not None and not (first_build / "index.html").is_file():
        parser.error(f"--first {first_build}: no built site there (no index.html)")
    env = {"SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", EPOCH)}
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        builds = [scratch_copy(Path(second))]
        if first_build is None:
            builds.insert(0, scratch_copy(Path(first)))
        for docs in builds:
            build(docs, env)
        html = [docs / "_build" / "html" for docs in builds]
        if first_build is not None:
            html.insert(0, first_build)
        found = differing(html[0], html[1])
        first_pages, second_pages = english_pages(html[0]), english_pages(html[1])
        pages = len(first_pages)
    if found is None:
        print("the two builds wrote different sets of pages")
        for page in sorted(set(first_pages) ^ set(second_pages)):
            print(f"only in the {'first' if page in first_pages else 'second'} build: {page}")
        return 1
    for page in found:
        print(f"differs: {page}")
    print(
        f"{pages} pages compared, {len(found)} differ (timing fields excluded, and the outputs "
        f"of {len(TIMING_PAGES)} cost pages compared by their lines)"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
