"""tcdoc-run and tcdoc-properties: snippets run in the build, and a snippet that fails fails the build."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

import tcdoc
from tcdoc.sphinxext._snippets import SnippetError, run_snippet

# -- run_snippet ---------------------------------------------------------------------------------


def test_shows_prints_then_last_value() -> None:
    result = run_snippet("print('hi')\nvalue = 2\nvalue * 3", {})
    assert result.output == "hi\n6"
    assert result.raised is None


def test_none_and_statements_show_nothing() -> None:
    assert run_snippet("x = 1", {}).output == ""
    assert run_snippet("None", {}).output == ""


def test_namespace_carries_over() -> None:
    namespace: dict[str, object] = {}
    run_snippet("x = 41", namespace)
    assert run_snippet("x + 1", namespace).output == "42"


def test_warnings_from_the_snippet_are_shown_every_time() -> None:
    code = "import warnings\nfor _ in range(2):\n    warnings.warn('careful', UserWarning)"
    assert run_snippet(code, {}).output == "UserWarning: careful\nUserWarning: careful"


def test_warnings_raised_inside_libraries_are_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "noisy_module_for_test.py").write_text(
        "import warnings\nwarnings.warn('inside', UserWarning)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert run_snippet("import noisy_module_for_test\n1", {}).output == "1"


def test_expected_exception_is_shown() -> None:
    result = run_snippet("print('before')\n[][1]", {}, raises="IndexError")
    assert result.output == "before\nIndexError: list index out of range"
    assert result.raised == "IndexError"


def test_unexpected_exception_is_an_error_with_the_traceback() -> None:
    with pytest.raises(SnippetError, match=r"the snippet raised:(.|\n)*ZeroDivisionError"):
        run_snippet("1 / 0", {})


def test_wrong_exception_is_an_error() -> None:
    with pytest.raises(SnippetError, match="expected KeyError"):
        run_snippet("1 / 0", {}, raises="KeyError")


def test_missing_exception_is_an_error() -> None:
    with pytest.raises(SnippetError, match="expected to raise KeyError, and did not"):
        run_snippet("1", {}, raises="KeyError")


@pytest.mark.parametrize(
    ("code", "namespace", "message"),
    [(3, {}, "code must be a str, got int"), ("1", [], "namespace must be a dict, got list")],
)
def test_bad_arguments(code: Any, namespace: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        run_snippet(code, namespace)


# -- the directives, in a real Sphinx build (tests/roots/test-snippets and the like) -------------


def code_and_output(app: SphinxTestApp) -> list[tuple[str, str]]:
    """Each literal block of the page: ("code" or "output", its text)."""
    blocks = app.env.get_doctree("index").findall(nodes.literal_block)
    return [("output" if "tcdoc-run-output" in b["classes"] else "code", b.astext()) for b in blocks]


@pytest.mark.sphinx("html", testroot="snippets", freshenv=True)
def test_run_directive_renders_code_and_real_output(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    shown = code_and_output(app)
    assert [kind for kind, _ in shown] == ["code", "output", "code", "output", "code", "output", "code"]
    assert shown[0][1].startswith("x = torch.ones(3, requires_grad=True)")
    assert shown[1][1] == "(True, True)"
    assert shown[3][1] == "False"  # :continue: ran where x was defined
    assert shown[5][1].startswith("RuntimeError: Only Tensors created explicitly by the user")
    assert shown[6][1] == "y = torch.zeros(2)"  # a snippet that shows nothing has no output block
    languages = [b["language"] for b in app.env.get_doctree("index").findall(nodes.literal_block)]
    assert languages == ["python", "none", "python", "none", "python", "none", "python"]


@pytest.mark.sphinx("html", testroot="snippet-error", freshenv=True)
def test_run_directive_fails_the_build_on_an_unexpected_error(app: SphinxTestApp) -> None:
    app.build()
    warnings = app.warning.getvalue()
    assert "tcdoc-run: the snippet raised" in warnings
    assert "RuntimeError" in warnings
    assert not list(app.env.get_doctree("index").findall(nodes.literal_block))


@pytest.mark.sphinx("html", testroot="snippet-continue", freshenv=True)
def test_continue_needs_an_earlier_snippet(app: SphinxTestApp) -> None:
    app.build()
    assert "needs an earlier tcdoc-run snippet" in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="properties", freshenv=True)
def test_properties_directive_renders_chosen_fields(app: SphinxTestApp) -> None:
    app.build()
    warnings = app.warning.getvalue()
    assert "unknown: ['no_such_field']" in warnings
    assert "tcdoc-properties: unknown operation 'clone_deep'" in warnings
    tables = [
        t for t in app.env.get_doctree("index").findall(nodes.table) if "tcdoc-properties" in t["classes"]
    ]
    assert len(tables) == 2  # the two with known operations and fields
    several, single = tables
    assert header(several) == ["y =", "x", "shares memory"]
    deepcopy = tcdoc.probe("deepcopy", "non_leaf").error
    assert deepcopy is not None
    assert rows(several) == [
        ["x.detach()", "leaf_requires_grad", "yes"],
        ["x.detach()", "non_leaf", "yes"],
        ["copy.deepcopy(x)", "leaf_requires_grad", "no"],
        ["copy.deepcopy(x)", "non_leaf", f"raises {deepcopy.type}"],
    ]
    # One scenario: no x column, and a caption naming it (the default, leaf_requires_grad).
    assert header(single) == ["y =", "shares memory", "new bytes"]
    clone = tcdoc.probe("clone", "leaf_requires_grad").properties
    assert clone is not None
    assert rows(single) == [["x.clone()", "no", str(clone.new_bytes)]]
    captions = [p.astext() for p in app.env.get_doctree("index").findall(nodes.paragraph)]
    assert f"Source x: {tcdoc.get_scenario('leaf_requires_grad').summary}" in captions


def header(table: nodes.table) -> list[str]:
    head = table.next_node(nodes.thead)
    assert head is not None
    return [entry.astext() for entry in head.findall(nodes.entry)]


def rows(table: nodes.table) -> list[list[str]]:
    body = table.next_node(nodes.tbody)
    assert body is not None
    return [[entry.astext() for entry in row.findall(nodes.entry)] for row in body.findall(nodes.row)]
