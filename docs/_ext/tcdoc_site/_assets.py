"""The site's scripts, and on each page only what the page uses, its pictures loaded as a reader nears them.

:func:`add_scripts` serves this extension's two scripts (``_static``). ``tcdoc-copy.js`` puts a
button named "Copy code" (for a screen reader too) after the ``<pre>`` of every
``div.highlight``; a click copies the code as it is shown, without line numbers, and in a
console or doctest block only the lines after a prompt (``>>>``, ``...``, ``$``), without it;
the button then says "Copied", and a hidden ``role="status"`` line says so to a screen reader.
Its words are the site catalogue's, on the script's ``data-*`` attributes, and
``docs/_static/tcdoc.css`` places it. ``tcdoc-a11y.js`` gives each code block that scrolls a
place in the tab order (:mod:`tcdoc_site._a11y`). ``tests/browser`` clicks and tabs.

sphinx-gallery adds its stylesheets and its tag filter to every page of the site, whether or not
the page shows a gallery, a tag or a rendered output, and this extension its copy script. Each
of these files styles or drives one kind of markup; a page without that markup does not load it
(:func:`drop_unused_assets`). Every
picture in a page's body loads lazily (:func:`load_images_lazily`): the browser fetches it as it
comes near the screen, so a page of many thumbnails or figures costs only those a reader scrolls
to. The highlighting stylesheet is written again without the colours of the kinds of token that
no page of the site shows, and the stylesheets that the build writes with comments and
indentation without them (:func:`rewrite_stylesheets`). The pictures are saved again with a
palette of at most 256 colours (:func:`shrink_images`): the figures are plots with few colours, and
a quarter of the bytes shows them the same to the eye.
``tests/browser`` measures what the pages weigh.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from tcdoc_site._catalog import translate as _

__all__ = [
    "NEEDS",
    "STATIC",
    "STYLESHEETS",
    "add_scripts",
    "drop_unused_assets",
    "load_images_lazily",
    "minify_css",
    "rewrite_stylesheets",
    "shrink_image",
    "shrink_images",
    "without_unused_token_styles",
]

NEEDS = {
    "sg-tags.js": "data-sgtags",
    "sg_gallery.css": "sphx-glr",
    "sg_gallery-binder.css": "binder-badge",
    "sg_gallery-dataframe.css": "dataframe",
    "sg_gallery-rendered-html.css": "rendered_html",
    "pygments.css": "highlight",
    "tcdoc-copy.js": '<div class="highlight">',
}
"""Each of sphinx-gallery's files, the highlighting stylesheet and this extension's copy script, by
name, and what a page's HTML contains when it needs it (code highlighted by Pygments is in an
element of class ``highlight``, a block of it in ``<div class="highlight">``)."""

STATIC = Path(__file__).parent / "_static"
"""This extension's ``_static`` folder: the scripts it adds to the site."""


def add_scripts(app: Sphinx) -> None:
    """Serve the scripts of :data:`STATIC`, loaded deferred on an HTML build's pages (``builder-inited``)."""
    if app.builder.format != "html":
        return
    static = app.config.html_static_path
    if str(STATIC) not in static:
        static.append(str(STATIC))
    words = {"data-label": _("Copy code"), "data-copied": _("Copied"), "data-failed": _("Copy failed")}
    app.add_js_file("tcdoc-copy.js", priority=500, defer="defer", **words)
    app.add_js_file("tcdoc-a11y.js", priority=500, defer="defer")


def drop_unused_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Leave out of the page the files of :data:`NEEDS` it has no use for (``html-page-context``).

    >>> context = {"body": "<p>No gallery here.</p>", "script_files": ["_static/sg-tags.js"]}
    >>> drop_unused_assets(None, "glossary", "page.html", context, None)
    >>> context["script_files"]
    []
    """
    body = context.get("body")
    if not isinstance(body, str):
        return
    for key in ("css_files", "script_files"):
        files = context.get(key)
        if isinstance(files, list):
            # In place: the list is the builder's own, which a later handler's add_js_file() or
            # add_css_file() for this page appends to (and which Sphinx restores after the page).
            files[:] = [asset for asset in files if _used(asset, body)]


def _used(asset: object, body: str) -> bool:
    name = os.path.basename(str(getattr(asset, "filename", asset)))
    marker = NEEDS.get(name)
    return marker is None or marker in body


# An <img> tag that does not say how it loads.
_EAGER_IMAGE = re.compile(r"<img\b(?![^>]*\bloading=)")


def load_images_lazily(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Mark every image of the page's body that does not say how it loads as lazy (``html-page-context``).

    >>> context = {"body": '<img src="a.png" alt="A"/><img loading="eager" src="b.png"/>'}
    >>> load_images_lazily(None, "index", "page.html", context, None)
    >>> context["body"]
    '<img loading="lazy" src="a.png" alt="A"/><img loading="eager" src="b.png"/>'
    """
    body = context.get("body")
    if isinstance(body, str):
        context["body"] = _EAGER_IMAGE.sub('<img loading="lazy"', body)


STYLESHEETS = (
    "pygments.css",
    "sg_gallery.css",
    "sg_gallery-binder.css",
    "sg_gallery-dataframe.css",
    "sg_gallery-rendered-html.css",
    "tcdoc.css",
)
"""The stylesheets under ``_static`` that Sphinx, furo, sphinx-gallery and this site write with
comments and indentation (furo's own are minified already)."""

_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_SPACE = re.compile(r"\s+")
_SPACE_AROUND_PUNCTUATION = re.compile(r" ?([{};]) ?")


def minify_css(css: str) -> str:
    r"""Drop a stylesheet's comments, and the white space that means nothing to a browser.

    White space is kept where it can matter (between words, inside values and strings), as
    one space.

    >>> minify_css('a > b { color: red; }  /* why */\n\np::before { content: "Out: "; }')
    'a > b{color: red;}p::before{content: "Out: ";}'
    """
    css = _COMMENT.sub("", css)
    css = _SPACE.sub(" ", css)
    return _SPACE_AROUND_PUNCTUATION.sub(r"\1", css).strip()


# A rule, its selectors and its declarations (inside an @media block too: the block's own braces are
# left as they are), and the kind of token a selector of Pygments' stylesheet styles.
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_TOKEN_CLASS = re.compile(r"\.highlight \.([\w-]+)")
_CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')


def without_unused_token_styles(css: str, used: set[str]) -> str:
    """Return Pygments' stylesheet ``css`` without the rules for kinds of token not in ``used``.

    A rule goes only when each of its selectors styles one kind of token (``.highlight .k``,
    in any theme), and none of these kinds is in ``used``; every other rule stays.

    >>> css = ".highlight pre{line-height: 125%;}.highlight .k{color: blue}.highlight .ne{color: red}"
    >>> without_unused_token_styles(css, {"k"})
    '.highlight pre{line-height: 125%;}.highlight .k{color: blue}'
    >>> without_unused_token_styles("@media x{body .highlight .ne{color: red}.highlight .k{}}", {"k"})
    '@media x{.highlight .k{}}'
    """

    def keep(rule: re.Match[str]) -> str:
        kinds = [_TOKEN_CLASS.search(selector) for selector in rule.group(1).split(",")]
        if all(kind is not None and kind.group(1) not in used for kind in kinds):
            return ""
        return rule.group(0)

    return _RULE.sub(keep, css)


def rewrite_stylesheets(app: Sphinx, exception: BaseException | None) -> None:
    """Write the built site's stylesheets again, smaller (``build-finished``).

    First ``pygments.css``, with the colours of only the kinds of token that some page shows: the
    classes used are read from every HTML file of the built site, so a build that writes only
    some pages keeps the rules the others need. Each build starts again from the whole
    stylesheet, which Sphinx and then furo's ``build-finished`` handler write on every build.
    Then each of :data:`STYLESHEETS`, minified.
    """
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    pygments = outdir / "_static" / "pygments.css"
    if pygments.is_file():
        used: set[str] = set()
        for page in outdir.rglob("*.html"):
            for classes in _CLASS_ATTRIBUTE.findall(page.read_text(encoding="utf-8")):
                used.update(classes.split())
        css = without_unused_token_styles(pygments.read_text(encoding="utf-8"), used)
        pygments.write_text(css, encoding="utf-8")
    for name in STYLESHEETS:
        path = outdir / "_static" / name
        if path.is_file():
            path.write_text(minify_css(path.read_text(encoding="utf-8")), encoding="utf-8")


def shrink_image(path: Path) -> bool:
    """Save the PNG at ``path`` again with a palette of at most 256 colours, its transparency kept.

    Return whether it was saved: an image that already has a palette is left as it is, so that a
    second call changes nothing. The colours are chosen without dithering, and the same image gives
    the same bytes on every build.

    >>> shrink_image(Path("docs/_build/html/_images/sphx_glr_plot_01_clone_001.png"))  # doctest: +SKIP
    True
    """
    from PIL import Image

    with Image.open(path) as image:
        if image.mode == "P":
            return False
        image.load()
        source = image if image.mode in ("RGB", "RGBA") else image.convert("RGBA")
    palette = source.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(path, format="PNG", optimize=True)
    return True


def shrink_images(app: Sphinx, exception: BaseException | None) -> None:
    """Give every PNG of the built site's ``_images`` a palette (``build-finished``, :func:`shrink_image`).

    Sphinx copies a page's pictures again whenever it writes the page, so each build shrinks those
    it copied; the others already have their palette.
    """
    if exception is not None or app.builder.format != "html":
        return
    for path in sorted((Path(app.outdir) / "_images").glob("*.png")):
        shrink_image(path)
