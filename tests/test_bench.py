"""tcdoc.bench: the sweep's shape and units on tiny sizes (never its timings), JSON, argument checks."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
import torch

import tcdoc.bench
from tcdoc.bench import METHODS, Sweep
from tcdoc.cli import main

SIZES = (1024, 4096)
FAST = 0.001  # seconds per measurement: enough to get a number, far too little to trust it


@pytest.fixture(scope="module")
def sweep() -> Sweep:
    return tcdoc.bench.run(sizes=SIZES, min_run_time=FAST)


# -- Shape -----------------------------------------------------------------------------------


def test_one_cost_per_method_and_size(sweep):
    assert sweep.sizes == SIZES
    assert sweep.methods == METHODS
    assert len(sweep.costs) == len(SIZES) * len(METHODS)
    assert {(c.method, c.nbytes) for c in sweep.costs} == {(m, n) for m in METHODS for n in SIZES}


def test_sizes_are_sorted_and_deduplicated():
    small = tcdoc.bench.run(sizes=[4096, 1024, 4096], methods=["detach"], min_run_time=FAST)
    assert small.sizes == (1024, 4096)
    assert len(small.costs) == 2


def test_code_is_the_registry_code_or_the_one_extra_method(sweep):
    for cost in sweep.costs:
        assert cost.code == tcdoc.bench.code_of(cost.method)
        if cost.method != "empty_like_copy":
            assert cost.code == tcdoc.get_operation(cost.method).code
    assert sweep.get("empty_like_copy", 1024).code == "torch.empty_like(x).copy_(x)"


def test_of_returns_one_method_smallest_first(sweep):
    costs = sweep.of("clone")
    assert [c.nbytes for c in costs] == list(SIZES)
    assert {c.method for c in costs} == {"clone"}


# -- Units -----------------------------------------------------------------------------------


def test_times_are_positive_seconds_over_at_least_one_call(sweep):
    for cost in [*sweep.costs]:
        assert math.isfinite(cost.seconds)
        assert cost.seconds > 0
        assert cost.calls >= 1
    assert sweep.limit.seconds > 0


def test_bytes_allocated_are_the_new_storage(sweep):
    for cost in sweep.costs:
        expected = 0 if cost.method == "detach" else cost.nbytes
        assert cost.bytes_allocated == expected, cost


def test_bandwidth_is_bytes_moved_per_second(sweep):
    for cost in sweep.costs:
        assert cost.bytes_moved == 2 * cost.bytes_allocated
        assert cost.bandwidth == pytest.approx(cost.bytes_moved / cost.seconds)


def test_fraction_is_bandwidth_over_the_limit(sweep):
    limit = sweep.limit
    assert limit.nbytes == max(SIZES)
    assert limit.bandwidth == pytest.approx(2 * limit.nbytes / limit.seconds)
    for cost in sweep.costs:
        assert cost.fraction_of_limit == pytest.approx(cost.bandwidth / limit.bandwidth)
    assert sweep.get("detach", 1024).fraction_of_limit == 0


def test_machine_describes_this_torch(sweep):
    assert sweep.machine.torch == torch.__version__
    assert sweep.machine.threads == torch.get_num_threads()
    assert sweep.machine.device == "cpu"
    assert sweep.machine.cpu
    assert sweep.min_run_time == FAST


def test_run_leaves_the_thread_count_alone():
    before = torch.get_num_threads()
    tcdoc.bench.run(sizes=[1024], methods=["clone"], min_run_time=FAST)
    assert torch.get_num_threads() == before


def test_torch_tensor_warning_does_not_escape():
    # pytest turns warnings into errors (pyproject.toml), so a leaked warning fails this test.
    small = tcdoc.bench.run(sizes=[1024], methods=["torch_tensor"], min_run_time=FAST)
    assert small.get("torch_tensor", 1024).bytes_allocated == 1024


# -- Display and JSON --------------------------------------------------------------------------


def test_repr_and_html_list_every_measurement(sweep):
    text = repr(sweep)
    html = sweep._repr_html_()
    assert text.count("\n") == 2 + len(sweep.costs)  # machine, limit, header, rows
    assert html.count("<tr>") == 1 + len(sweep.costs)
    for code in {c.code for c in sweep.costs}:
        assert code in text
    assert "torch.empty_like(x).copy_(x)" in html
    assert torch.__version__ in text


def test_summaries_are_computed_from_the_costs(sweep):
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
    assert f"{overhead * 1e6:.1f} µs more than x.clone()" in headline


def test_deepcopy_overhead_needs_both_methods():
    only_detach = tcdoc.bench.run(sizes=[1024], methods=["detach"], min_run_time=FAST)
    with pytest.raises(ValueError, match="no measurement of 'deepcopy'"):
        only_detach.deepcopy_overhead()


def test_json_round_trip(sweep):
    text = sweep.to_json()
    data = json.loads(text)
    assert data["schema"] == tcdoc.bench.SCHEMA
    assert {field.name for field in dataclasses.fields(tcdoc.bench.Cost)} == set(data["costs"][0])
    assert Sweep.from_json(text) == sweep


def test_from_json_rejects_other_layouts():
    with pytest.raises(ValueError, match="schema"):
        Sweep.from_json(json.dumps({"schema": 999}))
    with pytest.raises(TypeError, match="text must be a str"):
        Sweep.from_json(b"{}")  # type: ignore[arg-type]


def test_get_names_what_is_missing(sweep):
    with pytest.raises(ValueError, match="no measurement of 'clone' at nbytes=2048"):
        sweep.get("clone", 2048)
    with pytest.raises(ValueError, match="method must be one of"):
        sweep.of("nope")


def test_formatting():
    assert tcdoc.bench.format_size(256 * 1024 * 1024) == "256 MiB"
    assert tcdoc.bench.format_size(1024) == "1 KiB"
    assert tcdoc.bench.format_duration(2.5e-3) == "2.5 ms"
    assert tcdoc.bench.format_duration(4e-7) == "400 ns"


def test_default_sweeps_span_the_documented_sizes():
    assert tcdoc.bench.FULL_SIZES[0] == 1024
    assert tcdoc.bench.FULL_SIZES[-1] == 256 * 1024 * 1024
    assert set(tcdoc.bench.SMALL_SIZES) <= set(tcdoc.bench.FULL_SIZES)


# -- Command line ------------------------------------------------------------------------------


def test_tcdoc_bench_writes_json(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tcdoc.bench, "SMALL_SIZES", (1024,))
    out = tmp_path / "results.json"
    assert main(["bench", "--out", str(out), "--min-run-time", str(FAST)]) == 0
    written = Sweep.from_json(out.read_text(encoding="utf-8"))
    assert written.sizes == (1024,)
    assert written.methods == METHODS
    assert str(out) in capsys.readouterr().out


def test_tcdoc_bench_reports_an_unwritable_path(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tcdoc.bench, "SMALL_SIZES", (1024,))
    out = tmp_path / "missing-folder" / "results.json"
    assert main(["bench", "--out", str(out), "--min-run-time", str(FAST)]) == 2
    assert f"cannot write {out}" in capsys.readouterr().err


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
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    arguments = {"sizes": [1024], "methods": ["detach"], "min_run_time": FAST, **kwargs}
    with pytest.raises(error, match=match):
        tcdoc.bench.run(**arguments)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the error raised without CUDA")
def test_cuda_without_cuda_is_a_clear_error():
    with pytest.raises(ValueError, match="needs CUDA"):
        tcdoc.bench.run(sizes=[1024], device="cuda", min_run_time=FAST)


def test_code_of_rejects_unknown_methods():
    with pytest.raises(ValueError, match="method must be one of"):
        tcdoc.bench.code_of("view")


# -- Plots -------------------------------------------------------------------------------------


def test_plots_draw_one_line_per_method(sweep):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    import tcdoc.bench

    time_ax = tcdoc.bench.plot_time(sweep)
    bandwidth_ax = tcdoc.bench.plot_bandwidth(sweep)
    try:
        assert [line.get_label() for line in time_ax.get_lines()] == [tcdoc.bench.code_of(m) for m in METHODS]
        labels = [line.get_label() for line in bandwidth_ax.get_lines()]
        assert "x.detach()" not in labels  # it moved no bytes
        assert labels[-1].startswith("copy limit")
        assert list(time_ax.get_xticks()) == list(SIZES)
        with pytest.raises(TypeError, match=r"sweep must be a tcdoc\.bench\.Sweep"):
            tcdoc.bench.plot_time({})  # type: ignore[arg-type]
    finally:
        plt.close("all")
