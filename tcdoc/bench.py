"""What each copy costs: time and memory against tensor size, next to the machine's copy limit.

Every number comes from a run: times from :mod:`torch.utils.benchmark`, bytes from the
storage of the copy (CPU) or the CUDA caching allocator, and the limit from a plain
``dst.copy_(src)`` into memory that is already allocated, timed in the same run.

Run the fuller sweep from a shell, writing JSON::

    python -m tcdoc.bench --out results.json --full

>>> import tcdoc.bench
>>> sweep = tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=0.001)
>>> cost = sweep.get("clone", 1024)
>>> cost.bytes_allocated, cost.bytes_moved
(1024, 2048)
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import platform
import timeit
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import torch
import torch.utils.benchmark

from tcdoc._inspect import compare
from tcdoc._registry import cuda_available, get_operation

__all__ = [
    "FULL_SIZES",
    "METHODS",
    "SCHEMA",
    "SMALL_SIZES",
    "CopyLimit",
    "Cost",
    "Machine",
    "Sweep",
    "code_of",
    "format_duration",
    "format_size",
    "machine",
    "main",
    "run",
]

SCHEMA = 1
"""Version of the JSON layout written by :meth:`Sweep.to_json`."""

KIB = 1024
MIB = 1024 * KIB

FULL_SIZES: tuple[int, ...] = tuple(KIB * 4**k for k in range(10))
"""The fuller sweep's sizes in bytes, from 1 KiB to 256 MiB in steps of four times."""

SMALL_SIZES: tuple[int, ...] = (KIB, 64 * KIB, 4 * MIB, 64 * MIB)
"""The quick sweep's sizes in bytes (1 KiB, 64 KiB, 4 MiB, 64 MiB), which the documentation runs."""

METHODS: tuple[str, ...] = (
    "detach",
    "clone",
    "detach_clone",
    "deepcopy",
    "empty_like_copy",
    "torch_tensor",
    "to_copy",
)
"""The methods measured, by name. All but ``empty_like_copy`` are operations of tcdoc's registry."""

# The one method that the registry does not list (it states no fact about sharing that clone() does not).
_EXTRA_CODE = {"empty_like_copy": "torch.empty_like(x).copy_(x)"}

# torch.tensor(x) warns on every call; the warning is the lesson elsewhere, here it would only slow it down.
_COPY_CONSTRUCT_WARNING = "To copy construct from a tensor"

_DTYPE = torch.float32


def code_of(method: str) -> str:
    """Return the code a reader would write for ``method``, with the tensor called ``x``.

    >>> import tcdoc.bench
    >>> tcdoc.bench.code_of("empty_like_copy")
    'torch.empty_like(x).copy_(x)'
    >>> tcdoc.bench.code_of("deepcopy")
    'copy.deepcopy(x)'
    """
    if method in _EXTRA_CODE:
        return _EXTRA_CODE[method]
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    return get_operation(method).code


# -- Results ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Machine:
    """Where a sweep ran.

    Attributes
    ----------
    cpu
        The CPU model, from ``/proc/cpuinfo`` where it exists.
    threads
        ``torch.get_num_threads()``: the threads each measurement used.
    torch
        ``torch.__version__``.
    python
        The Python version.
    device
        ``"cpu"`` or ``"cuda"``.
    device_name
        The CUDA device's name, or the CPU model.

    """

    cpu: str
    threads: int
    torch: str
    python: str
    device: str
    device_name: str

    def __repr__(self) -> str:
        width = max(len(field.name) for field in dataclasses.fields(self))
        lines = [f"  {name:<{width}}  {value!r}" for name, value in dataclasses.asdict(self).items()]
        return "Machine(\n" + "\n".join(lines) + "\n)"

    def __str__(self) -> str:
        where = self.cpu if self.device == "cpu" else f"{self.device_name} (host CPU: {self.cpu})"
        return f"{where}, {self.threads} threads, torch {self.torch}, Python {self.python}"


@dataclasses.dataclass(frozen=True)
class CopyLimit:
    """The machine's copy bandwidth: a plain ``dst.copy_(src)`` into memory already allocated.

    Attributes
    ----------
    nbytes
        Bytes of ``src`` (and of ``dst``).
    seconds
        Median time of one copy, in seconds.
    bandwidth
        Bytes read plus bytes written per second: ``2 * nbytes / seconds``.

    """

    nbytes: int
    seconds: float
    bandwidth: float

    def __str__(self) -> str:
        return (
            f"copy limit {self.bandwidth / 1e9:.2f} GB/s "
            f"(dst.copy_(src) of {format_size(self.nbytes)} in {format_duration(self.seconds)})"
        )

    def __repr__(self) -> str:
        return (
            f"CopyLimit({self.bandwidth / 1e9:.2f} GB/s: dst.copy_(src) of {format_size(self.nbytes)} "
            f"in {format_duration(self.seconds)}, reading and writing {format_size(2 * self.nbytes)})"
        )


@dataclasses.dataclass(frozen=True)
class Cost:
    """What one method cost on one tensor size.

    Attributes
    ----------
    method
        The method's name (see :data:`METHODS`).
    code
        The statement that was timed, with the tensor called ``x``.
    nbytes
        Bytes of the source tensor ``x``.
    seconds
        Median time of one call, in seconds.
    calls
        How many calls the median was taken over.
    bytes_allocated
        Bytes of new memory that the result holds: storage that ``x`` does not share
        (CPU), or the growth of ``torch.cuda.memory_allocated`` (CUDA).
    bytes_moved
        Bytes read plus bytes written: twice ``bytes_allocated``, since a copy reads every
        byte that it writes. Zero for a method that allocates nothing.
    bandwidth
        ``bytes_moved / seconds``, in bytes per second.
    fraction_of_limit
        ``bandwidth`` as a fraction of the sweep's :class:`CopyLimit`.

    """

    method: str
    code: str
    nbytes: int
    seconds: float
    calls: int
    bytes_allocated: int
    bytes_moved: int
    bandwidth: float
    fraction_of_limit: float


_COLUMNS = ("size", "method", "median time", "allocated", "bandwidth", "of limit")


@dataclasses.dataclass(frozen=True)
class Sweep:
    """Every method's :class:`Cost` at every size, the :class:`CopyLimit` and the :class:`Machine`.

    >>> import tcdoc.bench
    >>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["detach"], min_run_time=0.001)
    >>> sweep.sizes, sweep.methods
    ((1024, 4096), ('detach',))
    >>> sweep.get("detach", 4096).bytes_allocated
    0
    """

    machine: Machine
    limit: CopyLimit
    min_run_time: float
    costs: tuple[Cost, ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        """The source sizes in bytes, smallest first."""
        return tuple(sorted({cost.nbytes for cost in self.costs}))

    @property
    def methods(self) -> tuple[str, ...]:
        """The methods measured, in the order they ran."""
        return tuple(dict.fromkeys(cost.method for cost in self.costs))

    def get(self, method: str, nbytes: int) -> Cost:
        """Return the :class:`Cost` of ``method`` at size ``nbytes``.

        Raises
        ------
        ValueError
            If the sweep did not measure that method at that size.

        """
        for cost in self.costs:
            if cost.method == method and cost.nbytes == nbytes:
                return cost
        raise ValueError(
            f"this sweep has no measurement of {method!r} at nbytes={nbytes!r}; "
            f"methods: {', '.join(self.methods)}; sizes: {', '.join(map(str, self.sizes))}"
        )

    def of(self, method: str) -> tuple[Cost, ...]:
        """Return the costs of one method, smallest size first."""
        costs = tuple(sorted((c for c in self.costs if c.method == method), key=lambda c: c.nbytes))
        if not costs:
            raise ValueError(f"method must be one of {', '.join(self.methods)}; got {method!r}")
        return costs

    def growth(self) -> dict[str, float]:
        """Return how many times longer each method took at the largest size than at the smallest.

        The keys are the methods' code, such as ``"x.clone()"``.

        >>> import tcdoc.bench
        >>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["detach"], min_run_time=0.001)
        >>> list(sweep.growth())
        ['x.detach()']
        """
        smallest, largest = self.sizes[0], self.sizes[-1]
        return {
            self.get(m, smallest).code: self.get(m, largest).seconds / self.get(m, smallest).seconds
            for m in self.methods
        }

    def deepcopy_overhead(self) -> float:
        """Return the seconds that ``copy.deepcopy(x)`` took beyond ``x.clone()`` at the smallest size.

        Raises
        ------
        ValueError
            If the sweep did not measure both methods.

        """
        smallest = self.sizes[0]
        return self.get("deepcopy", smallest).seconds - self.get("clone", smallest).seconds

    def headline(self) -> str:
        """Return this run's three headline figures in one line.

        They are the copy limit, ``clone()``'s share of it at the largest size, and what
        ``deepcopy`` adds to ``clone()`` at the smallest size.
        """
        smallest, largest = self.sizes[0], self.sizes[-1]
        clone, deepcopy = self.get("clone", smallest), self.get("deepcopy", smallest)
        return (
            f"copy limit {self.limit.bandwidth / 1e9:.2f} GB/s; "
            f"x.clone() at {format_size(largest)}: {self.get('clone', largest).fraction_of_limit:.0%} of it; "
            f"copy.deepcopy(x) at {format_size(smallest)}: {self.deepcopy_overhead() * 1e6:.1f} µs more "
            f"than x.clone() ({deepcopy.seconds / clone.seconds:.1f} times its time)"
        )

    def as_dict(self) -> dict[str, Any]:
        """Return the sweep as plain data (what :meth:`to_json` writes)."""
        return {
            "schema": SCHEMA,
            "machine": dataclasses.asdict(self.machine),
            "limit": dataclasses.asdict(self.limit),
            "min_run_time": self.min_run_time,
            "costs": [dataclasses.asdict(cost) for cost in self.costs],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Return the sweep as JSON; :meth:`from_json` reads it back.

        Units: sizes in bytes, times in seconds, bandwidths in bytes per second.
        """
        return json.dumps(self.as_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> Sweep:
        """Read a sweep written by :meth:`to_json`.

        Raises
        ------
        ValueError
            If ``text`` is not JSON of this layout (``schema`` other than :data:`SCHEMA`).

        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ValueError(f"text is not a tcdoc.bench sweep with schema {SCHEMA}")
        return cls(
            machine=Machine(**data["machine"]),
            limit=CopyLimit(**data["limit"]),
            min_run_time=float(data["min_run_time"]),
            costs=tuple(Cost(**cost) for cost in data["costs"]),
        )

    def rows(self) -> list[tuple[str, ...]]:
        """Return the table's rows as text, smallest size first, methods in the order they ran."""
        order = {method: i for i, method in enumerate(self.methods)}
        return [
            (
                format_size(c.nbytes),
                c.code,
                format_duration(c.seconds),
                format_size(c.bytes_allocated),
                f"{c.bandwidth / 1e9:.2f} GB/s",
                f"{c.fraction_of_limit:.0%}",
            )
            for c in sorted(self.costs, key=lambda c: (c.nbytes, order[c.method]))
        ]

    def __repr__(self) -> str:
        rows = [_COLUMNS, *self.rows()]
        widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
        lines = [
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows
        ]
        return f"Sweep on {self.machine}\n{self.limit}\n" + "\n".join(line.rstrip() for line in lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{column}</th>" for column in _COLUMNS)
        body = "".join(
            "<tr>" + "".join(f"<td>{_html_escape(cell)}</td>" for cell in row) + "</tr>"
            for row in self.rows()
        )
        caption = _html_escape(f"{self.machine}; {self.limit}")
        return (
            f'<table class="tcdoc-bench"><caption>{caption}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )


# -- Measuring -------------------------------------------------------------------------------


def machine(device: str = "cpu") -> Machine:
    """Describe this machine: CPU model, torch's thread count, torch and Python versions.

    >>> import tcdoc.bench, torch
    >>> tcdoc.bench.machine().threads == torch.get_num_threads()
    True
    """
    device = _check_device(device)
    cpu = _cpu_model()
    return Machine(
        cpu=cpu,
        threads=torch.get_num_threads(),
        torch=torch.__version__,
        python=platform.python_version(),
        device=device,
        device_name=torch.cuda.get_device_name() if device == "cuda" else cpu,
    )


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
    device = _check_device(device)
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
    return compare(x, result).new_bytes


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


def _check_device(device: str) -> str:
    if not isinstance(device, str):
        raise TypeError(f"device must be a str, got {type(device).__name__}")
    if device not in ("cpu", "cuda"):
        raise ValueError(f'device must be "cpu" or "cuda", got {device!r}')
    if device == "cuda" and not cuda_available():
        raise ValueError('device="cuda" needs CUDA, and this torch has no CUDA device')
    return device


def _check_min_run_time(min_run_time: float) -> float:
    if isinstance(min_run_time, bool) or not isinstance(min_run_time, (int, float)):
        raise TypeError(f"min_run_time must be a number of seconds, got {type(min_run_time).__name__}")
    if not (min_run_time > 0 and math.isfinite(min_run_time)):
        raise ValueError(f"min_run_time must be a positive number of seconds, got {min_run_time!r}")
    return float(min_run_time)


# -- Formatting (public: the example and the figures write sizes the same way) ---------------


def format_size(nbytes: int) -> str:
    """Write a number of bytes in binary units, as the tables and figures do.

    >>> import tcdoc.bench
    >>> tcdoc.bench.format_size(65536), tcdoc.bench.format_size(100)
    ('64 KiB', '100 B')
    """
    for unit, scale in (("GiB", 1024**3), ("MiB", MIB), ("KiB", KIB)):
        if nbytes >= scale:
            return f"{nbytes / scale:g} {unit}"
    return f"{nbytes} B"


def format_duration(seconds: float) -> str:
    """Write a time in seconds with a unit that keeps it readable, to three digits.

    >>> import tcdoc.bench
    >>> tcdoc.bench.format_duration(0.0000123)
    '12.3 µs'
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- Command line ----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run a sweep, print its table and write it as JSON: ``python -m tcdoc.bench --out FILE``."""
    parser = argparse.ArgumentParser(
        prog="python -m tcdoc.bench", description="Measure what each tensor copy costs against size."
    )
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON results")
    parser.add_argument(
        "--full", action="store_true", help="sweep 1 KiB to 256 MiB (default: the docs' small sweep)"
    )
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--min-run-time", type=float, default=None, help="seconds per measurement")
    args = parser.parse_args(argv)
    min_run_time = args.min_run_time if args.min_run_time is not None else (0.5 if args.full else 0.1)
    sweep = run(sizes=FULL_SIZES if args.full else SMALL_SIZES, device=args.device, min_run_time=min_run_time)
    args.out.write_text(sweep.to_json() + "\n", encoding="utf-8")
    print(repr(sweep))
    if {"clone", "deepcopy"} <= set(sweep.methods):
        print(sweep.headline())
    print(f"Wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
