"""A bad fact role or directive names its page and line; a bad role leaves its text, marked problematic."""

from __future__ import annotations

import re

import pytest
from docutils import nodes
from sphinx.testing.util import SphinxTestApp


def error_lines(warnings: str) -> dict[int, str]:
    """Each ERROR line of a build, by the line of index.rst it names."""
    found = {}
    for line in warnings.splitlines():
        match = re.search(r"index\.rst:(\d+): ERROR: (.*)", line)
        if match:
            found[int(match.group(1))] = match.group(2)
    return found


@pytest.mark.sphinx("html", testroot="fact-errors", freshenv=True)
def test_a_bad_role_names_its_file_and_line_and_stays_on_the_page(app: SphinxTestApp) -> None:
    app.build()
    errors = error_lines(app.warning.getvalue())
    assert sorted(errors) == [4, 6, 8, 10, 12, 14]
    assert errors[14].startswith("tcdoc-fact 'clone/no_grad/is_leaf/off': unknown grad mode 'off'")
    assert errors[4].startswith("tcdoc-fact 'clone/no_grad/colour': no field 'colour'")
    assert errors[6].startswith("tcdoc-fact wants op/scenario/field")
    assert errors[12].startswith("tcdoc-env: unknown field 'colour'")
    doctree = app.env.get_doctree("index")
    shown = [node.astext() for node in doctree.findall(nodes.problematic)]
    assert shown == [
        ":tcdoc-fact:`clone/no_grad/colour`",
        ":tcdoc-fact:`clone/no_grad`",
        ":tcdoc-fact:`clone_deep/no_grad/shares_storage`",
        ":tcdoc-fact:`clone/nowhere/shares_storage`",
        ":tcdoc-env:`colour`",
        ":tcdoc-fact:`clone/no_grad/is_leaf/off`",
    ]
    # Each problematic node links to its system message, as Sphinx's own roles do.
    for node in doctree.findall(nodes.problematic):
        assert node["refid"]
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "clone/no_grad/colour" in html


@pytest.mark.sphinx("html", testroot="directive-errors", freshenv=True)
def test_a_bad_directive_names_its_file_and_line(app: SphinxTestApp) -> None:
    app.build()
    errors = error_lines(app.warning.getvalue())
    assert sorted(errors) == [4, 7, 11, 15, 18]
    assert errors[4].startswith("tcdoc-summary: unknown operation 'clone_deep'")
    assert errors[7].startswith("tcdoc-matrix: unknown scenario 'nowhere'")
    assert "unknown: ['colour']" in errors[11]
    assert errors[15].startswith("tcdoc-modules:")
    assert errors[18].startswith("tcdoc-scenarios: unknown group 'odd'")
    assert "Traceback" not in app.warning.getvalue()
