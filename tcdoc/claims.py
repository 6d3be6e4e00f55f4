"""Claims: sentences that state what torch does, each bound to a check that fails when it is false.

A site built with ``tcdoc.sphinxext`` may state what torch does only where a measurement renders
it (``tcdoc-fact``, ``tcdoc-properties``, ``tcdoc-run``, ...). Elsewhere, a check must fail if
the sentence, as worded, were false. The sentence stays in its page, where a writer edits it and
a translator meets it, as a MyST span with an id and the class ``claim``::

    [`x.detach()` copies nothing]{#copies-nothing .claim}

The check stays beside the site, in the page's checks module, as a :class:`Claim` of the same
id. The ``tcdoc_checks`` setting names their package, and :func:`module_name` the module. The
claim holds the words it was written against::

    CLAIMS = [Claim("copies-nothing", _copies_nothing, words="`x.detach()` copies nothing")]

When the words on the page change (spacing aside, see :func:`same_words`), the build fails. It
shows the old words beside the new, until someone has read the check again and copied the new
words into it. So "never" turned into "always" cannot slip through a check that never reads
its sentence. A check returns when its sentence is true and raises :class:`ClaimFalse`, through
:func:`expect`, when it is not. A check that cannot run at all (a ``KeyError``, a name that
does not exist) makes the claim false too. Only a missing optional package (``needs``) or a
missing CUDA device (``needs_cuda``) leaves a claim not checked, and its :class:`Verdict` says
which.

An example script must read without tcdoc, so its sentences carry no markup. Instead, a hidden
block of the example calls :func:`claim` with the sentence's words and the condition that makes
them true, on the very objects the example built. The build checks that the example says those
words (:func:`example_claims`, :func:`quoted`). A claim that cannot run inside its example stays
in the example's checks module, with its words as ``quote``.

Scope. A section can state, once, the conditions its sentences share: the kind of ``x``, the
grad mode, the device. It does so with the ``tcdoc-scope`` directive. Each claim of the section
inherits that :class:`Scope`, and a check that takes ``(matrix, scope)`` runs the stated case
(:meth:`Scope.cells`).

Quantifiers. A sentence that says "only", "never", "always" or "every" needs one of three
things. It may be covered by its section's scope. It may be an :class:`Only` or :class:`Every`
claim, whose words are a template (``{ops}``, ``{among}``, ``{scenarios}``) that the build
fills in from the very data the check reads. Or it may say what its check covers with
``covers``: :data:`REGISTRY` (checked over every operation and scenario) or :data:`IN_WORDS`
(the sentence names its own condition). A claim whose words quantify over every kind of tensor
while its section is scoped to some is caught (:func:`wider_than_scope`).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
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
    "IN_WORDS",
    "MESSAGES",
    "REGISTRY",
    "AnyClaim",
    "Check",
    "Claim",
    "ClaimFalse",
    "Every",
    "Only",
    "Scope",
    "Span",
    "Verdict",
    "claim",
    "claim_spans",
    "claims_of",
    "example_claims",
    "example_text",
    "expect",
    "fill_placeholders",
    "gallery_example",
    "measured",
    "module_name",
    "parse_scope",
    "plain",
    "quoted",
    "raised",
    "same_words",
    "scopes_of",
    "verify",
    "wider_than_scope",
    "words_changed",
]


class ClaimFalse(Exception):
    """A claim's check found its sentence false; the message says what the check saw."""


Check = Callable[["Matrix"], None] | Callable[["Matrix", "Scope"], None]
"""The type of a check, a function of the build's :class:`tcdoc.Matrix` that raises
:class:`ClaimFalse`; one that takes a second argument gets its section's :class:`Scope` too."""

_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_PLACEHOLDER = re.compile(r"\{(ops|among|scenarios)\}")

Translate = Callable[[str], str]
"""Gives a message of the ``tcdoc`` catalogue in the build's language."""

REGISTRY = "registry"
"""``covers=REGISTRY``: the check runs over every operation and scenario the words quantify over."""

IN_WORDS = "in its words"
"""``covers=IN_WORDS``: the sentence names, in its own words, the case its check runs."""

_COVERS = ("", REGISTRY, IN_WORDS)


def same_words(old: str, new: str) -> bool:
    r"""Tell whether two wordings of a claim are the same words: only spacing may differ.

    >>> same_words("`x.detach()` copies   nothing", "`x.detach()` copies\nnothing")
    True
    >>> same_words("`x.detach()` copies nothing", "`x.detach()` copies everything")
    False
    """
    return " ".join(old.split()) == " ".join(new.split())


def words_changed(claim_id: str, module: str, old: str, new: str) -> str:
    """Return the message for a claim whose page says other words than its check holds.

    >>> print(words_changed("c", "_checks.index", "x copies", "x never copies"))  # doctest: +ELLIPSIS
    the words of claim 'c' changed: read its check in _checks.index again, ... copy them into its words=
        check's words: x copies
        page's words:  x never copies
    """
    return (
        f"the words of claim {claim_id!r} changed: read its check in {module} again, and if it still "
        f"fails whenever the new words are false, copy them into its words=\n"
        f"    check's words: {' '.join(old.split())}\n"
        f"    page's words:  {' '.join(new.split())}"
    )


def _check_words(claim_id: str, words: str, quote: str) -> None:
    if not _ID.fullmatch(claim_id):
        raise ValueError(f"a claim's id is lower-case words joined by '-', not {claim_id!r}")
    if bool(words.strip()) == bool(quote.strip()):
        raise ValueError(
            f"claim {claim_id!r} needs either words= (its sentence is on a page) or quote= (in an example)"
        )


def _takes_scope(check: Callable[..., None]) -> bool:
    """Tell whether a check takes a second argument, its section's scope."""
    try:
        parameters = inspect.signature(check).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: one argument
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in parameters)


@dataclasses.dataclass(frozen=True)
class Claim:
    """A sentence about torch (on a page, or quoted in an example) and the check that fails when it is false.

    Attributes
    ----------
    id
        The id of the sentence's span on its page (``copies-nothing``), or a name for a quote.
    check
        Returns when the sentence is true of the matrix (and of this torch); raises
        :class:`ClaimFalse` when it is not. A check that takes two arguments gets the
        :class:`Scope` of the sentence's section too.
    words
        For a page: the sentence's words that the check was written against.
    quote
        For an example: the sentence, word for word as the example says it.
    covers
        For a sentence that quantifies ("only", "never", "always", "every") outside a section
        that states its scope: :data:`REGISTRY` or :data:`IN_WORDS`.
    needs
        Optional packages the check imports; where one is missing the claim is not checked.
    needs_cuda
        The check runs on a CUDA device; where there is none the claim is not checked.
    scope
        Read by nothing: a free-text note that example checks modules not yet moved into their
        example still carry. A page's claim says what it covers with ``covers``.

    >>> Claim("copies-nothing", lambda matrix: None, words="`x.detach()` copies nothing").id
    'copies-nothing'

    """

    id: str
    check: Check = dataclasses.field(repr=False)
    words: str = ""
    quote: str = ""
    covers: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False
    scope: str = dataclasses.field(default="", repr=False)

    def __post_init__(self) -> None:
        _check_words(self.id, self.words, self.quote)
        if self.covers not in _COVERS:
            raise ValueError(f"claim {self.id!r}: covers= is REGISTRY or IN_WORDS, not {self.covers!r}")
        if self.scope and not self.quote:
            raise ValueError(
                f"claim {self.id!r}: a page's claim says what it covers with covers= or its "
                "section's tcdoc-scope, not with a scope= note"
            )

    def values(self, translate: Translate = _same) -> dict[str, str]:
        """Return what each placeholder says: nothing, since a free-form claim has none."""
        return {}

    def fill(self, words: str, translate: Translate = _same) -> str:
        """Return the sentence as shown: a free-form claim's words are shown as they are."""
        if _PLACEHOLDER.search(words):
            raise ValueError(f"claim {self.id!r} is a Claim, whose words are shown as written: {words!r}")
        return words

    def run(self, matrix: Matrix, scope: Scope | None = None) -> None:
        """Run the check, with ``scope`` where it takes one; :class:`ClaimFalse` where the words are false."""
        if _takes_scope(self.check):
            self.check(matrix, scope or Scope())  # type: ignore[call-arg]
        else:
            self.check(matrix)  # type: ignore[call-arg]


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
    everyday group). The page's words must say ``only {ops}``, ``{among}`` and ``{scenarios}``,
    so that the sentence always states what was checked. An operation that raised or was not
    run on a scenario does not pass ``test`` there. The default grad mode's rows are read.

    >>> only = Only("x", ("detach",), lambda c: c.shares_storage, among=("clone", "detach"),
    ...             scenarios=("no_grad",), words="-")
    >>> only.fill("Of {among}, on {scenarios}, only {ops} shares memory.")
    'Of `x.clone()` and `x.detach()`, on `no_grad`, only `x.detach()` shares memory.'
    """

    id: str
    ops: tuple[str, ...]
    test: Callable[[Comparison], bool] = dataclasses.field(repr=False)
    among: tuple[str, ...] | None = None
    scenarios: tuple[str, ...] | str | None = None
    words: str = ""
    quote: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False

    def __post_init__(self) -> None:
        _check_words(self.id, self.words, self.quote)

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

    def run(self, matrix: Matrix, scope: Scope | None = None) -> None:
        """Check that exactly ``ops`` pass ``test`` on each scenario (its words name them: no scope)."""
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

    >>> every = Every("x", ("detach",), {"new_bytes": 0}, words="-")
    >>> every.fill("On {scenarios}, {ops} never copies memory.")
    'On every kind of `x` tcdoc builds, `x.detach()` never copies memory.'
    """

    id: str
    ops: tuple[str, ...]
    expected: Mapping[str, object]
    scenarios: tuple[str, ...] | str | None = None
    where_it_runs: bool = False
    words: str = ""
    quote: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False

    def __post_init__(self) -> None:
        _check_words(self.id, self.words, self.quote)

    def values(self, translate: Translate = _same) -> dict[str, str]:
        """Return what each placeholder says, in MyST inline markup (``translate`` gives the language)."""
        return {"ops": _codes(self.ops, translate), "scenarios": _scenario_text(self.scenarios, translate)}

    def fill(self, words: str, translate: Translate = _same) -> str:
        """Return the sentence as shown: ``words`` with the operations and scenarios filled in."""
        return _fill(self.id, words, self.values(translate))

    def run(self, matrix: Matrix, scope: Scope | None = None) -> None:
        """Check that each operation measures ``expected`` on each scenario (named in its words: no scope)."""
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


AnyClaim = Claim | Only | Every
"""Any of the three kinds of claim; each has ``id``, ``words``, ``quote``, ``fill`` and ``run``."""


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


def verify(claim: AnyClaim, matrix: Matrix, scope: Scope | None = None) -> Verdict:
    """Check ``claim`` against ``matrix`` (and this torch), in its section's ``scope``.

    >>> import tcdoc
    >>> holds = Claim("clone-copies", lambda m: expect(not measured(m, "clone", "no_grad").shares_storage,
    ...               "clone shares"), words="-")
    >>> verify(holds, tcdoc.matrix(operations=["clone"], scenarios=["no_grad"])).held
    True

    A check that cannot run (it reads a row the matrix lacks, say) makes the claim false.
    Only a missing optional package or CUDA device leaves it not checked.
    """
    missing = [name for name in claim.needs if not _importable(name)]
    if claim.needs_cuda:
        from tcdoc._registry import cuda_available

        if not cuda_available():
            missing.append("a CUDA device")
    if scope is not None and scope.device and scope.device != matrix.environment.device:
        missing.append(f"a build on {scope.device}, its section's device")
    if missing:
        return Verdict(claim.id, None, f"needs {', '.join(missing)}")
    try:
        claim.run(matrix, scope)
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


# -- Scope stated once ------------------------------------------------------------------------

_DEVICES = ("cpu", "cuda")

_GRAD_MODE_WORDS = {
    "enabled": "gradients are enabled",
    "no_grad": "the code runs under `torch.no_grad()`",
    "inference_mode": "the code runs under `torch.inference_mode()`",
}
_DEVICE_WORDS = {"cpu": "tensors are on the CPU", "cuda": "tensors are on a CUDA device"}
_WHERE_WORDS = {"section": "In this section, {conditions}.", "page": "On this page, {conditions}."}
_SCOPE_MESSAGES = (
    *_GRAD_MODE_WORDS.values(),
    *_DEVICE_WORDS.values(),
    *_WHERE_WORDS.values(),
    "`x` is {kinds}",
    "{first} or {last}",
    "{first}, and {last}",
)
"""The words of a scope's line, translated through the ``tcdoc`` catalogue in a build."""

MESSAGES = (EVERY_OPERATION, EVERY_SCENARIO, EVERYDAY_SCENARIOS, ", ", "{first} and {last}", *_SCOPE_MESSAGES)
"""The words of placeholders and of scopes' lines, translated through the ``tcdoc`` catalogue in a build."""


@dataclasses.dataclass(frozen=True)
class Scope:
    """The conditions a section's sentences share, stated once (``tcdoc-scope``); its claims inherit them.

    A scenario, grad mode or device that tcdoc does not know is a ``ValueError``.

    Attributes
    ----------
    scenarios
        The kinds of ``x`` (names of :func:`tcdoc.scenarios`); empty where the section does not say.
    grad_mode
        One of :data:`tcdoc.GRAD_MODES`; empty where the section does not say (checks read ``"enabled"``).
    device
        ``"cpu"`` or ``"cuda"``; empty where the section does not say.

    >>> Scope(("leaf_requires_grad", "non_leaf"), "enabled").grad_mode
    'enabled'

    """

    scenarios: tuple[str, ...] = ()
    grad_mode: str = ""
    device: str = ""

    def __post_init__(self) -> None:
        from tcdoc._names import GRAD_MODES, SCENARIO_NAMES

        for name in self.scenarios:
            if name not in SCENARIO_NAMES:
                raise ValueError(
                    f"unknown kind of x {name!r} in a scope; tcdoc builds: {', '.join(SCENARIO_NAMES)}"
                )
        if self.grad_mode and self.grad_mode not in GRAD_MODES:
            raise ValueError(f"unknown grad mode {self.grad_mode!r} in a scope; choose from: {GRAD_MODES}")
        if self.device and self.device not in _DEVICES:
            raise ValueError(f"unknown device {self.device!r} in a scope; choose from: {_DEVICES}")

    def __bool__(self) -> bool:
        return bool(self.scenarios or self.grad_mode or self.device)

    def within(self, outer: Scope) -> Scope:
        """Return this scope inside ``outer``: what this one states, and the rest from ``outer``.

        >>> Scope(("non_leaf",)).within(Scope(grad_mode="no_grad"))
        Scope(scenarios=('non_leaf',), grad_mode='no_grad', device='')
        """
        return Scope(
            self.scenarios or outer.scenarios, self.grad_mode or outer.grad_mode, self.device or outer.device
        )

    def names(self) -> tuple[str, ...]:
        """Return the scenarios in scope: those stated, or every scenario where none is.

        >>> Scope(("non_leaf",)).names()
        ('non_leaf',)
        """
        from tcdoc._names import SCENARIO_NAMES

        return self.scenarios or SCENARIO_NAMES

    def cells(self, matrix: Matrix, operation: str) -> Iterator[tuple[str, Comparison]]:
        """Yield ``(scenario, what operation measured)`` on each scenario in scope, in its grad mode.

        A cell that was not run (no CUDA device, a missing package) is left out. A cell where
        the operation raised, or no cell run at all, makes the claim false.

        >>> import tcdoc
        >>> m = tcdoc.matrix(["clone"], ["non_leaf"])
        >>> [(name, c.shares_storage) for name, c in Scope(("non_leaf",)).cells(m, "clone")]
        [('non_leaf', False)]

        Raises
        ------
        ClaimFalse
            Where the operation raised on a scenario in scope, or ran on none.

        """
        seen = 0
        for scenario in self.names():
            row = matrix.get(operation, scenario, self.grad_mode or "enabled")
            if row.not_run is not None:
                continue
            if row.properties is None:
                raise ClaimFalse(f"{operation} on {scenario} was not measured: {row.outcome}")
            seen += 1
            yield scenario, row.properties
        expect(seen, f"{operation} ran on none of the scenarios in scope, {list(self.names())}")

    def line(self, where: str = "section", translate: Translate = _same) -> str:
        """Return the scope as one short sentence, in MyST inline markup, for ``where`` (section or page).

        ``translate`` gives the build's language; a scenario is named by its summary.

        >>> print(Scope(("no_grad",), "enabled").line())
        In this section, `x` is a plain tensor that does not require grad, and gradients are enabled.
        """
        if where not in _WHERE_WORDS:
            raise ValueError(f"a scope is stated for a 'section' or a 'page', not {where!r}")
        conditions = []
        if self.scenarios:
            kinds = [_summary_words(name, translate) for name in self.scenarios]
            if len(kinds) == 1:
                either = kinds[0]
            else:
                either = translate("{first} or {last}").format(
                    first=translate(", ").join(kinds[:-1]), last=kinds[-1]
                )
            conditions.append(translate("`x` is {kinds}").format(kinds=either))
        if self.grad_mode:
            conditions.append(translate(_GRAD_MODE_WORDS[self.grad_mode]))
        if self.device:
            conditions.append(translate(_DEVICE_WORDS[self.device]))
        if not conditions:
            raise ValueError("a scope states at least one of x, grad-mode and device")
        if len(conditions) > 1:
            conditions = [
                translate("{first}, and {last}").format(
                    first=translate(", ").join(conditions[:-1]), last=conditions[-1]
                )
            ]
        return translate(_WHERE_WORDS[where]).format(conditions=conditions[0])


def _summary_words(scenario: str, translate: Translate) -> str:
    """Return a scenario's summary as words within a sentence: without its capital and full stop."""
    from tcdoc._registry import get_scenario

    summary = translate(get_scenario(scenario).summary).rstrip(".。")
    return summary[:1].lower() + summary[1:]


def parse_scope(options: Mapping[str, str]) -> Scope:
    """Return the :class:`Scope` that a ``tcdoc-scope`` directive's options state.

    ``x`` lists scenarios (commas or spaces between them), ``grad-mode`` names a grad mode,
    ``device`` a device.

    >>> parse_scope({"x": "leaf_requires_grad, non_leaf", "grad-mode": "enabled"})
    Scope(scenarios=('leaf_requires_grad', 'non_leaf'), grad_mode='enabled', device='')

    Raises
    ------
    ValueError
        For an option other than these three, a value tcdoc does not know, or no option at all.

    """
    unknown = sorted(set(options) - {"x", "grad-mode", "device"})
    if unknown:
        raise ValueError(f"a scope states x, grad-mode and device only, not {', '.join(unknown)}")
    scope = Scope(
        tuple(options.get("x", "").replace(",", " ").split()),
        options.get("grad-mode", "").strip(),
        options.get("device", "").strip(),
    )
    if not scope:
        raise ValueError("a scope states at least one of x, grad-mode and device")
    return scope


_HEADING = re.compile(r"(#{1,6})\s")
_FENCE = re.compile(r"(`{3,}|:{3,})\s*(\{[\w-]+\})?")
_OPTION = re.compile(r":([\w-]+):\s*(.*)")


def _line_scopes(source: str) -> list[Scope]:
    """Return, for each line of a MyST page, the scope in force there (the empty scope where none is).

    A ``tcdoc-scope`` block holds for its whole section, to the next heading of the same or a
    higher level; a subsection's scope adds to (or overrides) its section's.
    """
    heading_of_line: list[int] = []  # the index of the heading each line is under; -1: none yet
    levels: list[int] = []  # each heading's level
    stated: dict[int, Scope] = {}  # the scope stated under a heading, by its index
    fence: str | None = None
    options: dict[str, str] | None = None
    for line in source.splitlines():
        stripped = line.strip()
        if fence is not None:
            option = _OPTION.fullmatch(stripped)
            if stripped == fence:
                if options is not None:
                    stated[len(levels) - 1] = parse_scope(options)
                fence, options = None, None
            elif options is not None and option:
                options[option.group(1)] = option.group(2)
        elif opening := _FENCE.match(stripped):
            fence = opening.group(1)
            options = {} if opening.group(2) == "{tcdoc-scope}" else None
        elif heading := _HEADING.match(line):
            levels.append(len(heading.group(1)))
        heading_of_line.append(len(levels) - 1)
    in_force = {-1: stated.get(-1, Scope())}
    for index, level in enumerate(levels):
        parent = next((i for i in range(index - 1, -1, -1) if levels[i] < level), -1)
        in_force[index] = stated.get(index, Scope()).within(in_force[parent])
    return [in_force[index] for index in heading_of_line]


def scopes_of(source: str) -> dict[str, Scope]:
    r"""Return the scope each claim of a MyST page inherits from its section, by claim id.

    >>> page = "# P\n## S\n:::{tcdoc-scope}\n:x: non_leaf\n:::\n[a claim]{#a .claim}\n## T\n[b]{#b .claim}\n"
    >>> scopes = scopes_of(page)
    >>> scopes["a"], bool(scopes["b"])
    (Scope(scenarios=('non_leaf',), grad_mode='', device=''), False)
    """
    lines = _line_scopes(source)
    return {span.id: lines[span.line - 1] for span in claim_spans(source)}


_EVERY_KIND = re.compile(
    r"\b(?:every|each|any|all)\s+(?:kinds?\s+of\s+)?(?:tensors?|scenarios?|x)\b|\bwhatever\s+(?:the\s+)?(?:tensor|kind)",
    re.IGNORECASE,
)
_EVERY_GRAD_MODE = re.compile(
    r"\b(?:every|any|all|each|whatever(?: the)?)\s+grad(?:ient)?\s+modes?\b", re.IGNORECASE
)


def wider_than_scope(claim: AnyClaim, words: str, scope: Scope) -> str | None:
    """Say how a claim's words cover more than its section's scope; None where they do not.

    A section may be scoped to some kinds of ``x``, or to a grad mode. A sentence in it that
    speaks of every tensor, or of every grad mode, is checked only on the section's case. The
    exception is a check that covers the registry: ``covers=REGISTRY``, or an :class:`Only` or
    :class:`Every` claim, whose words name what they cover.

    >>> narrow = Claim("a", lambda matrix: None, words="-")
    >>> wider_than_scope(narrow, "Every tensor shares it", Scope(("non_leaf",)))
    "its words speak of 'Every tensor', but its section's scope is x: non_leaf"
    >>> wider_than_scope(narrow, "It shares it", Scope(("non_leaf",))) is None
    True
    """
    if not isinstance(claim, Claim) or claim.covers == REGISTRY:
        return None
    text = plain(words)
    if scope.scenarios and (found := _EVERY_KIND.search(text)):
        kinds = ", ".join(scope.scenarios)
        return f"its words speak of {found.group(0)!r}, but its section's scope is x: {kinds}"
    if scope.grad_mode and (found := _EVERY_GRAD_MODE.search(text)):
        return (
            f"its words speak of {found.group(0)!r}, but its section's scope is grad mode {scope.grad_mode}"
        )
    return None


# -- Where claims live ------------------------------------------------------------------------


def gallery_example(docname: str, gallery: str) -> str | None:
    """Return the example script behind a gallery page, relative to the examples' folder, or None.

    ``gallery`` is the page's gallery folder (sphinx-gallery's ``gallery_dirs``).

    >>> gallery_example("auto_examples/gpu/plot_gpu_01_copies", "auto_examples")
    'gpu/plot_gpu_01_copies.py'
    >>> gallery_example("howto/which-copy", "auto_examples") is None
    True
    """
    if not gallery or not docname.startswith(f"{gallery}/"):
        return None
    return docname.removeprefix(f"{gallery}/") + ".py"


def module_name(package: str, docname: str, gallery: str = "") -> str:
    """Return the checks module of a page: its docname under ``package``, as a Python name.

    This is the one rule from a page to its checks. A page of the gallery (``gallery``,
    sphinx-gallery's ``gallery_dirs``) has the checks of its example script, under ``examples``.

    >>> module_name("_checks", "howto/which-copy")
    '_checks.howto.which_copy'
    >>> module_name("_checks", "auto_examples/gpu/plot_gpu_01_copies", gallery="auto_examples")
    '_checks.examples.gpu.plot_gpu_01_copies'
    """
    if not package or not docname:
        raise ValueError(f"a checks module needs a package and a docname, not {package!r} and {docname!r}")
    script = gallery_example(docname, gallery)
    if script is not None:
        docname = "examples/" + script.removesuffix(".py")
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

    sphinx-gallery runs the block and leaves it out of the page and the notebook. A downloaded
    script keeps it, so the sentence is checked on the reader's torch too. ``words`` must be
    said word for word in the example's text (the build checks it, :func:`example_claims`).
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
    r"""Return the words and line of each :func:`claim` call in an example script's source.

    >>> example_claims('from tcdoc.claims import claim\nclaim("x is x", True)\n')
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
