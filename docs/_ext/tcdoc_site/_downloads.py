"""The examples' downloads, read outside the site: no Sphinx roles left in their text.

sphinx-gallery writes an example's text into its notebook's markdown cells, and keeps it as
comments in the script, in reST: ``:doc:`/explanation/detach``` and ``:func:`torch.clone``` mean
nothing in Jupyter or an editor (its own conversion only turns ``:ref:`` into plain backquotes).
:func:`rewrite_downloads` runs when the build has finished and rewrites what the build offers
for download, in ``_downloads``: each notebook's markdown cells, each script's comments and
docstring, and the zip files that hold them, so that the zips hold what the pages offer.

- ``:doc:`` and ``:ref:`` become a Markdown link (in a notebook) or the title followed by the
  page's address (in a script), to the page of this edition at ``html_baseurl``;
- the Python roles (``:func:``, ``:class:``, ``:meth:``, ...) become the name in backquotes, as
  the page shows it (``~`` keeps the last part).
"""

from __future__ import annotations

import io
import json
import posixpath
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

from sphinx.application import Sphinx

__all__ = ["plain_markdown", "plain_script", "rewrite_downloads"]

_ROLE = re.compile(r":(?:py:)?(?P<role>[a-z]+):`(?P<body>[^`]+)`")
_EXPLICIT = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
# What sphinx-gallery leaves of a :ref: in a notebook: the label between single backquotes.
_GALLERY_REF = re.compile(r"(?<!`)`(?P<body>(?:[^`<]*?<)?sphx_glr_[\w.]+?>?)`(?!`)")
_PYTHON_ROLES = {"func", "meth", "class", "mod", "attr", "exc", "data", "obj", "const"}

Resolve = Callable[[str, str], "tuple[str, str] | None"]
"""Give ``(title, address)`` for a ``:doc:`` target or a label (``"doc"`` or ``"ref"``), or None."""


def _python_name(body: str) -> str:
    explicit = _EXPLICIT.match(body)
    if explicit:
        return explicit.group("title")
    name = body.lstrip("!")
    return name.rsplit(".", 1)[-1] if name.startswith("~") else name


def _linked(role: str, body: str, resolve: Resolve, markdown: bool) -> str | None:
    explicit = _EXPLICIT.match(body)
    target = explicit.group("target") if explicit else body
    found = resolve(role, target)
    if found is None:
        return None
    title = explicit.group("title") if explicit else found[0]
    return f"[{title}]({found[1]})" if markdown else f"{title} ({found[1]})"


def _replace(text: str, resolve: Resolve, markdown: bool) -> str:
    def role(match: re.Match[str]) -> str:
        name, body = match.group("role"), match.group("body")
        if name in _PYTHON_ROLES:
            return f"``{_python_name(body)}``" if not markdown else f"`{_python_name(body)}`"
        if name in ("doc", "ref"):
            return _linked(name, body, resolve, markdown) or match.group(0)
        return match.group(0)

    return _ROLE.sub(role, text)


def plain_markdown(text: str, resolve: Resolve) -> str:
    """Return a notebook's markdown with Sphinx roles as Markdown links and code.

    >>> pages = {"/explanation/detach": ("detach()", "https://x.io/explanation/detach.html")}
    >>> resolve = lambda role, target: pages.get(target)
    >>> plain_markdown("See :doc:`/explanation/detach` and :func:`~torch.Tensor.clone`.", resolve)
    'See [detach()](https://x.io/explanation/detach.html) and `clone`.'
    """
    text = _replace(text, resolve, markdown=True)

    def gallery_ref(match: re.Match[str]) -> str:
        return _linked("ref", match.group("body"), resolve, markdown=True) or match.group(0)

    return _GALLERY_REF.sub(gallery_ref, text)


def plain_script(text: str, resolve: Resolve) -> str:
    r"""Return a script with the Sphinx roles of its comments and first docstring made plain.

    Code is left as it is: only lines that start with ``#`` and the module's docstring change.

    >>> resolve = lambda role, target: ("Clone", "https://x.io/clone.html")
    >>> plain_script("# See :doc:`/clone`.\nx = 1  # :func:`len`\n# :meth:`~a.b`\n", resolve)
    '# See Clone (https://x.io/clone.html).\nx = 1  # :func:`len`\n# ``b``\n'
    """
    docstring = re.match(r'(\s*[rR]?""")(.*?)(""")', text, re.DOTALL)
    start = 0
    out = []
    if docstring:
        out.append(docstring.group(1) + _replace(docstring.group(2), resolve, False) + docstring.group(3))
        start = docstring.end()
    for line in text[start:].splitlines(keepends=True):
        out.append(_replace(line, resolve, False) if line.lstrip().startswith("#") else line)
    return "".join(out)


def _notebook(data: bytes, resolve: Resolve) -> bytes:
    notebook = json.loads(data)
    changed_any = False
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell["source"]
        joined = "".join(source) if isinstance(source, list) else source
        changed = plain_markdown(joined, resolve)
        if changed != joined:
            cell["source"] = [changed] if isinstance(source, list) else changed
            changed_any = True
    if not changed_any:
        return data
    return json.dumps(notebook, indent=2).encode("utf-8")  # as sphinx-gallery writes it


def _rewritten(name: str, data: bytes, resolve: Resolve) -> bytes:
    if name.endswith(".ipynb"):
        return _notebook(data, resolve)
    if name.endswith(".py"):
        return plain_script(data.decode("utf-8"), resolve).encode("utf-8")
    return data


def _zip(path: Path, resolve: Resolve) -> None:
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for info, data in members:  # each member keeps its name, date and compression
            archive.writestr(info, _rewritten(info.filename, data, resolve))
    path.write_bytes(buffer.getvalue())


def _resolver(app: Sphinx) -> Resolve:
    """Resolve a ``:doc:`` or ``:ref:`` of an example to its title and its address on the site."""
    env = app.env
    base = str(app.config.html_baseurl or "").rstrip("/") + "/"
    suffix = app.builder.out_suffix if hasattr(app.builder, "out_suffix") else ".html"
    labels = env.domains.standard_domain.labels  # label: (docname, anchor, title)

    def resolve(role: str, target: str) -> tuple[str, str] | None:
        if role == "ref":
            found = labels.get(target.lower())
            if found is None or not found[0]:
                return None
            docname, anchor, title = found
            address = base + docname + suffix
            return title, f"{address}#{anchor}" if anchor else address
        docname = target.lstrip("/")
        if not target.startswith("/"):  # relative to an example: auto_examples/ (or its gpu/)
            docname = next(
                (
                    posixpath.join(folder, target)
                    for folder in ("auto_examples", "auto_examples/gpu")
                    if posixpath.join(folder, target) in env.titles
                ),
                target,
            )
        if docname not in env.titles:
            return None
        return env.titles[docname].astext(), base + docname + suffix

    return resolve


def rewrite_downloads(app: Sphinx, exception: BaseException | None) -> None:
    """Make the roles in the examples' downloads (notebooks, scripts, their zips) plain text."""
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir) / "_downloads"
    if not folder.is_dir():
        return
    resolve = _resolver(app)
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".zip":
            _zip(path, resolve)
        elif path.suffix in (".ipynb", ".py"):
            path.write_bytes(_rewritten(path.name, path.read_bytes(), resolve))
