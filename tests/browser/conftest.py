"""The built site, served on 127.0.0.1, and a headless Chromium that reads it as a reader would.

These tests run only when asked for by path (``pytest tests/browser``, ``nox -s browser``): the default
run skips the folder (``norecursedirs`` in pyproject.toml). They need a built site
(``nox -s docs``) and Debian's Chromium at ``/usr/bin/chromium`` (``TCDOC_CHROMIUM`` names another).
Playwright drives that browser; it never downloads one of its own.

Every page a test opens is watched: a console error, an uncaught exception or a request to any host
but this machine fails the test, with the page named. Requests that would leave the machine are not sent.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Route,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("TCDOC_HTML", ROOT / "docs" / "_build" / "html"))
SCREENSHOTS = HTML.parent / "screenshots"
GALLERY = "auto_examples"
CHROMIUM = os.environ.get("TCDOC_CHROMIUM", "/usr/bin/chromium")
# Root needs --no-sandbox; the rest keep Chromium from calling home (updates, sync, field trials).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Pages sphinx-gallery writes into a gallery folder that are not examples.
NOT_EXAMPLES = {"index.html", "sg_execution_times.html"}


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, with what to do, when there is no site or no browser to test."""
    if not (HTML / "index.html").is_file():
        raise pytest.UsageError(f"No built site at {HTML}: build it first with `python -m nox -s docs`.")
    if not Path(CHROMIUM).is_file():
        raise pytest.UsageError(
            f"No Chromium at {CHROMIUM}: install Debian's (`apt-get install chromium chromium-driver`)."
        )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Give a test that takes ``gallery_page`` each example page of the built gallery in turn."""
    if "gallery_page" in metafunc.fixturenames:
        metafunc.parametrize("gallery_page", gallery_pages())


def gallery_pages() -> list[str]:
    """Return the example pages of the built gallery, sub-galleries included, as site paths."""
    pages = sorted((HTML / GALLERY).rglob("*.html"))
    return [p.relative_to(HTML).as_posix() for p in pages if p.name not in NOT_EXAMPLES]


def example_scripts() -> list[str]:
    """Return every script in examples/, as the gallery page it should have (``auto_examples/x.html``)."""
    examples = ROOT / "examples"
    return sorted(
        f"{GALLERY}/{p.relative_to(examples).with_suffix('.html').as_posix()}" for p in examples.rglob("*.py")
    )


def gpu_gated(page_path: str) -> bool:
    """Return whether this build left the page unrun: a GPU example on a machine without CUDA."""
    return page_path.startswith(f"{GALLERY}/gpu/") and not cuda_available()


@functools.cache
def cuda_available() -> bool:
    """Ask torch, in a process of its own, whether this machine has a CUDA device."""
    code = "import torch; print(torch.cuda.is_available())"
    answer = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return answer.stdout.strip() == "True"


@pytest.fixture(scope="session")
def html() -> Path:
    """The folder of the built site."""
    return HTML


@pytest.fixture(scope="session")
def pages() -> list[str]:
    """The example pages of the built gallery, as site paths (``auto_examples/plot_01_clone.html``)."""
    return gallery_pages()


@pytest.fixture(scope="session")
def scripts() -> list[str]:
    """The gallery page each script in examples/ should have."""
    return example_scripts()


@pytest.fixture(scope="session")
def gated() -> Callable[[str], bool]:
    """Tell whether this build left a page unrun (a GPU example on a machine without CUDA)."""
    return gpu_gated


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where the pictures for review go: docs/_build/screenshots."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# -- Serving the site ------------------------------------------------------------------------


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _HostHandler(_QuietHandler):
    """Serve as Read the Docs and GitHub Pages do: a missing address gets a 404 page, status 404.

    The page is the ``404.html`` of the deepest folder above the address that has one (the
    Chinese edition's below ``zh_CN/``, the English one's elsewhere), so that a test can ask for
    either edition's 404 page at any depth.
    """

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code != 404:
            super().send_error(code, message, explain)
            return
        folder = Path(self.translate_path(self.path)).parent
        root = Path(self.directory).resolve()
        while not (folder / "404.html").is_file() and folder.resolve() != root and folder != folder.parent:
            folder = folder.parent
        page = folder / "404.html"
        if not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def _serve(
    directory: Path, prefix: str = "", handler_class: type[_QuietHandler] = _QuietHandler
) -> Iterator[str]:
    handler = functools.partial(handler_class, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """Serve the built HTML on a free port of 127.0.0.1 for the whole run; yield its base URL."""
    yield from _serve(HTML)


@pytest.fixture(scope="session")
def site_as_published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the built HTML below the path it is published at (``TCDOC_URL_PREFIX``, as in conf.py)."""
    prefix = os.environ.get("TCDOC_URL_PREFIX", "/en/latest/").strip("/")
    root = tmp_path_factory.mktemp("published")
    (root / prefix).parent.mkdir(parents=True, exist_ok=True)
    (root / prefix).symlink_to(HTML, target_is_directory=True)
    yield from _serve(root, f"{prefix}/")


@pytest.fixture(scope="session")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], str]]:
    """Serve the built HTML under any path, as a host would (404 pages included); give its URL.

    ``host("en/latest")`` serves it at ``/en/latest/``, as Read the Docs does, ``host("tcdoc")``
    at ``/tcdoc/``, as GitHub Pages serves a repository's site; each server lasts the session.
    """
    with contextlib.ExitStack() as stack:
        served: dict[str, str] = {}

        def serve(prefix: str) -> str:
            prefix = prefix.strip("/")
            if prefix not in served:
                root = tmp_path_factory.mktemp("host")
                if prefix:
                    (root / prefix).parent.mkdir(parents=True, exist_ok=True)
                    (root / prefix).symlink_to(HTML, target_is_directory=True)
                else:
                    root = HTML
                url = stack.enter_context(
                    contextlib.contextmanager(_serve)(root, f"{prefix}/" if prefix else "", _HostHandler)
                )
                served[prefix] = url
            return served[prefix]

        yield serve


@pytest.fixture(scope="session")
def site_pages() -> list[str]:
    """Every page of the built site, as site paths: the HTML files outside Sphinx's ``_`` folders."""
    pages = (p.relative_to(HTML) for p in HTML.rglob("*.html"))
    return sorted(p.as_posix() for p in pages if not p.parts[0].startswith("_"))


@pytest.fixture(scope="session")
def site_below_a_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the built HTML under /docs/tcdoc/v1/, as a host that publishes it below a path would."""
    root = tmp_path_factory.mktemp("host")
    (root / "docs" / "tcdoc").mkdir(parents=True)
    (root / "docs" / "tcdoc" / "v1").symlink_to(HTML, target_is_directory=True)
    yield from _serve(root, "docs/tcdoc/v1/")


# -- The browser -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless; Playwright gives it a fresh profile in a temporary folder."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        yield browser
    finally:
        browser.close()


@dataclass
class Watch:
    """What went wrong on the pages of one test: console errors, page errors, foreign requests."""

    problems: list[str] = field(default_factory=list)

    def attach(self, context: BrowserContext) -> None:
        context.route("**/*", self._route)
        context.on("page", self._watch_page)

    def _route(self, route: Route) -> None:
        url = route.request.url
        if urlsplit(url).hostname in LOCAL_HOSTS or urlsplit(url).scheme == "file":
            route.continue_()
        else:
            self.problems.append(f"{self._origin(route)}: request leaves localhost: {url}")
            route.abort()

    def _watch_page(self, page: Page) -> None:
        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                where = self._where(page.url)
                self.problems.append(f"{where}: console error: {message.text} ({message.location['url']})")

        page.on("console", on_console)
        page.on("pageerror", lambda e: self.problems.append(f"{self._where(page.url)}: uncaught {e}"))

    @classmethod
    def _origin(cls, route: Route) -> str:
        try:
            return cls._where(route.request.frame.url)
        except Exception:  # noqa: BLE001 (a worker's request has no frame)
            return "a worker"

    @staticmethod
    def _where(url: str) -> str:
        path = urlsplit(url).path.lstrip("/")
        return path or "index.html"


def _context(browser: Browser, viewport: dict[str, int], **options: Any) -> Iterator[Page]:
    watch = Watch()
    context = browser.new_context(viewport=viewport, color_scheme="light", **options)  # type: ignore[arg-type]
    watch.attach(context)
    try:
        yield context.new_page()
    finally:
        context.close()
    if watch.problems:
        pytest.fail("\n".join(watch.problems), pytrace=False)


# -- Every page, read once ---------------------------------------------------------------------

# How many pages are read at once, each in a context of its own: while one waits for the network
# to go quiet or for axe-core, the others draw.
READERS = 4
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
THEMES = ("light", "dark")
# furo reads the reader's choice of theme from localStorage as each page starts: light at first,
# until the reader (here, the reading) chooses dark and reloads.
# (The new tab's about:blank has no localStorage, and is left alone.)
LIGHT_AT_FIRST = """if (location.protocol.startsWith("http") && localStorage.getItem("theme") === null) {
  localStorage.setItem("theme", "light");
}"""
# Start axe-core on the page without waiting for it; AXE_RESULT waits for what it found.
AXE_START = "options => { window.__tcdocAxe = axe.run(document, options); }"
AXE_RESULT = "() => window.__tcdocAxe.then(results => results.violations)"


@dataclass
class Reading:
    """What reading one page in a fresh context found: weight, theme shown, axe-core's violations.

    ``weight`` is the bytes of every response Chromium received to show the page on a first
    visit (an empty cache), once the network was idle; ``shown`` and ``violations`` are per theme
    asked for; ``problems`` are the console errors, uncaught errors and foreign requests seen.
    """

    path: str
    weight: int = 0
    shown: dict[str, str] = field(default_factory=dict)
    violations: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass
class _Reader:
    """One page being read: its tab, its context, the watch on them and the sizes received."""

    reading: Reading
    context: BrowserContext
    page: Page
    watch: Watch
    sizes: list[int] = field(default_factory=list)

    def count(self, request: Any) -> None:
        self.sizes.append(max(0, request.sizes()["responseBodySize"]))


def read_every_page(browser: Browser, site: str, paths: list[str]) -> dict[str, Reading]:
    """Read each page in a fresh desktop context, :data:`READERS` at a time; return what each showed.

    A page is loaded once, with an empty cache, until the network is idle (its weight), checked by
    axe-core against the WCAG 2.1 A and AA rules in furo's light theme, then reloaded in the dark
    theme and checked again. ``read_every_page(browser, "http://127.0.0.1:8000/", ["index.html"])``
    gives ``{"index.html": Reading(path="index.html", weight=..., ...)}``.
    """
    if not paths:
        raise ValueError("no page to read")
    readings: dict[str, Reading] = {}
    for start in range(0, len(paths), READERS):
        readers = [_open_reader(browser, path) for path in paths[start : start + READERS]]
        try:
            _read_together(readers, site)
        finally:
            for reader in readers:
                reader.context.close()
                reader.reading.problems += reader.watch.problems
                readings[reader.reading.path] = reader.reading
    return readings


def _open_reader(browser: Browser, path: str) -> _Reader:
    watch = Watch()
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")  # type: ignore[arg-type]
    watch.attach(context)
    context.add_init_script(LIGHT_AT_FIRST)
    reader = _Reader(Reading(path), context, context.new_page(), watch)
    reader.page.on("requestfinished", reader.count)
    return reader


def _read_together(readers: list[_Reader], site: str) -> None:
    """Load, weigh and check every reader's page in both themes; each step starts on all tabs first."""
    options = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}
    for reader in readers:
        response = reader.page.goto(urljoin(site, reader.reading.path), wait_until="commit")
        if response is None or not response.ok:
            status = "no response" if response is None else f"HTTP {response.status}"
            reader.reading.problems.append(f"{reader.reading.path}: {status}")
    for reader in readers:
        reader.page.wait_for_load_state("networkidle")
        reader.reading.weight = sum(reader.sizes)
        reader.page.remove_listener("requestfinished", reader.count)
    for theme in THEMES:
        if theme != THEMES[0]:
            for reader in readers:
                reader.page.evaluate(f"localStorage.setItem('theme', '{theme}')")
                reader.page.reload(wait_until="commit")
            for reader in readers:
                reader.page.wait_for_load_state("load")
        for reader in readers:
            reader.reading.shown[theme] = reader.page.evaluate("document.body.dataset.theme")
            reader.page.evaluate(_axe_script())
            reader.page.evaluate(AXE_START, options)
        for reader in readers:
            found = reader.page.evaluate(AXE_RESULT)
            reader.reading.violations[theme] = [_described(violation) for violation in found]


def _described(violation: dict[str, Any]) -> str:
    """Say what axe-core found: the rule, on how many nodes, and the first five of them."""
    targets = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
    return f"{violation['id']} on {len(violation['nodes'])} nodes: {violation['help']} [{targets}]"


@functools.cache
def _axe_script() -> str:
    """axe-core, as axe-playwright-python bundles it."""
    from axe_playwright_python.sync_playwright import Axe

    return str(Axe().axe_script)


@pytest.fixture(scope="session")
def every_page(browser: Browser, site_as_published: str, site_pages: list[str]) -> dict[str, Reading]:
    """Every page of the site read once, as published (:func:`read_every_page`), for the whole run."""
    return read_every_page(browser, site_as_published, site_pages)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop-sized tab; at the end of the test, fail on any console error or foreign request."""
    yield from _context(browser, DESKTOP, accept_downloads=True)


@pytest.fixture
def fresh_page(browser: Browser) -> Callable[[], AbstractContextManager[Page]]:
    """Make desktop tabs, each in a context of its own (an empty cache), watched like ``page``."""
    return lambda: contextlib.contextmanager(_context)(browser, DESKTOP)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone-sized tab with touch, watched like ``page``."""
    yield from _context(browser, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
