"""The build's state, kept on the build environment: the measured matrix and the snippets' namespaces.

Like ``sphinx.ext.todo`` keeps its list on ``env``, the extension keeps what one build
measured and ran on ``env.tcdoc_state`` (a :class:`BuildState`), made afresh at
``builder-inited``; nothing of it lives in a module. It holds live objects (torch tensors in a
snippet's namespace), so it is not pickled with the environment: an environment read back from
disk, or from a parallel reader, starts with an empty one, and measures again when asked.

The matrix is what takes long to measure (seconds), and it depends only on torch, Python and
tcdoc's code: it is kept as JSON beside the doctrees (``tcdoc-matrix-<device>.json``) with
those three, and a later build that reads a page again reuses it where all three are the same.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import platform
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

import tcdoc

if TYPE_CHECKING:
    from tcdoc.sphinxext._changes import History

__all__ = ["BuildState", "build_matrix", "namespaces", "purge_doc", "reset", "state"]


@dataclasses.dataclass
class BuildState:
    """What one build measured and ran: the matrix of each device, each page's snippet namespace.

    ``history`` holds the releases read from ``tcdoc_snapshots`` with their changes, read once.
    """

    matrices: dict[str, tcdoc.Matrix] = dataclasses.field(default_factory=dict)
    namespaces: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    history: History | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {}  # live objects: an unpickled environment starts with an empty state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]


def state(env: BuildEnvironment) -> BuildState:
    """Return the build's state, made on first use where ``builder-inited`` did not run (tests)."""
    found = getattr(env, "tcdoc_state", None)
    if not isinstance(found, BuildState):
        found = BuildState()
        env.tcdoc_state = found  # type: ignore[attr-defined]
    return found


def build_matrix(env: BuildEnvironment, device: str | None = None) -> tcdoc.Matrix:
    """Return the build's matrix, probed on ``tcdoc_device`` the first time a page asks for it.

    Every directive, role and claim of a build reads this one matrix. ``device`` asks for the
    matrix of another device instead (the history of releases compares CPU matrices), probed
    once too: on the CPU, where ``tcdoc_device`` is the CPU, it is the same matrix.
    """
    matrices = state(env).matrices
    device = str(env.config.tcdoc_device) if device is None else device
    if device not in matrices:
        matrices[device] = _kept_matrix(Path(env.doctreedir), device)
    return matrices[device]


def _kept_matrix(folder: Path, device: str) -> tcdoc.Matrix:
    """Return the matrix an earlier build kept in ``folder``, if measured alike; else measure and keep it."""
    path = folder / f"tcdoc-matrix-{device}.json"
    key = _matrix_key(device)
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept["key"] == key:
            return tcdoc.Matrix.from_json(kept["matrix"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none kept, or unreadable: measure
    measured = tcdoc.matrix(device=device)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"key": key, "matrix": measured.to_json()}), encoding="utf-8")
    return measured


def _matrix_key(device: str) -> dict[str, str]:
    """Return what a matrix depends on: the device, torch, Python, the platform and tcdoc's code."""
    package = Path(tcdoc.__file__).parent
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode() + b"\0" + source.read_bytes() + b"\0")
    found = tcdoc.environment(device)
    return {
        "device": f"{found.device} {found.device_name}",
        "torch": found.torch,
        "python": f"{sys.version} {platform.platform()}",
        "tcdoc": digest.hexdigest(),
    }


def namespaces(env: BuildEnvironment) -> dict[str, dict[str, Any]]:
    """Return the namespace of the last ``tcdoc-run`` snippet of each page read in this build."""
    return state(env).namespaces


def reset(app: Sphinx) -> None:
    """Start each build with a fresh state (``builder-inited``)."""
    app.env.tcdoc_state = BuildState()  # type: ignore[attr-defined]


def purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Forget what an earlier read of ``docname`` ran (``env-purge-doc``)."""
    state(env).namespaces.pop(docname, None)
