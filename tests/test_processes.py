"""tcdoc.start_methods: a worker's in-place write and the parent's tensor, under each start method.

The expectations come from a snippet of this file's own: a worker started with
``multiprocessing``'s context of each start method, whose target is ``exec`` of one line of torch
(importable anywhere, so that ``"spawn"`` needs nothing of tcdoc).
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.multiprocessing

import tcdoc
import tcdoc._processes as processes

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")


def independent(method: str, kind: str, passed: str) -> bool:
    """Hand ``torch.zeros(3)`` (shared if ``kind`` says so) to a worker that adds one: did it reach us?"""
    context = torch.multiprocessing.get_context(method)
    tensor = torch.zeros(3)
    if kind == "shared":
        tensor.share_memory_()  # type: ignore[no-untyped-call]
    queue = context.Queue()
    if passed == "argument":
        worker = context.Process(target=exec, args=("t.add_(1)", {"t": tensor}))  # type: ignore[attr-defined]
    else:
        worker = context.Process(target=exec, args=("q.get().add_(1)", {"q": queue}))  # type: ignore[attr-defined]
    worker.start()
    if passed == "queue":
        queue.put(tensor)
    worker.join(120)
    alive = worker.is_alive()
    if alive:
        worker.kill()
    queue.close()
    queue.join_thread()
    assert not alive
    assert worker.exitcode == 0
    return bool(torch.equal(tensor, torch.ones(3)))


@pytest.fixture(scope="module")
def measured() -> tcdoc.StartMethods:
    return tcdoc.start_methods()


@pytest.mark.parametrize("method", ["fork", "spawn"])
@pytest.mark.parametrize("kind", processes.KINDS)
@pytest.mark.parametrize("passed", processes.PASSED)
def test_agrees_with_an_independent_worker(
    measured: tcdoc.StartMethods, method: str, kind: str, passed: str
) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} here")
    expected = independent(method, kind, passed)
    assert measured.get(method, kind, passed).parent_sees_write is expected


def test_measures_every_start_method_of_the_platform(measured: tcdoc.StartMethods) -> None:
    assert measured.methods == tuple(multiprocessing.get_all_start_methods())
    assert len(measured.writes) == len(measured.methods) * len(processes.KINDS) * len(processes.PASSED)
    assert set(measured.seconds) == set(measured.methods)


def test_moved_and_shared_say_what_happened_to_the_parents_tensor(measured: tcdoc.StartMethods) -> None:
    plain = torch.zeros(3)
    pointer = plain.data_ptr()
    plain.share_memory_()  # type: ignore[no-untyped-call]
    moves = plain.data_ptr() != pointer  # moving into shared memory gives new memory
    for write in measured.writes:
        assert write.moved is (moves and write.tensor == "ordinary" and write.shared_after)
        if write.parent_sees_write:
            assert write.shared_after  # only shared memory carries a write back


def test_the_default_is_pythons_for_this_platform(measured: tcdoc.StartMethods) -> None:
    assert measured.default == multiprocessing.get_all_start_methods()[0]
    assert tcdoc.start_methods().chosen == multiprocessing.get_start_method(allow_none=True)
    assert f"default start method is {measured.default!r}" in str(measured)
    assert f"{measured.default} (default)" in measured._repr_html_()


def test_the_table_shows_each_answer(measured: tcdoc.StartMethods) -> None:
    text = str(measured)
    for tensor, passed, seen in measured.rows():
        line = next(line for line in text.splitlines() if line.split()[:2] == [tensor, passed])
        assert line.split()[2:] == ["yes" if s else "no" for s in seen]


def test_get_names_what_was_measured(measured: tcdoc.StartMethods) -> None:
    with pytest.raises(KeyError, match="measured: start methods"):
        measured.get("teleport", "ordinary", "argument")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"timeout": "1"}, TypeError),
        ({"timeout": 0}, ValueError),
        ({"timeout": True}, TypeError),
        ({"fresh": 1}, TypeError),
    ],
)
def test_checks_its_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        tcdoc.start_methods(**kwargs)


class Spy:
    """Record the processes that ``subprocess.Popen`` starts."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.started: list[subprocess.Popen[str]] = []
        real = subprocess.Popen

        def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[str]:
            process: subprocess.Popen[str] = real(*args, **kwargs)
            self.started.append(process)
            return process

        monkeypatch.setattr(subprocess, "Popen", popen)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_measures_once_per_process_unless_asked(
    measured: tcdoc.StartMethods, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    assert tcdoc.start_methods().writes == measured.writes
    assert spy.started == []


def test_leaves_no_process_behind_and_the_start_method_unchosen(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    chosen = multiprocessing.get_start_method(allow_none=True)
    multiprocessing.set_start_method(None, force=True)  # as in a process that starts no worker
    try:
        assert tcdoc.start_methods(fresh=True).chosen is None
        assert multiprocessing.get_start_method(allow_none=True) is None  # still not chosen
    finally:
        multiprocessing.set_start_method(chosen, force=True)
    (process,) = spy.started
    assert process.returncode == 0
    assert not group_alive(process.pid)  # the measuring process, its workers, forkserver, tracker
    assert multiprocessing.active_children() == []


def test_a_measurement_past_its_timeout_fails_and_leaves_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    with pytest.raises(RuntimeError, match="not measured within"):
        tcdoc.start_methods(timeout=0.05, fresh=True)
    (process,) = spy.started
    assert process.returncode is not None
    assert not group_alive(process.pid)


def sleep_forever(*args: object) -> None:
    import time

    time.sleep(600)


def test_a_worker_past_its_timeout_is_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "add_one", sleep_forever)  # a forked worker sees this too
    with pytest.raises(RuntimeError, match="did not finish"):
        processes.measure_here(["fork"], timeout=0.5)
    assert multiprocessing.active_children() == []


def test_measuring_here_ends_its_workers() -> None:
    writes, seconds, pids = processes.measure_here(["fork"])
    assert [w.start_method for w in writes] == ["fork"] * 4
    assert list(seconds) == ["fork"]
    assert multiprocessing.active_children() == []
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped: not a child of ours any more


# -- A temporary folder too long for multiprocessing's sockets ---------------------------------


def long_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make TMPDIR a folder of 120 characters or more, as a clone at a long path gets in CI."""
    folder = tmp_path / ("t" * max(1, 121 - len(str(tmp_path))))
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    assert tempfile.gettempdir() == str(folder)
    assert len(str(folder)) >= 120
    return folder


def own_folders() -> set[str]:
    base = Path(processes._short_temp_base())
    return {path.name for path in base.glob("tcdoc-*")}


def test_measures_under_a_temporary_folder_too_long_for_sockets(
    measured: tcdoc.StartMethods, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = long_temporary_folder(tmp_path, monkeypatch)
    # A socket's path there would not fit: what the forkserver stopped with (issue 33).
    assert len(f"{folder}/pymp-12345678/listener-12345678") >= processes._SOCKET_PATH_MAX
    before = own_folders()
    found = tcdoc.start_methods(fresh=True)
    assert found.writes == measured.writes
    assert set(found.methods) == set(multiprocessing.get_all_start_methods())
    assert own_folders() <= before  # its short temporary folder is gone again
    assert list(folder.iterdir()) == []


def test_without_a_short_enough_folder_it_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_temporary_folder(tmp_path, monkeypatch)
    monkeypatch.setattr(processes, "_SHORT_FOLDERS", (str(tmp_path / "missing"),))
    with pytest.raises(RuntimeError, match=r"set TMPDIR to a folder of at most \d+ characters$") as error:
        tcdoc.start_methods(fresh=True)
    assert "\n" not in str(error.value)
