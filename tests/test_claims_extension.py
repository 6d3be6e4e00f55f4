"""The build checks each claim: its words against its check's, and its check against torch.

Each test copies a root into a folder of its own, changes what it needs, and builds it:
tests/roots/test-claims (a page with three claims, one in a section that states its scope, and
their checks package, ``claimchecks``) or tests/roots/test-claims-gallery (an example whose
hidden block checks a claim of its text).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sphinx.testing.util import SphinxTestApp

from tcdoc.sphinxext import _claims as claims_extension

ROOT = Path(__file__).parent / "roots" / "test-claims"
GALLERY = Path(__file__).parent / "roots" / "test-claims-gallery"
CHECKS = "claimchecks"


@pytest.fixture(autouse=True)
def _fresh_checks_package() -> Iterator[None]:
    """Each test imports its own copy of the checks package."""
    path = list(sys.path)
    yield
    sys.path[:] = path
    for name in [name for name in sys.modules if name == CHECKS or name.startswith(f"{CHECKS}.")]:
        del sys.modules[name]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    copy = tmp_path / "site"
    shutil.copytree(ROOT, copy)
    return copy


def build(make_app: Callable[..., Any], site: Path) -> tuple[str, str]:
    """Build the site; return its warnings and the HTML of its page."""
    for name in [name for name in sys.modules if name == CHECKS or name.startswith(f"{CHECKS}.")]:
        del sys.modules[name]
    app = make_app("html", srcdir=site)
    app.build()
    return app.warning.getvalue(), (Path(app.outdir) / "index.html").read_text(encoding="utf-8")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, path)
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_claims_render_in_their_page_words_with_their_placeholders_filled(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    warnings, html = build(make_app, site)
    assert warnings == ""
    assert '<span class="claim" id="clone-copies">' in html
    filled = (
        'Of <code class="docutils literal notranslate"><span class="pre">x.clone()</span></code> and '
        '<code class="docutils literal notranslate"><span class="pre">x.detach()</span></code>, on '
        '<code class="docutils literal notranslate"><span class="pre">no_grad</span></code>, only '
    )
    assert filled in html
    assert "{ops}" not in html


def test_changed_words_fail_the_build_at_their_line_showing_old_and_new(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    edit(site / "index.md", "copies the data of", "never copies the data of")
    warnings, _ = build(make_app, site)
    assert "index.md:3: ERROR: the words of claim 'clone-copies' changed: read its check in" in warnings
    assert "check's words: `x.clone()` copies the data of `x`" in warnings
    assert "page's words:  `x.clone()` never copies the data of `x`" in warnings


def test_spacing_is_not_a_change_of_words(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    edit(site / "index.md", "copies the data of", "copies the\ndata  of")
    assert build(make_app, site)[0] == ""


def test_a_false_claim_is_an_error_at_its_line(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    edit(site / CHECKS / "index.py", "expect(not measured", "expect(measured")
    warnings, _ = build(make_app, site)
    assert "index.md:3: ERROR: claim 'clone-copies' of index is false: clone shares memory with x" in warnings


def test_a_false_claim_inside_a_paragraph_is_an_error_at_its_own_line(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    # The claim's words start on the paragraph's third line, one sentence per line.
    edit(site / "index.md", "[`x.clone()` copies", "A first sentence.\nA second one.\n[`x.clone()` copies")
    edit(site / CHECKS / "index.py", "expect(not measured", "expect(measured")
    warnings, _ = build(make_app, site)
    assert "index.md:5: ERROR: claim 'clone-copies' of index is false" in warnings


def test_a_check_that_cannot_run_fails_the_build(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    edit(site / CHECKS / "index.py", '"clone", "no_grad"', '"clone", "no_such_scenario"')
    warnings, _ = build(make_app, site)
    assert "ERROR: claim 'clone-copies' of index is false: its check could not run: KeyError" in warnings


def test_a_claim_without_a_check_and_a_check_without_a_claim_are_errors(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    edit(site / "index.md", "{#clone-copies .claim}", "{#clone-copes .claim}")
    warnings, _ = build(make_app, site)
    assert (
        "ERROR: claim 'clone-copes' has no check in claimchecks.index; its ids are: clone-copies," in warnings
    )
    assert "ERROR: claimchecks.index has checks that no claim on index uses: clone-copies" in warnings


def test_a_page_with_claims_and_no_checks_module_is_an_error(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    (site / CHECKS / "index.py").rename(site / CHECKS / "other.py")
    warnings, _ = build(make_app, site)
    assert "index.md:3: ERROR: index has claims, but there is no checks module claimchecks.index" in warnings


def test_an_only_claim_must_say_what_its_check_covers(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    edit(site / "index.md", "Of {among}, on {scenarios}, only {ops}", "Only {ops}")
    warnings, _ = build(make_app, site)
    assert "the words of claim 'only-detach' must say {among}: the condition its check covers" in warnings


def test_a_claim_that_needs_a_missing_package_is_a_warning_that_says_which(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    edit(
        site / CHECKS / "index.py",
        "_clone_copies, words=",
        '_clone_copies, needs=("no_such_package",), words=',
    )
    warnings, _ = build(make_app, site)
    assert "WARNING: claim 'clone-copies' of index was not checked: needs no_such_package" in warnings
    assert "ERROR" not in warnings


def test_a_changed_check_reads_its_page_again(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    assert build(make_app, site)[0] == ""
    edit(site / CHECKS / "index.py", "expect(not measured", "expect(measured")
    warnings, _ = build(make_app, site)  # nothing on the page changed
    assert "claim 'clone-copies' of index is false" in warnings


# -- A section's scope ------------------------------------------------------------------------------


def test_a_scope_renders_one_line_and_its_claims_run_the_stated_case(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    warnings, html = build(make_app, site)
    assert warnings == ""  # clone of a leaf that requires grad is a leaf only under no_grad
    assert '<p class="tcdoc-scope">In this section, <code' in html
    assert (
        "is a leaf that requires grad, with .grad filled and a Python attribute set, and the code runs"
        in html
    )


def test_a_claim_outside_its_scope_case_is_false(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    edit(site / "index.md", ":grad-mode: no_grad", ":grad-mode: enabled")
    warnings, _ = build(make_app, site)
    assert (
        "index.md:14: ERROR: claim 'clone-is-a-leaf' of index is false: "
        "clone of leaf_requires_grad is not a leaf under enabled"
    ) in warnings


def test_a_claim_whose_words_cover_more_than_its_scope_is_an_error(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    for path in (site / "index.md", site / CHECKS / "index.py"):
        edit(path, "`x.clone()` is a leaf", "`x.clone()` of every tensor is a leaf")
    warnings, _ = build(make_app, site)
    assert (
        "index.md:14: ERROR: claim 'clone-is-a-leaf' says more than its section's scope: its words speak "
        "of 'every tensor', but its section's scope is x: leaf_requires_grad"
    ) in warnings


def test_a_scope_with_an_unknown_kind_of_x_is_an_error_at_its_line(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    edit(site / "index.md", ":x: leaf_requires_grad", ":x: leaf")
    warnings, _ = build(make_app, site)
    assert "index.md:9: ERROR: tcdoc-scope: unknown kind of x 'leaf' in a scope" in warnings


def test_a_scope_line_is_translated(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    # The text builder: the HTML one would build a Chinese search index, which is not the point here.
    app = make_app("text", srcdir=site, confoverrides={"language": "zh_CN"})
    app.build()
    text = (Path(app.outdir) / "index.txt").read_text(encoding="utf-8")
    assert '本节中，"x" 是一个需要梯度的叶子张量' in text  # noqa: RUF001 - Chinese punctuation
    assert "In this section" not in text


# -- Claims in an example's hidden blocks ------------------------------------------------------------


@pytest.fixture
def gallery(tmp_path: Path) -> Path:
    copy = tmp_path / "gallery"
    shutil.copytree(GALLERY, copy)
    return copy


def build_gallery(make_app: Callable[..., Any], site: Path) -> tuple[str, Exception | None]:
    """Build the gallery site; return its warnings and the error that stopped it, if any."""
    app = make_app("html", srcdir=site)
    try:
        app.build()
    except Exception as exc:  # noqa: BLE001 - sphinx-gallery ends the build with its summary
        return app.warning.getvalue(), exc
    return app.warning.getvalue(), None


def test_an_example_claim_is_left_out_of_its_page_and_notebook(
    make_app: Callable[..., SphinxTestApp], gallery: Path
) -> None:
    warnings, error = build_gallery(make_app, gallery)
    assert (warnings, error) == ("", None)
    page = (gallery / "_build" / "html" / "auto_examples" / "plot_a.html").read_text(encoding="utf-8")
    notebook = (gallery / "auto_examples" / "plot_a.ipynb").read_text(encoding="utf-8")
    for hidden in ("claim(", "sphinx_gallery_start_ignore"):
        assert hidden not in page
        assert hidden not in notebook
    assert "claim(" in (gallery / "auto_examples" / "plot_a.py").read_text(encoding="utf-8")  # the download


def test_a_changed_word_in_an_example_fails_the_build_at_the_claims_line(
    make_app: Callable[..., SphinxTestApp], gallery: Path
) -> None:
    edit(
        gallery / "examples" / "plot_a.py",
        "# Writing into the clone leaves `x` as it was",
        "# Writing into the clone leaves `x` alone",
    )
    warnings, _ = build_gallery(make_app, gallery)
    assert (
        f"{gallery / 'examples' / 'plot_a.py'}:19: ERROR: "
        "claim('Writing into the clone leaves `x` as it was') of plot_a.py is not said word for word"
    ) in warnings


def test_the_site_lets_a_failing_example_fail_its_build() -> None:
    # The root above keeps sphinx-gallery's defaults, as docs/conf.py does: an example that raises
    # (a false claim()) fails the build. A setting that turned that into a warning would not.
    site = (Path(__file__).parents[1] / "docs" / "conf.py").read_text(encoding="utf-8")
    for setting in ("abort_on_example_error", "only_warn_on_example_error", "expected_failing_examples"):
        assert setting not in site


def test_a_false_example_claim_fails_the_build_naming_its_file_and_line(
    make_app: Callable[..., SphinxTestApp], gallery: Path
) -> None:
    edit(gallery / "examples" / "plot_a.py", "x == [1, 2, 3]", "x == [10, 2, 3]")
    _, error = build_gallery(make_app, gallery)
    assert error is not None
    assert f'File "{gallery / "examples" / "plot_a.py"}", line 19' in str(error)
    assert (
        "ClaimFalse: the example says 'Writing into the clone leaves `x` as it was', which is false"
        in str(error)
    )


# -- Claims in an example's checks module (one that cannot run inside its example) -----------------


class _Config(dict[str, Any]):
    """A stand-in for Sphinx's config: attributes, and ``in`` for the settings it has."""

    def __getattr__(self, name: str) -> Any:
        return self[name]


class _Recorder:
    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []

    def __getattr__(self, level: str) -> Callable[..., None]:
        return lambda message, *args, **kwargs: self.messages.append((level, message % args))


def test_quoted_claims_are_checked_when_the_example_page_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "plot_a.py").write_text('"""A\n=\n\nThe sky is green.\n"""\n\n# %%\n# Clones copy.\nx = 1\n')
    checks = tmp_path / "docs" / CHECKS / "examples"
    checks.mkdir(parents=True)
    (checks.parent / "__init__.py").write_text("")
    (checks / "__init__.py").write_text("")
    (checks / "plot_a.py").write_text(
        "from tcdoc.claims import Claim, expect\n"
        "CLAIMS = [\n"
        '    Claim("green", lambda m: expect(False, "it is blue"), quote="The sky is green"),\n'
        '    Claim("copy", lambda m: None, quote="Clones copy"),\n'
        '    Claim("gone", lambda m: None, quote="Views copy"),\n'
        "]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "docs"))
    recorder = _Recorder()
    monkeypatch.setattr(claims_extension, "logger", recorder)
    monkeypatch.setattr(claims_extension, "build_matrix", lambda env: None)  # these checks read no matrix
    config = _Config(
        sphinx_gallery_conf={"examples_dirs": "../examples", "gallery_dirs": "auto"},
        tcdoc_checks=CHECKS,
        tcdoc_device="cpu",
        tcdoc_gpu_execute=False,
    )
    app = SimpleNamespace(
        confdir=str(tmp_path / "docs"), config=config, env=SimpleNamespace(docname="auto/plot_a")
    )
    claims_extension.check_example_claims(app, None)  # type: ignore[arg-type]
    errors = [message for level, message in recorder.messages if level == "error"]
    assert errors == [
        "claim 'green', quoted in plot_a.py, is false: it is blue",
        f"claim 'gone' of {CHECKS}.examples.plot_a is not quoted word for word in plot_a.py",
    ]
