"""Measure the sentences of the built site: how many words each sentence of prose has (issue 32).

Usage::

    python tools/sentences.py                         # a table per page, by section, and the totals
    python tools/sentences.py --over 35               # the same, then every sentence over 35 words
    python tools/sentences.py --page 'explanation/*'  # only the pages whose path matches the pattern
    python tools/sentences.py --json                  # the figures as JSON, for other tools

It reads the built HTML (``nox -s docs``; ``docs/_build/html`` unless ``--html`` names another
folder), and in each page only its main content, furo's ``<article role="main">``. Prose is
what a reader reads as sentences: paragraphs, list items, the definitions of definition lists,
quotes, the body of notes and warnings. Left out: code (blocks of code and doctests), tables,
what an example printed or displayed (sphinx-gallery's output blocks, ``tcdoc-run``'s), figures
and their captions, math, the headings (a heading is no sentence; nor is a term of a definition
list or a note's title), the API's signatures and field lists (parameters, returns, types: a
table in other clothes), the navigation (tables of contents, the gallery's thumbnail cards) and
sphinx-gallery's "Download" boxes and running times. The notes under a measured table ("n/a"
means ..., "Measured at build time with ...") are sentences a reader reads, and are counted.

How a paragraph is cut into sentences:

- a sentence ends at a word that ends in ``.``, ``?`` or ``!`` (closing quotes or brackets may
  follow), and at the end of its paragraph, list item or definition;
- a colon or semicolon does not end one: the words that lead into a list form a sentence of their
  own because the paragraph ends there, not because of the colon;
- an abbreviation (``e.g.``, ``i.e.``, ``vs.``, ``cf.``, ``etc.``) ends none, nor does a number
  that opens a paragraph as a step ("2. Does ..."), nor a ``?`` or ``!`` followed by a word in
  lowercase (a question quoted inside a sentence, such as a page's title in a link); a dot inside
  a word (``2.13.0``, ``torch.save``) is no end;
- an inline code span is one word, whatever it holds (``y = x.clone()`` counts once), and a
  dot inside it never ends a sentence; a paragraph of code alone (one of torch's messages, shown
  as it prints it) is no sentence.

The Chinese edition (``zh_CN/`` inside the English site, when ``nox -s docs-zh`` built it) is
measured too, in characters: a sentence ends at 。, ？ or ！ and at the end of its paragraph;
each Chinese character counts one, and so does a run of Latin letters or digits (``PyTorch``,
``2.13.0``) or an inline code span.

The tool measures and exits with status 0; ``tests/`` holds the pages to a limit.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import json
import re
import sys
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "docs" / "_build" / "html"
CHINESE = "zh_CN"
"""The Chinese edition's folder inside the English site."""
OVER = 35
"""The most words an English sentence should have (issue 32); ``--over`` sets another."""
MEAN = 16.0
"""The most words the sentences of an English page should average (issue 32)."""
CHINESE_OVER = 60
"""The characters past which a Chinese sentence is counted as long: a reading aid, not a rule."""
SECTIONS = ("explanation", "howto", "reference", "auto_examples")
"""The site's sections, by their folder; a page outside them is in ``other``."""
SKIPPED_PAGES = {"genindex.html", "py-modindex.html", "search.html", "sg_execution_times.html"}
"""Pages that are indexes or tables, with no prose."""

# Elements whose text is no prose: blocks of code, tables, pictures, math, headings, forms and
# navigation. Inline code (``code``, ``kbd``, ``samp`` outside ``pre``) is prose: one word each.
SKIPPED_TAGS = {
    "pre", "table", "figure", "math", "svg", "img", "script", "style",
    "form", "button", "select", "label", "input", "template", "noscript", "nav", "footer", "aside",
    "h1", "h2", "h3", "h4", "h5", "h6", "dt", "caption",
}  # fmt: skip
# The same by class. A class that starts with "highlight" is a block of code or of output.
SKIPPED_CLASSES = {
    "sphx-glr-script-out",  # what an example printed
    "output_subarea",  # what an example displayed (HTML output)
    "rendered_html",
    "sphx-glr-download-link-note",  # "Go to the end to download the full example code."
    "sphx-glr-footer",  # the "Download" boxes
    "sphx-glr-download",
    "sphx-glr-timing",  # "Total running time of the script"
    "sphx-glr-signature",
    "sphx-glr-thumbnails",  # the gallery's cards
    "sphx-glr-thumbcontainer",
    "sphx-glr-horizontal",  # an example's pictures
    "sphx-glr-single-img",
    "tcdoc-run-output",
    "table-wrapper",
    "field-list",  # an API entry's parameters, returns and types: a table in a list's clothes
    "toctree-wrapper",  # tables of contents
    "math",
    "admonition-title",  # "Note", "Warning"
    "rubric",  # a heading that is not a section's
    "caption",
    "headerlink",
    "genindex-jumpbox",
    "domainindex-jumpbox",
}
# Elements whose end, or start, ends a block of prose; every other element is inline.
BLOCK_TAGS = {
    "p", "li", "dd", "dt", "div", "section", "blockquote", "ul", "ol", "dl", "article",
    "h1", "h2", "h3", "h4", "h5", "h6", "table", "figure", "pre", "tr", "td", "th",
}  # fmt: skip
CODE_TAGS = {"code", "kbd", "samp"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

ABBREVIATIONS = {"e.g.", "i.e.", "vs.", "cf.", "etc."}
"""Words that end in a dot but end no sentence."""
_END = re.compile(r"[.?!][)\]\"'”’»]*$")
_STEP = re.compile(r"\d+\.")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# A Chinese character, a run of Latin letters or digits (2.13.0, x_1), a sentence's end with the
# closing quotes or brackets after it, or any other character.
_CHINESE_UNIT = re.compile(
    rf"([{_HAN}])|([A-Za-z0-9]+(?:[._'+-][A-Za-z0-9]+)*)|([。？！][”’」』）)]*)|.", re.S
)


@dataclasses.dataclass(frozen=True)
class Span:
    """A run of a block's text: plain words, or one inline code span (``code=True``)."""

    text: str
    code: bool = False


@dataclasses.dataclass(frozen=True)
class Sentence:
    """A sentence of prose and its length: words in English, characters in Chinese."""

    text: str
    length: int


@dataclasses.dataclass(frozen=True)
class Page:
    """A built page's sentences: its path in its edition (``explanation/clone.html``), its section."""

    name: str
    section: str
    language: str
    sentences: tuple[Sentence, ...]


@dataclasses.dataclass(frozen=True)
class Figures:
    """What the sentences of a page or section measure: their number, mean, share over a limit, longest."""

    sentences: int
    mean: float
    over: float  # the share of sentences longer than the limit, 0 to 1
    longest: int


class _Prose(HTMLParser):
    """Collect the blocks of prose of a page's main content, each a list of spans."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # how many elements are open inside <article role="main">, itself counted; 0 outside
        self.skipped = 0  # how many are open inside the outermost element that is no prose
        self.code: list[str] | None = None  # the text of the inline code span being read
        self.code_depth = 0  # the depth of that span's element
        self.block: list[Span] = []
        self.blocks: list[list[Span]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.depth == 0:
            if tag == "article" and values.get("role") == "main":
                self.depth = 1
            return
        if tag in VOID:
            if tag == "br" and not self.skipped:
                self.block.append(Span(" "))
            return
        self.depth += 1
        if self.skipped:
            self.skipped += 1
            return
        if self.code is not None:  # an element inside an inline code span: its text is the span's
            return
        classes = set((values.get("class") or "").split())
        if tag in BLOCK_TAGS:
            self._end_block()
        if tag in CODE_TAGS and self.code is None and not self.skipped_by_class(classes):
            self.code = []
            self.code_depth = self.depth
        elif tag in SKIPPED_TAGS or self.skipped_by_class(classes) or "hidden" in values:
            self.skipped = 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.depth == 0 or tag in VOID:
            return
        self.depth -= 1
        if self.skipped:
            self.skipped -= 1
            return
        if self.code is not None and self.depth < self.code_depth:
            text = " ".join("".join(self.code).split())
            if text:
                self.block.append(Span(text, code=True))
            self.code = None
        elif tag in BLOCK_TAGS:
            self._end_block()

    def handle_data(self, data: str) -> None:
        if self.depth == 0 or self.skipped:
            return
        if self.code is not None:
            self.code.append(data)
        else:
            self.block.append(Span(data))

    def close(self) -> None:
        super().close()
        self._end_block()

    @staticmethod
    def skipped_by_class(classes: set[str]) -> bool:
        """Tell whether an element of these classes is no prose."""
        return bool(classes & SKIPPED_CLASSES) or any(name.startswith("highlight") for name in classes)

    def _end_block(self) -> None:
        if any(span.code or span.text.strip() for span in self.block):
            self.blocks.append(self.block)
        self.block = []


def prose_blocks(html: str) -> list[list[Span]]:
    """Return the blocks of prose of a page's main content: its paragraphs, list items, definitions.

    >>> page = '''<article role="main"><h1>Title</h1><p>Use <code class="literal">x.clone()</code>.</p>
    ... <div class="highlight"><pre>y = x.clone()</pre></div><table><tr><td>yes</td></tr></table>
    ... <ul><li><p>One item.</p></li></ul></article><footer>Made with Sphinx.</footer>'''
    >>> for block in prose_blocks(page):
    ...     print(block)
    [Span(text='Use ', code=False), Span(text='x.clone()', code=True), Span(text='.', code=False)]
    [Span(text='One item.', code=False)]
    """
    parser = _Prose()
    parser.feed(html)
    parser.close()
    return parser.blocks


@dataclasses.dataclass
class _Word:
    """A word of a block: ``shown`` as the page shows it; ``tail``, its text after its last code."""

    shown: str
    tail: str
    code: bool


def _words(block: Sequence[Span]) -> list[_Word]:
    """Cut a block into words: runs of text between spaces, each inline code span one word.

    A code span and the text written against it, without a space (``(x.clone())``, ``x.clone().``),
    form one word.
    """
    words: list[_Word] = []
    glued = False  # whether the next span continues the last word: no space between them
    for span in block:
        if span.code:
            if glued and words:
                words[-1].shown += span.text
                words[-1].tail = ""
                words[-1].code = True
            else:
                words.append(_Word(span.text, "", True))
            glued = True
            continue
        parts = span.text.split()
        if not parts:
            glued = False
            continue
        if glued and words and not span.text[0].isspace():
            words[-1].shown += parts[0]
            words[-1].tail += parts[0]
            parts = parts[1:]
        words.extend(_Word(part, part, False) for part in parts)
        glued = not span.text[-1].isspace()
    return words


def _is_word(word: _Word) -> bool:
    """Tell whether a word counts: code, or text with a letter or digit (a dash alone does not)."""
    return word.code or re.search(r"\w", word.shown) is not None


def _ends_sentence(word: _Word, first: bool, following: _Word | None) -> bool:
    """Tell whether ``word`` ends its sentence (``first``: it opens it; ``following``: the next word)."""
    if not _END.search(word.tail):
        return False
    core = word.tail.lstrip("([\"'“‘").rstrip(")]\"'”’»")
    if core.lower() in ABBREVIATIONS or (first and _STEP.fullmatch(core)):
        return False
    # A question or exclamation followed by a word in lowercase is quoted inside the sentence.
    return not (core.endswith(("?", "!")) and following is not None and following.shown[:1].islower())


def english_sentences(block: Sequence[Span]) -> list[Sentence]:
    """Cut a block of English prose into sentences, each with its number of words.

    >>> block = [Span("Use "), Span("x.clone()", code=True), Span(", e.g. on 2.13.0. Is it a copy? Yes.")]
    >>> for sentence in english_sentences(block):
    ...     print(sentence)
    Sentence(text='Use x.clone(), e.g. on 2.13.0.', length=5)
    Sentence(text='Is it a copy?', length=4)
    Sentence(text='Yes.', length=1)
    """
    words = _words(block)
    sentences: list[Sentence] = []
    start = 0
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if following is None or _ends_sentence(word, index == start, following):
            part = words[start : index + 1]
            count = sum(1 for w in part if _is_word(w))
            if any(not w.code and _is_word(w) for w in part):
                sentences.append(Sentence(" ".join(w.shown for w in part), count))
            start = index + 1
    return sentences


def chinese_sentences(block: Sequence[Span]) -> list[Sentence]:
    """Cut a block of Chinese prose into sentences, each with its number of characters.

    A Chinese character counts one, and so do a run of Latin letters or digits and a code span.

    >>> chinese_sentences([Span("用 "), Span("x.clone()", code=True), Span(" 复制。PyTorch 2.13.0 也一样！")])
    [Sentence(text='用 x.clone() 复制。', length=4), Sentence(text='PyTorch 2.13.0 也一样！', length=5)]
    """
    sentences: list[Sentence] = []
    text = ""
    length = 0
    for span in block:
        if span.code:
            text += span.text
            length += 1
            continue
        for unit in _CHINESE_UNIT.finditer(span.text):
            text += unit[0]
            if unit[1] or unit[2]:
                length += 1
            elif unit[3]:
                if length:
                    sentences.append(Sentence(" ".join(text.split()), length))
                text, length = "", 0
    if length:
        sentences.append(Sentence(" ".join(text.split()), length))
    return sentences


def sentences(html: str, language: str = "en") -> list[Sentence]:
    """Return the sentences of prose of a built page's main content, in ``language`` (``en``, ``zh``).

    >>> page = '<article role="main"><p>It copies, i.e. it allocates. See the table.</p></article>'
    >>> [(s.text, s.length) for s in sentences(page)]
    [('It copies, i.e. it allocates.', 5), ('See the table.', 3)]
    """
    cut = chinese_sentences if language.startswith("zh") else english_sentences
    return [sentence for block in prose_blocks(html) for sentence in cut(block)]


def language_of(html: str) -> str:
    """Return the language a built page declares on its ``<html>`` element (``en`` if none).

    >>> language_of('<html class="no-js" lang="zh-CN" data-content_root="../">')
    'zh-CN'
    """
    found = re.search(r"<html\b[^>]*\blang=\"([^\"]+)\"", html)
    return found[1] if found else "en"


def section_of(name: str) -> str:
    """Return the section of a page by its path in its edition.

    >>> section_of("explanation/clone.html"), section_of("auto_examples/gpu/index.html")
    ('explanation', 'auto_examples')
    >>> section_of("index.html")
    'other'
    """
    first = name.split("/")[0]
    return first if first in SECTIONS else "other"


def edition_pages(root: Path, pattern: str = "*") -> list[Page]:
    """Return the measured pages of the edition built in ``root``, in the order of :data:`SECTIONS`.

    The pages whose path (``explanation/clone.html``) matches ``pattern``, with or without its
    ``.html``; the Chinese edition's folder, when ``root`` is the English site, is left out.
    """
    found: list[Page] = []
    for path in sorted(root.rglob("*.html")):
        name = path.relative_to(root).as_posix()
        if name.split("/")[0] == CHINESE or path.name in SKIPPED_PAGES:
            continue
        if not (fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(name.removesuffix(".html"), pattern)):
            continue
        html = path.read_text(encoding="utf-8")
        language = language_of(html)
        found.append(Page(name, section_of(name), language, tuple(sentences(html, language))))
    order = [*SECTIONS, "other"]
    return sorted(found, key=lambda page: (order.index(page.section), page.name))


def figures(measured: Sequence[Sentence], over: int) -> Figures:
    """Return the number, mean length, share longer than ``over`` and longest of some sentences.

    >>> figures([Sentence("A b c.", 3), Sentence("D e.", 2), Sentence("F.", 1)], over=2)
    Figures(sentences=3, mean=2.0, over=0.3333333333333333, longest=3)
    """
    if not measured:
        return Figures(0, 0.0, 0.0, 0)
    lengths = [sentence.length for sentence in measured]
    longer = sum(1 for n in lengths if n > over)
    return Figures(len(lengths), sum(lengths) / len(lengths), longer / len(lengths), max(lengths))


def _row(label: str, found: Figures) -> str:
    return f"{label:<48} {found.sentences:>9} {found.mean:>8.1f} {found.over:>7.0%} {found.longest:>7}"


def table(pages: Sequence[Page], over: int, unit: str = "words", per_page: bool = True) -> str:
    """Return the table of ``pages``: a row per page, by section, each section's total, and the total.

    >>> page = Page("howto/which-copy.html", "howto", "en", (Sentence("A b c.", 3), Sentence("D.", 1)))
    >>> print(table([page], over=2))
    page                                             sentences    words  over 2 longest
    howto/which-copy.html                                    2      2.0     50%       3
    howto (1 page)                                           2      2.0     50%       3
    all (1 page)                                             2      2.0     50%       3

    With ``per_page=False``, only the sections' totals and the total.
    """
    first = "page" if per_page else "section"
    lines = [f"{first:<48} {'sentences':>9} {unit:>8} {f'over {over}':>7} {'longest':>7}"]
    for section in [*SECTIONS, "other"]:
        members = [page for page in pages if page.section == section]
        if not members:
            continue
        if per_page:
            lines.extend(_row(page.name, figures(page.sentences, over)) for page in members)
        lines.append(_row(_count(section, members), figures(_all(members), over)))
    lines.append(_row(_count("all", pages), figures(_all(pages), over)))
    return "\n".join(lines)


def _count(label: str, pages: Sequence[Page]) -> str:
    return f"{label} ({len(pages)} page{'' if len(pages) == 1 else 's'})"


def _all(pages: Sequence[Page]) -> list[Sentence]:
    return [sentence for page in pages for sentence in page.sentences]


def long_sentences(pages: Sequence[Page], over: int) -> list[tuple[Page, Sentence]]:
    """Return every sentence of ``pages`` longer than ``over``, with its page, the longest first."""
    found = [(page, sentence) for page in pages for sentence in page.sentences if sentence.length > over]
    return sorted(found, key=lambda item: (-item[1].length, item[0].name))


def as_json(editions: Sequence[tuple[str, Sequence[Page], int]]) -> str:
    """Return the figures of each edition as JSON: per page and section, the total, the long sentences."""
    out = []
    for language, pages, over in editions:
        sections = {
            section: dataclasses.asdict(figures(_all([p for p in pages if p.section == section]), over))
            for section in [*SECTIONS, "other"]
            if any(p.section == section for p in pages)
        }
        out.append(
            {
                "language": language,
                "unit": "characters" if language.startswith("zh") else "words",
                "over": over,
                "pages": [
                    {"page": p.name, "section": p.section, **dataclasses.asdict(figures(p.sentences, over))}
                    for p in pages
                ],
                "sections": sections,
                "total": dataclasses.asdict(figures(_all(pages), over)),
                "long_sentences": [
                    {"page": p.name, "length": s.length, "text": s.text}
                    for p, s in long_sentences(pages, over)
                ],
            }
        )
    return json.dumps({"editions": out}, ensure_ascii=False, indent=1)


def main(argv: list[str] | None = None) -> int:
    """Print the figures of the built site's sentences; return 0 (the tool measures, tests hold limits)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=HTML, help="the built site (default: docs/_build/html)")
    parser.add_argument("--over", type=int, help=f"list each sentence over this many words (default {OVER})")
    parser.add_argument("--page", default="*", help="only the pages whose path matches this pattern")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not (args.html / "index.html").is_file():
        print(f"{args.html} holds no built site: run 'nox -s docs' first", file=sys.stderr)
        return 0
    over = args.over if args.over is not None else OVER
    english = edition_pages(args.html, args.page)
    chinese: list[Page] = []
    if (args.html / CHINESE / "index.html").is_file():
        chinese = edition_pages(args.html / CHINESE, args.page)
    if args.json:
        editions = [("en", english, over)] + ([("zh_CN", chinese, CHINESE_OVER)] if chinese else [])
        print(as_json(editions))
        return 0
    print(f"Sentences of prose in {args.html}: words per sentence, share over {over} words, longest")
    print(table(english, over))
    print(f"\nBy section:\n{table(english, over, per_page=False)}")
    if chinese:
        print(f"\nChinese edition ({CHINESE}/): characters per sentence, share over {CHINESE_OVER}, longest")
        print(table(chinese, CHINESE_OVER, "chars", per_page=False))
    if args.over is not None:
        print(f"\nSentences over {over} words, the longest first:")
        for page, sentence in long_sentences(english, over):
            print(f"{sentence.length:4d}  {page.name}: {sentence.text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
