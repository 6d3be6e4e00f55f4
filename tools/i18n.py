"""Keep the Chinese edition's message catalogues in step with the English pages.

Usage (nox runs these; see CONTRIBUTING.md)::

    python tools/i18n.py update   # extract the English messages, merge them into docs/locales
    python tools/i18n.py check    # fail if any message is new, untranslated or fuzzy

Both start by extracting the messages of the English pages as they are now (Sphinx's gettext
builder, into build/gettext). The examples are not executed for it: sphinx-gallery reuses the
pages that ``nox -s docs`` generated. Some messages are left out on purpose, and the Chinese
edition shows them as they are:

- the docstrings that autodoc brings into the API page: they are the package's own reference
  text, like its function and class names;
- the computation-times pages, and each example's running time: figures of this build;
- messages with no word outside code and cross-references (numbers, a lone link or name).

``check`` compares the catalogues with that fresh extraction, so an English sentence that changed
without its translation fails, instead of showing up in English on the Chinese site.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LOCALES = DOCS / "locales"
LANGUAGE = "zh_CN"
POT_DIR = ROOT / "build" / "gettext"
# Catalogues of pages whose text is this build's data, not prose.
SKIPPED_CATALOGUES = (
    "sg_execution_times",
    "auto_examples/sg_execution_times",
    "auto_examples/gpu/sg_execution_times",
)
PAGE_SUFFIXES = (".md", ".rst", ".txt")
# Messages that hold this build's figures, which no catalogue can keep up with.
BUILD_FIGURES = re.compile(r"Total running time of the script")
LETTER = re.compile(r"[^\W\d_]")
# Cross-references and code: a message made only of these reads the same in every language.
MARKUP = re.compile(r"(:[\w:-]+:)?`[^`]*`_?|``[^`]*``|\{[\w:-]+\}`[^`]*`")


def extract() -> list[Path]:
    """Build the English messages into build/gettext; return the templates (.pot) kept."""
    shutil.rmtree(POT_DIR, ignore_errors=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "gettext",
            "-q",
            "-d",
            str(POT_DIR / ".doctrees"),
            str(DOCS),
            str(POT_DIR),
        ],
        check=True,
    )
    kept = []
    for pot in sorted(POT_DIR.rglob("*.pot")):
        name = pot.relative_to(POT_DIR).with_suffix("").as_posix()
        if name in SKIPPED_CATALOGUES:
            pot.unlink()
            continue
        _filter(pot)
        kept.append(pot)
    return kept


def _filter(pot: Path) -> None:
    """Drop the messages this edition does not translate, and their source locations."""
    with pot.open("rb") as stream:
        catalog = read_po(stream)
    kept = Catalog(project="tcdoc", charset="utf-8")
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        if not any(path.endswith(PAGE_SUFFIXES) for path, _ in message.locations):
            continue  # only in docstrings (babel splits "x.py:docstring of name:1" at its spaces)
        if not LETTER.search(MARKUP.sub("", message.id)) or BUILD_FIGURES.search(message.id):
            continue
        kept.add(message.id, context=message.context)
    with pot.open("wb") as stream:
        write_po(stream, kept, omit_header=False, no_location=True, width=0)


def update() -> None:
    """Merge fresh templates into the catalogues; new messages start untranslated."""
    extract()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx_intl",
            "update",
            "-p",
            str(POT_DIR),
            "-d",
            str(LOCALES),
            "-l",
            LANGUAGE,
            "-w",
            "0",
        ],
        check=True,
    )


def check() -> int:
    """Print every message that is missing, untranslated or fuzzy; return the exit status."""
    problems: list[str] = []
    total = 0
    catalogues = LOCALES / LANGUAGE / "LC_MESSAGES"
    for pot in extract():
        name = pot.relative_to(POT_DIR).with_suffix(".po")
        po_path = catalogues / name
        with pot.open("rb") as stream:
            wanted = [m.id for m in read_po(stream) if m.id]
        if not po_path.is_file():
            problems.append(
                f"{name}: no catalogue ({len(wanted)} messages); run `python tools/i18n.py update`"
            )
            continue
        with po_path.open("rb") as stream:
            po = read_po(stream)
        for msgid in wanted:
            total += 1
            message = po.get(msgid)
            if message is None:
                problems.append(f"{name}: not in the catalogue: {msgid[:70]!r}")
            elif not message.string:
                problems.append(f"{name}: untranslated: {msgid[:70]!r}")
            elif message.fuzzy:
                problems.append(f"{name}: fuzzy: {msgid[:70]!r}")
    for problem in problems:
        print(problem)
    print(f"{total - len(problems)} of {total} messages translated into {LANGUAGE}")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    """Run ``update`` or ``check``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "check"))
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
        return 0
    return check()


if __name__ == "__main__":
    raise SystemExit(main())
