"""tcdoc: what ``clone()``, ``detach()`` and ``copy.deepcopy`` do to a PyTorch tensor, measured.

>>> import torch, tcdoc
>>> x = torch.ones(3, requires_grad=True)
>>> tcdoc.compare(x, x.detach().clone()).shares_storage
False
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from tcdoc._graph import GraphMemory, graph_memory
from tcdoc._inspect import QUESTIONS, Comparison, answers, compare, shares_memory
from tcdoc._probe import (
    SCHEMA,
    CellChange,
    Environment,
    ErrorInfo,
    Matrix,
    ProbeResult,
    WarningInfo,
    diff,
    environment,
    matrix,
    probe,
)
from tcdoc._registry import (
    Operation,
    Scenario,
    cuda_available,
    get_operation,
    get_scenario,
    operations,
    scenarios,
)

try:
    __version__ = version("tcdoc")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "QUESTIONS",
    "SCHEMA",
    "CellChange",
    "Comparison",
    "Environment",
    "ErrorInfo",
    "GraphMemory",
    "Matrix",
    "Operation",
    "ProbeResult",
    "Scenario",
    "WarningInfo",
    "__version__",
    "answers",
    "compare",
    "cuda_available",
    "diff",
    "environment",
    "get_operation",
    "get_scenario",
    "graph_memory",
    "matrix",
    "operations",
    "probe",
    "scenarios",
    "shares_memory",
]

# Document and pickle the public functions and classes under the package name, not their
# private modules.
for _name in __all__:
    if callable(globals()[_name]):
        globals()[_name].__module__ = __name__
del _name
