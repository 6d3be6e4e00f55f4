"""The site as hosts serve it: under Read the Docs' /en/latest/, GitHub Pages' /<repository>/, any path.

Each test serves the built HTML below a path, with a 404 page for every missing address as the
hosts do (``host`` in conftest.py), and follows the language switch both ways from the home page,
a nested page and the 404 page, which the host serves at the missing address, at any depth. The
site is built for one path (``TCDOC_URL_PREFIX``, by default /en/latest/); the 404 page finds its
root under the others by asking each folder of the address for ``_static/tcdoc-edition.txt``
(``tcdoc_site._notfound``), and those questions are the only requests allowed to fail.
Needs both editions (``nox -s docs docs-zh``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, Response

HTML = Path(os.environ.get("TCDOC_HTML", Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"))
SWITCH = "nav.tcdoc-language"
MARK = "_static/tcdoc-edition.txt"
BUILT_FOR = os.environ.get("TCDOC_URL_PREFIX", "/en/latest/").strip("/")
# Read the Docs, GitHub Pages (a repository named tcdoc), a path the build knows nothing of, and none.
PREFIXES = sorted({"en/latest", "tcdoc", "docs/tcdoc/v1", "", BUILT_FOR})

pytestmark = pytest.mark.skipif(
    not (HTML / "zh_CN" / "index.html").is_file(),
    reason="no Chinese edition: run `nox -s docs-zh` after `nox -s docs`",
)


class Reader:
    """A tab that records every request that failed, or that left this machine."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.failed: list[str] = []
        self.errors: list[str] = []
        page.on("response", self._response)
        page.on("requestfailed", self._request_failed)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _response(self, response: Response) -> None:
        if response.status >= 400 and response.request.resource_type != "document":
            self.failed.append(f"{response.url} (HTTP {response.status})")

    def _request_failed(self, request: Request) -> None:
        if request.failure != "net::ERR_ABORTED":  # a load that a click on a link cut short
            self.failed.append(f"{request.url} ({request.failure})")

    def open(self, url: str, status: int = 200) -> None:
        response = self.page.goto(url, wait_until="load")
        assert response is not None, f"{url}: no response"
        assert response.status == status, f"{url}: HTTP {response.status}, not {status}"

    def switch(self, language: str) -> None:
        self.page.locator(f"{SWITCH} a[hreflang='{language}']").click()
        self.page.wait_for_load_state("load")

    def check(self) -> None:
        """Fail on an uncaught error, or on a failed request other than the 404 page's questions."""
        failed = [entry for entry in self.failed if not urlsplit(entry.split(" ")[0]).path.endswith(MARK)]
        assert not failed, "requests failed:\n" + "\n".join(failed)
        assert not self.errors, "uncaught errors:\n" + "\n".join(self.errors)


@pytest.fixture(scope="module")
def local_context(browser: Browser) -> Iterator[BrowserContext]:
    """One desktop context for the module's tabs, which sends no request off this machine."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if urlsplit(route.request.url).hostname == "127.0.0.1" else route.abort()
        ),
    )
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def reader(local_context: BrowserContext) -> Iterator[Reader]:
    """A new tab of that context for each test: what the tab saw is the test's alone."""
    page = local_context.new_page()
    try:
        yield Reader(page)
    finally:
        page.close()


def styled(page: Page) -> bool:
    """Whether furo's stylesheet applies: it hides the mobile header on a desktop-wide tab."""
    return bool(
        page.evaluate("getComputedStyle(document.querySelector('.mobile-header')).display === 'none'")
    )


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("path", ["index.html", "explanation/clone.html"])
def test_the_switch_works_both_ways_under_the_path(
    reader: Reader, host: Callable[[str], str], prefix: str, path: str
) -> None:
    site = host(prefix)
    reader.open(urljoin(site, path))
    reader.switch("zh-CN")
    assert reader.page.url == urljoin(site, f"zh_CN/{path}")
    assert reader.page.evaluate("document.documentElement.lang") == "zh-CN"
    reader.switch("en")
    assert reader.page.url == urljoin(site, path)
    reader.check()


@pytest.mark.parametrize("prefix", ["en/latest", "tcdoc"])
def test_the_switch_keeps_the_anchor(reader: Reader, host: Callable[[str], str], prefix: str) -> None:
    site = host(prefix)
    anchor = "#what-it-shares-with-x"
    reader.open(urljoin(site, "explanation/clone.html") + anchor)
    reader.switch("zh-CN")
    assert reader.page.url == urljoin(site, "zh_CN/explanation/clone.html") + anchor
    assert reader.page.locator(anchor).count() == 1, "the Chinese page has no section of that id"
    # An anchor chosen after the page loaded (a click in the table of contents) is kept too.
    reader.page.evaluate("location.hash = '#gradients-reach-x'")
    reader.switch("en")
    assert reader.page.url == urljoin(site, "explanation/clone.html") + "#gradients-reach-x"
    reader.check()


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("edition", ["", "zh_CN/"])
@pytest.mark.parametrize("missing", ["no-such-page.html", "explanation/no/such/page.html"])
def test_the_404_page_works_at_any_depth_under_the_path(
    reader: Reader, host: Callable[[str], str], prefix: str, edition: str, missing: str
) -> None:
    site = host(prefix)
    root = urljoin(site, edition)
    reader.open(urljoin(root, missing), status=404)
    page = reader.page
    assert page.evaluate("document.documentElement.lang") == ("zh-CN" if edition else "en")
    assert styled(page), f"{edition}{missing}: the page is not styled"
    assert page.evaluate("document.querySelector('link[rel=icon], link[rel~=icon]').href") == urljoin(
        root, "_static/favicon.svg"
    )
    # The skip link stays on the page shown, not on the root the page's base points at.
    skip = page.evaluate("document.querySelector('a.skip-to-content').href")
    assert skip == urljoin(root, missing) + "#furo-main-content"
    # The home page link of the text, then back to the 404 page's language switch.
    page.locator("article p a.reference.internal").first.click()
    page.wait_for_load_state("load")
    assert page.url == urljoin(root, "index.html")
    reader.open(urljoin(root, missing), status=404)
    other = "en" if edition else "zh-CN"
    reader.switch(other)
    assert page.url == urljoin(site, "404.html" if edition else "zh_CN/404.html")
    assert styled(page)
    reader.switch("zh-CN" if edition else "en")
    assert page.url == urljoin(root, "404.html")
    reader.check()


def test_the_404_page_asks_nothing_where_the_site_was_built_for(
    reader: Reader, host: Callable[[str], str]
) -> None:
    site = host(BUILT_FOR)
    asked: list[str] = []
    reader.page.on(
        "request", lambda request: asked.append(request.url) if request.url.endswith(MARK) else None
    )
    reader.open(urljoin(site, "explanation/no/such/page.html"), status=404)
    assert styled(reader.page)
    assert not asked, f"asked {asked} though the address starts with /{BUILT_FOR}/"
    reader.check()
