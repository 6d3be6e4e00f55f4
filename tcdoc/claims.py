"""Claims: sentences that state what torch does, each bound to a check that fails when it is false.

A site built with ``tcdoc.sphinxext`` may state what torch does only where a measurement renders
it (``tcdoc-fact``, ``tcdoc-properties``, ``tcdoc-run``, ...) or where a check would fail if the
sentence, as worded, were false. The sentence stays in its page, where a writer edits it and a
translator meets it, as a MyST span with an id and the class ``claim``::

    [`x.detach()` copies nothing]{#copies-nothing .claim}

The check stays beside the site, in the page's checks module (the ``tcdoc_checks`` setting
names their package), as a :class:`Claim` of the same id::

    CLAIMS = [Claim("copies-nothing", _copies_nothing, pin="5a0e3c1f9b")]

``pin`` is :func:`pin` of the words the check was written against. When the words on the page
change, the build fails until someone has read the check again and pinned the new words, so
"never" turned into "always" cannot slip through a check that never reads its sentence. A check
returns when its sentence is true and raises :class:`ClaimFalse`, through :func:`expect`, when
it is not; a check that cannot run at all (a ``KeyError``, a name that does not exist) makes
the claim false too. Only a missing optional package (``needs``) or a missing CUDA device
(``needs_cuda``) leaves a claim not checked, and its :class:`Verdict` says which.

An example script must read without tcdoc, so its sentences carry no markup: its checks module
gives each claim's words as ``quote`` instead of a pin, and the build checks that the example
says them word for word (markup aside, see :func:`plain`).

Quantifiers. A sentence that says "only", "never", "always" or "every" is checked over the
whole registry (every operation of :func:`tcdoc.operations` on every scenario of
:func:`tcdoc.scenarios`), or states the condition it was checked under, which its claim's
``scope`` names. :class:`Only` and :class:`Every` make that mechanical: the page's words are a
template whose ``{ops}``, ``{among}`` and ``{scenarios}`` the build fills in from the very data
the check reads, and a template that leaves one of them out is refused.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from tcdoc._locale import english as _same

if TYPE_CHECKING:
    from tcdoc._compare import Comparison
    from tcdoc._probe import Matrix

__all__ = [
    "EVERYDAY",
    "EVERYDAY_SCENARIOS",
    "EVERY_OPERATION",
    "EVERY_SCENARIO",
    "MESSAGES",
    "AnyClaim",
    "Check",
    "Claim",
    "ClaimFalse",
    "Every",
    "Only",
    "Span",
    "Verdict",
    "claim",
    "claim_spans",
    "claims_of",
    "example_claims",
    "example_text",
    "expect",
    "fill_placeholders",
    "measured",
    "module_name",
    "pin",
    "plain",
    "quoted",
    "raised",
    "verify",
]


class ClaimFalse(Exception):
    """A claim's check found its sentence false; the message says what the check saw."""


Check = Callable[["Matrix"], None]
"""The type of a check, a function of the build's :class:`tcdoc.Matrix` that raises :class:`ClaimFalse`."""

_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_PLACEHOLDER = re.compile(r"\{(ops|among|scenarios)\}")

Translate = Callable[[str], str]
"""Gives a message of the ``tcdoc`` catalogue in the build's language."""


def pin(words: str) -> str:
    """Return the pin of a claim's words: a digest of the words with their spacing normalised.

    >>> pin("`x.detach()` copies   nothing") == pin("`x.detach()` copies nothing")
    True
    >>> len(pin("`x.detach()` copies nothing"))
    10
    """
    return hashlib.sha256(" ".join(words.split()).encode("utf-8")).hexdigest()[:10]


def _check_words(claim_id: str, pinned: str, quote: str) -> None:
    if not _ID.fullmatch(claim_id):
        raise ValueError(f"a claim's id is lower-case words joined by '-', not {claim_id!r}")
    if bool(pinned) == bool(quote):
        raise ValueError(
            f"claim {claim_id!r} needs either pin= (its words are on a page) or quote= (in an example)"
        )


@dataclasses.dataclass(frozen=True)
class Claim:
    """A sentence about torch (on a page, or quoted in an example) and the check that fails when it is false.

    Attributes
    ----------
    id
        The id of the sentence's span on its page (``copies-nothing``), or a name for a quote.
    check
        Returns when the sentence is true of the matrix (and of this torch); raises
        :class:`ClaimFalse` when it is not.
    pin
        :func:`pin` of the page's words that the check was written against.
    quote
        For an example: the sentence, word for word as the example says it.
    scope
        For a sentence that quantifies ("only", "never", "always", "every"): what the check
        covers, ``"registry"`` or the condition the sentence states.
    needs
        Optional packages the check imports; where one is missing the claim is not checked.
    needs_cuda
        The check runs on a CUDA device; where there is none the claim is not checked.

    >>> Claim("copies-nothing", lambda matrix: None, pin=pin("`x.detach()` copies nothing")).id
    'copies-nothing'

    """

    id: str
    check: Check = dataclasses.field(repr=False)
    pin: str = ""
    quote: str = ""
    scope: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False

    def __post_init__(self) -> None:
        _check_words(self.id, self.pin, self.quote)

    def values(self, translate: Translate = _same) -> dict[str, str]:
        """Return what each placeholder says: nothing, since a free-form claim has none."""
        return {}

    def fill(self, words: str, translate: Translate = _same) -> str:
        """Return the sentence as shown: a free-form claim's words are shown as they are."""
        if _PLACEHOLDER.search(words):
            raise ValueError(f"claim {self.id!r} is a Claim, whose words are shown as written: {words!r}")
        return words

    def run(self, matrix: Matrix) -> None:
        """Run the check; :class:`ClaimFalse` where the sentence is false."""
        self.check(matrix)


# -- Quantified claims ---------------------------------------------------------------------

EVERY_OPERATION = "every operation tcdoc knows"
"""What ``{among}`` says where an :class:`Only` claim is checked over the whole registry."""

EVERY_SCENARIO = "every kind of `x` tcdoc builds"
"""What ``{scenarios}`` says where a claim is checked on every scenario of the registry."""

EVERYDAY = "everyday"
"""Give ``scenarios=EVERYDAY`` to check a claim on the everyday tensors of the registry only."""

EVERYDAY_SCENARIOS = "each kind of `x` in the first table of the property matrix"
"""What ``{scenarios}`` says where a claim is checked on the everyday group of scenarios: the
special tensors (inference, conjugate, sparse, ...) have claims of their own."""


def _join(words: list[str], translate: Translate) -> str:
    if len(words) == 1:
        return words[0]
    return translate("{first} and {last}").format(first=translate(", ").join(words[:-1]), last=words[-1])


def _codes(names: Iterable[str], translate: Translate) -> str:
    from tcdoc._registry import get_operation

    return _join([f"`{get_operation(name).code}`" for name in names], translate)


def _scenario_text(chosen: tuple[str, ...] | str | None, translate: Translate) -> str:
    if chosen is None:
        return translate(EVERY_SCENARIO)
    if chosen == EVERYDAY:
        return translate(EVERYDAY_SCENARIOS)
    return _join([f"`{name}`" for name in chosen], translate)


def _scenario_list(chosen: tuple[str, ...] | str | None) -> tuple[str, ...]:
    from tcdoc._registry import get_scenario, scenarios

    if chosen is None:
        return tuple(s.name for s in scenarios())
    if chosen == EVERYDAY:
        return tuple(s.name for s in scenarios() if s.group == EVERYDAY)
    return tuple(get_scenario(name).name for name in chosen)


def _fill(claim_id: str, words: str, values: Mapping[str, str]) -> str:
    for key in values:
        if f"{{{key}}}" not in words:
            raise ValueError(
                f"the words of claim {claim_id!r} must say {{{key}}}: the condition its check covers"
            )
    return fill_placeholders(words, values)


def fill_placeholders(words: str, values: Mapping[str, str]) -> str:
    """Replace each ``{ops}``, ``{among}`` or ``{scenarios}`` of ``words`` that ``values`` has.

    >>> fill_placeholders("only {ops} here", {"ops": "`x.detach()`"})
    'only `x.detach()` here'
    """
    return _PLACEHOLDER.sub(lambda match: values.get(match.group(1), match.group(0)), words)


@dataclasses.dataclass(frozen=True)
class Only:
    """Claim that of ``among``, on ``scenarios``, exactly ``ops`` pass ``test``: "only {ops} ...".

    ``among`` and ``scenarios`` default to the whole registry (``scenarios=EVERYDAY``: the
    everyday group); the page's words must say ``only {ops}``, ``{among}`` and ``{scenarios}``,
    so that the sentence always states what was checked. An operation that raised or was not
    run on a scenario does not pass ``test`` there. The default grad mode's rows are read.

    >>> only = Only("x", ("detach",), lambda c: c.shares_storage, among=("clone", "detach"),
    ...             scenarios=("no_grad",), pin="0")
    >>> only.fill("Of {among}, on {scenarios}, only {ops} shares memory.")
    'Of `x.clone()` and `x.detach()`, on `no_grad`, only `x.detach()` shares memory.'
    """

    id: str
    ops: tuple[str, ...]
    test: Callable[[Comparison], bool] = dataclasses.field(repr=False)
    among: tuple[str, ...] | None = None
    scenarios: tuple[str, ...] | str | None = None
    pin: str = ""
    quote: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False

    def __post_init__(self) -> None:
        _check_words(self.id, self.pin, self.quote)

    @property
    def scope(self) -> str:
        """``"registry"`` where the claim covers every operation on every scenario, else ``"stated"``."""
        return "registry" if self.among is None and self.scenarios is None else "stated"

    def values(self, translate: Translate = _same) -> dict[str, str]:
        """Return what each placeholder says, in MyST inline markup (``translate`` gives the language)."""
        among = translate(EVERY_OPERATION) if self.among is None else _codes(self.among, translate)
        return {
            "ops": _codes(self.ops, translate),
            "among": among,
            "scenarios": _scenario_text(self.scenarios, translate),
        }

    def fill(self, words: str, translate: Translate = _same) -> str:
        """Return the sentence as shown: ``words`` with the operations and scenarios filled in."""
        if "only {ops}" not in words.lower():
            raise ValueError(f"the words of Only claim {self.id!r} must say 'only {{ops}}'")
        return _fill(self.id, words, self.values(translate))

    def run(self, matrix: Matrix) -> None:
        """Check that exactly ``ops`` pass ``test`` on each scenario."""
        from tcdoc._registry import operations

        among = self.among or tuple(op.name for op in operations())
        for scenario in _scenario_list(self.scenarios):
            passing = []
            for name in among:
                row = matrix.get(name, scenario)
                if row.properties is not None and self.test(row.properties):
                    passing.append(name)
            expect(
                sorted(passing) == sorted(self.ops),
                f"on {scenario}, the operations that pass are {passing}, not only {list(self.ops)}",
            )


@dataclasses.dataclass(frozen=True)
class Every:
    """Claim that each of ``ops`` measures ``expected`` on every scenario named: "On {scenarios}, {ops} ...".

    ``scenarios`` defaults to every scenario of the registry (``scenarios=EVERYDAY``: the
    everyday group). With ``where_it_runs``, a scenario where the operation raised is left
    out (the words must then say so); otherwise a raise makes the claim false. A cell that was
    not run (no CUDA device, a missing package: the environment, not torch) is always left out,
    but the operation must run on one scenario at least. The default grad mode's rows are read.

    >>> every = Every("x", ("detach",), {"new_bytes": 0}, pin="0")
    >>> every.fill("On {scenarios}, {ops} never copies memory.")
    'On every kind of `x` tcdoc builds, `x.detach()` never copies memory.'
    """

    id: str
    ops: tuple[str, ...]
    expected: Mapping[str, object]
    scenarios: tuple[str, ...] | str | None = None
    where_it_runs: bool = False
    pin: str = ""
    quote: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False

    def __post_init__(self) -> None:
        _check_words(self.id, self.pin, self.quote)

    @property
    def scope(self) -> str:
        """``"registry"`` where the claim covers every scenario, else ``"stated"``."""
        return "registry" if self.scenarios is None else "stated"

    def values(self, translate: Translate = _same) -> dict[str, str]:
        """Return what each placeholder says, in MyST inline markup (``translate`` gives the language)."""
        return {"ops": _codes(self.ops, translate), "scenarios": _scenario_text(self.scenarios, translate)}

    def fill(self, words: str, translate: Translate = _same) -> str:
        """Return the sentence as shown: ``words`` with the operations and scenarios filled in."""
        return _fill(self.id, words, self.values(translate))

    def run(self, matrix: Matrix) -> None:
        """Check that each operation measures ``expected`` on each scenario."""
        names = _scenario_list(self.scenarios)
        for op in self.ops:
            seen = 0
            for scenario in names:
                row = matrix.get(op, scenario)
                if row.not_run is not None:
                    continue
                if row.properties is None:
                    expect(self.where_it_runs, f"{op} on {scenario}: {row.outcome}")
                    continue
                seen += 1
                values = row.properties.as_dict()
                wrong = {
                    field: values[field] for field, value in self.expected.items() if values[field] != value
                }
                expect(not wrong, f"{op} on {scenario} measured {wrong}, not {dict(self.expected)}")
            expect(seen, f"{op} ran on none of {list(names)}")


MESSAGES = (EVERY_OPERATION, EVERY_SCENARIO, EVERYDAY_SCENARIOS, ", ", "{first} and {last}")
"""The words that fill placeholders, translated through the ``tcdoc`` catalogue in a build."""

AnyClaim = Claim | Only | Every
"""Any of the three kinds of claim; each has ``id``, ``pin``, ``quote``, ``scope``, ``fill`` and ``run``."""


# -- Checking --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What checking a claim found: ``held`` is True, False, or None where it was not checked."""

    claim: str
    held: bool | None
    detail: str = ""

    def __str__(self) -> str:
        if self.held:
            return f"{self.claim}: holds"
        if self.held is None:
            return f"{self.claim}: not checked: {self.detail}"
        return f"{self.claim}: FALSE: {self.detail}"


def verify(claim: AnyClaim, matrix: Matrix) -> Verdict:
    """Check ``claim`` against ``matrix`` (and this torch).

    >>> import tcdoc
    >>> holds = Claim("clone-copies", lambda m: expect(not measured(m, "clone", "no_grad").shares_storage,
    ...               "clone shares"), pin="0")
    >>> verify(holds, tcdoc.matrix(operations=["clone"], scenarios=["no_grad"])).held
    True

    A check that cannot run (it reads a row the matrix lacks, say) makes the claim false:
    only a missing optional package or CUDA device leaves it not checked.
    """
    missing = [name for name in claim.needs if not _importable(name)]
    if claim.needs_cuda:
        from tcdoc._registry import cuda_available

        if not cuda_available():
            missing.append("a CUDA device")
    if missing:
        return Verdict(claim.id, None, f"needs {', '.join(missing)}")
    try:
        claim.run(matrix)
    except ClaimFalse as exc:
        return Verdict(claim.id, False, str(exc))
    except Exception as exc:  # noqa: BLE001 - a check that cannot run checks nothing
        return Verdict(claim.id, False, f"its check could not run: {type(exc).__name__}: {exc}")
    return Verdict(claim.id, True)


def expect(condition: object, message: str) -> None:
    """Raise :class:`ClaimFalse` with ``message`` unless ``condition`` is true.

    >>> expect(1 + 1 == 2, "arithmetic")
    """
    if not condition:
        raise ClaimFalse(message)


def measured(matrix: Matrix, operation: str, scenario: str) -> Comparison:
    """Return what ``operation`` measured on ``scenario``; :class:`ClaimFalse` if it raised or did not run."""
    row = matrix.get(operation, scenario)
    if row.properties is None:
        raise ClaimFalse(f"{operation} on {scenario} was not measured: {row.outcome}")
    return row.properties


# -- Where claims live ------------------------------------------------------------------------


def module_name(package: str, docname: str, gallery: str = "") -> str:
    """Return the checks module of a page: its docname under ``package``, as a Python name.

    A page of the gallery (``gallery``, sphinx-gallery's ``gallery_dirs``) has the checks of its
    example script, under ``examples``.

    >>> module_name("_checks", "howto/which-copy")
    '_checks.howto.which_copy'
    >>> module_name("_checks", "auto_examples/gpu/plot_gpu_01_copies", gallery="auto_examples")
    '_checks.examples.gpu.plot_gpu_01_copies'
    """
    if gallery and docname.startswith(f"{gallery}/"):
        docname = "examples/" + docname.removeprefix(f"{gallery}/")
    return ".".join([package, *(part.replace("-", "_") for part in docname.split("/"))])


def claims_of(module: ModuleType) -> dict[str, AnyClaim]:
    """Return the claims of one checks module (its ``CLAIMS``), by id.

    Raises
    ------
    ValueError
        If the module has no ``CLAIMS`` list, or two claims share an id.

    """
    listed: Sequence[AnyClaim] | None = getattr(module, "CLAIMS", None)
    if listed is None:
        raise ValueError(f"the checks module {module.__name__} has no CLAIMS list")
    table: dict[str, AnyClaim] = {}
    for claim in listed:
        if claim.id in table:
            raise ValueError(f"two claims of {module.__name__} are called {claim.id!r}")
        table[claim.id] = claim
    return table


@dataclasses.dataclass(frozen=True)
class Span:
    """A claim's span in a page's MyST source: its id, its words as written, its line and place.

    ``start`` and ``end`` are the offsets of the whole span, ``[`` to ``}``, in the source.
    """

    id: str
    words: str
    line: int
    start: int = dataclasses.field(default=0, repr=False, compare=False)
    end: int = dataclasses.field(default=0, repr=False, compare=False)


_SPAN_END = re.compile(r"\]\{#([A-Za-z0-9_-]+)\s+\.claim\}")


def claim_spans(source: str) -> list[Span]:
    """Return the claims of a MyST page: each ``[words]{#id .claim}`` span, in reading order.

    >>> claim_spans("Text. [`x.detach()` copies [nothing](a.md)]{#copies-nothing .claim} More.")
    [Span(id='copies-nothing', words='`x.detach()` copies [nothing](a.md)', line=1)]
    """
    found = []
    for end in _SPAN_END.finditer(source):
        start = _opening_bracket(source, end.start())
        if start is None:
            continue
        words = source[start + 1 : end.start()]
        line = source.count("\n", 0, start) + 1
        found.append(Span(end.group(1), " ".join(words.split()), line, start, end.end()))
    return found


def _opening_bracket(source: str, close: int) -> int | None:
    """Find the ``[`` that the ``]`` at ``close`` closes, skipping nested brackets and code."""
    depth = 0
    index = close - 1
    while index >= 0:
        char = source[index]
        if char == "`":  # skip back over an inline code span
            opening = source.rfind("`", 0, index)
            if opening < 0:
                return None
            index = opening - 1
            continue
        if char == "]":
            depth += 1
        elif char == "[":
            if depth == 0:
                return index
            depth -= 1
        index -= 1
    return None


# -- Quotes in examples ---------------------------------------------------------------------

_MYST_ROLE = re.compile(r"\{[\w:.-]+\}`([^`]*)`")
_REST_ROLE = re.compile(r":[\w:.-]+:`([^`]*)`")
_REST_LINK = re.compile(r"`([^`<]*?)\s*<[^>]*>`__?")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def _role_text(match: re.Match[str]) -> str:
    text = match.group(1)
    shown = re.match(r"(.*?)\s*<[^>]*>$", text)
    if shown:
        return shown.group(1)
    return text.rsplit(".", 1)[-1] if text.startswith("~") else text


def plain(text: str) -> str:
    """Reduce MyST or reST inline markup to the words a reader sees, to compare quotes.

    >>> plain("`x.detach()` shares {py:attr}`~torch.Tensor.grad` with ``x``, see [docs](https://a).")
    'x.detach() shares grad with x, see docs.'
    """
    text = _MYST_ROLE.sub(_role_text, text)
    text = _REST_ROLE.sub(_role_text, text)
    text = _REST_LINK.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    text = text.replace("``", "").replace("`", "").replace("*", "")
    return " ".join(text.split())


def example_text(source: str) -> list[str]:
    r"""Return the text blocks of a sphinx-gallery example: its docstring, then each ``# %%`` cell's comment.

    Titles (a line underlined with ``=`` or ``-``) are left out: a heading names what its section
    shows, and the section's own sentences carry the claims.

    >>> example_text("# %%\n# Sections\n# --------\n# A cell.\nx = 1\n")
    ['A cell.']
    """
    blocks: list[list[str]] = []
    docstring = re.match(r'\s*[rR]?"""(.*?)"""', source, re.DOTALL)
    if docstring:
        blocks.append(docstring.group(1).splitlines())
    lines = source.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("# %%"):
            block = []
            for comment in lines[index + 1 :]:
                if not comment.startswith("#"):
                    break
                block.append(comment[2:] if comment.startswith("# ") else comment[1:])
            blocks.append(block)
    return [text for text in map(_drop_titles, blocks) if text]


def _drop_titles(lines: list[str]) -> str:
    kept: list[str] = []
    for line, following in zip(lines, [*lines[1:], ""], strict=False):
        underline = re.fullmatch(r"\s*([=\-~^])\1{2,}\s*", following)
        if underline or re.fullmatch(r"\s*([=\-~^])\1{2,}\s*", line):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def quoted(quote: str, text: str) -> bool:
    """Tell whether ``text`` (an example's text, in any markup) says ``quote`` word for word.

    >>> quoted("`clone()` copies", "Here, ``clone()`` copies the data.")
    True
    """
    return plain(quote) in plain(text)


# -- Claims checked inside an example -----------------------------------------------------------


def claim(words: str, holds: object, seen: str = "") -> None:
    """Check a sentence of an example against the objects the example itself built.

    Call it in a hidden block of the example, right after the code that shows the sentence::

        # sphinx_gallery_start_ignore
        from tcdoc.claims import claim

        claim("`y` and `x` share their memory", y.data_ptr() == x.data_ptr(), "y has memory of its own")
        # sphinx_gallery_end_ignore

    sphinx-gallery runs the block and leaves it out of the page and the notebook; a downloaded
    script keeps it, so the sentence is checked on the reader's torch too. ``words`` must be
    said word for word in the example's text (the build checks it, :func:`example_claims`);
    ``holds`` is what makes them true; ``seen`` says what was found instead.

    >>> claim("one plus one is two", 1 + 1 == 2)
    >>> claim("one plus one is three", 1 + 1 == 3, "it is 2")
    Traceback (most recent call last):
    ...
    tcdoc.claims.ClaimFalse: the example says 'one plus one is three', which is false here: it is 2

    Raises
    ------
    ClaimFalse
        If ``holds`` is false.
    TypeError
        If ``words`` is not a string of words.

    """
    if not isinstance(words, str) or not words.strip():
        raise TypeError(f"claim() takes the sentence's words as a string, not {words!r}")
    if not holds:
        raise ClaimFalse(f"the example says {words!r}, which is false here: {seen or 'its check failed'}")


def raised(call: Callable[[], object]) -> BaseException | None:
    """Run ``call`` and return what it raised, or None: for claims that torch refuses something.

    >>> type(raised(lambda: 1 / 0)).__name__
    'ZeroDivisionError'
    >>> raised(lambda: 1) is None
    True
    """
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the caller asks which exception, if any
        return exc
    return None


def example_claims(source: str) -> list[tuple[str, int]]:
    """Return the words and line of each :func:`claim` call in an example script's source.

    >>> example_claims('from tcdoc.claims import claim\\nclaim("x is x", True)\\n')
    [('x is x', 2)]

    Raises
    ------
    ValueError
        If a call's words are not one literal string, which the build could not compare with
        the example's text.

    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name != "claim":
            continue
        first = node.args[0] if node.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            raise ValueError(f"line {node.lineno}: claim() takes its words as one literal string")
        found.append((first.value, node.lineno))
    return sorted(found, key=lambda item: item[1])


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True
