"""Checks on the built HTML in docs/_build/html: run after ``nox -s docs``.

Locally they are skipped when the site has not been built; under CI (``CI=true``) a missing
site is a failure, since ``.ci/run`` builds it first.
"""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

import pytest
import torch

import tcdoc

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)


class _Links(HTMLParser):
    """Collect the ids a page defines and the local addresses it points to."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        defined, named = values.get("id"), values.get("name")
        if defined:
            self.ids.add(defined)
        if tag == "a" and named:
            self.ids.add(named)
        for attribute in ("href", "src"):
            target = values.get(attribute)
            if target and not urlsplit(target).scheme and not target.startswith(("//", "mailto:")):
                self.targets.append(target)


def parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


# The 404 page holds its page as text, written at its root in the browser (tcdoc_site._notfound).
PAGES = sorted(p for p in HTML.rglob("*.html") if p.name != "404.html")
# The Chinese edition lies in zh_CN/ once `nox -s docs-zh` has built it; each page links to it.
CHINESE = HTML / "zh_CN"


def test_every_internal_link_and_anchor_resolves() -> None:
    parsed = {page: parse(page) for page in PAGES}
    broken = []
    for page, links in parsed.items():
        for target in links.targets:
            path, fragment = urldefrag(target)
            path = urlsplit(path).path  # drop the ?v=hash that Sphinx adds to static files
            destination = (page.parent / unquote(path)).resolve() if path else page
            if destination.is_dir():
                destination = destination / "index.html"
            if not CHINESE.is_dir() and destination.is_relative_to(CHINESE.resolve()):
                continue  # the language switch, to an edition this build did not make
            if not destination.exists():
                broken.append(f"{page.relative_to(HTML)}: {target} (no such file)")
            elif fragment and destination.suffix == ".html":
                ids = parsed[destination].ids if destination in parsed else parse(destination).ids
                if unquote(fragment) not in ids:
                    broken.append(f"{page.relative_to(HTML)}: {target} (no such anchor)")
    assert not broken, "broken internal links:\n" + "\n".join(broken)


def test_footer_names_the_tcdoc_that_produced_the_outputs() -> None:
    assert f"tcdoc {tcdoc.__version__}" in (HTML / "index.html").read_text(encoding="utf-8")


@pytest.mark.same_torch
def test_footer_names_the_torch_that_produced_the_outputs() -> None:
    assert f"torch {torch.__version__}" in (HTML / "index.html").read_text(encoding="utf-8")


def test_publishing_files_are_there() -> None:
    assert (HTML / "sitemap.xml").is_file()
    assert (HTML / "404.html").is_file()
    assert 'property="og:title"' in (HTML / "index.html").read_text(encoding="utf-8")
