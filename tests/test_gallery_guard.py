"""tcdoc's gallery guards, on a tiny Sphinx project: silent examples fail, tcdoc changes re-run examples."""

from __future__ import annotations

import io
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

from tcdoc import _gallery_guard

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
