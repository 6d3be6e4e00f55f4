"""Claims: the sentences that state what torch does, each bound to a check that fails when it is false.

The rule of tcdoc's site is that a sentence may state what torch does only where a measurement
renders it (``tcdoc-fact``, ``tcdoc-properties``, ``tcdoc-run``, ...) or where a check would fail
if the sentence, as worded, were false. A :class:`Claim` is that sentence kept as data:

``id``
    How a page names it: ``{tcdoc-claim}`deepcopy.refuses-non-leaf```.
``text``
    The sentence exactly as a reader sees it, in MyST inline markup. A page renders it from
    here, so the words that were checked are the words shown. An example's text blocks must
    read without tcdoc in a downloaded script, so an example quotes the sentence word for word
    instead, and the claim lists the example in ``quoted_in``; the build and the tests check
    that the quote is there (markup aside, see :func:`plain`).
``check``
    A function of the build's measured :class:`tcdoc.Matrix` that returns when the sentence is
    true and raises :class:`ClaimFalse`, saying what it saw, when it is not. It reads the
    matrix, or runs a few lines of torch of its own.

The build checks every claim it renders or finds quoted (a false one is a build error), and
``tests/test_claims.py`` checks them all, and scans every page and example for sentences with
words such as "only", "never", "always", "fails", "raises", "shares" or "copies" that are
neither a claim nor a measurement nor listed there as not stating a torch fact.

Quantifiers. A sentence that says "only", "never", "always" or "every" is checked over the
whole registry (every operation of :func:`tcdoc.operations` on every scenario of
:func:`tcdoc.scenarios`), or states the condition it was checked under. Two kinds of claim
make that mechanical, :class:`Only` and :class:`Every`: their text is a template whose
``{ops}``, ``{among}`` and ``{scenarios}`` are filled in from the very data the check reads,
and a template that leaves out one of them is refused. An operation or scenario added to the
registry (say by a later release) is then checked by every claim about "every operation" or
"every kind of x" at once. A free-form :class:`Claim` whose text quantifies says in ``scope``
what its check covers.

A claim that needs an optional package (``needs=("numpy",)``) is not checked where the package
is missing: its :class:`Verdict` says so (``held`` is ``None``), and it is never reported true.

To add a claim, write it in ``tcdoc/_site_claims.py`` next to the others of its page (those
of the look-alike families, the special tensors and module-level copies, and of the examples
that tell their stories, are in ``tcdoc/_reference_claims.py``), render it with
``{tcdoc-claim}`id``` (or quote it in an example and name the example in ``quoted_in``), and
make sure its check fails when you change the sentence to something false.

A sentence about "a tensor" or "every kind of ``x``" that the special tensors (an inference
tensor, a sparse one, a subclass, ...) do not bear out is checked on the everyday ones with
``scenarios=EVERYDAY``, and its words say so.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from collections.abc import Callable, Iterable, Mapping

from tcdoc._compare import Comparison
from tcdoc._probe import Matrix
from tcdoc._registry import cuda_available, get_operation, get_scenario, operations, scenarios

__all__ = [
    "Claim",
    "ClaimFalse",
    "Every",
    "Only",
    "Verdict",
    "claims",
    "example_text",
    "expect",
    "get_claim",
    "measured",
    "plain",
    "quoted",
    "verify",
]


class ClaimFalse(Exception):
    """A claim's check found its sentence false; the message says what the check saw."""


Check = Callable[[Matrix], None]


@dataclasses.dataclass(frozen=True)
class Claim:
    """A sentence about torch and the check that fails when it is false.

    Attributes
    ----------
    id
        Dotted, page first: ``"four-questions.detach-shares-both"``.
    text
        The sentence as shown, in MyST inline markup.
    check
        Returns when the sentence is true of the matrix (and of this torch); raises
        :class:`ClaimFalse` when it is not.
    scope
        For a sentence that quantifies ("only", "never", "always", "every"): what the check
        covers, ``"registry"`` or the condition the sentence states.
    needs
        Optional packages the check imports; where one is missing the claim is not checked.
    needs_cuda
        The check runs on a CUDA device; where there is none the claim is not checked.
    quoted_in
        Example scripts, relative to the examples folder (``"plot_03_deepcopy.py"``), whose
        text quotes the sentence word for word.

    """

    id: str
    text: str
    check: Check = dataclasses.field(repr=False)
    scope: str = ""
    needs: tuple[str, ...] = ()
    needs_cuda: bool = False
    quoted_in: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What checking a claim found: ``held`` is True, False, or None where it was not checked."""

    claim: Claim
    held: bool | None
    detail: str = ""

    def __str__(self) -> str:
        if self.held:
            return f"{self.claim.id}: holds"
        if self.held is None:
            return f"{self.claim.id}: not checked: {self.detail}"
        return f"{self.claim.id}: FALSE: {self.detail}"


def verify(claim: Claim, matrix: Matrix) -> Verdict:
    """Check ``claim`` against ``matrix`` (and this torch).

    >>> import tcdoc
    >>> from tcdoc._claims import get_claim, verify
    >>> verify(get_claim("deepcopy.refuses-non-leaf"), tcdoc.matrix()).held
    True

    A matrix that lacks a row the check reads cannot settle the claim: ``held`` is ``None``.
    """
    missing = [name for name in claim.needs if not _importable(name)]
    if claim.needs_cuda and not cuda_available():
        missing.append("CUDA")
    if missing:
        return Verdict(claim, None, f"needs {', '.join(missing)}")
    try:
        claim.check(matrix)
    except ClaimFalse as exc:
        return Verdict(claim, False, str(exc))
    except KeyError as exc:
        return Verdict(claim, None, f"the matrix lacks what the check reads: {exc}")
    return Verdict(claim, True)


def expect(condition: object, message: str) -> None:
    """Raise :class:`ClaimFalse` with ``message`` unless ``condition`` is true."""
    if not condition:
        raise ClaimFalse(message)


def measured(matrix: Matrix, operation: str, scenario: str) -> Comparison:
    """Return what ``operation`` measured on ``scenario``; :class:`ClaimFalse` if it raised or did not run."""
    row = matrix.get(operation, scenario)
    if row.properties is None:
        raise ClaimFalse(f"{operation} on {scenario} was not measured: {row.outcome}")
    return row.properties


# -- Quantified claims ---------------------------------------------------------------------


def _codes(names: Iterable[str]) -> str:
    return _join([f"`{get_operation(name).code}`" for name in names])


def _scenario_words(names: Iterable[str]) -> str:
    return _join([f"`{name}`" for name in names])


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _fill(template: str, **values: str) -> str:
    for key in values:
        if f"{{{key}}}" not in template:
            raise ValueError(f"the text {template!r} must say {{{key}}}: the condition its check covers")
    return template.format(**values)


EVERY_OPERATION = "every operation tcdoc knows"
"""What ``{among}`` says where an :class:`Only` claim is checked over the whole registry."""

EVERY_SCENARIO = "every kind of `x` tcdoc builds"
"""What ``{scenarios}`` says where a claim is checked on every scenario of the registry."""

EVERYDAY = "everyday"
"""Give ``scenarios=EVERYDAY`` to check a claim on the everyday tensors of the registry only."""

EVERYDAY_SCENARIOS = "every everyday kind of `x` tcdoc builds"
"""What ``{scenarios}`` says where a claim is checked on the everyday group of scenarios: the
special tensors (inference, conjugate, sparse, ...) have claims of their own."""


def _scenario_text(chosen: tuple[str, ...] | str | None) -> str:
    if chosen is None:
        return EVERY_SCENARIO
    if chosen == EVERYDAY:
        return EVERYDAY_SCENARIOS
    return _scenario_words(chosen)


def _scenario_list(chosen: tuple[str, ...] | str | None) -> tuple[str, ...]:
    if chosen is None:
        return tuple(s.name for s in scenarios())
    if chosen == EVERYDAY:
        return tuple(s.name for s in scenarios() if s.group == EVERYDAY)
    return tuple(chosen)


@dataclasses.dataclass(frozen=True)
class Only:
    """Claim that of ``among``, on ``scenarios``, exactly ``ops`` pass ``test``: "only {ops} ...".

    ``among`` and ``scenarios`` default to the whole registry (``scenarios=EVERYDAY``: the
    everyday group); the template must say
    ``{ops}``, ``{among}`` and ``{scenarios}``, so the sentence always states what was checked.
    An operation that raised or was not run on a scenario does not pass ``test`` there.

    >>> from tcdoc._claims import Only
    >>> Only("x", "Of {among}, on {scenarios}, only {ops} shares memory.", ("detach",),
    ...      lambda c: c.shares_storage, among=("clone", "detach"), scenarios=("no_grad",)).claim().text
    'Of `x.clone()` and `x.detach()`, on `no_grad`, only `x.detach()` shares memory.'
    """

    id: str
    template: str
    ops: tuple[str, ...]
    test: Callable[[Comparison], bool] = dataclasses.field(repr=False)
    among: tuple[str, ...] | None = None
    scenarios: tuple[str, ...] | str | None = None
    quoted_in: tuple[str, ...] = ()

    def claim(self) -> Claim:
        """Return the claim: the filled-in text, and the check that reads the same data."""
        if "only {ops}" not in self.template.lower():
            raise ValueError(f"the text {self.template!r} of an Only claim must say 'only {{ops}}'")
        text = _fill(
            self.template,
            ops=_codes(self.ops),
            among=EVERY_OPERATION if self.among is None else _codes(self.among),
            scenarios=_scenario_text(self.scenarios),
        )
        scope = "registry" if self.among is None and self.scenarios is None else "stated"
        return Claim(self.id, text, self._check, scope=scope, quoted_in=self.quoted_in)

    def _check(self, matrix: Matrix) -> None:
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
    everyday group). With ``where_it_runs``, a
    scenario where the operation raised is left out (the text must then say so); otherwise a
    raise makes the claim false.

    >>> from tcdoc._claims import Every
    >>> Every("x", "On {scenarios}, {ops} never copies memory.", ("detach",),
    ...       {"new_bytes": 0}).claim().text
    'On every kind of `x` tcdoc builds, `x.detach()` never copies memory.'
    """

    id: str
    template: str
    ops: tuple[str, ...]
    expected: Mapping[str, object]
    scenarios: tuple[str, ...] | str | None = None
    where_it_runs: bool = False
    quoted_in: tuple[str, ...] = ()

    def claim(self) -> Claim:
        """Return the claim: the filled-in text, and the check that reads the same data."""
        text = _fill(
            self.template,
            ops=_codes(self.ops),
            scenarios=_scenario_text(self.scenarios),
        )
        scope = "registry" if self.scenarios is None else "stated"
        return Claim(self.id, text, self._check, scope=scope, quoted_in=self.quoted_in)

    def _check(self, matrix: Matrix) -> None:
        names = _scenario_list(self.scenarios)
        for scenario in names:
            get_scenario(scenario)
        for op in self.ops:
            seen = 0
            for scenario in names:
                row = matrix.get(op, scenario)
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


# -- The registry ----------------------------------------------------------------------------


@functools.cache
def _registry() -> dict[str, Claim]:
    from tcdoc._site_claims import CLAIMS

    table: dict[str, Claim] = {}
    for item in CLAIMS:
        claim = item if isinstance(item, Claim) else item.claim()
        if claim.id in table:
            raise ValueError(f"two claims are called {claim.id!r}")
        table[claim.id] = claim
    return table


def claims() -> tuple[Claim, ...]:
    """Return every claim of tcdoc's site, in the order of its pages."""
    return tuple(_registry().values())


def get_claim(claim_id: str) -> Claim:
    """Return the claim called ``claim_id``.

    Raises
    ------
    ValueError
        If there is none; the message lists the ids that start like it.

    """
    table = _registry()
    if claim_id not in table:
        prefix = claim_id.split(".")[0]
        near = [known for known in table if known.startswith(prefix)]
        raise ValueError(f"no claim {claim_id!r}" + (f"; this page's are: {', '.join(near)}" if near else ""))
    return table[claim_id]


# -- Quotes ---------------------------------------------------------------------------------

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


def quoted(claim: Claim, text: str) -> bool:
    """Tell whether ``text`` (an example's text, in any markup) quotes ``claim`` word for word."""
    return plain(claim.text) in plain(text)


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True
