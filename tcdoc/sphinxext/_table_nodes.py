"""The nodes of the fact tables: cells, rows, tables and the notes under them.

A field that did not apply (see :func:`tcdoc._names.is_not_applicable`: nothing to copy, or a
result that is not a tensor) shows as "n/a", with its reason in the cell's tooltip and in a
note under the table; a cell that was not run shows "not run: needs numpy"; neither ever
shows as "no". The words of a cell are :func:`tcdoc._cells.cell`'s.

The words torch printed, an error's or a warning's, are a :class:`message`: shown exactly as
torch printed them, never with the typographic quotes, dashes and ellipses that Sphinx's smart
quotes give the prose around them, so that a reader can copy one into a search.

The notes under a table (:func:`legend`) are read from its cells: every reason that a cell's
"n/a" or "not run" gives is explained under the table, and no other.

A table whose rows read as cards on a phone (the ``tcdoc-summary`` table, see
``docs/_static/tcdoc.css``) has :class:`labelled_entry` cells: each carries its column's
heading, which the HTML writer renders as the cell's ``data-label`` attribute.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence, Set
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import LABELS, WRITE_OUTCOMES, WRITES, reason
from tcdoc.sphinxext._i18n import environment_words
from tcdoc.sphinxext._i18n import translate as _

__all__ = [
    "LONGEST_MESSAGE",
    "add_nodes",
    "bare_paragraph",
    "field_anchor",
    "field_link",
    "label_cells",
    "labelled_entry",
    "legend",
    "message",
    "message_list",
    "note_list",
    "plain_code",
    "plain_row",
    "said",
    "write_note",
]


class labelled_entry(nodes.entry):
    """A table cell that carries its column's heading, as ``label``, for narrow screens."""


def visit_labelled_entry(self: HTML5Translator, node: labelled_entry) -> None:
    """Write the cell's start tag, as for any cell, with ``data-label`` set to its heading."""
    self.visit_entry(node)
    start = self.body[-1]
    tag = start[1:3]  # "td" (a body cell) or "th"
    label = html.escape(node["label"], quote=True)
    self.body[-1] = start.replace(f"<{tag}", f'<{tag} data-label="{label}"', 1)


def depart_labelled_entry(self: HTML5Translator, node: labelled_entry) -> None:
    self.depart_entry(node)


class message(nodes.literal):
    """What torch printed (an error, a warning), kept exactly: code, which smart quotes leave alone.

    The HTML writer writes its text as it is: not in the one span per word of other inline code,
    which turns a run of spaces into no-break spaces. Other writers write it as inline code.
    """


def visit_message(self: HTML5Translator, node: message) -> None:
    """Write ``node`` as one ``<code>`` whose text is the message, only HTML-escaped."""
    self.body.append(self.starttag(node, "code", "", CLASS="docutils literal notranslate"))
    self.body.append(self.encode(node.astext()))
    self.body.append("</code>")
    raise nodes.SkipNode


class bare_paragraph(nodes.paragraph):
    """The one paragraph of a measured cell ("yes", "no", "y only"), which HTML writes without ``<p>``.

    A family page has thousands of such cells: the ``<p></p>`` around each would weigh tens of
    kilobytes and show nothing. Other writers write it as a paragraph.
    """


def visit_bare_paragraph(self: HTML5Translator, node: bare_paragraph) -> None:
    """Write nothing for the paragraph itself: its text goes straight into the cell."""


def depart_bare_paragraph(self: HTML5Translator, node: bare_paragraph) -> None:
    """Close nothing (see :func:`visit_bare_paragraph`)."""


class field_link(nodes.inline):
    """A row's or column's label, linked to its definition on the matrix page (``#f-<field>``).

    ``field`` is the field; ``anchor`` the definition's id (:func:`field_anchor`). HTML writes a
    bare ``<a href>``: a family page has a thousand row labels, and each link's classes would weigh.
    """


MATRIX_PAGE = "reference/matrix"
"""The page that defines every row label (its ``tcdoc-definitions`` directive)."""


def field_anchor(field: str, modules: bool = False) -> str:
    """Return the id of a field's definition on the matrix page.

    >>> field_anchor("shares_storage"), field_anchor("tensors", modules=True)
    ('f-shares_storage', 'm-tensors')
    """
    return f"{'m' if modules else 'f'}-{field}"


def visit_field_link(self: HTML5Translator, node: field_link) -> None:
    """Open a link to the field's definition, relative to the page being written."""
    page = self.builder.get_relative_uri(self.builder.current_docname, MATRIX_PAGE)
    self.body.append(f'<a href="{html.escape(page, quote=True)}#{node["anchor"]}">')


def depart_field_link(self: HTML5Translator, node: field_link) -> None:
    self.body.append("</a>")


class plain_code(nodes.literal):
    """Inline code written as one ``<code>`` (as :class:`message` is), without a ``<span>`` per word.

    For an operation's code repeated on every row of a long table (the grad-mode tables).
    """


class plain_row(nodes.row):
    """A row of a fact table, which HTML writes without the ``row-even``/``row-odd`` class and line breaks.

    furo styles no such class, and a family page has hundreds of rows of short cells.
    """


def visit_plain_row(self: HTML5Translator, node: plain_row) -> None:
    """Open the row as Sphinx does (its count of rows kept), without the class."""
    self._table_row_indices[-1] += 1
    self.body.append(self.starttag(node, "tr", ""))
    node.column = 0  # type: ignore[attr-defined]
    node["tcdoc_start"] = len(self.body)


def depart_plain_row(self: HTML5Translator, node: plain_row) -> None:
    """Close the row; its cells' closing tags lose their line breaks."""
    for index in range(node["tcdoc_start"], len(self.body)):
        if self.body[index] in ("</td>\n", "</th>\n"):
            self.body[index] = self.body[index][:-1]
    del node["tcdoc_start"]
    self.body.append("</tr>\n")


def add_nodes(app: Sphinx) -> None:
    """Register the nodes above: :class:`labelled_entry`, :class:`message`, :class:`bare_paragraph`, ...

    Other writers than HTML write each as the node it derives from: a cell, inline code, a
    paragraph, text, a row.
    """
    app.add_node(labelled_entry, html=(visit_labelled_entry, depart_labelled_entry))
    app.add_node(message, html=(visit_message, None))
    app.add_node(bare_paragraph, html=(visit_bare_paragraph, depart_bare_paragraph))
    app.add_node(field_link, html=(visit_field_link, depart_field_link))
    app.add_node(plain_code, html=(visit_message, None))
    app.add_node(plain_row, html=(visit_plain_row, depart_plain_row))


def label_cells(table: nodes.table) -> None:
    """Make each body cell of ``table`` a :class:`labelled_entry` with its column's heading.

    A cell that spans several columns (an error) keeps no label.
    """
    head = table.next_node(nodes.thead)
    body = table.next_node(nodes.tbody)
    assert head is not None
    assert body is not None
    labels = [" ".join(entry.astext().split()) for entry in head.findall(nodes.entry)]
    for row in body.findall(nodes.row):
        for index, entry in enumerate(list(row.children)):
            if not isinstance(entry, nodes.entry) or "morecols" in entry or index >= len(labels):
                continue
            if not labels[index]:
                continue
            labelled = labelled_entry("", *entry.children, **entry.attributes)
            labelled["label"] = labels[index]
            row.replace(entry, labelled)


def stamp(matrix: tcdoc.Matrix) -> nodes.paragraph:
    text = _("Measured at build time with {environment}.").format(
        environment=environment_words(matrix.environment)
    )
    return nodes.paragraph(text, text, classes=["tcdoc-stamp"])


def make_cell(value: object, field: str = "", values: dict[str, Any] | None = None) -> nodes.entry:
    """Make a table cell; ``values`` (a comparison's ``as_dict()``) tells an "n/a" from a plain ``None``.

    A :class:`tcdoc.NotRun` value makes a "not run" cell, with its reason.
    """
    entry = nodes.entry()
    why = reason(field, values) if values is not None else None
    # A measured value's cell is text alone in HTML (no <p>): family pages have thousands of them.
    paragraph_type = bare_paragraph if field else nodes.paragraph
    if isinstance(value, bool):
        entry += paragraph_type(text=cell(value, translate=_))
        entry["classes"].append("tcdoc-yes" if value else "tcdoc-no")
    elif value is None and why is not None:
        paragraph = paragraph_type()
        paragraph += not_applicable(why, field)
        entry += paragraph
        entry["classes"].append("tcdoc-na")
    elif isinstance(value, tcdoc.NotRun):
        entry += nodes.paragraph(text=not_run(value))
        entry["classes"].append("tcdoc-not-run")
        entry["tcdoc_not_run"] = value.reason  # read by legend()
    elif isinstance(value, nodes.paragraph):
        entry += value
    elif isinstance(value, nodes.Node):
        # A row's label linked to its definition is all its cell holds: no <p> either.
        paragraph = bare_paragraph() if isinstance(value, field_link) else nodes.paragraph()
        paragraph += value
        entry += paragraph
    elif field in WRITES and isinstance(value, str) and value in WRITE_OUTCOMES:
        # An in-place write's outcome is words, not a value: "refused", "y only", "y and x". What
        # each means is said once under the table (legend), not in a tooltip on every cell.
        entry += paragraph_type(text=_(value))
        entry["classes"].append("tcdoc-write")
        entry["tcdoc_write"] = value  # read by legend()
    else:
        entry += paragraph_type(text=cell(value))
    return entry


def not_applicable(why: str, field: str = "") -> nodes.abbreviation:
    """Write "n/a", with why the question does not apply (``why``) as its explanation, a tooltip.

    ``field`` names the field whose question it is, for the note under the table (:func:`legend`).
    """
    words = cell(None, not_applicable=True, translate=_)
    abbreviation = nodes.abbreviation(words, words, explanation=_("n/a: {reason}").format(reason=_(why)))
    abbreviation["tcdoc_reason"] = why  # in English, read by legend()
    abbreviation["tcdoc_field"] = field
    return abbreviation


def not_run(outcome: tcdoc.NotRun) -> str:
    """Say why a cell was not run, in the build's language (``str(outcome)`` in English)."""
    packages = outcome.reason.removeprefix("needs ")
    if packages == outcome.reason:  # a reason of another kind: in the catalogue, or as it is
        # "no CUDA device" (tcdoc._probe.NO_CUDA) is written out, for the catalogue to list it.
        why = _("no CUDA device") if outcome.reason == "no CUDA device" else _(outcome.reason)
        return _("not run: {reason}").format(reason=why)
    return _("not run: needs {packages}").format(packages=packages)


def legend(table: nodes.table, labels: Mapping[str, str] = LABELS) -> list[nodes.Node]:
    """Write the notes under ``table`` that explain its "n/a" and "not run" cells, from the cells.

    Every reason that an "n/a" of the table gives (:func:`not_applicable`) is said, with the
    headings of the fields it applies to, and so is every reason a cell was not run
    (:func:`make_cell` of a :class:`tcdoc.NotRun`); a reason that no cell gives is not.
    """
    not_applicable: dict[str, set[str]] = {}
    for abbreviation in table.findall(nodes.abbreviation):
        if "tcdoc_reason" in abbreviation:
            fields = not_applicable.setdefault(abbreviation["tcdoc_reason"], set())
            fields.add(abbreviation["tcdoc_field"])
    not_run_reasons = [
        entry["tcdoc_not_run"] for entry in table.findall(nodes.entry) if "tcdoc_not_run" in entry
    ]
    writes = {entry["tcdoc_write"] for entry in table.findall(nodes.entry) if "tcdoc_write" in entry}
    return [
        *na_note(not_applicable, labels),
        *not_run_note(list(dict.fromkeys(not_run_reasons))),
        *write_note(writes),
    ]


def write_note(outcomes: Set[str]) -> list[nodes.Node]:
    """Say, under a table with in-place writes, what each of its outcomes ("y only", ...) means.

    A short lead, then a list with one outcome an item (:func:`note_list`).

    >>> lead, items = write_note({"refused"})
    >>> lead.astext()
    'The outcomes of the in-place writes:'
    >>> items.astext()
    '“refused”: torch raised and nothing changed: the write was refused.'
    """
    if not outcomes:
        return []
    items = [
        _("“{outcome}”: {meaning}.").format(outcome=_(outcome), meaning=_(meaning))
        for outcome, meaning in WRITE_OUTCOMES.items()
        if outcome in outcomes
    ]
    return note_list(_("The outcomes of the in-place writes:"), items, ["tcdoc-write-note"])


def na_note(reasons: dict[str, set[str]], labels: Mapping[str, str] = LABELS) -> list[nodes.Node]:
    """Say, under a table that shows "n/a", why each such column or row did not apply.

    A short lead, then a list with one reason an item, each with the headings it applies to.
    """
    if not reasons:
        return []
    items = []
    for why, fields in reasons.items():
        headings = [_("“{label}”").format(label=_(labels[f])) for f in labels if f in fields]
        if headings:
            items.append(_("Under {labels}, {reason}.").format(labels=_(", ").join(headings), reason=_(why)))
        else:  # an "n/a" in a cell of no field
            items.append(_("{reason}.").format(reason=_(why)))
    return note_list(_("“n/a” means the question does not apply:"), items, ["tcdoc-na-note"])


def note_list(lead: str, items: Sequence[str], classes: list[str]) -> list[nodes.Node]:
    """Build a note as a lead paragraph of ``classes`` and, right after it, a list of one sentence an item.

    The list carries no class and its items no ``<p>`` (:class:`bare_paragraph`): a family page
    has hundreds of them, and every byte counts against its weight.
    """
    listed = nodes.bullet_list()
    for item in items:
        listed += nodes.list_item("", bare_paragraph(item, item))
    return [nodes.paragraph(lead, lead, classes=list(classes)), listed]


def not_run_note(reasons: Sequence[str]) -> list[nodes.Node]:
    """Say, under a table with "not run" cells, that this build did not run them, and why."""
    if not reasons:
        return []
    words = [
        _("needs {packages}").format(packages=why.removeprefix("needs "))
        if why.startswith("needs ")
        else _(why)
        for why in reasons
    ]
    note = _("“not run” means that this build did not run the operation on that x ({reasons}).").format(
        reasons=_("; ").join(words)
    )
    return [nodes.paragraph(note, note, classes=["tcdoc-na-note", "tcdoc-not-run-note"])]


def make_table(
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    classes: list[str],
    fields: Sequence[str] = (),
    values: Sequence[dict[str, Any] | None] = (),
) -> nodes.table:
    """Make a table; ``fields`` names the field of each column, from the first (see :func:`make_row`).

    ``values`` holds, for each row, the comparison its cells come from (or ``None``).
    """
    table = nodes.table(classes=["tcdoc-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in header)
    head = nodes.thead()
    head += make_row(header)
    body = nodes.tbody()
    row_values = [*values, *[None] * (len(rows) - len(values))]
    body.extend(
        make_row(row, len(header), fields if len(row) == len(header) else (), found)
        for row, found in zip(rows, row_values, strict=True)
    )
    group += [head, body]
    return table


def make_row(
    cells: Sequence[object],
    width: int | None = None,
    fields: Sequence[str] = (),
    values: dict[str, Any] | None = None,
) -> nodes.row:
    """Make a table row; a row with fewer cells than ``width`` stretches its last cell.

    ``fields`` names the field of each cell, from the first, where the cells hold field values
    of the comparison ``values``.
    """
    named = [*fields, *[""] * (len(cells) - len(fields))]
    entries = [
        make_cell(value, field, values if field else None) for value, field in zip(cells, named, strict=True)
    ]
    if width is not None and len(cells) < width:
        entries[-1]["morecols"] = width - len(cells)
    row = plain_row()
    row.extend(entries)
    return row


LONGEST_MESSAGE = 400
"""Characters of an error or warning that the matrix pages show; the JSON holds every one."""


def shortened(text: str) -> str:
    """Keep the start of a very long message (torch lists every dispatch key in some), to a sentence.

    >>> shortened("Short.")
    'Short.'
    >>> shortened("One. " + "x" * 500)
    'One.'
    """
    if len(text) <= LONGEST_MESSAGE:
        return text
    head = text[:LONGEST_MESSAGE]
    cut = head.rfind(". ")
    return head[: cut + 1] if cut > 0 else head


def said(template: str, text: str, cut: bool = True, classes: Sequence[str] = ()) -> nodes.paragraph:
    """``template`` (translated, one placeholder) filled with what torch printed, ``text``, verbatim.

    The message is a :class:`message`; with ``cut``, a message longer than
    :data:`LONGEST_MESSAGE` is cut at a sentence (:func:`shortened`), and the paragraph says so.

    >>> said("raises {error}", "RuntimeError: Can't.").pformat().splitlines()[1:4]
    ['    raises ', '    <message classes="tcdoc-message">', "        RuntimeError: Can't."]
    """
    before, after = re.split(r"\{\w+\}", template, maxsplit=1)
    kept = shortened(text) if cut else text
    paragraph = nodes.paragraph(classes=list(classes))
    if before:
        paragraph += nodes.Text(before)
    paragraph += message(kept, kept, classes=["tcdoc-message"])
    if kept != text:
        # No count of what was left out: torch's longest messages name the files where Python
        # registered kernels, so their length depends on where torch is installed.
        paragraph += nodes.Text(" " + _("[…] (cut here; the JSON of tcdoc matrix has the whole message)"))
    if after:
        paragraph += nodes.Text(after)
    return paragraph


def message_list(messages: Mapping[tuple[str, str], Sequence[str]]) -> list[nodes.Node]:
    """List what torch printed under a table: each ``(template, text)``, after where it printed it.

    A message printed in several places (scenarios, rows) is listed once, after all of them.
    """
    if not messages:
        return []
    notes = nodes.bullet_list()
    for (template, text), where in messages.items():
        paragraph = said(template, text)
        places = ", ".join(where)
        paragraph.insert(0, [nodes.strong(places, places), nodes.Text(" ")])
        notes += nodes.list_item("", paragraph)
    return [notes]
