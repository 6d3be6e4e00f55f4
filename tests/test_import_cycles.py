"""No module of ``tcdoc/`` imports, directly or through others, a module that imports it back.

The graph is read statically, with :mod:`ast`, from every ``.py`` file under ``tcdoc/``:

- every ``import`` and ``from ... import`` counts, at module level and inside functions and
  classes (an import inside a function runs as soon as the function does, and a cycle through
  it fails just as late and just as surely);
- imports under ``if TYPE_CHECKING:`` are left out: they never run, and type checkers read
  cycles among them without trouble;
- ``from tcdoc.pkg import name`` is an edge to ``tcdoc.pkg.name`` where that is a module of the
  package, and to ``tcdoc.pkg`` otherwise; relative imports are resolved the same way.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tcdoc"


def module_files(root: Path = PACKAGE) -> dict[str, Path]:
    """Map each module name under ``root`` (a package named as its folder) to its file."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Walk ``tree``, leaving out the bodies of ``if TYPE_CHECKING:`` (their ``else:`` runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Return the modules of ``modules`` that module ``name`` (file ``path``) imports at run time."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def add(target: str) -> None:
        # "import tcdoc.a.b" imports tcdoc.a.b; its parents are imported first, but a parent
        # package is not an edge of its own (every submodule would then cycle with __init__).
        if target in modules:
            found.add(target)

    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                add(submodule if submodule in modules else source)
    found.discard(name)
    return found


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Return each module's run-time imports of other modules under ``root``."""
    modules = module_files(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_tcdoc_has_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles in tcdoc/: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()
    assert "tcdoc" in graph
    assert "tcdoc.sphinxext" in graph
    assert "tcdoc._compare" in graph["tcdoc._probe"] or any("tcdoc._compare" in t for t in graph.values())


def _write(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # A cycle through an import inside a function counts.
        (
            {"__init__.py": "", "a.py": "import pkg.b\n", "b.py": "def f():\n    from pkg import a\n"},
            [["pkg.a", "pkg.b"]],
        ),
        # Relative imports, and a name that is not a module (an edge to the package itself).
        (
            {
                "__init__.py": "from pkg.a import x\n",
                "a.py": "from . import b\nx = 1\n",
                "b.py": "from . import y\n",
            },
            [["pkg", "pkg.a", "pkg.b"]],
        ),
        # Imports under TYPE_CHECKING never run: no cycle.
        (
            {
                "__init__.py": "",
                "a.py": "import pkg.b\n",
                "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n",
            },
            [],
        ),
    ],
)
def test_cycles_are_found(tmp_path: Path, files: dict[str, str], expected: list[list[str]]) -> None:
    assert cycles(import_graph(_write(tmp_path, files))) == expected
