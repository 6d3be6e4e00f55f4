"""Measuring: time each copy method against size, and the copy limit, in interleaved rounds.

Each method at each size is a task. Every task is timed in blocks of calls, one block per round,
and each round runs every task once, in an order shuffled with a fixed seed: a burst of load from
elsewhere on the machine hits every task alike, and two runs time the tasks in the same order.
The blocks of a task are merged into one :class:`torch.utils.benchmark.Measurement`, whose
``median`` and ``iqr`` (and quartiles, computed as it computes them) are the figures that the
results keep.

A block is timed by :class:`timeit.Timer` with the clock of :class:`torch.utils.benchmark.Timer`
(which runs on it too), called directly: ``Timer.timeit`` would add two warm-up calls to every
block, tripling the time of a block of one large copy. Instead, a block of several calls starts
with one untimed call, and a block of one call (which lasts a whole block time) with none.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import platform
import random
import sys
import timeit
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import torch
import torch.utils.benchmark

from tcdoc._compare import compare, shares_memory
from tcdoc._probe import environment
from tcdoc._registry import check_device
from tcdoc.bench._methods import LIMIT_METHOD, METHODS, SMALL_SIZES, code_of, copies_data
from tcdoc.bench._results import CopyLimit, Cost, Machine, Sweep

if sys.platform != "win32":
    import resource

__all__ = ["machine", "run"]

# torch.tensor(x) warns on every call; the warning is the lesson elsewhere, here it would only slow it down.
_COPY_CONSTRUCT_WARNING = "To copy construct from a tensor"

_DTYPE = torch.float32

MIN_BLOCKS = 5
"""The fewest timed blocks that :func:`run` accepts per method and size."""


def machine(device: str = "cpu") -> Machine:
    """Describe this machine: CPU model, torch's thread count, torch and Python versions.

    >>> import tcdoc.bench, torch
    >>> tcdoc.bench.machine().threads == torch.get_num_threads()
    True
    """
    return Machine(environment=environment(device), cpu=_cpu_model(), threads=torch.get_num_threads())


def run(
    sizes: Iterable[int] = SMALL_SIZES,
    device: str = "cpu",
    min_run_time: float = 0.1,
    methods: Iterable[str] = METHODS,
    blocks: int = 20,
    seed: int = 0,
    threads: int | None = None,
) -> Sweep:
    """Time every method on float32 tensors of each size, and the copy limit, in one run.

    Every method at every size is timed in ``blocks`` blocks of calls, in as many rounds. Each
    round times one block of every method at every size, in a shuffled order. The copy limit,
    ``out.copy_(x)`` at the largest size, is one more task of the same rounds. So it is measured
    before, between and after the methods, under the same conditions.

    Parameters
    ----------
    sizes
        Source sizes in bytes, each a positive multiple of 4 (a float32 element).
    device
        ``"cpu"`` or ``"cuda"``.
    min_run_time
        Seconds to spend timing each method at each size, at least, split evenly between its
        blocks. A block holds one call at least, so a method whose one call takes longer than
        ``min_run_time / blocks`` runs for longer than this.
    methods
        Names from :data:`METHODS`.
    blocks
        How many timed blocks (and rounds): 5 at least. Each reported time is the median of the
        blocks, with their quartiles and interquartile range.
    seed
        Seeds the shuffling of each round, so that two runs time the tasks in the same order.
    threads
        How many threads torch may use for each call (:func:`torch.set_num_threads` for the
        run, restored after it); ``None`` keeps ``torch.get_num_threads()``. On a machine with
        other work running, one thread gives steadier times: a call that splits its work
        between threads waits for the slowest of them to get a core.

    Returns
    -------
    Sweep
        One :class:`Cost` per method and size, and the :class:`CopyLimit`.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If a size is not a positive multiple of 4, a method is unknown, ``min_run_time`` is
        not positive, ``blocks`` is below 5, ``threads`` is below 1, or ``device`` is not
        ``"cpu"`` or an available ``"cuda"``.

    Examples
    --------
    >>> import tcdoc.bench
    >>> sweep = tcdoc.bench.run(sizes=[4096], methods=["clone"], min_run_time=0.001, blocks=5)
    >>> cost = sweep.get("clone", 4096)
    >>> cost.blocks, cost.bandwidth == cost.bytes_moved / cost.seconds
    (5, True)

    """
    checked_sizes = _check_sizes(sizes)
    checked_methods = _check_methods(methods)
    device = check_device(device)
    min_run_time = _check_min_run_time(min_run_time)
    blocks = _check_int("blocks", blocks, minimum=MIN_BLOCKS)
    seed = _check_int("seed", seed, minimum=0)
    threads = torch.get_num_threads() if threads is None else _check_int("threads", threads, minimum=1)
    with warnings.catch_warnings(), torch.utils.benchmark.utils.common.set_torch_threads(threads):
        warnings.filterwarnings("ignore", message=_COPY_CONSTRUCT_WARNING, category=UserWarning)
        tasks = _tasks(checked_sizes, checked_methods, device, min_run_time / blocks)
        _time_in_rounds(list(tasks.values()), blocks, seed)
        where = machine(device)
    limit_task = tasks[(LIMIT_METHOD, max(checked_sizes))]
    limit = _copy_limit(limit_task)
    costs = tuple(
        _cost(tasks[(method, nbytes)], limit)
        for method in checked_methods
        for nbytes in checked_sizes  # Sweep.methods keeps the order asked for
    )
    return Sweep(where, limit, min_run_time, blocks, seed, costs)


@dataclasses.dataclass
class _Task:
    """One method at one size: its timer, how many calls a block holds, and what it measured."""

    method: str
    nbytes: int
    timer: timeit.Timer
    spec: torch.utils.benchmark.TaskSpec
    number: int
    allocated: int
    faults: int | None  # minor page faults over the timed calls; None where they are not counted
    measurements: list[torch.utils.benchmark.Measurement] = dataclasses.field(default_factory=list)
    calls: int = 0


def _tasks(
    sizes: tuple[int, ...], methods: tuple[str, ...], device: str, block_time: float
) -> dict[tuple[str, int], _Task]:
    """Make every task, with the limit's among them, and size the blocks of each."""
    wanted = [(method, nbytes) for nbytes in sizes for method in methods]
    if (LIMIT_METHOD, max(sizes)) not in wanted:
        wanted.append((LIMIT_METHOD, max(sizes)))
    tensors = {}
    for nbytes in sizes:
        x = torch.ones(nbytes // _DTYPE.itemsize, dtype=_DTYPE, device=device)
        out = torch.zeros_like(x)  # written once, so its pages are in place before the timing
        tensors[nbytes] = {"torch": torch, "copy": copy, "x": x, "out": out}
    tasks = {}
    for method, nbytes in wanted:
        names = tensors[nbytes]
        code = code_of(method)
        timer = timeit.Timer(stmt=code, timer=_clock(device), globals=names)
        spec = torch.utils.benchmark.TaskSpec(
            stmt=code,
            setup="pass",
            sub_label=f"{nbytes} bytes",
            description=method,
            num_threads=torch.get_num_threads(),
        )
        allocated = _bytes_allocated(code, names, device)
        number = _calls_per_block(timer, block_time)  # its calls also warm the task up
        # Page faults tell where a CPU tensor's memory came from; a CUDA tensor's are not the host's.
        faults = 0 if device == "cpu" and _minor_faults() is not None else None
        tasks[(method, nbytes)] = _Task(method, nbytes, timer, spec, number, allocated, faults=faults)
    return tasks


def _clock(device: str) -> Callable[[], float]:
    """Return the clock of :class:`torch.utils.benchmark.Timer`, which waits for CUDA before it reads."""
    if device == "cpu":
        return timeit.default_timer
    timer: Callable[[], float] = torch.utils.benchmark.utils.timer.timer
    return timer


def _calls_per_block(timer: timeit.Timer, block_time: float) -> int:
    """Return how many calls make a block of about ``block_time`` seconds (one at least).

    The number grows tenfold until the calls last a quarter of the block; the fastest of three
    tries at that number sets the estimate, so that a moment of load does not shrink the blocks.
    A first call that lasts a whole block already settles it: a block is one call, and load
    could only make the call look slower, never make a block of fewer calls.
    """
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if number == 1 and elapsed >= block_time:
            return 1
        if elapsed >= block_time / 4 or number >= 10**7:
            break
        number *= 10
    elapsed = min(elapsed, timer.timeit(number), timer.timeit(number))
    return max(1, round(block_time * number / max(elapsed, 1e-9)))


def _time_in_rounds(tasks: list[_Task], rounds: int, seed: int) -> None:
    """Time one block of every task per round, in an order shuffled anew each round."""
    shuffler = random.Random(seed)
    order = list(tasks)
    for _ in range(rounds):
        shuffler.shuffle(order)
        for task in order:
            if task.number > 1:
                # One untimed call first, as torch.utils.benchmark.Timer.timeit warms up: what the
                # task before left in the allocator and the caches lands on it, not on the timed
                # calls. A block of one call lasts a whole block time, and needs none.
                task.timer.timeit(1)
            before = _minor_faults() if task.faults is not None else None
            elapsed = max(task.timer.timeit(task.number), 1e-9)
            after = _minor_faults() if task.faults is not None else None
            task.measurements.append(
                torch.utils.benchmark.Measurement(
                    number_per_run=task.number, raw_times=[elapsed], task_spec=task.spec
                )
            )
            task.calls += task.number
            if task.faults is not None and before is not None and after is not None:
                task.faults += after - before


def _copy_limit(task: _Task) -> CopyLimit:
    median, iqr, q1, q3, blocks = _summary(task)
    return CopyLimit(
        nbytes=task.nbytes,
        seconds=median,
        iqr=iqr,
        q1=q1,
        q3=q3,
        blocks=blocks,
        bandwidth=2 * task.nbytes / median,
    )


def _cost(task: _Task, limit: CopyLimit) -> Cost:
    median, iqr, q1, q3, blocks = _summary(task)
    moved = 2 * task.nbytes if copies_data(task.method) else 0
    bandwidth = moved / median
    return Cost(
        method=task.method,
        code=code_of(task.method),
        nbytes=task.nbytes,
        seconds=median,
        iqr=iqr,
        q1=q1,
        q3=q3,
        blocks=blocks,
        calls=task.calls,
        bytes_allocated=task.allocated,
        bytes_moved=moved,
        page_faults=None if task.faults is None else task.faults / task.calls,
        bandwidth=bandwidth,
        fraction_of_limit=bandwidth / limit.bandwidth,
    )


def _summary(task: _Task) -> tuple[float, float, float, float, int]:
    """Return the median, IQR, quartiles and number of a task's blocks.

    The median and the IQR are :class:`torch.utils.benchmark.Measurement`'s. It keeps the
    quartiles to itself, so they are computed as it computes them (:func:`torch.quantile` of the
    times in float64), and ``q3 - q1`` is its IQR.
    """
    (measured,) = torch.utils.benchmark.Measurement.merge(task.measurements)
    times = torch.tensor(sorted(measured.times), dtype=torch.float64)
    q1, q3 = (times.quantile(q).item() for q in (0.25, 0.75))
    return measured.median, measured.iqr, q1, q3, len(measured.times)


def _bytes_allocated(code: str, names: dict[str, Any], device: str) -> int:
    """Run ``code`` once and measure the new memory its result holds (none if it is ``out``)."""
    if device == "cuda":
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        result = eval(code, dict(names))
        torch.cuda.synchronize()
        return int(torch.cuda.memory_allocated() - before)
    result = eval(code, dict(names))
    if shares_memory(names["out"], result):
        return 0
    new_bytes = compare(names["x"], result).new_bytes
    assert new_bytes is not None  # every method timed here returns a tensor
    return new_bytes


def _minor_faults() -> int | None:
    """Return the process's minor page faults so far, or ``None`` where :mod:`resource` does not exist."""
    if sys.platform == "win32":
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


# -- Argument checks -------------------------------------------------------------------------


def _check_sizes(sizes: Iterable[int]) -> tuple[int, ...]:
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Iterable):
        raise TypeError(f"sizes must be an iterable of ints (bytes), got {type(sizes).__name__}")
    checked = tuple(sizes)
    if not checked:
        raise ValueError("sizes must hold at least one size, got none")
    for size in checked:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"sizes must hold ints (bytes), got {size!r} of type {type(size).__name__}")
        if size <= 0 or size % _DTYPE.itemsize:
            raise ValueError(f"sizes must be positive multiples of {_DTYPE.itemsize} bytes, got {size}")
    return tuple(sorted(set(checked)))


def _check_methods(methods: Iterable[str]) -> tuple[str, ...]:
    if isinstance(methods, str) or not isinstance(methods, Iterable):
        raise TypeError(f"methods must be an iterable of method names, got {type(methods).__name__}")
    checked = tuple(dict.fromkeys(methods))
    if not checked:
        raise ValueError("methods must name at least one method, got none")
    for method in checked:
        if method not in METHODS:
            raise ValueError(f"methods must be among {', '.join(METHODS)}; got {method!r}")
    return checked


def _check_min_run_time(min_run_time: float) -> float:
    if isinstance(min_run_time, bool) or not isinstance(min_run_time, (int, float)):
        raise TypeError(f"min_run_time must be a number of seconds, got {type(min_run_time).__name__}")
    if not (min_run_time > 0 and math.isfinite(min_run_time)):
        raise ValueError(f"min_run_time must be a positive number of seconds, got {min_run_time!r}")
    return float(min_run_time)


def _check_int(name: str, value: int, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be {minimum} or more, got {value}")
    return value
