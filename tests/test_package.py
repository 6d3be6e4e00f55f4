"""The tcdoc package: its public names load on first use, and the tools that need no torch skip it."""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import tcdoc


def imports_torch(code: str) -> bool:
    """Run ``code`` in a fresh interpreter; tell whether torch was imported by the end."""
    check = f"{code}\nimport sys\nprint('torch' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize(
    "code",
    [
        "import tcdoc",
        "import tcdoc; tcdoc.__version__",
        "import tcdoc.sphinxext",
        "import tcdoc.cli\ntry:\n    tcdoc.cli.main(['--version'])\nexcept SystemExit:\n    pass",
        "import tcdoc.cli\ntry:\n    tcdoc.cli.main(['--help'])\nexcept SystemExit:\n    pass",
        "import tcdoc.cli\ntry:\n    tcdoc.cli.main(['explain', '--help'])\nexcept SystemExit:\n    pass",
        # An unknown name, with the names near it:
        "import tcdoc.cli\nassert tcdoc.cli.main(['explain', 'spars']) == 2",
    ],
)
def test_tools_that_need_no_measurement_do_not_import_torch(code: str) -> None:
    assert not imports_torch(code)


def test_a_public_name_brings_torch_with_it() -> None:
    assert imports_torch("import tcdoc; tcdoc.compare")


def test_every_public_name_is_there_and_documented_under_the_package() -> None:
    for name in tcdoc.__all__:
        value = getattr(tcdoc, name)
        if callable(value):
            assert value.__module__ == "tcdoc", name
    assert set(tcdoc.__all__) <= set(dir(tcdoc))


def test_from_import_star_gives_the_public_names() -> None:
    namespace: dict[str, object] = {}
    exec("from tcdoc import *", namespace)
    assert namespace["compare"] is tcdoc.compare
    assert namespace["Matrix"] is tcdoc.Matrix


def test_a_result_pickled_here_loads_in_a_fresh_interpreter() -> None:
    import torch

    x = torch.ones(2, requires_grad=True)
    data = pickle.dumps(tcdoc.compare(x, x.detach()))
    code = f"import pickle; print(pickle.loads({data!r}).shares_storage)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="module 'tcdoc' has no attribute 'clone_everything'"):
        tcdoc.clone_everything  # type: ignore[attr-defined]  # noqa: B018 - the lookup is the test


# -- The layout: one folder per heavy dependency ------------------------------------------------

PACKAGE = Path(tcdoc.__file__).parent


def imported_packages(path: Path) -> set[str]:
    """The top-level packages that a module imports, anywhere in it (functions included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    ("dependency", "allowed"),
    [
        ("sphinx", ("sphinxext/",)),
        ("docutils", ("sphinxext/",)),
        ("matplotlib", ("draw/_render.py", "bench/_plot.py")),
    ],
)
def test_heavy_dependencies_are_imported_only_in_their_folder(
    dependency: str, allowed: tuple[str, ...]
) -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 20
    importers = {
        path.relative_to(PACKAGE).as_posix() for path in modules if dependency in imported_packages(path)
    }
    assert importers, f"nothing imports {dependency}: the check looks in the wrong place"
    strays = {name for name in importers if not name.startswith(allowed)}
    assert not strays, f"{dependency} is imported outside {allowed}: {sorted(strays)}"


def test_there_is_one_sphinx_setup() -> None:
    setups = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if any(
            isinstance(node, ast.FunctionDef) and node.name == "setup"
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    ]
    assert setups == ["sphinxext/__init__.py"]


def test_the_core_imports_no_sphinx_and_no_matplotlib() -> None:
    code = (
        "import tcdoc, tcdoc.draw, tcdoc.bench, tcdoc.cli\n"
        "tcdoc.compare; tcdoc.draw.diagram; tcdoc.bench.run\n"
        "import sys\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sphinx', 'docutils', 'matplotlib'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_package_holds_none_of_the_sites_own_extension() -> None:
    """What only the site does lives in docs/_ext/tcdoc_site: the package neither holds nor imports it."""
    site = Path(__file__).parents[1] / "docs" / "_ext" / "tcdoc_site"
    moved = {path.name for path in site.glob("*.py")} - {"__init__.py"}
    assert {"gating.py", "_gallery_guard.py", "_assets.py"} <= moved
    assert not [path for path in PACKAGE.rglob("*") if path.name in moved or path.suffix == ".js"]
    assert not [path for path in sorted(PACKAGE.rglob("*.py")) if "tcdoc_site" in imported_packages(path)]
    # sphinx-gallery and sphinx-sitemap are the site's business: the package never imports them.
    site_only = {"sphinx_gallery", "sphinx_sitemap"}
    assert not [path for path in PACKAGE.rglob("*.py") if imported_packages(path) & site_only]
