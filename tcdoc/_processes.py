"""What a worker process's in-place write does to the parent's tensor, under each start method.

:func:`start_methods` hands an ordinary tensor (``torch.zeros(3)``) and a tensor in shared
memory (``torch.zeros(3).share_memory_()``) to a worker process, once as an argument of the
:class:`~multiprocessing.Process` and once through a :mod:`torch.multiprocessing` queue; the
worker adds one to each, in place, and the parent looks at its own tensors afterwards. It does
so under every start method the platform has (``"fork"``, ``"spawn"``, ``"forkserver"``).

The workers are started by a fresh Python process of their own (``sys.executable``), not by
the caller: a ``"spawn"`` or ``"forkserver"`` worker imports the parent's ``__main__`` script
again, which would run a caller's unguarded script (a gallery example, a notebook's kernel) a
second time. The measuring process starts one worker per start method, all at once, and waits
for each with a timeout; it, its workers and anything they started (a forkserver, the
resource tracker) are ended before :func:`start_methods` returns, however it returns.

Importing torch takes the longest: the measuring process starts the forkserver first, which
imports torch while the measuring process does, so that its worker is forked with torch
loaded; the ``"spawn"`` worker imports it once, and the ``"fork"`` worker not at all.

multiprocessing puts its sockets (the forkserver's, and those that pass a tensor's memory
through a queue) in a folder of the temporary folder, and a socket's path holds at most 108
bytes on Linux (104 elsewhere): under a long ``TMPDIR`` it stops with ``OSError: AF_UNIX path
too long``. The measuring process gets a short temporary folder of its own instead, which
:func:`start_methods` creates and removes (:func:`_short_temp_base` says where).
"""

from __future__ import annotations

import dataclasses
import html
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

__all__ = ["KINDS", "PASSED", "ProcessWrite", "StartMethods", "start_methods"]

KINDS = ("ordinary", "shared")
"""The tensors handed to a worker: ``torch.zeros(3)``, and the same moved into shared memory first."""

PASSED = ("argument", "queue")
"""How a worker gets its tensor: as an argument of ``Process``, or from a ``torch.multiprocessing`` queue."""

TIMEOUT = 120.0
"""Seconds :func:`start_methods` waits for its measurement, by default."""


@dataclasses.dataclass(frozen=True)
class ProcessWrite:
    """What the parent saw after a worker added one, in place, to the tensor it was handed.

    Attributes
    ----------
    start_method
        ``"fork"``, ``"spawn"`` or ``"forkserver"``.
    tensor
        ``"ordinary"`` (``torch.zeros(3)``) or ``"shared"`` (``torch.zeros(3)``, then
        ``share_memory_()``, before it was handed over).
    passed
        ``"argument"`` (``Process(target=..., args=(tensor,))``) or ``"queue"`` (``queue.put(tensor)``
        in the parent, ``queue.get()`` in the worker).
    parent_sees_write
        The parent's tensor holds the worker's ones afterwards.
    shared_after
        The parent's tensor is in shared memory afterwards (``is_shared()``).
    moved
        Handing the tensor over moved the parent's tensor to new memory: its data pointer changed.

    """

    start_method: str
    tensor: str
    passed: str
    parent_sees_write: bool
    shared_after: bool
    moved: bool


@dataclasses.dataclass(frozen=True)
class StartMethods:
    """What a worker's in-place write did to the parent's tensor, under each start method.

    Attributes
    ----------
    default
        The start method Python uses on this platform when none is chosen. It is the first of
        :func:`multiprocessing.get_all_start_methods`: ``"fork"`` on Linux before Python
        3.14, ``"forkserver"`` from 3.14, ``"spawn"`` on macOS and Windows.
    chosen
        The start method this process chose with :func:`multiprocessing.set_start_method`,
        or ``None`` where it chose none, so that ``default`` applies
        (``multiprocessing.get_start_method(allow_none=True)``, read when measured).
    writes
        One :class:`ProcessWrite` per start method, tensor and way of passing it. They come by
        start method in the order of :func:`multiprocessing.get_all_start_methods`. Then the
        ordinary tensor comes before the shared one, and the argument before the queue.
    seconds
        How long each start method's worker took, from its start to its end, by start method.

    """

    default: str
    chosen: str | None
    writes: tuple[ProcessWrite, ...]
    seconds: dict[str, float] = dataclasses.field(compare=False)

    @property
    def methods(self) -> tuple[str, ...]:
        """The start methods measured, in the order of :func:`multiprocessing.get_all_start_methods`."""
        return tuple(dict.fromkeys(write.start_method for write in self.writes))

    def get(self, start_method: str, tensor: str, passed: str) -> ProcessWrite:
        """Return the write measured under ``start_method`` for ``tensor`` passed as ``passed``.

        Raises
        ------
        KeyError
            If nothing was measured for that combination (a start method the platform lacks).

        """
        for write in self.writes:
            if (write.start_method, write.tensor, write.passed) == (start_method, tensor, passed):
                return write
        raise KeyError(
            f"nothing measured for start method {start_method!r}, tensor {tensor!r}, passed {passed!r}; "
            f"measured: start methods {list(self.methods)}, tensors {list(KINDS)}, passed {list(PASSED)}"
        )

    def rows(self) -> Iterator[tuple[str, str, list[bool]]]:
        """Yield ``(tensor, passed, [parent_sees_write under each of methods])``, one per row."""
        for tensor in KINDS:
            for passed in PASSED:
                yield tensor, passed, [self.get(m, tensor, passed).parent_sees_write for m in self.methods]

    def _headings(self) -> list[str]:
        return ["tensor", "passed as", *(self._method_heading(method) for method in self.methods)]

    def _method_heading(self, method: str) -> str:
        return f"{method} (default)" if method == self.default else method

    def __str__(self) -> str:
        from tcdoc._cells import cell

        table = [self._headings(), *([t, p, *map(cell, seen)] for t, p, seen in self.rows())]
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines = [
            "  ".join(text.ljust(width) for text, width in zip(row, widths, strict=True)) for row in table
        ]
        return "\n".join(
            [
                "Does the parent see the worker's in-place write?",
                *(line.rstrip() for line in lines),
                self._default_sentence(),
            ]
        )

    def _default_sentence(self) -> str:
        if self.chosen is None or self.chosen == self.default:
            return f"This platform's default start method is {self.default!r}."
        return (
            f"This platform's default start method is {self.default!r}; this process chose {self.chosen!r}."
        )

    def _repr_html_(self) -> str:
        from tcdoc._cells import cell

        head = "".join(f"<th>{html.escape(text)}</th>" for text in self._headings())
        body = "".join(
            "<tr>"
            + f"<td>{html.escape(tensor)}</td><td>{html.escape(passed)}</td>"
            + "".join(f"<td>{cell(value)}</td>" for value in seen)
            + "</tr>"
            for tensor, passed, seen in self.rows()
        )
        return (
            '<table class="tcdoc-table tcdoc-start-methods">'
            "<caption>Does the parent see the worker's in-place write?</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"<p>{html.escape(self._default_sentence())}</p>"
        )


def platform_default() -> str:
    """Return the start method Python uses here when none is chosen, changing nothing.

    Python lists the default first in :func:`multiprocessing.get_all_start_methods`;
    :func:`multiprocessing.get_start_method` without ``allow_none=True`` would also fix the
    process's start method, which this does not.
    """
    return multiprocessing.get_all_start_methods()[0]


_MEASURED: dict[str, tuple[tuple[ProcessWrite, ...], dict[str, float]]] = {}


def start_methods(*, timeout: float = TIMEOUT, fresh: bool = False) -> StartMethods:
    """Measure whether a worker's in-place write reaches the parent, under each start method.

    For each start method of :func:`multiprocessing.get_all_start_methods`, one worker gets
    four tensors of zeros. An ordinary one and one in shared memory are arguments of its
    :class:`~multiprocessing.Process`; another two of each kind come through a
    :mod:`torch.multiprocessing` queue. It adds one to each, in place, and exits; then the
    parent reads its own tensors. The workers are started by a fresh Python process (see the
    module's notes). So nothing of the caller's script runs again, and the caller's own start
    method is left as it was.

    Spawning a Python that imports torch takes a second or two, so the writes are measured
    once per process and kept. What a start method does to a tensor cannot change while a
    process runs. ``fresh=True`` measures again. ``default`` and ``chosen`` are read on every call.

    Parameters
    ----------
    timeout
        Seconds to wait for the whole measurement before ending every process it started.
    fresh
        Measure again, even if this process measured before.

    Returns
    -------
    StartMethods
        One :class:`ProcessWrite` per start method, tensor and way of passing it.

    Raises
    ------
    TypeError
        If ``timeout`` is not a number or ``fresh`` not a bool.
    ValueError
        If ``timeout`` is not positive.
    RuntimeError
        If a worker failed or did not finish within ``timeout`` seconds.

    Examples
    --------
    >>> import tcdoc
    >>> found = tcdoc.start_methods()
    >>> found.get("fork", "ordinary", "argument").parent_sees_write  # the child's copy changed
    False
    >>> found.get("fork", "shared", "argument").parent_sees_write
    True

    """
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, got {type(timeout).__name__}")
    if not timeout > 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    if not isinstance(fresh, bool):
        raise TypeError(f"fresh must be a bool, got {type(fresh).__name__}")
    if fresh or "writes" not in _MEASURED:
        _MEASURED["writes"] = _measure_in_fresh_process(float(timeout))
    writes, seconds = _MEASURED["writes"]
    chosen = multiprocessing.get_start_method(allow_none=True)
    return StartMethods(platform_default(), chosen, writes, dict(seconds))


# -- The measuring process --------------------------------------------------------------------


# The measuring process's program: this very tcdoc (where the caller found it on a sys.path of
# its own, put its folder first), then _main. Its workers inherit its sys.path.
_BOOT = """\
import importlib.util, os, sys
package = sys.argv[1]
spec = importlib.util.find_spec("tcdoc")
if spec is None or not spec.origin or not os.path.samefile(spec.origin, package):
    sys.path.insert(0, os.path.dirname(os.path.dirname(package)))
import tcdoc._processes
tcdoc._processes._main(float(sys.argv[2]))
"""


# The longest path of an AF_UNIX socket, its closing NUL included (``sun_path``).
_SOCKET_PATH_MAX = 108 if sys.platform.startswith("linux") else 104
# What multiprocessing adds to the temporary folder for a socket's path: "/pymp-XXXXXXXX" (its
# own folder) and "/listener-XXXXXXXX", and the closing NUL; and what tcdoc adds, "/tcdoc-XXXXXXXX".
_SOCKET_SUFFIX = len("/pymp-12345678/listener-12345678") + 1
_OWN_FOLDER = len("/tcdoc-12345678")
# Where a Unix keeps temporary files, if TMPDIR's folder is too long: tempfile's own candidates.
_SHORT_FOLDERS = ("/tmp", "/var/tmp", "/usr/tmp")


def _short_temp_base() -> str:
    """Return a folder to make the measuring process's temporary folder in, short enough for sockets.

    The temporary folder (``TMPDIR``) where it is short enough, or else the first of /tmp,
    /var/tmp and /usr/tmp that is a folder one can write in.

    Raises
    ------
    RuntimeError
        If none is: with what to do.

    """
    longest = _SOCKET_PATH_MAX - _SOCKET_SUFFIX - _OWN_FOLDER
    for folder in (tempfile.gettempdir(), *_SHORT_FOLDERS):
        if (
            len(os.fsencode(folder)) <= longest
            and os.path.isdir(folder)
            and os.access(folder, os.W_OK | os.X_OK)
        ):
            return folder
    raise RuntimeError(
        f"the temporary folder {tempfile.gettempdir()!r} is too long for multiprocessing's sockets, and "
        f"none of {', '.join(_SHORT_FOLDERS)} can be written: set TMPDIR to a folder of at most "
        f"{longest} characters"
    )


def _measure_in_fresh_process(timeout: float) -> tuple[tuple[ProcessWrite, ...], dict[str, float]]:
    """Run :func:`_main` in a new Python, in a process group of its own, and read its JSON.

    Its temporary folder (``TMPDIR``) is a short one of its own, removed afterwards.
    """
    package = str(Path(__file__).resolve().parent / "__init__.py")
    command = [sys.executable, "-c", _BOOT, package, repr(timeout)]
    posix = hasattr(os, "killpg")
    env = dict(os.environ)
    folder = None
    if posix:  # pragma: no branch - Windows has no AF_UNIX sockets to keep short
        folder = tempfile.mkdtemp(prefix="tcdoc-", dir=_short_temp_base())
        env["TMPDIR"] = folder
    try:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=posix,
            env=env,
        )
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"the start methods were not measured within {timeout:g} s") from None
        finally:
            _end(process, posix)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    if process.returncode != 0:
        raise RuntimeError(f"measuring the start methods failed:\n{err.strip()}")
    found = json.loads(out.strip().splitlines()[-1])  # the last line: anything printed before is not ours
    writes = tuple(ProcessWrite(**write) for write in found["writes"])
    return writes, {str(k): float(v) for k, v in found["seconds"].items()}


def _end(process: subprocess.Popen[str], posix: bool) -> None:
    """End ``process`` and, on POSIX, every process left in its group (it leads one of its own)."""
    if process.poll() is None:
        process.kill()
        process.communicate()
    if not posix:  # pragma: no cover - Windows has no process groups to end
        return
    deadline = time.monotonic() + 5.0
    while _group_alive(process.pid):
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            break
        time.sleep(0.02)


def _group_alive(pgid: int) -> bool:
    """Tell whether any process is left in the process group ``pgid``."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a process of another user took the number
        return False
    return True


def _main(timeout: float) -> None:
    """Measure here, in the measuring process, and print the result as JSON."""
    _start_forkserver()
    writes, seconds, _ = measure_here(timeout=timeout)
    print(json.dumps({"writes": [dataclasses.asdict(w) for w in writes], "seconds": seconds}))


def _start_forkserver() -> None:
    """Start the forkserver now, importing torch and the worker's code, if this platform has one.

    It imports them while this process imports torch, rather than each worker after it, and
    forks its workers with them loaded. Only for the measuring process: the forkserver's preload
    list is the whole process's.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
        return
    from multiprocessing import forkserver

    forkserver.set_forkserver_preload(["torch", "torch.multiprocessing", __name__])
    forkserver.ensure_running()


def measure_here(
    methods: Sequence[str] | None = None, timeout: float = TIMEOUT
) -> tuple[tuple[ProcessWrite, ...], dict[str, float], list[int]]:
    """Start one worker per start method from this process, and return what the parent saw.

    Also returns the workers' process ids, all ended when this returns. :func:`start_methods`
    calls this in a fresh process; calling it in another one starts its workers from there.
    """
    import torch
    import torch.multiprocessing

    chosen = list(multiprocessing.get_all_start_methods() if methods is None else methods)
    runs = []
    try:
        for method in chosen:
            context: Any = torch.multiprocessing.get_context(method)  # a concrete context
            given = {kind: _tensor(kind) for kind in KINDS}
            sent = {kind: _tensor(kind) for kind in KINDS}
            queue = context.Queue()
            handed = (("argument", given), ("queue", sent))
            before = {(kind, passed): t.data_ptr() for passed, ts in handed for kind, t in ts.items()}
            args = (given["ordinary"], given["shared"], queue)
            worker = context.Process(target=add_one, args=args, daemon=True)
            started = time.perf_counter()
            worker.start()
            runs.append((method, worker, queue, given, sent, before, started))
        # Every worker starts before the first put starts a queue's feeder thread: a process
        # forks a "fork" worker (and its forkserver) while it still runs one thread only.
        for _, _worker, queue, _given, sent, *_rest in runs:
            for kind in KINDS:
                queue.put(sent[kind])
        return _collect(runs, timeout)
    finally:
        for _, worker, queue, *_rest in runs:
            _stop(worker, queue)


def _collect(runs: list[Any], timeout: float) -> tuple[tuple[ProcessWrite, ...], dict[str, float], list[int]]:
    seconds = _wait_for_all(runs, timeout)
    writes = []
    for method, worker, _queue, given, sent, before, _started in runs:
        worker.join()
        if worker.exitcode != 0:
            raise RuntimeError(f"the {method!r} worker failed with exit code {worker.exitcode}")
        for kind in KINDS:
            for passed, tensors in (("argument", given), ("queue", sent)):
                tensor = tensors[kind]
                writes.append(
                    ProcessWrite(
                        start_method=method,
                        tensor=kind,
                        passed=passed,
                        parent_sees_write=bool(tensor.eq(1).all()),
                        shared_after=bool(tensor.is_shared()),
                        moved=tensor.data_ptr() != before[kind, passed],
                    )
                )
    return tuple(writes), seconds, [worker.pid for _, worker, *_rest in runs]


def _wait_for_all(runs: list[Any], timeout: float) -> dict[str, float]:
    """Wait for every worker, each as it ends, and return how long each ran, by start method."""
    from multiprocessing.connection import wait

    deadline = time.monotonic() + timeout
    pending = {run[1].sentinel: run for run in runs}
    ended: dict[str, float] = {}
    while pending:
        ready = wait(list(pending), max(0.0, deadline - time.monotonic()))
        if not ready:
            late = ", ".join(repr(run[0]) for run in pending.values())
            raise RuntimeError(f"the {late} worker did not finish within {timeout:g} s")
        for sentinel in ready:
            method, *_rest, started = pending.pop(sentinel)
            ended[method] = round(time.perf_counter() - started, 3)
    return {run[0]: ended[run[0]] for run in runs}


def _tensor(kind: str) -> Any:
    import torch

    tensor = torch.zeros(3)
    return tensor.share_memory_() if kind == "shared" else tensor  # type: ignore[no-untyped-call]


def _stop(worker: Any, queue: Any) -> None:
    """End ``worker`` if it still runs, and close ``queue``."""
    if worker.is_alive():
        worker.terminate()
        worker.join(5)
    if worker.is_alive():  # pragma: no cover - a worker that ignored SIGTERM
        worker.kill()
        worker.join(5)
    queue.close()
    queue.join_thread()


def add_one(ordinary: Any, shared: Any, queue: Any) -> None:
    """Add one, in place, to the two tensors given and the two received: the worker."""
    ordinary.add_(1)
    shared.add_(1)
    for _ in KINDS:
        queue.get(timeout=TIMEOUT).add_(1)
