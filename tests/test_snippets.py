"""tcdoc-run and tcdoc-properties: snippets run in the build, and a snippet that fails fails the build."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest
from sphinx.application import Sphinx

from tcdoc.sphinxext._snippets import SnippetError, run_snippet

# -- run_snippet ---------------------------------------------------------------------------------


def test_shows_prints_then_last_value():
    result = run_snippet("print('hi')\nvalue = 2\nvalue * 3", {})
    assert result.output == "hi\n6"
    assert result.raised is None


def test_none_and_statements_show_nothing():
    assert run_snippet("x = 1", {}).output == ""
    assert run_snippet("None", {}).output == ""


def test_namespace_carries_over():
    namespace: dict[str, object] = {}
    run_snippet("x = 41", namespace)
    assert run_snippet("x + 1", namespace).output == "42"


def test_warnings_from_the_snippet_are_shown_every_time():
    code = "import warnings\nfor _ in range(2):\n    warnings.warn('careful', UserWarning)"
    assert run_snippet(code, {}).output == "UserWarning: careful\nUserWarning: careful"


def test_warnings_raised_inside_libraries_are_left_out(tmp_path, monkeypatch):
    (tmp_path / "noisy_module_for_test.py").write_text(
        "import warnings\nwarnings.warn('inside', UserWarning)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert run_snippet("import noisy_module_for_test\n1", {}).output == "1"


def test_expected_exception_is_shown():
    result = run_snippet("print('before')\n[][1]", {}, raises="IndexError")
    assert result.output == "before\nIndexError: list index out of range"
    assert result.raised == "IndexError"


def test_unexpected_exception_is_an_error_with_the_traceback():
    with pytest.raises(SnippetError, match=r"the snippet raised:(.|\n)*ZeroDivisionError"):
        run_snippet("1 / 0", {})


def test_wrong_exception_is_an_error():
    with pytest.raises(SnippetError, match="expected KeyError"):
        run_snippet("1 / 0", {}, raises="KeyError")


def test_missing_exception_is_an_error():
    with pytest.raises(SnippetError, match="expected to raise KeyError, and did not"):
        run_snippet("1", {}, raises="KeyError")


@pytest.mark.parametrize(
    ("code", "namespace", "message"),
    [(3, {}, "code must be a str, got int"), ("1", [], "namespace must be a dict, got list")],
)
def test_bad_arguments(code, namespace, message):
    with pytest.raises(TypeError, match=message):
        run_snippet(code, namespace)


# -- the directives, in a real Sphinx build ------------------------------------------------------


def build(tmp_path: Path, body: str) -> tuple[str, str]:
    """Build one reST page with tcdoc.sphinxext; return the HTML and the warnings."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (src / "index.rst").write_text("Test\n====\n\n" + textwrap.dedent(body))
    warnings = io.StringIO()
    app = Sphinx(
        str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
        status=None, warning=warnings, freshenv=True,
    )  # fmt: skip
    app.build()
    return (tmp_path / "out" / "index.html").read_text(), warnings.getvalue()


def test_run_directive_renders_code_and_real_output(tmp_path):
    html, warnings = build(
        tmp_path,
        """
        .. tcdoc-run::

           x = torch.ones(3, requires_grad=True)
           tcdoc.shares_memory(x, x.detach()), copy.deepcopy(x).is_leaf

        .. tcdoc-run::
           :continue:

           print(x.detach().clone().requires_grad)

        .. tcdoc-run::
           :raises: RuntimeError

           copy.deepcopy(torch.ones(2, requires_grad=True) * 2)
        """,
    )
    assert warnings == ""
    assert "(True, True)" in html
    assert "tcdoc-run-output" in html
    assert "RuntimeError: Only Tensors created explicitly by the user" in html


def test_run_directive_fails_the_build_on_an_unexpected_error(tmp_path):
    _, warnings = build(
        tmp_path,
        """
        .. tcdoc-run::

           torch.ones(2) @ torch.ones(3)
        """,
    )
    assert "tcdoc-run: the snippet raised" in warnings
    assert "RuntimeError" in warnings


def test_continue_needs_an_earlier_snippet(tmp_path):
    _, warnings = build(tmp_path, ".. tcdoc-run::\n   :continue:\n\n   1\n")
    assert "needs an earlier tcdoc-run snippet" in warnings


def test_properties_directive_renders_chosen_fields(tmp_path):
    html, warnings = build(
        tmp_path,
        """
        .. tcdoc-properties::
           :operations: detach deepcopy
           :scenarios: leaf_requires_grad non_leaf
           :fields: shares_storage

        .. tcdoc-properties::
           :operations: clone
           :fields: no_such_field

        .. tcdoc-properties::
           :operations: clone_deep
        """,
    )
    assert "shares memory" in html
    assert "raises RuntimeError" in html  # deepcopy of a non-leaf
    assert "x.detach()" in html
    assert "unknown: ['no_such_field']" in warnings
    assert "tcdoc-properties: unknown operation 'clone_deep'" in warnings
