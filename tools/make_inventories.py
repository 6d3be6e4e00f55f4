"""Write the intersphinx inventories of the PyTorch, Python, NumPy and matplotlib names that the site uses.

The build machines have no network, so Sphinx cannot download the official ``objects.inv`` files.
Instead, this script collects every PyTorch, Python, NumPy and matplotlib name that the site refers to,
checks that it exists in the installed torch, Python, NumPy or matplotlib, works out its address on
the official site, and writes one inventory per project into ``docs/_inventories``. The
``intersphinx_mapping`` of ``docs/conf.py`` reads them, so both the cross-references of the pages
and sphinx-gallery's links in example code resolve offline.

The names come from

- the cross-reference roles of the pages, the examples' text and tcdoc's docstrings
  (``{py:meth}`x.clone() <torch.Tensor.clone>```, ``:func:`copy.deepcopy```);
- the type annotations of tcdoc's code, which autodoc links;
- the examples' code: every dotted name reached through an import (``torch.randn``,
  ``copy.deepcopy``, ``fwAD.make_dual``), and every attribute of a tensor or a module that the
  code uses (``x.clone()`` makes ``torch.Tensor.clone``);
- every builtin of Python, which NumPy-style docstrings name freely (``ValueError``, ``None``).

Run it after an example or a page starts to use a new name (``python -m nox -s inventories``)
and commit the result: ``tests/test_inventories.py`` fails while the committed inventories differ
from what this script writes.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import importlib
import inspect
import re
import sys
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import sphobjinv

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "_inventories"

TORCH_DOCS = "https://docs.pytorch.org/docs/stable/"
PYTHON_DOCS = "https://docs.python.org/3/"
MATPLOTLIB_DOCS = "https://matplotlib.org/stable/"
NUMPY_DOCS = "https://numpy.org/doc/stable/"

# -- Where the official sites document a name ------------------------------------------------

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

# The page of each module that the site names; a module not listed gets no link.
_TORCH_MODULE_PAGES = {
    "torch": "torch.html",
    "torch.nn": "nn.html",
    "torch.cuda": "cuda.html",
    "torch.multiprocessing": "multiprocessing.html",
    "torch.utils.benchmark": "benchmark_utils.html",
    "torch.autograd": "autograd.html",
    "torch.autograd.graph": "autograd.html",
    "torch.autograd.forward_ad": "autograd.html",
    "torch.func": "func.html",
}

# Tensor attributes documented on pages other than generated/torch.Tensor.<name>.html.
_TORCH_TENSOR_ATTRIBUTE_PAGES = {
    "torch.Tensor.grad_fn": "notes/autograd.html#how-autograd-encodes-the-history",
    "torch.Tensor._version": "notes/autograd.html#in-place-correctness-checks",
    "torch.Tensor.dtype": "tensor_attributes.html#torch.dtype",
    "torch.Tensor.T": "tensors.html#torch.Tensor.T",
    "torch.Tensor.H": "tensors.html#torch.Tensor.H",
    "torch.Tensor.mT": "tensors.html#torch.Tensor.mT",
    "torch.Tensor.mH": "tensors.html#torch.Tensor.mH",
}

# Tensor attributes that PyTorch's reference (docs/source/tensors.md) does not document: no link.
_TORCH_TENSOR_UNDOCUMENTED = {"data", "index", "name", "put"}

# Python builtins documented on pages other than functions.html.
_PYTHON_BUILTIN_PAGES = {
    "str": "library/stdtypes.html",
    "dict": "library/stdtypes.html",
    "list": "library/stdtypes.html",
    "tuple": "library/stdtypes.html",
    "bytes": "library/stdtypes.html",
    "bytearray": "library/stdtypes.html",
    "set": "library/stdtypes.html",
    "frozenset": "library/stdtypes.html",
    "range": "library/stdtypes.html",
    "memoryview": "library/stdtypes.html",
    "None": "library/constants.html",
    "True": "library/constants.html",
    "False": "library/constants.html",
    "Ellipsis": "library/constants.html",
    "NotImplemented": "library/constants.html",
}


def official_url(name: str) -> str | None:
    """Return the official documentation address of a PyTorch, Python or matplotlib name, or ``None``.

    ``None`` means the name does not exist in the installed torch, Python or matplotlib, or is
    not theirs, or has no page of its own.

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
    if root == "matplotlib":
        return _matplotlib_url(name)
    if root == "numpy":
        return _numpy_url(name)
    if root in sys.stdlib_module_names or hasattr(builtins, root):
        return _python_url(name)
    return None


def _torch_url(name: str) -> str | None:
    module, attribute_path = _split(name)
    if module is None or not _is_torchs_own(name):
        return None
    if not attribute_path:
        page = _TORCH_MODULE_PAGES.get(name)
        return f"{TORCH_DOCS}{page}#module-{name}" if page else None
    if name in _TORCH_TENSOR_ATTRIBUTE_PAGES:
        return f"{TORCH_DOCS}{_TORCH_TENSOR_ATTRIBUTE_PAGES[name]}"
    if name.startswith("torch.Tensor."):
        if name.removeprefix("torch.Tensor.") in _TORCH_TENSOR_UNDOCUMENTED:
            return None
        return f"{TORCH_DOCS}generated/{name}.html#{name}"
    if isinstance(_object(name), _torch_dtype()):
        return f"{TORCH_DOCS}tensor_attributes.html#torch.dtype"
    for prefix in _prefixes(name):
        if prefix in _TORCH_PAGES:
            return f"{TORCH_DOCS}{_TORCH_PAGES[prefix]}#{name}"
    owner = f"{module}.{attribute_path.split('.')[0]}"
    return f"{TORCH_DOCS}generated/{owner}.html#{name}"


def _python_url(name: str) -> str | None:
    module, attribute_path = _split(name)
    if module is None:
        return None
    if module == "builtins":
        value = getattr(builtins, name.split(".")[0])
        if isinstance(value, type) and issubclass(value, BaseException):
            return f"{PYTHON_DOCS}library/exceptions.html#{name}"
        page = _PYTHON_BUILTIN_PAGES.get(name.split(".")[0], "library/functions.html")
        return f"{PYTHON_DOCS}{page}#{name}"
    anchor = name if attribute_path else f"module-{module}"
    return f"{PYTHON_DOCS}library/{module}.html#{anchor}"


def _matplotlib_url(name: str) -> str | None:
    """Address a matplotlib name under its public name (``matplotlib.axes.Axes``, not ``._axes.``)."""
    if _split(name)[0] is None:
        return None
    public = re.sub(r"\._[a-z]\w*", "", name)  # matplotlib.axes._axes.Axes -> matplotlib.axes.Axes
    if _object(public) is not _object(name):
        return None
    return f"{MATPLOTLIB_DOCS}api/_as_gen/{public}.html#{public}"


def _numpy_url(name: str) -> str | None:
    """Address a NumPy function, class or method; its modules get no link."""
    module, attribute_path = _split(name)
    if module is None or not attribute_path:
        return None
    return f"{NUMPY_DOCS}reference/generated/{name}.html#{name}"


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


def _object(name: str) -> object:
    """Return the object a name stands for; the name must exist (see :func:`_split`)."""
    module, attribute_path = _split(name)
    if module is None:
        return None
    obj: object = builtins if module == "builtins" else importlib.import_module(module)
    for attribute in filter(None, attribute_path.split(".")):
        obj = getattr(obj, attribute)
    return obj


def _torch_dtype() -> type:
    import torch

    return torch.dtype


def _is_torchs_own(name: str) -> bool:
    """Tell whether a ``torch.*`` name is PyTorch's own, not a re-export from the standard library.

    ``torch.multiprocessing.get_context`` is Python's, and PyTorch documents no page for it.
    """
    defined_in = getattr(_object(name), "__module__", None)
    return not isinstance(defined_in, str) or defined_in.split(".")[0] == "torch"


# -- What kind of object a name is -----------------------------------------------------------


def role(name: str) -> str:
    """Return the inventory role of an existing name: ``py:class``, ``py:method``, ``py:data``...

    The Python domain matches roles to kinds, so ``{py:func}`` finds a function and ``{py:class}``
    a class: the inventory says what the object is, as the official inventories do.

    >>> role("torch.Tensor.clone"), role("torch.no_grad"), role("copy.deepcopy"), role("None")
    ('py:method', 'py:class', 'py:function', 'py:data')
    """
    obj = _object(name)
    owner = _object(name.rpartition(".")[0]) if "." in name else builtins
    if isinstance(obj, types.ModuleType):
        return "py:module"
    if isinstance(obj, type):
        return "py:exception" if issubclass(obj, BaseException) else "py:class"
    if isinstance(owner, type):
        attribute = inspect.getattr_static(owner, name.rpartition(".")[2])
        if isinstance(attribute, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
            return "py:attribute"
        if callable(attribute) or isinstance(attribute, (classmethod, staticmethod)):
            return "py:method"
        return "py:attribute"
    if inspect.isroutine(obj) or isinstance(obj, types.MethodType):
        return "py:function"
    return "py:data"


# -- Which names the site uses ---------------------------------------------------------------

# The roles of reST (":func:`copy.deepcopy`") and MyST ("{py:func}`copy.deepcopy`").
_ROLE = re.compile(r"(?::py|\{py)?:?(?:func|meth|class|attr|mod|obj|exc|data)[:}]`([^`]+)`")
_TARGET = re.compile(r"<([^<>]+)>$")

# The objects whose attributes the examples' code reaches through a variable (``x.clone()``):
# sphinx-gallery links those attributes through the variable's type. Private attributes only
# where listed.
INSTANCE_CLASSES = {"torch.Tensor": {"_version"}, "torch.nn.Module": set()}


def names_in_roles(text: str) -> set[str]:
    """Return the targets of the cross-reference roles in a page, a docstring or a comment.

    >>> sorted(names_in_roles("{py:meth}`x.clone() <torch.Tensor.clone>` and :func:`~copy.deepcopy`"))
    ['copy.deepcopy', 'torch.Tensor.clone']
    """
    found = set()
    for written in _ROLE.findall(text):
        target = _TARGET.search(written.strip())
        found.add((target.group(1) if target else written).strip().lstrip("~!"))
    return found


def names_in_code(source: str) -> set[str]:
    r"""Return the dotted names that a script reaches through its imports, and its instance attributes.

    >>> sorted(names_in_code("import torch\nx = torch.randn(2)\ny = x.clone()"))
    ['torch.Tensor.clone', 'torch.randn']
    """
    tree = ast.parse(source)
    imported = _imports(tree)
    found = set()
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for dotted in _whole_chains(tree):
        root, _, rest = dotted.partition(".")
        if root in imported:
            longest = _longest_existing(f"{imported[root]}.{rest}".rstrip("."))
            if longest is not None:
                found.add(longest)
    for class_name, private in INSTANCE_CLASSES.items():
        cls = _object(class_name)
        found.update(
            f"{class_name}.{attribute}"
            for attribute in attributes
            if (not attribute.startswith("_") or attribute in private) and hasattr(cls, attribute)
        )
    return found


def names_in_annotations(source: str) -> set[str]:
    r"""Return the dotted names that a module's type annotations use, through its imports.

    >>> sorted(names_in_annotations("from pathlib import Path\ndef f(p: Path | None) -> int: ..."))
    ['int', 'pathlib.Path']
    """
    tree = ast.parse(source)
    imported = _imports(tree)
    found = set()
    for annotation in _annotations(tree):
        # An annotation written as a string ("Axes | None") is an expression too.
        for expression in [annotation, *_string_annotations(annotation)]:
            for dotted in _whole_chains(expression):
                root, _, rest = dotted.partition(".")
                full = f"{imported[root]}.{rest}".rstrip(".") if root in imported else dotted
                if _split(full)[0] is not None:
                    found.add(full)
    return found


def _imports(tree: ast.Module) -> dict[str, str]:
    """Map each name that a module's imports bind to the module or object it stands for."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    root = alias.name.split(".")[0]
                    bound[root] = root
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _annotations(tree: ast.Module) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            yield from (a.annotation for a in every if a.annotation is not None)
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation
    for node in tree.body:
        # A type alias (Edge = Literal["kept", "cut"]), which autodoc shows spelled out.
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Subscript, ast.BinOp)):
            yield node.value


def _string_annotations(annotation: ast.expr) -> Iterator[ast.expr]:
    """Yield the expressions written as strings inside an annotation ("Axes | None")."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                yield ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue  # a Literal's value, not a type


def _whole_chains(tree: ast.AST) -> Iterator[str]:
    """Yield each name and attribute chain of a tree whole: ``torch.nn.Linear``, not also ``torch.nn``."""
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for node in ast.walk(tree):
        dotted = _dotted(node) if id(node) not in inner else None
        if dotted is not None:
            yield dotted


def _dotted(node: ast.AST) -> str | None:
    """Return ``a.b.c`` for a name or a chain of attributes on a name, else ``None``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _longest_existing(name: str) -> str | None:
    for prefix in _prefixes(name):
        if _split(prefix)[0] is not None:
            return prefix
    return None


def builtin_names() -> set[str]:
    """Return Python's builtins: its classes, exceptions, functions and constants."""
    constants = {"None", "True", "False", "Ellipsis", "NotImplemented"}
    return constants | {
        name
        for name, value in vars(builtins).items()
        if not name.startswith("_") and (isinstance(value, type) or inspect.isbuiltin(value))
    }


def _canonical(name: str) -> str | None:
    """Return where a matplotlib class is defined (``matplotlib.axes._axes.Axes``), if not where it is named.

    autodoc names the classes of tcdoc's signatures by the module that defines them, and matplotlib
    defines its public classes in private modules.
    """
    obj = _object(name)
    if not name.startswith("matplotlib.") or not isinstance(obj, type):
        return None
    defined = f"{obj.__module__}.{obj.__qualname__}"
    return defined if defined != name else None


def sources() -> Iterator[tuple[Path, str]]:
    """Yield every file whose names the site shows: pages, examples and tcdoc's modules."""
    skipped = {"_build", "auto_examples", "gen_modules"}
    for pattern in ("**/*.md", "**/*.rst"):
        for path in sorted((ROOT / "docs").glob(pattern)):
            if not skipped & set(path.relative_to(ROOT / "docs").parts):
                yield path, "page"
    for path in sorted((ROOT / "examples").rglob("*.py")):
        yield path, "example"
    for path in sorted((ROOT / "examples").rglob("*.rst")):
        yield path, "page"
    for path in sorted((ROOT / "tcdoc").rglob("*.py")):
        yield path, "module"


def used_names(files: Iterable[tuple[Path, str]]) -> set[str]:
    """Collect the names used by pages, examples (text and code) and modules (docstrings, annotations)."""
    names = builtin_names()
    for path, kind in files:
        text = path.read_text(encoding="utf-8")
        names |= names_in_roles(text)
        if kind == "example":
            names |= names_in_code(text)
        elif kind == "module":
            names |= names_in_annotations(text)
    names |= {alias for name in set(names) if _split(name)[0] is not None and (alias := _canonical(name))}
    return names


# -- The inventories -------------------------------------------------------------------------


@dataclass(frozen=True)
class Project:
    """One inventory: the project it describes, and which names belong to it."""

    file: str
    project: str
    version: str

    def owns(self, name: str) -> bool:
        """Tell whether a name belongs to this project."""
        root = name.split(".")[0]
        if self.file == "torch.inv":
            return root == "torch"
        if self.file in {"matplotlib.inv", "numpy.inv"}:
            return root == self.file.removesuffix(".inv")
        return root in sys.stdlib_module_names or hasattr(builtins, root)


PROJECTS = (
    Project("torch.inv", "PyTorch", "stable"),
    Project("python.inv", "Python", "3"),
    Project("numpy.inv", "NumPy", "stable"),
    Project("matplotlib.inv", "Matplotlib", "stable"),
)

BASES = {
    "torch.inv": TORCH_DOCS,
    "python.inv": PYTHON_DOCS,
    "numpy.inv": NUMPY_DOCS,
    "matplotlib.inv": MATPLOTLIB_DOCS,
}


def inventory(project: Project, names: Iterable[str]) -> sphobjinv.Inventory:
    """Build one project's inventory from the names that exist and have an official page."""
    inv = sphobjinv.Inventory()
    inv.project = project.project
    inv.version = project.version
    for name in sorted(n for n in set(names) if project.owns(n) and "__" not in n):
        url = official_url(name)
        if url is None:
            continue
        domain, kind = role(name).split(":")
        base = BASES[project.file]
        inv.objects.append(
            sphobjinv.DataObjStr(
                name=name, domain=domain, role=kind, priority="1", uri=url.removeprefix(base), dispname="-"
            )
        )
    return inv


def write(out: Path = OUT) -> list[Path]:
    """Write the inventories into ``out``; return their paths."""
    names = used_names(sources())
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for project in PROJECTS:
        path = out / project.file
        data = inventory(project, names).data_file(contract=True)
        sphobjinv.writebytes(path, sphobjinv.compress(data))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Write the inventories (``--out`` to write them elsewhere) and say how many names each holds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder to write into (default: {OUT})")
    args = parser.parse_args(argv)
    for path in write(args.out):
        count = sphobjinv.Inventory(path).count
        print(f"{path}: {count} names")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
