"""Write ``tcdoc/_names.json``: the registry's names, for the tools that must not import torch.

Usage::

    python tools/write_names.py           # write the file from tcdoc._registry and tcdoc._modules
    python tools/write_names.py --check   # fail (exit status 1) if the file is not up to date

The registry is the one list of operations and scenarios. The command's ``--help`` and the Sphinx
extension's check of ``conf.py`` need their names without importing torch, so they read this file
(through :mod:`tcdoc._names`); ``tests/test_names.py`` fails while it differs from the registry.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PATH = Path(__file__).resolve().parents[1] / "tcdoc" / "_names.json"


def names() -> dict[str, list[str]]:
    """Return every name of the registry, CUDA-only ones included, in reading order."""
    import tcdoc  # imports torch: only this script and its test do

    return {
        "operations": [op.name for op in tcdoc.operations(include_unavailable=True)],
        "scenarios": [s.name for s in tcdoc.scenarios(include_unavailable=True)],
        "module_operations": [op.name for op in tcdoc.module_operations(include_unavailable=True)],
    }


def text() -> str:
    """Return the file's text for the registry as it is now."""
    return json.dumps(names(), indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the file, or with ``--check`` tell whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is up to date")
    args = parser.parse_args(argv)
    wanted = text()
    if args.check:
        if PATH.read_text(encoding="utf-8") != wanted:
            print(f"{PATH} is out of date: run python tools/write_names.py", file=sys.stderr)
            return 1
        return 0
    PATH.write_text(wanted, encoding="utf-8")
    print(f"Wrote {PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
