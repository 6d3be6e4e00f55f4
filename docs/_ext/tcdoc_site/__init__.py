"""The tcdoc site's own Sphinx extension: what only this site does to its pages.

``tcdoc.sphinxext``, in the package, renders what tcdoc measures, and any project can load it.
This extension is the rest of what ``docs/conf.py`` asks for, and lives with the site, as
pydata-sphinx-theme keeps ``docs/_extension`` and sphinx-gallery ``doc/sphinxext``; the wheel
does not ship it. ``docs/conf.py`` puts ``docs/_ext`` on ``sys.path`` and lists
``"tcdoc_site"`` in ``extensions``; it loads ``tcdoc.sphinxext`` too. It provides

- the GPU examples' gating (:mod:`tcdoc_site.gating`, ``_gpu``): one decision per build,
  ``tcdoc_gpu_execute``, checked against ``TCDOC_REQUIRE_GPU`` when the configuration is read;
  on a build without CUDA a note on each GPU example page that it was not run, and the
  ``tcdoc-gpu-status`` directive for the GPU gallery's header;
- the gallery's guards (``_gallery_guard``): an example runs again when a tcdoc module it
  imports changed, an executed example whose page shows no output is a build error, and the
  pages of examples the build does not execute are cached, so that a build with nothing to do
  imports no torch;
- links in example code from the methods and attributes of a variable (``x.clone()``) to
  their documentation, through sphinx-gallery's own linking (``_code_links``);
- furo's "view" and "edit" buttons of a gallery page, pointed at its example script
  (``_source_links``), and a sitemap that lists every page after an incremental build too
  (``_sitemap``);
- the examples' downloads (notebooks, scripts and their zips) without Sphinx roles in their text:
  links to the site's pages and names in backquotes instead (``_downloads``);
- a copy button on each block of highlighted code (``_assets``, ``_static/tcdoc-copy.js``);
- markup that passes the WCAG 2.1 A/AA rules of axe-core (``_a11y``, ``_static/tcdoc-a11y.js``),
  pictures that load lazily, on each page only the sphinx-gallery files that the page uses, and
  stylesheets minified (``_assets``);
- the Chinese edition's search: the site's terms kept whole and their aliases read as them, a
  typed query split into words as the pages were, and the stemmer Sphinx ships (``_search``);
  the glossary's table of those terms, from the same file (``_search_terms``, ``tcdoc-terms``);
- the examples' figures drawn in every language by the English build, each edition showing its
  own (``_figures``), sphinx-gallery's generated words (cards, downloads, running times) in the
  build's language (``_gallery_words``), and so the cost findings an example prints
  (``_printed_findings``);
- each page described by its first paragraph in search results and link previews
  (``_previews``);
- the 404 page of each edition, right under any path a host serves it from (``_notfound``), and
  each edition's own address: the Chinese edition's canonical links, sitemap and link previews
  point into ``zh_CN/``;
- type aliases documented as data found where autodoc names them as classes, as Sphinx 9 finds
  them, on the older Sphinx that pyproject.toml allows (``_type_aliases``).

The words this extension writes into pages (the GPU notes, sphinx-gallery's words, the examples'
plot labels) are translated through its own
catalogue, ``tcdoc_site`` (``_catalog``), which lives with the site, not in the package.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

import tcdoc
from tcdoc_site import (
    _a11y,
    _assets,
    _catalog,
    _code_links,
    _downloads,
    _figures,
    _gallery_guard,
    _gallery_words,
    _gpu,
    _lookup,
    _notfound,
    _previews,
    _printed_findings,
    _search,
    _search_terms,
    _sitemap,
    _source_links,
    _type_aliases,
)

__all__ = ["ENV_VERSION", "setup"]

ENV_VERSION = 1
"""The version of what this extension keeps on ``env`` (``tcdoc_gpu_docs``, ``tcdoc_gallery_stamp``):
raise it when that changes, and Sphinx reads every page again instead of loading an older environment."""


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the site's settings, its chores and their catalogue, after loading ``tcdoc.sphinxext``.

    Where a handler must run before or after another extension's handler of the same event, its
    priority says so (Sphinx runs lower first; 500 is the default, and at equal priorities, the
    order of registration). ``tests/test_site_events.py`` checks each such order.
    """
    app.setup_extension("tcdoc.sphinxext")
    _catalog.add_catalog(app)
    # Whether this build runs the GPU examples; None: decided once by gating, at config-inited.
    app.add_config_value("tcdoc_gpu_execute", None, "env", types=[bool, type(None)])
    # The path the site is published under: where the 404 page looks for its edition's root first.
    app.add_config_value("tcdoc_url_prefix", "/", "html", types=[str])
    app.connect("config-inited", _gpu.check_config)
    app.connect("config-inited", _notfound.address_the_edition)
    app.add_directive("tcdoc-gpu-status", _gpu.GpuStatusDirective)
    app.connect("builder-inited", _gpu.find_gpu_pages)
    app.connect("doctree-read", _gpu.mark_gpu_pages)
    # Before sphinx-gallery's own builder-inited handler (priority 500) generates the pages.
    app.connect("builder-inited", _gallery_guard.rerun_if_tcdoc_changed, priority=400)
    app.connect("env-get-outdated", _gallery_guard.reread_if_tcdoc_changed)
    app.connect("source-read", _gallery_guard.drop_remote_scripts)
    app.connect("build-finished", _gallery_guard.check_examples_ran)
    # before sphinx-gallery's summary of failing examples (500), which raises
    app.connect("build-finished", _gallery_guard.forget_failed_examples, priority=400)
    app.connect("build-finished", _gallery_guard.record_build, priority=900)
    # After sphinx-gallery's builder-inited handler (500), which writes the codeobj.json files it rewrites.
    app.connect("builder-inited", _code_links.add_attribute_candidates, priority=600)
    app.connect("html-page-context", _source_links.point_at_example_sources)
    # Before sphinxext-opengraph's html-page-context handler (500), which writes og:description
    # from the page's meta, where this puts the page's first paragraph.
    app.connect("html-page-context", _previews.describe_page, priority=400)
    # Before sphinx-sitemap's build-finished handler (500), which writes sitemap.xml from the
    # links that this adds to.
    app.connect("build-finished", _sitemap.complete_sitemap, priority=400)
    app.connect("builder-inited", _assets.add_scripts)
    app.connect("doctree-resolved", _a11y.describe_thumbnails)
    app.connect("doctree-resolved", _a11y.escape_figure_alts)
    # After furo's html-page-context handler (500), which renders the sidebar's tree that this levels.
    app.connect("html-page-context", _a11y.level_captions, priority=900)
    app.connect("html-page-context", _assets.drop_unused_assets)
    app.connect("html-page-context", _assets.load_images_lazily)
    app.connect("build-finished", _assets.shrink_images)
    # After furo's build-finished handler (500), which writes pygments.css again on every build.
    app.connect("build-finished", _assets.rewrite_stylesheets, priority=900)
    app.add_search_language(_search.SearchChineseTerms)
    app.add_directive("tcdoc-terms", _search_terms.TermsDirective)
    app.connect("build-finished", _search.repair_chinese_search)
    # After sphinx-gallery's builder-inited handler (500), which scales the thumbnails that this
    # scales the translated variants of beside.
    app.connect("builder-inited", _figures.scale_drawn_thumbnails, priority=600)
    # Before Sphinx's own doctree-read handlers (500): its image collector notes the pictures to
    # copy, and its title collector the page's title, for links and the table of contents.
    app.connect("doctree-read", _figures.use_translated_figures, priority=400)
    app.connect("doctree-read", _gallery_words.translate_gallery_words, priority=400)
    app.connect("doctree-read", _printed_findings.translate_printed_findings)
    app.connect("build-finished", _gallery_words.translate_theme_labels)
    app.connect("missing-reference", _type_aliases.resolve_type_alias)
    # Last, after every handler that reads or rewrites the built pages: translate_theme_labels
    # (500) and rewrite_stylesheets (900) could no longer read the 404 page inside its shell.
    app.connect("build-finished", _notfound.wrap_page, priority=950)
    app.connect("build-finished", _downloads.rewrite_downloads)
    _lookup.add_lookup(app)  # the lookup page's data, written after the build (its own events)
    return {
        "version": tcdoc.__version__,
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
