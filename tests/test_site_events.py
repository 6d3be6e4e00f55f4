"""The site's extensions stand on public ground: no private names of others, and each order they need.

``docs/_ext/tcdoc_site`` and ``tcdoc.sphinxext`` import nothing private of Sphinx, sphinx-gallery,
furo, MyST or docutils (a name with a leading underscore), so that a new release of one of them
cannot break the site by changing what it never promised. Where a handler of the site's extension
must run before or after another extension's handler of the same event, its priority says so in
``tcdoc_site.setup()``; the app built here from the extensions and theme of ``docs/conf.py`` shows
the order Sphinx calls them in, which the workflow checks at the Sphinx floor and the newest.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[1]
SITE_CONF = ROOT / "docs" / "conf.py"
SCANNED = sorted(
    [SITE_CONF, *(ROOT / "docs" / "_ext").rglob("*.py"), *(ROOT / "tcdoc" / "sphinxext").rglob("*.py")]
)
OTHERS = ("sphinx", "sphinx_gallery", "furo", "myst_parser", "docutils")


# -- No private name of another package --------------------------------------------------------


def _private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.endswith("__") for part in dotted.split("."))


def _dotted(node: ast.expr) -> str | None:
    """Return ``a.b.c`` for the expression ``a.b.c``, or None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def private_names(source: str) -> list[str]:
    """Return the private names of :data:`OTHERS` that ``source`` imports or reaches through an import.

    >>> private_names("import sphinx_gallery.gen_rst as rst\\nrst._sanitize_rst('x')")
    ['sphinx_gallery.gen_rst._sanitize_rst']
    """
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # a name in the module -> what of OTHERS it stands for
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OTHERS:
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
                    found.update([alias.name] if _private(alias.name) else [])
        elif isinstance(node, ast.ImportFrom) and not node.level and str(node.module).split(".")[0] in OTHERS:
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                bound[alias.asname or alias.name] = dotted
                found.update([dotted] if _private(dotted) else [])
    for node in ast.walk(tree):
        reached = _dotted(node) if isinstance(node, ast.Attribute) else None
        if reached is not None and _private(reached) and reached.split(".")[0] in bound:
            first, _, rest = reached.partition(".")
            found.add(f"{bound[first]}.{rest}")
    return sorted(found)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("from sphinx_gallery.gen_rst import _sanitize_rst", "sphinx_gallery.gen_rst._sanitize_rst"),
        ("def f():\n    from furo import _html_page_context", "furo._html_page_context"),
        ("from sphinx_gallery import _doctree_links as links", "sphinx_gallery._doctree_links"),
        ("import sphinx.util._pathlib", "sphinx.util._pathlib"),
        (
            "from docutils import nodes\nnodes._add_node_class_names([])",
            "docutils.nodes._add_node_class_names",
        ),
        ("import myst_parser\nmyst_parser.mdit_to_docutils._base", "myst_parser.mdit_to_docutils._base"),
    ],
)
def test_the_scan_finds_a_private_name(source: str, name: str) -> None:
    assert private_names(source) == [name]


def test_the_scan_leaves_public_names_and_our_own_private_ones() -> None:
    source = (
        "from sphinx_gallery.gen_rst import extract_intro_and_title\n"
        "from tcdoc.sphinxext._i18n import generated\n"
        "import docutils.nodes\n"
        "def f(self):\n    return self._row, docutils.nodes.__name__, generated._x\n"
    )
    assert private_names(source) == []


def test_the_extensions_import_no_private_name_of_another_package() -> None:
    assert len(SCANNED) > 20
    found = {
        str(path.relative_to(ROOT)): names
        for path in SCANNED
        if (names := private_names(path.read_text(encoding="utf-8")))
    }
    assert not found, f"private names of other packages: {found}"


# -- The order of the handlers -------------------------------------------------------------------


def site_settings() -> dict[str, object]:
    """Return ``extensions`` and ``html_theme`` of ``docs/conf.py``, read without running it."""
    found: dict[str, object] = {}
    for node in ast.parse(SITE_CONF.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [_dotted(target) for target in node.targets] in (
            ["extensions"],
            ["html_theme"],
        ):
            found[str(_dotted(node.targets[0]))] = ast.literal_eval(node.value)
    assert set(found) == {"extensions", "html_theme"}, "docs/conf.py names its extensions and theme"
    return found


def site_app(tmp_path: Path, extensions: list[str]) -> Sphinx:
    """Make, without building anything, an app with the site's theme and ``extensions``."""
    conf = (
        f"extensions = {extensions!r}\n"
        f"html_theme = {site_settings()['html_theme']!r}\n"
        'html_baseurl = "https://example.org/"\n'
        'sphinx_gallery_conf = {"examples_dirs": [], "gallery_dirs": []}\n'
    )
    (tmp_path / "conf.py").write_text(conf, encoding="utf-8")
    (tmp_path / "index.rst").write_text("Home\n====\n", encoding="utf-8")
    out = tmp_path / "_build"
    return Sphinx(
        tmp_path, tmp_path, out, out / ".doctrees", "html", status=io.StringIO(), warning=io.StringIO()
    )


def handler_order(app: Sphinx, event: str) -> list[str]:
    """Return the handlers of ``event`` as ``module.name``, in the order Sphinx calls them.

    Sphinx calls lower priorities first, and equal ones in the order they were connected.
    """
    listeners = sorted(app.events.listeners[event], key=lambda listener: listener.priority)
    return [f"{listener.handler.__module__}.{listener.handler.__qualname__}" for listener in listeners]


# (event, what runs first, what runs after it): a handler by its name (its module's last parts
# will do), or all of a module's handlers of that event by the module's name.
ORDER = [
    # sphinx-gallery must see the examples whose checksums the guard removed, and generate the
    # codeobj.json files and thumbnails that the site's handlers then change.
    ("builder-inited", "_gallery_guard.rerun_if_tcdoc_changed", "gen_gallery.generate_gallery_rst"),
    ("builder-inited", "gen_gallery.generate_gallery_rst", "_code_links.add_attribute_candidates"),
    ("builder-inited", "gen_gallery.generate_gallery_rst", "_figures.scale_drawn_thumbnails"),
    # Sphinx's collectors note the pictures to copy and the page's title, translated by then.
    ("doctree-read", "_figures.use_translated_figures", "sphinx.environment.collectors.asset"),
    ("doctree-read", "_gallery_words.translate_gallery_words", "sphinx.environment.collectors.asset"),
    ("doctree-read", "_gallery_words.translate_gallery_words", "sphinx.environment.collectors.title"),
    # sphinxext-opengraph writes og:description from the page's meta; furo renders the sidebar.
    ("html-page-context", "_previews.describe_page", "sphinxext.opengraph"),
    ("html-page-context", "furo", "_a11y.level_captions"),
    # sphinx-sitemap writes the links the site added; furo writes pygments.css again; the 404
    # page is wrapped once nothing reads or rewrites the pages any more.
    ("build-finished", "_sitemap.complete_sitemap", "sphinx_sitemap"),
    ("build-finished", "furo", "_assets.rewrite_stylesheets"),
    ("build-finished", "_gallery_words.translate_theme_labels", "_notfound.wrap_page"),
    ("build-finished", "_assets.rewrite_stylesheets", "_notfound.wrap_page"),
    ("build-finished", "_gallery_guard.check_examples_ran", "_gallery_guard.record_build"),
    # sphinx-gallery's summary raises when an example failed: its checksum must be gone by then.
    ("build-finished", "_gallery_guard.forget_failed_examples", "gen_gallery.summarize_failing_examples"),
]


def places(order: list[str], handler: str) -> list[int]:
    """Return where ``handler`` (see :data:`ORDER`) stands in ``order``.

    >>> places(["furo._a", "x.furo.b", "tcdoc_site._a11y.level_captions"], "furo")
    [0]
    >>> places(["furo._a", "tcdoc_site._a11y.level_captions"], "_a11y.level_captions")
    [1]
    """
    return [
        i
        for i, name in enumerate(order)
        if name == handler or name.endswith(f".{handler}") or name.startswith(f"{handler}.")
    ]


def extension_orders() -> list[list[str]]:
    """The site's extensions as ``docs/conf.py`` lists them, then with the site's own first, and last."""
    extensions = [str(name) for name in site_settings()["extensions"]]  # type: ignore[attr-defined]
    others = [name for name in extensions if name != "tcdoc_site"]
    return [extensions, ["tcdoc_site", *others], [*others, "tcdoc_site"]]


# sphinx-sitemap reads BuildEnvironment.app, which Sphinx 9 deprecates.
@pytest.mark.filterwarnings("ignore:.*BuildEnvironment.app")
@pytest.mark.parametrize("extensions", extension_orders(), ids=["as-in-conf", "site-first", "site-last"])
def test_each_handler_runs_before_or_after_what_it_must(tmp_path: Path, extensions: list[str]) -> None:
    app = site_app(tmp_path, extensions)
    wrong = []
    for event, first, then in ORDER:
        order = handler_order(app, event)
        before, after = places(order, first), places(order, then)
        assert before, f"{event}: no handler {first} in {order}"
        assert after, f"{event}: no handler {then} in {order}"
        if max(before) > min(after):
            wrong.append(f"{event}: {first} must run before {then}, but the order is {order}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.filterwarnings("ignore:.*BuildEnvironment.app")
def test_both_extensions_version_what_they_keep_on_env(tmp_path: Path) -> None:
    app = site_app(tmp_path, ["tcdoc_site"])
    for name in ("tcdoc.sphinxext", "tcdoc_site"):
        assert isinstance(app.extensions[name].metadata.get("env_version"), int), name
