"""Every sentence on the site that states what torch does is checked, against the words it says.

A page states a claim in its own words, ``[words]{#id .claim}``; its check lies in the page's
module of ``docs/_checks`` with the words it was written against (rules in :mod:`tcdoc.claims`).
An example checks its claims in hidden blocks, ``claim(words, holds, seen)``, whose words its
text must say; a claim that cannot run inside its example lies in the example's checks module,
with its ``quote``. These tests run every check, match every page's claims to their checks and
every example's claims to its text, show that claims made false by their words or their data
fail, flip the quantifier of every quantified claim in a scratch copy of the site and show that
the build fails for each, and scan every page and example for sentences that state a torch fact
with no check behind them.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tcdoc
from tcdoc.claims import (
    EVERYDAY,
    AnyClaim,
    Claim,
    ClaimFalse,
    Every,
    Only,
    Scope,
    claim_spans,
    claims_of,
    example_claims,
    example_text,
    expect,
    module_name,
    plain,
    quoted,
    same_words,
    scopes_of,
    verify,
    wider_than_scope,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHECKS = DOCS / "_checks"
PAGES = sorted((ROOT / "docs").glob("[!_]*/**/*.md")) + sorted((ROOT / "docs").glob("*.md"))
EXAMPLES = sorted((ROOT / "examples").rglob("*.py"))
GALLERY = "auto_examples"  # docs/conf.py's gallery_dirs

if str(DOCS) not in sys.path:
    sys.path.insert(0, str(DOCS))  # the checks package, as docs/conf.py finds it


def _tool() -> ModuleType:
    """tools/claims.py, imported as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("tcdoc_claims_tool", ROOT / "tools" / "claims.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def check_modules() -> list[str]:
    """Every checks module under docs/_checks, but the shared helpers."""
    found = []
    for path in sorted(CHECKS.rglob("*.py")):
        relative = path.relative_to(DOCS).with_suffix("")
        if path.name == "__init__.py" or path.name.startswith("_"):
            continue
        found.append(".".join(relative.parts))
    return found


def example_module(script: Path) -> str:
    """The checks module of an example, by the one rule from a page to its checks."""
    page = f"{GALLERY}/{script.relative_to(ROOT / 'examples').with_suffix('').as_posix()}"
    return module_name("_checks", page, gallery=GALLERY)


MODULES = {name: claims_of(importlib.import_module(name)) for name in check_modules()}
ALL = [(module, claim) for module, known in MODULES.items() for claim in known.values()]
PAGE_CLAIMS = list(TOOL.page_claims())
OWNERS = {module_name("_checks", TOOL.docname(page)): page for page in TOOL.pages()}
OWNERS.update({example_module(script): script for script in EXAMPLES})
"""The page or example of each checks module, by the rule from a page to its checks."""
SCOPES = {
    (c.module, c.id): scopes_of(c.page.read_text(encoding="utf-8")).get(c.id, Scope()) for c in PAGE_CLAIMS
}
"""The scope each page claim inherits from its section."""
EXAMPLE_CLAIMS = [
    (script, words, line)
    for script in EXAMPLES
    for words, line in example_claims(script.read_text(encoding="utf-8"))
]
"""Every claim() of every example's hidden blocks: its script, words and line."""


def is_example(module: str) -> bool:
    return module.startswith("_checks.examples.")


def example_quotes(script: Path) -> list[str]:
    """The words of each claim an example makes: its claim() calls and its checks module's quotes."""
    calls = [words for owner, words, _ in EXAMPLE_CLAIMS if owner == script]
    return calls + [claim.quote for claim in MODULES.get(example_module(script), {}).values()]


def claim_named(module: str, claim_id: str) -> AnyClaim:
    return MODULES[f"_checks.{module}"][claim_id]


def words_of(module: str, claim_id: str) -> str:
    """A page claim's words as its page says them."""
    words = next(c.words for c in PAGE_CLAIMS if c.module == f"_checks.{module}" and c.id == claim_id)
    assert isinstance(words, str)
    return words


def label(item: tuple[str, AnyClaim]) -> str:
    return f"{item[0].removeprefix('_checks.')}:{item[1].id}"


@pytest.fixture(scope="module")
def matrix() -> tcdoc.Matrix:
    return tcdoc.matrix()


# -- Each claim holds, has its words, and is shown --------------------------------------------------


@pytest.mark.parametrize("item", ALL, ids=label)
def test_claim_holds(item: tuple[str, AnyClaim], matrix: tcdoc.Matrix) -> None:
    verdict = verify(item[1], matrix, SCOPES.get((item[0], item[1].id)))
    if verdict.held is None:
        pytest.skip(str(verdict))
    assert verdict.held, str(verdict)


def test_every_page_claim_has_its_check_holding_its_words() -> None:
    wrong = [
        f"{c.page.relative_to(ROOT)}:{c.line} {c.id}"
        for c in PAGE_CLAIMS
        if c.held is None or not same_words(c.held, c.words)
    ]
    assert not wrong, (
        "claims whose words changed since their check was written (tools/claims.py changed):\n"
        + ("\n".join(wrong))
    )


def test_no_check_holds_a_pin() -> None:
    pinned = [
        path.relative_to(ROOT) for path in CHECKS.rglob("*.py") if re.search(r"\bpin=", path.read_text())
    ]
    assert not pinned


def test_unpin_wrote_each_pin_as_its_pages_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "_checks" / "page.py"
    module.parent.mkdir()
    module.write_text(
        "CLAIMS = [\n"
        '    Claim("short", check, pin="0123456789", needs=("numpy",)),\n'
        '    Only(\n        "long",\n        ops=("detach",),\n        pin="abcdef0123",\n    ),\n'
        "]\n"
    )
    monkeypatch.setattr(TOOL, "DOCS", tmp_path)
    long_words = "Of {among}, on {scenarios}, only {ops} " + "shares the memory of `x` " * 6
    assert TOOL.unpin("_checks.page", {"short": 'it says "so"', "long": long_words}) == 2
    rewritten = module.read_text()
    assert "pin=" not in rewritten
    calls = [call for call in ast.walk(ast.parse(rewritten)) if isinstance(call, ast.Call)]
    words = {
        ast.literal_eval(call.args[0]): ast.literal_eval(
            next(k.value for k in call.keywords if k.arg == "words")
        )
        for call in calls
    }
    assert words == {"short": 'it says "so"', "long": long_words}
    assert max(map(len, rewritten.splitlines())) <= 110


def test_every_check_has_its_claim_on_its_page_or_in_its_example() -> None:
    shown = {(c.module, c.id) for c in PAGE_CLAIMS}
    for module, claim in ALL:
        owner = OWNERS.get(module)
        assert owner is not None, f"{module} is the checks module of no page and no example"
        if is_example(module):
            assert claim.quote, f"{module} {claim.id}: an example's claim gives its quote, not words="
            text = "\n\n".join(example_text(owner.read_text(encoding="utf-8")))
            assert quoted(claim.quote, text), (
                f"{owner.name} does not quote {claim.id}: {plain(claim.quote)!r}"
            )
        else:
            assert (module, claim.id) in shown, f"{module} {claim.id}: no claim on {owner.name} uses it"


def test_every_example_claim_is_said_by_its_example() -> None:
    unsaid = []
    for script, words, line in EXAMPLE_CLAIMS:
        text = "\n\n".join(example_text(script.read_text(encoding="utf-8")))
        if not quoted(words, text):
            unsaid.append(f"{script.relative_to(ROOT)}:{line}: {words!r}")
    assert not unsaid, "claim() words that the example's text does not say:\n" + "\n".join(unsaid)


def test_there_are_claims_on_pages_and_in_examples() -> None:
    assert len(PAGE_CLAIMS) > 100
    assert sum(len(example_quotes(script)) for script in EXAMPLES) > 50


QUANTIFIERS = re.compile(r"\b(only|never|always|every|all|any|refuses?)\b", re.IGNORECASE)


def test_quantified_claims_say_what_their_check_covers() -> None:
    """A quantified page claim is an Only or Every claim, says what it covers, or has its section's scope."""
    vague = [
        f"{c.module.removeprefix('_checks.')}:{c.id}"
        for c in PAGE_CLAIMS
        if QUANTIFIERS.search(plain(c.words))
        and c.held is not None
        and not isinstance(claim := MODULES[c.module][c.id], (Only, Every))
        and not claim.covers
        and not SCOPES[(c.module, c.id)]
    ]
    assert not vague, (
        f"claims that quantify without covers= (REGISTRY or IN_WORDS) or a section scope: {vague}"
    )


def test_no_page_claim_says_more_than_its_section_scope() -> None:
    wider = [
        f"{c.module}:{c.id}: {found}"
        for c in PAGE_CLAIMS
        if c.held is not None
        and (found := wider_than_scope(MODULES[c.module][c.id], c.words, SCOPES[(c.module, c.id)]))
    ]
    assert not wider


def test_a_claim_quantified_over_every_kind_of_x_in_a_section_scoped_to_one_is_found() -> None:
    page = (
        "# Page\n\n## Leaves\n\n:::{tcdoc-scope}\n:x: leaf_requires_grad\n:::\n\n"
        "[`x.clone()` of every kind of `x` is not a leaf]{#clone-not-leaf .claim}.\n\n"
        "### Under it\n\n[`x.clone()` of any tensor is not a leaf]{#deeper .claim}\n\n"
        "## Next\n\n[`x.clone()` of every tensor copies]{#outside .claim}\n"
    )
    scopes = scopes_of(page)
    assert scopes["clone-not-leaf"] == scopes["deeper"] == Scope(("leaf_requires_grad",))
    assert not scopes["outside"]
    narrow = Claim("clone-not-leaf", lambda matrix, scope: None, words="-")
    for span in claim_spans(page)[:2]:
        assert wider_than_scope(narrow, span.words, scopes[span.id]) is not None
    assert (
        wider_than_scope(dataclasses.replace(narrow, covers="registry"), "every tensor", scopes["deeper"])
        is None
    )
    assert wider_than_scope(narrow, "`x.clone()` is not a leaf", scopes["deeper"]) is None


def test_a_check_that_takes_a_scope_runs_the_stated_case(matrix: tcdoc.Matrix) -> None:
    def is_leaf(matrix: tcdoc.Matrix, scope: Scope) -> None:
        for name, measured_there in scope.cells(matrix, "clone"):
            expect(measured_there.is_leaf, f"clone of {name} is not a leaf")

    claim = Claim("clone-is-a-leaf", is_leaf, words="`x.clone()` is a leaf")
    assert verify(claim, matrix, Scope(("leaf_requires_grad",), "no_grad")).held
    assert verify(claim, matrix, Scope(("leaf_requires_grad",), "enabled")).held is False
    assert (
        verify(claim, matrix, Scope(("leaf_requires_grad",), device="cuda")).held is None
        or tcdoc.cuda_available()
    )


def test_a_claim_needs_its_words_or_quote_and_an_id_that_can_be_an_anchor() -> None:
    with pytest.raises(ValueError, match=r"needs either words= .* or quote="):
        Claim("copies", lambda matrix: None)
    with pytest.raises(ValueError, match="lower-case words"):
        Claim("clone.copies", lambda matrix: None, words="-")
    with pytest.raises(ValueError, match="covers= is REGISTRY or IN_WORDS"):
        Claim("copies", lambda matrix: None, words="-", covers="stated: a leaf")
    with pytest.raises(ValueError, match="not with a scope= note"):
        Claim("copies", lambda matrix: None, words="-", scope="stated: a leaf")


# -- A claim made false by its data or its check fails -----------------------------------------------

SHARES_BOTH = claim_named("explanation.four_questions", "only-detach-of-these")


def test_the_old_only_detach_sentence_is_false(matrix: tcdoc.Matrix) -> None:
    # "Only x.detach() shares both the memory and the counter", over every operation tcdoc knows.
    assert isinstance(SHARES_BOTH, Only)
    old = dataclasses.replace(SHARES_BOTH, among=None)
    verdict = verify(old, matrix)
    assert verdict.held is False
    assert "view" in verdict.detail
    assert "parameter_wrap" in verdict.detail
    words = words_of("explanation.four_questions", "only-detach-of-these")
    assert old.fill(words).startswith("Of every operation tcdoc knows, on `leaf_requires_grad`, only")


ONLY = [item for item in ALL if isinstance(item[1], Only)]
EVERY = [item for item in ALL if isinstance(item[1], Every)]


@pytest.mark.parametrize("item", ONLY, ids=label)
def test_an_only_claim_with_one_operation_more_or_less_is_false(
    item: tuple[str, AnyClaim], matrix: tcdoc.Matrix
) -> None:
    module, claim = item
    assert isinstance(claim, Only)  # ONLY holds just these
    assert verify(claim, matrix).held
    among = claim.among or tuple(op.name for op in tcdoc.operations())
    outsider = next(name for name in among if name not in claim.ops)
    widened = dataclasses.replace(claim, ops=(*claim.ops, outsider))
    assert verify(widened, matrix).held is False
    words = words_of(module.removeprefix("_checks."), claim.id)
    assert tcdoc.get_operation(outsider).code in plain(widened.fill(words))  # the words change too
    if len(claim.ops) > 1:
        narrowed = dataclasses.replace(claim, ops=claim.ops[1:])
        assert verify(narrowed, matrix).held is False


@pytest.mark.parametrize("item", EVERY, ids=label)
def test_an_every_claim_with_a_value_flipped_is_false(
    item: tuple[str, AnyClaim], matrix: tcdoc.Matrix
) -> None:
    claim = item[1]
    assert isinstance(claim, Every)  # EVERY holds just these
    assert verify(claim, matrix).held
    for field, value in claim.expected.items():
        if isinstance(value, bool):
            flipped = dataclasses.replace(claim, expected={**claim.expected, field: not value})
            assert verify(flipped, matrix).held is False, field


def with_value(matrix: tcdoc.Matrix, operation: str, scenario: str, **values: Any) -> tcdoc.Matrix:
    row = matrix.get(operation, scenario)
    assert row.properties is not None
    changed = dataclasses.replace(row, outcome=dataclasses.replace(row.properties, **values))
    return dataclasses.replace(matrix, rows=tuple(changed if r is row else r for r in matrix.rows))


def test_a_claim_about_every_scenario_covers_scenarios_added_later(matrix: tcdoc.Matrix) -> None:
    detach = claim_named("explanation.detach", "shares-memory")
    assert isinstance(detach, Every)
    assert detach.scenarios is None
    assert "every kind of `x` tcdoc builds" in detach.fill(words_of("explanation.detach", "shares-memory"))
    # A matrix with a scenario where detach() copies: the same claim must now fail.
    assert verify(detach, with_value(matrix, "detach", "no_grad", new_bytes=24)).held is False


def test_a_claim_about_everyday_tensors_says_so_and_checks_just_them(matrix: tcdoc.Matrix) -> None:
    counter = claim_named("explanation.detach", "shares-both")
    assert isinstance(counter, Every)
    assert counter.scenarios == EVERYDAY
    words = counter.fill(words_of("explanation.detach", "shares-both"))
    assert words.startswith("On each kind of `x` in the first table of the property matrix,")
    inference = with_value(matrix, "detach", "inference", shares_version_counter=False)
    assert verify(counter, inference).held  # a special tensor: not claimed
    assert (
        verify(counter, with_value(matrix, "detach", "no_grad", shares_version_counter=False)).held is False
    )


def test_claims_leave_out_cells_not_run_and_read_the_default_grad_mode() -> None:
    # Where there is no CUDA device, the cuda rows are "not run": neither true nor false.
    m = tcdoc.matrix(["detach", "clone", "to_cuda"], ["no_grad", "cuda"])
    cuda = tcdoc.cuda_available()
    every = Every("x", ("detach",), {"new_bytes": 0}, scenarios=("no_grad", "cuda"), words="-")
    assert verify(every, m).held
    only = Only(
        "x", ("detach",), lambda c: c.shares_storage, among=("detach", "clone", "to_cuda"),
        scenarios=("no_grad",), words="-",
    )  # fmt: skip
    assert verify(only, m).held  # not run without CUDA; where it runs, to_cuda copies
    if not cuda:
        assert m.get("to_cuda", "no_grad").not_run is not None
        alone = Every("x", ("detach",), {"new_bytes": 0}, scenarios=("cuda",), words="-")
        assert verify(alone, m).held is False  # it must run somewhere
    # Under no_grad, x.clone() of a leaf that requires grad is a leaf; claims read "enabled".
    leaf = tcdoc.matrix(["clone"], ["leaf_requires_grad"])
    under_no_grad = leaf.get("clone", "leaf_requires_grad", "no_grad").properties
    assert under_no_grad is not None
    assert under_no_grad.is_leaf
    assert verify(
        Every("x", ("clone",), {"is_leaf": False}, scenarios=("leaf_requires_grad",), words="-"), leaf
    ).held


def test_an_only_claim_must_say_only() -> None:
    weaker = Only("x", ("detach",), lambda c: True, words="-")
    with pytest.raises(ValueError, match=r"must say 'only \{ops\}'"):
        weaker.fill("Of {among}, on {scenarios}, {ops} shares memory")


def test_a_template_that_leaves_out_its_condition_is_refused() -> None:
    hidden = Only("x", ("detach",), lambda c: c.shares_storage, scenarios=("no_grad",), words="-")
    with pytest.raises(ValueError, match=r"must say \{among\}"):
        hidden.fill("Only {ops} shares memory")
    hidden_scenarios = Every("x", ("detach",), {"new_bytes": 0}, words="-")
    with pytest.raises(ValueError, match=r"must say \{scenarios\}"):
        hidden_scenarios.fill("{ops} never copies")


def test_a_free_form_claim_is_false_when_its_check_fails(matrix: tcdoc.Matrix) -> None:
    def fails(matrix: tcdoc.Matrix) -> None:
        expect(False, "the words say more than torch does")

    verdict = verify(Claim("x", fails, words="-"), matrix)
    assert (verdict.held, verdict.detail) == (False, "the words say more than torch does")
    assert str(verdict) == "x: FALSE: the words say more than torch does"


def test_a_check_that_cannot_run_makes_its_claim_false_not_unchecked(matrix: tcdoc.Matrix) -> None:
    def typo(matrix: tcdoc.Matrix) -> None:
        matrix.get("clone", "no_such_scenario")

    def missing_name(matrix: tcdoc.Matrix) -> None:
        raise NameError("name 'torhc' is not defined")

    for check in (typo, missing_name):
        verdict = verify(Claim("x", check, words="-"), matrix)
        assert verdict.held is False
        assert verdict.detail.startswith("its check could not run: ")


def test_a_claim_that_needs_a_missing_package_is_not_checked_and_says_which(
    matrix: tcdoc.Matrix, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    verdict = verify(claim_named("explanation.look_alikes", "numpy-shares"), matrix)
    assert verdict.held is None
    assert verdict.detail == "needs numpy"


@pytest.mark.skipif(tcdoc.cuda_available(), reason="CUDA is here: the claim is checked")
def test_a_claim_that_needs_cuda_is_not_checked_without_it(matrix: tcdoc.Matrix) -> None:
    def on_cuda(matrix: tcdoc.Matrix) -> None:
        raise ClaimFalse("never reached")

    verdict = verify(Claim("x", on_cuda, words="-", needs_cuda=True), matrix)
    assert (verdict.held, verdict.detail) == (None, "needs a CUDA device")


# -- Words held by their checks: flip every quantifier, and the build fails for each ---------------

FLIPS = {
    "never": "always",
    "always": "never",
    "only": "also",
    "every": "some",
    "all": "some",
    "any": "some",
    "refuses": "accepts",
}
QUANTIFIER = re.compile(r"\b(" + "|".join(FLIPS) + r")\b", re.IGNORECASE)


def flipped_word(match: re.Match[str]) -> str:
    word = FLIPS[match.group(1).lower()]
    return word.capitalize() if match.group(1)[0].isupper() else word


def quantifiers_outside_code(text: str) -> list[re.Match[str]]:
    """The quantifiers of ``text`` that are words, not code between backquotes."""
    outside, inside = [], False
    for char in text:
        if char == "`":
            inside = not inside
        outside.append(not inside)
    return [match for match in QUANTIFIER.finditer(text) if outside[match.start()]]


def flip_page(text: str) -> tuple[str, list[str]]:
    """Flip the first quantifier of each claim on a page; return the page and the flipped ids."""
    flipped = []
    for span in reversed(claim_spans(text)):
        words_end = text.index("]{#", span.start + 1 + len(span.words) - 1)
        found = quantifiers_outside_code(text[span.start + 1 : words_end])
        if found:
            at = span.start + 1 + found[0].start()
            end = span.start + 1 + found[0].end()
            text = text[:at] + flipped_word(found[0]) + text[end:]
            flipped.append(span.id)
    return text, flipped


def flip_example(source: str, quote: str) -> str | None:
    """Flip the quantifier of ``quote`` where ``source``'s text says it; None if it has none."""
    if not quantifiers_outside_code(quote):
        return None

    def text(s: str) -> str:
        return "\n\n".join(example_text(s))

    if not quoted(quote, text(source)):
        return source  # an earlier flip, of a claim that shares these words, changed them already
    for match in QUANTIFIER.finditer(source):
        changed = source[: match.start()] + flipped_word(match) + source[match.end() :]
        if not quoted(quote, text(changed)):
            return changed
    raise AssertionError(f"the quantifier of {quote!r} is not in the example")


def test_flipping_the_quantifier_of_any_claim_fails_the_build(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(
        DOCS, site / "docs", ignore=shutil.ignore_patterns("_build", "auto_examples", "gen_modules")
    )
    shutil.copytree(ROOT / "examples", site / "examples")
    expected: list[str] = []
    for page in sorted((site / "docs").rglob("*.md")):
        if "_checks" in page.parts or "locales" in page.parts:
            continue
        text, ids = flip_page(page.read_text(encoding="utf-8"))
        page.write_text(text, encoding="utf-8")
        name = page.relative_to(site / "docs").as_posix()
        expected += [f"{name}:.*ERROR: the words of claim '{claim_id}' changed" for claim_id in ids]
    for example in EXAMPLES:
        script = site / "examples" / example.relative_to(ROOT / "examples")
        for _, words, line in (c for c in EXAMPLE_CLAIMS if c[0] == example):
            changed = flip_example(script.read_text(encoding="utf-8"), words)
            if changed is not None:
                script.write_text(changed, encoding="utf-8")
                expected.append(f"{re.escape(str(script))}:{line}: ERROR: claim\\(")
        module = example_module(example)
        for claim in MODULES.get(module, {}).values():
            changed = flip_example(script.read_text(encoding="utf-8"), claim.quote)
            if changed is not None:
                script.write_text(changed, encoding="utf-8")
                expected.append(
                    f"ERROR: claim '{claim.id}' of {re.escape(module)} is not quoted word for word"
                )
    assert len(expected) > 50
    # Read every page (the dummy builder writes nothing), without running the examples.
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "dummy",
            "-q",
            "-W",
            "--keep-going",
            "-D",
            "plot_gallery=0",
            "docs",
            "out",
        ],
        cwd=site,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode != 0
    missed = [pattern for pattern in expected if not re.search(pattern, build.stderr)]
    assert not missed, f"{len(missed)} of {len(expected)} flipped claims did not fail the build:\n" + (
        "\n".join(missed)
    )


# -- No torch fact without a check: the scan -------------------------------------------------

TRIGGERS = re.compile(
    r"\b(only|never|always|fail(?:s|ed)?|rais(?:e|es|ed)|shares?|shared|copies|copied|refus\w*|drops?|dropped)\b",
    re.IGNORECASE,
)
"""Words that state what torch does (or does not do) with a copy; a sentence with one needs a check."""

HISTORY = re.compile(
    r"\b(used to|previously"
    r"|(?:older|newer|earlier|later) (?:releases?|versions?|pytorch|torch)"
    r"|(?:torch|pytorch|python)\s+\d"
    r"|(?:since|before|until)\s+(?:version|release|torch|pytorch|python|pull request|\d))",
    re.IGNORECASE,
)
"""Words that say when something changed; a sentence with one links its source."""

EXEMPT: dict[str, dict[str, str]] = {
    "docs/howto/which-copy.md": {
        "The calls that only look like copies": (
            "a pointer to the look-alikes page, whose claims say what each does"
        ),
        "A deepcopy can fail on a model": "a pointer to the situation below, whose Why line is the claim",
    },
    "docs/reference/cli.md": {
        "error is": "describes tcdoc's JSON layout, not torch",
        "not_run is": "describes tcdoc's JSON layout, not torch",
        "The tables print that as n/a": "describes tcdoc's tables, not torch",
    },
    "docs/reference/api/costs.md": {
        "tcdoc.bench times each copy method": "describes tcdoc.bench, not torch",
        "tcdoc.bench.findings turns a run into sentences": "describes tcdoc.bench.findings, not torch",
    },
    "docs/reference/matrix.md": {
        "Where an operation raised an exception": "describes the table, not torch",
        "A cell that says": "describes the table, not torch",
        "The same rows in words": "says what the table's words mean, not torch",
    },
    "docs/reference/further-reading.md": {
        "torch.Tensor.detach and torch.Tensor.detach_:": "says what a linked page covers",
        "torch.tensor, torch.Tensor.new_tensor and torch.as_tensor:": "says what a linked page covers",
        "torch.Tensor.numpy and torch.from_numpy:": "says what a linked page covers",
        "torch.Tensor.share_memory_ and torch.multiprocessing:": "says what a linked page covers",
        "torch/_tensor.py:": "says what a linked source file holds",
        "c10/core/TensorImpl.h:": "says what a linked source file holds",
    },
    "docs/explanation/detach.md": {
        "Older releases refused such changes": "history, with its source linked in the sentence",
    },
    "examples/plot_09_parameter.py": {
        "If you copy weights by hand": "says what the example does; each step's claim is checked",
    },
    "examples/plot_13_numpy.py": {
        "tcdoc.draw.draw_panels draws copied and shared": "'shared' names a variable; says what is drawn",
    },
    "examples/plot_17_multiprocessing.py": {
        "tcdoc.start_methods hands tensors of zeros": "says what the measurement does; its table is the fact",
        "The steps below read single cells of that table": "says what the printed lines below it show",
    },
    "examples/plot_19_cost.py": {
        "Which of clone(), detach() and copy.deepcopy to use": "about training loops, not torch",
        "The numbers change from run to run": "describes tcdoc.bench.findings, not torch",
        "In one line, from this run": "'share' is a noun: a figure the run prints",
        "Which copy to pick in the first place": "links to pages whose claims are checked there",
        "On the largest tensor the three copies allocate": "the measured table printed below shows it",
        "Where a loop copies a large tensor again": "advice; the measured table below shows the saving",
        "The buffer then holds only the latest values": "follows from reusing one buffer, not from torch",
    },
    "examples/gpu/plot_gpu_cost.py": {
        "Bytes moved per second": "describes the plot: tcdoc's bytes-moved figure and the measured limit",
    },
}
"""Sentences with a trigger word that state no torch fact of this build, each with the reason."""


def myst_paragraphs(text: str) -> list[str]:
    """The prose of a MyST page, one string per paragraph or list item.

    Code and directive blocks, headings, comments and quotations of sources are left out. A
    paragraph followed by a ``tcdoc-run`` that must raise (``:raises:``) is checked by that
    snippet, which fails the build when it does not raise: its raise words are marked checked.
    """
    paragraphs: list[str] = []
    current: list[str] = []
    lines = text.splitlines()
    fence: str | None = None
    for number, line in enumerate(lines):
        stripped = line.strip()
        if fence is not None:
            if stripped == fence:
                fence = None
            continue
        opening = re.match(r"(`{3,}|:{3,})", stripped)
        if opening:
            if current:
                paragraphs.append(" ".join(current))
                current = []
            fence = opening.group(1)
            if stripped.startswith(f"{fence}{{tcdoc-run}}") and any(
                option.strip().startswith(":raises:") for option in lines[number + 1 : number + 4]
            ):
                paragraphs[-1] = TRIGGERS.sub("CHECKED", paragraphs[-1]) if paragraphs else ""
            continue
        new_item = re.match(r"(\s*)([-*]|\d+\.)\s", line)
        if not stripped or stripped.startswith(("#", "%", ">")) or new_item:
            if current:
                paragraphs.append(" ".join(current))
                current = []
            if new_item:
                current.append(line[new_item.end() :].strip())
            continue
        current.append(stripped)
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def without_claims(text: str) -> str:
    """A page's source with each claim's span replaced by a marker (claims are checked)."""
    for span in reversed(claim_spans(text)):
        text = text[: span.start] + "CLAIM" + text[span.end :]
    return text


def words_seen(paragraph: str) -> str:
    """The words a reader sees, with measured errors replaced by markers."""
    paragraph = re.sub(r"\b(raises|raised|fails)\s+\{tcdoc-fact\}`[^`]*/error(\.type)?`", "CLAIM", paragraph)
    paragraph = re.sub(r"\{tcdoc-(fact|env)\}`[^`]*`", "MEASURED", paragraph)
    return plain(paragraph)


def sentences(paragraph: str) -> list[str]:
    parts = re.split(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?])\s+", paragraph)
    return [part.strip() for part in parts if part.strip()]


def uncovered(path: Path, prose: list[str]) -> list[str]:
    relative = path.relative_to(ROOT).as_posix()
    exempt = EXEMPT.get(relative, {})
    found = []
    for paragraph in prose:
        for sentence in sentences(paragraph):
            if sentence.endswith("?") or not TRIGGERS.search(sentence):
                continue
            if any(sentence.startswith(start) for start in exempt):
                continue
            found.append(f"{relative}: {sentence}")
    return found


def example_prose(path: Path) -> list[str]:
    """An example's text, less the claims it makes (they are checked), as the reader sees it."""
    text = "\n\n".join(example_text(path.read_text(encoding="utf-8")))
    seen = plain(re.sub(r"\n\s*\n|\n\s*[*-]\s", "\n\nPARAGRAPH ", text))
    for words in example_quotes(path):
        seen = seen.replace(plain(words), "CLAIM")
    return [paragraph.removeprefix("PARAGRAPH ") for paragraph in seen.split("PARAGRAPH ")]


def test_no_page_states_a_torch_fact_without_a_check() -> None:
    found = [
        line
        for page in PAGES
        for line in uncovered(
            page, list(map(words_seen, myst_paragraphs(without_claims(page.read_text(encoding="utf-8")))))
        )
    ]
    assert not found, (
        "sentences that state a torch fact with no claim or measurement behind them:\n" + "\n".join(found)
    )


def test_no_example_states_a_torch_fact_without_a_check() -> None:
    found = [line for example in EXAMPLES for line in uncovered(example, example_prose(example))]
    assert not found, "sentences that state a torch fact with no claim behind them:\n" + "\n".join(found)


def test_every_exemption_still_matches_a_sentence() -> None:
    stale = []
    for relative, starts in EXEMPT.items():
        path = ROOT / relative
        prose = (
            example_prose(path)
            if path.suffix == ".py"
            else list(map(words_seen, myst_paragraphs(without_claims(path.read_text(encoding="utf-8")))))
        )
        seen = [sentence for paragraph in prose for sentence in sentences(paragraph)]
        stale += [f"{relative}: {start}" for start in starts if not any(s.startswith(start) for s in seen)]
    assert not stale


def test_history_sentences_link_their_source() -> None:
    unsourced = []
    for page in PAGES:
        for paragraph in myst_paragraphs(page.read_text(encoding="utf-8")):
            for sentence in sentences(re.sub(r"\{tcdoc-[a-z]+\}`[^`]*`", "MEASURED", paragraph)):
                if HISTORY.search(plain(re.sub(r"\]\([^)]*\)", "]", sentence))) and "](http" not in sentence:
                    unsourced.append(f"{page.relative_to(ROOT)}: {sentence}")
    for example in EXAMPLES:
        for block in example_text(example.read_text(encoding="utf-8")):
            for sentence in sentences(" ".join(block.split())):
                if HISTORY.search(plain(re.sub(r"<http[^>]*>`_", "`", sentence))) and "<http" not in sentence:
                    unsourced.append(f"{example.relative_to(ROOT)}: {sentence}")
    assert not unsourced, "sentences about when something changed, without their source:\n" + "\n".join(
        unsourced
    )
