"""The Sphinx side of the GPU examples' gating (see :mod:`tcdoc.gating`).

A build without CUDA puts a note at the top of each GPU example
page, which sphinx-gallery rendered with its code and no output, and a build that shows output
on such a page fails (output left over from an earlier build with CUDA). The ``tcdoc-gpu-status``
directive, for the GPU gallery's header, says in either case what this build did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc import gating
from tcdoc.sphinxext._gallery_guard import OUTPUT_MARKERS
from tcdoc.sphinxext._i18n import generated
from tcdoc.sphinxext._i18n import translate as _

__all__ = ["GpuStatusDirective", "find_gpu_pages", "gpu_example_docs", "gpu_examples_run", "mark_gpu_pages"]

logger = logging.getLogger(__name__)

# The GPU example pages of each build, by source folder: found once, at builder-inited.
_GPU_DOCS: dict[str, dict[str, Path]] = {}


def gpu_examples_run(config: Config) -> bool:
    """Return this build's decision, made once when the configuration was read (``_config``)."""
    return config.tcdoc_gpu_execute is True


def find_gpu_pages(app: Sphinx) -> None:
    """List the GPU example pages once per build, for :func:`mark_gpu_pages` (``builder-inited``)."""
    _GPU_DOCS[str(app.srcdir)] = gpu_example_docs(app.config, app.srcdir)


def gpu_example_docs(config: Config, srcdir: str | Path) -> dict[str, Path]:
    """Map the docname of each GPU example page to its script, for every gallery in the build."""
    conf: dict[str, Any] = getattr(config, "sphinx_gallery_conf", None) or {}
    examples_dirs = _as_list(conf.get("examples_dirs", []))
    gallery_dirs = _as_list(conf.get("gallery_dirs", []))
    docs: dict[str, Path] = {}
    for examples_dir, gallery_dir in zip(examples_dirs, gallery_dirs, strict=False):
        source = Path(srcdir, examples_dir)
        if not source.is_dir():
            continue
        for script in gating.gpu_examples(source):
            docs[f"{gallery_dir}/{gating.GPU_FOLDER}/{script.stem}".replace("\\", "/")] = script
    return docs


def _as_list(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value]


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
    if docname not in _GPU_DOCS.get(str(app.srcdir), {}):
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
    note = _note(_(gating.NO_CUDA_NOTE).format(environment=tcdoc.environment()))
    if section is None:
        doctree.insert(0, note)
    else:
        section.insert(1, note)  # just below the title


class GpuStatusDirective(SphinxDirective):
    """Say whether this build ran the GPU examples, and on what."""

    def run(self) -> list[nodes.Node]:
        if gpu_examples_run(self.config):
            text = _("These examples ran while this page was built, with {environment}.").format(
                environment=tcdoc.environment("cuda")
            )
            return generated([nodes.paragraph(text, text, classes=["tcdoc-stamp"])])
        text = _(
            "This build ({environment}) had no CUDA device, so these examples were not run: "
            "each page shows its code and no output. "
            "Download them and run them on a machine with CUDA to see the figures for your GPU."
        ).format(environment=tcdoc.environment())
        return [_note(text)]
