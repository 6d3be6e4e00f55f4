"""A button that copies the code of each highlighted block, in a script of about 2 kB.

``_static/tcdoc-copy.js`` puts one ``<button class="copybtn">`` after the ``<pre>`` of every
``div.highlight``, named "Copy code" for a screen reader. A click copies the code as it is shown,
without line numbers (``.linenos``); in a console or doctest block, only the lines that start with
a prompt (``>>>``, ``...``, ``$``), without it, so that what is pasted runs. The button then says
"Copied" for two seconds, and a hidden ``role="status"`` line says so to a screen reader. These
words are the site catalogue's, in the build's language, on the script's ``data-*`` attributes.
``docs/_static/tcdoc.css`` places and colours the button in furo's light and dark themes.

Pages without highlighted code do not load the script (:data:`tcdoc_site._assets.NEEDS`).
``tests/browser`` clicks the button and reads the clipboard.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from tcdoc_site import _assets
from tcdoc_site._catalog import translate as _

__all__ = ["SCRIPT", "add_script"]

SCRIPT = "tcdoc-copy.js"
"""The script, kept in this extension's ``_static`` folder, that adds the copy buttons."""


def add_script(app: Sphinx) -> None:
    """Serve ``tcdoc-copy.js`` and load it on the pages of an HTML build (``builder-inited``)."""
    _assets.add_script(
        app,
        SCRIPT,
        **{"data-label": _("Copy code"), "data-copied": _("Copied"), "data-failed": _("Copy failed")},
    )
