"""Build a scratch copy of the site, for the build-speed and reproducibility scripts."""

from __future__ import annotations

import os
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
