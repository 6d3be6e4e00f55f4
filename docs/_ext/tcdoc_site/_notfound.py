"""The 404 page of each edition, right at any address a host serves it from.

A host serves ``404.html`` in place of every missing page: Read the Docs for
``/en/latest/any/depth/missing.html``, GitHub Pages for ``/<repository>/missing``. The address
the browser shows is the missing one, so the page's relative links (``_static/...``,
``index.html``) would resolve from the wrong folder; sphinx-notfound-page makes them absolute
from one path fixed at build time, so its pages break under any other. Here Sphinx builds the
page where it lies, at the root of its edition, with the relative links of every other page
there, and :func:`wrap_page` turns the file into a shell that holds the page as inert text
(no browser fetches anything it names) and a script that finds the edition's root, then writes
the page with ``<base href>`` set to it, so that every link, stylesheet and script resolves:

- where the address starts with the path the site was built for (``tcdoc_url_prefix``:
  ``TCDOC_URL_PREFIX``, or the path of ``html_baseurl``; the Chinese edition adds ``zh_CN/``),
  that path, at no cost;
- anywhere else, the first folder of the address, from ``/`` down, whose
  ``_static/tcdoc-edition.txt`` names this edition (:func:`write_edition_mark` writes it), asked
  for folder by folder (each folder asked in vain shows in the browser's console as a 404);
- where none does (the page opened from disk, or at its own address), no base: its links are
  right where it lies.

Links within the page (``#furo-main-content``) are pointed back at the address shown, which the
base would otherwise move to the root. Without JavaScript, the shell says where the home page
is. ``tests/browser/test_hosting.py`` serves the site under each host's path and others.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

__all__ = [
    "MARK",
    "PAGENAME",
    "SHELL_ID",
    "address_the_edition",
    "edition",
    "root_hint",
    "shell",
    "wrap_page",
]

PAGENAME = "404"
"""The page a host serves for a missing address (``docs/404.md``)."""

MARK = "_static/tcdoc-edition.txt"
"""The file, in each edition's root, that names the edition: how the 404 page finds its root."""

SHELL_ID = "tcdoc-notfound-page"
"""The id of the shell's element that holds the page (and marks a file already wrapped)."""

_SHELL = """<!doctype html>
%(html_tag)s<head><meta charset="utf-8">
<script type="application/json" id="%(id)s">%(page)s</script>
<script>(function () {
  var hint = %(hint)s, edition = %(edition)s, path = location.pathname;
  function holdsEdition(folder) {
    var request = new XMLHttpRequest();
    try {
      request.open("GET", folder + %(mark)s, false);
      request.send();
    } catch (error) {
      return false;
    }
    return request.status === 200 && request.responseText.trim() === edition;
  }
  function findRoot() {
    if (path.slice(0, hint.length) === hint) return hint;
    if (!/^https?:$/.test(location.protocol)) return null;
    var folders = path.split("/").slice(1, -1);
    for (var depth = 0; depth <= folders.length; depth++) {
      var folder = "/" + folders.slice(0, depth).map(function (name) { return name + "/"; }).join("");
      if (holdsEdition(folder)) return folder;
    }
    return null;
  }
  var root = findRoot();
  var base = root === null ? "" : '<base href="' + root.replace(/"/g, "%%22") + '">';
  document.write(base + JSON.parse(document.getElementById(%(id_json)s).textContent));
})();</script>
<noscript><p><a href="%(home)s">%(home)s</a></p></noscript>
"""
"""The 404 page's shell: the page's own ``<html>`` tag, then a ``<head>`` whose script writes the
rest of the page where the script stands, after a ``<base>``: the parser reads it as if it were
there, and the browser fetches nothing the page names before it knows the base."""

_ANCHORS = """<script>if (document.querySelector("base")) {
  document.querySelectorAll('a[href^="#"]').forEach(function (link) {
    link.href = location.href.split("#")[0] + link.getAttribute("href");
  });
}</script>"""


def edition(app: Sphinx) -> str:
    """Return the build's language, the name of its edition (``en``, ``zh_CN``)."""
    return str(app.config.language or "en")


def root_hint(app: Sphinx) -> str:
    """Return the path the edition's root is published at: ``/en/latest/``, ``/en/latest/zh_CN/``.

    The Chinese edition lies in ``zh_CN/`` inside the English one (``nox -s docs-zh``).
    """
    prefix = "/" + str(app.config.tcdoc_url_prefix).strip("/") + "/"
    prefix = prefix.replace("//", "/")
    language = edition(app)
    return prefix if language == "en" else f"{prefix}{language}/"


def address_the_edition(app: Sphinx, config: Config) -> None:
    """Give an edition other than English its own address, ``zh_CN/`` in the site's (``config-inited``).

    ``html_baseurl`` names the canonical address of each page and the sitemap's, and
    ``ogp_site_url`` the link previews': for the Chinese edition both lie in its folder.
    """
    language = edition(app)
    if language == "en":
        return
    for name in ("html_baseurl", "ogp_site_url"):
        url = str(getattr(config, name, "") or "")
        if url and not url.rstrip("/").endswith(f"/{language}"):
            setattr(config, name, url.rstrip("/") + f"/{language}/")


def shell(app: Sphinx, page: str) -> str:
    """Return the shell that holds ``page``, the 404 page's HTML, and writes it at its root."""
    opening = re.search(r"<html\b[^>]*>\s*<head>\s*(<meta charset=[^>]*>)?", page)
    if opening is None:
        raise ValueError("the 404 page has no <html> and <head> to wrap")
    html_tag = re.match(r"<html\b[^>]*>", opening.group(0))
    assert html_tag is not None  # the search above starts with it
    # Under a base, a link to "#id" would lead to the root: point it at the address shown.
    rest = page[opening.end() :].replace("</body>", f"{_ANCHORS}</body>", 1)
    # Inside <script>, "</" would end the element and "<!--" could keep it from ending: JSON may
    # write them as "<\/" and "<\u0021--".
    payload = json.dumps(rest, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\u0021--")
    return _SHELL % {
        "html_tag": html_tag.group(0),
        "id": SHELL_ID,
        "id_json": json.dumps(SHELL_ID),
        "page": payload,
        "hint": json.dumps(root_hint(app)),
        "edition": json.dumps(edition(app)),
        "mark": json.dumps(MARK),
        "home": html.escape(root_hint(app) + "index.html"),
    }


def wrap_page(app: Sphinx, exception: BaseException | None) -> None:
    """Turn the built ``404.html`` into its shell, and write :data:`MARK` (``build-finished``).

    A file already wrapped (a build that did not write the page again) is left as it is.
    """
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    mark = outdir / MARK
    mark.parent.mkdir(parents=True, exist_ok=True)
    mark.write_text(edition(app) + "\n", encoding="utf-8")
    page = outdir / f"{PAGENAME}.html"
    if not page.is_file():
        return
    text = page.read_text(encoding="utf-8")
    if f'id="{SHELL_ID}"' not in text:
        page.write_text(shell(app, text), encoding="utf-8")
