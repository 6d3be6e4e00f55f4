"""Measuring: time each copy method against size, and the copy limit, with :mod:`torch.utils.benchmark`."""

from __future__ import annotations

import copy
import math
import platform
import timeit
import warnings
from collections.abc import Iterable
from typing import Any

import torch
import torch.utils.benchmark

from tcdoc._compare import compare
from tcdoc._probe import environment
from tcdoc._registry import check_device
from tcdoc.bench._results import METHODS, SMALL_SIZES, CopyLimit, Cost, Machine, Sweep, code_of

__all__ = ["machine", "run"]

# torch.tensor(x) warns on every call; the warning is the lesson elsewhere, here it would only slow it down.
_COPY_CONSTRUCT_WARNING = "To copy construct from a tensor"

_DTYPE = torch.float32


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
) -> Sweep:
    """Time every method on float32 tensors of each size, and the copy limit, in one run.

    Parameters
    ----------
    sizes
        Source sizes in bytes, each a positive multiple of 4 (a float32 element).
    device
        ``"cpu"`` or ``"cuda"``.
    min_run_time
        Seconds that :meth:`torch.utils.benchmark.Timer.blocked_autorange` spends on
        each measurement, at least.
    methods
        Names from :data:`METHODS`.

    Returns
    -------
    Sweep
        One :class:`Cost` per method and size, and the :class:`CopyLimit` measured at the
        largest size (before and after the methods; the faster of the two is kept).

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If a size is not a positive multiple of 4, a method is unknown, ``min_run_time`` is
        not positive, or ``device`` is not ``"cpu"`` or an available ``"cuda"``.

    Examples
    --------
    >>> import tcdoc.bench
    >>> sweep = tcdoc.bench.run(sizes=[4096], methods=["clone"], min_run_time=0.001)
    >>> cost = sweep.get("clone", 4096)
    >>> cost.bandwidth == cost.bytes_moved / cost.seconds
    True

    """
    checked_sizes = _check_sizes(sizes)
    checked_methods = _check_methods(methods)
    device = check_device(device)
    min_run_time = _check_min_run_time(min_run_time)
    # The limit is measured before and after the methods, and the faster copy kept, so that a
    # moment when the machine was busy does not lower it.
    before = _copy_limit(max(checked_sizes), device, min_run_time)
    timed = [
        (method, nbytes, *_measure(method, nbytes, device, min_run_time))
        for nbytes in checked_sizes
        for method in checked_methods
    ]
    after = _copy_limit(max(checked_sizes), device, min_run_time)
    limit = min(before, after, key=lambda measured: measured.seconds)
    costs = tuple(_cost(*measured, limit=limit) for measured in timed)
    return Sweep(machine(device), limit, min_run_time, costs)


def _source(nbytes: int, device: str) -> torch.Tensor:
    return torch.ones(nbytes // _DTYPE.itemsize, dtype=_DTYPE, device=device)


def _timer(stmt: str, names: dict[str, Any], device: str) -> torch.utils.benchmark.Timer:
    return torch.utils.benchmark.Timer(
        stmt=stmt,
        globals={"torch": torch, "copy": copy, **names},
        # CPU work needs no device synchronisation; the default timer synchronises CUDA.
        timer=timeit.default_timer if device == "cpu" else torch.utils.benchmark.utils.timer.timer,
        num_threads=torch.get_num_threads(),
    )


def _median(timer: torch.utils.benchmark.Timer, min_run_time: float) -> tuple[float, int]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_COPY_CONSTRUCT_WARNING, category=UserWarning)
        measurement = timer.blocked_autorange(min_run_time=min_run_time)
    return measurement.median, measurement.number_per_run * len(measurement.raw_times)


def _copy_limit(nbytes: int, device: str, min_run_time: float) -> CopyLimit:
    src = _source(nbytes, device)
    dst = torch.zeros_like(src)  # written once, so its pages are in place before the timing
    seconds, _ = _median(_timer("dst.copy_(src)", {"src": src, "dst": dst}, device), min_run_time)
    return CopyLimit(nbytes=nbytes, seconds=seconds, bandwidth=2 * nbytes / seconds)


def _measure(method: str, nbytes: int, device: str, min_run_time: float) -> tuple[float, int, int]:
    """Return the median seconds, the number of calls timed and the bytes allocated."""
    code = code_of(method)
    x = _source(nbytes, device)
    allocated = _bytes_allocated(code, x, device)
    seconds, calls = _median(_timer(code, {"x": x}, device), min_run_time)
    return seconds, calls, allocated


def _cost(method: str, nbytes: int, seconds: float, calls: int, allocated: int, *, limit: CopyLimit) -> Cost:
    code = code_of(method)
    moved = 2 * allocated
    bandwidth = moved / seconds
    return Cost(
        method=method,
        code=code,
        nbytes=nbytes,
        seconds=seconds,
        calls=calls,
        bytes_allocated=allocated,
        bytes_moved=moved,
        bandwidth=bandwidth,
        fraction_of_limit=bandwidth / limit.bandwidth,
    )


def _bytes_allocated(code: str, x: torch.Tensor, device: str) -> int:
    """Run ``code`` once and measure the new memory its result holds."""
    names = {"torch": torch, "copy": copy, "x": x}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_COPY_CONSTRUCT_WARNING, category=UserWarning)
        if device == "cuda":
            torch.cuda.synchronize()
            before = torch.cuda.memory_allocated()
            result = eval(code, names)
            torch.cuda.synchronize()
            return int(torch.cuda.memory_allocated() - before)
        result = eval(code, names)
    new_bytes = compare(x, result).new_bytes
    assert new_bytes is not None  # every method timed here returns a tensor
    return new_bytes


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
