"""Every sentence on the site that states what torch does is checked.

The claims registry (``tcdoc/_site_claims.py``, rules in ``tcdoc/_claims.py``) holds each such
sentence with its check. These tests run every check, make sure the pages render the claims
and the examples quote them word for word, show that a claim made false by changing its words
fails, and scan every page and example for sentences that state a torch fact with no check
behind them.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import tcdoc
from tcdoc._claims import Claim, Every, Only, claims, example_text, get_claim, plain, quoted, verify
from tcdoc._site_claims import CLAIMS

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("[!_]*/**/*.md")) + sorted((ROOT / "docs").glob("*.md"))
EXAMPLES = sorted((ROOT / "examples").rglob("*.py"))


@pytest.fixture(scope="module")
def matrix() -> tcdoc.Matrix:
    return tcdoc.matrix()


def rendered_ids() -> dict[str, list[str]]:
    """Map each claim id that a page renders to the pages that render it."""
    found: dict[str, list[str]] = {}
    for page in PAGES:
        for claim_id in re.findall(r"\{tcdoc-claim\}`([^`]+)`", page.read_text(encoding="utf-8")):
            found.setdefault(claim_id, []).append(page.relative_to(ROOT).as_posix())
    return found


# -- Each claim holds, and is shown ---------------------------------------------------------


@pytest.mark.parametrize("claim", claims(), ids=lambda claim: claim.id)
def test_claim_holds(claim: Claim, matrix: tcdoc.Matrix) -> None:
    verdict = verify(claim, matrix)
    if verdict.held is None:
        pytest.skip(str(verdict))
    assert verdict.held, str(verdict)


def test_every_claim_is_rendered_or_quoted() -> None:
    rendered = rendered_ids()
    unused = [claim.id for claim in claims() if claim.id not in rendered and not claim.quoted_in]
    assert not unused, f"claims that no page renders and no example quotes: {unused}"


def test_every_rendered_claim_exists() -> None:
    known = {claim.id for claim in claims()}
    unknown = {claim_id: pages for claim_id, pages in rendered_ids().items() if claim_id not in known}
    assert not unknown


@pytest.mark.parametrize("claim", [c for c in claims() if c.quoted_in], ids=lambda claim: claim.id)
def test_quoted_claims_are_quoted_word_for_word(claim: Claim) -> None:
    for name in claim.quoted_in:
        script = ROOT / "examples" / name
        assert script.is_file(), f"{claim.id} names {name}, which is no example"
        text = "\n\n".join(example_text(script.read_text(encoding="utf-8")))
        assert quoted(claim, text), f"{name} does not quote {claim.id}: {plain(claim.text)!r}"


def test_claim_ids_name_their_page_and_are_unique() -> None:
    ids = [claim.id for claim in claims()]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9_-]+\.[a-z0-9-]+", claim_id) for claim_id in ids)


QUANTIFIERS = re.compile(r"\b(only|never|always)\b", re.IGNORECASE)


def test_quantified_claims_say_what_their_check_covers() -> None:
    vague = [claim.id for claim in claims() if QUANTIFIERS.search(plain(claim.text)) and not claim.scope]
    assert not vague, f"claims that quantify without a scope (registry, or the condition stated): {vague}"


def test_an_unknown_claim_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"no claim 'clone\.nope'; this page's are: clone\."):
        get_claim("clone.nope")


# -- A claim made false by its words fails ---------------------------------------------------

SHARES_BOTH = next(
    item for item in CLAIMS if isinstance(item, Only) and item.id.endswith("only-detach-of-these")
)


def test_the_old_only_detach_sentence_is_false(matrix: tcdoc.Matrix) -> None:
    # "Only x.detach() shares both the memory and the counter", over every operation tcdoc knows.
    old = dataclasses.replace(SHARES_BOTH, among=None)
    verdict = verify(old.claim(), matrix)
    assert verdict.held is False
    assert "view" in verdict.detail
    assert "parameter_wrap" in verdict.detail
    assert old.claim().text.startswith("Of every operation tcdoc knows, on `leaf_requires_grad`, only")


@pytest.mark.parametrize("item", [c for c in CLAIMS if isinstance(c, Only)], ids=lambda item: item.id)
def test_an_only_claim_with_one_operation_more_or_less_is_false(
    item: Only | Every, matrix: tcdoc.Matrix
) -> None:
    assert verify(item.claim(), matrix).held
    among = item.among or tuple(op.name for op in tcdoc.operations())
    outsider = next(name for name in among if name not in item.ops)
    widened = dataclasses.replace(item, ops=(*item.ops, outsider))
    assert verify(widened.claim(), matrix).held is False
    assert tcdoc.get_operation(outsider).code in plain(widened.claim().text)  # the words changed too
    if len(item.ops) > 1:
        narrowed = dataclasses.replace(item, ops=item.ops[1:])
        assert verify(narrowed.claim(), matrix).held is False


@pytest.mark.parametrize("item", [c for c in CLAIMS if isinstance(c, Every)], ids=lambda item: item.id)
def test_an_every_claim_with_a_value_flipped_is_false(item: Only | Every, matrix: tcdoc.Matrix) -> None:
    assert verify(item.claim(), matrix).held
    for field, value in item.expected.items():
        if isinstance(value, bool):
            flipped = dataclasses.replace(item, expected={**item.expected, field: not value})
            assert verify(flipped.claim(), matrix).held is False, field


def test_a_claim_about_every_scenario_covers_scenarios_added_later(matrix: tcdoc.Matrix) -> None:
    detach = next(item for item in CLAIMS if isinstance(item, Every) and item.id == "detach.shares-memory")
    assert detach.scenarios is None
    assert "every kind of `x` tcdoc builds" in detach.claim().text
    # A matrix with a scenario where detach() copies: the same claim must now fail.
    row = matrix.get("detach", "no_grad")
    copied = dataclasses.replace(
        row, scenario="no_grad", outcome=dataclasses.replace(row.properties, new_bytes=24)
    )
    changed = dataclasses.replace(matrix, rows=tuple(copied if r is row else r for r in matrix.rows))
    assert verify(detach.claim(), changed).held is False


def test_a_claim_about_everyday_tensors_says_so_and_checks_just_them(matrix: tcdoc.Matrix) -> None:
    from tcdoc._claims import EVERYDAY

    counter = next(item for item in CLAIMS if isinstance(item, Every) and item.id == "detach.shares-both")
    assert counter.scenarios == EVERYDAY
    assert counter.claim().text.startswith("On every everyday kind of `x` tcdoc builds,")

    def with_counter(scenario: str, value: object) -> tcdoc.Matrix:
        row = matrix.get("detach", scenario)
        changed = dataclasses.replace(
            row, outcome=dataclasses.replace(row.properties, shares_version_counter=value)
        )
        return dataclasses.replace(matrix, rows=tuple(changed if r is row else r for r in matrix.rows))

    assert verify(counter.claim(), with_counter("inference", False)).held  # a special tensor: not claimed
    assert verify(counter.claim(), with_counter("no_grad", False)).held is False


def test_an_only_claim_must_say_only() -> None:
    weaker = Only("x.y", "Of {among}, on {scenarios}, {ops} shares memory", ("detach",), lambda c: True)
    with pytest.raises(ValueError, match=r"must say 'only \{ops\}'"):
        weaker.claim()


def test_a_template_that_leaves_out_its_condition_is_refused() -> None:
    hidden = Only(
        "x.y", "Only {ops} shares memory", ("detach",), lambda c: c.shares_storage, scenarios=("no_grad",)
    )
    with pytest.raises(ValueError, match=r"must say \{among\}"):
        hidden.claim()
    hidden_scenarios = Every("x.y", "{ops} never copies", ("detach",), {"new_bytes": 0})
    with pytest.raises(ValueError, match=r"must say \{scenarios\}"):
        hidden_scenarios.claim()


def test_a_free_form_claim_is_false_when_its_check_fails(matrix: tcdoc.Matrix) -> None:
    def fails(matrix: tcdoc.Matrix) -> None:
        tcdoc._claims.expect(False, "the words say more than torch does")

    verdict = verify(Claim("x.y", "Something torch does", fails), matrix)
    assert (verdict.held, verdict.detail) == (False, "the words say more than torch does")
    assert str(verdict) == "x.y: FALSE: the words say more than torch does"


def test_a_claim_that_needs_a_missing_package_is_not_checked(
    matrix: tcdoc.Matrix, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "numpy", None)
    verdict = verify(get_claim("look-alikes.numpy-shares"), matrix)
    assert verdict.held is None
    assert verdict.detail == "needs numpy"


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
        "Use torch.from_numpy to share memory": "advice; the Why line below is the claim it rests on",
    },
    "docs/reference/cli.md": {
        "error is": "describes tcdoc's JSON layout, not torch",
        "not_run is": "describes tcdoc's JSON layout, not torch",
        "The tables print that as n/a": "describes tcdoc's tables, not torch",
    },
    "docs/reference/api.md": {
        "tcdoc.bench times each copy method": "describes tcdoc.bench and tcdoc.bench.findings, not torch",
    },
    "docs/reference/matrix.md": {
        "Where an operation raised an exception": "describes the table, not torch",
        "A cell that says": "describes the table, not torch",
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
    "examples/plot_13_numpy.py": {
        "tcdoc.draw.draw_panels draws copied and shared": "'shared' names a variable; says what is drawn",
    },
    "examples/plot_17_multiprocessing.py": {
        "That keeps the example one short file": "about Python's start methods, not torch; sourced below",
    },
    "examples/plot_19_cost.py": {
        "Choosing between clone(), detach() and copy.deepcopy": "about training loops, not torch",
        "In one line, from this run": "'share' is a noun: a figure the run prints",
        "Which copy to pick in the first place": "links to pages whose claims are checked there",
        "The sentences that compare them are computed": "describes tcdoc.bench.findings, not torch",
        "On the largest tensor, the three copies allocate": "the measured table printed below shows it",
        "Where a loop copies a large tensor again": "advice; the measured table below shows the saving",
        "The buffer then holds only the latest values": "follows from reusing one buffer, not from torch",
        "A statement that copies reads each byte": "defines tcdoc's bytes-moved figure (twice the bytes)",
        "A point above the limit is possible": "about the CPU's caches, not torch",
        '"median [q1, q3]" is the median time': "defines the columns of the table below",
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


def words_seen(paragraph: str) -> str:
    """The words a reader sees, with claims and measured errors replaced by markers."""
    paragraph = re.sub(r"\{tcdoc-claim\}`[^`]*`", "CLAIM", paragraph)
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
    """An example's text, less the claims it quotes (they are checked), as the reader sees it."""
    text = "\n\n".join(example_text(path.read_text(encoding="utf-8")))
    seen = plain(re.sub(r"\n\s*\n|\n\s*[*-]\s", "\n\nPARAGRAPH ", text))
    name = path.relative_to(ROOT / "examples").as_posix()
    for claim in claims():
        if name in claim.quoted_in:
            seen = seen.replace(plain(claim.text), "CLAIM")
    return [paragraph.removeprefix("PARAGRAPH ") for paragraph in seen.split("PARAGRAPH ")]


def test_no_page_states_a_torch_fact_without_a_check() -> None:
    found = [
        line
        for page in PAGES
        for line in uncovered(page, list(map(words_seen, myst_paragraphs(page.read_text(encoding="utf-8")))))
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
            else list(map(words_seen, myst_paragraphs(path.read_text(encoding="utf-8"))))
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
