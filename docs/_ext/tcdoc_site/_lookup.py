"""The lookup page: one operation, one kind of ``x`` and one grad mode give one answer card.

The page (``reference/lookup``) holds the ``tcdoc-lookup`` directive: a form, hidden until its
script runs, and a line that says where the tables are for a reader without JavaScript. At
``build-finished`` the build writes what the card shows into ``_static/tcdoc-lookup-data.js``
of each edition, as a script that sets the global ``TCDOC_LOOKUP``, so that the page works
from ``file://`` too, with no server to fetch from. It is written from the build's own matrix
(:func:`tcdoc.sphinxext._state.build_matrix`), once, in the build's language: the four answers
(:func:`tcdoc.answers`), the in-place writes, the warnings and errors verbatim, and the changes
between releases that the page of changes lists. Each string is stored once, in a table, and a
card is a list of its indices, so that the file stays small.

The spellings that readers type are matched against each operation's name and code, and
against :data:`ALIASES`, by :func:`exact_key`, :func:`loose_key` and :func:`bare_key`;
``_static/tcdoc-lookup.js`` makes the same keys of what a reader types.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import LABELS, WRITE_OUTCOMES, WRITES, is_not_applicable
from tcdoc.sphinxext._config import operation_doc
from tcdoc.sphinxext._i18n import translate
from tcdoc.sphinxext._state import state
from tcdoc_site._catalog import translate as _

__all__ = [
    "ALIASES",
    "DATA",
    "PAGE",
    "LookupDirective",
    "add_lookup",
    "bare_key",
    "exact_key",
    "keys",
    "loose_key",
    "resolve",
    "write_data",
]

PAGE = "reference/lookup"
"""The page that holds the lookup form; the data's links are relative to it."""

DATA = "tcdoc-lookup-data.js"
"""The file under ``_static`` that holds the card's data, in each edition."""

SCRIPT = "tcdoc-lookup.js"
STYLESHEET = "tcdoc-lookup.css"
STATIC = Path(__file__).parent / "_static"
MATRIX_LINK = "tcdoc-lookup-matrix-link"  # replaced by the matrix page's address in the page

ALIASES = {
    "x[idx]": "index",
    "x[index]": "index",
    "x[indices]": "index",
    "advanced indexing": "index",
    "fancy indexing": "index",
    "x[a:b]": "slice",
    "x[i:j]": "slice",
    "slicing": "slice",
    "transpose": "T",
    "x.to(torch.double)": "to_float64",
    "x.to(dtype=torch.float64)": "to_float64",
    "x.to(copy=True)": "to_copy",
    "parameter": "parameter_wrap",
    "nn.Parameter(x)": "parameter_wrap",
    "copy_": "empty_like_copy",
    "x.copy_()": "empty_like_copy",
    "empty_like": "empty_like_copy",
    "channels_last": "clone_channels_last",
    "numpy": "numpy_roundtrip",
    "from_numpy": "numpy_roundtrip",
    "x.numpy()": "numpy_direct",
    "torch.save": "save_load",
    "torch.load": "save_load",
    "save": "save_load",
    "load": "save_load",
    "list": "tolist",
    "x+0": "add_zero",
    "detach clone": "detach_clone",
    "clone detach": "clone_detach",
    "shallow copy": "copy",
    "deep copy": "deepcopy",
}
"""Spellings that readers write for an operation, beyond its name and code, each with the operation."""

HINTS = ("x.float()", "torch.tensor(x)", "x[idx]", "deepcopy", "x.detach().clone()")
"""The spellings that the form gives as examples."""

_SPACE = re.compile(r"\s+")
_EMPTY_CALL = re.compile(r"\((x)?\)$")
_ARGUMENTS = re.compile(r"\(.*\)$")
_PREFIXES = ("torch.", "copy.", "x.", ".")
_WIDE = str.maketrans({"\uff08": "(", "\uff09": ")", "\u201c": '"', "\u201d": '"', "'": '"', "\u3002": "."})


def exact_key(text: str) -> str:
    """Return a spelling as compared exactly: in lower case, without spaces, with ASCII brackets.

    >>> exact_key(" Torch.clone( x ) ")
    'torch.clone(x)'
    """
    return _SPACE.sub("", text.translate(_WIDE)).lower()


def loose_key(text: str) -> str:
    """Return a spelling without the prefixes ``x``, ``torch.`` and ``copy.`` and an empty call.

    >>> loose_key("copy.deepcopy(x)"), loose_key("x[idx]"), loose_key(".clone()")
    ('deepcopy', '[idx]', 'clone')
    """
    key = exact_key(text)
    stripped = True
    while stripped:
        stripped = False
        if key.startswith("x["):
            key, stripped = key[1:], True
        for prefix in _PREFIXES:
            if key.startswith(prefix):
                key, stripped = key[len(prefix) :], True
    return _EMPTY_CALL.sub("", key)


def bare_key(text: str) -> str:
    """Return :func:`loose_key` without its last argument list: the name of the call.

    >>> bare_key("x.view(2, 3)")
    'view'
    """
    return _ARGUMENTS.sub("", loose_key(text))


def keys(names: Iterable[tuple[str, str]]) -> dict[str, dict[str, str]]:
    """Map each key of each spelling to its operation: exact, loose and bare keys, first one wins.

    ``names`` are the operations' ``(name, code)`` in the registry's order; :data:`ALIASES` come
    after them in each table, so that a name or a code always means its own operation.

    >>> table = keys([("clone", "x.clone()"), ("torch_clone", "torch.clone(x)")])
    >>> table["exact"]["torch.clone(x)"], table["loose"]["clone"]
    ('torch_clone', 'clone')
    """
    pairs = list(names)
    spellings = [(spelling, name) for name, code in pairs for spelling in (name, code)]
    known = {name for name, _code in pairs}
    spellings += [(alias, name) for alias, name in ALIASES.items() if name in known]
    table: dict[str, dict[str, str]] = {"exact": {}, "loose": {}, "bare": {}}
    for spelling, name in spellings:
        table["exact"].setdefault(exact_key(spelling), name)
        table["loose"].setdefault(loose_key(spelling), name)
        table["bare"].setdefault(bare_key(spelling), name)
    return table


def resolve(text: str, table: dict[str, dict[str, str]]) -> str | None:
    """Return the operation a reader means by ``text``, or ``None``: as ``tcdoc-lookup.js`` does.

    >>> table = keys([("clone", "x.clone()"), ("deepcopy", "copy.deepcopy(x)")])
    >>> resolve("copy.deepcopy(x)", table), resolve("x.clone(memory_format=f)", table), resolve("y", table)
    ('deepcopy', 'clone', None)
    """
    for kind, key in (("exact", exact_key(text)), ("loose", loose_key(text)), ("bare", bare_key(text))):
        if key and key in table[kind]:
            return table[kind][key]
    return None


# -- The page's form ---------------------------------------------------------------------------


class LookupDirective(SphinxDirective):
    """Write the lookup form, hidden until its script shows it, and the card it fills."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        words = {
            "nojs": _("Without JavaScript, the answers are in the tables of the {matrix}."),
            "matrix": _("property matrix"),
            "form": _("Look up a copy"),
            "op": _("Operation, as you write it"),
            "hint": _("For example: {examples}"),
            "x": _("Kind of x"),
            "mode": _("Grad mode"),
            "submit": _("Look up"),
        }
        words = {key: escape(text) for key, text in words.items()}
        link = f'<a href="{MATRIX_LINK}">{words["matrix"]}</a>'
        examples = " ".join(f"<code>{escape(example)}</code>" for example in HINTS)
        words["nojs"] = words["nojs"].format(matrix=link)
        words["hint"] = words["hint"].format(examples=examples)
        html = f"""<noscript><p>{words["nojs"]}</p></noscript>
<form class="tcdoc-lookup" id="tcdoc-lookup" aria-label="{words["form"]}" hidden>
<p><label for="tcdoc-lookup-op">{words["op"]}</label>
<input id="tcdoc-lookup-op" name="op" type="text" list="tcdoc-lookup-ops" autocomplete="off"
 spellcheck="false" autocapitalize="off" aria-describedby="tcdoc-lookup-hint">
<datalist id="tcdoc-lookup-ops"></datalist>
<span class="tcdoc-lookup-hint" id="tcdoc-lookup-hint">{words["hint"]}</span></p>
<p><label for="tcdoc-lookup-x">{words["x"]}</label>
<select id="tcdoc-lookup-x" name="x"></select></p>
<p><label for="tcdoc-lookup-mode">{words["mode"]}</label>
<select id="tcdoc-lookup-mode" name="mode"></select></p>
<p><button type="submit">{words["submit"]}</button></p>
</form>
<div id="tcdoc-lookup-card" class="tcdoc-lookup-card" aria-live="polite"></div>
"""
        return [nodes.raw("", html, format="html")]


def add_page_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Load the data, the script and the stylesheet on the lookup page only (``html-page-context``).

    The form's link to the matrix, for a reader without JavaScript, is made here, where the
    builder knows the page's address.
    """
    if pagename == PAGE:
        matrix = app.builder.get_relative_uri(pagename, "reference/matrix")
        context["body"] = str(context.get("body", "")).replace(MATRIX_LINK, matrix)
        app.add_js_file(DATA, priority=500, defer="defer")
        app.add_js_file(SCRIPT, priority=501, defer="defer")
        app.add_css_file(STYLESHEET, priority=500)


def serve_static(app: Sphinx) -> None:
    """Copy this extension's ``_static`` folder into the site (``builder-inited``)."""
    if app.builder.format == "html" and str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))


def add_lookup(app: Sphinx) -> None:
    """Register the directive, its assets and the data file (one call from ``setup()``)."""
    app.add_directive("tcdoc-lookup", LookupDirective)
    app.connect("builder-inited", serve_static)
    app.connect("html-page-context", add_page_assets)
    app.connect("build-finished", write_data)


# -- The data ------------------------------------------------------------------------------------


class _Strings:
    """A table of strings, each stored once; :meth:`index` gives a string's place in it."""

    def __init__(self) -> None:
        self.places: dict[str, int] = {}

    def index(self, text: str) -> int:
        return self.places.setdefault(text, len(self.places))

    def table(self) -> list[str]:
        return list(self.places)


def write_data(app: Sphinx, exception: BaseException | None) -> None:
    """Write the card's data into the edition's ``_static`` (``build-finished``).

    A build that measured nothing (nothing to read again) keeps the file that an earlier build
    wrote, so that a build with nothing to do does not import torch for it, unless this module or
    a catalogue of its words changed since.
    """
    if exception is not None or app.builder.format != "html" or PAGE not in app.env.all_docs:
        return
    target = Path(app.outdir) / "_static" / DATA
    if target.is_file() and not state(app.env).matrices and not _newer_than(target):
        return
    data = lookup_data(app)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"window.TCDOC_LOOKUP={text};\n", encoding="utf-8")


def _newer_than(target: Path) -> bool:
    """Tell whether this module or a compiled catalogue of the card's words changed after ``target``."""
    from tcdoc.sphinxext._i18n import LOCALE_DIR

    inputs = [Path(__file__), *LOCALE_DIR.rglob("*.mo"), *(Path(__file__).parent / "locales").rglob("*.mo")]
    written = target.stat().st_mtime
    return any(path.stat().st_mtime > written for path in inputs)


def lookup_data(app: Sphinx) -> dict[str, Any]:
    """Return what the cards show, in the build's language, with each string once in ``s``.

    Keys: ``s`` the strings; ``t`` the card's words (indices); ``o`` each operation's name, code,
    summary, family and links; ``x`` each scenario's name and summary; ``m`` each grad mode and its
    words; ``k`` the keys of every spelling (see :func:`keys`); ``c`` the distinct cards; ``r``
    for each operation and grad mode, the card of each scenario; ``v`` the releases compared.
    """
    from tcdoc.sphinxext._changes import history
    from tcdoc.sphinxext._grad_modes import mode_heading
    from tcdoc.sphinxext._state import build_matrix

    env = app.env
    matrix = build_matrix(env)
    strings = _Strings()
    operations = tcdoc.operations(include_unavailable=True)
    scenarios = tcdoc.scenarios(include_unavailable=True)
    found = history(env)
    changes = _changes(found) if found is not None else {}
    cards: dict[tuple[Any, ...], int] = {}
    rows: list[list[list[int]]] = []
    for op in operations:
        by_mode = []
        for mode in tcdoc.GRAD_MODES:
            row = []
            for scenario in scenarios:
                result = matrix.get(op.name, scenario.name, mode)
                card = _card(result, changes.get((op.name, scenario.name, mode), []), strings)
                row.append(cards.setdefault(card, len(cards)))
            by_mode.append(row)
        rows.append(by_mode)
    data: dict[str, Any] = {
        "t": {key: strings.index(text) for key, text in _card_words().items()},
        "o": [_operation(app, env, op, strings) for op in operations],
        "x": [[s.name, strings.index(translate(s.summary))] for s in scenarios],
        "m": [[mode, strings.index(mode_heading(mode))] for mode in tcdoc.GRAD_MODES],
        "k": keys((op.name, op.code) for op in operations),
        "c": [list(card) for card in cards],
        "r": rows,
        "v": [release.version for release in found.releases] if found is not None else [],
        "torch": matrix.environment.torch,
    }
    data["s"] = strings.table()  # last, once every string has its place
    return data


def _card_words() -> dict[str, str]:
    """Return the card's own words, in the build's language."""
    words = {
        "q_new_object": translate(tcdoc.QUESTIONS["new_object"]),
        "q_metadata": translate(tcdoc.QUESTIONS["metadata"]),
        "q_memory": translate(tcdoc.QUESTIONS["memory"]),
        "q_history": translate(tcdoc.QUESTIONS["history"]),
        "x": _("x is: {summary}"),
        "mode": _("Grad mode: {mode}"),
        "answers": _("The four questions"),
        "writes": _("In-place writes into y"),
        "warnings": _("Warnings"),
        "no_warnings": _("It emitted no warning."),
        "raises": _("It raised:"),
        "not_run": _("This build did not run it:"),
        "releases": _("Between releases"),
        "same": _("The same answers in every release measured: {releases}."),
        "row": _("Its row in the table"),
        "explains": _("The page that explains it"),
        "example": _("The example that shows it"),
        "unknown": _("No operation is written {text}. The nearest are:"),
        "empty": _("Type an operation, choose a kind of x and a grad mode, then look it up."),
    }
    return words


def _operation(app: Sphinx, env: BuildEnvironment, op: tcdoc.Operation, strings: _Strings) -> list[Any]:
    """Return an operation's name, code, summary, and links: its table row, its page, its example."""
    builder = app.builder
    family = f"reference/matrix/{op.family}"
    row = f"{builder.get_relative_uri(PAGE, family)}#matrix-{op.name}" if family in env.all_docs else ""
    shown = operation_doc(env.config, op.name)
    example = shown if shown is not None and shown.startswith("auto_examples/") else None
    explanation = f"explanation/{op.name}"
    if explanation not in env.all_docs:
        explanation = (
            shown if shown is not None and example is None else env.config.tcdoc_operation_default_doc
        )
    links = [
        builder.get_relative_uri(PAGE, doc) if doc in env.all_docs else "" for doc in (explanation, example)
    ]
    return [op.name, op.code, strings.index(translate(op.summary)), row, *links]


def _card(result: tcdoc.ProbeResult, changes: list[str], strings: _Strings) -> tuple[Any, ...]:
    """Return one card: the four answers, the writes, the warnings, the error or why not run, the changes.

    Each item is an index into ``strings`` (``-1``: none); the writes, warnings and changes are
    tuples of indices.
    """
    warnings = tuple(strings.index(str(w)) for w in result.warnings)
    changed = tuple(strings.index(text) for text in changes)
    if isinstance(result.outcome, tcdoc.ErrorInfo):
        return (-1, -1, -1, -1, (), warnings, strings.index(str(result.outcome)), -1, changed)
    if isinstance(result.outcome, tcdoc.NotRun):
        return (-1, -1, -1, -1, (), warnings, -1, strings.index(result.outcome.reason), changed)
    answers = tcdoc.answers(result.outcome, translate)
    values = result.outcome.as_dict()
    writes = []
    for field in WRITES:
        value = values[field]
        words = cell(value, is_not_applicable(field, values), translate)
        meaning = WRITE_OUTCOMES.get(value) if isinstance(value, str) else None
        if meaning is not None:
            words = translate(meaning)
        writes += [strings.index(LABELS[field]), strings.index(words)]
    four = tuple(strings.index(answers[key]) for key in ("new_object", "metadata", "memory", "history"))
    return (*four, tuple(writes), warnings, -1, -1, changed)


def _changes(found: Any) -> dict[tuple[str, str, str], list[str]]:
    """Return each cell's changes between releases, in words: the releases, the field, before and after."""
    from tcdoc._diff import change_group
    from tcdoc.sphinxext._grad_modes import field_label

    by_cell: dict[tuple[str, str, str], list[str]] = {}
    template = _("torch {old} to {new}: {field} was {was}, is {now}")
    for step in found.steps:
        old, new = step.old.environment.torch, step.new.environment.torch
        for change in step.changes:
            if change.grad_mode is None or change_group(change) == "locations":
                continue
            words = template.format(
                old=old,
                new=new,
                field=field_label(change.field),
                was=_value(change.old),
                now=_value(change.new),
            )
            by_cell.setdefault((change.operation, change.scenario, change.grad_mode), []).append(words)
    return by_cell


def _value(value: object) -> str:
    """Return a changed value in words, as a table cell writes it; messages one after another."""
    if isinstance(value, (list, tuple)):
        return "; ".join(str(item) for item in value) or translate("none")
    return cell(value, value is None, translate)
