"""Links to the official documentation of PyTorch, Python and matplotlib names, worked out offline.

The build machines have no network, so intersphinx cannot download ``objects.inv``.
Instead, a name is resolved only if it exists in the installed torch or Python, and its
address follows the layout of the official sites.
"""

from __future__ import annotations

import builtins
import importlib
import sys
import types

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

__all__ = [
    "MATPLOTLIB_DOCS",
    "PYTHON_DOCS",
    "TORCH_DOCS",
    "official_url",
    "resolve_matplotlib",
    "resolve_official",
]

TORCH_DOCS = "https://docs.pytorch.org/docs/stable/"
PYTHON_DOCS = "https://docs.python.org/3/"

# PyTorch pages that do not follow the generated/<name>.html layout. An entry covers the name
# and, where it is a class or a module documented on one page, the names under it.
_TORCH_PAGES = {
    "torch.Tensor": "tensors.html",
    "torch.device": "tensor_attributes.html",
    "torch.dtype": "tensor_attributes.html",
    "torch.memory_format": "tensor_attributes.html",
    "torch.channels_last": "tensor_attributes.html",
    "torch.contiguous_format": "tensor_attributes.html",
    "torch.preserve_format": "tensor_attributes.html",
    "torch.multiprocessing": "multiprocessing.html",
    "torch.utils.benchmark": "benchmark_utils.html",
    "torch.nn.Parameter": "generated/torch.nn.parameter.Parameter.html",
    "torch.UntypedStorage": "storage.html",
}

# Modules whose members each have a generated page: the entry is the module's own page only.
_TORCH_MODULE_PAGES = {
    "torch.autograd": "autograd.html",
    "torch.autograd.graph": "autograd.html",
    "torch.autograd.forward_ad": "autograd.html",
    "torch.func": "func.html",
}

# Tensor attributes with no page of their own, and the official page that explains them.
_TORCH_TENSOR_ATTRIBUTE_PAGES = {
    "torch.Tensor.grad_fn": "notes/autograd.html#how-autograd-encodes-the-history",
    "torch.Tensor._version": "notes/autograd.html#in-place-correctness-checks",
}

# Python builtins documented on pages other than functions.html.
_PYTHON_BUILTIN_PAGES = {
    "str": "library/stdtypes.html",
    "dict": "library/stdtypes.html",
    "list": "library/stdtypes.html",
    "tuple": "library/stdtypes.html",
    "bytes": "library/stdtypes.html",
    "None": "library/constants.html",
    "True": "library/constants.html",
    "False": "library/constants.html",
}


def official_url(name: str) -> str | None:
    """Return the official documentation address of a PyTorch or Python name, or ``None``.

    ``None`` means the name does not exist in this torch or Python (or is not theirs).

    >>> official_url("torch.Tensor.clone")
    'https://docs.pytorch.org/docs/stable/generated/torch.Tensor.clone.html#torch.Tensor.clone'
    >>> official_url("copy.deepcopy")
    'https://docs.python.org/3/library/copy.html#copy.deepcopy'
    >>> official_url("torch.Tensor.no_such_method") is None
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    root = name.split(".")[0]
    if root == "torch":
        return _torch_url(name)
    if root in sys.stdlib_module_names or hasattr(builtins, root):
        return _python_url(name)
    return None


def _torch_url(name: str) -> str | None:
    module, attribute_path = _split(name)
    if module is None:
        return None
    if name in _TORCH_TENSOR_ATTRIBUTE_PAGES:
        return f"{TORCH_DOCS}{_TORCH_TENSOR_ATTRIBUTE_PAGES[name]}"
    if name.startswith("torch.Tensor."):
        return f"{TORCH_DOCS}generated/{name}.html#{name}"
    if name in _TORCH_MODULE_PAGES:
        return f"{TORCH_DOCS}{_TORCH_MODULE_PAGES[name]}#module-{name}"
    for prefix in _prefixes(name):
        if prefix in _TORCH_PAGES:
            return f"{TORCH_DOCS}{_TORCH_PAGES[prefix]}#{name}"
    if not attribute_path:
        return (
            f"{TORCH_DOCS}{module.removeprefix('torch.').replace('.', '_') or 'torch'}.html#module-{module}"
        )
    owner = f"{module}.{attribute_path.split('.')[0]}"
    return f"{TORCH_DOCS}generated/{owner}.html#{name}"


def _python_url(name: str) -> str | None:
    module, attribute_path = _split(name)
    if module is None:
        return None
    if module == "builtins":
        if isinstance(getattr(builtins, name.split(".")[0]), type) and issubclass(
            getattr(builtins, name.split(".")[0]), BaseException
        ):
            return f"{PYTHON_DOCS}library/exceptions.html#{name}"
        page = _PYTHON_BUILTIN_PAGES.get(name.split(".")[0], "library/functions.html")
        return f"{PYTHON_DOCS}{page}#{name}"
    anchor = name if attribute_path else f"module-{module}"
    return f"{PYTHON_DOCS}library/{module}.html#{anchor}"


def _split(name: str) -> tuple[str | None, str]:
    """Split ``name`` into its longest importable module and the attribute path after it.

    Returns ``(None, "")`` if the name does not exist.
    """
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj: object = importlib.import_module(module_name)
        except ImportError:
            continue
        if cut > 1 and _shadowed(".".join(parts[: cut - 1]), parts[cut - 1]):
            continue  # torch.nn.utils.weight_norm: the function, not the module of the same name
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return None, ""
            obj = getattr(obj, attribute)
        return module_name, ".".join(parts[cut:])
    if hasattr(builtins, parts[0]):
        obj = builtins
        for attribute in parts:
            if not hasattr(obj, attribute):
                return None, ""
            obj = getattr(obj, attribute)
        return "builtins", ".".join(parts)
    return None, ""


def _shadowed(package: str, name: str) -> bool:
    """Tell whether ``package.name`` is, as an attribute, something other than the module."""
    attribute = getattr(importlib.import_module(package), name, None)
    return attribute is not None and not isinstance(attribute, types.ModuleType)


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:cut]) for cut in range(len(parts), 0, -1)]


def resolve_official(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Link ``torch.*`` and Python names to their official pages (``missing-reference`` handler)."""
    if node.get("refdomain") != "py":
        return None
    url = official_url(node["reftarget"])
    if url is None:
        return None
    reference = nodes.reference("", "", internal=False, refuri=url, reftitle=node["reftarget"])
    reference += contnode
    return reference


# The matplotlib classes that tcdoc.draw's signatures name, and their official pages.
MATPLOTLIB_DOCS = "https://matplotlib.org/stable/api/_as_gen/"
_MATPLOTLIB_CLASSES = {
    "Axes": "matplotlib.axes.Axes",
    "matplotlib.axes.Axes": "matplotlib.axes.Axes",
    "matplotlib.axes._axes.Axes": "matplotlib.axes.Axes",  # where autodoc finds the class
    "Figure": "matplotlib.figure.Figure",
    "matplotlib.figure.Figure": "matplotlib.figure.Figure",
}


def resolve_matplotlib(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Link the matplotlib classes of :mod:`tcdoc.draw`'s signatures (``missing-reference`` handler)."""
    name = _MATPLOTLIB_CLASSES.get(node["reftarget"])
    if node.get("refdomain") != "py" or name is None:
        return None
    url = f"{MATPLOTLIB_DOCS}{name}.html#{name}"
    reference = nodes.reference("", "", internal=False, refuri=url, reftitle=name)
    reference += contnode
    return reference
