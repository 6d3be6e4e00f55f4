"""What a sweep measured, as plain immutable results: costs, the copy limit, the machine, the sweep.

Nothing here measures (:mod:`tcdoc.bench._measure` does), writes a number
(:mod:`tcdoc.bench._format` does) or holds the rule that compares two times
(:mod:`tcdoc.bench._stats` does); a :class:`Sweep` reads and writes itself as JSON. Sizes are in
bytes, times in seconds. Each time is the median of several timed blocks, with their quartiles
``q1`` and ``q3`` (the middle half of the blocks lies between them) and their interquartile range
``iqr = q3 - q1``, as :class:`torch.utils.benchmark.Measurement` computes them. A time is shown as
``median [q1, q3]``, and that spread is what :func:`tcdoc.bench.findings` compares.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tcdoc._results import Environment
from tcdoc.bench._format import Table, cost_row, format_duration, format_size, text_table
from tcdoc.bench._stats import spreads_overlap

__all__ = ["SCHEMA", "CopyLimit", "Cost", "Machine", "Sweep", "overlap"]

SCHEMA = 2
"""Version of the JSON layout written by :meth:`Sweep.to_json` (2: each time has its spread)."""


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
    """The machine's copy limit: ``out.copy_(x)`` into memory already allocated, at the largest size.

    It pays for bandwidth alone: ``out`` was allocated and written before the timing, so none
    of its pages is new. A copy that allocates its result pays for that memory too.

    Attributes
    ----------
    nbytes
        Bytes of ``x`` (and of ``out``).
    seconds
        Median time of one copy over the blocks, in seconds.
    iqr
        Interquartile range of the blocks' times, ``q3 - q1``, in seconds.
    q1, q3
        The first and third quartiles of the blocks' times, in seconds.
    blocks
        How many timed blocks the median and the quartiles are taken over.
    bandwidth
        Bytes read plus bytes written per second, at the median: ``2 * nbytes / seconds``.

    """

    nbytes: int
    seconds: float
    iqr: float
    q1: float
    q3: float
    blocks: int
    bandwidth: float

    code = "out.copy_(x)"

    @property
    def interval(self) -> tuple[float, float]:
        """``(q1, q3)``: the spread that the tables show, in seconds."""
        return self.q1, self.q3

    @property
    def bandwidth_interval(self) -> tuple[float, float]:
        """The bandwidths at ``q3`` and at ``q1`` (the lower one first), in bytes per second."""
        return 2 * self.nbytes / self.q3, 2 * self.nbytes / self.q1

    def __str__(self) -> str:
        return (
            f"copy limit {self.bandwidth / 1e9:.2f} GB/s ({self.code} of {format_size(self.nbytes)} "
            f"into memory already allocated: {format_duration(self.seconds, self.interval)}, "
            f"{self.blocks} blocks)"
        )

    def __repr__(self) -> str:
        return (
            f"CopyLimit({self.bandwidth / 1e9:.2f} GB/s: {self.code} of {format_size(self.nbytes)} into "
            f"memory already allocated, reading and writing {format_size(2 * self.nbytes)} in "
            f"{format_duration(self.seconds, self.interval)} (median [q1, q3] of {self.blocks} blocks))"
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
        Median time of one call over the blocks, in seconds (each block's time is the time of
        one call, averaged over the block).
    iqr
        Interquartile range of the blocks' times, ``q3 - q1``, in seconds.
    q1, q3
        The first and third quartiles of the blocks' times, in seconds.
    blocks
        How many timed blocks the median and the quartiles are taken over.
    calls
        How many calls were timed, over all the blocks.
    bytes_allocated
        Bytes of new memory that the result holds: storage that neither ``x`` nor ``out``
        shares (CPU), or the growth of ``torch.cuda.memory_allocated`` (CUDA).
    bytes_moved
        Bytes read plus bytes written. It is twice ``nbytes`` for a method that writes a copy of
        ``x`` (see :func:`copies_data`), since it reads every byte that it writes. It is zero for
        one that writes nothing.
    page_faults
        Minor page faults of the process per call, over the timed calls: how often the
        operating system had to hand over a new page of memory. ``None`` where they were not
        counted (on CUDA, or where Python's :mod:`resource` module does not exist).
    bandwidth
        ``bytes_moved / seconds``, in bytes per second.
    fraction_of_limit
        ``bandwidth`` as a fraction of the sweep's :class:`CopyLimit`.

    """

    method: str
    code: str
    nbytes: int
    seconds: float
    iqr: float
    q1: float
    q3: float
    blocks: int
    calls: int
    bytes_allocated: int
    bytes_moved: int
    page_faults: float | None
    bandwidth: float
    fraction_of_limit: float

    @property
    def interval(self) -> tuple[float, float]:
        """``(q1, q3)``: the spread that the tables show, in seconds."""
        return self.q1, self.q3

    @property
    def bandwidth_interval(self) -> tuple[float, float]:
        """The bandwidths at ``q3`` and at ``q1`` (the lower one first), in bytes per second."""
        return self.bytes_moved / self.q3, self.bytes_moved / self.q1


@dataclasses.dataclass(frozen=True)
class Sweep:
    """Every method's :class:`Cost` at every size, the :class:`CopyLimit` and the :class:`Machine`.

    >>> import tcdoc.bench
    >>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["detach"], min_run_time=0.001, blocks=5)
    >>> sweep.sizes, sweep.methods
    ((1024, 4096), ('detach',))
    >>> sweep.get("detach", 4096).bytes_allocated
    0
    """

    machine: Machine
    limit: CopyLimit
    min_run_time: float
    blocks: int
    seed: int
    costs: tuple[Cost, ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        """The source sizes in bytes, smallest first."""
        return tuple(sorted({cost.nbytes for cost in self.costs}))

    @property
    def methods(self) -> tuple[str, ...]:
        """The methods measured, in the order they were asked for."""
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

        The keys are the methods' code, such as ``"x.clone()"``; the factors are ratios of medians.

        >>> import tcdoc.bench
        >>> sweep = tcdoc.bench.run(sizes=[1024, 4096], methods=["detach"], min_run_time=0.001, blocks=5)
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

        A difference of medians; :func:`tcdoc.bench.findings` says whether it is beyond the noise.

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
        ``deepcopy`` adds to ``clone()`` at the smallest size. The last is given only where the
        two times' spreads do not overlap; otherwise the line says that they cost the same,
        within noise.
        """
        smallest, largest = self.sizes[0], self.sizes[-1]
        clone, deepcopy = self.get("clone", smallest), self.get("deepcopy", smallest)
        if spreads_overlap(clone, deepcopy):
            fixed = f"copy.deepcopy(x) at {format_size(smallest)}: the same as x.clone(), within noise"
        else:
            fixed = (
                f"copy.deepcopy(x) at {format_size(smallest)}: {self.deepcopy_overhead() * 1e6:.1f} µs more "
                f"than x.clone() ({deepcopy.seconds / clone.seconds:.1f} times its time)"
            )
        return (
            f"copy limit {self.limit.bandwidth / 1e9:.2f} GB/s; "
            f"x.clone() at {format_size(largest)}: {self.get('clone', largest).fraction_of_limit:.0%} of it; "
            + fixed
        )

    def as_dict(self) -> dict[str, Any]:
        """Return the sweep as plain data (what :meth:`to_json` writes)."""
        return {
            "schema": SCHEMA,
            "machine": self.machine.as_dict(),
            "limit": dataclasses.asdict(self.limit),
            "min_run_time": self.min_run_time,
            "blocks": self.blocks,
            "seed": self.seed,
            "costs": [dataclasses.asdict(cost) for cost in self.costs],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Return the sweep as JSON; :meth:`from_json` reads it back.

        Units: sizes in bytes, times (medians and IQRs) in seconds, bandwidths in bytes per second.
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
            found = data.get("schema") if isinstance(data, dict) else None
            raise ValueError(
                f"text is not a tcdoc.bench sweep with schema {SCHEMA} (found schema {found!r}); "
                "measure it again with this tcdoc"
            )
        return cls(
            machine=Machine.from_dict(data["machine"]),
            limit=CopyLimit(**data["limit"]),
            min_run_time=float(data["min_run_time"]),
            blocks=int(data["blocks"]),
            seed=int(data["seed"]),
            costs=tuple(Cost(**cost) for cost in data["costs"]),
        )

    def rows(self, methods: tuple[str, ...] | None = None) -> list[tuple[str, ...]]:
        """Return the table's rows as text, smallest size first, then methods in :attr:`methods` order.

        Parameters
        ----------
        methods
            The methods to show, in this order; every method when ``None``.

        """
        shown = self.methods if methods is None else tuple(methods)
        for method in shown:
            self.of(method)  # names a missing method
        order = {method: i for i, method in enumerate(shown)}
        return [
            cost_row(c)
            for c in sorted(
                (c for c in self.costs if c.method in order), key=lambda c: (c.nbytes, order[c.method])
            )
        ]

    def table(self, methods: tuple[str, ...] | None = None) -> Table:
        """Return the measurements of some methods as a table that displays itself (text and HTML).

        >>> import tcdoc.bench
        >>> sweep = tcdoc.bench.run(
        ...     sizes=[1024], methods=["clone", "copy_into"], blocks=5, min_run_time=0.001
        ... )
        >>> len(sweep.table(("copy_into",)).rows)
        1
        """
        return Table(caption=f"{self.machine}; {self.limit}", rows=tuple(self.rows(methods)))

    def __repr__(self) -> str:
        return f"Sweep on {self.machine}\n{self.limit}\n{text_table(self.rows())}"

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def overlap(a: Cost | CopyLimit, b: Cost | CopyLimit) -> bool:
    """Say whether two times' spreads (``[q1, q3]``) overlap: then neither is beyond the other's noise.

    >>> import tcdoc.bench
    >>> sweep = tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=0.001, blocks=5)
    >>> tcdoc.bench.overlap(sweep.get("clone", 1024), sweep.get("clone", 1024))
    True
    """
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, (Cost, CopyLimit)):
            raise TypeError(f"{name} must be a tcdoc.bench.Cost or CopyLimit, got {type(value).__name__}")
    return spreads_overlap(a, b)
