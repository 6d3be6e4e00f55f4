"""The sentences that a sweep supports: every comparison on the cost pages, computed from the run.

Two words carry the whole convention. "Beyond noise": the two times' spreads (their quartiles
``[q1, q3]``, between which the middle half of the blocks lies) do not overlap, and only then
does a sentence say that one cost more or less than another; "the same, within noise" where
they overlap. A factor ("twice", "ten times", "a tenth") compares
the medians, and is stated only together with "beyond noise". The sentences quote no measured
number, so two runs that reach the same conclusions write the same sentences; the numbers are in
the tables and figures. Each rule picks a comparison meant to give the same answer from one run
to the next on one machine: a factor far from where the medians fall, identical work against
identical work, and page faults, which are counted rather than timed. On a busy machine a
sentence can still come out otherwise (``benchmarks/cost_spread.py`` runs the cost page's sweep
several times and says which sentences changed), but never the number of sentences: that depends
only on the sizes and methods measured.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterator

from tcdoc._locale import LANGUAGES, PERIOD, SEMICOLON, SENTENCE_BREAK, join_words, translator
from tcdoc.bench._format import format_size, html_escape
from tcdoc.bench._methods import LIMIT_METHOD, METHODS, code_of, copies_data
from tcdoc.bench._results import Cost, Sweep
from tcdoc.bench._stats import more, spreads_overlap

__all__ = ["TOPICS", "Findings", "findings"]

TOPICS: tuple[str, ...] = ("size", "fixed cost", "same work", "allocation", "reuse")
"""The topics of :func:`findings`, in the order the sentences come."""

# Fresh pages "dominate" where a copy into new memory costs more than twice one into memory
# already allocated: the pages then cost more than the copy. Asking for memory is "cheap" below a
# tenth of what writing it costs. Copies "grow with the size" more than tenfold from the smallest
# size to the largest. Each factor compares medians, and goes with "beyond noise".
_DOMINATES = 2.0
_CHEAP = 0.1
_GREW = 10.0

# The copies that do the same work on a large tensor: allocate it, write it.
_SAME_WORK = ("clone", "detach_clone", "deepcopy")
# The ways to write into a buffer allocated once.
_REUSE = ("copy_into", "mul_out")


@dataclasses.dataclass(frozen=True)
class Findings:
    """Sentences computed from a :class:`Sweep`, which display as a list.

    Attributes
    ----------
    sentences
        The sentences, in the order of :data:`TOPICS`.
    translations
        The same sentences in each other language tcdoc writes (``"zh_CN"``), by language.
        The HTML display holds every language, each list marked with its ``lang``, the others
        than English hidden: a page in another language shows its own.

    """

    sentences: tuple[str, ...]
    translations: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict, compare=False)

    def __iter__(self) -> Iterator[str]:
        return iter(self.sentences)

    def __len__(self) -> int:
        return len(self.sentences)

    def __str__(self) -> str:
        return "\n".join(self.sentences)

    def __repr__(self) -> str:
        return "\n".join(f"- {sentence}" for sentence in self.sentences) or "(no findings)"

    def _repr_html_(self) -> str:
        lists = [_html_list(self.sentences, "en", hidden=False)]
        lists += [_html_list(words, language, hidden=True) for language, words in self.translations.items()]
        return "".join(lists)


def _html_list(sentences: tuple[str, ...], language: str, hidden: bool) -> str:
    items = "".join(f"<li>{_code_marked(html_escape(sentence))}</li>" for sentence in sentences)
    lang = language.replace("_", "-")
    return f'<ul class="tcdoc-findings" lang="{lang}"{" hidden" if hidden else ""}>{items}</ul>'


def findings(sweep: Sweep, topic: str | None = None) -> Findings:
    """Return what ``sweep`` shows, in sentences that state a difference only beyond the noise.

    A method is said to cost more than another only where the spreads of their times do not
    overlap: the quartiles ``[q1, q3]`` of the blocks. Where they do, the two cost "the same,
    within noise". A factor ("twice", "ten times") compares the medians. The
    sentences hold no measured number, so two runs that agree beyond the noise give the same
    sentences. A sentence that needs a method the sweep did not measure is left out. How many
    sentences a topic writes depends on the sizes and methods measured, never on the times: one,
    or one for each size. So a page and a script that run the same sweep print as many lines.

    Parameters
    ----------
    sweep
        What :func:`tcdoc.bench.run` measured.
    topic
        One of :data:`TOPICS`, for its sentences only; every topic when ``None``:

        - ``"size"``: which methods took more than ten times as long at the largest size as
          at the smallest.
        - ``"fixed cost"``: what ``copy.deepcopy`` adds to ``clone()`` at the smallest and the
          largest size.
        - ``"same work"``: whether ``clone()``, ``detach().clone()`` and ``deepcopy`` differ
          on the largest tensor.
        - ``"allocation"``: at each size, whether fresh pages or the copy itself dominates, from
          the page faults and the times of ``x.clone()`` and ``out.copy_(x)``.
        - ``"reuse"``: at each size, whether writing into a buffer allocated once cost less
          than ``x.clone()``, and where fresh pages dominate, that this is what it saves.

    Returns
    -------
    Findings
        The sentences; in a notebook or a gallery page they display as a list.

    Raises
    ------
    TypeError
        If ``sweep`` is not a :class:`Sweep`.
    ValueError
        If ``topic`` is not one of :data:`TOPICS`.

    Examples
    --------
    >>> import tcdoc.bench
    >>> sweep = tcdoc.bench.run(
    ...     sizes=[1024, 4096], methods=["clone", "deepcopy"], min_run_time=0.001, blocks=5
    ... )
    >>> tcdoc.bench.findings(sweep, "fixed cost").sentences[0].startswith("At 1 KiB, copy.deepcopy(x) cost")
    True

    """
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a tcdoc.bench.Sweep, got {type(sweep).__name__}")
    if topic is not None and topic not in TOPICS:
        raise ValueError(f"topic must be one of {', '.join(map(repr, TOPICS))} or None; got {topic!r}")
    rules: dict[str, Callable[[Sweep, str], list[str]]] = {
        "size": _size,
        "fixed cost": _fixed_cost,
        "same work": _same_work,
        "allocation": _allocation,
        "reuse": _reuse,
    }
    chosen = TOPICS if topic is None else (topic,)

    def sentences(language: str) -> tuple[str, ...]:
        return tuple(sentence for name in chosen for sentence in rules[name](sweep, language))

    others = {language: sentences(language) for language in LANGUAGES if language != "en"}
    return Findings(sentences("en"), others)


# -- The rules, one per topic ------------------------------------------------------------------


def _size(sweep: Sweep, language: str) -> list[str]:
    """Say which methods took more than ten times as long at the largest size as at the smallest."""
    if len(sweep.sizes) < 2:
        return []
    t = translator(language)
    smallest, largest = sweep.sizes[0], sweep.sizes[-1]
    copying = [m for m in sweep.methods if copies_data(m)]
    tenfold = [m for m in copying if more(sweep.get(m, largest), sweep.get(m, smallest), factor=_GREW)]
    parts = []
    if copying and tenfold == copying:
        parts.append(t("every method that copies took more than ten times as long, beyond noise"))
    elif copying and tenfold:
        parts.append(
            t("{grew} took more than ten times as long, beyond noise, and {others} not").format(
                grew=join_words([code_of(m) for m in tenfold], language),
                others=join_words([code_of(m) for m in copying if m not in tenfold], language),
            )
        )
    elif copying:
        parts.append(t("no method that copies took ten times as long, beyond noise"))
    if "detach" in sweep.methods:
        grew = more(sweep.get("detach", largest), sweep.get("detach", smallest), factor=_GREW)
        parts.append(
            t("x.detach(), which copies nothing, did too")
            if grew
            else t("x.detach(), which copies nothing, did not")
        )
    if not parts:
        return []
    return [
        t("From {smallest} to {largest}, {parts}.").format(
            smallest=format_size(smallest),
            largest=format_size(largest),
            parts=SEMICOLON[language].join(parts),
        )
    ]


def _fixed_cost(sweep: Sweep, language: str) -> list[str]:
    """Say what copy.deepcopy(x) adds to x.clone() at the smallest and the largest size, no law between."""
    if not {"clone", "deepcopy"} <= set(sweep.methods):
        return []
    t = translator(language)
    smallest, largest = sweep.sizes[0], sweep.sizes[-1]
    small = (sweep.get("deepcopy", smallest), sweep.get("clone", smallest))
    sentence = t("At {size}, {comparison}").format(
        size=format_size(smallest), comparison=_comparison(*small, t)
    )
    if largest != smallest:
        large = (sweep.get("deepcopy", largest), sweep.get("clone", largest))
        sentence += t("; at {size}, {comparison}").format(
            size=format_size(largest), comparison=_comparison(*large, t)
        )
    return [sentence + PERIOD[language]]


def _same_work(sweep: Sweep, language: str) -> list[str]:
    """Whether the copies that do the same work on the largest tensor differ there, beyond noise."""
    measured = [m for m in _SAME_WORK if m in sweep.methods]
    if len(measured) < 2:
        return []
    t = translator(language)
    largest = sweep.sizes[-1]
    costs = [sweep.get(m, largest) for m in measured]
    apart = [(a, b) for i, a in enumerate(costs) for b in costs[i + 1 :] if not spreads_overlap(a, b)]
    if not apart:
        return [
            t("At {size}, {names} cost the same, within noise.").format(
                size=format_size(largest), names=join_words([c.code for c in costs], language)
            )
        ]
    comparisons = [_comparison(a, b, t) if a.seconds > b.seconds else _comparison(b, a, t) for a, b in apart]
    sentence = t("At {size}, {comparison}").format(
        size=format_size(largest), comparison=SEMICOLON[language].join(comparisons)
    )
    return [sentence + PERIOD[language]]


def _allocation(sweep: Sweep, language: str) -> list[str]:
    """At each size, whether fresh pages or the copy itself dominates what x.clone() costs."""
    if not {"clone", LIMIT_METHOD} <= set(sweep.methods):
        return []
    t = translator(language)
    sentences = []
    for nbytes in sweep.sizes:
        kind = _allocation_kind(sweep, nbytes)
        words = [_allocation_sentence(kind, sweep.get("clone", nbytes), t)]
        if kind == "fresh":
            words += _first_touch(sweep, nbytes, t)
        sentences.append(SENTENCE_BREAK[language].join(words))
    return sentences


def _reuse(sweep: Sweep, language: str) -> list[str]:
    """At each size, whether writing into a buffer allocated once cost less than x.clone()."""
    reusing = [m for m in _REUSE if m in sweep.methods]
    if not reusing or not {"clone", LIMIT_METHOD} <= set(sweep.methods):
        return []
    t = translator(language)
    sentences = []
    for nbytes in sweep.sizes:
        clone = sweep.get("clone", nbytes)
        less = [code_of(m) for m in reusing if more(clone, sweep.get(m, nbytes))]
        same = [code_of(m) for m in reusing if not more(clone, sweep.get(m, nbytes))]
        parts = []
        if less:
            parts.append(
                t("{names} cost less than x.clone(), beyond noise").format(names=join_words(less, language))
            )
        if same:
            parts.append(
                t("{names} did not cost less than x.clone(), beyond noise").format(
                    names=join_words(same, language)
                )
            )
        size, joined = format_size(nbytes), SEMICOLON[language].join(parts)
        if _allocation_kind(sweep, nbytes) == "fresh":
            sentence = t("At {size}, writing into a buffer allocated once saves the fresh pages: {parts}.")
            sentences.append(sentence.format(size=size, parts=joined))
        else:
            sentence = t("At {size}, {comparison}").format(size=size, comparison=joined)
            sentences.append(sentence + PERIOD[language])
    return sentences


# -- Helpers -----------------------------------------------------------------------------------


def _allocation_kind(sweep: Sweep, nbytes: int) -> str:
    """Return what dominates x.clone() at ``nbytes``, from its page faults and its time against out.copy_(x).

    ``"fresh"``: page faults (one a call at least), and more than twice the time of
    ``out.copy_(x)``, beyond noise. ``"copy"``: otherwise. Without page fault counts (CUDA):
    ``"slower"`` or ``"not slower"``, from the times alone.
    """
    clone, into = sweep.get("clone", nbytes), sweep.get(LIMIT_METHOD, nbytes)
    dominates = more(clone, into, factor=_DOMINATES)
    if clone.page_faults is None:
        return "slower" if dominates else "not slower"
    return "fresh" if dominates and clone.page_faults >= 1 else "copy"


def _allocation_sentence(kind: str, clone: Cost, t: Callable[[str], str]) -> str:
    size = format_size(clone.nbytes)
    if kind == "fresh":
        return t(
            "At {size}, fresh pages dominate: x.clone() took about one page fault for every {per_fault} "
            "of its result, and cost more than twice out.copy_(x), beyond noise."
        ).format(size=size, per_fault=_per_fault(clone))
    if kind == "copy":
        # Whether a mid-sized block comes back from the allocator or from fresh pages depends on
        # the process's past, so the sentence holds whichever of the two happened.
        return t(
            "At {size}, the copy itself dominates: there x.clone() took no page faults or, where it "
            "took some, did not cost more than twice out.copy_(x), beyond noise."
        ).format(size=size)
    if kind == "slower":
        return t(
            "At {size}, x.clone() cost more than twice out.copy_(x), beyond noise: allocating its result "
            "dominates."
        ).format(size=size)
    return t(
        "At {size}, x.clone() did not cost more than twice out.copy_(x), beyond noise: the copy dominates."
    ).format(size=size)


def _first_touch(sweep: Sweep, nbytes: int, t: Callable[[str], str]) -> list[str]:
    """Where fresh pages dominate: asking for memory is cheap, writing it the first time is not."""
    if not {"empty_like", "empty_like_copy"} <= set(sweep.methods):
        return []
    asked, written = sweep.get("empty_like", nbytes), sweep.get("empty_like_copy", nbytes)
    into = sweep.get(LIMIT_METHOD, nbytes)
    if not (more(written, asked, factor=1 / _CHEAP) and more(written, into, factor=_DOMINATES)):
        return []
    return [
        t(
            "There torch.empty_like(x) alone cost less than a tenth of torch.empty_like(x).copy_(x), "
            "which cost more than twice out.copy_(x), beyond noise: asking for the memory is cheap, and "
            "the cost comes when its pages are first written."
        )
    ]


def _comparison(a: Cost, b: Cost, t: Callable[[str], str]) -> str:
    """Put ``a`` against ``b`` in words: more or less beyond noise, or the same within noise."""
    if spreads_overlap(a, b):
        words = t("{a} and {b} cost the same, within noise")
    elif a.seconds > b.seconds:
        words = t("{a} cost more than {b}, beyond noise")
    else:
        words = t("{a} cost less than {b}, beyond noise")
    return words.format(a=a.code, b=b.code)


def _per_fault(cost: Cost) -> str:
    """Return the bytes of the result per page fault, to the nearest power of two (a page, mostly)."""
    assert cost.page_faults  # only asked where there were page faults
    return format_size(2 ** round(math.log2(cost.nbytes / cost.page_faults)))


# Every method's code, the longest first, so that "x.detach().clone()" is not read as "x.clone()".
_CODES = re.compile(
    "|".join(re.escape(html_escape(code_of(m))) for m in sorted(METHODS, key=lambda m: -len(code_of(m))))
)


def _code_marked(html: str) -> str:
    """Set each method's code in ``<code>``, as the page's own text sets code."""
    return _CODES.sub(lambda found: f"<code>{found.group(0)}</code>", html)
