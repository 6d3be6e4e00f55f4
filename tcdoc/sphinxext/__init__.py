"""Sphinx extension: render facts measured by tcdoc at build time.

Add ``"tcdoc.sphinxext"`` to ``extensions`` in ``conf.py``. It provides

- ``tcdoc-summary``: the four questions answered for a list of operations on one scenario;
- ``tcdoc-matrix``: every operation (or one ``:family:``) on every scenario, one section per
  operation with a table per group of scenarios;
- ``tcdoc-scenarios``: the registered scenarios;
- ``tcdoc-properties``: chosen properties (``:fields:``) of some operations on some scenarios,
  one compact table;
- ``tcdoc-modules``: the module-level operations (``model.to()``, ``state_dict()``, ...), one
  row each, with their fields or (``:answers:``) the questions answered in words;
- ``tcdoc-command``: the output of a ``tcdoc`` command line, run in the build;
- ``tcdoc-diagram``: pictures of what operations did, drawn at build time;
- ``tcdoc-run``: a short code snippet, run in the build, shown with what it printed, its warnings
  and the value of its last line (``:raises: Name`` for a snippet that ends in an expected error,
  ``:continue:`` to run in the namespace of the page's previous snippet);
- ``{tcdoc-fact}`op/scenario/field``: one measured value inline, for example
  ``clone/no_grad/shares_storage`` or ``deepcopy/non_leaf/error``;
- ``{tcdoc-env}`torch``: the torch version (or ``device``, ``device_name``, ``python``) of the build;
- claims: a sentence about torch in a page's own words, ``[words]{#id .claim}``, checked in the
  build against its check in the site's checks package (``tcdoc_checks``), whose pin must match
  the words (see :mod:`tcdoc.claims` and ``_claims``); the claims an example quotes are checked
  when its page is read;
- ``tcdoc-gpu-status``: whether this build ran the GPU examples, and on what; on a build without
  CUDA, each GPU example page also gets a note that it was not run (see :mod:`tcdoc.gating`);
- a re-run of every gallery example when tcdoc's own code changed, a build error for an
  executed example whose page shows no output, and a cache for the pages of examples the build
  does not execute, so that a build with nothing to do imports no torch;
- links in example code from the methods and attributes of a variable (``x.clone()``) to
  their documentation, through sphinx-gallery's own linking (see ``_code_links``);
- for a site built with furo and sphinx-gallery: "view" and "edit" buttons of a gallery page
  that open its example script (``_source_links``), and with sphinx-sitemap, a sitemap that
  lists every page after an incremental build too (``_sitemap``);
- a copy button on each block of highlighted code (``_copy_button``);
- markup that passes the WCAG 2.1 A/AA rules of axe-core (toctree captions with a level,
  thumbnails with alt text, scrolling code in the tab order), pictures that load lazily,
  on each page only the sphinx-gallery files that the page uses, and stylesheets minified.

Every value is probed once per build, on the CPU, or on CUDA where ``tcdoc_device = "cuda"``.

Like ``sphinx.ext.intersphinx``, the extension is a package with one ``setup()``, here, and one
private module per job: ``_config`` (the settings, checked when the configuration is read),
``_tables`` (the fact directives), ``_roles`` (the fact roles), ``_table_nodes`` (their
cells and tables), ``_links`` (links from an operation's code to its page), ``_state`` (the
build's matrix and snippet namespaces, on ``env``), ``_claims``, ``_command``, ``_snippets``, ``_diagram``,
``_gallery_guard``, ``_gpu``, ``_i18n``, ``_code_links``, ``_source_links``, ``_sitemap``,
``_copy_button``, ``_a11y`` and ``_assets``. Sphinx is imported only under this package.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

import tcdoc
from tcdoc.sphinxext import (
    _a11y,
    _assets,
    _claims,
    _code_links,
    _config,
    _copy_button,
    _gallery_guard,
    _gpu,
    _i18n,
    _roles,
    _sitemap,
    _source_links,
    _state,
    _table_nodes,
    _tables,
)
from tcdoc.sphinxext._command import CommandDirective, run_command
from tcdoc.sphinxext._diagram import DiagramDirective
from tcdoc.sphinxext._links import resolve_operation_link
from tcdoc.sphinxext._snippets import RunDirective

__all__ = ["run_command", "setup"]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the settings, directives, roles, the gallery's guards and links, and the sitemap's fix."""
    _config.add_config_values(app)
    _i18n.add_catalog(app)
    app.connect("build-finished", _i18n.repair_chinese_search)
    app.add_directive("tcdoc-summary", _tables.SummaryDirective)
    app.add_directive("tcdoc-matrix", _tables.MatrixDirective)
    app.add_directive("tcdoc-scenarios", _tables.ScenariosDirective)
    app.add_directive("tcdoc-properties", _tables.PropertiesDirective)
    app.add_directive("tcdoc-modules", _tables.ModulesDirective)
    app.add_directive("tcdoc-command", CommandDirective)
    app.add_directive("tcdoc-run", RunDirective)
    app.add_directive("tcdoc-diagram", DiagramDirective)
    app.add_directive("tcdoc-gpu-status", _gpu.GpuStatusDirective)
    app.add_role("tcdoc-fact", _roles.FactRole())
    app.add_role("tcdoc-env", _roles.EnvRole())
    _claims.setup_claims(app)
    app.connect("missing-reference", resolve_operation_link)
    # The build's state (the matrix, the snippets' namespaces) lives on env, made at builder-inited.
    app.connect("builder-inited", _state.reset)
    app.connect("env-purge-doc", _state.purge_doc)
    _table_nodes.add_nodes(app)
    app.connect("builder-inited", _gpu.find_gpu_pages)
    app.connect("doctree-read", _gpu.mark_gpu_pages)
    # Before sphinx-gallery's own builder-inited handler (priority 500) generates the pages.
    app.connect("builder-inited", _gallery_guard.rerun_if_tcdoc_changed, priority=400)
    app.connect("env-get-outdated", _gallery_guard.reread_if_tcdoc_changed)
    app.connect("source-read", _gallery_guard.drop_remote_scripts)
    app.connect("build-finished", _gallery_guard.check_examples_ran)
    app.connect("build-finished", _gallery_guard.record_build, priority=900)
    # After sphinx-gallery (priority 500) has written each example's candidates for its names.
    app.connect("builder-inited", _code_links.add_attribute_candidates, priority=600)
    app.connect("html-page-context", _source_links.point_at_example_sources)
    # Before sphinx-sitemap (priority 500) writes sitemap.xml.
    app.connect("build-finished", _sitemap.complete_sitemap, priority=400)
    app.connect("builder-inited", _copy_button.add_script)
    app.connect("builder-inited", _a11y.add_script)
    app.connect("doctree-resolved", _a11y.describe_thumbnails)
    # After furo's handler (priority 500), which renders the sidebar's tree into the context.
    app.connect("html-page-context", _a11y.level_captions, priority=900)
    app.connect("html-page-context", _assets.drop_unused_assets, priority=900)
    app.connect("html-page-context", _assets.load_images_lazily, priority=900)
    app.connect("build-finished", _assets.drop_unused_token_styles, priority=900)
    app.connect("build-finished", _assets.minify_stylesheets, priority=900)
    return {"version": tcdoc.__version__, "parallel_read_safe": True, "parallel_write_safe": True}
