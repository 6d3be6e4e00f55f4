"""Keep the site honest and a rebuild quick: re-run what tcdoc changes, fail on examples that did not run.

sphinx-gallery re-executes an example only when the example's own file changes. The examples
print what tcdoc measures, so a change to the tcdoc code that an example imports must re-run
that example too, or the site would show stale output. Which code that is is found statically
(:func:`tcdoc_modules`): the tcdoc modules the script imports, and those they import in turn,
read with :mod:`ast`, not by importing anything. An example whose modules are unchanged is not
run again, and nothing but tcdoc's Python code counts: editing a page, a data file or the
site's own code runs no example. Every page that uses a tcdoc directive renders what tcdoc
measures, so any change to tcdoc's Python code makes Sphinx read every page again.

Nothing of that is worked out again for a file that did not change: :class:`Sources` keeps
each file's size, modification time, SHA-256 and imports between builds (``tcdoc-sources.json``
beside the doctrees), reads a file again only when its size or time changed, and parses it
again only when its bytes did. Within a build each file is read at most once.

sphinx-gallery caches only the examples it executes: one it leaves unexecuted on purpose (a GPU
example on a build without CUDA) is rendered again on every build, and finding the tcdoc
functions it names imports tcdoc's public names, and torch with them (over a second). This
module caches those pages too, and forgets them when the set of executed examples changes.
These hooks are registered by :mod:`tcdoc_site`.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import re
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

import tcdoc

__all__ = [
    "Sources",
    "check_examples_ran",
    "drop_remote_scripts",
    "example_digest",
    "forget_failed_examples",
    "record_build",
    "reread_if_tcdoc_changed",
    "rerun_if_tcdoc_changed",
    "source_digest",
    "tcdoc_modules",
]

logger = logging.getLogger(__name__)

STAMP = "tcdoc-build.json"
SOURCES = "tcdoc-sources.json"
# What sphinx-gallery writes into an example's page when a cell printed or drew something.
OUTPUT_MARKERS = ("sphx-glr-script-out", "sphx-glr-single-img", "sphx-glr-multi-img")

PACKAGE = "tcdoc"
# A string that names a module of the package ("tcdoc.draw._render"), as importlib.import_module reads it.
_MODULE_NAME = re.compile(rf"{PACKAGE}(\.[A-Za-z_]\w*)*")


def _package_dir() -> Path:
    return Path(tcdoc.__file__).parent


@dataclasses.dataclass(frozen=True)
class _Source:
    """What the guard knows of one Python file, and the stamp it was known by."""

    size: int
    mtime_ns: int
    sha256: str
    module: str | None  # the module name its relative imports were resolved against
    imports: tuple[str, ...]  # the tcdoc modules it may import (:func:`_imported`)
    checked_ns: int  # when its stamp was read


# A file whose modification time is this close to the moment its stamp was read may have
# changed again within the same tick of a coarse clock: its bytes are read again.
_RACY_NS = 2_000_000_000


class Sources:
    """Each Python file's SHA-256 and tcdoc imports, worked out once, and kept between builds.

    A file is read again only when its size or modification time differs from the stamp kept
    (or is too close to the moment that stamp was read for the clock to tell), and parsed again
    only when its bytes differ. :meth:`load` and :meth:`save` keep the stamps in a JSON file.

    >>> sources = Sources()
    >>> len(sources.digest(_package_dir(), [_package_dir() / "__init__.py"]))
    64
    """

    def __init__(self, known: Mapping[str, _Source] | None = None) -> None:
        self._known: dict[str, _Source] = dict(known or {})
        self._seen: dict[str, _Source] = {}
        self._modules: dict[Path, dict[str, Path]] = {}
        self._entries: dict[Path, bytes] = {}

    @classmethod
    def load(cls, path: Path) -> Sources:
        """Return the stamps saved in ``path``; none where it is missing, unreadable or of another form."""
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
            known = {
                name: _Source(**{**fields, "imports": tuple(fields["imports"])})
                for name, fields in saved.items()
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return cls()
        return cls(known)

    def save(self, path: Path) -> None:
        """Write the stamps of the files this build looked at into ``path``."""
        seen = {name: dataclasses.asdict(source) for name, source in sorted(self._seen.items())}
        path.write_text(json.dumps(seen, indent=1), encoding="utf-8")

    def source(self, path: Path, module: str | None, is_package: bool) -> _Source:
        """Return what is known of ``path``, whose code is the module ``module`` (None for a script)."""
        name = str(path)
        if name in self._seen:
            return self._seen[name]
        status = path.stat()
        known = self._known.get(name)
        if (
            known is not None
            and known.module == module
            and (known.size, known.mtime_ns) == (status.st_size, status.st_mtime_ns)
            and known.checked_ns - status.st_mtime_ns > _RACY_NS
        ):
            self._seen[name] = known
            return known
        data = _read(path)
        sha = hashlib.sha256(data).hexdigest()
        if known is not None and known.module == module and known.sha256 == sha:
            imports = known.imports  # touched, not changed
        else:
            imports = tuple(sorted(_imported(ast.parse(data), module, is_package)))
        found = _Source(status.st_size, status.st_mtime_ns, sha, module, imports, time.time_ns())
        self._seen[name] = found
        return found

    def modules(self, package: Path) -> dict[str, Path]:
        """Return every module of ``package`` by name (``tcdoc.draw``), with its file; looked up once."""
        if package not in self._modules:
            files = sorted(package.rglob("*.py"))
            self._modules[package] = {_module_name(path, package): path for path in files}
        return self._modules[package]

    def digest(self, package: Path, paths: Iterable[Path]) -> str:
        """Return a SHA-256 over the files ``paths`` of ``package``: their names and their bytes' SHA-256."""
        digest = hashlib.sha256()
        for path in sorted(paths):
            if path not in self._entries:
                module = _module_name(path, package)
                sha = self.source(path, module, path.name == "__init__.py").sha256
                self._entries[path] = f"{path.relative_to(package).as_posix()}\0{sha}\0".encode()
            digest.update(self._entries[path])
        return digest.hexdigest()


def _read(path: Path) -> bytes:
    """Return the bytes of ``path``: the one place the guard reads a source file."""
    return path.read_bytes()


def _module_name(path: Path, package: Path) -> str:
    """Return the module name of the package's file ``path`` (``tcdoc.draw`` for draw/__init__.py)."""
    parts = [PACKAGE, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_digest(package: Path | None = None, sources: Sources | None = None) -> str:
    """Return a SHA-256 over the Python source files of the tcdoc package (by default, the installed one).

    ``sources`` keeps what was read before (by default, nothing is).

    >>> len(source_digest())
    64
    """
    folder = _package_dir() if package is None else package
    known = sources or Sources()
    return known.digest(folder, known.modules(folder).values())


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


def tcdoc_modules(
    script: Path, package: Path | None = None, sources: Sources | None = None
) -> dict[str, Path]:
    r"""Return the tcdoc modules that ``script`` imports, directly or through each other, and their files.

    Importing ``tcdoc.draw`` imports ``tcdoc`` first, so a module brings the packages above it.
    Nothing is imported: the sources are read with :mod:`ast`, each once per ``sources``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     script = Path(folder, "plot_a.py")
    ...     _ = script.write_text("import tcdoc.draw\n")
    ...     found = tcdoc_modules(script)
    >>> "tcdoc.draw" in found and "tcdoc._probe" in found, "tcdoc.sphinxext" in found
    (True, False)
    """
    folder = _package_dir() if package is None else package
    known = sources or Sources()
    files = known.modules(folder)
    pending = set(known.source(script, None, False).imports)
    found: dict[str, Path] = {}
    while pending:
        name = pending.pop()
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):
            module = ".".join(parts[:depth])
            path = files.get(module)
            if path is None or module in found:
                continue
            found[module] = path
            pending.update(known.source(path, module, path.name == "__init__.py").imports)
    return dict(sorted(found.items()))


def example_digest(script: Path, package: Path | None = None, sources: Sources | None = None) -> str:
    """Return a SHA-256 over the sources of the tcdoc modules that ``script`` imports (:func:`tcdoc_modules`).

    A script that imports no tcdoc module depends on none of it: its digest is that of nothing.
    """
    folder = _package_dir() if package is None else package
    known = sources or Sources()
    return known.digest(folder, tcdoc_modules(script, folder, known).values())


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
        sources = _sources(app)
        examples = {
            relative.as_posix(): example_digest(script, sources=sources)
            for relative, script, _, _ in _examples(app)
        }
        stamp = {
            "package": source_digest(sources=sources),
            "filename_pattern": conf.get("filename_pattern"),
            "examples": examples,
        }
        app.env.tcdoc_gallery_stamp = stamp  # type: ignore[attr-defined]
    return stamp


# Each build's Sources, by its application: not on ``env``, which Sphinx pickles.
_SOURCES: weakref.WeakKeyDictionary[Sphinx, Sources] = weakref.WeakKeyDictionary()


def _sources(app: Sphinx) -> Sources:
    """Return this build's :class:`Sources`, loaded from what the last build saved."""
    if app not in _SOURCES:
        _SOURCES[app] = Sources.load(Path(app.doctreedir) / SOURCES)
    return _SOURCES[app]


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
    _SOURCES.pop(app, None)
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


def forget_failed_examples(app: Sphinx, exception: Exception | None) -> None:
    """Make the next build run again every example that failed in this one.

    sphinx-gallery writes the page of a failed example (its traceback in place of the output)
    but keeps the checksum of the example's last good run. An example put back as it was then
    matches that checksum, and the next build would keep the failed page. Removing the checksum
    runs it again. Connected to ``build-finished`` ahead of sphinx-gallery's summary of the
    failures, which stops the build.
    """
    if "sphinx_gallery_conf" not in app.config:
        return
    failed = {Path(script).resolve() for script in app.config.sphinx_gallery_conf.get("failing_examples", {})}
    for _, script, copy, _ in _examples(app):
        if script.resolve() in failed:
            Path(f"{copy}.md5").unlink(missing_ok=True)


def record_build(app: Sphinx, exception: Exception | None) -> None:
    """Cache the pages of unexecuted examples, and record what this build depended on.

    sphinx-gallery skips an example whose copy matches the checksum it keeps beside it
    (``<copy>.py.md5``), and writes that checksum only for executed examples; this writes it for
    the others. The next build compares the record in :func:`rerun_if_tcdoc_changed`, and
    starts from the stamps of the source files saved here (:class:`Sources`).
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
    _sources(app).save(Path(app.doctreedir) / SOURCES)


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
