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
- ``{tcdoc-claim}`id``: a sentence about torch from the claims registry (``tcdoc._claims``),
  checked in the build (a false claim is a build error); the claims an example quotes are checked
  when its page is read.

Every value is probed once per build, on the CPU, or on CUDA where ``tcdoc_device = "cuda"``.

The extension changes nothing else about a site: its theme, stylesheets, scripts and gallery
come out as Sphinx and their own extensions make them. What only tcdoc's own site does to its
pages (copy buttons, accessibility fixes, minified stylesheets, the GPU examples' gating, the
gallery's guards) lives with that site, in ``docs/_ext``, and is not part of this package.

Like ``sphinx.ext.intersphinx``, the extension is a package with one ``setup()``, here, and one
private module per job: ``_config`` (the settings, checked when the configuration is read),
``_tables`` (fact directives and roles), ``_claims``, ``_command``, ``_snippets``, ``_diagram``
and ``_i18n`` (the extension's words in the reader's language). Sphinx is imported only under
this package.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

import tcdoc
from tcdoc.sphinxext import _claims, _config, _i18n, _tables
from tcdoc.sphinxext._command import CommandDirective, run_command
from tcdoc.sphinxext._diagram import DiagramDirective
from tcdoc.sphinxext._snippets import RunDirective, forget_namespace

__all__ = ["run_command", "setup"]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the settings, the directives and roles, the claims' checks and the catalogue."""
    _config.add_config_values(app)
    _i18n.add_catalog(app)
    app.add_directive("tcdoc-summary", _tables.SummaryDirective)
    app.add_directive("tcdoc-matrix", _tables.MatrixDirective)
    app.add_directive("tcdoc-scenarios", _tables.ScenariosDirective)
    app.add_directive("tcdoc-properties", _tables.PropertiesDirective)
    app.add_directive("tcdoc-modules", _tables.ModulesDirective)
    app.add_directive("tcdoc-command", CommandDirective)
    app.add_directive("tcdoc-run", RunDirective)
    app.add_directive("tcdoc-diagram", DiagramDirective)
    app.add_role("tcdoc-fact", _tables.FactRole())
    app.add_role("tcdoc-env", _tables.EnvRole())
    app.add_role("tcdoc-claim", _claims.ClaimRole())
    app.connect("doctree-read", _claims.check_quoted_claims)
    app.connect("missing-reference", _tables.resolve_operation_link)
    app.connect("source-read", forget_namespace)
    app.connect("html-page-context", _tables.label_summary_cells, priority=900)
    return {"version": tcdoc.__version__, "parallel_read_safe": True, "parallel_write_safe": True}
