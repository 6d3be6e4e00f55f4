"""The site's gallery guards, on tests/roots/test-gallery: silent examples fail, tcdoc's changes re-run.

Editing prose runs nothing; editing an example re-runs it (sphinx-gallery does that); editing the
tcdoc code that an example imports re-runs that example, and only those that import it.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

import tcdoc
from tcdoc_site import _gallery_guard

if TYPE_CHECKING:
    from sphinx.testing.fixtures import _app_params

ROOT = Path(__file__).parents[1]
SITE_EXTENSION = ROOT / "docs" / "_ext"

# Each test writes its examples into its own copy of the project (the srcdir of its marker).
ONLY_PLOTS = {"sphinx_gallery_conf.filename_pattern": r"plot_[^\/]*\.py$"}
"""plot_*.py run; a script named otherwise is rendered with its code only, as the GPU examples
are on a build without CUDA."""


def example(title: str, code: str) -> str:
    return f'"""\n{title}\n{"=" * len(title)}\n\nA paragraph.\n"""\n\n# %%\n{code}\n'


class Gallery:
    """A copy of tests/roots/test-gallery that a test fills with examples and builds, often again."""

    def __init__(self, make_app: Callable[..., SphinxTestApp], app_params: _app_params) -> None:
        self.make_app = make_app
        self.args, self.kwargs = app_params
        self.srcdir: Path = self.kwargs["srcdir"]

    def add(self, examples: dict[str, str]) -> None:
        for name, text in examples.items():
            (self.srcdir / "examples" / name).write_text(text)

    def build(self, **settings: object) -> SphinxTestApp:
        """Build what changed since the last build, as ``sphinx-build`` would; return the app."""
        app = self.make_app(*self.args, **{**self.kwargs, "confoverrides": settings})
        app.build()
        return app

    def shows_output(self, name: str) -> bool:
        page = (self.srcdir / "auto_examples" / name).with_suffix(".rst").read_text()
        return "sphx-glr-script-out" in page


@pytest.fixture
def gallery(make_app: Callable[..., SphinxTestApp], app_params: _app_params) -> Gallery:
    return Gallery(make_app, app_params)


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-silent")
def test_an_example_without_output_is_reported(gallery: Gallery) -> None:
    gallery.add({
        "plot_a.py": example("Shows a value", "print(1 + 1)"),
        "plot_b.py": example("Shows nothing", "x = 1"),
    })  # fmt: skip
    warnings = gallery.build().warning.getvalue()
    assert "example plot_b.py ran but its page shows no output [tcdoc.gallery]" in warnings
    assert "plot_a.py" not in warnings


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-silent-suppressed")
def test_the_warning_about_silent_examples_can_be_suppressed(gallery: Gallery) -> None:
    gallery.add({"plot_b.py": example("Shows nothing", "x = 1")})
    app = gallery.build(suppress_warnings=["tcdoc.gallery"])
    assert "plot_b.py" not in app.warning.getvalue()
    assert "executed 1 out of 1" in app.status.getvalue()  # the example did run


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-times")
def test_computation_times_page_loads_nothing_remote(gallery: Gallery) -> None:
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


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of tcdoc's sources that the guard reads instead of the installed package's.

    The examples still import the real tcdoc; what the guard digests is this copy, which a test
    edits as a developer would edit tcdoc.
    """
    copy = tmp_path / "package" / "tcdoc"
    shutil.copytree(Path(tcdoc.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_gallery_guard, "_package_dir", lambda: copy)
    return copy


def edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")


def executed(status: str) -> str:
    """sphinx-gallery's count of the examples it executed ("1 out of 1")."""
    found = re.search(r"successfully executed (\d+ out of \d+) file", status)
    assert found, status
    return found.group(1)


DRAWS = example("Draws", "import tcdoc.draw\n\nprint(tcdoc.draw.MAX_CELLS > 0)")
MEASURES = example("Measures", "import tcdoc\n\nprint(tcdoc.__version__ != '')")
PLAIN = example("Plain", "print(2)")


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-tcdoc-changes")
def test_a_change_to_tcdoc_re_runs_the_examples_that_import_it_and_only_those(
    gallery: Gallery, package: Path
) -> None:
    gallery.add({"plot_draws.py": DRAWS, "plot_measures.py": MEASURES, "plot_plain.py": PLAIN})
    assert executed(gallery.build().status.getvalue()) == "3 out of 3"
    assert executed(gallery.build().status.getvalue()) == "0 out of 0"  # nothing changed: nothing runs

    edit(package / "draw" / "_model.py")  # only the example that draws imports it
    status = gallery.build().status.getvalue()
    assert "re-running them: plot_draws.py" in status
    assert executed(status) == "1 out of 1"

    edit(package / "_probe.py")  # tcdoc's core: every example that imports tcdoc
    status = gallery.build().status.getvalue()
    assert "re-running them: plot_draws.py, plot_measures.py" in status
    assert executed(status) == "2 out of 2"


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-prose-changes")
def test_editing_prose_data_or_code_no_example_imports_runs_no_example(
    gallery: Gallery, package: Path
) -> None:
    gallery.add({"plot_draws.py": DRAWS, "plot_measures.py": MEASURES})
    gallery.build()
    (gallery.srcdir / "index.rst").write_text(
        (gallery.srcdir / "index.rst").read_text(encoding="utf-8") + "\nA new sentence.\n", encoding="utf-8"
    )
    edit(next((package / "sphinxext" / "locales").rglob("*.po")))  # a data file of the package
    status = gallery.build().status.getvalue()
    assert executed(status) == "0 out of 0"
    assert "re-running" not in status
    edit(package / "sphinxext" / "_tables.py")  # the extension: pages are read again, examples stay
    status = gallery.build().status.getvalue()
    assert executed(status) == "0 out of 0"
    assert "re-running" not in status
    # Without the terminal's colours and line clearing: where Sphinx colours its output (as it does
    # with CI set), progress lines end in a carriage return instead of a newline.
    plain = re.sub(r"\x1b\[[\d;]*[A-Za-z]", "", status).replace("\r", "\n")
    assert re.search(r"^reading sources\.\.\. .*\bindex$", plain, re.MULTILINE)  # it may use tcdoc's tables


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-example-changes")
def test_editing_an_example_re_runs_that_example(gallery: Gallery, package: Path) -> None:
    gallery.add({"plot_draws.py": DRAWS, "plot_measures.py": MEASURES})
    gallery.build()
    gallery.add({"plot_measures.py": MEASURES + "print(3)\n"})
    status = gallery.build().status.getvalue()
    assert executed(status) == "1 out of 1"
    assert "re-running" not in status  # sphinx-gallery's own doing: the script changed


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-old-stamp")
def test_a_stamp_from_an_older_build_re_runs_every_example(gallery: Gallery, package: Path) -> None:
    gallery.add({"plot_plain.py": PLAIN, "plot_measures.py": MEASURES})
    app = gallery.build()
    (Path(app.doctreedir) / _gallery_guard.STAMP).write_text('{"tcdoc": "an older stamp"}', encoding="utf-8")
    status = gallery.build().status.getvalue()
    assert "re-running every example" in status
    assert executed(status) == "2 out of 2"


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-failed-example")
def test_an_example_put_back_after_it_failed_runs_again(gallery: Gallery) -> None:
    good = example("Good", "print('the lesson')")
    gallery.add({"plot_good.py": good})
    gallery.build()
    gallery.add({"plot_good.py": example("Good", "raise ValueError('a slip')")})
    with pytest.raises(Exception, match=r"plot_good\.py"):  # sphinx-gallery's summary stops the build
        gallery.build()
    page = gallery.srcdir / "auto_examples" / "plot_good.rst"
    assert "a slip" in page.read_text(encoding="utf-8")
    gallery.add({"plot_good.py": good})  # back as it was when it last ran well
    status = gallery.build().status.getvalue()
    assert executed(status) == "1 out of 1"
    assert "a slip" not in page.read_text(encoding="utf-8")
    assert "the lesson" in page.read_text(encoding="utf-8")


# -- Which tcdoc code an example depends on ---------------------------------------------------


def fake_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / "tcdoc" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "tcdoc" / name).write_text(text, encoding="utf-8")
    return root / "tcdoc"


def script(tmp_path: Path, code: str) -> Path:
    path = tmp_path / "plot_x.py"
    path.write_text(code, encoding="utf-8")
    return path


PACKAGE = {
    "__init__.py": "import importlib\n_MODULES = ('tcdoc._core',)\n",
    "_core.py": "from tcdoc import _names\n",
    "_names.py": "",
    "draw/__init__.py": "from ._model import box\n\ndef draw():\n    from .. import _render\n",
    "draw/_model.py": "import typing\nif typing.TYPE_CHECKING:\n    from tcdoc.draw import _types\n",
    "draw/_types.py": "",
    "_render.py": "",
    "sphinxext/__init__.py": "from tcdoc import _core\n",
    "locales/tcdoc.po": "",
}


def test_an_example_depends_on_the_modules_it_imports_and_theirs(tmp_path: Path) -> None:
    package = fake_package(tmp_path, PACKAGE)
    found = _gallery_guard.tcdoc_modules(script(tmp_path, "import tcdoc.draw\n"), package)
    # The parent package, a string that names a module, relative imports (inside a function too),
    # and what only a type checker imports.
    assert sorted(found) == [
        "tcdoc", "tcdoc._core", "tcdoc._names", "tcdoc._render", "tcdoc.draw", "tcdoc.draw._model",
        "tcdoc.draw._types",
    ]  # fmt: skip
    assert found["tcdoc.draw"] == package / "draw" / "__init__.py"


def test_from_imports_of_names_and_of_modules(tmp_path: Path) -> None:
    package = fake_package(tmp_path, PACKAGE)
    names = _gallery_guard.tcdoc_modules(script(tmp_path, "from tcdoc import compare\n"), package)
    assert "tcdoc._core" in names
    assert "tcdoc.draw" not in names
    modules = _gallery_guard.tcdoc_modules(script(tmp_path, "from tcdoc import draw as d\n"), package)
    assert "tcdoc.draw._model" in modules
    assert _gallery_guard.tcdoc_modules(script(tmp_path, "import torch\nimport tcdocs\n"), package) == {}


def test_a_digest_changes_with_the_code_the_example_imports_only(tmp_path: Path) -> None:
    package = fake_package(tmp_path, PACKAGE)
    draws = script(tmp_path, "import tcdoc.draw\n")
    before, pages = _gallery_guard.example_digest(draws, package), _gallery_guard.source_digest(package)
    edit(package / "locales" / "tcdoc.po")  # data: neither the examples' nor the pages' digest
    assert _gallery_guard.source_digest(package) == pages
    edit(package / "sphinxext" / "__init__.py")  # code no example imports: the pages' digest only
    assert _gallery_guard.example_digest(draws, package) == before
    assert _gallery_guard.source_digest(package) != pages
    edit(package / "draw" / "_types.py")
    assert _gallery_guard.example_digest(draws, package) != before


def test_no_example_of_the_site_depends_on_its_sentences_or_its_extension() -> None:
    examples = sorted((ROOT / "examples").rglob("*.py"))
    assert examples
    for path in examples:
        found = _gallery_guard.tcdoc_modules(path)
        assert "tcdoc._probe" in found, path  # every example measures with tcdoc
        site = [name for name in found if name.startswith(("tcdoc.sphinxext", "tcdoc._site_claims"))]
        assert not site, path
        assert all(file.suffix == ".py" for file in found.values())


# -- Examples the build does not execute ---------------------------------------------------

NAMES_TCDOC = example("Not run here", "import tcdoc\n\ntcdoc.compare")


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-no-torch")
def test_a_rebuild_with_nothing_changed_does_not_import_torch(gallery: Gallery) -> None:
    gallery.add({"plot_a.py": example("Shows a value", "print(2)"), "b.py": NAMES_TCDOC})
    # The GPU examples' decision made in conf, as on a build that says so: with a CUDA build of
    # torch, deciding it asks torch (tests/test_site_gating.py), and that is not what this checks.
    settings = {**ONLY_PLOTS, "tcdoc_gpu_execute": False}
    app = gallery.build(**settings)
    assert Path(gallery.srcdir / "auto_examples" / "b.py.md5").is_file()  # its page is cached ...
    # A fresh process, where nothing has imported torch yet.
    rebuild = f"""
import sys
sys.path.insert(0, {str(SITE_EXTENSION)!r})
from sphinx.application import Sphinx
app = Sphinx({str(app.srcdir)!r}, {str(app.confdir)!r}, {str(app.outdir)!r}, {str(app.doctreedir)!r},
             "html", confoverrides={settings!r}, freshenv=False)
app.build()
print("torch" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", rebuild], capture_output=True, text=True, check=True)
    # ... so sphinx-gallery does not render it again, nor look up the tcdoc names it uses.
    assert done.stdout.strip().splitlines()[-1] == "False"
    assert "executed 0 out of 0" in done.stdout


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-runs-sometimes")
def test_running_an_example_or_no_longer_running_it_renders_it_again(gallery: Gallery) -> None:
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
def test_examples_the_gallery_ignores_are_not_checked(gallery: Gallery) -> None:
    gallery.add({
        "plot_a.py": example("Shows a value", "print(2)"),
        "plot_skip.py": example("Ignored", "x = 1"),  # silent, but the gallery leaves it out
    })  # fmt: skip
    app = gallery.build(**{"sphinx_gallery_conf.ignore_pattern": r"skip"})
    assert app.warning.getvalue() == ""
    assert not (gallery.srcdir / "auto_examples" / "plot_skip.rst").exists()


# -- What a rebuild reads again ---------------------------------------------------------------


def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the name of every source file the guard reads from now on."""
    seen: list[str] = []
    read = _gallery_guard._read

    def counted(path: Path) -> bytes:
        seen.append(path.name)
        return read(path)

    monkeypatch.setattr(_gallery_guard, "_read", counted)
    return seen


def age(root: Path, seconds: float = 60.0) -> None:
    """Date every file under ``root`` ``seconds`` back: older than a coarse clock's tick."""
    for path in root.rglob("*"):
        os.utime(path, (time.time() - seconds, time.time() - seconds))


def test_stamps_kept_between_builds_spare_reading_unchanged_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = fake_package(tmp_path, PACKAGE)
    draws = script(tmp_path, "import tcdoc.draw\n")
    age(tmp_path)
    kept = tmp_path / "sources.json"
    first = _gallery_guard.Sources()
    before, pages = (
        _gallery_guard.example_digest(draws, package, first),
        _gallery_guard.source_digest(package, first),
    )
    first.save(kept)

    seen = reads(monkeypatch)
    again = _gallery_guard.Sources.load(kept)
    assert _gallery_guard.example_digest(draws, package, again) == before
    assert _gallery_guard.source_digest(package, again) == pages
    assert seen == []  # nothing changed: nothing read

    edit(package / "draw" / "_types.py")  # an edit changes the size and the time: read again
    changed = _gallery_guard.Sources.load(kept)
    assert _gallery_guard.example_digest(draws, package, changed) != before
    assert seen == ["_types.py"]
    assert _gallery_guard.example_digest(draws, package) == _gallery_guard.example_digest(
        draws, package, changed
    )


def test_a_file_changed_within_a_clock_tick_of_its_stamp_is_read_again(tmp_path: Path) -> None:
    package = fake_package(tmp_path, PACKAGE)
    draws = script(tmp_path, "import tcdoc.draw\n")
    kept = tmp_path / "sources.json"
    first = _gallery_guard.Sources()  # the files were written just now
    before = _gallery_guard.example_digest(draws, package, first)
    first.save(kept)
    # Other bytes of the same size, at the same modification time: an edit that a coarse clock
    # would date to the moment the stamp was read.
    model = package / "draw" / "_model.py"
    status = model.stat()
    model.write_text(model.read_text(encoding="utf-8").replace("typing", "TYPING", 1), encoding="utf-8")
    os.utime(model, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert model.stat().st_size == status.st_size
    assert _gallery_guard.example_digest(draws, package, _gallery_guard.Sources.load(kept)) != before


@pytest.mark.sphinx("html", testroot="gallery", srcdir="gallery-no-op-reads")
def test_a_rebuild_with_nothing_changed_parses_no_source(
    gallery: Gallery, package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gallery.add({"plot_draws.py": DRAWS, "plot_measures.py": MEASURES})
    age(package)
    age(gallery.srcdir / "examples")
    gallery.build()
    parsed: list[str | None] = []
    imported = _gallery_guard._imported

    def counted(tree: ast.AST, module: str | None, is_package: bool) -> set[str]:
        parsed.append(module)
        return imported(tree, module, is_package)

    seen = reads(monkeypatch)
    monkeypatch.setattr(_gallery_guard, "_imported", counted)
    status = gallery.build().status.getvalue()
    assert executed(status) == "0 out of 0"
    assert (seen, parsed) == ([], [])
    edit(package / "draw" / "_model.py")  # the guarantee holds with the stamps kept
    status = gallery.build().status.getvalue()
    assert "re-running them: plot_draws.py" in status
    assert seen == ["_model.py"]
