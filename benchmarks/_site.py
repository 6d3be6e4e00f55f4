"""Build a scratch copy of the site, or a bare site, for the build-speed and reproducibility scripts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# Files outside docs/ that pages include (docs/changes.md and docs/contributing.md).
INCLUDED = ("CHANGES.md", "CONTRIBUTING.md")


def scratch_copy(destination: Path) -> Path:
    """Copy ``docs/``, ``examples/`` (no build output) and the included files into ``destination``.

    Returns the copy's docs folder.
    """
    ignore = shutil.ignore_patterns("_build", "auto_examples", "gen_modules", "sg_execution_times.rst")
    shutil.copytree(ROOT / "docs", destination / "docs", ignore=ignore)
    shutil.copytree(ROOT / "examples", destination / "examples")
    for name in INCLUDED:
        shutil.copy2(ROOT / name, destination / name)
    return destination / "docs"


# -- A bare site: the same tools, nothing of tcdoc ------------------------------------------------

BARE_CONF = """\
project = "bare"
extensions = ["myst_parser", "sphinx_gallery.gen_gallery"]
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip"]
html_theme = "furo"
sphinx_gallery_conf = {
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"plot_",
}
"""

BARE_INDEX = """\
# A bare site

Furo, MyST and sphinx-gallery, with a few tiny examples.

```{toctree}
auto_examples/index
```
"""

BARE_EXAMPLE = '''\
"""
Tiny example {number}
=================

A paragraph.
"""

# %%
# A cell that prints.
print({number} * {number})
'''

BARE_EXAMPLES = 4
"""How many tiny examples the bare site has."""


def bare_site(destination: Path) -> Path:
    """Write a bare site into ``destination``: furo, MyST, sphinx-gallery and a few tiny examples.

    What every Sphinx site with a gallery pays, the yardstick of the project's build times.
    Returns its docs folder.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     docs = bare_site(Path(folder))
    ...     sorted(path.name for path in (docs.parent / "examples").iterdir())[:2]
    ['GALLERY_HEADER.rst', 'plot_1.py']
    """
    docs = destination / "docs"
    examples = destination / "examples"
    docs.mkdir(parents=True)
    examples.mkdir()
    (docs / "conf.py").write_text(BARE_CONF, encoding="utf-8")
    (docs / "index.md").write_text(BARE_INDEX, encoding="utf-8")
    (examples / "GALLERY_HEADER.rst").write_text("Examples\n========\n\nTiny ones.\n", encoding="utf-8")
    for number in range(1, BARE_EXAMPLES + 1):
        text = BARE_EXAMPLE.format(number=number)
        (examples / f"plot_{number}.py").write_text(text, encoding="utf-8")
    return docs


def build(docs: Path, env: dict[str, str] | None = None) -> tuple[float, str]:
    """Run the strict HTML build of ``docs``; return its wall time in seconds and its log."""
    command = [sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-b", "html", str(docs)]
    command.append(str(docs / "_build" / "html"))
    start = time.perf_counter()
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, env={**os.environ, **(env or {})}
    )
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"sphinx-build failed in {docs}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return seconds, done.stdout + done.stderr


# A row of sphinx-gallery's computation-times table: ":ref:`...` (``plot_19_cost.py``)", "00:21.684".
_TIME_ROW = re.compile(r"\(``(?P<name>[^`]+\.py)``\)\n\s+- (?P<minutes>\d+):(?P<seconds>\d+\.\d+)")


def example_times(docs: Path) -> dict[str, float]:
    """Return each example's run time in seconds, as sphinx-gallery recorded it, by file name."""
    times: dict[str, float] = {}
    for table in sorted((docs / "auto_examples").rglob("sg_execution_times.rst")):
        for row in _TIME_ROW.finditer(table.read_text(encoding="utf-8")):
            times[row["name"]] = 60 * int(row["minutes"]) + float(row["seconds"])
    return times
