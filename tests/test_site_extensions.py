"""The site's own extension (docs/_ext/tcdoc_site) around the facts.

Code links, source buttons, the sitemap, what each page loads (the copy buttons' script and the
highlighting stylesheet), and the Chinese edition's search.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import cast

import pytest
from sphinx.application import Sphinx

from tcdoc_site._assets import shrink_image, without_unused_token_styles
from tcdoc_site._code_links import with_attribute_candidates
from tcdoc_site._search import repair_chinese_search
from tcdoc_site._source_links import gallery_source


def candidate(module: str, name: str, **extra: object) -> dict[str, object]:
    return {
        "module": module,
        "module_short": module,
        "name": name,
        "is_class": False,
        "is_explicit": False,
    } | extra


def targets(candidates: list[dict[str, object]]) -> list[str]:
    return [f"{c['module']}.{c['name']}" for c in candidates]


# -- Links in example code: the candidates for variable.attribute ------------------------------

TENSOR = candidate("torch", "Tensor")


def test_a_method_of_a_variable_gets_its_class_as_first_candidate() -> None:
    found = with_attribute_candidates(
        {"x": [TENSOR], "x.clone": [candidate("builtins", "builtin_function_or_method")]}
    )
    assert targets(found["x.clone"]) == ["torch.Tensor.clone", "builtins.builtin_function_or_method"]


def test_an_attribute_beats_the_type_of_its_value() -> None:
    # sphinx-gallery offers bool for y.is_leaf, the type of its value; the attribute's own page comes first.
    found = with_attribute_candidates({"y": [TENSOR], "y.is_leaf": [candidate("builtins", "bool")]})
    assert targets(found["y.is_leaf"])[0] == "torch.Tensor.is_leaf"


def test_what_sphinx_gallery_found_itself_stays_first() -> None:
    linear = candidate("torch.nn", "Linear", is_class=True)
    found = with_attribute_candidates({"nn": [candidate("torch", "nn")], "nn.Linear": [linear]})
    assert found["nn.Linear"][0] == linear


def test_a_chain_gets_its_shorter_prefixes() -> None:
    found = with_attribute_candidates({"y": [TENSOR], "y.grad_fn.name": []})
    assert targets(found["y.grad_fn"]) == ["torch.Tensor.grad_fn"]
    assert targets(found["y.grad_fn.name"]) == ["torch.Tensor.grad_fn.name"]


def test_names_without_a_known_variable_and_explicit_references_are_left_alone() -> None:
    explicit = candidate("tcdoc", "compare", is_explicit=True)
    names = {"tcdoc.compare": [explicit], "z.clone": [], "tcdoc": [explicit]}
    assert with_attribute_candidates(names) == names


def test_adding_twice_changes_nothing_and_the_input_is_not_changed() -> None:
    names = {"x": [TENSOR], "x.clone": []}
    once = with_attribute_candidates(names)
    assert names == {"x": [TENSOR], "x.clone": []}
    assert with_attribute_candidates(once) == once


def test_candidates_must_be_a_dict() -> None:
    with pytest.raises(TypeError, match="names must be a dict of candidate lists, got list"):
        with_attribute_candidates([])  # type: ignore[arg-type]


# -- The source of a gallery page ------------------------------------------------------------

CONF = {"examples_dirs": ["../examples"], "gallery_dirs": ["auto_examples"]}


@pytest.fixture
def srcdir(tmp_path: Path) -> Path:
    for name in ("examples/plot_a.py", "examples/GALLERY_HEADER.rst", "examples/gpu/plot_b.py",
                 "examples/gpu/README.txt", "docs/index.md"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    return tmp_path / "docs"


@pytest.mark.parametrize(
    ("pagename", "source"),
    [
        ("auto_examples/plot_a", "../examples/plot_a.py"),
        ("auto_examples/index", "../examples/GALLERY_HEADER.rst"),
        ("auto_examples/gpu/plot_b", "../examples/gpu/plot_b.py"),
        ("auto_examples/gpu/index", "../examples/gpu/README.txt"),
        ("auto_examples/sg_execution_times", ""),  # generated, no source of its own
        ("auto_examples/plot_gone", ""),
        ("sg_execution_times", ""),
        ("index", None),  # not a gallery page
    ],
)
def test_gallery_pages_come_from_the_example_scripts(srcdir: Path, pagename: str, source: str | None) -> None:
    assert gallery_source(srcdir, CONF, pagename) == source


def test_a_single_gallery_may_be_given_as_strings(srcdir: Path) -> None:
    conf = {"examples_dirs": "../examples", "gallery_dirs": "auto_examples"}
    assert gallery_source(srcdir, conf, "auto_examples/plot_a") == "../examples/plot_a.py"


# -- The sitemap after an incremental build --------------------------------------------------


def build(docs: Path) -> None:
    app = Sphinx(
        docs, docs, docs / "_build", docs / "_doctrees", "html", status=io.StringIO(), warning=io.StringIO()
    )
    app.build()


def sitemap(docs: Path) -> list[str]:
    root = ET.parse(docs / "_build" / "sitemap.xml").getroot()
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    return [loc.text or "" for loc in root.findall("s:url/s:loc", namespace)]


# sphinx-sitemap reads BuildEnvironment.app, which Sphinx 9 deprecates.
@pytest.mark.filterwarnings("ignore:.*BuildEnvironment.app")
def test_sitemap_lists_every_page_after_a_build_with_nothing_to_do(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        'extensions = ["sphinx_sitemap", "tcdoc_site"]\n'
        'html_baseurl = "https://example.org/"\n'
        'sitemap_url_scheme = "{link}"\n'
        'sitemap_excludes = ["search.html", "genindex.html"]\n'
    )
    (docs / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   b\n   a\n")
    (docs / "a.rst").write_text("A\n=\n")
    (docs / "b.rst").write_text("B\n=\n")
    build(docs)
    first = sitemap(docs)
    assert first == [f"https://example.org/{page}.html" for page in ("a", "b", "index")]
    build(docs)  # nothing changed: Sphinx writes no page again
    assert sitemap(docs) == first


# -- What each page loads --------------------------------------------------------------------------


def code_and_prose(docs: Path) -> Path:
    """Write a site of a page of Python code and a page of prose; return where it builds."""
    docs.mkdir()
    (docs / "conf.py").write_text('extensions = ["tcdoc_site"]\n')
    code = ".. code-block:: python\n\n   import copy\n"
    (docs / "index.rst").write_text(f"Code\n====\n\n{code}\n.. toctree::\n\n   prose\n")
    (docs / "prose.rst").write_text("Prose\n=====\n\nNo code here.\n")
    return docs / "_build"


def test_only_pages_with_code_load_the_copy_script_and_the_highlighting_styles(tmp_path: Path) -> None:
    out = code_and_prose(tmp_path / "docs")
    build(tmp_path / "docs")
    assert (out / "_static" / "tcdoc-copy.js").is_file()
    code = (out / "index.html").read_text(encoding="utf-8")
    prose = (out / "prose.html").read_text(encoding="utf-8")
    assert re.search(r'<script [^>]*defer="defer" src="_static/tcdoc-copy\.js', code), "no copy script"
    assert 'data-label="Copy code"' in code, "the copy script has no words for its buttons"
    assert 'href="_static/pygments.css' in code
    assert "tcdoc-copy.js" not in prose
    assert "pygments.css" not in prose
    assert "tcdoc-a11y.js" in prose  # every page: code is not the only thing that scrolls


def test_the_highlighting_styles_keep_the_tokens_of_every_page_even_after_a_partial_build(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    out = code_and_prose(docs)
    build(docs)
    css = (out / "_static" / "pygments.css").read_text(encoding="utf-8")
    assert ".highlight .kn{" in css  # import, a Keyword.Namespace
    assert ".highlight .nn{" in css  # copy, a Name.Namespace
    assert ".highlight .gd{" not in css  # Generic.Deleted: the site shows no diff
    (docs / "prose.rst").write_text("Prose\n=====\n\n.. code-block:: diff\n\n   - old\n   + new\n")
    build(docs)  # writes prose.html only
    css = (out / "_static" / "pygments.css").read_text(encoding="utf-8")
    assert ".highlight .gd{" in css
    assert ".highlight .kn{" in css  # index.html, not written again, still needs it


def test_a_rule_that_styles_a_used_token_among_others_stays() -> None:
    css = ".highlight .gd, .highlight .k{color: red}.highlight .gd, .highlight .gi{color: blue}"
    assert without_unused_token_styles(css, {"k"}) == ".highlight .gd, .highlight .k{color: red}"


def test_rules_that_style_no_token_stay_whatever_is_used() -> None:
    css = ".highlight{background: #fff}.highlight pre{line-height: 1}.highlight td.linenos .special{color: x}"
    assert without_unused_token_styles(css, set()) == css


def _plot(path: Path) -> None:
    """Save a small plot like the examples' at ``path``: lines and text on a transparent background."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(3, 2), dpi=100)
    axes.plot([0, 1, 2], [0, 1, 4], label="clone")
    axes.plot([0, 1, 2], [1, 1, 1], label="detach")
    axes.legend()
    figure.savefig(path, transparent=True)
    plt.close(figure)


def test_a_picture_gets_a_palette_and_looks_the_same(tmp_path: Path) -> None:
    from PIL import Image, ImageChops, ImageStat

    path = tmp_path / "plot.png"
    _plot(path)
    before_bytes = path.stat().st_size
    with Image.open(path) as image:
        before = image.convert("RGBA")
    assert shrink_image(path) is True
    with Image.open(path) as image:
        assert image.mode == "P"
        after = image.convert("RGBA")
    assert path.stat().st_size < before_bytes
    for background in ((255, 255, 255, 255), (19, 19, 19, 255)):  # furo's light and dark pages
        ground = Image.new("RGBA", before.size, background)
        difference = ImageChops.difference(
            Image.alpha_composite(ground, before).convert("RGB"),
            Image.alpha_composite(ground, after).convert("RGB"),
        )
        assert max(ImageStat.Stat(difference).mean) < 3, "the picture changed to the eye"


def test_a_picture_is_shrunk_once_and_always_to_the_same_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "first.png", tmp_path / "second.png"
    _plot(first)
    second.write_bytes(first.read_bytes())
    assert shrink_image(first)
    assert shrink_image(second)
    assert first.read_bytes() == second.read_bytes()
    shrunk = first.read_bytes()
    assert shrink_image(first) is False
    assert first.read_bytes() == shrunk


# -- The Chinese edition's search ------------------------------------------------------------


def test_the_chinese_search_gets_the_stemmer_sphinx_ships(tmp_path: Path) -> None:
    from types import SimpleNamespace

    static = tmp_path / "_static"
    static.mkdir()
    script = static / "language_data.js"
    shipped = "var EnglishStemmer=function(){};\nwindow.Stemmer = ChineseStemmer;\n"
    script.write_text(shipped, encoding="utf-8")
    english = cast("Sphinx", SimpleNamespace(config=SimpleNamespace(language="en"), outdir=tmp_path))
    repair_chinese_search(english, None)  # not a Chinese build: left alone
    assert "ChineseStemmer;" in script.read_text(encoding="utf-8")
    chinese = cast("Sphinx", SimpleNamespace(config=SimpleNamespace(language="zh_CN"), outdir=tmp_path))
    repair_chinese_search(chinese, None)
    assert script.read_text(encoding="utf-8").endswith("window.Stemmer = EnglishStemmer;\n")
