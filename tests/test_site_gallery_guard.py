"""The site's gallery guards, on tests/roots/test-gallery: silent examples fail, changes to tcdoc re-run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from docutils import nodes

from tcdoc_site import _gallery_guard

SITE_EXTENSION = Path(__file__).parents[1] / "docs" / "_ext"

# Each test writes its examples into its own copy of the project (the srcdir of its marker).
ONLY_PLOTS = {"sphinx_gallery_conf.filename_pattern": r"plot_[^\/]*\.py$"}
"""plot_*.py run; a script named otherwise is rendered with its code only, as the GPU examples
are on a build without CUDA."""


def example(title: str, code: str) -> str:
    return f'"""\n{title}\n{"=" * len(title)}\n\nA paragraph.\n"""\n\n# %%\n{code}\n'


class Gallery:
    """A copy of tests/roots/test-gallery that a test fills with examples and builds, often again."""

    def __init__(self, make_app, app_params) -> None:
        self.make_app = make_app
        self.args, self.kwargs = app_params
        self.srcdir: Path = self.kwargs["srcdir"]

    def add(self, examples: dict[str, str]) -> None:
        for name, text in examples.items():
            (self.srcdir / "examples" / name).write_text(text)

    def build(self, **settings: object):
        """Build what changed since the last build, as ``sphinx-build`` would; return the app."""
        app = self.make_app(*self.args, **{**self.kwargs, "confoverrides": settings})
        app.build()
        return app

    def shows_output(self, name: str) -> bool:
        page = (self.srcdir / "auto_examples" / name).with_suffix(".rst").read_text()
        return "sphx-glr-script-out" in page


@pytest.fixture
def gallery(make_app, app_params) -> Gallery:
    return Gallery(make_app, app_params)


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-silent")
def test_an_example_without_output_is_reported(gallery):
    gallery.add({
        "plot_a.py": example("Shows a value", "print(1 + 1)"),
        "plot_b.py": example("Shows nothing", "x = 1"),
    })  # fmt: skip
    warnings = gallery.build().warning.getvalue()
    assert "example plot_b.py ran but its page shows no output [tcdoc.gallery]" in warnings
    assert "plot_a.py" not in warnings


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-silent-suppressed")
def test_the_warning_about_silent_examples_can_be_suppressed(gallery):
    gallery.add({"plot_b.py": example("Shows nothing", "x = 1")})
    app = gallery.build(suppress_warnings=["tcdoc.gallery"])
    assert "plot_b.py" not in app.warning.getvalue()
    assert "executed 1 out of 1" in app.status.getvalue()  # the example did run


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-times")
def test_computation_times_page_loads_nothing_remote(gallery):
    gallery.add({"plot_a.py": example("Shows a value", "print(1 + 1)")})
    app = gallery.build()
    generated = (gallery.srcdir / "auto_examples" / "sg_execution_times.rst").read_text()
    assert "https://" in generated  # what sphinx-gallery writes ...
    doctree = app.env.get_doctree("auto_examples/sg_execution_times")
    raw = [node.astext() for node in doctree.findall(nodes.raw)]
    assert not any("https://" in text for text in raw)  # ... and what the page keeps
    assert "plot_a.py" in doctree.astext()  # the table itself stays
    page = (app.outdir / "auto_examples" / "sg_execution_times.html").read_text()
    assert '<script src="https://' not in page
    assert 'href="https://cdn' not in page


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-tcdoc-changes")
def test_a_change_to_tcdoc_re_runs_every_example(gallery, monkeypatch):
    gallery.add({"plot_a.py": example("Shows a value", "print(2)")})
    assert "executed 1 out of 1" in gallery.build().status.getvalue()
    status = gallery.build().status.getvalue()
    assert "executed 0 out of 0" in status  # nothing changed: nothing re-runs
    monkeypatch.setattr(_gallery_guard, "source_digest", lambda: "a different tcdoc")
    status = gallery.build().status.getvalue()
    assert "re-running every example" in status
    assert "executed 1 out of 1" in status


# -- Examples the build does not execute ---------------------------------------------------

NAMES_TCDOC = example("Not run here", "import tcdoc\n\ntcdoc.compare")


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-no-torch")
def test_a_rebuild_with_nothing_changed_does_not_import_torch(gallery):
    gallery.add({"plot_a.py": example("Shows a value", "print(2)"), "b.py": NAMES_TCDOC})
    app = gallery.build(**ONLY_PLOTS)
    assert Path(gallery.srcdir / "auto_examples" / "b.py.md5").is_file()  # its page is cached ...
    # A fresh process, where nothing has imported torch yet.
    rebuild = f"""
import sys
sys.path.insert(0, {str(SITE_EXTENSION)!r})
from sphinx.application import Sphinx
app = Sphinx({str(app.srcdir)!r}, {str(app.confdir)!r}, {str(app.outdir)!r}, {str(app.doctreedir)!r},
             "html", confoverrides={ONLY_PLOTS!r}, freshenv=False)
app.build()
print("torch" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", rebuild], capture_output=True, text=True, check=True)
    # ... so sphinx-gallery does not render it again, nor look up the tcdoc names it uses.
    assert done.stdout.strip().splitlines()[-1] == "False"
    assert "executed 0 out of 0" in done.stdout


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-runs-sometimes")
def test_running_an_example_or_no_longer_running_it_renders_it_again(gallery):
    gallery.add({"plot_a.py": example("Shows a value", "print(2)"),
                 "b.py": example("Runs sometimes", "print(3)")})  # fmt: skip
    gallery.build(**ONLY_PLOTS)
    assert not gallery.shows_output("b.py")
    status = gallery.build().status.getvalue()  # every script runs now
    assert "re-running every example" in status
    assert gallery.shows_output("b.py")
    gallery.build(**ONLY_PLOTS)  # and b.py no longer does: its old output must go
    assert not gallery.shows_output("b.py")


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-ignored")
def test_examples_the_gallery_ignores_are_not_checked(gallery):
    gallery.add({
        "plot_a.py": example("Shows a value", "print(2)"),
        "plot_skip.py": example("Ignored", "x = 1"),  # silent, but the gallery leaves it out
    })  # fmt: skip
    app = gallery.build(**{"sphinx_gallery_conf.ignore_pattern": r"skip"})
    assert app.warning.getvalue() == ""
    assert not (gallery.srcdir / "auto_examples" / "plot_skip.rst").exists()
