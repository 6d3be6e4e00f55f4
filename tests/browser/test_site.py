"""The built site in a real browser: what a reader sees, clicks and downloads.

Each gallery page is found in the built site, not listed here; only the landing page, the matrix
page and the search are named. The fixtures (conftest.py) fail a test whose pages log a console
error or try to reach another host.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from playwright.sync_api import Locator, Page, expect

# What sphinx-gallery writes for a cell's output: text, an HTML repr, a figure.
OUTPUT = ".sphx-glr-script-out, div.output_subarea, img.sphx-glr-single-img, img.sphx-glr-multi-img"
GALLERY = "auto_examples"
CODE_CELL = "div.highlight-Python"
DOWNLOAD = "a.reference.download"
MATRIX = "reference/matrix.html"


def open_page(page: Page, site: str, path: str) -> None:
    response = page.goto(urljoin(site, path), wait_until="load")
    assert response is not None, f"{path}: no response"
    assert response.ok, f"{path}: HTTP {response.status}"


def site_path(html: Path, url: str) -> Path:
    """Return the file under the built HTML that a URL of the local server names."""
    return html / unquote(urlsplit(url).path).lstrip("/")


def luminance(css_colour: str) -> float:
    """Return the brightness (0 black, 1 white) of a computed ``rgb(...)`` or ``rgba(...)`` colour."""
    numbers = css_colour[css_colour.index("(") + 1 : css_colour.index(")")].split(",")
    red, green, blue = (float(n) / 255 for n in numbers[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def background(page: Page) -> float:
    return luminance(page.evaluate("getComputedStyle(document.body).backgroundColor"))


# -- The site as a whole -----------------------------------------------------------------------


def test_every_example_has_a_gallery_page(scripts: list[str], pages: list[str]) -> None:
    missing = sorted(set(scripts) - set(pages))
    assert not missing, f"examples without a page in the built site: {missing}"


def test_landing_page_shows_the_property_table(page: Page, site: str) -> None:
    open_page(page, site, "index.html")
    table = page.locator("table.tcdoc-summary").first
    assert table.is_visible(), "index.html: the property table is not visible"
    headers = table.locator("thead th").all_inner_texts()
    assert len(headers) >= 3, f"index.html: the property table has headers {headers}"
    first_column = table.locator("tbody tr td:first-child").all_inner_texts()
    for method in ("x.clone()", "x.detach()", "copy.deepcopy(x)"):
        assert method in first_column, f"index.html: the property table has no row for {method}"
    for row in table.locator("tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        assert len(cells) == len(headers), f"index.html: row {cells} does not fill the headers {headers}"
        assert all(cell.strip() for cell in cells), f"index.html: row {cells} has an empty cell"


def test_search_finds_deepcopy(page: Page, site: str) -> None:
    open_page(page, site, "index.html")
    box = page.locator("input.sidebar-search")
    box.fill("deepcopy")
    box.press("Enter")
    page.wait_for_url("**/search.html?q=deepcopy*")
    results = page.locator("#search-results ul.search li")
    results.first.wait_for(timeout=15_000)
    titles = results.locator("a").all_inner_texts()
    found = any("deepcopy" in title.lower() for title in titles)
    assert found, f"search.html: no result for deepcopy among {titles}"


def test_theme_toggle_switches_to_dark(page: Page, site: str) -> None:
    open_page(page, site, "index.html")
    assert background(page) > 0.8, "index.html: the page does not start light"
    toggle = page.locator("button.theme-toggle:visible").first
    for _ in range(3):  # furo cycles through auto, dark and light
        toggle.click()
        if page.evaluate("document.body.dataset.theme") == "dark":
            break
    assert page.evaluate("document.body.dataset.theme") == "dark", "index.html: the toggle never chose dark"
    page.wait_for_timeout(300)  # let a colour transition finish before reading the colour
    assert background(page) < 0.2, "index.html: the theme is dark but the background is not"
    page.reload()
    assert page.evaluate("document.body.dataset.theme") == "dark", "index.html: dark is not kept on reload"


def test_navigation_works_on_a_phone(phone: Page, site: str) -> None:
    open_page(phone, site, "index.html")
    width = phone.viewport_size["width"] if phone.viewport_size else 0
    scroll_width = phone.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"index.html: {scroll_width}px wide on a {width}px phone"
    drawer = phone.locator(".sidebar-drawer")
    box = drawer.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 0, "index.html: the navigation covers the page on a phone"
    phone.locator("label.nav-overlay-icon").click()
    phone.wait_for_function(
        "document.querySelector('.sidebar-drawer').getBoundingClientRect().left >= 0", timeout=5_000
    )
    link = drawer.locator(".sidebar-tree a.reference").first
    assert link.is_visible(), "index.html: the opened navigation shows no link"
    href = link.get_attribute("href")
    assert href
    link.click()
    phone.wait_for_load_state()
    assert phone.url == urljoin(urljoin(site, "index.html"), href), f"index.html: {href} led to {phone.url}"
    assert phone.locator("article h1").first.is_visible(), f"{href}: no title on a phone"


def test_matrix_page_has_a_table(page: Page, site: str) -> None:
    open_page(page, site, MATRIX)
    table = page.locator("article table").first
    assert table.is_visible(), f"{MATRIX}: no visible table"
    assert table.locator("tbody tr").count() > 0, f"{MATRIX}: the table has no rows"


def reader_walk(page: Page, start: str) -> None:
    """Open the landing page at ``start``, check its table and styles, then follow the sidebar."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.url}: HTTP {r.status}") if r.status >= 400 else None)
    # A request the browser itself abandons when the reader clicks on (net::ERR_ABORTED, say for the
    # favicon of a page left early) is no failure of the site.
    page.on(
        "requestfailed",
        lambda r: None if r.failure == "net::ERR_ABORTED" else failed.append(f"{r.url}: {r.failure}"),
    )
    page.goto(start, wait_until="load")
    assert page.locator("table.tcdoc-summary").first.is_visible(), f"{start}: no property table"
    brand = page.evaluate("getComputedStyle(document.body).getPropertyValue('--color-brand-primary')")
    assert brand.strip(), f"{start}: furo's stylesheet did not load"
    page.locator(".sidebar-tree a", has_text="The property matrix").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(MATRIX), f"{start}: the sidebar link led to {page.url}"
    assert page.locator("article table").first.is_visible(), f"{page.url}: no table"
    assert not failed, f"{start}: requests failed:\n" + "\n".join(failed)


def test_site_works_below_any_path(page: Page, site_below_a_path: str) -> None:
    reader_walk(page, site_below_a_path + "index.html")


def test_site_works_from_the_file_system(page: Page, html: Path) -> None:
    reader_walk(page, (html / "index.html").as_uri())


def test_computation_times_pages_load_nothing_remote(page: Page, site: str, html: Path) -> None:
    # The Watch fixture fails the test on any request that leaves localhost.
    for times in sorted(html.rglob("sg_execution_times.html")):
        open_page(page, site, times.relative_to(html).as_posix())
        assert page.locator("article table").first.is_visible(), f"{times.name}: no table"


# -- Every gallery page --------------------------------------------------------------------------


def test_gallery_page_shows_its_output_copies_its_code_and_downloads(
    page: Page, site: str, html: Path, gallery_page: str, gated: Callable[[str], bool]
) -> None:
    """One load of each example page: its output, its copy buttons, then its downloads."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.rstrip("/"))
    open_page(page, site, gallery_page)
    check_output(page, gallery_page, gated(gallery_page))
    check_copy_buttons(page, gallery_page)
    check_downloads(page, html, gallery_page)


def check_output(page: Page, path: str, gated: bool) -> None:
    """The page shows code and its output; a GPU example not run here, a note and no output."""
    cells = page.locator(f"article {CODE_CELL}")
    assert cells.count() > 0, f"{path}: no code"
    outputs = page.locator(f"article :is({OUTPUT})")
    if gated:
        note = page.locator("article .admonition", has_text="CUDA")
        assert note.count() > 0, f"{path}: a GPU example not run here, with no note mentioning CUDA"
        assert outputs.count() == 0, f"{path}: a GPU example not run here shows output"
    else:
        assert outputs.count() > 0, f"{path}: no output block"
        assert outputs.first.is_visible(), f"{path}: the output is not visible"


def check_copy_buttons(page: Page, path: str) -> None:
    """Each code cell has one copy button, and the first one copies the cell's code."""
    cells = page.locator(f"article {CODE_CELL}")
    for i in range(cells.count()):
        buttons = cells.nth(i).locator("button.copybtn").count()
        assert buttons == 1, f"{path}: code cell {i + 1} has {buttons} copy buttons, not one"
    first = cells.first
    first.hover()
    first.locator("button.copybtn").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    shown = first.locator("pre").inner_text()
    assert copied.strip() == shown.strip(), f"{path}: the copy button copied {copied!r}, not the code"


# -- The copy button ---------------------------------------------------------------------------------

CLI = "reference/cli.html"
HAN = re.compile("[\u4e00-\u9fff]")
"""A Chinese character: the Chinese edition's interface words have some."""
API = "reference/api.html"


def copy_block(page: Page, block: Locator) -> str:
    """Click the copy button of ``block`` (a ``div.highlight``); return what it put on the clipboard."""
    page.evaluate("navigator.clipboard.writeText('')")
    block.hover()
    block.locator("button.copybtn").click()
    page.wait_for_function("navigator.clipboard.readText().then(t => t !== '')", timeout=5_000)
    return str(page.evaluate("navigator.clipboard.readText()"))


def with_clipboard(page: Page, site: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.rstrip("/"))


def test_copy_button_is_a_named_button_that_says_copied(page: Page, site: str) -> None:
    with_clipboard(page, site)
    open_page(page, site, CLI)
    block = page.locator("article div.highlight").first
    button = block.locator("button.copybtn")
    assert button.get_attribute("aria-label") == "Copy code", f"{CLI}: the copy button has no name"
    assert button.evaluate("b => getComputedStyle(b).opacity") == "0", f"{CLI}: the button shows unasked"
    button.focus()  # by keyboard: the button shows, and Enter copies
    expect(button, f"{CLI}: a focused copy button stays hidden").to_have_css("opacity", "1")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('button.copybtn.copied') !== null", timeout=5_000)
    assert button.inner_text().strip() == "Copied", f"{CLI}: the button says {button.inner_text()!r}"
    status = page.locator("[role=status]")
    assert status.inner_text().strip() == "Copied", f"{CLI}: a screen reader hears {status.inner_text()!r}"
    assert page.evaluate("navigator.clipboard.readText()"), f"{CLI}: Enter on the button copied nothing"


def test_copy_button_speaks_the_language_of_its_edition(page: Page, site: str) -> None:
    with_clipboard(page, site)
    open_page(page, site, "zh_CN/" + CLI)
    button = page.locator("article div.highlight").first.locator("button.copybtn")
    label = button.get_attribute("aria-label") or ""
    assert HAN.search(label), f"zh_CN/{CLI}: the copy button is named {label!r}"
    assert button.get_attribute("title") == label, f"zh_CN/{CLI}: its tooltip differs from its name"
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('button.copybtn.copied') !== null", timeout=5_000)
    said = button.inner_text().strip()
    assert HAN.search(said), f"zh_CN/{CLI}: the button says {said!r}"


def test_copy_button_copies_the_commands_of_a_console_block_without_prompts_or_output(
    page: Page, site: str
) -> None:
    with_clipboard(page, site)
    open_page(page, site, CLI)
    blocks = page.locator("article div.highlight-console div.highlight")
    assert blocks.count() > 0, f"{CLI}: no console block"
    with_output = 0
    for i in range(blocks.count()):
        block = blocks.nth(i)
        lines = block.locator("pre").inner_text().splitlines()
        commands = [line.removeprefix("$ ") for line in lines if line.startswith("$ ")]
        with_output += len(commands) < len(lines)
        copied = copy_block(page, block)
        assert copied == "\n".join(commands), f"{CLI}: console block {i + 1} copied {copied!r}"
    assert with_output, f"{CLI}: no console block shows a command's output"


def test_copy_button_copies_the_code_of_a_doctest_without_prompts_or_output(page: Page, site: str) -> None:
    with_clipboard(page, site)
    open_page(page, site, API)
    block = page.locator("article div.highlight:has(.gp)").first
    lines = block.locator("pre").inner_text().splitlines()
    code = [line[4:] for line in lines if re.match(r"(>>>|\.\.\.)( |$)", line)]
    assert 0 < len(code) < len(lines), f"{API}: the first doctest has no code, or no output"
    copied = copy_block(page, block)
    assert copied == "\n".join(code), f"{API}: the doctest's copy button copied {copied!r}"


def test_copy_button_follows_the_dark_theme(page: Page, site: str) -> None:
    page.context.add_init_script("localStorage.setItem('theme', 'dark')")
    open_page(page, site, CLI)
    button = page.locator("article div.highlight button.copybtn").first
    button.focus()
    colour = button.evaluate("b => getComputedStyle(b).backgroundColor")
    assert luminance(colour) < 0.2, f"{CLI}: in the dark theme the copy button is {colour}"


def check_downloads(page: Page, html: Path, path: str) -> None:
    """The page offers its .py, .ipynb and .zip, and each arrives whole (:func:`check_download`)."""
    links = page.locator(f"article {DOWNLOAD}")
    suffixes = sorted(Path(href).suffix for href in links.evaluate_all("ls => ls.map(l => l.href)"))
    assert suffixes == [".ipynb", ".py", ".zip"], f"{path}: download links for {suffixes}"
    for i in range(links.count()):
        check_download(page, html, path, links.nth(i))


def test_gallery_index_offers_every_example_zipped(
    page: Page, site: str, html: Path, pages: list[str]
) -> None:
    path = f"{GALLERY}/index.html"
    open_page(page, site, path)
    links = page.locator(f"article {DOWNLOAD}")
    assert links.count() >= 2, f"{path}: {links.count()} download links, expected the .py and .ipynb zips"
    expected = {p.removeprefix(f"{GALLERY}/").removesuffix(".html") for p in pages}
    for i in range(links.count()):
        names = check_download(page, html, path, links.nth(i))
        stems = {name.rsplit(".", 1)[0] for name in names}
        assert stems == expected, f"{path}: {links.nth(i).inner_text()} holds {sorted(stems)}"


def check_download(page: Page, html: Path, path: str, link: Locator) -> list[str]:
    """Click a download link; check the file arrives whole and reads as its kind. Return zip members."""
    href = link.get_attribute("href") or ""
    url = urljoin(page.url, href)
    name = Path(href).name
    response = page.request.get(url)
    assert response.ok, f"{path}: {name} answers HTTP {response.status}"
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.failure() is None, f"{path}: downloading {name} failed: {download.failure()}"
    assert download.suggested_filename == name, f"{path}: {href} downloads as {download.suggested_filename}"
    data = Path(download.path()).read_bytes()
    assert data, f"{path}: {name} is empty"
    assert data == site_path(html, url).read_bytes(), f"{path}: {name} differs from the file in the build"
    if name.endswith(".py"):
        compile(data, name, "exec")
    elif name.endswith(".ipynb"):
        notebook = json.loads(data)
        assert notebook.get("cells"), f"{path}: {name} has no cells"
    elif name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            assert archive.testzip() is None, f"{path}: {name} is corrupt"
            return archive.namelist()
    return []


# -- Pictures for review -----------------------------------------------------------------------------


def test_screenshots(
    page: Page, site: str, pages: list[str], gated: Callable[[str], bool], screenshots: Path
) -> None:
    examples = [p for p in pages if not gated(p)]
    assert examples, "no example page to photograph"
    shots = {"landing": "index.html", "example": examples[0], "matrix": MATRIX}
    for name, path in shots.items():
        open_page(page, site, path)
        target = screenshots / f"{name}.png"
        page.screenshot(path=target, full_page=True)
        assert target.stat().st_size > 10_000, f"{path}: the screenshot {target} is nearly empty"
