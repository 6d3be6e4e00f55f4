"""Shared fixtures, and Sphinx's own test fixtures (``app``, ``make_app``, ``app_params``).

A test that builds pages marks itself ``@pytest.mark.sphinx("html", testroot="NAME")``: the
``app`` fixture copies ``tests/roots/test-NAME`` into a temporary folder and makes a
:class:`sphinx.testing.util.SphinxTestApp` there, as Sphinx's and sphinx-gallery's tests do.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sphinx.util.docutils import docutils_namespace

pytest_plugins = ("sphinx.testing.fixtures",)

# The small projects under roots/ are built by the tests, not collected as tests (their conf.py
# and example scripts would otherwise be imported by --doctest-modules).
collect_ignore = ["roots"]


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``testroot="NAME"`` finds its project: ``tests/roots/test-NAME``."""
    return Path(__file__).parent.resolve() / "roots"


@pytest.fixture(autouse=True)
def _docutils_namespace() -> Iterator[None]:
    """Undo the directives and roles that a test's Sphinx app registers, so apps do not collide."""
    with docutils_namespace():
        yield


# -- The repository's scripts, imported by the tests ---------------------------------------------
# tools/, benchmarks/ and docs/_thumbnails hold scripts, not modules of a package; a test imports one
# with load_script. This block keeps its own imports, apart from the fixtures above.

import importlib.util  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from types import ModuleType  # noqa: E402


def load_script(path: str) -> ModuleType:
    """Import the script at ``path``, relative to the repository's root (``"tools/i18n.py"``), once.

    It is kept in ``sys.modules`` under a name of its own (``tcdoc_script_tools_i18n``), so that
    its dataclasses find their module and a second call returns the same module; while it runs,
    its folder is on ``sys.path``, so that it finds its neighbours as it does when run as a script.
    """
    name = "tcdoc_script_" + re.sub(r"\W", "_", path.removesuffix(".py"))
    if name in sys.modules:
        return sys.modules[name]
    file = Path(__file__).resolve().parents[1] / path
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python script")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(file.parent))
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        sys.path.remove(str(file.parent))
    return module
