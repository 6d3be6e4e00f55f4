"""Sphinx extension: render facts measured by tcdoc at build time.

Add ``"tcdoc.sphinxext"`` to ``extensions`` in ``conf.py``. It provides

- ``tcdoc-summary``: the four questions answered for a list of operations on one scenario;
- ``tcdoc-matrix``: every operation (or one ``:family:``) on every scenario, one section per
  operation with a table per group of scenarios;
- ``tcdoc-grad-modes``: the answers of one ``:family:`` that change under ``torch.no_grad()`` or
  ``torch.inference_mode()``, one compact table;
- ``tcdoc-changes``: what changed between torch releases, from the snapshots in
  ``tcdoc_snapshots`` and this build's matrix. The ``tcdoc-matrix`` tables then mark each cell
  that differs between releases, with a link to it;
- ``tcdoc-scenarios``: the registered scenarios;
- ``tcdoc-properties``: chosen properties (``:fields:``) of some operations on some scenarios,
  one compact table;
- ``tcdoc-modules``: the module-level operations (``model.to()``, ``state_dict()``, ...), one
  row each, with their fields or (``:answers:``) the questions answered in words;
- ``tcdoc-command``: the output of a ``tcdoc`` command line, run in the build;
- ``tcdoc-diagram``: pictures of what operations did, drawn at build time;
- ``tcdoc-run``: a short code snippet, run in the build, shown with what it printed, its warnings
  and the value of its last line. ``:raises: Name`` is for a snippet that ends in an expected error,
  ``:continue:`` runs it in the namespace of the page's previous snippet;
- ``{tcdoc-fact}`op/scenario/field``: one measured value inline, for example
  ``clone/no_grad/shares_storage`` or ``deepcopy/non_leaf/error``;
- ``{tcdoc-env}`torch``: the torch version (or ``device``, ``device_name``, ``python``) of the build;
- ``tcdoc-scope``: the kind of ``x``, the grad mode or the device a section's sentences share,
  stated once in one short line; the section's claims inherit it;
- claims: a sentence about torch in a page's own words, ``[words]{#id .claim}``. The build
  checks it against its check in the site's checks package (``tcdoc_checks``), which holds the
  same words (see :mod:`tcdoc.claims` and ``_claims``). An example's ``claim()`` calls must quote
  its text, checked when its page is read.

Every value is probed once per build, on the CPU, or on CUDA where ``tcdoc_device = "cuda"``.

The extension changes nothing else about a site: its theme, stylesheets, scripts and gallery
come out as Sphinx and their own extensions make them. What only tcdoc's own site does to its
pages lives with that site, in ``docs/_ext``, not in this package. That is its copy buttons,
accessibility fixes, minified stylesheets, the GPU examples' gating and the gallery's guards.

Like ``sphinx.ext.intersphinx``, the extension is a package with one ``setup()``, here, and one
private module per job:

- ``_config``: every setting, registered and checked when the configuration is read;
- ``_tables``: the fact directives; ``_grad_modes``: the grad modes' table;
- ``_changes``: the history of releases;
- ``_roles``: the fact roles; ``_table_nodes``: their cells and tables;
- ``_links``: links from an operation's code to its page;
- ``_state``: the build's matrix and snippet namespaces, on ``env``;
- ``_claims``, ``_scope``, ``_command``, ``_snippets`` and ``_diagram``;
- ``_i18n``: the extension's words in the reader's language.

Sphinx is imported only under this package.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

import tcdoc
from tcdoc.sphinxext import _claims, _config, _i18n, _roles, _state, _table_nodes, _tables
from tcdoc.sphinxext._changes import ChangesDirective
from tcdoc.sphinxext._command import CommandDirective, run_command
from tcdoc.sphinxext._diagram import DiagramDirective
from tcdoc.sphinxext._grad_modes import GradModesDirective
from tcdoc.sphinxext._links import resolve_operation_link
from tcdoc.sphinxext._scope import ScopeDirective, write_scopes
from tcdoc.sphinxext._snippets import RunDirective

__all__ = ["ENV_VERSION", "run_command", "setup"]

ENV_VERSION = 1
"""The version of what the extension keeps on ``env`` (``_state``, ``_claims``): raise it when that
changes, and Sphinx reads every page again instead of loading an environment an older one left."""


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the settings, the directives and roles, the claims' checks and the catalogue."""
    _config.add_config_values(app)
    _i18n.add_catalog(app)
    app.add_directive("tcdoc-summary", _tables.SummaryDirective)
    app.add_directive("tcdoc-matrix", _tables.MatrixDirective)
    app.add_directive("tcdoc-grad-modes", GradModesDirective)
    app.add_directive("tcdoc-changes", ChangesDirective)
    app.add_directive("tcdoc-scenarios", _tables.ScenariosDirective)
    app.add_directive("tcdoc-properties", _tables.PropertiesDirective)
    app.add_directive("tcdoc-modules", _tables.ModulesDirective)
    app.add_directive("tcdoc-definitions", _tables.DefinitionsDirective)
    app.add_directive("tcdoc-command", CommandDirective)
    app.add_directive("tcdoc-run", RunDirective)
    app.add_directive("tcdoc-diagram", DiagramDirective)
    app.add_directive("tcdoc-scope", ScopeDirective)
    app.connect("doctree-read", write_scopes)
    app.add_role("tcdoc-fact", _roles.FactRole())
    app.add_role("tcdoc-env", _roles.EnvRole())
    _claims.setup_claims(app)
    app.connect("missing-reference", resolve_operation_link)
    # The build's state (the matrix, the snippets' namespaces) lives on env, made at builder-inited.
    app.connect("builder-inited", _state.reset)
    app.connect("env-purge-doc", _state.purge_doc)
    _table_nodes.add_nodes(app)
    return {
        "version": tcdoc.__version__,
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
