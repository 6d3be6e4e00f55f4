"""tcdoc: what ``clone()``, ``detach()`` and ``copy.deepcopy`` do to a PyTorch tensor, measured.

>>> import torch, tcdoc
>>> x = torch.ones(3, requires_grad=True)
>>> tcdoc.compare(x, x.detach().clone()).shares_storage
False

The public names load on first use, and torch with them: ``import tcdoc`` alone (and the
Sphinx extension, the command's ``--help``) does not import torch, so that a docs build with
nothing to do stays fast. The names are the same either way.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from tcdoc._lazy import lazy_names

if TYPE_CHECKING:
    from tcdoc._compare import (
        QUESTIONS,
        Comparison,
        Footprint,
        StoragePart,
        answers,
        compare,
        footprint,
        shares_memory,
    )
    from tcdoc._diff import CellChange, diff
    from tcdoc._graph import GraphMemory, graph_memory
    from tcdoc._modules import (
        MODULE_QUESTIONS,
        ModuleComparison,
        ModuleOperation,
        get_module_operation,
        module_answers,
        module_operations,
    )
    from tcdoc._probe import environment, matrix, probe, probe_module
    from tcdoc._processes import ProcessWrite, StartMethods, start_methods
    from tcdoc._registry import (
        Operation,
        Scenario,
        cuda_available,
        get_operation,
        get_scenario,
        operations,
        scenarios,
    )
    from tcdoc._results import (
        GRAD_MODES,
        SCHEMA,
        Environment,
        ErrorInfo,
        Matrix,
        ModuleResult,
        NotRun,
        ProbeResult,
        WarningInfo,
    )

try:
    __version__ = version("tcdoc")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "GRAD_MODES",
    "MODULE_QUESTIONS",
    "QUESTIONS",
    "SCHEMA",
    "CellChange",
    "Comparison",
    "Environment",
    "ErrorInfo",
    "Footprint",
    "GraphMemory",
    "Matrix",
    "ModuleComparison",
    "ModuleOperation",
    "ModuleResult",
    "NotRun",
    "Operation",
    "ProbeResult",
    "ProcessWrite",
    "Scenario",
    "StartMethods",
    "StoragePart",
    "WarningInfo",
    "__version__",
    "answers",
    "compare",
    "cuda_available",
    "diff",
    "environment",
    "footprint",
    "get_module_operation",
    "get_operation",
    "get_scenario",
    "graph_memory",
    "matrix",
    "module_answers",
    "module_operations",
    "operations",
    "probe",
    "probe_module",
    "scenarios",
    "shares_memory",
    "start_methods",
]

# The private modules that define the public names.
_MODULES = (
    "tcdoc._graph",
    "tcdoc._compare",
    "tcdoc._modules",
    "tcdoc._results",
    "tcdoc._probe",
    "tcdoc._diff",
    "tcdoc._registry",
    "tcdoc._processes",
)


if not TYPE_CHECKING:  # type checkers read the imports above instead
    __getattr__, __dir__ = lazy_names(globals(), __all__, _MODULES)
