"""The build checks each claim of a page: its words against its pin, and its check against torch.

Each test copies tests/roots/test-claims (a page with two claims and their checks package,
``claimchecks``) into a folder of its own, changes what it needs, and builds it.
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

from tcdoc.claims import pin
from tcdoc.sphinxext import _claims as claims_extension

ROOT = Path(__file__).parent / "roots" / "test-claims"
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


def test_changed_words_fail_the_build_and_print_the_new_pin(
    make_app: Callable[..., SphinxTestApp], site: Path
) -> None:
    edit(site / "index.md", "copies the data of", "never copies the data of")
    warnings, _ = build(make_app, site)
    new = pin("`x.clone()` never copies the data of `x`")
    assert (
        "index.md:3: ERROR: the words of claim 'clone-copies' changed since its check was pinned" in warnings
    )
    assert f'pin="{new}"' in warnings


def test_repin_mode_lists_the_new_pins_instead(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    edit(site / "index.md", "copies the data of", "always copies the data of")
    (site / "conf.py").write_text((site / "conf.py").read_text() + "tcdoc_claims_repin = True\n")
    app = make_app("html", srcdir=site)
    app.build()
    assert "ERROR" not in app.warning.getvalue()
    assert f"claimchecks.index clone-copies: pin='{pin('`x.clone()` always copies the data of `x`')}'" in (
        app.status.getvalue()
    )


def test_a_false_claim_is_an_error_at_its_line(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    edit(site / CHECKS / "index.py", "expect(not measured", "expect(measured")
    warnings, _ = build(make_app, site)
    assert "index.md:3: ERROR: claim 'clone-copies' of index is false: clone shares memory with x" in warnings


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
        "ERROR: claim 'clone-copes' has no check in claimchecks.index; its ids are: clone-copies" in warnings
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
    edit(site / CHECKS / "index.py", "_clone_copies, pin=", '_clone_copies, needs=("no_such_package",), pin=')
    warnings, _ = build(make_app, site)
    assert "WARNING: claim 'clone-copies' of index was not checked: needs no_such_package" in warnings
    assert "ERROR" not in warnings


def test_a_changed_check_reads_its_page_again(make_app: Callable[..., SphinxTestApp], site: Path) -> None:
    assert build(make_app, site)[0] == ""
    edit(site / CHECKS / "index.py", "expect(not measured", "expect(measured")
    warnings, _ = build(make_app, site)  # nothing on the page changed
    assert "claim 'clone-copies' of index is false" in warnings


# -- Claims that examples quote ------------------------------------------------------------------


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
    claims_extension.check_quoted_claims(app, None)  # type: ignore[arg-type]
    errors = [message for level, message in recorder.messages if level == "error"]
    assert errors == [
        "claim 'green', quoted in plot_a.py, is false: it is blue",
        f"claim 'gone' of {CHECKS}.examples.plot_a is not quoted word for word in plot_a.py",
    ]
