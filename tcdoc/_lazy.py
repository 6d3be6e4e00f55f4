"""Public names that a package loads the first time one is asked for (PEP 562), in one way.

``tcdoc`` loads its public names from its private modules, so that ``import tcdoc`` imports no
torch; ``tcdoc.draw`` and ``tcdoc.bench`` load the names that need matplotlib from the module that
imports it. Each package gets its module-level ``__getattr__`` and ``__dir__`` from
:func:`lazy_names`, and names its modules with string literals, where the gallery's guard
(``docs/_ext/tcdoc_site/_gallery_guard.py``) reads which modules an example may import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import cast

__all__ = ["lazy_names"]


def lazy_names(
    namespace: dict[str, object], names: Iterable[str], modules: Iterable[str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """Return a package's ``__getattr__`` and ``__dir__``, which load ``names`` from ``modules`` on first use.

    ``namespace`` is the package's ``globals()``. The first time one of ``names`` is asked for,
    each of them goes into ``namespace`` from the first of ``modules`` that defines it; a
    function or class is renamed as the package's own (its ``__module__``), so that it is
    documented and pickled under the package's name. Any other name is an ``AttributeError``.

    >>> namespace = {"__name__": "pkg", "__all__": ["pi"]}
    >>> getattr_, dir_ = lazy_names(namespace, ["pi"], ["math"])
    >>> round(getattr_("pi"), 2), "pi" in namespace, "pi" in dir_()
    (3.14, True, True)
    """
    package, wanted, sources = str(namespace["__name__"]), tuple(names), tuple(modules)

    def __getattr__(name: str) -> object:
        for module in map(importlib.import_module, sources if name in wanted else ()):
            for each in wanted:
                if each not in namespace and hasattr(module, each):
                    value = getattr(module, each)
                    if callable(value):
                        value.__module__ = package
                    namespace[each] = value
        if name not in namespace:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return namespace[name]

    def __dir__() -> list[str]:
        return sorted({*namespace, *cast("Iterable[str]", namespace.get("__all__", ()))})

    return __getattr__, __dir__
