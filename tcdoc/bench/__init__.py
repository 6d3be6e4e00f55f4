"""What each copy costs: time and memory against tensor size, next to the machine's copy limit.

Every number comes from a run. Each time is the median of several timed blocks, with their
interquartile range, from :class:`torch.utils.benchmark.Measurement`. The methods and sizes are
timed in interleaved rounds, shuffled with a fixed seed. Bytes come from the storage of the copy
(CPU) or the CUDA caching allocator, and page faults from :func:`resource.getrusage`. The limit
comes from ``out.copy_(x)`` into memory that is already allocated, timed in the same rounds.

Each job has a module of its own:

- ``_methods``: the methods and sizes; ``_measure``: measuring;
- ``_results``: the results and their JSON; ``_stats``: how two times compare;
- ``_format``: writing sizes, times and tables;
- ``_findings``: the sentences that the results support;
- ``_plot``: the figures. It is the only part that needs matplotlib, loaded when
  :func:`plot_time` or :func:`plot_bandwidth` is first asked for.

Run the fuller sweep from a shell, writing JSON::

    tcdoc bench --out results.json --full

>>> import tcdoc.bench
>>> sweep = tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=0.001, blocks=5)
>>> cost = sweep.get("clone", 1024)
>>> cost.bytes_allocated, cost.bytes_moved, cost.blocks
(1024, 2048, 5)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tcdoc._lazy import lazy_names
from tcdoc.bench._findings import TOPICS, Findings, findings
from tcdoc.bench._format import Table, format_duration, format_size
from tcdoc.bench._measure import MIN_BLOCKS, machine, run
from tcdoc.bench._methods import (
    FULL_SIZES,
    LIMIT_METHOD,
    METHODS,
    SMALL_METHODS,
    SMALL_SIZES,
    code_of,
    copies_data,
)
from tcdoc.bench._results import SCHEMA, CopyLimit, Cost, Machine, Sweep, overlap

if TYPE_CHECKING:
    from tcdoc.bench._plot import plot_bandwidth, plot_time

__all__ = [
    "FULL_SIZES",
    "LIMIT_METHOD",
    "METHODS",
    "MIN_BLOCKS",
    "SCHEMA",
    "SMALL_METHODS",
    "SMALL_SIZES",
    "TOPICS",
    "CopyLimit",
    "Cost",
    "Findings",
    "Machine",
    "Sweep",
    "Table",
    "code_of",
    "copies_data",
    "findings",
    "format_duration",
    "format_size",
    "machine",
    "overlap",
    "plot_bandwidth",
    "plot_time",
    "run",
]

# The names that need matplotlib, loaded from the plotting module on first use.
_PLOTTING = ("plot_bandwidth", "plot_time")

_PUBLIC = (CopyLimit, Cost, Findings, Machine, Sweep, Table, code_of, copies_data, findings, format_duration)
for _value in (*_PUBLIC, format_size, machine, overlap, run):
    _value.__module__ = __name__  # documented and pickled as tcdoc.bench.NAME

if not TYPE_CHECKING:  # type checkers read the import above instead
    __getattr__, __dir__ = lazy_names(globals(), _PLOTTING, ["tcdoc.bench._plot"])
