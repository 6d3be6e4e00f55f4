"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sphinx.util.docutils import docutils_namespace


@pytest.fixture(autouse=True)
def _docutils_namespace() -> Iterator[None]:
    """Undo the directives and roles that a test's Sphinx app registers, so apps do not collide."""
    with docutils_namespace():
        yield
