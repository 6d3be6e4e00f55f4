"""What ``nox -s reproducible`` (``benchmarks/reproducible.py``) compares of two builds of a page."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import load_script

COST_PAGE = Path("auto_examples/plot_19_cost.html")
OTHER_PAGE = Path("auto_examples/plot_01_clone.html")


@pytest.fixture
def reproducible() -> ModuleType:
    """``benchmarks/reproducible.py``, a script beside its helper ``_site.py``."""
    return load_script("benchmarks/reproducible.py")


def page(html: Path, name: Path, printed: str, prose: str = "<p>The sweep</p>") -> None:
    """Write a page as sphinx-gallery lays one out: prose, then what a cell printed."""
    path = html / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'{prose}<div class="sphx-glr-script-out highlight-none notranslate"><div class="highlight">'
        f"<pre><span></span>{printed}</pre></div></div>"
        "<p>Total running time of the script: (0 minutes 12.345 seconds)</p>",
        encoding="utf-8",
    )


def test_a_cost_page_may_print_other_times_and_sentences(reproducible: ModuleType, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    page(first, COST_PAGE, "12.5 ms\nAt 64 MiB, fresh pages dominate.\n")
    page(second, COST_PAGE, "25.8 ms\nAt 64 MiB, the copy itself dominates.\n")
    assert reproducible.compared(first, COST_PAGE) == reproducible.compared(second, COST_PAGE)


def test_a_cost_page_must_print_as_many_lines(reproducible: ModuleType, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    page(first, COST_PAGE, "12.5 ms\nAt 1 KiB and 64 KiB, the copy dominates.\n")
    page(second, COST_PAGE, "25.8 ms\nAt 1 KiB, the copy dominates.\nAt 64 KiB, the copy dominates.\n")
    assert reproducible.compared(first, COST_PAGE) != reproducible.compared(second, COST_PAGE)


def test_a_cost_page_must_say_the_same_around_its_outputs(reproducible: ModuleType, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    page(first, COST_PAGE, "12.5 ms\n", prose="<p>The sweep</p>")
    page(second, COST_PAGE, "12.5 ms\n", prose="<p>The other sweep</p>")
    assert reproducible.compared(first, COST_PAGE) != reproducible.compared(second, COST_PAGE)


def test_any_other_page_must_print_the_same(reproducible: ModuleType, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    page(first, OTHER_PAGE, "x.clone() is a new tensor\n")
    page(second, OTHER_PAGE, "x.clone() is the same tensor\n")
    assert reproducible.compared(first, OTHER_PAGE) != reproducible.compared(second, OTHER_PAGE)
    # Only sphinx-gallery's running time may differ there.
    third = tmp_path / "third"
    page(third, OTHER_PAGE, "x.clone() is a new tensor\n")
    (third / OTHER_PAGE).write_text(
        (third / OTHER_PAGE).read_text("utf-8").replace("12.345", "3.2"), encoding="utf-8"
    )
    assert reproducible.compared(first, OTHER_PAGE) == reproducible.compared(third, OTHER_PAGE)


def test_another_editions_pages_are_left_out_of_the_comparison(
    reproducible: ModuleType, tmp_path: Path
) -> None:
    """``--first`` compares the docs build, which holds zh_CN/, with a new build of the English edition."""
    first, second = tmp_path / "first", tmp_path / "second"
    page(first, OTHER_PAGE, "x.clone() is a new tensor\n")
    page(second, OTHER_PAGE, "x.clone() is a new tensor\n")
    page(first, "zh_CN" / OTHER_PAGE, "x.clone() 是一个新张量\n")
    assert reproducible.differing(first, second) == []
    page(second, OTHER_PAGE, "x.clone() is the same tensor\n")
    assert reproducible.differing(first, second) == [OTHER_PAGE]
    page(second, Path("extra.html"), "")
    assert reproducible.differing(first, second) is None


def test_the_computation_times_pages_are_left_out(reproducible: ModuleType, tmp_path: Path) -> None:
    """A clean build may or may not hold the site's computation-times page: it is timings only."""
    first, second = tmp_path / "first", tmp_path / "second"
    for html in (first, second):
        page(html, OTHER_PAGE, "x.clone() is a new tensor\n")
    page(first, Path("sg_execution_times.html"), "00:12.345\n")
    page(first, Path("auto_examples/sg_execution_times.html"), "00:12.345\n")
    page(second, Path("auto_examples/sg_execution_times.html"), "00:03.210 and another row\n")
    assert reproducible.differing(first, second) == []
