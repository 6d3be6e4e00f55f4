"""The Sphinx side of the GPU examples' gating (see :mod:`tcdoc_site.gating`).

The setting ``tcdoc_gpu_execute`` holds this build's one decision: ``docs/conf.py`` makes it with
:func:`~tcdoc_site.gating.gpu_examples_execute` (or leaves it ``None``, to be made here), and it
is checked against ``TCDOC_REQUIRE_GPU`` when the configuration is read. A build without CUDA
puts a note at the top of each GPU example page, which sphinx-gallery rendered with its code and
no output, and a build that shows output on such a page fails (output left over from an earlier
build with CUDA). The ``tcdoc-gpu-status`` directive, for the GPU gallery's header, says in
either case what this build did. The notes are translated through the site's own catalogue (``_catalog``).
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc.sphinxext._i18n import environment_words, generated
from tcdoc_site import gating
from tcdoc_site._catalog import translate as _
from tcdoc_site._gallery_guard import OUTPUT_MARKERS
from tcdoc_site._source_links import gallery_folders

__all__ = [
    "GpuStatusDirective",
    "check_config",
    "find_gpu_pages",
    "gpu_example_docs",
    "gpu_examples_run",
    "mark_gpu_pages",
]

logger = logging.getLogger(__name__)


def check_config(app: Sphinx, config: Config) -> None:
    """Decide ``tcdoc_gpu_execute`` for the build, and check it against the requirement (``config-inited``).

    Raises
    ------
    sphinx.errors.ConfigError
        For a value that is not True, False or None, a bad ``TCDOC_REQUIRE_GPU``, or GPU
        examples required (``TCDOC_REQUIRE_GPU=1``) on a build that cannot run them.

    """
    config.tcdoc_gpu_execute = _decide_gpu(config.tcdoc_gpu_execute)


def _decide_gpu(decided: object) -> bool:
    """Return whether this build runs the GPU examples; the GPU requirement is checked here."""
    try:
        required = gating.gpu_required()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if decided is None:
        decided = gating.gpu_examples_execute(required=False)
    if not isinstance(decided, bool):
        raise ConfigError(f"tcdoc_gpu_execute must be True, False or None; got {decided!r}")
    if required and not decided:
        raise ConfigError(str(gating.gpu_required_error()))
    return decided


def gpu_examples_run(config: Config) -> bool:
    """Return this build's decision, made once when the configuration was read (:func:`check_config`)."""
    return config.tcdoc_gpu_execute is True


def find_gpu_pages(app: Sphinx) -> None:
    """List the GPU example pages once per build, for :func:`mark_gpu_pages` (``builder-inited``)."""
    app.env.tcdoc_gpu_docs = gpu_example_docs(app.config, app.srcdir)  # type: ignore[attr-defined]


def gpu_example_docs(config: Config, srcdir: str | Path) -> dict[str, Path]:
    """Map the docname of each GPU example page to its script, for every gallery in the build."""
    docs: dict[str, Path] = {}
    for examples_dir, gallery_dir in gallery_folders(getattr(config, "sphinx_gallery_conf", None) or {}):
        source = Path(srcdir, examples_dir)
        if not source.is_dir():
            continue
        for script in gating.gpu_examples(source):
            docs[f"{gallery_dir}/{gating.GPU_FOLDER}/{script.stem}".replace("\\", "/")] = script
    return docs


def _shows_output(doctree: nodes.document) -> bool:
    for node in doctree.findall(nodes.Element):
        if set(OUTPUT_MARKERS).intersection(node["classes"]):
            return True
        if isinstance(node, nodes.raw) and "output_subarea" in node.astext():
            return True
    return False


def _note(text: str) -> nodes.admonition:
    note = nodes.admonition(classes=[gating.NOT_RUN_CLASS, "warning"])
    title = _("Not run in this build")
    note += nodes.title(title, title)
    note += nodes.paragraph(text, text)
    (marked,) = generated([note])
    return marked


def mark_gpu_pages(app: Sphinx, doctree: nodes.document) -> None:
    """Note a GPU example page that this build did not run (``doctree-read`` handler)."""
    if gpu_examples_run(app.config):
        return
    docname = app.env.docname
    if docname not in getattr(app.env, "tcdoc_gpu_docs", {}):
        return
    if _shows_output(doctree):
        logger.warning(
            "%s shows output, yet this build had no CUDA device and did not run it: the output is left "
            "over from an earlier build. Delete the gallery's generated folder and build again.",
            docname,
            location=docname,
            type="tcdoc",
            subtype="gpu",
        )
    section = doctree.next_node(nodes.section)
    note = _note(_(gating.NO_CUDA_NOTE).format(environment=environment_words(tcdoc.environment())))
    if section is None:
        doctree.insert(0, note)
    else:
        section.insert(1, note)  # just below the title


class GpuStatusDirective(SphinxDirective):
    """Say whether this build ran the GPU examples, and on what."""

    def run(self) -> list[nodes.Node]:
        if gpu_examples_run(self.config):
            text = _("These examples ran while this page was built, with {environment}.").format(
                environment=environment_words(tcdoc.environment("cuda"))
            )
            return generated([nodes.paragraph(text, text, classes=["tcdoc-stamp"])])
        text = _(
            "This build ({environment}) had no CUDA device, so these examples were not run: "
            "each page shows its code and no output. "
            "Download them and run them on a machine with CUDA to see the figures for your GPU."
        ).format(environment=environment_words(tcdoc.environment()))
        return [_note(text)]
