"""The gallery's figures in the built site: each image's alt text reaches the reader whole.

Run after ``nox -s docs``; skipped like tests/site/test_built_site.py when there is no build.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "docs" / "_build" / "html"
GENERATED = ROOT / "docs" / "auto_examples"
ALT = re.compile(r"^\s+:alt: (.*)$", re.MULTILINE)
FIGURE_CLASSES = {"sphx-glr-single-img", "sphx-glr-multi-img"}
IMAGE_ATTRIBUTES = {"src", "srcset", "alt", "class", "loading", "width", "height"}

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)


class _Figures(HTMLParser):
    """Collect the attributes of each figure image that sphinx-gallery wrote into a page."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "img" and FIGURE_CLASSES & set((values.get("class") or "").split()):
            self.images.append(values)
        elif (
            tag == "img"
            and "/sphx_glr_" in (values.get("src") or "")
            and "thumb" not in (values.get("src") or "")
        ):
            self.images.append(values)  # a figure whose class attribute a stray quote swallowed


PAGES = sorted(p for p in GENERATED.rglob("plot_*.rst"))


@pytest.mark.parametrize("rst", PAGES, ids=[p.stem for p in PAGES])
def test_figure_alt_texts_are_whole(rst: Path) -> None:
    """Each figure's alt attribute holds the whole description its example gave, and nothing leaks."""
    page = HTML / rst.relative_to(ROOT / "docs").with_suffix(".html")
    figures = _Figures()
    figures.feed(page.read_text(encoding="utf-8"))
    described = ALT.findall(rst.read_text(encoding="utf-8"))
    assert [image.get("alt") for image in figures.images] == described, (
        f"{page.relative_to(HTML)}: the images' alt attributes are not the descriptions its example gave"
    )
    for image in figures.images:
        stray = set(image) - IMAGE_ATTRIBUTES
        assert not stray, f"{page.relative_to(HTML)}: an image with stray attributes {sorted(stray)}"
