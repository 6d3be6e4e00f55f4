"""Link the methods and attributes that example code reaches through a variable: ``x.clone()``.

sphinx-gallery links a name in an example's code when it can tell what the name is. For each
example it records the candidates for every name in ``<example>.codeobj.json``; for a variable,
the class of its value when the example finished (``x``: ``torch.Tensor``). For an attribute of
a variable it follows the attribute on that value, which finds a method written in Python
(``model.state_dict``) but not one written in C: ``x.clone`` is a builtin method, so
``x.clone()``, ``x.detach()`` and ``y.is_leaf`` would stay plain text.

:func:`add_attribute_candidates` adds the candidate ``Class.attribute`` for each class recorded
for the variable (ahead of sphinx-gallery's own where it found only the type of a plain value,
such as ``bool`` for ``y.is_leaf``), and for a longer chain (``y.grad_fn.name()``) the shorter
ones (``y.grad_fn``). sphinx-gallery then resolves them as it resolves its own, through this
site's pages and intersphinx (``docs/_inventories``): a candidate that no inventory lists links
nowhere. It reads no example and imports nothing, so a build with nothing to do stays quick.
Registered by :mod:`tcdoc_site`.

sphinx-gallery offers no public way to add candidates: no setting of ``sphinx_gallery_conf``
names the class of a variable's attribute, and it emits no event between writing a
``codeobj.json`` and reading it back, so the files are rewritten here, in its own format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from tcdoc_site._source_links import gallery_folders

__all__ = ["add_attribute_candidates", "with_attribute_candidates"]

Candidates = dict[str, list[dict[str, Any]]]


def with_attribute_candidates(names: Candidates) -> Candidates:
    """Return sphinx-gallery's candidates with ``Class.attribute`` added for ``variable.attribute``.

    ``names`` maps each name written in an example (``x``, ``x.clone``) to sphinx-gallery's
    candidates for it; the result is a new mapping, and adding to it again changes nothing.

    >>> tensor = {"name": "Tensor", "module": "torch", "module_short": "torch",
    ...           "is_class": False, "is_explicit": False}
    >>> found = with_attribute_candidates({"x": [tensor], "x.clone": []})
    >>> [c["module"] + "." + c["name"] for c in found["x.clone"]]
    ['torch.Tensor.clone']
    >>> with_attribute_candidates(found) == found
    True
    """
    if not isinstance(names, dict):
        raise TypeError(f"names must be a dict of candidate lists, got {type(names).__name__}")
    result = {name: list(candidates) for name, candidates in names.items()}
    for written in names:
        variable, *attributes = written.split(".")
        for depth in range(1, len(attributes) + 1):
            path = ".".join(attributes[:depth])
            added = [
                {**candidate, "name": f"{candidate['name']}.{path}", "is_class": False, "is_explicit": False}
                for candidate in names.get(variable, [])
                if not candidate.get("is_explicit")
            ]
            key = f"{variable}.{path}"
            existing = result.get(key, [])
            new = [c for c in added if c not in existing]
            # Ahead where sphinx-gallery found only the type of a plain value (bool for y.is_leaf,
            # builtin_function_or_method for x.clone); behind where it found what the name is
            # (nn.Linear through the module nn).
            found_only_values = all(c.get("module") == "builtins" for c in existing)
            result[key] = new + existing if found_only_values else existing + new
    return result


def add_attribute_candidates(app: Sphinx) -> None:
    """Add the attribute candidates to every ``*.codeobj.json`` of the gallery (``builder-inited``).

    Runs after sphinx-gallery has written them, and rewrites a file only when it changes.
    """
    if "sphinx_gallery_conf" not in app.config:
        return
    for _examples, folder in gallery_folders(app.config.sphinx_gallery_conf):
        for path in sorted((Path(app.srcdir) / folder).rglob("*.codeobj.json")):
            names = json.loads(path.read_text(encoding="utf-8"))
            added = with_attribute_candidates(names)
            if added != names:
                # Written as sphinx-gallery writes it.
                text = json.dumps(added, sort_keys=True, ensure_ascii=False, indent=1)
                path.write_text(text, encoding="utf-8")
