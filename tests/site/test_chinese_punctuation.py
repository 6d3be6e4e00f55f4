"""On the built Chinese edition: a sentence in Chinese ends in Chinese punctuation, generated or not.

A sentence the extension writes (a claim's words filled in, a table's note, a fact) or a translator
wrote must not end in an ASCII "." or ":" after Chinese text; code, program output and torch's
messages keep theirs. Skipped when the Chinese edition has not been built (`nox -s docs-zh`).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

HTML = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
CHINESE = HTML / "zh_CN"

if not (CHINESE / "index.html").is_file():
    pytest.skip("the Chinese edition is not built: run 'nox -s docs-zh'", allow_module_level=True)

# Elements whose text is not the page's Chinese prose: code, output, torch's messages, scripts.
VERBATIM_TAGS = {"code", "pre", "kbd", "samp", "script", "style", "math", "svg"}
VERBATIM_CLASSES = {"highlight", "tcdoc-message", "sig", "colon", "headerlink"}
# Sphinx's own field lists ("参数:", "返回类型:") put the colon in a <span class="colon"> of the
# theme's layout: left out above. Pages that are not prose: the search and index pages.
NOT_PROSE = {"search.html", "genindex.html", "py-modindex.html"}
VOID = {"br", "img", "meta", "link", "input", "hr", "source", "wbr", "col", "area", "base", "embed", "track"}
BLOCKS = {"p", "li", "td", "th", "dd", "dt", "div", "h1", "h2", "h3", "h4", "caption", "figcaption"}
CODE = "\x00"  # where a verbatim element stood in the text
HAN = r"\u3400-\u4dbf\u4e00-\u9fff"
# ASCII sentence punctuation right after Chinese text (or after a closing Chinese bracket or
# quote), or after code that ends a Chinese sentence, followed by a space, the end, or Chinese.
AFTER_HAN = re.compile(rf"[{HAN}\uff09\u300d\u201d\u3011]\s*[.:;!?](?=\s|$|[{HAN}])")
AFTER_CODE = re.compile(rf"[{HAN}][^{CODE}\n]{{0,40}}{CODE}[.:](?=\s|$|[{HAN}])")


class _Prose(HTMLParser):
    """The text of a page outside verbatim elements, one line per block, code marked by CODE."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.verbatim: list[bool] = []
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        verbatim = tag in VERBATIM_TAGS or bool(classes & VERBATIM_CLASSES)
        if tag in BLOCKS:
            self.parts.append("\n")
        self.verbatim.append(verbatim)
        self.depth += verbatim
        if verbatim and self.depth == 1:
            self.parts.append(CODE)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self.verbatim:
            return
        self.depth -= self.verbatim.pop()

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def prose(page: Path) -> str:
    """Return the prose of ``page``: its text outside code blocks, inline code marked by ``CODE``."""
    parser = _Prose()
    parser.feed(page.read_text(encoding="utf-8"))
    return "".join(parser.parts)


def ascii_punctuation(page: Path) -> list[str]:
    """Return each place on ``page`` where ASCII punctuation ends Chinese text, with its context."""
    text = prose(page)
    found = [*AFTER_HAN.finditer(text), *AFTER_CODE.finditer(text)]
    return [text[max(0, m.end() - 40) : m.end() + 5].replace(CODE, "`…`").replace("\n", " ") for m in found]


def test_the_scan_finds_ascii_punctuation_after_chinese(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        "<p>张量的存储.</p><p>返回 <code>x</code>.</p><p>见 <code>a.b</code> 和 <code>c</code>。</p>"
        "<pre>print(张量.)</pre><p>参数<span class='colon'>:</span></p>",
        encoding="utf-8",
    )
    assert len(ascii_punctuation(page)) == 2


PAGES = [p for p in sorted(CHINESE.rglob("*.html")) if "_static" not in p.parts and p.name not in NOT_PROSE]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(CHINESE)) for p in PAGES])
def test_chinese_sentences_end_in_chinese_punctuation(page: Path) -> None:
    found = ascii_punctuation(page)
    assert not found, (
        f"zh_CN/{page.relative_to(CHINESE)}: ASCII punctuation after Chinese text:\n" + "\n".join(found)
    )


# A space between two Chinese characters (or Chinese punctuation), in prose: a translation that
# kept the space an English sentence has around a link or an emphasis whose words are Chinese.
CJK = rf"[{HAN}\u3001-\u303f\uff01-\uff1f]"
SPACED = re.compile(rf"{CJK}[ \t\u00a0]+{CJK}")


def spaces_between_chinese(page: Path) -> list[str]:
    """Return each place on ``page`` where a space stands between two Chinese characters."""
    text = prose(page)
    return [text[max(0, m.start() - 15) : m.end() + 15].replace("\n", " ") for m in SPACED.finditer(text)]


def test_the_scan_finds_a_space_between_chinese_characters(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        "<p>参见 <a href='x.html'>属性矩阵</a> 一节。</p><p>返回 <code>x</code> 本身。</p>"
        "<p>见<a>属性</a>。</p>",
        encoding="utf-8",
    )
    assert len(spaces_between_chinese(page)) == 2


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(CHINESE)) for p in PAGES])
def test_no_space_between_chinese_characters(page: Path) -> None:
    found = spaces_between_chinese(page)
    assert not found, f"zh_CN/{page.relative_to(CHINESE)}: a space between Chinese characters:\n" + "\n".join(
        found
    )
