"""The ``tcdoc-diagram`` directive: pictures of what copies did, drawn at build time.

Usage in a MyST page::

    ```{tcdoc-diagram}
    :operations: clone detach detach_clone deepcopy data copy
    :scenario: leaf_requires_grad
    :columns: 2
    ```

``:operations:`` names one or more operations of :func:`tcdoc.operations` (one gives a single
large picture). ``:scenario:`` names the source tensor (default ``leaf_requires_grad``, see
:func:`tcdoc.scenarios`). ``:columns:`` sets the panels per row (default 2). Each operation is
applied to a fresh source tensor on ``tcdoc_device``, and the picture is drawn from
:func:`tcdoc.compare` by :func:`tcdoc.draw.draw_panels`. The PNG is written next to the
doctrees (never into the source tree) and copied to ``_images`` by Sphinx; its alt text is
:func:`tcdoc.draw.alt_text` of each panel. Labels and alt text are in the build's language where
tcdoc has it: English or Simplified Chinese. Chinese needs a CJK font, and the build stops with
an error that says so where none is installed. A page that uses the directive is read again when
the drawing code of ``tcdoc.draw`` changes. ``tcdoc.draw``, with torch and matplotlib, is imported only when a
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
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc._locale import LANGUAGES, SENTENCE_BREAK
from tcdoc.sphinxext._i18n import environment_words, generated
from tcdoc.sphinxext._i18n import translate as _

if TYPE_CHECKING:
    from tcdoc import draw

__all__ = ["DiagramDirective"]


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
        language = drawing_language(self.env.config.language)
        key = f"{' '.join(names)}|{scenario.name}|{device}|{columns}|{language}"
        try:
            path = self._write_png(models, columns, key, language)
        except RuntimeError as exc:  # no CJK font for a Chinese picture
            raise self.error(f"tcdoc-diagram: {exc}") from exc
        summary = _(scenario.summary)
        words = [_("x is {summary}").format(summary=_lower_first(summary) if language == "en" else summary)]
        words += [draw.alt_text(m, language) for m in models]
        alt = SENTENCE_BREAK[language].join(words)
        image = nodes.image(uri="/" + Path(os.path.relpath(path, self.env.srcdir)).as_posix(), alt=alt)
        figure = nodes.figure("", image, classes=["tcdoc-diagram"])
        environment = tcdoc.environment(device)
        text = _("x: {summary} Drawn from measurements with {environment}.").format(
            summary=_(scenario.summary), environment=environment_words(environment)
        )
        figure += nodes.caption(text, text)
        return generated([figure])

    def _write_png(
        self, models: tuple[draw.Diagram | draw.Failure, ...], columns: int, key: str, language: str
    ) -> Path:
        """Render to ``<doctreedir>/tcdoc-diagrams/``; a new name per set of options."""
        from tcdoc.draw._render import save_png

        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        folder = Path(self.env.doctreedir) / "tcdoc-diagrams"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"tcdoc-diagram-{digest}.png"
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        save_png(models, columns, partial, language)
        os.replace(partial, path)  # parallel readers never see half a file
        return path


def drawing_language(language: str | None) -> str:
    """Return the language to draw in for a build's ``language``: its own where tcdoc has it, else English.

    >>> drawing_language("zh_CN"), drawing_language("fr"), drawing_language(None)
    ('zh_CN', 'en', 'en')
    """
    return language if language in LANGUAGES else "en"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
