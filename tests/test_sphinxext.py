"""tcdoc.sphinxext renders what tcdoc measures: checked on a tiny Sphinx project."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

import tcdoc
from tcdoc.sphinxext import run_command

PAGE = """\
Facts
=====

.. tcdoc-summary::
   :operations: clone detach deepcopy
   :scenario: non_leaf

.. tcdoc-matrix::
   :operations: deepcopy torch_tensor
   :scenarios: leaf_requires_grad non_leaf

Detach shares storage: :tcdoc-fact:`detach/no_grad/shares_storage`.
Built with torch :tcdoc-env:`torch`.
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[str, str]:
    docs = tmp_path_factory.mktemp("site")
    (docs / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (docs / "index.rst").write_text(PAGE)
    warnings = io.StringIO()
    with docutils_namespace():  # keep each app's registrations to itself
        app = Sphinx(docs, docs, docs / "_build", docs / "_doctrees", "html", status=None, warning=warnings)
        app.build()
    return Path(docs / "_build" / "index.html").read_text(encoding="utf-8"), warnings.getvalue()


def test_builds_without_warnings(built):
    _, warnings = built
    assert warnings == ""


def test_summary_shows_the_measured_answers(built):
    html, _ = built
    for operation in ("clone", "detach"):
        report = tcdoc.probe(operation, "non_leaf").properties
        for words in tcdoc.answers(report).values():
            assert words in html
    error = tcdoc.probe("deepcopy", "non_leaf").error
    assert f"raises {error.type}" in html


def test_matrix_lists_errors_and_warnings_verbatim(built):
    html, _ = built
    error = tcdoc.probe("deepcopy", "non_leaf").error
    (warning,) = tcdoc.probe("torch_tensor", "leaf_requires_grad").warnings
    assert 'id="matrix-deepcopy"' in html
    assert error.message.split(".")[0] in html
    assert warning.message.split(",")[0] in html


def test_roles_show_single_facts(built):
    html, _ = built
    shares = tcdoc.probe("detach", "no_grad").properties.shares_storage
    assert (
        f'<code class="tcdoc-fact docutils literal notranslate"><span class="pre">{shares}</span></code>'
        in html
    )
    assert tcdoc.environment().torch in html


def test_command_directive_runs_the_cli():
    status, output = run_command(["explain", "nope"])
    assert status == 2
    assert "unknown operation 'nope'" in output
    status, output = run_command(["--help"])
    assert status == 0
    assert "usage: tcdoc" in output


def test_unknown_fact_is_a_build_error(tmp_path):
    (tmp_path / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (tmp_path / "index.rst").write_text("X\n=\n\n:tcdoc-fact:`clone/no_grad/colour`\n")
    warnings = io.StringIO()
    Sphinx(
        tmp_path, tmp_path, tmp_path / "_b", tmp_path / "_d", "html", status=None, warning=warnings
    ).build()
    assert "no field 'colour'" in warnings.getvalue()
