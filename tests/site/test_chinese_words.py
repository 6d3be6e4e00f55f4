"""The Chinese edition has no English words outside code, program output and torch's messages.

Reads every page of docs/_build/html/zh_CN (``nox -s docs-zh``): the text a reader sees and the
attributes read aloud or shown on hover (``alt``, ``title``, ``aria-label``, the gallery cards'
``tooltip``), outside ``pre``, ``code``, ``kbd``, math, scripts and styles, and outside what an
example printed (sphinx-gallery's output blocks; the cost findings, which the Chinese edition
prints in Chinese, are checked on their own), and outside the API reference's docstrings,
which stay in English (autodoc's ``dl.py`` blocks, the general index). A word is two Latin
letters or more; these are allowed:

- names: :data:`ALLOWED` (products, units), the names of tcdoc's operations and scenarios (the
  matrix's columns), every word that the edition sets as inline code somewhere (``Tensor``,
  ``grad``: a tooltip or an alt text has no code markup), and any word shaped like code
  (``clone()``, ``state_dict``, ``torch.no_grad``, ``CloneBackward0``) or a version;
- torch's messages: an exception's name and its message (``RuntimeError: ...``);
- an English term glossed in parentheses after its Chinese one (原地（in-place）), and an English
  message quoted whole (“not run: no CUDA device”).

Skipped, saying so, when the Chinese edition has not been built; under CI (``CI=true``), where
``.ci/run`` builds it first, a missing edition is a failure.
"""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
CHINESE = HTML / "zh_CN"

if not (CHINESE / "index.html").is_file():
    # The README's two commands build only the English edition; .ci/run builds both and says so.
    if os.environ.get("TCDOC_REQUIRE_ZH") == "1":
        raise RuntimeError(f"{CHINESE} has no built edition: run 'nox -s docs-zh' before the tests")
    pytest.skip("the Chinese edition is not built: run 'nox -s docs-zh' first", allow_module_level=True)

# The general index lists the API's names. The API pages' docstrings stay in English, so only the
# rest of those pages (their sidebar, footer, attributes outside the article) is read.
DOCSTRING_PAGES = {
    "reference/api.html",
    *(f"reference/api/{topic}.html" for topic in ("registry", "drawing", "costs", "claims")),
}
# The glossary's term table pairs each Chinese term with its English one, on purpose.
TERM_TABLE_PAGES = {"reference/glossary.html"}
PAGES = sorted(
    page for page in CHINESE.rglob("*.html") if page.name not in {"genindex.html", "py-modindex.html"}
)

# Elements whose text is code, output or machinery, not words for the reader.
SKIPPED_TAGS = {"pre", "code", "kbd", "samp", "script", "style", "svg", "math", "template"}
# Classes of what an example printed or displayed (sphinx-gallery), of math and of the footer's
# build stamp (torch's version), and of the language switch, which names the other language.
# The text of a link to an outside source is often its title, cited as it is ("Tensor Views").
SKIPPED_CLASSES = {
    "external",
    "sphx-glr-script-out",
    "output_subarea",
    "math",
    "highlight",
    "tcdoc-language",
    "py",  # autodoc's blocks: the API's docstrings stay in English
}
ATTRIBUTES = ("alt", "title", "aria-label", "tooltip", "placeholder")
# The page's description and title as link previews show them (sphinxext-opengraph).
PREVIEWS = {"description", "og:description", "og:title"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

ALLOWED = {
    # Products, projects and formats, written so in Chinese too.
    "PyTorch",
    "torch",
    "tcdoc",
    "Python",
    "NumPy",
    "numpy",
    "Jupyter",
    "notebook",
    "Sphinx",
    "Gallery",  # "Sphinx-Gallery"
    "Furo",
    "Read",
    "the",
    "Docs",  # "Read the Docs"
    "GitHub",
    "PyPI",
    "pip",
    "install",  # "pip install tcdoc[plot]" in a page's description, where its code is plain text
    "matplotlib",
    "CPU",
    "GPU",
    "CUDA",
    "NVIDIA",
    "API",
    "JSON",
    "HTML",
    "PNG",
    "Linux",
    "glibc",
    "WCAG",
    "KiB",
    "MiB",
    "GiB",
    "MB",
    "GB",
    "Ctrl",
    "EMA",
    # Terms a Chinese engineer writes in English: names of algorithms, formats, tools and systems.
    "Adam",
    "RMSprop",
    "jieba",  # the segmenter the search uses
    "Pytorch",  # the original question, quoted as its asker typed it
    "Pages",  # "GitHub Pages"
    "runner",  # GitHub Actions' word, used so in Chinese too
    "Linear",
    "epoch",
    "kernel",
    "Hogwild",
    "pickle",
    "Windows",
    "macOS",
    "COO",
    "CSR",
    "CJK",
    "CI",
    "sdist",
    "wheel",
    "stderr",
    "stdout",
    "doctest",
    "toctree",
    "Chromium",
    "shell",
    "issue",
    "pull",
    "request",  # "pull request"
    "Pull",
    "Keep",
    "Changelog",  # "Keep a Changelog", the format of the changelog
    "Markdown",
    "MyST",
    "gettext",
    "Debian",
    "PATH",
    "SVG",
    "axe",  # axe-core
    "AA",  # WCAG's level
    "token",
    "pre",  # pre-commit
    "memo",  # deepcopy's argument
    # Python's types, which a table names as what an operation returned.
    "dict",
    "list",
    "tuple",
    "str",
    "int",
    "float",
    "bool",
    "class",  # Python's keyword, in a class statement that a scenario's summary quotes
    "yes",  # the command's answers: yes, no, n/a
    "Torch",
    "Sequential",  # torch.nn.Sequential, a table's result type
    "intersphinx",
    "span",  # a claim's span
    "pradyunsg",  # furo's author, credited in the footer
    "stable",  # the version of PyTorch's documentation an intersphinx link points at
    "cpu",
    "cuda",  # torch's device names
}
"""Words that a Chinese page writes in Latin letters: names of products and units."""

# An exception and its message, as torch words it (in alt text and table cells), to the end of the
# sentence around it.
EXCEPTION = re.compile(r"\b\w*(?:Error|Warning|Exception): [^。]*")
# An English message quoted whole, in Chinese quotation marks.
QUOTED = re.compile(r"“[^“”\u4e00-\u9fff]*”|\"[^\"\u4e00-\u9fff]*\"")
# An English term glossed in parentheses after its Chinese one, as Chinese technical writing does:
# 原地（in-place）.
GLOSS = re.compile(r"(?:(?<=[\u4e00-\u9fff”]) ?|^)（[A-Za-z][A-Za-z -]*）")
# Two calls in sequence, as the registry writes an operation: torch.load(buffer) after torch.save(x).
SEQUENCE = re.compile(r"(?<=[\])\w]),? after (?=[\w.]+\()")
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
# A token shaped like code or a version: a call, a dotted or snake_case name, CamelCase with a
# capital inside or a digit, a flag, a file name.
CODE_LIKE = re.compile(
    r"[\w.]*\w\(\S*\)|\w+\[[^\]]*\]|\w+(?:[._]\w+)+|[A-Za-z]*[a-z][A-Z]\w*|[A-Za-z]+\d\w*|--?\w[\w-]*|(?<!\w)/\w[\w/.-]*|\S+\.(?:py|ipynb|zip|json)"
)


class _Words(HTMLParser):
    """Collect the words a reader of the page meets, with where they were."""

    def __init__(self, skip_article: bool = False, skip_tables: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.skip_article = skip_article
        self.skip_tables = skip_tables
        self.stack: list[bool] = []  # for each open element: whether it is skipped
        self.found: list[tuple[str, str]] = []  # (where, text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = set((values.get("class") or "").split())
        skipped = tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES) or "hidden" in values
        skipped = skipped or (self.skip_article and tag == "article") or (self.skip_tables and tag == "table")
        preview = values.get("property") or values.get("name")
        if tag == "meta" and preview in PREVIEWS and values.get("content"):  # <head>, for link previews
            self.found.append((f"<meta {preview}>", values["content"] or ""))
        inside = any(self.stack)
        if not inside and not skipped:
            for name in ATTRIBUTES:
                value = values.get(name)
                if value:
                    self.found.append((f"<{tag} {name}>", value))
        if tag not in VOID:
            self.stack.append(inside or skipped)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not any(self.stack) and data.strip():
            self.found.append(("text", data.strip()))


def english_words(text: str) -> list[str]:
    """Return the English words of ``text``: Latin words that are neither allowed names nor code.

    >>> english_words("y = x.clone() 会复制数据, state_dict 和 CloneBackward0 都是名字")
    []
    >>> english_words("下载 Jupyter notebook: plot_01_clone.ipynb")
    []
    >>> english_words("Download zipped: plot_01_clone.zip")
    ['Download', 'zipped']
    """
    text = QUOTED.sub(" ", text)
    text = EXCEPTION.sub(" ", text)
    text = GLOSS.sub(" ", text)
    text = SEQUENCE.sub(" ", text)
    text = CODE_LIKE.sub(" ", text)
    text = re.sub(r"\bv?\d+(?:\.\d+)+\S*", " ", text)  # versions: 2.13.0+cpu
    return [word for word in WORD.findall(text) if word not in ALLOWED and word not in NAMES]


NAME_TOKENS = {"n", "nn", "nc", "nf", "na", "nb", "bp", "nv", "py"}


class _InlineCode(HTMLParser):
    """Collect the names set alone as inline code: ``Tensor``, ``x.grad``, ``clone()``.

    A code span that holds more (a command, a message of torch's) gives no names.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[list[str]] = []  # the text of each open <code> or name
        self.tags: list[str] = []  # each open <code> and <span>: its tag where it collects, else ""
        self.words: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # Inline code; and a name in highlighted code (Pygments' "n" classes: names, not comments).
        if tag == "code" or (tag == "span" and (dict(attrs).get("class") or "") in NAME_TOKENS):
            self.open.append([])
            self.tags.append(tag)
        elif tag == "span":
            self.tags.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self.tags:
            if not self.tags.pop():
                return
        elif tag == "code" and self.tags:
            self.tags.pop()
        else:
            return
        if self.open:
            text = "".join(self.open.pop()).strip()
            if re.fullmatch(r"[A-Za-z_]\w*(?:\(\))?(?:\.[A-Za-z_]\w*(?:\(\))?)*", text):
                self.words.update(part for part in re.findall(r"[A-Za-z_]\w*", text))

    def handle_data(self, data: str) -> None:
        for text in self.open:
            text.append(data)


def _names() -> frozenset[str]:
    """Return the words that are names on these pages: tcdoc's registry and the edition's inline code."""
    import tcdoc

    names = {op.name for op in tcdoc.operations(include_unavailable=True)}
    names |= {scenario.name for scenario in tcdoc.scenarios(include_unavailable=True)}
    words = {word for name in names for word in WORD.findall(name)}
    parser = _InlineCode()
    for page in PAGES:
        if page.relative_to(CHINESE).as_posix() not in DOCSTRING_PAGES:  # signatures name parameters
            parser.feed(page.read_text(encoding="utf-8"))
    return frozenset(words | parser.words)


NAMES = _names()


def page_words(page: Path) -> list[tuple[str, list[str]]]:
    """Return each text of ``page`` that has English words, named with where it is, and the words."""
    name = page.relative_to(CHINESE).as_posix()
    parser = _Words(skip_article=name in DOCSTRING_PAGES, skip_tables=name in TERM_TABLE_PAGES)
    parser.feed(page.read_text(encoding="utf-8"))
    return [(f"{where}: {text}", words) for where, text in parser.found if (words := english_words(text))]


@pytest.mark.parametrize("page", PAGES, ids=[page.relative_to(CHINESE).as_posix() for page in PAGES])
def test_no_english_words_outside_code_and_output(page: Path) -> None:
    found = page_words(page)
    listed = "\n".join(f"  {words}: {text[:160]!r}" for text, words in found[:15])
    assert not found, f"zh_CN/{page.relative_to(CHINESE)}: {len(found)} texts with English words:\n{listed}"


def _printed_lines(page: Path) -> list[str]:
    """Return the lines of what the example of ``page`` printed (sphinx-gallery's output blocks)."""
    blocks = re.findall(
        r'<div class="sphx-glr-script-out[^"]*">.*?<pre>(.*?)</pre>', page.read_text("utf-8"), re.DOTALL
    )
    return [html.unescape(re.sub(r"<[^>]+>", "", line)) for block in blocks for line in block.split("\n")]


def test_the_cost_findings_are_in_chinese() -> None:
    # Every finding says whether a difference is beyond noise or within it.
    english = [
        line for line in _printed_lines(HTML / "auto_examples" / "plot_19_cost.html") if "noise" in line
    ]
    printed = _printed_lines(CHINESE / "auto_examples" / "plot_19_cost.html")
    chinese = [line for line in printed if "噪声" in line]
    assert len(english) >= 5, f"the English page prints {len(english)} findings, one for each of its 5 prints"
    assert len(chinese) == len(english), f"{len(english)} findings in English, {len(chinese)} in Chinese"
    assert not [line for line in printed if "noise" in line], "findings left in English on the Chinese page"


def _images(page: Path) -> list[tuple[str, str]]:
    """Return the ``src`` and ``alt`` of every picture of ``page``."""
    found = []
    for tag in re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8")):
        src, alt = re.search(r'\bsrc="([^"]*)"', tag), re.search(r'\balt="([^"]*)"', tag)
        found.append((src[1] if src else "", alt[1] if alt else ""))
    return found


def test_the_figures_are_the_chinese_ones() -> None:
    """Every example figure of the Chinese gallery is its zh_CN variant, with Chinese alt text."""
    figures = [
        (page, src, alt)
        for page in sorted((CHINESE / "auto_examples").rglob("plot_*.html"))
        for src, alt in _images(page)
        if "sphx_glr_" in src and "_thumb" not in src
    ]
    assert len(figures) >= 15, f"only {len(figures)} example figures in the Chinese gallery"
    for page, src, alt in figures:
        assert src.endswith(".zh_CN.png"), f"{page.name}: {src} is not the Chinese figure"
        assert re.search(r"[\u4e00-\u9fff]", alt), f"{page.name}: {src} has no Chinese alt text: {alt[:80]!r}"
        assert (page.parent / src).is_file(), f"{page.name}: {src} is missing"


def test_the_cards_show_chinese_thumbnails() -> None:
    for index in ("auto_examples/index.html", "auto_examples/gpu/index.html"):
        thumbnails = [src for src, _ in _images(CHINESE / index) if "_thumb" in src]
        assert thumbnails, f"zh_CN/{index}: no thumbnails"
        english = [src for src in thumbnails if not src.endswith(".zh_CN.png")]
        assert not english, f"zh_CN/{index}: English thumbnails {english}"


@pytest.mark.parametrize(
    "words",
    [
        "Total running time of the script",
        "Download Jupyter notebook",
        "Download Python source code",
        "Download zipped",
        "Computation times",
        "Next",
        "Previous",
        "Toggle navigation of",
        "Made with",
        "two version counters",
        "autograd: cut",
        "Measured at build time with torch 2.13.0+cpu on CPU (x86_64)",
    ],
)
def test_the_words_the_chinese_edition_must_not_show_are_caught(words: str) -> None:
    """None of what the allowed names let through is an interface word this edition translates."""
    assert english_words(words), f"{words!r} would pass as Chinese"
