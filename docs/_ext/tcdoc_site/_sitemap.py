"""List every page of the site in ``sitemap.xml``, not only the pages that this build wrote.

sphinx-sitemap collects a page's address as the page is written (``html-page-context``), so an
incremental build, which writes only what changed, would replace a complete sitemap by one of
those pages alone: after a build with nothing to do, the indices Sphinx always writes again
(``py-modindex.html``). :func:`complete_sitemap` adds every other document of the project, as
sphinx-sitemap adds a page (its excludes and its address scheme apply), and sorts the list, so
that two builds of a commit write the same file. Registered by :mod:`tcdoc_site`; it does
nothing where sphinx-sitemap is not loaded.
"""

from __future__ import annotations

import queue

from sphinx.application import Sphinx

__all__ = ["complete_sitemap"]


def complete_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    """Add the pages this build did not write to sphinx-sitemap's list (``build-finished``, early)."""
    links = getattr(app, "sitemap_links", None)  # sphinx-sitemap's queue, made at builder-inited
    if exception is not None or links is None or "sphinx_sitemap" not in app.extensions:
        return
    from sphinx_sitemap import add_html_link

    for docname in sorted(app.env.found_docs):
        add_html_link(app, docname, None, {}, None)
    found: dict[str, str | None] = {}
    while True:
        try:
            link, last_updated = links.get_nowait()
        except queue.Empty:
            break
        found[link] = last_updated or found.get(link)
    for link in sorted(found):
        links.put((link, found[link]))
