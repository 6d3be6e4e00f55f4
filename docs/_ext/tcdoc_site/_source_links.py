"""Point a gallery page's "view" and "edit" buttons at its example script, not at the generated page.

furo shows, at the top of each page, buttons that open the page's source in the repository
(``source_repository``, ``source_branch`` and ``source_directory`` in ``html_theme_options``).
For a gallery page that source would be the reST page that sphinx-gallery generated, which is
not in the repository: :func:`point_at_example_sources` sends the buttons to the example script
(``examples/plot_01_clone.py``) or the gallery's header (``examples/GALLERY_HEADER.rst``)
instead, and hides them on the pages that have no source of their own (the computation times).
Registered by :mod:`tcdoc_site`; it does nothing without sphinx-gallery or a GitHub
``source_repository``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

__all__ = ["gallery_folders", "gallery_source", "point_at_example_sources"]

HEADERS = ("GALLERY_HEADER.rst", "README.rst", "README.txt")
GENERATED = "sg_execution_times"


def gallery_folders(gallery_conf: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Pair each folder of examples with the folder sphinx-gallery generates its gallery into.

    Either setting may be one string, and surplus entries are left out, as sphinx-gallery does.

    >>> gallery_folders({"examples_dirs": "../examples", "gallery_dirs": ["auto_examples"]})
    [('../examples', 'auto_examples')]
    """
    settings = (gallery_conf.get("examples_dirs", []), gallery_conf.get("gallery_dirs", []))
    examples, galleries = ([value] if isinstance(value, str) else list(value) for value in settings)
    return list(zip(examples, galleries, strict=False))


def gallery_source(srcdir: Path, gallery_conf: dict[str, Any], pagename: str) -> str | None:
    """Return the source of a page that sphinx-gallery generated, relative to ``srcdir``.

    ``""`` for a generated page with no source of its own, and ``None`` for a page that
    sphinx-gallery did not generate.

    >>> conf = {"examples_dirs": ["../examples"], "gallery_dirs": ["auto_examples"]}
    >>> gallery_source(Path("docs"), conf, "index") is None
    True
    >>> gallery_source(Path("docs"), conf, "sg_execution_times")
    ''
    """
    if pagename == GENERATED:
        return ""
    for examples, gallery in gallery_folders(gallery_conf):
        prefix = f"{gallery.strip('/')}/"
        if not pagename.startswith(prefix):
            continue
        folder, _, name = pagename.removeprefix(prefix).rpartition("/")
        source_folder = posixpath.normpath(posixpath.join(examples, folder))
        if name == "index":
            candidates = [posixpath.join(source_folder, header) for header in HEADERS]
        else:
            candidates = [posixpath.join(source_folder, f"{name}.py")]
        found = [candidate for candidate in candidates if (srcdir / candidate).is_file()]
        return found[0] if found else ""
    return None


def point_at_example_sources(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """Set furo's view and edit links of a gallery page (``html-page-context``)."""
    repository = str(context.get("theme_source_repository") or "").rstrip("/")
    branch = context.get("theme_source_branch")
    if "sphinx_gallery_conf" not in app.config or not repository.startswith("https://github.com/"):
        return
    source = gallery_source(Path(app.srcdir), app.config.sphinx_gallery_conf, pagename)
    if source is None or not branch:
        return
    if not source:
        context["page_source_suffix"] = ""  # furo shows no button without a source suffix
        return
    directory = str(context.get("theme_source_directory") or "")
    path = posixpath.normpath(posixpath.join(directory, source))
    context["theme_source_view_link"] = f"{repository}/blob/{branch}/{path}"
    context["theme_source_edit_link"] = f"{repository}/edit/{branch}/{path}"
