"""Keep the site honest and a rebuild quick: re-run what tcdoc changes, fail on examples that did not run.

sphinx-gallery re-executes an example only when the example's own file changes. The examples
print what tcdoc measures, so a change to the tcdoc code that an example imports must re-run
that example too, or the site would show stale output. Which code that is is found statically
(:func:`tcdoc_modules`): the tcdoc modules the script imports, and those they import in turn,
read with :mod:`ast`, not by importing anything. An example whose modules are unchanged is not
run again, and nothing but tcdoc's Python code counts: editing a page, a data file or the
site's own code runs no example. Every page that uses a tcdoc directive renders what tcdoc
measures, so any change to tcdoc's Python code makes Sphinx read every page again.

sphinx-gallery caches only the examples it executes: one it leaves unexecuted on purpose (a GPU
example on a build without CUDA) is rendered again on every build, and finding the tcdoc
functions it names imports tcdoc's public names, and torch with them (over a second). This
module caches those pages too, and forgets them when the set of executed examples changes.
These hooks are registered by :mod:`tcdoc_site`.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

import tcdoc

__all__ = [
    "check_examples_ran",
    "drop_remote_scripts",
    "example_digest",
    "record_build",
    "reread_if_tcdoc_changed",
    "rerun_if_tcdoc_changed",
    "source_digest",
    "tcdoc_modules",
]

logger = logging.getLogger(__name__)

STAMP = "tcdoc-build.json"
# What sphinx-gallery writes into an example's page when a cell printed or drew something.
OUTPUT_MARKERS = ("sphx-glr-script-out", "sphx-glr-single-img", "sphx-glr-multi-img")

PACKAGE = "tcdoc"
# A string that names a module of the package ("tcdoc.draw._render"), as importlib.import_module reads it.
_MODULE_NAME = re.compile(rf"{PACKAGE}(\.[A-Za-z_]\w*)*")


def _package_dir() -> Path:
    return Path(tcdoc.__file__).parent


def source_digest(package: Path | None = None) -> str:
    """Return a SHA-256 over the Python source files of the tcdoc package (by default, the installed one).

    >>> len(source_digest())
    64
    """
    folder = _package_dir() if package is None else package
    return _digest(folder, sorted(folder.rglob("*.py")))


def _digest(package: Path, paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _module_file(name: str, package: Path) -> Path | None:
    """Return the source of the package's module ``name`` (``tcdoc.draw``), or None if it is no module."""
    parts = name.split(".")[1:]
    base = package.joinpath(*parts)
    candidates = [base / "__init__.py", *([base.with_suffix(".py")] if parts else [])]
    return next((candidate for candidate in candidates if candidate.is_file()), None)


def _imported(tree: ast.AST, module: str | None, is_package: bool) -> set[str]:
    """Every module name that the code of ``module`` (None for a script) may import, as written.

    ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a module); a relative import is
    resolved against ``module``; a string constant that is a dotted name of the package counts
    too, for ``importlib.import_module("tcdoc.draw._render")``. Imports inside functions and
    under ``if TYPE_CHECKING:`` count: what a module may import, not only what it does at once.
    """
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level and module is not None:
                parent = module.split(".") if is_package else module.split(".")[:-1]
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _MODULE_NAME.fullmatch(node.value)
        ):
            names.add(node.value)
    return {name for name in names if name == PACKAGE or name.startswith(f"{PACKAGE}.")}


def tcdoc_modules(script: Path, package: Path | None = None) -> dict[str, Path]:
    r"""Return the tcdoc modules that ``script`` imports, directly or through each other, and their files.

    Importing ``tcdoc.draw`` imports ``tcdoc`` first, so a module brings the packages above it.
    Nothing is imported: the sources are read with :mod:`ast`.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     script = Path(folder, "plot_a.py")
    ...     _ = script.write_text("import tcdoc.draw\n")
    ...     found = tcdoc_modules(script)
    >>> "tcdoc.draw" in found and "tcdoc._probe" in found, "tcdoc.sphinxext" in found
    (True, False)
    """
    folder = _package_dir() if package is None else package
    pending = _imported(ast.parse(script.read_bytes()), None, False)
    found: dict[str, Path] = {}
    while pending:
        name = pending.pop()
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):
            module = ".".join(parts[:depth])
            path = found.get(module) or _module_file(module, folder)
            if path is None or module in found:
                continue
            found[module] = path
            pending |= _imported(ast.parse(path.read_bytes()), module, path.name == "__init__.py")
    return dict(sorted(found.items()))


def example_digest(script: Path, package: Path | None = None) -> str:
    """Return a SHA-256 over the sources of the tcdoc modules that ``script`` imports (:func:`tcdoc_modules`).

    A script that imports no tcdoc module depends on none of it: its digest is that of nothing.
    """
    folder = _package_dir() if package is None else package
    return _digest(folder, sorted(tcdoc_modules(script, folder).values()))


def _stamp(app: Sphinx) -> dict[str, Any]:
    """Describe what the gallery's output depends on besides the examples: tcdoc, and which run.

    ``package``: the digest of tcdoc's Python sources, for the pages; ``examples``: each
    example's :func:`example_digest`; ``filename_pattern``: which examples the build executes.
    Worked out once per build and kept on ``env``, by the first handler that asks
    (:func:`rerun_if_tcdoc_changed`, at ``builder-inited``).
    """
    stamp: dict[str, Any] | None = getattr(app.env, "tcdoc_gallery_stamp", None)
    if stamp is None:
        conf: dict[str, Any] = app.config.sphinx_gallery_conf if "sphinx_gallery_conf" in app.config else {}
        examples = {relative.as_posix(): example_digest(script) for relative, script, _, _ in _examples(app)}
        stamp = {
            "package": source_digest(),
            "filename_pattern": conf.get("filename_pattern"),
            "examples": examples,
        }
        app.env.tcdoc_gallery_stamp = stamp  # type: ignore[attr-defined]
    return stamp


def _recorded(app: Sphinx) -> Mapping[str, Any] | None:
    """Return the stamp of the last build, or None where there was none; {} for one unreadable."""
    path = Path(app.doctreedir) / STAMP
    if not path.is_file():
        return None
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {}
    return recorded if isinstance(recorded, dict) else {}


def _examples(app: Sphinx) -> Iterator[tuple[Path, Path, Path, bool]]:
    """Yield each example the gallery renders: its path, its script, its generated copy, whether it runs.

    The path is relative to the examples folder; the copy (``.py``) lies next to its page;
    the build executes the example if its ``filename_pattern`` matches.
    """
    if "sphinx_gallery_conf" not in app.config:
        return
    conf: dict[str, Any] = app.config.sphinx_gallery_conf
    srcdir = Path(app.srcdir)
    for examples_dir, gallery_dir in zip(conf["examples_dirs"], conf["gallery_dirs"], strict=True):
        examples = (srcdir / examples_dir).resolve()
        for script in sorted(examples.rglob("*.py")):
            if re.search(conf["ignore_pattern"], str(script)):
                continue
            relative = script.relative_to(examples)
            executed = bool(re.search(conf["filename_pattern"], str(script)))
            yield relative, script, srcdir / gallery_dir / relative, executed


def reread_if_tcdoc_changed(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Mark every page outdated if tcdoc's Python code changed: its directives render what tcdoc measures.

    Connected to ``env-get-outdated``.
    """
    recorded = _recorded(app)
    if recorded is None or recorded.get("package") == _stamp(app)["package"]:
        return []
    return sorted(env.found_docs)


def rerun_if_tcdoc_changed(app: Sphinx) -> None:
    """Make sphinx-gallery re-run each example whose tcdoc code changed, or all if which run changed.

    An example runs again when the digest of the tcdoc modules it imports
    (:func:`example_digest`) differs from the last build's; every example does when the
    gallery's ``filename_pattern`` changed, so that an example that ran before and does not now
    loses its old output. sphinx-gallery skips an example whose copy matches the checksum it
    keeps beside it (``<copy>.py.md5``): removing that checksum is what re-runs it. Connected to
    ``builder-inited`` ahead of sphinx-gallery's own handler.
    """
    app.env.tcdoc_gallery_stamp = None  # type: ignore[attr-defined]  # a new build: tcdoc may have changed
    if "sphinx_gallery_conf" not in app.config:
        return
    recorded = _recorded(app)
    if recorded is None:
        return  # a first build: sphinx-gallery runs what it has not run
    stamp = _stamp(app)
    recorded_examples = recorded.get("examples")
    before: dict[str, str] = recorded_examples if isinstance(recorded_examples, dict) else {}
    now: dict[str, str] = stamp["examples"]
    everything = recorded.get("filename_pattern") != stamp["filename_pattern"] or not before
    stale = [
        (relative, copy)
        for relative, _, copy, _ in _examples(app)
        # An example new since the last build runs anyway: it has no checksum yet.
        if everything or before.get(relative.as_posix(), now[relative.as_posix()]) != now[relative.as_posix()]
    ]
    if everything:
        logger.info("which examples the build executes changed: re-running every example")
    elif stale:
        names = ", ".join(relative.as_posix() for relative, _ in stale)
        logger.info(f"the tcdoc code that these examples import changed, re-running them: {names}")
    for _, copy in stale:
        Path(f"{copy}.md5").unlink(missing_ok=True)


def check_examples_ran(app: Sphinx, exception: Exception | None) -> None:
    """Warn (an error under ``-W``) about an executed example that shows no output or took no time.

    Examples that the gallery's ``filename_pattern`` leaves unexecuted on purpose (the
    GPU examples on a build without CUDA) are not checked. Connected to ``build-finished``.
    """
    if exception is not None or "sphinx_gallery_conf" not in app.config:
        return
    for relative, _, copy, executed in _examples(app):
        problem = _problem(copy.with_suffix(".rst")) if executed else None
        if problem:
            logger.warning(f"example {relative} {problem}", type="tcdoc", subtype="gallery")


def record_build(app: Sphinx, exception: Exception | None) -> None:
    """Cache the pages of unexecuted examples, and record what this build depended on.

    sphinx-gallery skips an example whose copy matches the checksum it keeps beside it
    (``<copy>.py.md5``), and writes that checksum only for executed examples; this writes it for
    the others. The next build compares the record in :func:`rerun_if_tcdoc_changed`.
    Connected to ``build-finished``, after :func:`check_examples_ran`.
    """
    if exception is not None or "sphinx_gallery_conf" not in app.config:
        return
    # Here, not at the top: the extension works without sphinx-gallery, in a project with no gallery.
    from sphinx_gallery.utils import get_md5sum

    for _, _, copy, executed in _examples(app):
        if not executed and copy.is_file():
            Path(f"{copy}.md5").write_text(get_md5sum(copy, mode="t"), encoding="utf-8")
    stamp = json.dumps(_stamp(app), indent=1, sort_keys=True)
    (Path(app.doctreedir) / STAMP).write_text(stamp, encoding="utf-8")


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
