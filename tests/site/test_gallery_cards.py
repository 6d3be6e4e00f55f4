"""The gallery's thumbnails in the built site: one picture of its own for every example, described.

Run after ``nox -s docs``; skipped like tests/site/test_built_site.py when there is no build.
"""

from __future__ import annotations

import hashlib
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sphinx_gallery import glr_path_static

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "docs" / "_build" / "html"
THUMBS = ROOT / "docs" / "auto_examples"

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class _Cards(HTMLParser):
    """Collect the image of each thumbnail card and the title the card shows."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []
        self.titles: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if (
            tag == "img"
            and "/sphx_glr_" in (values.get("src") or "")
            and "_thumb." in (values.get("src") or "")
        ):
            self.images.append(values)
        self._in_title = tag == "div" and values.get("class") == "sphx-glr-thumbnail-title"

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.titles.append(data.strip())
            self._in_title = False


def test_every_example_has_a_thumbnail_of_its_own() -> None:
    examples = sorted((ROOT / "examples").rglob("*.py"))
    thumbs = sorted(THUMBS.rglob("images/thumb/sphx_glr_*_thumb.*"))
    thumbs = [p for p in thumbs if ".zh_CN." not in p.name]  # the Chinese edition's, beside each
    assert sorted(p.name.removeprefix("sphx_glr_").rsplit("_thumb.", 1)[0] for p in thumbs) == sorted(
        p.stem for p in examples
    )
    placeholders = {digest(Path(glr_path_static()) / name) for name in ("no_image.png", "broken_example.png")}
    by_digest: dict[str, list[str]] = {}
    for thumb in thumbs:
        by_digest.setdefault(digest(thumb), []).append(thumb.name)
    assert not placeholders & by_digest.keys(), "a thumbnail is sphinx-gallery's placeholder"
    shared = [names for names in by_digest.values() if len(names) > 1]
    assert not shared, f"thumbnails that are the same picture: {shared}"


def test_gallery_cards_describe_their_pictures() -> None:
    for index in sorted(HTML.glob("auto_examples/**/index.html")):  # the gallery and its sub-galleries
        cards = _Cards()
        cards.feed(index.read_text(encoding="utf-8"))
        assert cards.images, f"{index.relative_to(HTML)}: no thumbnail cards"
        # The alt text comes from the card's link, whose apostrophes Sphinx made typographic.
        alts = [(image.get("alt") or "").replace("\u2019", "'") for image in cards.images]
        assert alts == cards.titles, (
            f"{index.relative_to(HTML)}: alt texts {alts} are not the titles {cards.titles}"
        )
        assert all(alts), f"{index.relative_to(HTML)}: a thumbnail without alt text"
        assert all(image.get("loading") == "lazy" for image in cards.images), (
            f"{index.relative_to(HTML)}: a thumbnail that does not load lazily"
        )
