"""What a sweep measured, as plain immutable results: costs, the copy limit, the machine, the sweep.

Nothing here measures; :mod:`tcdoc.bench._measure` does. Sizes are in bytes, times in seconds.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tcdoc._probe import Environment
from tcdoc._registry import get_operation

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
    """Where a sweep ran: the :class:`tcdoc.Environment` that stamps every fact, and the CPU.

    Attributes
    ----------
    environment
        The torch, Python and device, as :func:`tcdoc.environment` describes them.
    cpu
        The CPU model, from ``/proc/cpuinfo`` where it exists.
    threads
        ``torch.get_num_threads()``: the threads each measurement used.

    """

    environment: Environment
    cpu: str
    threads: int

    @property
    def torch(self) -> str:
        """``torch.__version__``."""
        return self.environment.torch

    @property
    def python(self) -> str:
        """The Python version."""
        return self.environment.python

    @property
    def device(self) -> str:
        """``"cpu"`` or ``"cuda"``."""
        return self.environment.device

    @property
    def device_name(self) -> str:
        """The CUDA device's name, or the CPU model."""
        return self.cpu if self.device == "cpu" else self.environment.device_name

    def as_dict(self) -> dict[str, Any]:
        """Return the machine as flat plain data, as :meth:`Sweep.to_json` writes it."""
        return {
            "cpu": self.cpu,
            "threads": self.threads,
            "torch": self.torch,
            "python": self.python,
            "device": self.device,
            "device_name": self.environment.device_name,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Machine:
        """Read what :meth:`as_dict` wrote."""
        environment = Environment(
            torch=str(data["torch"]),
            device=str(data["device"]),
            device_name=str(data["device_name"]),
            python=str(data["python"]),
        )
        return cls(environment=environment, cpu=str(data["cpu"]), threads=int(data["threads"]))

    def __repr__(self) -> str:
        data = self.as_dict()
        width = max(map(len, data))
        lines = [f"  {name:<{width}}  {value!r}" for name, value in data.items()]
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
            "machine": self.machine.as_dict(),
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
            machine=Machine.from_dict(data["machine"]),
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
