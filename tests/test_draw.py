"""tcdoc.draw: the model behind each picture agrees with compare and with the tensors themselves."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import matplotlib
import pytest
import torch
from matplotlib.axes import Axes
from sphinx.testing.util import SphinxTestApp

import tcdoc
from tcdoc import draw

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle
from matplotlib.text import Text

CORE = ["clone", "detach", "detach_clone", "deepcopy", "data", "copy"]
SCENARIOS = ["leaf_requires_grad", "non_leaf", "no_grad", "strided_view"]


def made(operation: str, scenario: str) -> tuple[torch.Tensor, torch.Tensor] | None:
    """A fresh source and the operation's result, or None where the operation raises."""
    source = tcdoc.get_scenario(scenario).build(torch.device("cpu"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = tcdoc.get_operation(operation).apply(source)
        except RuntimeError:
            return None
    assert isinstance(result, torch.Tensor), f"{operation} returns a {type(result).__name__}"
    return source, result


def element_offsets(tensor: torch.Tensor) -> tuple[int, ...]:
    """Byte offsets of the elements of ``tensor`` in its storage, found by torch's own as_strided."""
    count = tensor.untyped_storage().nbytes() // tensor.element_size()
    index = torch.arange(count).as_strided(tensor.shape, tensor.stride(), tensor.storage_offset())
    return tuple(int(i) * tensor.element_size() for i in index.unique().tolist())


def snapshot(tensor: torch.Tensor) -> tuple[object, ...]:
    grad = tensor.grad if tensor.is_leaf else None
    return (
        tensor.detach().clone(),
        None if grad is None else grad.clone(),
        tensor._version,
        tensor.requires_grad,
        dict(vars(tensor)),
    )


def same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return all(
        torch.equal(x, y) if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) else x == y
        for x, y in zip(a, b, strict=True)
    )


# -- The model against compare and against the tensors --------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("operation", CORE)
def test_model_draws_what_compare_measured(operation: str, scenario: str) -> None:
    pair = made(operation, scenario)
    if pair is None:
        pytest.skip(f"{operation} raises on {scenario}; see test_a_raising_operation_is_a_failure_panel")
    source, result = pair
    report = tcdoc.compare(source, result)
    model = draw.diagram(source, result, tcdoc.get_operation(operation).code)

    assert model.shares_storage == report.shares_storage
    assert model.shares_version_counter == report.shares_version_counter
    assert report.new_bytes is not None
    # The picture draws y's data; a .grad the copy made too (deepcopy's) is counted apart.
    assert model.new_bytes == report.new_bytes - (report.new_grad_bytes or 0)
    assert model.new_object == report.new_object
    if report.gradient_flows_to_source:
        assert model.edge == "kept"
    else:
        assert model.edge == ("cut" if source.requires_grad else "none")
    assert (model.result.requires_grad, model.result.is_leaf) == (result.requires_grad, result.is_leaf)
    assert model.result.grad_fn == (None if result.grad_fn is None else type(result.grad_fn).__name__)
    assert model.result.type_name == type(result).__name__


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("operation", CORE)
def test_storage_bars_and_spans_match_the_tensors(operation: str, scenario: str) -> None:
    pair = made(operation, scenario)
    if pair is None:
        pytest.skip(f"{operation} raises on {scenario}")
    source, result = pair
    model = draw.diagram(source, result)
    one = result.untyped_storage().data_ptr() == source.untyped_storage().data_ptr()

    assert len(model.storages) == (1 if one else 2)
    assert model.storages[0].users == (("x", "y") if one else ("x",))
    for box, tensor in ((model.source, source), (model.result, result)):
        bar = model.storages[box.storage]
        assert bar.nbytes == tensor.untyped_storage().nbytes()
        assert box.span.elements == element_offsets(tensor)
        assert box.span.offset == min(box.span.elements)
        assert box.span.end == max(box.span.elements) + tensor.element_size()
        assert (box.shape, box.strides) == (tuple(tensor.shape), tuple(tensor.stride()))
    if not one:
        assert model.storages[1].nbytes == model.new_bytes


def test_a_view_with_an_offset_is_marked_where_it_starts() -> None:
    base = torch.arange(8.0)
    model = draw.diagram(base, base[2:5], "x[2:5]")
    assert len(model.storages) == 1
    assert model.storages[0].shared
    assert model.shares_storage
    assert (model.result.span.offset, model.result.span.extent) == (2 * 4, 3 * 4)
    assert (model.source.span.offset, model.source.span.extent) == (0, 8 * 4)
    assert model.new_bytes == 0


def test_interleaved_slices_are_one_storage_with_no_byte_in_common() -> None:
    base = torch.arange(8.0)
    model = draw.diagram(base[0::2], base[1::2])
    assert len(model.storages) == 1
    assert not model.shares_storage
    assert set(model.source.span.elements or ()).isdisjoint(model.result.span.elements or ())
    assert "no byte in common" in draw.alt_text(model)


def test_the_same_object_is_one_box() -> None:
    x = torch.ones(3, requires_grad=True)
    model = draw.diagram(x, x.contiguous(), "x.contiguous()")
    assert model.edge == "same object"
    assert not model.new_object
    figure = draw.draw(x, x.contiguous(), "x.contiguous()")
    assert len(boxes(figure.axes[0])) == 1


def test_names_title_the_picture_and_its_alt_text() -> None:
    y = torch.ones(3, requires_grad=True).exp()
    d = y.detach()
    model = draw.diagram(y, d, "y.detach()", names=("y", "d"))
    assert model.heading == "d = y.detach()"
    assert (model.source.name, model.result.name) == ("y", "d")
    assert model.storages[0].users == ("y", "d")
    words = draw.alt_text(model)
    assert words.startswith("d = y.detach(): a new object. y: Tensor")
    assert "Autograd edge from d to y: cut" in words
    figure = draw.draw(y, d, "y.detach()", names=("y", "d"))
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert "d = y.detach()" in texts
    assert figure.get_suptitle() == words
    same = draw.diagram(y, y, "y", names=("y", "z"))
    assert "z is y" in draw.alt_text(same)


def test_a_large_storage_lists_no_elements() -> None:
    x = torch.zeros(draw.MAX_CELLS + 1)
    model = draw.diagram(x, x.clone())
    assert model.source.span.elements is None
    assert (model.source.span.offset, model.source.span.extent) == (0, x.untyped_storage().nbytes())


def test_a_raising_operation_is_a_failure_panel() -> None:
    (model,) = draw.diagrams(["deepcopy"], "non_leaf")
    assert isinstance(model, draw.Failure)
    row = tcdoc.probe("deepcopy", "non_leaf")
    assert row.error is not None
    assert (model.error_type, model.message) == (row.error.type, row.error.message)
    assert draw.alt_text(model).startswith(f"y = copy.deepcopy(x) raises {row.error.type}")


# -- Alt text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("operation", CORE)
def test_alt_text_states_the_facts_of_the_model(operation: str) -> None:
    source, result = made(operation, "leaf_requires_grad") or pytest.fail("no result")
    model = draw.diagram(source, result, tcdoc.get_operation(operation).code)
    text = draw.alt_text(model)
    assert text.startswith(model.heading)
    assert f"Version counter: {'shared' if model.shares_version_counter else 'separate'}." in text
    assert f"Autograd edge from y to x: {model.edge}" in text
    assert f"{model.new_bytes} new bytes" in text
    assert ("one storage" if len(model.storages) == 1 else "two storages") in text
    for line in (*model.source.lines(), *model.result.lines()):
        assert line in text


# -- Rendering ----------------------------------------------------------------------------------


def boxes(ax: Axes) -> list[FancyBboxPatch]:
    colours = {to_rgba(draw.COLOURS[name]) for name in ("x", "y")}
    return [p for p in ax.patches if isinstance(p, FancyBboxPatch) and p.get_edgecolor() in colours]


def cells(ax: Axes, name: str) -> int:
    colour = to_rgba(draw.COLOURS[name])
    return sum(1 for p in ax.patches if isinstance(p, Rectangle) and p.get_facecolor() == colour)


@pytest.mark.parametrize("operation", CORE)
def test_draw_renders_the_model(operation: str) -> None:
    source, result = made(operation, "leaf_requires_grad") or pytest.fail("no result")
    model = draw.diagram(source, result)
    figure = draw.draw(source, result)
    assert isinstance(figure, Figure)
    (ax,) = figure.axes
    assert len(boxes(ax)) == 2
    assert cells(ax, "x") == len(model.source.span.elements or ())
    assert cells(ax, "y") == len(model.result.span.elements or ())
    kept = to_rgba(draw.COLOURS["kept"])
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch) and p.get_edgecolor() == kept]
    assert len(arrows) == (1 if model.edge == "kept" else 0)
    cut_marks = [line for line in ax.lines if line.get_marker() == "X"]
    assert len(cut_marks) == (1 if model.edge == "cut" else 0)
    version_spots = [line for line in ax.lines if line.get_marker() == "o"]
    assert len(version_spots) == (1 if model.shares_version_counter else 2)
    figure.canvas.draw()  # renders without error
    plt.close(figure)


def test_draw_on_given_axes_returns_its_figure() -> None:
    figure = Figure()
    ax = figure.add_subplot()
    x = torch.ones(2)
    assert draw.draw(x, x.clone(), ax=ax) is figure


def test_draw_operations_makes_one_panel_each() -> None:
    figure = draw.draw_operations(["clone", "detach", "deepcopy"], "non_leaf", columns=3)
    assert len(figure.axes) == 3
    texts = [t.get_text() for t in figure.axes[2].texts]
    assert "raises RuntimeError" in texts
    figure.canvas.draw()
    plt.close(figure)


def test_draw_panels_into_a_given_figure() -> None:
    figure = Figure()
    assert draw.draw_panels(draw.diagrams(CORE, "leaf_requires_grad"), 2, figure) is figure
    assert len(figure.axes) == len(CORE)
    assert tuple(figure.get_size_inches()) == (8.4, 8.25)


def test_drawing_leaves_the_tensors_alone() -> None:
    source = tcdoc.get_scenario("leaf_requires_grad").build(torch.device("cpu"))
    result = source.clone()
    before = snapshot(source), snapshot(result)
    draw.diagram(source, result)
    plt.close(draw.draw(source, result))
    assert same(snapshot(source), before[0])
    assert same(snapshot(result), before[1])


# -- Bad arguments ------------------------------------------------------------------------------
# The calls marked with type: ignore pass an argument of the wrong type on purpose.


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: draw.diagram([1.0], torch.ones(1)), TypeError, "source must be a torch.Tensor, got list"),  # type: ignore[arg-type]
        (lambda: draw.diagram(torch.ones(1), 2), TypeError, "result must be a torch.Tensor, got int"),  # type: ignore[arg-type]
        (lambda: draw.diagram(torch.ones(1), torch.ones(1), 3), TypeError, "code must be a str"),  # type: ignore[arg-type]
        (lambda: draw.diagram(torch.ones(1), torch.ones(1), names=("x", "x")), ValueError, "names must be"),
        (lambda: draw.draw(torch.ones(1), torch.ones(1), names=("x",)), ValueError, "names must be"),  # type: ignore[arg-type]
        (lambda: draw.diagrams("clone", "no_grad"), TypeError, "operations must be a list"),
        (lambda: draw.diagrams(["nope"], "no_grad"), ValueError, "unknown operation 'nope'"),
        (lambda: draw.diagrams(["clone"], "nope"), ValueError, "unknown scenario 'nope'"),
        (lambda: draw.diagrams([], "no_grad"), ValueError, "operations is empty"),
        (lambda: draw.diagrams(["clone"], "no_grad", "tpu"), ValueError, "device must be"),
        (lambda: draw.draw(torch.ones(1), torch.ones(1), ax="left"), TypeError, "ax must be"),  # type: ignore[arg-type]
        (lambda: draw.draw_operations(["clone"], "no_grad", columns=0), ValueError, "columns must"),
        (lambda: draw.draw_panels([]), ValueError, "models must be a non-empty"),
        (lambda: draw.draw_panels([3]), TypeError, "each model must be"),  # type: ignore[list-item]
        (lambda: draw.alt_text("x"), TypeError, "model must be a Diagram or a Failure, got str"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_named(call: Callable[[], object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_draw_panels_wants_an_empty_figure() -> None:
    figure = Figure()
    figure.add_subplot()
    with pytest.raises(ValueError, match="figure must be empty"):
        draw.draw_panels(draw.diagrams(["clone"], "no_grad"), figure=figure)


def test_the_core_package_does_not_import_matplotlib() -> None:
    import subprocess
    import sys

    code = "import sys, tcdoc, tcdoc.draw; print('matplotlib' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "False"


# -- The Sphinx directive ------------------------------------------------------------------------


@pytest.mark.sphinx("html", testroot="diagram", freshenv=True)
def test_directive_writes_an_image_with_alt_text_outside_the_sources(app: SphinxTestApp) -> None:
    from docutils import nodes

    app.build()
    assert app.warning.getvalue() == ""
    (figure,) = app.env.get_doctree("index").findall(nodes.figure)
    assert "tcdoc-diagram" in figure["classes"]
    image = figure.next_node(nodes.image)
    assert image is not None
    # Drawn next to the doctrees, and copied into the HTML's _images.
    drawn = list((app.doctreedir / "tcdoc-diagrams").glob("tcdoc-diagram-*.png"))
    assert len(drawn) == 1
    assert image["uri"].endswith(f"/tcdoc-diagrams/{drawn[0].name}")
    images = list((app.outdir / "_images").glob("tcdoc-diagram-*.png"))
    assert [path.name for path in images] == [drawn[0].name]
    for model in draw.diagrams(["clone", "detach"], "no_grad"):
        first_sentences = draw.alt_text(model).split(" Memory:")[0]
        assert first_sentences in image["alt"]
    assert image["alt"].startswith("x is a plain tensor")
    caption_node = figure.next_node(nodes.caption)
    assert caption_node is not None
    caption = caption_node.astext()
    assert (
        caption
        == f"x: {tcdoc.get_scenario('no_grad').summary} Drawn from measurements with {tcdoc.environment()}."
    )
    # Nothing was written into the sources: only the build folder is new.
    assert sorted(path.name for path in app.srcdir.iterdir()) == ["_build", "conf.py", "index.rst"]
    assert app.doctreedir.is_relative_to(app.srcdir / "_build")


@pytest.mark.sphinx("html", testroot="diagram-error", freshenv=True)
def test_directive_reports_unknown_operations_and_scenarios(app: SphinxTestApp) -> None:
    from docutils import nodes

    app.build()
    warnings = app.warning.getvalue()
    assert "tcdoc-diagram: unknown operation 'nope'" in warnings
    assert "tcdoc-diagram: unknown scenario 'nowhere'" in warnings
    assert not list(app.env.get_doctree("index").findall(nodes.figure))


def test_an_inference_tensor_is_drawn_without_a_version_counter() -> None:
    with torch.inference_mode():
        x = torch.ones(3)
    model = draw.diagram(x, x.detach(), "x.detach()")
    assert model.shares_version_counter is None
    assert model.source.version is None
    assert "Version counter: none, inference tensors have no version counter." in draw.alt_text(model)


def test_what_cannot_be_drawn_is_refused_with_a_reason() -> None:
    x = torch.ones(2, 2)
    with pytest.raises(TypeError, match=r"result must be a torch\.Tensor, got list"):
        draw.diagram(x, x.tolist())  # type: ignore[arg-type]  # a list, on purpose
    with pytest.raises(ValueError, match=r"tcdoc\.draw draws strided tensors only"):
        draw.diagram(x.to_sparse(), x.to_sparse())
    with pytest.raises(TypeError, match=r"x.tolist\(\) returns a list, not a tensor"):
        draw.diagrams(["tolist"], "no_grad")


# -- Other languages ---------------------------------------------------------------------------


def test_a_picture_in_chinese_has_chinese_labels_and_alt_text() -> None:
    x = torch.ones(2, 3, requires_grad=True)
    english = draw.draw(x, x.detach(), "x.detach()")
    chinese = draw.draw(x, x.detach(), "x.detach()", language="zh_CN")
    words = {t.get_text() for t in chinese.findobj(Text)}
    assert "自动求导：已切断" in words
    assert "一个版本\n计数器" in words
    assert "autograd: cut" not in words
    assert "autograd: cut" in {t.get_text() for t in english.findobj(Text)}
    assert "y = x.detach()" in words  # code stays as it is
    assert chinese.get_suptitle().startswith("y = x.detach()：一个新对象。")
    assert "从 y 到 x 的自动求导边：已切断。" in chinese.get_suptitle()
    from tcdoc.draw._render import cjk_font

    font = cjk_font()
    assert all(font in t.get_fontfamily() for t in chinese.findobj(Text) if t.get_text())
    plt.close("all")


def test_redraw_gives_the_same_picture_in_another_language() -> None:
    figure = draw.draw_operations(["clone", "deepcopy"], "non_leaf")
    chinese = draw.redraw(figure, "zh_CN")
    assert chinese is not None
    assert len(chinese.axes) == len(figure.axes)
    assert "抛出 RuntimeError" in {t.get_text() for t in chinese.findobj(Text)}
    english = draw.redraw(chinese, "en")
    assert english is not None
    assert english.get_suptitle() == figure.get_suptitle()
    assert draw.redraw(plt.figure(), "zh_CN") is None  # not drawn by tcdoc
    with pytest.raises(ValueError, match="language must be one of 'en', 'zh_CN'"):
        draw.redraw(figure, "fr")
    plt.close("all")


def test_chinese_labels_without_a_cjk_font_are_an_error_that_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tcdoc.draw import _render

    monkeypatch.setattr(_render, "CJK_FONTS", ("No Such Font CJK",))
    _render.cjk_font.cache_clear()
    try:
        x = torch.ones(2)
        with pytest.raises(RuntimeError, match="apt-get install fonts-noto-cjk"):
            draw.draw(x, x.clone(), language="zh_CN")
        draw.draw(x, x.clone())  # English needs no such font
    finally:
        monkeypatch.undo()
        _render.cjk_font.cache_clear()
    plt.close("all")
