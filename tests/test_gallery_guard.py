"""tcdoc's gallery guards, on a tiny Sphinx project: silent examples fail, tcdoc changes re-run examples."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

from tcdoc.sphinxext import _gallery_guard

CONF = """
extensions = ["sphinx_gallery.gen_gallery", "tcdoc.sphinxext"]
sphinx_gallery_conf = {"examples_dirs": ["../examples"], "gallery_dirs": ["auto_examples"],
                       "filename_pattern": r"\\.py$",
                       # No scrapers: figures left open by other tests must not count as output.
                       "image_scrapers": ()}
"""
INDEX = "Home\n====\n\n.. toctree::\n\n   auto_examples/index\n"


def example(title: str, code: str) -> str:
    return f'"""\n{title}\n{"=" * len(title)}\n\nA paragraph.\n"""\n\n# %%\n{code}\n'


def project(tmp_path: Path, examples: dict[str, str]) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF)
    (docs / "index.rst").write_text(INDEX)
    gallery = tmp_path / "examples"
    gallery.mkdir()
    (gallery / "GALLERY_HEADER.rst").write_text("Examples\n========\n")
    for name, text in examples.items():
        (gallery / name).write_text(text)
    return docs


def build(docs: Path) -> tuple[str, str]:
    status, warnings = io.StringIO(), io.StringIO()
    with docutils_namespace():  # keep each app's registrations to itself
        app = Sphinx(docs, docs, docs / "_build" / "html", docs / "_build" / "doctrees", "html",
                     status=status, warning=warnings, freshenv=False)  # fmt: skip
        app.build()
    return status.getvalue(), warnings.getvalue()


def test_an_example_without_output_is_reported(tmp_path):
    docs = project(tmp_path, {
        "plot_a.py": example("Shows a value", "print(1 + 1)"),
        "plot_b.py": example("Shows nothing", "x = 1"),
    })  # fmt: skip
    _, warnings = build(docs)
    assert "example plot_b.py ran but its page shows no output" in warnings
    assert "plot_a.py" not in warnings


def test_computation_times_page_loads_nothing_remote(tmp_path):
    docs = project(tmp_path, {"plot_a.py": example("Shows a value", "print(1 + 1)")})
    build(docs)
    generated = (docs / "auto_examples" / "sg_execution_times.rst").read_text()
    assert "https://" in generated  # what sphinx-gallery writes ...
    page = (docs / "_build" / "html" / "auto_examples" / "sg_execution_times.html").read_text()
    assert '<script src="https://' not in page  # ... and what the built page keeps
    assert 'href="https://cdn' not in page
    assert "plot_a.py" in page


def test_a_change_to_tcdoc_re_runs_every_example(tmp_path, monkeypatch):
    docs = project(tmp_path, {"plot_a.py": example("Shows a value", "print(2)")})
    status, _ = build(docs)
    assert "executed 1 out of 1" in status
    status, _ = build(docs)
    assert "executed 0 out of 0" in status  # nothing changed: nothing re-runs
    monkeypatch.setattr(_gallery_guard, "source_digest", lambda: "a different tcdoc")
    status, _ = build(docs)
    assert "re-running every example" in status
    assert "executed 1 out of 1" in status


# -- Examples the build does not execute ---------------------------------------------------

# plot_*.py run; a script named otherwise is rendered with its code only, as the GPU examples
# are on a build without CUDA.
ONLY_PLOTS = CONF.replace(r'r"\.py$"', r'r"plot_[^\/]*\.py$"')
assert ONLY_PLOTS != CONF
NAMES_TCDOC = example("Not run here", "import tcdoc\n\ntcdoc.compare")


def set_conf(docs: Path, conf: str) -> None:
    (docs / "conf.py").write_text(conf)


def shows_output(docs: Path, name: str) -> bool:
    page = (docs / "auto_examples" / name).with_suffix(".rst").read_text()
    return "sphx-glr-script-out" in page


def test_a_rebuild_with_nothing_changed_does_not_import_torch(tmp_path):
    docs = project(tmp_path, {"plot_a.py": example("Shows a value", "print(2)"), "b.py": NAMES_TCDOC})
    set_conf(docs, ONLY_PLOTS)
    build(docs)
    assert Path(docs / "auto_examples" / "b.py.md5").is_file()  # its page is cached ...
    rebuild = f"""
import sys
from sphinx.application import Sphinx
app = Sphinx({str(docs)!r}, {str(docs)!r}, {str(docs / "_build" / "html")!r},
             {str(docs / "_build" / "doctrees")!r}, "html", freshenv=False)
app.build()
print("torch" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", rebuild], capture_output=True, text=True, check=True)
    # ... so sphinx-gallery does not render it again, nor look up the tcdoc names it uses.
    assert done.stdout.strip().splitlines()[-1] == "False"
    assert "executed 0 out of 0" in done.stdout


def test_running_an_example_or_no_longer_running_it_renders_it_again(tmp_path):
    docs = project(tmp_path, {"plot_a.py": example("Shows a value", "print(2)"),
                              "b.py": example("Runs sometimes", "print(3)")})  # fmt: skip
    set_conf(docs, ONLY_PLOTS)
    build(docs)
    assert not shows_output(docs, "b.py")
    set_conf(docs, CONF)  # every script runs now
    status, _ = build(docs)
    assert "re-running every example" in status
    assert shows_output(docs, "b.py")
    set_conf(docs, ONLY_PLOTS)  # and b.py no longer does: its old output must go
    build(docs)
    assert not shows_output(docs, "b.py")
