"""List the site's claims whose words changed, and move checks from pins to words.

Usage::

    python tools/claims.py changed    # each page claim whose check holds other words than its page
    python tools/claims.py unpin      # rewrite every pin="..." of docs/_checks into words="..."

A claim is a span of a page's own words, ``[words]{#id .claim}``, whose check lies in the
page's module of ``docs/_checks`` (:func:`tcdoc.claims.module_name`) with the words it was
written against (see CONTRIBUTING.md, "Add a claim"). When the words change, the build fails
until the check has been read again and the new words copied into it: ``changed`` lists those
claims, old words beside new. ``unpin`` was run once, when checks held a hash of their words
(``pin=``) instead of the words; it takes each claim's words from its page's span.

It reads the pages' sources and imports the checks modules (and so torch); it builds nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = "_checks"
SKIPPED = ("_build", "_checks", "_ext", "auto_examples", "locales")
WIDTH = 88
"""The widest piece of a words string written into a checks module (the lines stay under 110)."""


@dataclasses.dataclass(frozen=True)
class PageClaim:
    """A claim's span on a page, with the checks module of that page and the words its check holds."""

    page: Path
    line: int
    id: str
    words: str
    module: str
    held: str | None  # None: the module has no claim of that id


def pages() -> list[Path]:
    """Every MyST page of the site, in a stable order."""
    return sorted(p for p in DOCS.rglob("*.md") if not set(p.relative_to(DOCS).parts) & set(SKIPPED))


def docname(page: Path) -> str:
    """Return a page's name as Sphinx knows it: ``explanation/clone``."""
    return page.relative_to(DOCS).with_suffix("").as_posix()


def module_file(module: str) -> Path:
    """Return the file of a checks module: ``docs/_checks/explanation/clone.py``."""
    return DOCS.joinpath(*module.split(".")).with_suffix(".py")


def page_claims(with_checks: bool = True) -> Iterator[PageClaim]:
    """Every claim span of every page, with the words its check holds (``with_checks``: import them)."""
    from tcdoc.claims import claim_spans, claims_of, module_name

    if str(DOCS) not in sys.path:
        sys.path.insert(0, str(DOCS))
    for page in pages():
        spans = claim_spans(page.read_text(encoding="utf-8"))
        if not spans:
            continue
        module = module_name(PACKAGE, docname(page))
        known = claims_of(importlib.import_module(module)) if with_checks else {}
        for span in spans:
            claim = known.get(span.id)
            yield PageClaim(page, span.line, span.id, span.words, module, claim.words if claim else None)


def words_literal(words: str, indent: str) -> str:
    """Return ``words`` as Python string literals, split at spaces into pieces that fit a line.

    >>> print(words_literal("`x.detach()` copies nothing", "        "))
    "`x.detach()` copies nothing"
    """
    pieces = textwrap.wrap(words, WIDTH, break_long_words=False, drop_whitespace=False) or [words]
    return f"\n{indent}".join(_literal(piece) for piece in pieces)


def _literal(text: str) -> str:
    return f'"{text}"' if '"' not in text and "\\" not in text else repr(text)


_PIN = re.compile(r'^(?P<indent>[ \t]*)(?P<before>.*?)pin="[0-9a-f]*"', re.MULTILINE)


def unpin(module: str, words: dict[str, str]) -> int:
    """Rewrite each ``pin="..."`` of a checks module into the ``words=`` of its claim; return how many.

    ``words`` maps a claim's id to its page's words. A pin is matched to the claim whose id is
    the last string before it that ``words`` knows.
    """
    path = module_file(module)
    source = path.read_text(encoding="utf-8")
    done = 0
    for found in reversed(list(_PIN.finditer(source))):
        ids = [m.group(1) for m in re.finditer(r'"([a-z0-9][a-z0-9_-]*)"', source[: found.start("before")])]
        ids += [m.group(1) for m in re.finditer(r'"([a-z0-9][a-z0-9_-]*)"', found.group("before"))]
        claim_id = next((name for name in reversed(ids) if name in words), None)
        if claim_id is None:
            raise ValueError(f"{path}: no page claim for the pin at offset {found.start()}")
        indent = found.group("indent") + (" " * 4 if found.group("before") else "")
        pin_start = found.start() + found.group(0).rindex("pin=")
        literal = words_literal(words[claim_id], indent)
        source = source[:pin_start] + f"words={literal}" + source[found.end() :]
        done += 1
    path.write_text(source, encoding="utf-8")
    return done


def main(argv: list[str] | None = None) -> int:
    """Run the command; return its exit status."""
    parser = argparse.ArgumentParser(prog="tools/claims.py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("changed", help="list the page claims whose check holds other words than the page")
    commands.add_parser("unpin", help="rewrite every pin= of docs/_checks into words= from the pages")
    args = parser.parse_args(argv)

    if args.command == "unpin":
        by_module: dict[str, dict[str, str]] = {}
        for claim in page_claims(with_checks=False):
            by_module.setdefault(claim.module, {})[claim.id] = claim.words
        total = sum(unpin(module, words) for module, words in by_module.items())
        print(f"{total} pins rewritten into words")
        return 0

    from tcdoc.claims import same_words, words_changed

    changed = 0
    for claim in page_claims():
        where = f"{claim.page.relative_to(ROOT)}:{claim.line}"
        if claim.held is None:
            print(f"{where}: claim {claim.id!r} has no check in {claim.module}", file=sys.stderr)
            changed += 1
        elif not same_words(claim.held, claim.words):
            print(f"{where}: {words_changed(claim.id, claim.module, claim.held, claim.words)}")
            changed += 1
    print(f"{changed} claims with new words")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
