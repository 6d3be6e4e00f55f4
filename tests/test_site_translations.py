"""The site's own extension in the Chinese edition: the figures' variants and sphinx-gallery's words."""

from __future__ import annotations

import gettext
import json
from pathlib import Path
from types import SimpleNamespace

import matplotlib
import pytest
from docutils import nodes
from sphinx.errors import ExtensionError

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.text import Text

import tcdoc.bench
from tcdoc_site import _figures, _gallery_words, _printed_findings
from tcdoc_site._catalog import LOCALE_DIR


def chinese(message: str) -> str:
    return gettext.translation("tcdoc_site", str(LOCALE_DIR), languages=["zh_CN"]).gettext(message)


def test_every_plain_figure_word_has_a_chinese_translation() -> None:
    for message in _figures.PLAIN_FIGURE_WORDS:
        assert chinese(message) != message or message == "cos(x)", message


def test_an_examples_own_plot_is_copied_with_its_words_translated() -> None:
    figure, ax = plt.subplots()
    ax.plot([1, 2], [3, 4], label="cos(x)")
    ax.set(title="y = sin(x); tangent of y.detach(): None", xlabel="batches added to total")
    ax.legend()
    copy = _figures.translate_plain(figure, chinese)
    texts = {t.get_text() for t in copy.findobj(Text)}
    assert "y = sin(x)；y.detach() 的切向量：None" in texts  # the value the example filled in stays
    assert "累加到 total 的批次数" in texts
    assert ax.get_xlabel() == "batches added to total"  # the original is left as it was
    plt.close("all")


def test_a_plot_word_without_a_translation_stops_the_build() -> None:
    figure, ax = plt.subplots()
    ax.set_title("an unlisted title")
    with pytest.raises(ExtensionError, match="PLAIN_FIGURE_WORDS"):
        _figures.translate_plain(figure, chinese)
    plt.close("all")


def test_a_variant_lies_beside_its_figure() -> None:
    assert _figures.variant("/auto_examples/images/sphx_glr_a_002.png", "zh_CN").as_posix() == (
        "/auto_examples/images/sphx_glr_a_002.zh_CN.png"
    )


def test_a_card_shows_the_chinese_text_without_its_markup() -> None:
    assert _gallery_words._plain("``y = x.clone()`` 会复制 :func:`copy.deepcopy` 的") == (
        "y = x.clone() 会复制 copy.deepcopy 的"
    )


def _app(srcdir: Path, docname: str, language: str) -> SimpleNamespace:
    """Stand for the parts of a Sphinx app that translate_printed_findings reads."""
    return SimpleNamespace(
        srcdir=str(srcdir), env=SimpleNamespace(docname=docname), config=SimpleNamespace(language=language)
    )


def test_printed_findings_are_recorded_and_printed_in_chinese(tmp_path: Path) -> None:
    sweep = tcdoc.bench.run(sizes=[1024], methods=["clone", "deepcopy"], min_run_time=0.001, blocks=5)
    found = tcdoc.bench.findings(sweep)
    target = tmp_path / "auto_examples" / "plot_99_cost.py"
    target.parent.mkdir()
    block_vars = {"example_globals": {"sweep": sweep, "x": 1}, "target_file": str(target)}
    assert _printed_findings.scraper(None, block_vars, {}) == ""  # adds nothing to the page
    recorded = json.loads((tmp_path / "auto_examples" / "plot_99_cost.findings.json").read_text("utf-8"))
    assert recorded == {"zh_CN": dict(zip(found.sentences, found.translations["zh_CN"], strict=True))}

    printed = "size  clone\n" + str(found)  # a table's line, then the findings as print() writes them
    for language, expected in (("zh_CN", found.translations["zh_CN"]), ("en", found.sentences)):
        document = nodes.document(None, None)  # type: ignore[arg-type]
        document += nodes.literal_block(printed, printed)
        app = _app(tmp_path, "auto_examples/plot_99_cost", language)
        _printed_findings.translate_printed_findings(app, document)  # type: ignore[arg-type]
        (block,) = document.findall(nodes.literal_block)
        assert block.astext().split("\n") == ["size  clone", *expected]
        assert block.rawsource == block.astext()  # else Sphinx would not highlight it as it is


def test_a_page_without_recorded_findings_is_left_as_it_is(tmp_path: Path) -> None:
    document = nodes.document(None, None)  # type: ignore[arg-type]
    document += nodes.literal_block("At 1 KiB, beyond noise", "At 1 KiB, beyond noise")
    app = _app(tmp_path, "auto_examples/plot_01_clone", "zh_CN")
    _printed_findings.translate_printed_findings(app, document)  # type: ignore[arg-type]
    assert document.astext() == "At 1 KiB, beyond noise"


def test_the_chinese_build_stops_at_a_figure_without_its_chinese_variant(tmp_path: Path) -> None:
    from sphinx_gallery.directives import imgsgnode

    images = tmp_path / "auto_examples" / "images"
    images.mkdir(parents=True)
    (images / "sphx_glr_plot_01_clone_001.png").write_bytes(b"")

    class App:
        srcdir = tmp_path

        class config:  # stands for Sphinx's app.config
            language = "zh_CN"

    def document() -> nodes.document:
        doctree = nodes.document(None, None)  # type: ignore[arg-type]
        node = imgsgnode()
        node["uri"], node["srcset"], node["alt"] = (
            "/auto_examples/images/sphx_glr_plot_01_clone_001.png",
            None,
            "x",
        )
        doctree += node
        return doctree

    with pytest.raises(ExtensionError, match="apt-get install fonts-noto-cjk"):
        _figures.use_translated_figures(App, document())  # type: ignore[arg-type]
    (images / "sphx_glr_plot_01_clone_001.zh_CN.png").write_bytes(b"")
    (images / "sphx_glr_plot_01_clone_001.zh_CN.txt").write_text('y = x.clone()："新"', encoding="utf-8")
    shown = document()
    _figures.use_translated_figures(App, shown)  # type: ignore[arg-type]
    (node,) = shown.findall(imgsgnode)
    assert node["uri"] == "/auto_examples/images/sphx_glr_plot_01_clone_001.zh_CN.png"
    assert node["alt"] == 'y = x.clone()："新"'  # escaped later, with every figure (_a11y)
