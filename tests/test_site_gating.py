"""The site's gating of the GPU examples: one decision per build, and what a build without CUDA shows."""

from __future__ import annotations

import os
import re
import runpy
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import torch
from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ConfigError
from sphinx.testing.util import SphinxTestApp
from sphinx_gallery.gen_rst import executable_script, get_md5sum

import tcdoc
from tcdoc_site import gating

if TYPE_CHECKING:
    from sphinx.testing.fixtures import _app_params

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples"
SITE_EXTENSION = ROOT / "docs" / "_ext"
BUILT_HTML = ROOT / "docs" / "_build" / "html"
OUTPUT_CLASS = "sphx-glr-script-out"  # sphinx-gallery's class for a cell's printed output


@pytest.fixture
def no_requirement(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(gating.REQUIRE_GPU_VARIABLE, raising=False)


def fake_cuda(monkeypatch: pytest.MonkeyPatch, present: bool) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: present)
    # A CUDA build of torch, so that the decision asks torch.cuda rather than the version label.
    monkeypatch.setattr(gating, "cpu_only_torch", lambda: False)


# -- The decision ------------------------------------------------------------------------


@pytest.mark.parametrize("present", [True, False])
def test_decision_follows_cuda(monkeypatch: pytest.MonkeyPatch, no_requirement: None, present: bool) -> None:
    fake_cuda(monkeypatch, present)
    assert tcdoc.cuda_available() is present
    assert gating.gpu_examples_execute() is present


def test_required_and_present_runs_them(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_cuda(monkeypatch, True)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    assert gating.gpu_examples_execute() is True


def test_required_and_absent_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_cuda(monkeypatch, False)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    with pytest.raises(gating.GpuRequiredError, match="TCDOC_REQUIRE_GPU=1") as raised:
        gating.gpu_examples_execute()
    assert torch.__version__ in str(raised.value)
    assert "no CUDA device" in str(raised.value)


def test_explicit_arguments_override_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_cuda(monkeypatch, True)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    assert gating.gpu_examples_execute(cuda=False, required=False) is False
    with pytest.raises(gating.GpuRequiredError):
        gating.gpu_examples_execute(cuda=False)


@pytest.mark.parametrize(
    ("value", "required"),
    [("1", True), ("true", True), ("Yes", True), ("0", False), ("", False), ("false", False)],
)
def test_requirement_is_read_from_the_environment(value: str, required: bool) -> None:
    assert gating.gpu_required({gating.REQUIRE_GPU_VARIABLE: value}) is required


def test_requirement_rejects_other_values() -> None:
    with pytest.raises(ValueError, match=r"TCDOC_REQUIRE_GPU must be 1 or 0 .*got 'maybe'"):
        gating.gpu_required({gating.REQUIRE_GPU_VARIABLE: "maybe"})


@pytest.mark.parametrize(
    ("version", "cpu_only"),
    [("2.13.0+cpu", True), ("2.13.0", False), ("2.13.0+cu126", False), ("2.9.1+rocm6.4", False),
     ("2.14.0.dev20261101+cpu", True), ("2.5.1+cpu.cxx11.abi", True)],
)  # fmt: skip
def test_cpu_only_builds_are_told_by_their_version_label(version: str, cpu_only: bool) -> None:
    assert gating.cpu_only_torch(version) is cpu_only


def test_the_installed_torch_version_is_read_from_its_package_metadata() -> None:
    assert gating.cpu_only_torch() is gating.cpu_only_torch(torch.__version__)
    if gating.cpu_only_torch():
        # What lets the decision skip asking torch: such a build has no CUDA at all.
        assert torch.version.cuda is None
        assert not torch.cuda.is_available()


def test_on_a_cpu_only_build_the_decision_does_not_ask_torch(
    monkeypatch: pytest.MonkeyPatch, no_requirement: None
) -> None:
    monkeypatch.setattr(gating, "cpu_only_torch", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: pytest.fail("torch was asked"))
    assert gating.gpu_examples_execute() is False


def test_bad_arguments_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="cuda must be a bool, got str"):
        gating.gallery_filename_pattern("yes")  # type: ignore[arg-type]  # the wrong type, on purpose
    with pytest.raises(TypeError, match="cuda must be a bool or None, got int"):
        gating.gpu_examples_execute(cuda=1)  # type: ignore[arg-type]  # the wrong type, on purpose
    with pytest.raises(TypeError, match="path must be a str or a path, got int"):
        gating.is_gpu_example(3)  # type: ignore[arg-type]  # the wrong type, on purpose
    with pytest.raises(ValueError, match="examples_dir must be a directory"):
        gating.gpu_examples(tmp_path / "missing")
    with pytest.raises(TypeError, match="torch_version must be a str or None, got float"):
        gating.cpu_only_torch(2.13)  # type: ignore[arg-type]  # the wrong type, on purpose


# -- The pattern sphinx-gallery executes -------------------------------------------------

SCRIPTS = {
    "/src/tcdoc/examples/plot_01_clone.py": False,
    "/src/tcdoc/examples/gpu/plot_gpu_01_copies.py": True,
    "/src/tcdoc/examples/gpu/plot_gpu_cost.py": True,
    "/home/gpu/tcdoc/examples/plot_02_detach.py": False,  # a parent folder called gpu is not the gallery
    "/src/tcdoc/examples/not_gpu/plot_x.py": False,
    r"C:\src\tcdoc\examples\gpu\plot_gpu_02_devices.py": True,
    r"C:\src\tcdoc\examples\plot_03_deepcopy.py": False,
}


@pytest.mark.parametrize(("path", "needs_gpu"), SCRIPTS.items())
def test_pattern_runs_gpu_scripts_only_with_cuda(path: str, needs_gpu: bool) -> None:
    assert gating.is_gpu_example(path) is needs_gpu
    assert re.search(gating.gallery_filename_pattern(cuda=True), path)
    assert bool(re.search(gating.gallery_filename_pattern(cuda=False), path)) is not needs_gpu


@pytest.mark.parametrize("cuda", [True, False])
def test_sphinx_gallery_executes_what_the_decision_says(cuda: bool) -> None:
    """Ask sphinx-gallery itself, on the real example files, which ones it would run."""
    conf = {"filename_pattern": gating.gallery_filename_pattern(cuda), "plot_gallery": True}
    scripts = sorted(EXAMPLES.rglob("*.py"))
    gpu = set(gating.gpu_examples(EXAMPLES))
    assert gpu, "examples/gpu holds the GPU examples"
    assert gpu < set(scripts)
    for script in scripts:
        expected = cuda or script not in gpu
        assert executable_script(str(script), conf) is expected, script


def test_every_script_in_the_gpu_folder_is_gated() -> None:
    listed = gating.gpu_examples(EXAMPLES)
    assert listed == tuple(sorted((EXAMPLES / "gpu").glob("*.py")))
    assert all(gating.is_gpu_example(path) for path in listed)
    assert not any(gating.is_gpu_example(path) for path in EXAMPLES.glob("*.py"))


@pytest.mark.parametrize("present", [True, False])
def test_docs_conf_uses_the_decision(
    monkeypatch: pytest.MonkeyPatch, no_requirement: None, present: bool
) -> None:
    fake_cuda(monkeypatch, present)
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
    assert conf["tcdoc_gpu_execute"] is present
    assert conf["sphinx_gallery_conf"]["filename_pattern"] == gating.gallery_filename_pattern(present)


def test_docs_conf_leaves_the_gpu_requirement_to_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_cuda(monkeypatch, False)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))  # reading conf.py no longer raises ...
    assert conf["tcdoc_gpu_execute"] is False
    assert "tcdoc_site" in conf["extensions"]  # ... the site's extension checks the requirement


def test_building_the_docs_requiring_gpu_without_cuda_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    fake_cuda(monkeypatch, False)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    docs = tmp_path / "docs"  # a copy of the site's conf.py: the check comes before any page is read
    docs.mkdir()
    shutil.copy(ROOT / "docs" / "conf.py", docs / "conf.py")
    with pytest.raises(ConfigError, match="TCDOC_REQUIRE_GPU=1 asks for the GPU examples to run") as raised:
        make_app("html", srcdir=docs)
    assert "no CUDA device" in str(raised.value)
    assert not list(docs.rglob("*.html"))


# -- tcdoc_gpu_execute, checked when the configuration is read (tests/roots/test-site-config) -----


@pytest.fixture
def no_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    """No CUDA device, whatever the machine: a CPU-only build of torch, as far as gating can tell."""
    monkeypatch.setattr(gating, "cpu_only_torch", lambda torch_version=None: True)
    monkeypatch.delenv(gating.REQUIRE_GPU_VARIABLE, raising=False)


def configured(
    make_app: Callable[..., SphinxTestApp], app_params: _app_params, **settings: object
) -> SphinxTestApp:
    """Make the app of the test's root with ``settings`` set, as conf.py would set them."""
    return make_app(*app_params.args, **{**app_params.kwargs, "confoverrides": settings})


@pytest.mark.sphinx("html", testroot="site-config")
def test_a_bad_gpu_decision_is_a_configuration_error(
    no_cuda: None, make_app: Callable[..., SphinxTestApp], app_params: _app_params
) -> None:
    with pytest.raises(ConfigError, match="tcdoc_gpu_execute must be True, False or None; got 'yes'"):
        configured(make_app, app_params, tcdoc_gpu_execute="yes")


@pytest.mark.sphinx("html", testroot="site-config")
def test_requiring_the_gpu_examples_without_cuda_is_a_configuration_error(
    no_cuda: None,
    monkeypatch: pytest.MonkeyPatch,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
) -> None:
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    with pytest.raises(ConfigError, match="TCDOC_REQUIRE_GPU=1 asks for the GPU examples to run") as raised:
        configured(make_app, app_params)
    assert torch.__version__ in str(raised.value)


@pytest.mark.sphinx("html", testroot="site-config")
def test_a_bad_gpu_requirement_is_a_configuration_error(
    no_cuda: None,
    monkeypatch: pytest.MonkeyPatch,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
) -> None:
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "maybe")
    with pytest.raises(ConfigError, match=r"TCDOC_REQUIRE_GPU must be 1 or 0 \(or true/false\), got 'maybe'"):
        configured(make_app, app_params)


@pytest.mark.sphinx("html", testroot="site-config")
def test_the_gpu_run_is_decided_once_when_the_configuration_is_read(
    no_cuda: None, make_app: Callable[..., SphinxTestApp], app_params: _app_params
) -> None:
    app = configured(make_app, app_params)
    assert app.config.tcdoc_gpu_execute is False  # None in conf.py: decided here, without CUDA
    assert "tcdoc.sphinxext" in app.extensions  # the site's extension brings the package's


@pytest.mark.sphinx("html", testroot="site-config")
def test_a_gpu_run_decided_in_conf_py_is_kept_and_satisfies_the_requirement(
    no_cuda: None,
    monkeypatch: pytest.MonkeyPatch,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
) -> None:
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    assert configured(make_app, app_params, tcdoc_gpu_execute=True).config.tcdoc_gpu_execute is True


@pytest.mark.sphinx("html", testroot="config")
def test_the_package_extension_alone_knows_no_gpu_setting(
    monkeypatch: pytest.MonkeyPatch, make_app: Callable[..., SphinxTestApp], app_params: _app_params
) -> None:
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "maybe")  # not read: the package has no gating
    app = configured(make_app, app_params)
    assert "tcdoc_gpu_execute" not in app.config


def test_the_gating_needs_no_torch_on_a_cpu_only_build() -> None:
    if not gating.cpu_only_torch():
        pytest.skip("with a CUDA build of torch, the GPU decision must ask torch")
    code = (
        f"import sys; sys.path.insert(0, {str(SITE_EXTENSION)!r})\n"
        "from tcdoc_site import gating; gating.gpu_examples_execute()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'torch', 'matplotlib'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


# -- A real build without CUDA (tests/roots/test-gpu-gallery) ---------------------------


def build(
    make_app: Callable[..., SphinxTestApp], app_params: _app_params, **settings: object
) -> SphinxTestApp:
    """Build the project of the test's marker (again), as sphinx-build would; return the app."""
    app = make_app(*app_params.args, **{**app_params.kwargs, "confoverrides": settings})
    app.build()
    return app


def shows_output(doctree: nodes.document) -> bool:
    return any(OUTPUT_CLASS in node["classes"] for node in doctree.findall(nodes.Element))


def not_run_notes(doctree: nodes.document) -> list[nodes.admonition]:
    return [node for node in doctree.findall(nodes.admonition) if gating.NOT_RUN_CLASS in node["classes"]]


@pytest.mark.sphinx("html", testroot="gpu-gallery", srcdir="gpu-gallery-no-cuda")
def test_build_without_cuda_shows_gpu_examples_with_a_note_and_no_output(
    monkeypatch: pytest.MonkeyPatch,
    no_requirement: None,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
) -> None:
    fake_cuda(monkeypatch, False)
    app = build(make_app, app_params)
    assert app.warning.getvalue() == ""  # the project is nitpicky: nothing to complain about
    assert app.config.tcdoc_gpu_execute is False

    cpu_page = app.env.get_doctree("auto_examples/plot_cpu")
    assert shows_output(cpu_page)  # the control: an executed example shows its output
    assert not not_run_notes(cpu_page)

    gpu_page = app.env.get_doctree("auto_examples/gpu/plot_gpu")
    (note,) = not_run_notes(gpu_page)
    paragraph = note.next_node(nodes.paragraph)
    assert paragraph is not None
    assert paragraph.astext() == gating.NO_CUDA_NOTE.format(environment=tcdoc.environment())
    assert "had no CUDA device, so this example was not run" in note.astext()
    assert torch.__version__ in note.astext()
    section = gpu_page.next_node(nodes.section)
    assert section is not None
    assert section.index(note) == 1  # just below the title
    code = "\n".join(block.astext() for block in gpu_page.findall(nodes.literal_block))
    assert 'on_gpu = torch.arange(3.0, device="cuda") * 7' in code  # the code is shown
    assert not shows_output(gpu_page)

    for index in ("auto_examples/index", "auto_examples/gpu/index"):
        doctree = app.env.get_doctree(index)
        (status,) = not_run_notes(doctree)
        assert "had no CUDA device, so these examples were not run" in status.astext()
        listed = [ref["reftarget"] for ref in doctree.findall(addnodes.pending_xref)]
        assert "/auto_examples/gpu/plot_gpu" in listed  # still listed


def leave_stale_output(app: SphinxTestApp) -> None:
    """Give the GPU page output, as a build with CUDA would have left it, and keep it from re-rendering."""
    rst = app.srcdir / "auto_examples" / "gpu" / "plot_gpu.rst"
    stale = f"\n.. rst-class:: {OUTPUT_CLASS}\n\n .. code-block:: none\n\n    tensor([ 0.,  7., 14.])\n"
    rst.write_text(rst.read_text(encoding="utf-8") + stale, encoding="utf-8")
    script = app.srcdir / "examples" / "gpu" / "plot_gpu.py"
    Path(f"{rst.with_suffix('.py')}.md5").write_text(get_md5sum(script, mode="t"), encoding="utf-8")


STALE = "shows output, yet this build had no CUDA device and did not run it"


@pytest.mark.sphinx("html", testroot="gpu-gallery", srcdir="gpu-gallery-stale")
def test_output_left_over_on_a_gpu_page_is_a_warning(
    monkeypatch: pytest.MonkeyPatch,
    no_requirement: None,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
) -> None:
    fake_cuda(monkeypatch, False)
    leave_stale_output(build(make_app, app_params))
    # It would contradict the note: a warning, and so an error in the strict build (-W).
    warnings = build(make_app, app_params).warning.getvalue()
    assert STALE in warnings
    assert "[tcdoc.gpu]" in warnings


@pytest.mark.sphinx("html", testroot="gpu-gallery", srcdir="gpu-gallery-stale-suppressed")
def test_the_warning_about_left_over_output_can_be_suppressed(
    monkeypatch: pytest.MonkeyPatch,
    no_requirement: None,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
) -> None:
    fake_cuda(monkeypatch, False)
    leave_stale_output(build(make_app, app_params))
    app = build(make_app, app_params, suppress_warnings=["tcdoc.gpu"])
    assert STALE not in app.warning.getvalue()
    page = app.env.get_doctree("auto_examples/gpu/plot_gpu")
    assert shows_output(page)  # the page was read again, with its stale output ...
    assert not_run_notes(page)  # ... and is still marked


def test_build_requiring_gpu_without_cuda_fails_clearly(rootdir: Path, tmp_path: Path) -> None:
    """sphinx-build, in a fresh process with CUDA hidden from torch whatever the machine."""
    docs = tmp_path / "docs"
    shutil.copytree(rootdir / "test-gpu-gallery", docs)
    environ = {**os.environ, "CUDA_VISIBLE_DEVICES": "", gating.REQUIRE_GPU_VARIABLE: "1"}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SITE_EXTENSION), os.environ.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-q", "-b", "html"]
    built = subprocess.run(
        [*command, str(docs), str(docs / "_build")],
        capture_output=True,
        text=True,
        env=environ,
        cwd=docs,
        check=False,
        timeout=600,
    )
    assert built.returncode != 0
    assert "Configuration error" in built.stderr
    assert "TCDOC_REQUIRE_GPU=1 asks for the GPU examples to run" in built.stderr
    assert "Traceback (most recent call last)" not in built.stderr
    assert not (docs / "auto_examples").exists()  # stopped before the gallery was generated


# -- The site as built -------------------------------------------------------------------


@pytest.mark.skipif(not (BUILT_HTML / "auto_examples").is_dir(), reason="the docs are not built")
@pytest.mark.parametrize("script", gating.gpu_examples(EXAMPLES), ids=lambda path: path.name)
def test_built_gpu_pages_either_ran_or_say_they_did_not(script: Path) -> None:
    page = BUILT_HTML / "auto_examples" / gating.GPU_FOLDER / f"{script.stem}.html"
    assert page.is_file(), f"{page} is missing: build the docs again"
    html = page.read_text(encoding="utf-8")
    noted = gating.NOT_RUN_CLASS in html
    ran = OUTPUT_CLASS in html
    assert noted != ran, "a GPU example page must show either its output or the note, not both"
    if noted:
        assert "had no CUDA device" in html
        assert 'class="highlight' in html  # its code is shown
