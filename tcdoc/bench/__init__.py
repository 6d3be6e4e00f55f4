"""What each copy costs: time and memory against tensor size, next to the machine's copy limit.

Every number comes from a run: times from :mod:`torch.utils.benchmark`, bytes from the
storage of the copy (CPU) or the CUDA caching allocator, and the limit from a plain
``dst.copy_(src)`` into memory that is already allocated, timed in the same run.
Measuring (``_measure``) is apart from the results (``_results``) and from the figures
(``_plot``, the only part that needs matplotlib, loaded when :func:`plot_time` or
:func:`plot_bandwidth` is first asked for).

Run the fuller sweep from a shell, writing JSON::

    tcdoc bench --out results.json --full

>>> import tcdoc.bench
>>> sweep = tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=0.001)
>>> cost = sweep.get("clone", 1024)
>>> cost.bytes_allocated, cost.bytes_moved
(1024, 2048)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from tcdoc.bench._measure import machine, run
from tcdoc.bench._results import (
    FULL_SIZES,
    METHODS,
    SCHEMA,
    SMALL_SIZES,
    CopyLimit,
    Cost,
    Machine,
    Sweep,
    code_of,
    format_duration,
    format_size,
)

if TYPE_CHECKING:
    from tcdoc.bench._plot import plot_bandwidth, plot_time

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
    "plot_bandwidth",
    "plot_time",
    "run",
]

# The names that need matplotlib, loaded from the plotting module on first use.
_PLOTTING = ("plot_bandwidth", "plot_time")

for _value in (CopyLimit, Cost, Machine, Sweep, code_of, format_duration, format_size, machine, run):
    _value.__module__ = __name__  # documented and pickled as tcdoc.bench.NAME

if not TYPE_CHECKING:  # type checkers read the import above instead

    def __getattr__(name: str) -> object:
        """Import matplotlib, and the plotting functions, the first time one is asked for (PEP 562)."""
        if name not in _PLOTTING:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module("tcdoc.bench._plot"), name)
        value.__module__ = __name__
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
