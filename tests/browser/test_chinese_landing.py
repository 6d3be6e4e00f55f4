"""The Chinese landing page, whole, on a desktop and a phone screen, in a font that has its characters.

The screenshots (``docs/_build/screenshots/zh-landing-desktop.png`` and ``zh-landing-phone.png``)
are for a person to look at; the test checks what can be checked in the page: every Chinese
character is drawn from a font that has it (two different characters never come out as the same
picture, as the empty boxes of a missing font do), the page is no wider than the screen, and the
picture holds the whole page. Skipped, saying so, without the Chinese edition (``nox -s docs-zh``).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Page

HTML = Path(os.environ.get("TCDOC_HTML", Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"))

pytestmark = pytest.mark.skipif(
    not (HTML / "zh_CN" / "index.html").is_file(),
    reason="no Chinese edition: run `nox -s docs-zh` after `nox -s docs`",
)

# Draw two characters in the font the page's text uses, each on a canvas of its own, and say
# whether the two pictures differ. A font that lacks them draws the same empty box for both.
SAME_PICTURE = """([first, second]) => {
  const font = getComputedStyle(document.querySelector("article p")).fontFamily;
  const picture = (character) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 48;
    const context = canvas.getContext("2d");
    context.font = `40px ${font}`;
    context.fillText(character, 2, 40);
    return Array.from(context.getImageData(0, 0, 48, 48).data).join(",");
  };
  const a = picture(first), b = picture(second);
  return {font, inked: a.split(",").some((v) => v !== "0"), same: a === b};
}"""


def _png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


@pytest.mark.parametrize("screen", ["page", "phone"])
def test_the_chinese_landing_page_whole_with_its_characters(
    screen: str, request: pytest.FixtureRequest, site: str, screenshots: Path
) -> None:
    tab: Page = request.getfixturevalue(screen)
    response = tab.goto(urljoin(site, "zh_CN/index.html"), wait_until="load")
    assert response is not None, "zh_CN/index.html: no response"
    assert response.ok, f"zh_CN/index.html: HTTP {response.status}"
    tab.evaluate("document.fonts.ready")
    for first, second in (("张", "量"), ("拷", "贝"), ("视", "图")):
        drawn = tab.evaluate(SAME_PICTURE, [first, second])
        assert drawn["inked"], f"zh_CN/index.html: {first} draws nothing in {drawn['font']}"
        assert not drawn["same"], (
            f"zh_CN/index.html: {first} and {second} come out as the same picture in {drawn['font']}: "
            "no installed font has Chinese characters (install fonts-noto-cjk)"
        )
    width = tab.evaluate("window.innerWidth")
    scroll_width = tab.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"zh_CN/index.html is {scroll_width}px wide on a {width}px screen"
    name = "desktop" if screen == "page" else "phone"
    target = screenshots / f"zh-landing-{name}.png"
    tab.screenshot(path=target, full_page=True)
    height = tab.evaluate("document.documentElement.scrollHeight")
    scale = tab.evaluate("window.devicePixelRatio")
    shot_width, shot_height = _png_size(target)
    assert shot_width == round(width * scale), f"{target.name}: {shot_width}px wide, the screen {width}px"
    assert shot_height >= round(height * scale) - 1, (
        f"{target.name} is {shot_height}px high, the page {height}px: it is not whole"
    )
