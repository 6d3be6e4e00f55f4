"""List, check and re-pin the site's claims.

Usage::

    python tools/claims.py pins            # print each claim whose words changed, with its new pin
    python tools/claims.py pins --write    # ... and write the new pins into the checks modules

A claim is a span of a page's own words, ``[words]{#id .claim}``, whose check lies in the
page's module of ``docs/_checks`` with the pin of the words it was written against (see
CONTRIBUTING.md, "Add a claim"). When the words change, the build fails until the check has been
read again: this command says which claims those are. Write the new pins only after reading
each check and making sure it fails whenever the new words are false.

It reads the pages' sources and imports the checks modules (and so torch); it builds nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = "_checks"
SKIPPED = ("_build", "_checks", "_ext", "auto_examples", "locales")


@dataclasses.dataclass(frozen=True)
class PageClaim:
    """A claim's span on a page, with the checks module of that page and the claim found there."""

    page: Path
    line: int
    id: str
    words: str
    module: str
    pinned: str | None  # None: the module has no claim of that id

    @property
    def pin(self) -> str:
        """Return the pin of the words as the page says them now."""
        from tcdoc.claims import pin

        return pin(self.words)


def pages() -> list[Path]:
    """Every MyST page of the site, in a stable order."""
    return sorted(p for p in DOCS.rglob("*.md") if not set(p.relative_to(DOCS).parts) & set(SKIPPED))


def docname(page: Path) -> str:
    """Return a page's name as Sphinx knows it: ``explanation/clone``."""
    return page.relative_to(DOCS).with_suffix("").as_posix()


def page_claims() -> Iterator[PageClaim]:
    """Every claim span of every page, with the pin its check holds."""
    from tcdoc.claims import claim_spans, claims_of, module_name

    if str(DOCS) not in sys.path:
        sys.path.insert(0, str(DOCS))
    for page in pages():
        spans = claim_spans(page.read_text(encoding="utf-8"))
        if not spans:
            continue
        module = module_name(PACKAGE, docname(page))
        known = claims_of(importlib.import_module(module))
        for span in spans:
            claim = known.get(span.id)
            yield PageClaim(page, span.line, span.id, span.words, module, claim.pin if claim else None)


def module_file(module: str) -> Path:
    """Return the file of a checks module: ``docs/_checks/explanation/clone.py``."""
    return DOCS.joinpath(*module.split(".")).with_suffix(".py")


def repin(claim: PageClaim) -> bool:
    """Write the new pin of ``claim`` into its checks module; False where its check was not found."""
    path = module_file(claim.module)
    source = path.read_text(encoding="utf-8")
    start = source.find(f'"{claim.id}"')
    found = re.compile(r'pin="([0-9a-f]*)"').search(source, start) if start >= 0 else None
    if found is None:
        return False
    path.write_text(source[: found.start(1)] + claim.pin + source[found.end(1) :], encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    """Run the command; return its exit status."""
    parser = argparse.ArgumentParser(prog="tools/claims.py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pins = commands.add_parser("pins", help="print the claims whose words changed, and their new pins")
    pins.add_argument("--write", action="store_true", help="write the new pins into the checks modules")
    args = parser.parse_args(argv)

    changed = 0
    for claim in page_claims():
        where = f"{claim.page.relative_to(ROOT)}:{claim.line}"
        if claim.pinned is None:
            print(f"{where}: claim {claim.id!r} has no check in {claim.module}", file=sys.stderr)
            changed += 1
            continue
        if claim.pinned == claim.pin:
            continue
        changed += 1
        print(f'{where}: {claim.id} pin="{claim.pin}" (in {module_file(claim.module).relative_to(ROOT)})')
        print(f"    {claim.words}")
        if args.write and not repin(claim):
            print(f"    could not find the pin of {claim.id!r} to write it", file=sys.stderr)
    print(f"{changed} claims with new words" + (" (pins written)" if args.write and changed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
