"""The Chinese edition has no English words outside code, program output and torch's messages.

Reads every page of docs/_build/html/zh_CN (``nox -s docs-zh``): the text a reader sees and the
attributes read aloud or shown on hover (``alt``, ``title``, ``aria-label``, the gallery cards'
``tooltip``), outside ``pre``, ``code``, ``kbd``, math, scripts and styles, and outside what an
example printed (sphinx-gallery's output blocks; the cost findings, which are output in Chinese,
are checked on their own). A word is two Latin letters or more; names are allowed:
:data:`ALLOWED` (product names, units) and any word shaped like code (``clone()``,
``state_dict``, ``torch.no_grad``, ``CloneBackward0``) or a version.

Skipped, saying so, when the Chinese edition has not been built; under CI (``CI=true``), where
``.ci/run`` builds it first, a missing edition is a failure.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
CHINESE = HTML / "zh_CN"

if not (CHINESE / "index.html").is_file():
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{CHINESE} has no built edition: run 'nox -s docs-zh' before the tests")
    pytest.skip("the Chinese edition is not built: run 'nox -s docs-zh' first", allow_module_level=True)

PAGES = sorted(CHINESE.rglob("*.html"))

# Elements whose text is code, output or machinery, not words for the reader.
SKIPPED_TAGS = {"pre", "code", "kbd", "samp", "script", "style", "svg", "math", "template"}
# Classes of what an example printed or displayed (sphinx-gallery), of math and of the footer's
# build stamp (torch's version), and of the language switch, which names the other language.
SKIPPED_CLASSES = {
    "sphx-glr-script-out",
    "output_subarea",
    "math",
    "highlight",
    "tcdoc-language",
    "tcdoc-findings",
}
ATTRIBUTES = ("alt", "title", "aria-label", "tooltip", "placeholder")
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
}
"""Words that a Chinese page writes in Latin letters: names of products and units."""

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
# A token shaped like code or a version: a call, a dotted or snake_case name, CamelCase with a
# capital inside or a digit, a flag, a file name.
CODE_LIKE = re.compile(
    r"[\w.]*\w\(\S*\)|\w+(?:[._]\w+)+|[A-Za-z]*[a-z][A-Z]\w*|[A-Za-z]+\d\w*|--?\w[\w-]*|\S+\.(?:py|ipynb|zip|json)"
)


class _Words(HTMLParser):
    """Collect the words a reader of the page meets, with where they were."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # for each open element: whether it is skipped
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = set((values.get("class") or "").split())
        skipped = tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES) or "hidden" in values
        inside = any(self.stack)
        if not inside and not skipped:
            for name in ATTRIBUTES:
                if values.get(name):
                    self.found.append(f"<{tag} {name}>: {values[name]}")
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
            self.found.append(data.strip())


def english_words(text: str) -> list[str]:
    """Return the English words of ``text``: Latin words that are neither allowed names nor code.

    >>> english_words("y = x.clone() 会复制数据, state_dict 和 CloneBackward0 都是名字")
    []
    >>> english_words("下载 Jupyter notebook: plot_01_clone.ipynb")
    []
    >>> english_words("Total running time of the script: 1 秒")
    ['Total', 'running', 'time', 'of', 'script']
    """
    text = CODE_LIKE.sub(" ", text)
    text = re.sub(r"\bv?\d+(?:\.\d+)+\S*", " ", text)  # versions: 2.13.0+cpu
    return [word for word in WORD.findall(text) if word not in ALLOWED]


def page_words(page: Path) -> list[tuple[str, list[str]]]:
    parser = _Words()
    parser.feed(page.read_text(encoding="utf-8"))
    return [(text, words) for text in parser.found if (words := english_words(text))]


@pytest.mark.parametrize("page", PAGES, ids=[page.relative_to(CHINESE).as_posix() for page in PAGES])
def test_no_english_words_outside_code_and_output(page: Path) -> None:
    found = page_words(page)
    listed = "\n".join(f"  {words}: {text[:160]!r}" for text, words in found[:15])
    assert not found, f"zh_CN/{page.relative_to(CHINESE)}: {len(found)} texts with English words:\n{listed}"


def test_the_cost_findings_are_in_chinese() -> None:
    page = (CHINESE / "auto_examples" / "plot_19_cost.html").read_text(encoding="utf-8")
    lists = re.findall(r'<ul class="tcdoc-findings" lang="([\w-]+)"( hidden)?>(.*?)</ul>', page, re.DOTALL)
    assert lists, "zh_CN/auto_examples/plot_19_cost.html: no findings"
    assert {lang for lang, _, _ in lists} == {"zh-CN"}, f"findings in {[lang for lang, _, _ in lists]}"
    for _lang, hidden, items in lists:
        assert not hidden, "the Chinese findings are hidden"
        text = re.sub(r"<code>.*?</code>|<[^>]+>", " ", items)
        assert re.search(r"[\u4e00-\u9fff]", text), f"findings without Chinese: {text[:200]!r}"
        assert not english_words(text), f"English in the findings: {english_words(text)}: {text[:200]!r}"


def test_the_figures_are_the_chinese_ones() -> None:
    """Every example figure of the Chinese gallery is its zh_CN variant, with Chinese alt text."""
    images = []
    for page in sorted((CHINESE / "auto_examples").rglob("plot_*.html")):
        text = page.read_text(encoding="utf-8")
        images += [
            (page, src, alt)
            for src, alt in re.findall(r'<img src="([^"]*sphx_glr_[^"]*)"[^>]*alt="([^"]*)"', text)
        ]
    figures = [(page, src, alt) for page, src, alt in images if "_thumb" not in src]
    assert len(figures) >= 15, f"only {len(figures)} example figures in the Chinese gallery"
    for page, src, alt in figures:
        assert src.endswith(".zh_CN.png"), f"{page.name}: {src} is not the Chinese figure"
        assert re.search(r"[\u4e00-\u9fff]", alt), f"{page.name}: {src} has no Chinese alt text: {alt[:80]!r}"
        assert (page.parent / src).is_file(), f"{page.name}: {src} is missing"
