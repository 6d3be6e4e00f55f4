"""The site extension's own words in the reader's language: its ``tcdoc_site`` catalogue.

The GPU notes are this site's sentences, so they are translated here, beside the site
(``locales/<language>/LC_MESSAGES/tcdoc_site.po``, compiled to ``.mo`` by ``tools/i18n.py``),
not in the package's ``tcdoc`` catalogue, which the wheel ships.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.locale import get_translation

__all__ = ["CATALOG", "LOCALE_DIR", "add_catalog", "translate"]

CATALOG = "tcdoc_site"
"""The name of the site extension's message catalogue."""

LOCALE_DIR = Path(__file__).parent / "locales"
"""Where the catalogue lies, one folder per language (sphinx-intl's layout)."""

_ = get_translation(CATALOG)


def add_catalog(app: Sphinx) -> None:
    """Register the catalogue for the build's language (called from ``setup()``)."""
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))


def translate(text: str) -> str:
    """Return ``text`` in the build's language, or as it is where no translation exists."""
    return str(_(text))
