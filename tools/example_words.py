"""Count the words of prose in each gallery example: its docstring and its comments, code aside.

Usage::

    python tools/example_words.py          # one line per example: its words of prose
    python tools/example_words.py --check  # fail (exit status 1) if an example has more than LIMIT

The prose is what a reader reads as text: the module docstring (the page's title and opening) and
every comment, the text cells (``# %%`` blocks) and comments beside code alike. The cell markers,
sphinx-gallery's configuration comments (``# sphinx_gallery_...``) and everything between
``# sphinx_gallery_start_ignore`` and ``# sphinx_gallery_end_ignore`` (the hidden blocks that check
the example's claims, which the page leaves out) are not prose. A word is a run of characters
between spaces. ``tests/test_examples.py`` holds every example to LIMIT.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LIMIT = 600
"""The most words of prose an example may have (issue 24)."""


def prose(path: Path) -> str:
    """Return the prose of the example at ``path``: its docstring, then its comments, one a line."""
    source = path.read_text(encoding="utf-8")
    parts = [ast.get_docstring(ast.parse(source)) or ""]
    hidden = False
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        text = token.string.lstrip("#").strip()
        if text in ("sphinx_gallery_start_ignore", "sphinx_gallery_end_ignore"):
            hidden = text.endswith("start_ignore")
            continue
        if hidden or token.string.startswith("# %%") or text.startswith("sphinx_gallery_"):
            continue
        parts.append(text)
    return "\n".join(parts)


def words(path: Path) -> int:
    """Return how many words of prose the example at ``path`` has."""
    return len(prose(path).split())


def examples() -> list[Path]:
    """Return every example of the gallery, the GPU ones included, in the gallery's order."""
    return sorted(EXAMPLES.rglob("plot_*.py"))


def main(argv: list[str] | None = None) -> int:
    """Print each example's count; with ``--check``, return 1 if one is over LIMIT."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help=f"fail if an example has over {LIMIT} words")
    args = parser.parse_args(argv)
    over = []
    for path in examples():
        count = words(path)
        print(f"{count:5d}  {path.relative_to(ROOT).as_posix()}")
        if count > LIMIT:
            over.append(path)
    if args.check and over:
        print(f"over {LIMIT} words: {', '.join(p.name for p in over)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
