"""tools/sentences.py cuts the built pages' prose into sentences and counts their words (issue 32).

The small pages below are written by hand, each with what must be read and what must be left out;
the last tests run the tool on the built site, and are skipped when there is none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import load_script

TOOL = load_script("tools/sentences.py")
SITE = Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"


def page(body: str, lang: str = "en") -> str:
    """A built page as furo writes it: navigation and footer around the article that holds ``body``."""
    return (
        f'<html class="no-js" lang="{lang}"><body><nav class="sidebar">Home. Explanation.</nav>'
        f'<div class="page"><article role="main" id="furo-main-content">{body}</article>'
        "<footer><p>Made with Sphinx and furo.</p></footer></div></body></html>"
    )


def texts(body: str) -> list[str]:
    return [sentence.text for sentence in TOOL.sentences(page(body))]


def lengths(body: str) -> list[int]:
    return [sentence.length for sentence in TOOL.sentences(page(body))]


# -- Cutting English prose into sentences -------------------------------------------------------


def test_a_sentence_ends_at_a_full_stop_a_question_mark_and_an_exclamation_mark() -> None:
    assert texts("<p>It copies. Does it share? No! Then it is safe.</p>") == [
        "It copies.",
        "Does it share?",
        "No!",
        "Then it is safe.",
    ]


def test_abbreviations_versions_and_dotted_names_end_no_sentence() -> None:
    body = (
        "<p>Copy it first, e.g. with clone, i.e. into new memory, as torch 2.13.0 and 2.4.1 do"
        " for torch.save vs. pickle, cf. the table. Next one.</p>"
    )
    found = TOOL.sentences(page(body))
    assert [s.length for s in found] == [23, 2]
    assert found[0].text.endswith("cf. the table.")


def test_inline_code_is_one_word_and_its_dots_end_nothing() -> None:
    body = (
        '<p>Call <code class="docutils literal notranslate"><span class="pre">y</span> '
        '<span class="pre">=</span> <span class="pre">x.clone()</span></code>. '
        'Then <code class="docutils literal notranslate"><span class="pre">y.add_(1)</span></code>'
        " leaves x alone.</p>"
    )
    found = TOOL.sentences(page(body))
    assert [(s.text, s.length) for s in found] == [
        ("Call y = x.clone().", 2),
        ("Then y.add_(1) leaves x alone.", 5),
    ]


def test_a_code_span_with_text_against_it_is_one_word() -> None:
    assert lengths("<p>Both (<code>x.clone()</code>, <code>x.detach()</code>) copy.</p>") == [4]


def test_a_colon_or_semicolon_ends_no_sentence_but_a_paragraph_before_a_list_is_one() -> None:
    body = "<p>Two answers: it copies; it shares.</p><p>The steps are:</p><ul><li><p>clone it</p></li></ul>"
    assert texts(body) == ["Two answers: it copies; it shares.", "The steps are:", "clone it"]


def test_a_step_number_and_a_quoted_question_end_no_sentence() -> None:
    body = "<p>2. Does y share memory? See <a>Which copy do I need?</a> for the answer. It does.</p>"
    assert texts(body) == ["2. Does y share memory?", "See Which copy do I need? for the answer.", "It does."]


def test_a_full_stop_before_a_word_in_lowercase_still_ends_a_sentence() -> None:
    assert lengths("<p>It is cut off again. detach() first is cheaper.</p>") == [5, 4]


def test_closing_quotes_and_brackets_after_the_mark_belong_to_the_sentence() -> None:
    assert texts("<p>It says “no copy.” (Measured here.) Done.</p>") == [
        "It says “no copy.”",
        "(Measured here.)",
        "Done.",
    ]


def test_a_paragraph_of_code_alone_and_marks_alone_are_no_sentence() -> None:
    body = "<p><code>RuntimeError: Only Tensors created explicitly by the user support it.</code></p><p>—</p>"
    assert texts(body) == []


# -- What is prose --------------------------------------------------------------------------------


def test_only_the_main_article_is_read() -> None:
    assert texts("<p>The page.</p>") == ["The page."]


def test_code_tables_and_output_are_left_out() -> None:
    body = (
        "<p>Before the code.</p>"
        '<div class="highlight-Python notranslate"><div class="highlight">'
        "<pre>y = x.clone()  # a copy.</pre></div></div>"
        '<div class="doctest highlight-default notranslate"><div class="highlight">'
        "<pre>&gt;&gt;&gt; 1 + 1.</pre></div></div>"
        '<div class="sphx-glr-script-out highlight-none notranslate"><div class="highlight">'
        "<pre>y is x = False.</pre></div></div>"
        '<div class="output_subarea"><p>A displayed result.</p></div>'
        '<div class="tcdoc-run-output highlight-none notranslate"><pre>printed.</pre></div>'
        '<div class="table-wrapper"><table><tr><th><p>Copies?</p></th><td><p>yes, it copies.</p></td></tr>'
        "</table></div>"
        "<p>After the table.</p>"
    )
    assert texts(body) == ["Before the code.", "After the table."]


def test_figures_math_headings_and_navigation_are_left_out() -> None:
    body = (
        '<section><h1>What clone() does<a class="headerlink" href="#x">¶</a></h1>'
        '<p class="rubric">A rubric</p>'
        '<figure><img alt="A picture."/><figcaption><p>The caption says this.</p></figcaption></figure>'
        '<div class="math notranslate nohighlight">\\[ y = x. \\]</div>'
        '<p>The sum <span class="math notranslate nohighlight">\\(a + b\\)</span> is kept.</p>'
        '<div class="toctree-wrapper compound"><ul><li><a>Clone</a></li></ul></div>'
        '<div class="sphx-glr-thumbnails"><div class="sphx-glr-thumbcontainer" tooltip="A card.">'
        '<div class="sphx-glr-thumbnail-title">What detach() does</div></div></div></section>'
    )
    assert texts(body) == ["The sum is kept."]


def test_gallery_machinery_is_left_out() -> None:
    body = (
        '<div class="sphx-glr-download-link-note admonition note"><p class="admonition-title">Note</p>'
        "<p>Go to the end to download the full example code.</p></div>"
        "<p>The lesson.</p>"
        '<p class="sphx-glr-timing"><strong>Total running time of the script:</strong> (0 minutes)</p>'
        '<div class="sphx-glr-footer sphx-glr-footer-example docutils container">'
        '<div class="sphx-glr-download sphx-glr-download-jupyter docutils container"><p><a>'
        "<code>Download Jupyter notebook: plot_01_clone.ipynb</code></a></p></div></div>"
    )
    assert texts(body) == ["The lesson."]


def test_an_admonition_keeps_its_body_without_its_title() -> None:
    body = (
        '<div class="admonition warning"><p class="admonition-title">Warning</p><p>It raises here.</p></div>'
    )
    assert texts(body) == ["It raises here."]


def test_lists_and_definitions_are_prose_and_terms_are_not() -> None:
    body = (
        "<ul><li><p>A first item.</p><ul><li><p>A nested item.</p></li></ul></li><li>A second item</li></ul>"
        '<dl class="simple glossary"><dt id="term-view">view<a class="headerlink">¶</a></dt>'
        "<dd><p>A tensor that reads the storage of another.</p></dd></dl>"
        '<dl class="py function"><dt class="sig sig-object py">tcdoc.compare(x, y)</dt><dd>'
        "<p>Answer the four questions.</p>"
        '<dl class="field-list simple"><dt>Parameters:</dt><dd><p><strong>x</strong> – the source</p>'
        "</dd></dl></dd></dl>"
    )
    assert texts(body) == [
        "A first item.",
        "A nested item.",
        "A second item",
        "A tensor that reads the storage of another.",
        "Answer the four questions.",
    ]


def test_a_table_note_is_prose() -> None:
    body = '<p class="tcdoc-na-note">“n/a” means the question does not apply.</p>'
    assert lengths(body) == [7]


def test_blocks_do_not_run_into_each_other() -> None:
    assert texts("<p>No full stop at the end</p><p>A new paragraph</p>") == [
        "No full stop at the end",
        "A new paragraph",
    ]


# -- The Chinese edition --------------------------------------------------------------------------


def test_a_chinese_sentence_ends_at_chinese_marks_and_counts_characters() -> None:
    body = (
        '<p><code class="docutils literal notranslate"><span class="pre">x.clone()</span></code>'
        " 会复制数据。它在 PyTorch 2.13.0 上也一样吗？是的！</p><p>没有句号</p>"
    )
    found = TOOL.sentences(page(body, "zh-CN"), "zh-CN")
    assert [(s.text, s.length) for s in found] == [
        ("x.clone() 会复制数据。", 6),
        ("它在 PyTorch 2.13.0 上也一样吗？", 9),
        ("是的！", 2),
        ("没有句号", 4),
    ]


def test_a_page_says_its_language() -> None:
    assert TOOL.language_of(page("", "zh-CN")) == "zh-CN"
    assert TOOL.language_of("<p>No html element.</p>") == "en"


# -- Figures and the command ------------------------------------------------------------------------


def test_figures_count_the_sentences_over_the_limit() -> None:
    found = TOOL.figures([TOOL.Sentence("a", 10), TOOL.Sentence("b", 40), TOOL.Sentence("c", 36)], over=35)
    assert (found.sentences, found.mean, found.longest) == (3, 86 / 3, 40)
    assert found.over == pytest.approx(2 / 3)
    assert TOOL.figures([], over=35) == TOOL.Figures(0, 0.0, 0.0, 0)


def write_site(root: Path) -> None:
    """A built site of three English pages and one Chinese, with an index the tool skips."""
    sentence = "One two three four five six seven eight nine ten. "
    pages = {
        "index.html": page("<p>Welcome here.</p>"),
        "genindex.html": page("<p>An index, skipped.</p>"),
        "explanation/clone.html": page(f"<p>{sentence * 2}</p><p>{'word ' * 40}ends here.</p>"),
        "auto_examples/plot_01_clone.html": page("<p>An example. It runs.</p>"),
        "zh_CN/index.html": page("<p>欢迎。</p>", "zh-CN"),
    }
    for name, text in pages.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_the_command_prints_a_row_per_page_the_sections_and_the_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_site(tmp_path)
    assert TOOL.main(["--html", str(tmp_path), "--over", "35"]) == 0
    out = capsys.readouterr().out
    for label in (
        "explanation/clone.html",
        "explanation (1 page)",
        "auto_examples (1 page)",
        "all (3 pages)",
    ):
        assert label in out
    assert "genindex" not in out
    assert "Chinese edition" in out
    assert "  42  explanation/clone.html: word word" in out  # the one sentence over 35 words


def test_the_command_without_over_lists_no_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_site(tmp_path)
    assert TOOL.main(["--html", str(tmp_path), "--page", "explanation/*"]) == 0
    out = capsys.readouterr().out
    assert "explanation/clone.html" in out
    assert "index.html" not in out.replace("explanation/clone.html", "")
    assert "word word" not in out


def test_the_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_site(tmp_path)
    assert TOOL.main(["--html", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    english, chinese = data["editions"]
    assert english["total"]["sentences"] == 6
    assert english["sections"]["explanation"]["longest"] == 42
    assert [item["length"] for item in english["long_sentences"]] == [42]
    assert chinese["unit"] == "characters"
    assert chinese["total"] == {"sentences": 1, "mean": 2.0, "over": 0.0, "longest": 2}


def test_the_command_without_a_site_says_so_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert TOOL.main(["--html", str(tmp_path)]) == 0
    assert "nox -s docs" in capsys.readouterr().err


# -- The built site -------------------------------------------------------------------------------

built = pytest.mark.skipif(
    not (SITE / "index.html").is_file(), reason="no built site: run 'nox -s docs' first"
)


def measured_pages(root: Path) -> set[str]:
    """Every page of an edition the tool should read: the built HTML, indexes and zh_CN/ aside."""
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*.html")
        if path.relative_to(root).parts[0] != TOOL.CHINESE and path.name not in TOOL.SKIPPED_PAGES
    }


@pytest.fixture(scope="module")
def english() -> list[Any]:
    """The built English edition's pages, measured once for the tests that read them."""
    return list(TOOL.edition_pages(SITE))


@built
def test_the_built_site_is_measured_page_by_page(english: list[Any]) -> None:
    pages = english
    assert {p.name for p in pages} == measured_pages(SITE)
    assert {p.section for p in pages} >= {"explanation", "howto", "reference", "auto_examples"}
    assert all(p.language == "en" for p in pages)
    for p in pages:
        if p.section in ("explanation", "howto") or p.name.startswith("auto_examples/plot_"):
            assert p.sentences, f"{p.name}: no sentence of prose found"
        found = TOOL.figures(p.sentences, TOOL.OVER)
        assert all(s.length > 0 and s.text for s in p.sentences)
        assert 0 <= found.over <= 1
        assert found.longest >= found.mean
    # Code, output and tables are not prose: nothing the examples print reaches a sentence.
    sentences = [s.text for p in pages for s in p.sentences]
    assert not [s for s in sentences if "Total running time" in s or "Download Jupyter notebook" in s]


@built
def test_the_command_runs_on_the_built_site(capsys: pytest.CaptureFixture[str]) -> None:
    assert TOOL.main(["--html", str(SITE), "--json"]) == 0
    english = json.loads(capsys.readouterr().out)["editions"][0]
    assert english["language"] == "en"
    assert len(english["pages"]) == len(measured_pages(SITE))
    assert english["total"]["sentences"] == sum(p["sentences"] for p in english["pages"])
    assert 0 < english["total"]["mean"] <= english["total"]["longest"]


@pytest.mark.skipif(not (SITE / TOOL.CHINESE / "index.html").is_file(), reason="no Chinese edition built")
def test_the_chinese_edition_is_measured_in_characters(english: list[Any]) -> None:
    chinese = TOOL.edition_pages(SITE / TOOL.CHINESE)
    assert {p.name for p in chinese} == {p.name for p in english}
    assert all(p.language.startswith("zh") for p in chinese)
    assert sum(len(p.sentences) for p in chinese) > 0


@built
def test_every_page_reads_in_sentences_a_reader_can_hold(english: list[Any]) -> None:
    """No English sentence over 35 words, and no page whose sentences average over 16 (issue 32)."""
    long = [
        f"{p.name}: {s.length} words: {s.text}" for p in english for s in p.sentences if s.length > TOOL.OVER
    ]
    assert not long, "\n".join(long)
    means = {p.name: TOOL.figures(p.sentences, TOOL.OVER).mean for p in english}
    heavy = [f"{name}: {mean:.1f} words a sentence" for name, mean in means.items() if mean > TOOL.MEAN]
    assert not heavy, "\n".join(heavy)
