"""Sphinx directive ``tcdoc-diagram``: pictures of what copies did, drawn at build time.

``tcdoc.sphinxext`` registers it, so ``"tcdoc.sphinxext"`` in ``extensions`` is enough.
Usage in a MyST page::

    ```{tcdoc-diagram}
    :operations: clone detach detach_clone deepcopy data copy
    :scenario: leaf_requires_grad
    :columns: 2
    ```

``:operations:`` names one or more operations of :func:`tcdoc.operations` (one gives a single
large picture); ``:scenario:`` names the source tensor (default ``leaf_requires_grad``, see
:func:`tcdoc.scenarios`); ``:columns:`` sets the panels per row (default 2). Each operation is
applied to a fresh source tensor on ``tcdoc_device``, and the picture is drawn from
:func:`tcdoc.compare` by :func:`tcdoc.draw.draw_panels`. The PNG is written next to the
doctrees (never into the source tree) and copied to ``_images`` by Sphinx; its alt text is
:func:`tcdoc.draw.alt_text` of each panel. A page that uses the directive is read again when
``tcdoc/draw.py`` changes. ``tcdoc.draw``, with torch and matplotlib, is imported only when a
page uses the directive. The device comes from ``tcdoc_device``, a setting that
``tcdoc.sphinxext`` registers.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

import tcdoc

if TYPE_CHECKING:
    from tcdoc import draw

__all__ = ["DiagramDirective", "resolve_matplotlib", "setup"]


class DiagramDirective(SphinxDirective):
    """Draw one panel per operation on one scenario, as an image with alt text and a caption."""

    option_spec: ClassVar[dict[str, Any]] = {
        "operations": directives.unchanged_required,
        "scenario": directives.unchanged,
        "columns": directives.positive_int,
    }

    def run(self) -> list[nodes.Node]:
        """Return a figure node: the image, its alt text, and a caption naming x and the build."""
        from tcdoc import draw  # torch comes with it: a build that reads no such page skips both

        names = (self.options.get("operations") or "").split()
        scenario_name = self.options.get("scenario", "leaf_requires_grad")
        columns = self.options.get("columns", 2)
        device = self.env.config.tcdoc_device
        try:
            scenario = tcdoc.get_scenario(scenario_name)
            models = draw.diagrams(names, scenario, device)
        except (TypeError, ValueError) as exc:
            raise self.error(f"tcdoc-diagram: {exc}") from exc
        self.env.note_dependency(draw.__file__)
        path = self._write_png(models, columns, f"{' '.join(names)}|{scenario.name}|{device}|{columns}")
        alt = f"x is {_lower_first(scenario.summary)} " + " ".join(draw.alt_text(m) for m in models)
        image = nodes.image(uri="/" + Path(os.path.relpath(path, self.env.srcdir)).as_posix(), alt=alt)
        figure = nodes.figure("", image, classes=["tcdoc-diagram"])
        environment = tcdoc.environment(device)
        text = f"x: {scenario.summary} Drawn from measurements with {environment}."
        figure += nodes.caption(text, text)
        return [figure]

    def _write_png(self, models: tuple[draw.Diagram | draw.Failure, ...], columns: int, key: str) -> Path:
        """Render to ``<doctreedir>/tcdoc-diagrams/``; a new name per set of options."""
        from matplotlib.figure import Figure

        from tcdoc import draw

        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        folder = Path(self.env.doctreedir) / "tcdoc-diagrams"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"tcdoc-diagram-{digest}.png"
        # A Figure of its own, not pyplot's: the build must not open windows or keep figures.
        figure = draw.draw_panels(models, columns, figure=Figure())
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        figure.savefig(partial, format="png", dpi=150, transparent=True)
        os.replace(partial, path)  # parallel readers never see half a file
        return path


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


# The matplotlib classes that tcdoc.draw's signatures name, and their official pages.
MATPLOTLIB_DOCS = "https://matplotlib.org/stable/api/_as_gen/"
_MATPLOTLIB_CLASSES = {
    "Axes": "matplotlib.axes.Axes",
    "matplotlib.axes.Axes": "matplotlib.axes.Axes",
    "Figure": "matplotlib.figure.Figure",
    "matplotlib.figure.Figure": "matplotlib.figure.Figure",
}


def resolve_matplotlib(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Link the matplotlib classes of :mod:`tcdoc.draw`'s signatures (``missing-reference`` handler)."""
    name = _MATPLOTLIB_CLASSES.get(node["reftarget"])
    if node.get("refdomain") != "py" or name is None:
        return None
    url = f"{MATPLOTLIB_DOCS}{name}.html#{name}"
    reference = nodes.reference("", "", internal=False, refuri=url, reftitle=name)
    reference += contnode
    return reference


def setup(app: Sphinx) -> dict[str, Any]:
    """Register ``tcdoc-diagram`` and the links to matplotlib's classes."""
    app.add_directive("tcdoc-diagram", DiagramDirective)
    app.connect("missing-reference", resolve_matplotlib)
    return {"version": tcdoc.__version__, "parallel_read_safe": True, "parallel_write_safe": True}
