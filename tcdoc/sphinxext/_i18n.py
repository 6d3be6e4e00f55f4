"""The extension's own words in the reader's language, and generated text kept out of page catalogues.

What the extension writes into a page (table headings, yes and no, the build's stamp, a claim's
sentence, a scenario's summary) is translated through the ``tcdoc`` message catalogue, which
ships with the package (``locales/<language>/LC_MESSAGES/tcdoc.po``, compiled to ``.mo``), with
Sphinx's own translation functions. A message id is the English text; an English build, or a
language with no catalogue, shows it as it is.

The nodes a directive or role generates are marked untranslatable (:func:`generated`), so that
Sphinx's gettext builder does not put measured values, which change with torch, into the page
catalogues: the page translates its own prose, the extension its own words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.locale import get_translation

import tcdoc

__all__ = ["CATALOG", "LOCALE_DIR", "add_catalog", "environment_words", "generated", "translate"]

CATALOG = "tcdoc"
"""The name of the extension's message catalogue."""

LOCALE_DIR = Path(__file__).parent / "locales"
"""Where the catalogue lies, one folder per language (sphinx-intl's layout)."""

_ = get_translation(CATALOG)

N = TypeVar("N", bound=nodes.Node)


def add_catalog(app: Sphinx) -> None:
    """Register the catalogue for the build's language (called from ``setup()``)."""
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))


def translate(text: str) -> str:
    """Return ``text`` in the build's language, or as it is where no translation exists.

    ``text`` is an English message of the catalogue: a literal of the extension, a field's
    heading, a summary from the registry, a claim's sentence, or a template to ``format``.
    """
    return str(_(text))


def environment_words(environment: tcdoc.Environment) -> str:
    """Name the torch, device and Python of ``environment`` in the build's language.

    ``str(environment)`` is the English wording (``torch 2.13.0+cpu on CPU (x86_64), Python
    3.11.7``), which the package's command and tables outside Sphinx print.
    """
    return str(_("torch {torch} on {device}, Python {python}")).format(
        torch=environment.torch, device=environment.device_name, python=environment.python
    )


def generated(output: Sequence[N] | Iterable[N]) -> list[N]:
    """Mark every text element of ``output`` untranslatable by page catalogues; return it as a list."""
    result = list(output)
    for root in result:
        for node in root.findall(nodes.TextElement):
            # Inline nodes are never extracted; Sphinx treats one that carries the attribute as
            # a translation placeholder, and moves its children.
            if not isinstance(node, nodes.Inline):
                node["translatable"] = False
    return result
