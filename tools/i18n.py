"""Keep the Chinese edition's message catalogues in step with the English pages.

Usage (nox runs these; see CONTRIBUTING.md)::

    python tools/i18n.py update   # extract the English messages, merge them into the catalogues
    python tools/i18n.py check    # fail if any message is new, untranslated or fuzzy

There are two kinds of catalogue. The pages' own (docs/locales/zh_CN/LC_MESSAGES, one per page)
hold their prose. The Sphinx extension's (tcdoc/sphinxext/locales/zh_CN/LC_MESSAGES/tcdoc.po,
compiled to tcdoc.mo, which the package ships) holds the words it writes into pages: its
literals, the headings of the comparison's fields, the registry's summaries and the words that
fill a claim's placeholders (a claim's own sentence is prose of its page, in the page's catalogue);
and the few words of the site's own extension (docs/_ext), which translates through the same catalogue.

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
import ast
import io
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LOCALES = DOCS / "locales"
LANGUAGE = "zh_CN"
POT_DIR = ROOT / "build" / "gettext"
# Catalogues of pages whose text is this build's data, not prose.
SKIPPED_CATALOGUES = (
    "sphinx",  # the theme's labels: docs/locales/zh_CN/LC_MESSAGES/sphinx.po, kept by hand (THEME)
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


# -- The extensions' catalogues ---------------------------------------------------------------

# The site's own extension (docs/_ext/tcdoc_site) writes its few words (the GPU notes) through a
# catalogue of its own, beside it: they are this site's sentences, and the wheel ships tcdoc.po.
SITE_EXTENSION = DOCS / "_ext" / "tcdoc_site"
EXTENSION_PO = ROOT / "tcdoc" / "sphinxext" / "locales" / LANGUAGE / "LC_MESSAGES" / "tcdoc.po"
SITE_PO = SITE_EXTENSION / "locales" / LANGUAGE / "LC_MESSAGES" / "tcdoc_site.po"
# Where the extension and the core spell a message to translate: _("...") and, in answers() and
# module_answers(), t("...").
MARKERS = {
    ROOT / "tcdoc" / "sphinxext": "_",
    ROOT / "tcdoc" / "_compare.py": "t",
    ROOT / "tcdoc" / "_modules.py": "t",
    # The pictures and the cost findings, which read the catalogue without Sphinx (tcdoc._locale).
    ROOT / "tcdoc" / "draw": "t",
    ROOT / "tcdoc" / "bench" / "_findings.py": "t",
    ROOT / "tcdoc" / "bench" / "_plot.py": "t",
}


def extension_messages() -> list[str]:
    """Every message the package's extension translates (tcdoc.po), in a stable order, each once."""
    import tcdoc
    from tcdoc import _cells, _names
    from tcdoc.claims import MESSAGES as CLAIM_WORDS

    found: list[str] = []
    for place, marker in MARKERS.items():
        for path in sorted(place.rglob("*.py")) if place.is_dir() else [place]:
            found += _marked(path, marker)
    found += [_cells.YES, _cells.NO, _cells.NOT_APPLICABLE]  # the one formatter's words (tcdoc._cells)
    found += list(_names.LABELS.values()) + list(_names.MODULE_LABELS.values())
    found += list(tcdoc.QUESTIONS.values()) + list(tcdoc.MODULE_QUESTIONS.values())
    found += list(_names.REASONS)  # every reason a field may be n/a for
    found += [word for outcome in _names.WRITE_OUTCOMES.items() for word in outcome]  # an in-place write's
    found += [*_names.MODULE_NOT_APPLICABLE.values(), _names.MODULE_SCENARIO_SUMMARY]
    found += [op.summary for op in tcdoc.operations(include_unavailable=True)]
    found += [op.summary for op in tcdoc.module_operations()]
    found += [scenario.summary for scenario in tcdoc.scenarios(include_unavailable=True)]
    found += list(CLAIM_WORDS)  # what fills a claim's placeholders; its words are in its page's catalogue
    return list(dict.fromkeys(found))


def site_messages() -> list[str]:
    """Every message the site's own extension translates (tcdoc_site.po), each once."""
    if str(SITE_EXTENSION.parent) not in sys.path:
        sys.path.insert(0, str(SITE_EXTENSION.parent))
    from tcdoc_site import _figures, gating

    found = [message for path in sorted(SITE_EXTENSION.rglob("*.py")) for message in _marked(path, "_")]
    return list(dict.fromkeys([*found, gating.NO_CUDA_NOTE, *_figures.PLAIN_FIGURE_WORDS]))


def catalogues() -> dict[Path, Callable[[], list[str]]]:
    """Return the extensions' catalogues, each with the function that lists its messages."""
    return {EXTENSION_PO: extension_messages, SITE_PO: site_messages}


def _marked(path: Path, marker: str) -> list[str]:
    """Return the string literals passed to ``marker(...)`` in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == marker
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(node.args[0].value)
    return found


def update_extension() -> None:
    """Merge each extension's messages into its catalogue, keeping translations; compile it."""
    known = {
        m.id: m.string
        for po in catalogues()
        if po.is_file()
        for m in _read(po)
        if isinstance(m.id, str) and m.string
    }
    for po_path, messages in catalogues().items():
        old = _read(po_path) if po_path.is_file() else Catalog(locale=LANGUAGE, project="tcdoc")
        template = Catalog(project="tcdoc")
        for text in messages():
            template.add(text)
        old.update(template, no_fuzzy_matching=True)
        old.obsolete.clear()
        for entry in old:
            if isinstance(entry.id, str) and entry.id and not entry.string and entry.id in known:
                entry.string = known[entry.id]  # a message that moved between the catalogues
        po_path.parent.mkdir(parents=True, exist_ok=True)
        with po_path.open("wb") as stream:
            write_po(stream, old, width=0, omit_header=False)
        _compile(po_path)


def _compile(po_path: Path) -> bytes:
    """Write the .mo beside a .po; return its bytes."""
    buffer = io.BytesIO()
    write_mo(buffer, _read(po_path), use_fuzzy=False)
    po_path.with_suffix(".mo").write_bytes(buffer.getvalue())
    return buffer.getvalue()


def _read(po_path: Path) -> Catalog:
    with po_path.open("rb") as stream:
        return read_po(stream, locale=LANGUAGE)


def check_extension() -> list[str]:
    """List the extensions' catalogues' problems: messages missing, untranslated or fuzzy; a stale .mo."""
    problems = []
    for po_path, messages in catalogues().items():
        name = po_path.name
        if not po_path.is_file():
            problems.append(f"{po_path.relative_to(ROOT)}: missing; run `python tools/i18n.py update`")
            continue
        po = _read(po_path)
        for msgid in messages():
            message = po.get(msgid)
            if message is None:
                problems.append(f"{name}: not in the catalogue: {msgid[:70]!r}")
            elif not message.string:
                problems.append(f"{name}: untranslated: {msgid[:70]!r}")
            elif message.fuzzy:
                problems.append(f"{name}: fuzzy: {msgid[:70]!r}")
        buffer = io.BytesIO()
        write_mo(buffer, po, use_fuzzy=False)
        mo = po_path.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != buffer.getvalue():
            problems.append(f"{mo.name} is not {name} compiled; run `python tools/i18n.py update`")
    return problems


# -- The theme's labels ----------------------------------------------------------------------

THEME_PO = LOCALES / LANGUAGE / "LC_MESSAGES" / "sphinx.po"
THEME = (
    # furo's labels that it translates with Sphinx's catalogue, which Sphinx's own zh_CN lacks.
    "Back to top",
    "Skip to content",
    "Made with",
    "On this page",
    "Edit this page",
    "View this page",
    "Language",
    "Next",
    "Previous",
    "Home",
    "Please activate JavaScript to enable the search functionality.",
    # Ours (docs/_templates).
    "every output on this site was produced by torch %(torch)s (%(device)s) at build time",
)
"""The theme's words that docs/locales/zh_CN/LC_MESSAGES/sphinx.po must translate."""


def check_theme() -> list[str]:
    """List the labels of :data:`THEME` that sphinx.po lacks, or leaves untranslated or fuzzy."""
    if not THEME_PO.is_file():
        return [f"{THEME_PO.relative_to(ROOT)}: missing"]
    po = _read(THEME_PO)
    problems = []
    for msgid in THEME:
        message = po.get(msgid)
        if message is None or not message.string or message.fuzzy:
            problems.append(f"sphinx.po: untranslated theme label: {msgid!r}")
    return problems


# -- Both ----------------------------------------------------------------------------------------


def update() -> None:
    """Merge fresh templates into the catalogues; new messages start untranslated."""
    update_extension()
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


CLAIM_ID = re.compile(r"\]\{#([A-Za-z0-9_-]+) \.claim\}")


def claim_ids(message: str | Sequence[str]) -> list[str]:
    """Return the ids of the claims (``[words]{#id .claim}``) of a message, which its translation keeps.

    A plural message (babel gives its forms as a tuple) has the claims of all its forms.

    >>> claim_ids("[`x.detach()` copies nothing]{#copies-nothing .claim}. More.")
    ['copies-nothing']
    """
    forms = [message] if isinstance(message, str) else message
    return [found for form in forms for found in CLAIM_ID.findall(form)]


def check() -> int:
    """Print every message that is missing, untranslated or fuzzy; return the exit status."""
    problems: list[str] = check_extension() + check_theme()
    total = len(extension_messages()) + len(site_messages()) + len(THEME)
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
            elif claim_ids(msgid) != claim_ids(str(message.string)):
                problems.append(
                    f"{name}: the translation does not keep the claims {claim_ids(msgid)}: {msgid[:50]!r}"
                )
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
