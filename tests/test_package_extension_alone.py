"""tcdoc.sphinxext alone, in a site built with furo and sphinx-gallery (tests/roots/test-package-only).

The package's extension renders facts and changes nothing else: the site's scripts, stylesheets,
pictures and captions come out as Sphinx, furo and sphinx-gallery made them. What tcdoc's own
site does to its pages lives in docs/_ext/tcdoc_site and is not loaded here. The same project
with the site's extension added is the control: each check of the first test fails there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sphinx_gallery
import torch
from sphinx.testing.util import SphinxTestApp

SITE_SCRIPTS = ("tcdoc-copy.js", "tcdoc-a11y.js")
GALLERY_STATIC = Path(sphinx_gallery.__file__).parent / "_static"
GALLERY_STYLESHEETS = ("sg_gallery.css", "sg_gallery-binder.css", "sg_gallery-dataframe.css")
WITH_THE_SITE = {"extensions": ["sphinx_gallery.gen_gallery", "tcdoc.sphinxext", "tcdoc_site"]}
# A toctree's caption as Sphinx's HTML writer emits it, with no level.
CAPTION = re.compile(r'<p class="caption" role="heading"(?![^>]*aria-level)')


def pages(app: SphinxTestApp) -> dict[str, str]:
    out = Path(app.outdir)
    return {
        page.relative_to(out).as_posix(): page.read_text(encoding="utf-8") for page in out.rglob("*.html")
    }


def static(app: SphinxTestApp, name: str) -> Path:
    return Path(app.outdir) / "_static" / name


@pytest.mark.sphinx("html", testroot="package-only", srcdir="package-only", freshenv=True)
def test_the_package_extension_leaves_the_site_as_sphinx_and_the_theme_made_it(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    assert "tcdoc.sphinxext" in app.extensions
    assert "tcdoc_site" not in app.extensions
    html = pages(app)
    assert torch.__version__ in html["index.html"]  # the package did its own job: a fact
    assert "sphx-glr-script-out" in html["auto_examples/plot_a.html"]  # and the gallery ran

    # No script of the site's, served or loaded.
    for name in SITE_SCRIPTS:
        assert not static(app, name).exists(), name
        assert not [page for page, text in html.items() if name in text], name

    # sphinx-gallery's stylesheets on every page, a page of prose too, as sphinx-gallery ships them.
    assert "sg_gallery.css" in html["prose.html"]
    for name in GALLERY_STYLESHEETS:
        assert static(app, name).read_bytes() == (GALLERY_STATIC / name).read_bytes(), name

    # The highlighting stylesheet as Sphinx and furo wrote it: one rule a line, every kind of token.
    pygments = static(app, "pygments.css").read_text(encoding="utf-8")
    assert pygments.count("\n") > 50
    assert ".highlight .gd" in pygments  # Generic.Deleted, which no page shows
    assert "pygments.css" in html["prose.html"]  # loaded on a page without code too

    # The toctree's caption, the picture and the thumbnail as Sphinx and sphinx-gallery wrote them.
    assert CAPTION.search(html["index.html"])
    assert 'aria-level="2"' not in html["index.html"]
    assert '<img alt="A picture"' in html["index.html"]
    assert not [page for page, text in html.items() if 'loading="lazy"' in text]
    assert re.search(r'<img alt="" src="[^"]*sphx_glr_plot_a_thumb', html["auto_examples/index.html"])


@pytest.mark.sphinx(
    "html",
    testroot="package-only",
    srcdir="package-only-with-site",
    freshenv=True,
    confoverrides=WITH_THE_SITE,
)
def test_the_control_the_same_site_with_the_sites_extension(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    html = pages(app)
    for name in SITE_SCRIPTS:
        assert static(app, name).is_file(), name
    assert "tcdoc-a11y.js" in html["prose.html"]
    assert "tcdoc-copy.js" in html["index.html"]
    assert "sg_gallery.css" not in html["prose.html"]
    assert static(app, "sg_gallery.css").read_bytes() != (GALLERY_STATIC / "sg_gallery.css").read_bytes()
    pygments = static(app, "pygments.css").read_text(encoding="utf-8")
    assert pygments.count("\n") < 5
    assert ".highlight .gd" not in pygments
    assert "pygments.css" not in html["prose.html"]
    assert not CAPTION.search(html["index.html"])
    assert 'loading="lazy"' in html["index.html"]
    assert not re.search(r'<img alt="" src="[^"]*sphx_glr_plot_a_thumb', html["auto_examples/index.html"])
