"""sphinx-gallery's generated words in the build's language: what no page catalogue holds.

sphinx-gallery writes its pages' fixed words in English and ships no translations, and the
Chinese edition reuses the pages the English build generated. In a build in another language,
:func:`translate_gallery_words` replaces, in each page as it is read:

- the gallery cards' titles and tooltips (the gallery's index, each mini-gallery's "related
  examples"), which sphinx-gallery writes as raw HTML from the example's title and first
  paragraph: they come from the same messages of the example's own page catalogue;
- "Total running time of the script", the download links and the computation-times pages,
  through this extension's catalogue (``tcdoc_site``).

:func:`translate_theme_labels` translates the few labels that furo's templates write without
its translation function (the sidebars' and the theme switch's ``aria-label``).
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from babel.messages.pofile import read_po
from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from tcdoc_site._catalog import translate as _
from tcdoc_site._figures import LANGUAGES

__all__ = ["translate_gallery_words", "translate_theme_labels"]

_EXAMPLES_USING = re.compile(r"^Examples using (\S+)$")  # the name, or the caller's own, such as draw()
_TIMING = re.compile(r"^\s*\((\d+) minutes ([\d.]+) seconds\)\s*$")
_TOTAL = re.compile(r"^ total execution time for (\d+) files? $")
_FROM = re.compile(r"^from (.+)$")
_TOOLTIP = re.compile(r'(<div class="sphx-glr-thumbcontainer"[^>]*? tooltip=")([^"]*)(")')
_TITLE = re.compile(r'(<div class="sphx-glr-thumbnail-title">)(.*?)(</div>)', re.DOTALL)


def _downloads() -> dict[str, str]:
    """Return the download links' words, each with its translation in the build's language."""
    return {
        "Download Jupyter notebook": _("Download Jupyter notebook: {name}"),
        "Download Python source code": _("Download Python source code: {name}"),
        "Download zipped": _("Download zipped: {name}"),
        "Download all examples in Python source code": _(
            "Download all examples in Python source code: {name}"
        ),
        "Download all examples in Jupyter notebooks": _("Download all examples in Jupyter notebooks: {name}"),
    }


def _table_headings() -> dict[str, str]:
    # Each message names where it goes: the package's catalogue has "Time" inside messages of its own.
    return {
        "Example": _("Example (the computation-times table's column)"),
        "Time": _("Time (the computation-times table's column)"),
        "Mem (MB)": _("Mem (MB)"),
    }


def translate_gallery_words(app: Sphinx, doctree: nodes.document) -> None:
    """In a build in another language, put sphinx-gallery's words of this page in that language."""
    language = app.config.language
    if language not in LANGUAGES:
        return
    cards = _card_words(str(Path(app.srcdir) / "locales"), language)
    for raw in doctree.findall(nodes.raw):
        text = raw.astext()
        if "sphx-glr-thumbcontainer" not in text and "sphx-glr-thumbnail-title" not in text:
            continue
        text = _TOOLTIP.sub(lambda m: m[1] + _card(cards, m[2]) + m[3], text)
        text = _TITLE.sub(lambda m: m[1] + _card(cards, m[2]) + m[3], text)
        _set_text(raw, text)
    downloads = _downloads()
    for literal in doctree.findall(nodes.literal):
        if not isinstance(literal.parent, addnodes.download_reference):
            continue
        words, _sep, name = literal.astext().partition(": ")
        if words in downloads:
            _set_text(literal, downloads[words].format(name=name))
    for paragraph in doctree.findall(nodes.paragraph):
        _timing(paragraph)
    for heading in [*doctree.findall(nodes.rubric), *doctree.findall(nodes.title)]:
        _examples_using(heading)
    if doctree.get("source", "").endswith("sg_execution_times.rst"):
        _computation_times(doctree)


def _set_text(node: nodes.Element, text: str) -> None:
    """Replace the children of ``node`` with ``text``."""
    node.clear()
    node += nodes.Text(text)


def _examples_using(heading: nodes.TextElement) -> None:
    """Translate a mini-gallery's heading, sphinx-gallery's "Examples using ``name``", the name as code."""
    found = _EXAMPLES_USING.match(heading.astext())
    if not found:
        return
    before, _sep, after = _("Examples using {name}").partition("{name}")
    heading.clear()
    heading += [nodes.Text(before), nodes.literal(found[1], found[1]), nodes.Text(after)]


def _timing(paragraph: nodes.paragraph) -> None:
    """Translate "**Total running time of the script:** (0 minutes 1.141 seconds)"."""
    if "sphx-glr-timing" not in paragraph["classes"] or len(paragraph.children) != 2:
        return
    strong, rest = paragraph.children
    found = _TIMING.match(rest.astext())
    if not isinstance(strong, nodes.strong) or not found:
        return
    _set_text(strong, _("Total running time of the script:"))
    words = _("({minutes} minutes {seconds} seconds)").format(minutes=found[1], seconds=found[2])
    # A space before an ASCII bracket, none before a full-width one.
    paragraph.replace(rest, nodes.Text(" " + words if words[:1].isascii() else words))


def _computation_times(doctree: nodes.document) -> None:
    """Translate a computation-times page: its title, its total, its table's headings."""
    for title in doctree.findall(nodes.title):
        if title.astext() == "Computation times":
            _set_text(title, _("Computation times"))
    for paragraph in doctree.findall(nodes.paragraph):
        parts = paragraph.children
        if (
            len(parts) != 4
            or not isinstance(parts[0], nodes.strong)
            or not isinstance(parts[2], nodes.strong)
        ):
            continue
        count, where = _TOTAL.match(parts[1].astext()), _FROM.match(parts[2].astext())
        if not count or not where:
            continue
        if where[1] == "all galleries":
            words = _("total execution time for {count} files from all galleries:")
        else:
            words = _("total execution time for {count} files from {gallery}:")
        before, _sep, after = words.format(count=count[1], gallery="\0").partition("\0")
        new = [parts[0], nodes.Text(before)]
        if after or _sep:
            new += [nodes.literal(where[1], where[1]), nodes.Text(after)]
        paragraph.clear()
        paragraph.extend(new)
    headings = _table_headings()
    for head in doctree.findall(nodes.thead):
        for entry in head.findall(nodes.paragraph):
            if entry.astext() in headings:
                _set_text(entry, headings[entry.astext()])


def _card(cards: dict[str, str], escaped: str) -> str:
    """Return a card's title or tooltip (HTML-escaped) in the build's language, where a catalogue has it."""
    words = html.unescape(escaped)
    return html.escape(cards.get(words, words), quote=True)


@functools.cache
def _card_words(locales: str, language: str) -> dict[str, str]:
    """Map each example message, as a card shows it, to its translation, as a card would show that."""
    found: dict[str, str] = {}
    folder = Path(locales) / language / "LC_MESSAGES" / "auto_examples"
    for po in sorted(folder.rglob("*.po")):
        with po.open("rb") as stream:
            catalog = read_po(stream)
        for message in catalog:
            if isinstance(message.id, str) and isinstance(message.string, str) and message.string:
                english = _as_card(message.id)
                if english:
                    found[english] = _plain(_as_card(message.string))
    return found


def _as_card(text: str) -> str:
    r"""Return a paragraph's reST as a card shows it: on one line, its inline markup dropped.

    sphinx-gallery's public ``extract_intro_and_title`` cleans an example's first paragraph
    into its card's words; given one paragraph, it returns that paragraph cleaned as both.
    ``""`` for a text it finds no words in.

    >>> _as_card("What :func:`copy.deepcopy`\nand ``clone()`` do")
    'What copy.deepcopy and clone() do'
    """
    from sphinx.errors import ExtensionError
    from sphinx_gallery.gen_rst import extract_intro_and_title

    try:
        intro, _title = extract_intro_and_title("", text.replace("\n", " "))
    except ExtensionError:  # no paragraph, or no line that a title could be
        return ""
    return str(intro)


def _plain(text: str) -> str:
    """Drop the inline markup sphinx-gallery's sanitizer leaves where no space precedes it (in Chinese)."""
    text = re.sub(r"``([^`]+)``", r"\1", text)
    text = re.sub(r":(?:[\w-]+:)+`([^`<]+?)\s*(?:<[^>]*>)?`", r"\1", text)
    text = re.sub(r"`([^`<]+?)\s*<[^>]*>`__?", r"\1", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"\1", text)


def _theme_labels() -> dict[str, str]:
    return {
        'aria-label="Toggle site navigation sidebar"': _("Toggle site navigation sidebar"),
        'aria-label="Toggle table of contents sidebar"': _("Toggle table of contents sidebar"),
        'aria-label="Toggle Light / Dark / Auto color theme"': _("Toggle Light / Dark / Auto color theme"),
        'alt="Logo"': _("Logo"),
    }


# furo's footer credit and its sidebar's switches, written without its translation function.
_CREDIT = re.compile(
    r'Made with (<a href="https://www\.sphinx-doc\.org/">Sphinx</a>) and '
    r'(<a class="muted-link" href="https://pradyunsg\.me">@pradyunsg</a>)\'s\s*(<a href="https://github\.com/pradyunsg/furo">Furo</a>)'
)
_TOGGLE = re.compile(r'aria-label="Toggle navigation of ([^"]*)"')
_COPYRIGHT = re.compile(r'(<div class="copyright">\s*)Copyright &#169; ([^<]*?)(\s*</div>)')


def translate_theme_labels(app: Sphinx, exception: Exception | None) -> None:
    """In a build in another language, translate the words furo writes without its translation function.

    They are the sidebars' and the theme switch's ``aria-label``, the logo's alt text, the
    footer's credit and copyright line (whose holder, ``author`` in ``conf.py``, is translated too).
    """
    if exception is not None or app.config.language not in LANGUAGES or app.builder.format != "html":
        return
    labels = {
        english: english.split('"')[0] + f'"{html.escape(words, quote=True)}"'
        for english, words in _theme_labels().items()
    }
    credit = _("Made with {sphinx} and {author}'s {furo}")
    toggle = _("Toggle navigation of {title}")
    holder = html.escape(app.config.author)
    copyright_words = _("Copyright &#169; {copyright}")
    author = html.escape(_("the tcdoc developers"))
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = text
        for english, words in labels.items():
            new = new.replace(english, words)
        new = _CREDIT.sub(lambda m: credit.format(sphinx=m[1], author=m[2], furo=m[3]), new)
        new = _TOGGLE.sub(
            lambda m: f'aria-label="{html.escape(toggle.format(title=html.unescape(m[1])), quote=True)}"', new
        )
        new = _COPYRIGHT.sub(
            lambda m: m[1] + copyright_words.format(copyright=m[2].replace(holder, author)) + m[3], new
        )
        if new != text:
            page.write_text(new, encoding="utf-8")
