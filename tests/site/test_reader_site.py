"""What a reader expects of the built site: install, links in code, sources, changes, sitemap, previews.

Checks on docs/_build/html, run after ``nox -s docs``; skipped, like test_built_site.py, when the
site has not been built (and a failure under CI).
"""

from __future__ import annotations

import html
import json
import os
import re
import struct
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "docs" / "_build" / "html"
REPOSITORY = "https://github.com/tcdoc/tcdoc"

if not (HTML / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{HTML} has no built site: run 'nox -s docs' before the tests")
    pytest.skip("the site is not built: run 'nox -s docs' first", allow_module_level=True)


class _Page(HTMLParser):
    """Collect a page's headings' ids, its links and meta tags, and the links inside its example code."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[dict[str, str]] = []
        self.meta: dict[str, str] = {}
        self.code_links: list[dict[str, str]] = []
        self._code_depth = 0  # inside <div class="highlight-Python ...">: the nesting of its divs
        self._open: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "meta" and values.get("property"):
            self.meta[values["property"]] = values.get("content", "")
        if tag == "div":
            if self._code_depth:
                self._code_depth += 1
            elif "highlight-Python" in values.get("class", "").split():
                self._code_depth = 1
        if tag == "a":
            self._open = {**values, "text": ""}

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._code_depth:
            self._code_depth -= 1
        if tag == "a" and self._open is not None:
            self.links.append(self._open)
            if self._code_depth:
                self.code_links.append(self._open)
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data


def page(path: str) -> _Page:
    parsed = _Page()
    parsed.feed((HTML / path).read_text(encoding="utf-8"))
    return parsed


def named_code_links(path: str) -> set[str]:
    """The names an example's code links to, the variables linked to their type left out."""
    return {
        link.get("title", "")
        for link in page(path).code_links
        if "sphx-glr-backref-instance" not in link.get("class", "").split()
        and any(c.startswith("sphx-glr-backref-module-") for c in link.get("class", "").split())
    }


# -- Installing tcdoc --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["index.html", "auto_examples/index.html"])
def test_install_section_names_the_package_extras_and_the_cpu_wheel(path: str) -> None:
    parsed = page(path)
    assert "install" in parsed.ids, f"{path} has no section with the id 'install'"
    text = (HTML / path).read_text(encoding="utf-8")
    markup = text[text.index('id="install"') :]
    section = " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())  # the words, as read
    for expected in ("pip install tcdoc", "tcdoc[plot]", "tcdoc[sphinx]", "download.pytorch.org/whl/cpu"):
        assert expected in section, f"{path}: the Install section does not mention {expected!r}"


def notebooks() -> list[Path]:
    return sorted((HTML / "_downloads").rglob("*.ipynb"))


def test_every_example_is_offered_as_a_notebook() -> None:
    scripts = {p.stem for p in (ROOT / "examples").rglob("*.py")}
    assert {p.stem for p in notebooks()} == scripts


@pytest.mark.parametrize("notebook", notebooks(), ids=lambda p: p.stem)
def test_a_downloaded_notebook_starts_by_installing_tcdoc(notebook: Path) -> None:
    first = json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]
    source = "".join(first["source"])
    assert first["cell_type"] == "code"
    assert re.search(r"^%pip install .*tcdoc\[plot\]", source, re.MULTILINE), source
    assert "download.pytorch.org/whl/cpu" in source  # how to get the CPU build of torch


SPHINX_ROLE = re.compile(r":(?:py:)?[a-z]+:`[^`]+`|`sphx_glr_[\w.]+`")


@pytest.mark.parametrize("notebook", notebooks(), ids=lambda p: p.stem)
def test_a_downloaded_notebook_reads_without_sphinx_roles(notebook: Path) -> None:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    assert not SPHINX_ROLE.findall(text), f"{notebook.name}: {SPHINX_ROLE.findall(text)}"
    (source,) = (ROOT / "examples").rglob(notebook.with_suffix(".py").name)
    if ":doc:`" in source.read_text(encoding="utf-8"):  # each page it names is a whole address
        assert re.search(r"\]\(https?://[^)]+\.html(#[^)]*)?\)", text), f"{notebook.name} links to no page"


def test_a_downloaded_script_reads_without_sphinx_roles() -> None:
    scripts = sorted((HTML / "_downloads").rglob("*.py"))
    assert scripts
    for script in scripts:
        comments = [
            line for line in script.read_text(encoding="utf-8").splitlines() if line.lstrip().startswith("#")
        ]
        found = [line for line in comments if SPHINX_ROLE.search(line)]
        assert not found, f"{script.name}: {found}"


# -- Links in example code ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("example", "names"),
    [
        # Functions of torch, methods and attributes of a tensor variable, context managers.
        (
            "plot_01_clone",
            {
                "torch.randn",
                "torch.Tensor.clone",
                "torch.Tensor.detach",
                "torch.Tensor.is_leaf",
                "torch.no_grad",
            },
        ),
        ("plot_03_deepcopy", {"copy.deepcopy", "torch.Tensor.detach"}),
        # A method written in Python, on a variable holding a module.
        ("plot_10_best_model", {"copy.deepcopy", "torch.nn.Module.state_dict"}),
        ("plot_13_numpy", {"torch.from_numpy", "torch.Tensor.numpy", "numpy.zeros"}),
    ],
)
def test_names_in_example_code_link_to_their_documentation(example: str, names: set[str]) -> None:
    linked = named_code_links(f"auto_examples/{example}.html")
    assert names <= linked, f"{example}: {sorted(names - linked)} are not links; links: {sorted(linked)}"


def test_code_links_point_at_the_official_pages() -> None:
    links = {
        link["title"]: link["href"]
        for link in page("auto_examples/plot_01_clone.html").code_links
        if link.get("title", "").startswith("torch.")
    }
    stable = "https://docs.pytorch.org/docs/stable/"
    assert links["torch.Tensor.clone"] == f"{stable}generated/torch.Tensor.clone.html#torch.Tensor.clone"
    assert links["torch.randn"] == f"{stable}generated/torch.randn.html#torch.randn"


# -- Where each page comes from ----------------------------------------------------------------


def source_buttons(path: str) -> dict[str, str]:
    """The page's view and edit buttons: {"view": address, "edit": address}."""
    parsed = page(path)
    found = {}
    for link in parsed.links:
        if link.get("href", "").startswith(REPOSITORY):
            found["edit" if link.get("rel") == "edit" else "view"] = link["href"]
    return found


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("index.html", "docs/index.md"),
        ("reference/api.html", "docs/reference/api.md"),
        ("auto_examples/plot_01_clone.html", "examples/plot_01_clone.py"),
        ("auto_examples/index.html", "examples/GALLERY_HEADER.rst"),
        ("auto_examples/gpu/plot_gpu_01_copies.html", "examples/gpu/plot_gpu_01_copies.py"),
    ],
)
def test_view_and_edit_buttons_open_the_source_in_the_repository(path: str, source: str) -> None:
    assert (ROOT / source).is_file()
    buttons = source_buttons(path)
    assert buttons.get("view", "").startswith(f"{REPOSITORY}/blob/main/{source}"), buttons
    assert buttons.get("edit") == f"{REPOSITORY}/edit/main/{source}", buttons


def test_generated_pages_offer_no_source_buttons() -> None:
    assert source_buttons("auto_examples/sg_execution_times.html") == {}


# -- The changelog and the contributing guide --------------------------------------------------


@pytest.mark.parametrize(
    ("path", "source"), [("changes.html", "CHANGES.md"), ("contributing.html", "CONTRIBUTING.md")]
)
def test_changes_and_contributing_are_pages_of_the_site(path: str, source: str) -> None:
    assert (HTML / path).is_file()
    first_heading = re.search(r"^# (.+)$", (ROOT / source).read_text(encoding="utf-8"), re.MULTILINE)
    assert first_heading is not None
    assert first_heading.group(1) in (HTML / path).read_text(encoding="utf-8")
    index = page("index.html")
    assert any(link.get("href") == path for link in index.links), f"the home page does not link {path}"


# -- Publishing: sitemap and link previews -----------------------------------------------------

# Pages that sitemap_excludes in docs/conf.py leaves out of the sitemap.
NOT_IN_SITEMAP = {"search.html", "genindex.html", "404.html"}


def test_sitemap_lists_every_page() -> None:
    tree = ET.parse(HTML / "sitemap.xml")
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = [loc.text or "" for loc in tree.getroot().findall("s:url/s:loc", namespace)]
    base = "https://tcdoc.readthedocs.io/en/latest/"
    assert all(url.startswith(base) for url in listed)
    pages = {p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")} - NOT_IN_SITEMAP
    pages = {page for page in pages if not page.startswith("zh_CN/")}  # the Chinese edition's own
    assert sorted(url.removeprefix(base) for url in listed) == sorted(pages)


def png_size(path: Path) -> tuple[int, int]:
    """Return a PNG's width and height, read from its header; fail if the file is not a PNG."""
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_link_preview_image_is_a_wide_png() -> None:
    meta = page("index.html").meta
    image = meta["og:image"]
    base = "https://tcdoc.readthedocs.io/en/latest/"
    assert image.startswith(base), image
    assert image.endswith(".png"), image
    width, height = png_size(HTML / image.removeprefix(base))
    assert width >= 600, (width, height)
    assert 1.8 <= width / height <= 2.0, (width, height)  # about 1.91:1, the shape previews crop to
    assert meta.get("og:image:alt")
