"""tcdoc.bench: the sweep's shape, units, order and statistics (never its timings), the sentences, JSON."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.utils.benchmark

import tcdoc.bench
from tcdoc.bench import METHODS, CopyLimit, Cost, Sweep, _measure, _stats
from tcdoc.cli import main

SIZES = (1024, 4096)
FAST = 0.001  # seconds per method and size: enough to get numbers, far too little to trust them
KIB, MIB = 1024, 1024 * 1024


@pytest.fixture(scope="module")
def sweep() -> Sweep:
    return tcdoc.bench.run(sizes=SIZES, min_run_time=FAST, blocks=5)


# -- Shape -----------------------------------------------------------------------------------


def test_one_cost_per_method_and_size(sweep: Sweep) -> None:
    assert sweep.sizes == SIZES
    assert sweep.methods == METHODS
    assert len(sweep.costs) == len(SIZES) * len(METHODS)
    assert {(c.method, c.nbytes) for c in sweep.costs} == {(m, n) for m in METHODS for n in SIZES}


def test_sizes_are_sorted_and_deduplicated_and_methods_keep_their_order() -> None:
    small = tcdoc.bench.run(
        sizes=[4096, 1024, 4096], methods=["clone", "detach"], min_run_time=FAST, blocks=5
    )
    assert small.sizes == (1024, 4096)
    assert small.methods == ("clone", "detach")
    assert len(small.costs) == 4


def test_code_is_the_registry_code_or_one_of_the_extra_methods(sweep: Sweep) -> None:
    extra = {
        "empty_like": "torch.empty_like(x)",
        "empty_like_copy": "torch.empty_like(x).copy_(x)",
        "copy_into": "out.copy_(x)",
        "mul_out": "torch.mul(x, 1, out=out)",
    }
    for cost in sweep.costs:
        assert cost.code == tcdoc.bench.code_of(cost.method)
        assert cost.code == extra.get(cost.method) or cost.code == tcdoc.get_operation(cost.method).code


def test_small_methods_leave_out_only_the_two_look_alikes() -> None:
    assert set(METHODS) - set(tcdoc.bench.SMALL_METHODS) == {"torch_tensor", "to_copy"}
    assert tcdoc.bench.LIMIT_METHOD in tcdoc.bench.SMALL_METHODS


def test_of_returns_one_method_smallest_first(sweep: Sweep) -> None:
    costs = sweep.of("clone")
    assert [c.nbytes for c in costs] == list(SIZES)
    assert {c.method for c in costs} == {"clone"}


# -- Units -----------------------------------------------------------------------------------


def test_every_time_is_a_median_with_its_spread_over_the_blocks(sweep: Sweep) -> None:
    for cost in [*sweep.costs]:
        assert math.isfinite(cost.seconds)
        assert cost.seconds > 0
        assert cost.iqr >= 0
        assert cost.blocks == 5 == sweep.blocks
        assert cost.calls >= cost.blocks
        assert cost.interval == (cost.q1, cost.q3)
        assert cost.q1 <= cost.seconds <= cost.q3
        assert cost.q3 - cost.q1 == pytest.approx(cost.iqr, rel=1e-12, abs=1e-15)
    assert sweep.limit.blocks == 5
    assert sweep.limit.iqr >= 0


def test_bytes_allocated_are_the_new_storage(sweep: Sweep) -> None:
    into_a_buffer = {"detach", "copy_into", "mul_out"}
    for cost in sweep.costs:
        expected = 0 if cost.method in into_a_buffer else cost.nbytes
        assert cost.bytes_allocated == expected, cost


def test_bytes_moved_are_read_plus_written_by_the_methods_that_copy(sweep: Sweep) -> None:
    for cost in sweep.costs:
        copies = cost.method not in {"detach", "empty_like"}
        assert tcdoc.bench.copies_data(cost.method) is copies
        assert cost.bytes_moved == (2 * cost.nbytes if copies else 0)
        assert cost.bandwidth == pytest.approx(cost.bytes_moved / cost.seconds)


def test_the_limit_is_the_copy_into_a_buffer_at_the_largest_size(sweep: Sweep) -> None:
    limit = sweep.limit
    assert limit.nbytes == max(SIZES)
    into = sweep.get("copy_into", max(SIZES))
    assert (limit.seconds, limit.interval, limit.blocks) == (into.seconds, into.interval, into.blocks)
    assert limit.bandwidth == pytest.approx(2 * limit.nbytes / limit.seconds)
    for cost in sweep.costs:
        assert cost.fraction_of_limit == pytest.approx(cost.bandwidth / limit.bandwidth)
    assert sweep.get("detach", 1024).fraction_of_limit == 0


def test_the_limit_is_measured_even_when_copy_into_is_not_asked_for() -> None:
    small = tcdoc.bench.run(sizes=[1024, 4096], methods=["clone"], min_run_time=FAST, blocks=5)
    assert small.methods == ("clone",)
    assert small.limit.nbytes == 4096
    assert small.limit.blocks == 5


@pytest.mark.skipif(not hasattr(_measure, "resource"), reason="no resource module (Windows)")
def test_page_faults_are_counted_per_call_on_the_cpu(sweep: Sweep) -> None:
    for cost in sweep.costs:
        assert cost.page_faults is not None
        assert cost.page_faults >= 0


def test_page_faults_are_none_where_they_cannot_be_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_measure, "_minor_faults", lambda: None)
    small = tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=FAST, blocks=5)
    assert small.get("clone", 1024).page_faults is None
    assert small.rows()[0][5] == "n/a"


def test_machine_describes_this_torch(sweep: Sweep) -> None:
    assert sweep.machine.torch == torch.__version__
    assert sweep.machine.threads == torch.get_num_threads()
    assert sweep.machine.device == "cpu"
    assert sweep.machine.cpu
    assert sweep.min_run_time == FAST
    assert sweep.seed == 0


def test_threads_apply_to_the_run_and_are_restored() -> None:
    before = torch.get_num_threads()
    small = tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=FAST, blocks=5, threads=1)
    assert small.machine.threads == 1
    assert torch.get_num_threads() == before


def test_torch_tensor_warning_does_not_escape() -> None:
    # pytest turns warnings into errors (pyproject.toml), so a leaked warning fails this test.
    small = tcdoc.bench.run(sizes=[1024], methods=["torch_tensor"], min_run_time=FAST, blocks=5)
    assert small.get("torch_tensor", 1024).bytes_allocated == 1024


# -- How the blocks are timed and summarised -----------------------------------------------------


class _RecordingTimer:
    """Stands in for timeit.Timer: records which task ran, and how many calls, in order."""

    def __init__(self, name: str, log: list[tuple[str, int]]) -> None:
        self.name, self.log = name, log

    def timeit(self, number: int) -> float:
        self.log.append((self.name, number))
        return 1e-3 * number


def _fake_tasks(log: list[tuple[str, int]], numbers: dict[str, int]) -> list[_measure._Task]:
    spec = torch.utils.benchmark.TaskSpec(stmt="pass", setup="pass")
    return [
        _measure._Task(name, 1024, _RecordingTimer(name, log), spec, number, 0, faults=None)  # type: ignore[arg-type]
        for name, number in numbers.items()
    ]


def _timed_rounds(seed: int, rounds: int = 5) -> list[list[str]]:
    log: list[tuple[str, int]] = []
    _measure._time_in_rounds(_fake_tasks(log, {name: 3 for name in "abcdef"}), rounds, seed)
    timed = [name for name, number in log if number == 3]  # the warm-up calls are one call each
    return [timed[i : i + 6] for i in range(0, len(timed), 6)]


def test_each_round_times_every_task_once_in_a_shuffled_order() -> None:
    rounds = _timed_rounds(seed=0)
    assert len(rounds) == 5
    for order in rounds:
        assert sorted(order) == list("abcdef")
    assert len({tuple(order) for order in rounds}) > 1  # the order changes from round to round


def test_the_order_depends_on_the_seed_alone() -> None:
    assert _timed_rounds(seed=0) == _timed_rounds(seed=0)
    assert _timed_rounds(seed=0) != _timed_rounds(seed=1)


def test_a_block_of_several_calls_is_warmed_up_by_one_untimed_call() -> None:
    log: list[tuple[str, int]] = []
    _measure._time_in_rounds(_fake_tasks(log, {"several": 4, "one": 1}), 5, 0)
    assert [number for name, number in log if name == "several"] == [1, 4] * 5
    assert [number for name, number in log if name == "one"] == [1] * 5


def test_median_and_iqr_are_torch_measurements_over_the_blocks() -> None:
    spec = torch.utils.benchmark.TaskSpec(stmt="x.clone()", setup="pass")
    task = _measure._Task("clone", 1024, None, spec, 2, 1024, faults=10)  # type: ignore[arg-type]
    for block in (2.0, 4.0, 6.0, 8.0, 10.0):  # seconds for 2 calls: 1 to 5 seconds a call
        task.measurements.append(
            torch.utils.benchmark.Measurement(number_per_run=2, raw_times=[block], task_spec=spec)
        )
    task.calls = 10
    limit = CopyLimit(nbytes=1024, seconds=1.0, iqr=0.0, q1=1.0, q3=1.0, blocks=5, bandwidth=2048.0)
    cost = _measure._cost(task, limit)
    merged = torch.utils.benchmark.Measurement.merge(task.measurements)[0]
    assert (cost.seconds, cost.iqr, cost.blocks) == (merged.median, merged.iqr, 5)
    assert (cost.seconds, cost.iqr, cost.q1, cost.q3) == (3.0, 2.0, 2.0, 4.0)
    assert cost.q3 - cost.q1 == merged.iqr  # the quartiles are the ones torch takes the IQR of
    assert cost.page_faults == 1.0
    assert cost.fraction_of_limit == pytest.approx(cost.bandwidth / 2048.0)


# -- Display and JSON --------------------------------------------------------------------------


def test_repr_and_html_list_every_measurement_with_its_spread(sweep: Sweep) -> None:
    text = repr(sweep)
    html = sweep._repr_html_()
    assert text.count("\n") == 2 + len(sweep.costs)  # machine, limit, header, rows
    assert html.count("<tr>") == 1 + len(sweep.costs)
    for row in sweep.rows():
        assert re.fullmatch(r"\S+ \S+ \[\S+, \S+\]", row[2]), row[2]
        assert row[3] == "5"
    for code in {c.code for c in sweep.costs}:
        assert code in text
    assert "torch.empty_like(x).copy_(x)" in html
    assert torch.__version__ in text
    assert "median [q1, q3]" in text


def test_table_shows_the_methods_asked_for_in_that_order(sweep: Sweep) -> None:
    table = sweep.table(("copy_into", "clone"))
    assert [row[1] for row in table.rows] == ["out.copy_(x)", "x.clone()"] * len(SIZES)
    assert table._repr_html_().count("<tr>") == 1 + 2 * len(SIZES)
    assert "out.copy_(x)" in repr(table)
    with pytest.raises(ValueError, match="method must be one of"):
        sweep.table(("nope",))


def test_limit_names_itself_for_what_it_is(sweep: Sweep) -> None:
    for text in (str(sweep.limit), repr(sweep.limit)):
        assert "out.copy_(x)" in text
        assert "into memory already allocated" in text
        assert "5 blocks" in text


def test_summaries_are_computed_from_the_costs(sweep: Sweep) -> None:
    smallest, largest = sweep.sizes[0], sweep.sizes[-1]
    growth = sweep.growth()
    assert set(growth) == {sweep.get(m, smallest).code for m in sweep.methods}
    clone_small, clone_large = sweep.get("clone", smallest), sweep.get("clone", largest)
    assert growth["x.clone()"] == clone_large.seconds / clone_small.seconds
    overhead = sweep.deepcopy_overhead()
    assert overhead == sweep.get("deepcopy", smallest).seconds - clone_small.seconds
    headline = sweep.headline()
    assert f"copy limit {sweep.limit.bandwidth / 1e9:.2f} GB/s" in headline
    assert f"{clone_large.fraction_of_limit:.0%} of it" in headline
    if tcdoc.bench.overlap(clone_small, sweep.get("deepcopy", smallest)):
        assert "the same as x.clone(), within noise" in headline
    else:
        assert f"{overhead * 1e6:.1f} µs more than x.clone()" in headline


def test_deepcopy_overhead_needs_both_methods() -> None:
    only_detach = tcdoc.bench.run(sizes=[1024], methods=["detach"], min_run_time=FAST, blocks=5)
    with pytest.raises(ValueError, match="no measurement of 'deepcopy'"):
        only_detach.deepcopy_overhead()


def test_json_round_trip(sweep: Sweep) -> None:
    text = sweep.to_json()
    data = json.loads(text)
    assert data["schema"] == tcdoc.bench.SCHEMA == 2
    assert {field.name for field in dataclasses.fields(tcdoc.bench.Cost)} == set(data["costs"][0])
    assert {"iqr", "q1", "q3", "blocks"} <= set(data["limit"])
    assert {"iqr", "q1", "q3", "blocks", "page_faults"} <= set(data["costs"][0])
    assert Sweep.from_json(text) == sweep


def test_from_json_rejects_other_layouts() -> None:
    with pytest.raises(ValueError, match="schema 2 \\(found schema 1\\)"):
        Sweep.from_json(json.dumps({"schema": 1}))
    with pytest.raises(ValueError, match="schema"):
        Sweep.from_json(json.dumps([]))
    with pytest.raises(TypeError, match="text must be a str"):
        Sweep.from_json(b"{}")  # type: ignore[arg-type]


def test_get_names_what_is_missing(sweep: Sweep) -> None:
    with pytest.raises(ValueError, match="no measurement of 'clone' at nbytes=2048"):
        sweep.get("clone", 2048)
    with pytest.raises(ValueError, match="method must be one of"):
        sweep.of("nope")


def test_formatting() -> None:
    assert tcdoc.bench.format_size(256 * 1024 * 1024) == "256 MiB"
    assert tcdoc.bench.format_size(1024) == "1 KiB"
    assert tcdoc.bench.format_duration(2.5e-3) == "2.5 ms"
    assert tcdoc.bench.format_duration(4e-7) == "400 ns"
    assert tcdoc.bench.format_duration(0.0213, spread=(0.0199, 0.0236)) == "21.3 ms [19.9, 23.6]"
    assert tcdoc.bench.format_duration(3.62e-4, spread=(1.2e-4, 1.454e-3)) == "362 µs [120, 1454]"
    assert tcdoc.bench.format_duration(1.3e-6, spread=(1.25e-6, 1.3e-6)) == "1.3 µs [1.25, 1.3]"
    assert tcdoc.bench.format_duration(1.0, spread=(0.0123, 2.0)) == "1 s [0.0123, 2]"


def test_default_sweeps_span_the_documented_sizes() -> None:
    assert tcdoc.bench.FULL_SIZES[0] == 1024
    assert tcdoc.bench.FULL_SIZES[-1] == 256 * 1024 * 1024
    assert set(tcdoc.bench.SMALL_SIZES) <= set(tcdoc.bench.FULL_SIZES)


def test_overlap_checks_its_arguments(sweep: Sweep) -> None:
    with pytest.raises(TypeError, match=r"b must be a tcdoc\.bench\.Cost or CopyLimit, got float"):
        tcdoc.bench.overlap(sweep.limit, 1.0)  # type: ignore[arg-type]


def test_overlap_reads_the_spreads_alone(sweep: Sweep) -> None:
    clone = sweep.get("clone", SIZES[0])
    others: tuple[Cost | CopyLimit, ...] = (*sweep.costs, sweep.limit)
    for other in others:
        assert tcdoc.bench.overlap(clone, other) == _stats.spreads_overlap(
            _stats.Time(0.0, clone.interval), _stats.Time(1.0, other.interval)
        )


def test_spreads_that_touch_overlap_and_a_factor_counts_only_beyond_noise() -> None:
    low, touching, high = (
        _stats.Time(1.0, (0.9, 1.1)),
        _stats.Time(1.5, (1.1, 1.9)),
        _stats.Time(3.0, (2.9, 3.1)),
    )
    assert _stats.spreads_overlap(low, touching)
    assert _stats.spreads_overlap(touching, low)
    assert not _stats.more(touching, low)  # a higher median within noise is not more
    assert _stats.more(high, low, factor=2.5)
    assert not _stats.more(high, low, factor=3)
    assert not _stats.more(low, high)


def test_public_names_are_documented_as_tcdoc_bench() -> None:
    for name in tcdoc.bench.__all__:
        value = getattr(tcdoc.bench, name)
        if callable(value):
            assert value.__module__ == "tcdoc.bench", name


# -- The sentences, on sweeps made up for each rule ----------------------------------------------


def _cost(method: str, nbytes: int, seconds: float, iqr: float, faults: float | None = 0.0) -> Cost:
    moved = 2 * nbytes if tcdoc.bench.copies_data(method) else 0
    return Cost(
        method=method,
        code=tcdoc.bench.code_of(method),
        nbytes=nbytes,
        seconds=seconds,
        iqr=iqr,
        q1=seconds - iqr / 2,
        q3=seconds + iqr / 2,
        blocks=20,
        calls=20,
        bytes_allocated=nbytes,
        bytes_moved=moved,
        page_faults=faults,
        bandwidth=moved / seconds,
        fraction_of_limit=0.0,
    )


# (seconds, iqr, page faults per call) of each method at 1 KiB and at 64 MiB: the shape that a
# quiet CPU gives, with fresh pages for each large copy.
QUIET = {
    ("detach", KIB): (4e-7, 2e-8, 0.0),
    ("detach", 64 * MIB): (6e-7, 2e-7, 0.0),
    ("clone", KIB): (1.3e-6, 1e-7, 0.0),
    ("clone", 64 * MIB): (40e-3, 6e-3, 16385.0),
    ("detach_clone", KIB): (1.8e-6, 1e-7, 0.0),
    ("detach_clone", 64 * MIB): (42e-3, 6e-3, 16385.0),
    ("deepcopy", KIB): (17e-6, 2e-6, 0.0),
    ("deepcopy", 64 * MIB): (43e-3, 8e-3, 16385.0),
    ("empty_like", KIB): (9e-7, 2e-7, 0.0),
    ("empty_like", 64 * MIB): (13e-6, 2e-6, 1.0),
    ("empty_like_copy", KIB): (2e-6, 3e-7, 0.0),
    ("empty_like_copy", 64 * MIB): (41e-3, 7e-3, 16385.0),
    ("copy_into", KIB): (8.6e-7, 5e-8, 0.0),
    ("copy_into", 64 * MIB): (8e-3, 1e-3, 0.0),
    ("mul_out", KIB): (3e-6, 5e-7, 0.0),
    ("mul_out", 64 * MIB): (8e-3, 1e-3, 0.0),
}


def _made_up(
    figures: Mapping[tuple[str, int], tuple[float, float, float | None]] = QUIET, scale: float = 1.0
) -> Sweep:
    costs = tuple(_cost(m, n, s * scale, iqr * scale, faults) for (m, n), (s, iqr, faults) in figures.items())
    largest = max(n for _, n in figures)
    into = next(c for c in costs if c.method == "copy_into" and c.nbytes == largest)
    limit = CopyLimit(
        nbytes=largest,
        seconds=into.seconds,
        iqr=into.iqr,
        q1=into.q1,
        q3=into.q3,
        blocks=20,
        bandwidth=into.bandwidth,
    )
    return Sweep(tcdoc.bench.machine(), limit, 0.1, 20, 0, costs)


def _with(**changes: tuple[float, float, float | None]) -> Sweep:
    figures: dict[tuple[str, int], tuple[float, float, float | None]] = dict(QUIET)
    for key, value in changes.items():
        method, size = key.rsplit("_at_", 1)
        figures[(method, KIB if size == "small" else 64 * MIB)] = value
    return _made_up(figures)


def test_findings_of_a_quiet_run() -> None:
    assert list(tcdoc.bench.findings(_made_up())) == [
        "From 1 KiB to 64 MiB, every method that copies took more than ten times as long, beyond noise; "
        "x.detach(), which copies nothing, did not.",
        "At 1 KiB, copy.deepcopy(x) cost more than x.clone(), beyond noise; at 64 MiB, copy.deepcopy(x) and "
        "x.clone() cost the same, within noise.",
        "At 64 MiB, x.clone(), x.detach().clone() and copy.deepcopy(x) cost the same, within noise.",
        "At 1 KiB, the copy itself dominates: there x.clone() took no page faults or, where it took some, "
        "did not cost more than twice out.copy_(x), beyond noise.",
        "At 64 MiB, fresh pages dominate: x.clone() took about one page fault for every 4 KiB of its result, "
        "and cost more than twice out.copy_(x), beyond noise. There torch.empty_like(x) alone cost less "
        "than a tenth of torch.empty_like(x).copy_(x), which cost more than twice out.copy_(x), beyond "
        "noise: asking for the memory is cheap, and the cost comes when its pages are first written.",
        "At 1 KiB, out.copy_(x) cost less than x.clone(), beyond noise; torch.mul(x, 1, out=out) did not "
        "cost less than x.clone(), beyond noise.",
        "At 64 MiB, writing into a buffer allocated once saves the fresh pages: out.copy_(x) and "
        "torch.mul(x, 1, out=out) cost less than x.clone(), beyond noise.",
    ]


def test_findings_do_not_change_when_every_time_scales() -> None:
    # A machine twice as slow, or a build with other work slowing every call alike, says the same.
    assert tcdoc.bench.findings(_made_up(scale=2.5)) == tcdoc.bench.findings(_made_up())


def test_findings_quote_no_measured_number() -> None:
    sweep = _made_up()
    for sentence in tcdoc.bench.findings(sweep):
        for words in [*(tcdoc.bench.code_of(m) for m in sweep.methods), "1 KiB", "4 KiB", "64 MiB"]:
            sentence = sentence.replace(words, "")
        assert not re.search(r"\d", sentence), sentence


def test_a_difference_is_stated_only_beyond_noise() -> None:
    # deepcopy 30% above clone at 64 MiB, but their spreads overlap: the same, within noise.
    overlapping = _with(deepcopy_at_large=(52e-3, 20e-3, 16385.0))
    assert "x.clone(), x.detach().clone() and copy.deepcopy(x) cost the same, within noise" in str(
        tcdoc.bench.findings(overlapping, "same work")
    )
    apart = _with(deepcopy_at_large=(60e-3, 2e-3, 16385.0), clone_at_large=(40e-3, 2e-3, 16385.0))
    assert list(tcdoc.bench.findings(apart, "same work")) == [
        "At 64 MiB, copy.deepcopy(x) cost more than x.clone(), beyond noise; "
        "copy.deepcopy(x) cost more than x.detach().clone(), beyond noise."
    ]


def test_fixed_cost_within_noise_is_not_called_a_difference() -> None:
    noisy = _with(deepcopy_at_small=(17e-6, 40e-6, 0.0))
    assert list(tcdoc.bench.findings(noisy, "fixed cost")) == [
        "At 1 KiB, copy.deepcopy(x) and x.clone() cost the same, within noise; "
        "at 64 MiB, copy.deepcopy(x) and x.clone() cost the same, within noise."
    ]


def test_without_page_faults_the_copy_dominates_however_slow() -> None:
    # Five times out.copy_(x), but no page faults: something else made the calls slow.
    reused = _with(clone_at_large=(40e-3, 1e-3, 0.2))
    assert list(tcdoc.bench.findings(reused, "allocation")) == [
        f"At {size}, the copy itself dominates: there x.clone() took no page faults or, where it "
        "took some, did not cost more than twice out.copy_(x), beyond noise."
        for size in ("1 KiB", "64 MiB")
    ]
    # No fresh pages to save: the buffer's saving is stated, without saying what it saves.
    assert "fresh pages" not in str(tcdoc.bench.findings(reused, "reuse"))


def test_page_faults_that_cost_little_read_the_same_as_none() -> None:
    # Whether a block comes back from the allocator depends on the process's past: some page
    # faults that do not double the time read the same as none.
    faulted = _with(clone_at_large=(12e-3, 2e-3, 256.0))
    none = _with(clone_at_large=(12e-3, 2e-3, 0.0))
    assert tcdoc.bench.findings(faulted) == tcdoc.bench.findings(none)
    assert "At 64 MiB, the copy itself dominates" in str(tcdoc.bench.findings(faulted))


def test_without_page_fault_counts_the_allocation_sentences_compare_times() -> None:
    figures = {key: (seconds, iqr, None) for key, (seconds, iqr, _) in QUIET.items()}
    sentences = list(tcdoc.bench.findings(_made_up(figures), "allocation"))
    assert sentences == [
        "At 1 KiB, x.clone() did not cost more than twice out.copy_(x), beyond noise: the copy dominates.",
        "At 64 MiB, x.clone() cost more than twice out.copy_(x), beyond noise: "
        "allocating its result dominates.",
    ]


def test_reuse_that_saves_nothing_beyond_noise_is_said() -> None:
    slow_mul = _with(mul_out_at_large=(35e-3, 10e-3, 0.0))
    assert list(tcdoc.bench.findings(slow_mul, "reuse"))[1:] == [
        "At 64 MiB, writing into a buffer allocated once saves the fresh pages: out.copy_(x) cost less than "
        "x.clone(), beyond noise; torch.mul(x, 1, out=out) did not cost less than x.clone(), beyond noise."
    ]


def test_each_topic_writes_as_many_sentences_whatever_the_times() -> None:
    # A page and the script downloaded from it run the sweep twice: they must print as many lines.
    runs = [
        _made_up(),
        _with(clone_at_large=(40e-3, 1e-3, 0.2)),  # no fresh pages
        _with(deepcopy_at_large=(60e-3, 2e-3, 16385.0), clone_at_large=(40e-3, 2e-3, 16385.0)),
        _with(mul_out_at_large=(35e-3, 10e-3, 0.0), empty_like_at_large=(30e-3, 2e-3, 1.0)),
        _with(deepcopy_at_small=(17e-6, 40e-6, 0.0), detach_at_large=(40e-3, 1e-3, 0.0)),
    ]
    for topic in tcdoc.bench.TOPICS:
        found = [tcdoc.bench.findings(run, topic) for run in runs]
        assert len({len(f) for f in found}) == 1, (topic, [list(f) for f in found])
        assert len({len(f.translations["zh_CN"]) for f in found}) == 1, topic
        assert len(set(map(str, found))) > 1, f"{topic}: every run says the same"


def test_findings_leave_out_what_was_not_measured() -> None:
    only = {key: value for key, value in QUIET.items() if key[0] in ("clone", "copy_into")}
    sentences = tcdoc.bench.findings(_made_up(only))
    assert not any("deepcopy" in s or "detach" in s or "empty_like" in s for s in sentences)
    assert "every method that copies took more than ten times as long" in str(sentences)


def test_findings_of_a_real_run_are_sentences(sweep: Sweep) -> None:
    for topic in tcdoc.bench.TOPICS:
        for sentence in tcdoc.bench.findings(sweep, topic):
            assert sentence[0].isupper(), sentence
            assert sentence.endswith("."), sentence


def test_findings_display_as_a_list() -> None:
    found = tcdoc.bench.findings(_made_up(), "same work")
    assert len(found) == 1
    assert repr(found).startswith("- At 64 MiB")
    assert found._repr_html_().startswith('<ul class="tcdoc-findings" lang="en"><li>At 64 MiB')
    assert "<code>x.detach().clone()</code>" in found._repr_html_()  # not x.detach() and x.clone()
    # The same findings in Chinese follow, hidden: the Chinese edition shows them instead.
    (chinese,) = found.translations["zh_CN"]
    assert chinese.startswith("在 64 MiB 时")
    assert chinese.endswith("。")
    assert '<ul class="tcdoc-findings" lang="zh-CN" hidden><li>在 64 MiB 时' in found._repr_html_()
    assert repr(tcdoc.bench.Findings(())) == "(no findings)"


def test_findings_check_their_arguments() -> None:
    with pytest.raises(TypeError, match=r"sweep must be a tcdoc\.bench\.Sweep, got dict"):
        tcdoc.bench.findings({})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="topic must be one of 'size'"):
        tcdoc.bench.findings(_made_up(), "speed")


# -- Command line ------------------------------------------------------------------------------


def test_tcdoc_bench_writes_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tcdoc.bench, "SMALL_SIZES", (1024,))
    out = tmp_path / "results.json"
    arguments = ["--out", str(out), "--min-run-time", str(FAST), "--blocks", "5", "--threads", "1"]
    assert main(["bench", *arguments]) == 0
    written = Sweep.from_json(out.read_text(encoding="utf-8"))
    assert written.sizes == (1024,)
    assert written.methods == tcdoc.bench.SMALL_METHODS
    assert written.blocks == 5
    assert written.machine.threads == 1
    printed = capsys.readouterr().out
    assert str(out) in printed
    assert "- At 1 KiB" in printed  # the sentences


def test_tcdoc_bench_reports_an_unwritable_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tcdoc.bench, "SMALL_SIZES", (1024,))
    out = tmp_path / "missing-folder" / "results.json"
    assert main(["bench", "--out", str(out), "--min-run-time", str(FAST), "--blocks", "5"]) == 2
    assert f"cannot write {out}" in capsys.readouterr().err


def test_tcdoc_bench_names_a_bad_block_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--out", str(tmp_path / "r.json"), "--blocks", "2"]) == 2
    assert "blocks must be 5 or more, got 2" in capsys.readouterr().err


# -- Bad arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"sizes": 1024}, TypeError, "sizes must be an iterable"),
        ({"sizes": "1024"}, TypeError, "sizes must be an iterable"),
        ({"sizes": [1024.0]}, TypeError, "sizes must hold ints"),
        ({"sizes": [True]}, TypeError, "sizes must hold ints"),
        ({"sizes": []}, ValueError, "at least one size"),
        ({"sizes": [0]}, ValueError, "positive multiples of 4"),
        ({"sizes": [1022]}, ValueError, "positive multiples of 4 bytes, got 1022"),
        ({"methods": "clone"}, TypeError, "methods must be an iterable"),
        ({"methods": []}, ValueError, "at least one method"),
        ({"methods": ["copy_"]}, ValueError, "got 'copy_'"),
        ({"device": 0}, TypeError, "device must be a str, got int"),
        ({"device": "mps"}, ValueError, "got 'mps'"),
        ({"min_run_time": "1"}, TypeError, "min_run_time must be a number"),
        ({"min_run_time": 0}, ValueError, "positive number of seconds, got 0"),
        ({"min_run_time": math.inf}, ValueError, "positive number of seconds, got inf"),
        ({"blocks": 4}, ValueError, "blocks must be 5 or more, got 4"),
        ({"blocks": 5.0}, TypeError, "blocks must be an int, got float"),
        ({"seed": -1}, ValueError, "seed must be 0 or more, got -1"),
        ({"seed": True}, TypeError, "seed must be an int, got bool"),
        ({"threads": 0}, ValueError, "threads must be 1 or more, got 0"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, Any], error: type[Exception], match: str) -> None:
    arguments = {"sizes": [1024], "methods": ["detach"], "min_run_time": FAST, "blocks": 5, **kwargs}
    with pytest.raises(error, match=match):
        tcdoc.bench.run(**arguments)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the error raised without CUDA")
def test_cuda_without_cuda_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="needs CUDA"):
        tcdoc.bench.run(sizes=[1024], device="cuda", min_run_time=FAST, blocks=5)


def test_code_of_rejects_unknown_methods() -> None:
    with pytest.raises(ValueError, match="method must be one of"):
        tcdoc.bench.code_of("view")
    with pytest.raises(ValueError, match="method must be one of"):
        tcdoc.bench.copies_data("view")


# -- Plots -------------------------------------------------------------------------------------


def test_plots_draw_one_line_with_bars_per_method(sweep: Sweep) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    import tcdoc.bench

    time_ax = tcdoc.bench.plot_time(sweep)
    bandwidth_ax = tcdoc.bench.plot_bandwidth(sweep)
    chosen_ax = tcdoc.bench.plot_time(sweep, methods=["copy_into", "clone"])
    try:
        assert time_ax.get_legend_handles_labels()[1] == [tcdoc.bench.code_of(m) for m in METHODS]
        assert len(time_ax.containers) == len(METHODS)  # one errorbar container each
        labels = bandwidth_ax.get_legend_handles_labels()[1]
        assert "x.detach()" not in labels  # it moved no bytes
        assert "torch.empty_like(x)" not in labels
        assert [label for label in labels if label.startswith("copy limit (out.copy_(x) at 4 KiB)")]
        assert len(bandwidth_ax.patches) == 1  # the limit's spread
        assert chosen_ax.get_legend_handles_labels()[1] == ["out.copy_(x)", "x.clone()"]
        assert list(time_ax.get_xticks()) == list(SIZES)
        with pytest.raises(TypeError, match=r"sweep must be a tcdoc\.bench\.Sweep"):
            tcdoc.bench.plot_time({})  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="methods must be among this sweep's"):
            tcdoc.bench.plot_time(sweep, methods=["view"])
        with pytest.raises(TypeError, match="methods must be an iterable"):
            tcdoc.bench.plot_bandwidth(sweep, methods="clone")
    finally:
        plt.close("all")


def test_bars_span_the_quartiles() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    skewed = _made_up()
    ax = tcdoc.bench.plot_time(skewed, methods=["clone"])
    try:
        (container,) = ax.containers
        from matplotlib.container import ErrorbarContainer

        assert isinstance(container, ErrorbarContainer)
        bars = container.lines[2][0].get_segments()
        assert [(low, high) for (_, low), (_, high) in bars] == [c.interval for c in skewed.of("clone")]
    finally:
        plt.close("all")


# -- The findings in Chinese -------------------------------------------------------------------

_CODE_OR_SIZE = re.compile(r"[\w.]*\w\([^()]*\)(?:\.\w+\([^()]*\))*|\d+ [KMG]iB|torch\.\w+|out|deepcopy|x")


def test_every_finding_has_its_chinese_twin_with_the_same_conclusion() -> None:
    cases = [
        _made_up(),
        _with(deepcopy_at_large=(60e-3, 2e-3, 16385.0), clone_at_large=(40e-3, 2e-3, 16385.0)),
        _with(deepcopy_at_small=(17e-6, 40e-6, 0.0)),
        _with(clone_at_large=(40e-3, 1e-3, 0.2)),
        _with(mul_out_at_large=(35e-3, 10e-3, 0.0)),
        _made_up({key: (seconds, iqr, None) for key, (seconds, iqr, _) in QUIET.items()}),
    ]
    for sweep in cases:
        for topic in tcdoc.bench.TOPICS:
            found = tcdoc.bench.findings(sweep, topic)
            chinese = found.translations["zh_CN"]
            assert len(chinese) == len(found), topic
            for english, words in zip(found, chinese, strict=True):
                assert words.endswith("。"), words
                # No English word is left, once code and sizes are taken out.
                assert not re.search(r"[A-Za-z]{2,}", _CODE_OR_SIZE.sub("", words)), words
                # The same code and sizes, in the same order: the same comparison, in Chinese.
                assert re.findall(r"\d+ [KMG]iB", words) == re.findall(r"\d+ [KMG]iB", english)
                assert ("超出噪声" in words) == ("beyond noise" in english), (english, words)
                assert ("噪声范围内" in words) == ("within noise" in english), (english, words)


def test_the_chinese_findings_display_only_where_a_page_asks_for_them() -> None:
    html = tcdoc.bench.findings(_made_up(), "size")._repr_html_()
    english, chinese = html.split("</ul>", 1)
    assert 'lang="en"' in english
    assert " hidden" not in english
    assert chinese.startswith('<ul class="tcdoc-findings" lang="zh-CN" hidden>')
    assert "从 1 KiB 到 64 MiB" in chinese


def test_a_plot_draws_again_in_chinese(sweep: Sweep) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tcdoc.draw import redraw

    ax = tcdoc.bench.plot_time(sweep)
    chinese = redraw(ax.figure, "zh_CN")  # type: ignore[arg-type]
    assert chinese is not None
    (drawn,) = chinese.axes
    assert drawn.get_title().startswith("单次调用的时间")
    assert drawn.get_xlabel() == "x 的大小"
    legends = drawn.get_legend(), ax.get_legend()
    assert None not in legends
    texts = [[t.get_text() for t in legend.get_texts()] for legend in legends if legend is not None]
    assert texts[0] == texts[1]  # the methods' code stays as it is
    bandwidth = tcdoc.bench.plot_bandwidth(sweep, language="zh_CN")
    assert bandwidth.get_title().startswith("实际带宽")
    plt.close("all")
