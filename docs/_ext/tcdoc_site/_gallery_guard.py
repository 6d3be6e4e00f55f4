"""Keep the site honest and a rebuild quick: re-run what tcdoc changes, fail on examples that did not run.

sphinx-gallery re-executes an example only when the example's own file changes. The examples
print what tcdoc measures, so a change to tcdoc must re-run them too, or the site would show
stale output; likewise every page that uses a tcdoc directive.

sphinx-gallery caches only the examples it executes: one it leaves unexecuted on purpose (a GPU
example on a build without CUDA) is rendered again on every build, and finding the tcdoc
functions it names imports tcdoc's public names, and torch with them (over a second). This
module caches those pages too, and forgets them when the set of executed examples changes.
These hooks are registered by :mod:`tcdoc_site`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

import tcdoc

__all__ = [
    "check_examples_ran",
    "drop_remote_scripts",
    "record_build",
    "reread_if_tcdoc_changed",
    "rerun_if_tcdoc_changed",
    "source_digest",
]

logger = logging.getLogger(__name__)

STAMP = "tcdoc-build.json"
# What sphinx-gallery writes into an example's page when a cell printed or drew something.
OUTPUT_MARKERS = ("sphx-glr-script-out", "sphx-glr-single-img", "sphx-glr-multi-img")


def source_digest() -> str:
    """Return a SHA-256 over the source files of the installed tcdoc package.

    >>> len(source_digest())
    64
    """
    package = Path(tcdoc.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


# This build's stamp, by doctree folder: worked out once, at builder-inited (see _stamp).
_STAMPS: dict[str, str] = {}


def _stamp(app: Sphinx) -> str:
    """Describe what the gallery's output depends on besides the examples: tcdoc, and which run.

    The digest of tcdoc's sources is computed once per build, by the first handler that asks
    (:func:`rerun_if_tcdoc_changed`, at ``builder-inited``).
    """
    key = str(app.doctreedir)
    if key not in _STAMPS:
        conf: dict[str, Any] = app.config.sphinx_gallery_conf if "sphinx_gallery_conf" in app.config else {}
        _STAMPS[key] = json.dumps(
            {"tcdoc": source_digest(), "filename_pattern": conf.get("filename_pattern")}
        )
    return _STAMPS[key]


def _stamp_changed(app: Sphinx) -> bool:
    stamp = Path(app.doctreedir) / STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8") != _stamp(app)


def _examples(app: Sphinx) -> Iterator[tuple[Path, Path, bool]]:
    """Yield each example the gallery renders, with its generated copy and whether it is executed.

    The path is relative to the examples folder; the copy (``.py``) lies next to its page;
    the build executes the example if its ``filename_pattern`` matches.
    """
    conf: dict[str, Any] = app.config.sphinx_gallery_conf
    srcdir = Path(app.srcdir)
    for examples_dir, gallery_dir in zip(conf["examples_dirs"], conf["gallery_dirs"], strict=True):
        examples = (srcdir / examples_dir).resolve()
        for script in sorted(examples.rglob("*.py")):
            if re.search(conf["ignore_pattern"], str(script)):
                continue
            relative = script.relative_to(examples)
            executed = bool(re.search(conf["filename_pattern"], str(script)))
            yield relative, srcdir / gallery_dir / relative, executed


def reread_if_tcdoc_changed(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Mark every page outdated if tcdoc changed: its directives render what tcdoc measures.

    Connected to ``env-get-outdated``.
    """
    return sorted(env.found_docs) if _stamp_changed(app) else []


def rerun_if_tcdoc_changed(app: Sphinx) -> None:
    """Make sphinx-gallery re-run every example if tcdoc, or the set of executed examples, changed.

    The cached pages of unexecuted examples are forgotten too, so that an example that ran
    before and does not now loses its old output. Connected to ``builder-inited`` ahead of
    sphinx-gallery's own handler.
    """
    _STAMPS.pop(str(app.doctreedir), None)  # a new build: tcdoc's sources may have changed
    if "sphinx_gallery_conf" not in app.config:
        return
    if _stamp_changed(app):
        logger.info("tcdoc, or which examples the build executes, changed: re-running every example")
        app.config.sphinx_gallery_conf["run_stale_examples"] = True
        for _, copy, executed in _examples(app):
            if not executed:
                Path(f"{copy}.md5").unlink(missing_ok=True)


def check_examples_ran(app: Sphinx, exception: Exception | None) -> None:
    """Warn (an error under ``-W``) about an executed example that shows no output or took no time.

    Examples that the gallery's ``filename_pattern`` leaves unexecuted on purpose (the
    GPU examples on a build without CUDA) are not checked. Connected to ``build-finished``.
    """
    if exception is not None or "sphinx_gallery_conf" not in app.config:
        return
    for relative, copy, executed in _examples(app):
        problem = _problem(copy.with_suffix(".rst")) if executed else None
        if problem:
            logger.warning(f"example {relative} {problem}", type="tcdoc", subtype="gallery")


def record_build(app: Sphinx, exception: Exception | None) -> None:
    """Cache the pages of unexecuted examples, and record what this build depended on.

    sphinx-gallery skips an example whose copy matches the checksum it keeps beside it
    (``<copy>.py.md5``), and writes that checksum only for executed examples; this writes it for
    the others. The next build compares the record with :func:`rerun_if_tcdoc_changed`.
    Connected to ``build-finished``, after :func:`check_examples_ran`.
    """
    if exception is not None or "sphinx_gallery_conf" not in app.config:
        return
    # Here, not at the top: the extension works without sphinx-gallery, in a project with no gallery.
    from sphinx_gallery.utils import get_md5sum

    for _, copy, executed in _examples(app):
        if not executed and copy.is_file():
            Path(f"{copy}.md5").write_text(get_md5sum(copy, mode="t"), encoding="utf-8")
    (Path(app.doctreedir) / STAMP).write_text(_stamp(app), encoding="utf-8")


# sphinx-gallery's computation-times pages load jQuery and DataTables from CDNs to sort the table.
_REMOTE_SCRIPTS = re.compile(r"^  \.\. raw:: html\n.*?(?=^  \.\. list-table::)", re.MULTILINE | re.DOTALL)


def drop_remote_scripts(app: Sphinx, docname: str, source: list[str]) -> None:
    """Keep computation-times pages self-contained: drop the scripts they would load from CDNs.

    The table itself stays; it is only no longer sortable. Connected to ``source-read``.
    """
    if docname.rsplit("/", 1)[-1] == "sg_execution_times":
        source[0] = _REMOTE_SCRIPTS.sub("", source[0])


def _problem(page: Path) -> str | None:
    if not page.is_file():
        return f"has no generated page ({page.name})"
    if not any(marker in page.read_text(encoding="utf-8") for marker in OUTPUT_MARKERS):
        return "ran but its page shows no output"
    cost = page.with_suffix(".cost.json")
    seconds = json.loads(cost.read_text(encoding="utf-8"))["time"] if cost.is_file() else 0.0
    if seconds <= 0:
        return "shows no run time: it did not run in this or an earlier build"
    return None
