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
