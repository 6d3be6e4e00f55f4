"""The ``tcdoc-command`` directive: the output of a ``tcdoc`` command line, run in the build."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from collections.abc import Sequence

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from tcdoc.cli import main

__all__ = ["CommandDirective", "run_command"]


class CommandDirective(SphinxDirective):
    """Run ``tcdoc ARGS`` in the build and show what it printed and its exit status."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        argv = shlex.split(self.arguments[0])
        status, output = run_command(argv)
        text = f"$ tcdoc {shlex.join(argv)}\n{output.rstrip()}"
        if status:
            text += f"\n[exit status {status}]"
        block = nodes.literal_block(text, text, language="console")
        return [block]


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """Run the ``tcdoc`` command in this process; return its exit status and output."""
    buffer = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps help text to this width
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            try:
                status = main(argv)
            except SystemExit as exc:  # --help and argparse's own errors exit
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return status, buffer.getvalue()
