"""The ``tcdoc-run`` directive, and the runner that captures what a reader of a snippet would see.

The runner imports only the standard library; the snippets themselves import what they need.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import traceback
import warnings
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc.sphinxext._state import namespaces

__all__ = [
    "RunDirective",
    "SnippetError",
    "SnippetResult",
    "fresh_namespace",
    "run_snippet",
]


class SnippetError(Exception):
    """A snippet raised an exception it was not expected to raise, or did not raise one it was."""


@dataclasses.dataclass(frozen=True)
class SnippetResult:
    """What running a snippet showed.

    Attributes
    ----------
    output
        Printed text, then each warning as ``Category: message``, then the ``repr`` of the
        last expression (unless it is ``None``), then the expected exception as
        ``Type: message``; one item per line.
    raised
        The class name of the expected exception that was raised, or ``None``.

    """

    output: str
    raised: str | None


def run_snippet(code: str, namespace: dict[str, Any], raises: str | None = None) -> SnippetResult:
    r"""Execute ``code`` in ``namespace`` and return what it showed.

    The last statement, if it is an expression, is evaluated and its ``repr`` shown, as in
    an interactive session. Warnings that point at the snippet's own lines are recorded (every
    one, even repeats) and shown; those raised deep inside libraries, for instance while
    importing, are left out.

    Parameters
    ----------
    code
        Python source.
    namespace
        The globals to run in; the snippet's assignments land here.
    raises
        The class name of an exception the snippet is expected to raise (as its last
        statement). Then it must raise exactly that, and the exception is shown.

    Raises
    ------
    TypeError
        If ``code`` is not a string or ``namespace`` not a dict.
    SyntaxError
        If ``code`` does not parse.
    SnippetError
        If the snippet raises when it should not, raises something else, or does not raise.

    Examples
    --------
    >>> run_snippet("x = [1, 2]\nprint(len(x))\nx + [3]", {}).output
    '2\n[1, 2, 3]'
    >>> run_snippet("1 / 0", {}, raises="ZeroDivisionError").output
    'ZeroDivisionError: division by zero'

    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, got {type(code).__name__}")
    if not isinstance(namespace, dict):
        raise TypeError(f"namespace must be a dict, got {type(namespace).__name__}")
    tree = ast.parse(code, mode="exec")
    last: ast.Expression | None = None
    if tree.body and isinstance(final := tree.body[-1], ast.Expr):
        tree.body.pop()
        last = ast.Expression(final.value)
    stdout = io.StringIO()
    value: object = None
    error: BaseException | None = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(stdout):
        warnings.simplefilter("always")
        try:
            exec(compile(tree, "<snippet>", "exec"), namespace)
            if last is not None:
                value = eval(compile(last, "<snippet>", "eval"), namespace)
        except Exception as exc:  # noqa: BLE001 - reported below, with its traceback
            error = exc
    lines = [stdout.getvalue().rstrip("\n")] if stdout.getvalue() else []
    # Only warnings that point at the snippet: the ones a reader running it would be shown.
    lines += [f"{w.category.__name__}: {w.message}" for w in caught if w.filename == "<snippet>"]
    if error is not None:
        if type(error).__name__ != raises:
            detail = "".join(traceback.format_exception(error)).rstrip()
            expected = f"expected {raises}, " if raises else ""
            raise SnippetError(f"{expected}the snippet raised:\n{detail}") from error
        lines.append(f"{type(error).__name__}: {error}")
        return SnippetResult("\n".join(lines), type(error).__name__)
    if raises is not None:
        raise SnippetError(f"the snippet was expected to raise {raises}, and did not")
    if value is not None:
        lines.append(repr(value))
    return SnippetResult("\n".join(lines), None)


# -- The tcdoc-run directive ---------------------------------------------------------------


def fresh_namespace() -> dict[str, Any]:
    """Return the namespace a ``tcdoc-run`` snippet starts in: torch, copy and tcdoc, seeded."""
    import copy

    import torch

    torch.manual_seed(0)
    return {"__name__": "__tcdoc_run__", "copy": copy, "torch": torch, "tcdoc": tcdoc}


class RunDirective(SphinxDirective):
    """Run the content as Python in the build; show the code, then what it showed.

    A snippet that raises fails the build, unless ``:raises:`` names the exception's class.
    """

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "raises": directives.unchanged_required,
        "continue": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        docname = self.env.docname
        # The namespace of the page's last snippet, for ``:continue:``: build state, on env.
        pages = namespaces(self.env)
        if "continue" in self.options:
            if docname not in pages:
                raise self.error("tcdoc-run :continue: needs an earlier tcdoc-run snippet on this page")
            namespace = pages[docname]
        else:
            namespace = pages[docname] = fresh_namespace()
        try:
            result = run_snippet(code, namespace, raises=self.options.get("raises"))
        except (SnippetError, SyntaxError) as exc:
            raise self.error(f"tcdoc-run: {exc}") from exc
        output: list[nodes.Node] = [nodes.literal_block(code, code, language="python")]
        if result.output:
            block = nodes.literal_block(result.output, result.output, language="none")
            block["classes"].append("tcdoc-run-output")
            output.append(block)
        return output
