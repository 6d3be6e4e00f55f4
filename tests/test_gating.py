"""The GPU examples' gating: one decision per build, and what a build without CUDA shows."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from sphinx.errors import ConfigError
from sphinx_gallery.gen_rst import executable_script, get_md5sum

import tcdoc
from tcdoc import gating

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples"
BUILT_HTML = ROOT / "docs" / "_build" / "html"
OUTPUT_CLASS = "sphx-glr-script-out"  # sphinx-gallery's class for a cell's printed output


@pytest.fixture
def no_requirement(monkeypatch):
    monkeypatch.delenv(gating.REQUIRE_GPU_VARIABLE, raising=False)


def fake_cuda(monkeypatch, present: bool) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: present)
    # A CUDA build of torch, so that the decision asks torch.cuda rather than the version label.
    monkeypatch.setattr(gating, "cpu_only_torch", lambda: False)


# -- The decision ------------------------------------------------------------------------


@pytest.mark.parametrize("present", [True, False])
def test_decision_follows_cuda(monkeypatch, no_requirement, present):
    fake_cuda(monkeypatch, present)
    assert tcdoc.cuda_available() is present
    assert gating.gpu_examples_execute() is present


def test_required_and_present_runs_them(monkeypatch):
    fake_cuda(monkeypatch, True)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    assert gating.gpu_examples_execute() is True


def test_required_and_absent_is_a_clear_error(monkeypatch):
    fake_cuda(monkeypatch, False)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    with pytest.raises(gating.GpuRequiredError, match="TCDOC_REQUIRE_GPU=1") as raised:
        gating.gpu_examples_execute()
    assert torch.__version__ in str(raised.value)
    assert "no CUDA device" in str(raised.value)


def test_explicit_arguments_override_the_environment(monkeypatch):
    fake_cuda(monkeypatch, True)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    assert gating.gpu_examples_execute(cuda=False, required=False) is False
    with pytest.raises(gating.GpuRequiredError):
        gating.gpu_examples_execute(cuda=False)


@pytest.mark.parametrize(
    ("value", "required"),
    [("1", True), ("true", True), ("Yes", True), ("0", False), ("", False), ("false", False)],
)
def test_requirement_is_read_from_the_environment(value, required):
    assert gating.gpu_required({gating.REQUIRE_GPU_VARIABLE: value}) is required


def test_requirement_rejects_other_values():
    with pytest.raises(ValueError, match=r"TCDOC_REQUIRE_GPU must be 1 or 0 .*got 'maybe'"):
        gating.gpu_required({gating.REQUIRE_GPU_VARIABLE: "maybe"})


@pytest.mark.parametrize(
    ("version", "cpu_only"),
    [("2.13.0+cpu", True), ("2.13.0", False), ("2.13.0+cu126", False), ("2.9.1+rocm6.4", False),
     ("2.14.0.dev20261101+cpu", True), ("2.5.1+cpu.cxx11.abi", True)],
)  # fmt: skip
def test_cpu_only_builds_are_told_by_their_version_label(version, cpu_only):
    assert gating.cpu_only_torch(version) is cpu_only


def test_the_installed_torch_version_is_read_from_its_package_metadata():
    assert gating.cpu_only_torch() is gating.cpu_only_torch(torch.__version__)
    if gating.cpu_only_torch():
        # What lets the decision skip asking torch: such a build has no CUDA at all.
        assert torch.version.cuda is None
        assert not torch.cuda.is_available()


def test_on_a_cpu_only_build_the_decision_does_not_ask_torch(monkeypatch, no_requirement):
    monkeypatch.setattr(gating, "cpu_only_torch", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: pytest.fail("torch was asked"))
    assert gating.gpu_examples_execute() is False


def test_bad_arguments_are_clear_errors(tmp_path):
    with pytest.raises(TypeError, match="cuda must be a bool, got str"):
        gating.gallery_filename_pattern("yes")
    with pytest.raises(TypeError, match="cuda must be a bool or None, got int"):
        gating.gpu_examples_execute(cuda=1)
    with pytest.raises(TypeError, match="path must be a str or a path, got int"):
        gating.is_gpu_example(3)
    with pytest.raises(ValueError, match="examples_dir must be a directory"):
        gating.gpu_examples(tmp_path / "missing")
    with pytest.raises(TypeError, match="torch_version must be a str or None, got float"):
        gating.cpu_only_torch(2.13)


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
def test_pattern_runs_gpu_scripts_only_with_cuda(path, needs_gpu):
    assert gating.is_gpu_example(path) is needs_gpu
    assert re.search(gating.gallery_filename_pattern(cuda=True), path)
    assert bool(re.search(gating.gallery_filename_pattern(cuda=False), path)) is not needs_gpu


@pytest.mark.parametrize("cuda", [True, False])
def test_sphinx_gallery_executes_what_the_decision_says(cuda):
    """Ask sphinx-gallery itself, on the real example files, which ones it would run."""
    conf = {"filename_pattern": gating.gallery_filename_pattern(cuda), "plot_gallery": True}
    scripts = sorted(EXAMPLES.rglob("*.py"))
    gpu = set(gating.gpu_examples(EXAMPLES))
    assert gpu, "examples/gpu holds the GPU examples"
    assert gpu < set(scripts)
    for script in scripts:
        expected = cuda or script not in gpu
        assert executable_script(str(script), conf) is expected, script


def test_every_script_in_the_gpu_folder_is_gated():
    listed = gating.gpu_examples(EXAMPLES)
    assert listed == tuple(sorted((EXAMPLES / "gpu").glob("*.py")))
    assert all(gating.is_gpu_example(path) for path in listed)
    assert not any(gating.is_gpu_example(path) for path in EXAMPLES.glob("*.py"))


@pytest.mark.parametrize("present", [True, False])
def test_docs_conf_uses_the_decision(monkeypatch, no_requirement, present):
    fake_cuda(monkeypatch, present)
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
    assert conf["tcdoc_gpu_execute"] is present
    assert conf["sphinx_gallery_conf"]["filename_pattern"] == gating.gallery_filename_pattern(present)


def test_the_extension_fails_early_when_gpu_is_required_and_absent(monkeypatch):
    # docs/conf.py leaves the requirement to the extension, which checks it at config-inited.
    from tcdoc.sphinxext import _config

    fake_cuda(monkeypatch, False)
    monkeypatch.setenv(gating.REQUIRE_GPU_VARIABLE, "1")
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
    assert conf["tcdoc_gpu_execute"] is False
    with pytest.raises(ConfigError, match="TCDOC_REQUIRE_GPU=1 asks for the GPU examples to run"):
        _config._decide_gpu(conf["tcdoc_gpu_execute"])


def test_note_names_this_torch():
    assert str(tcdoc.environment()) in gating.no_cuda_note()


# -- A real build without CUDA -----------------------------------------------------------

GPU_CODE_LINE = 'on_gpu = torch.arange(3.0, device="cuda") * 7'
CPU_CODE_LINE = "print(torch.arange(3) * 7)"


def write_project(root: Path) -> Path:
    """A small Sphinx project shaped like docs/: one CPU example and one GPU example."""
    files = {
        "examples/GALLERY_HEADER.rst": "Examples\n========\n",
        "examples/plot_cpu.py": f'"""On the CPU\n===========\n"""\n\nimport torch\n\n{CPU_CODE_LINE}\n',
        "examples/gpu/GALLERY_HEADER.rst": "On the GPU\n----------\n\n.. tcdoc-gpu-status::\n",
        "examples/gpu/plot_gpu.py": f'"""On the GPU\n==========\n"""\n\nimport torch\n\n{GPU_CODE_LINE}\n',
        "docs/index.rst": "Test\n====\n\n.. toctree::\n\n   auto_examples/index\n",
        "docs/conf.py": textwrap.dedent(
            """
            from tcdoc.gating import gallery_filename_pattern, gpu_examples_execute

            extensions = ["sphinx_gallery.gen_gallery", "tcdoc.sphinxext"]
            exclude_patterns = ["_build"]
            nitpicky = True
            tcdoc_gpu_execute = gpu_examples_execute()
            sphinx_gallery_conf = {
                "examples_dirs": ["../examples"],
                "gallery_dirs": ["auto_examples"],
                "filename_pattern": gallery_filename_pattern(tcdoc_gpu_execute),
                "download_all_examples": False,
            }
            """
        ),
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "docs"


def sphinx_build(docs: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Build strictly in a fresh process, with CUDA hidden from torch whatever the machine."""
    environ = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    environ.pop(gating.REQUIRE_GPU_VARIABLE, None)
    environ.update(env)
    command = [sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-q", "-b", "html"]
    return subprocess.run(
        [*command, str(docs), str(docs / "_build")],
        capture_output=True,
        text=True,
        env=environ,
        cwd=docs,
        check=False,
        timeout=600,
    )


def test_build_without_cuda_shows_gpu_examples_with_a_note_and_no_output(tmp_path):
    docs = write_project(tmp_path)
    built = sphinx_build(docs)
    assert built.returncode == 0, built.stderr

    cpu_page = (docs / "_build" / "auto_examples" / "plot_cpu.html").read_text(encoding="utf-8")
    assert OUTPUT_CLASS in cpu_page  # the control: an executed example shows its output
    assert gating.NOT_RUN_CLASS not in cpu_page

    gpu_page = (docs / "_build" / "auto_examples" / "gpu" / "plot_gpu.html").read_text(encoding="utf-8")
    assert gating.NOT_RUN_CLASS in gpu_page
    assert "had no CUDA device, so this example was not run" in gpu_page
    assert torch.__version__ in gpu_page
    assert "on_gpu" in gpu_page  # the code is shown
    assert "arange" in gpu_page
    assert OUTPUT_CLASS not in gpu_page

    for index in ("index.html", "gpu/index.html"):
        page = (docs / "_build" / "auto_examples" / index).read_text(encoding="utf-8")
        assert "had no CUDA device, so these examples were not run" in page
        assert "plot_gpu.html" in page  # still listed

    # Output left over from an earlier build with CUDA would contradict the note: the build fails.
    rst = docs / "auto_examples" / "gpu" / "plot_gpu.rst"
    stale = f"\n.. rst-class:: {OUTPUT_CLASS}\n\n .. code-block:: none\n\n    tensor([ 0.,  7., 14.])\n"
    rst.write_text(rst.read_text(encoding="utf-8") + stale, encoding="utf-8")
    script = tmp_path / "examples" / "gpu" / "plot_gpu.py"
    Path(f"{rst.with_suffix('.py')}.md5").write_text(get_md5sum(script, mode="t"), encoding="utf-8")
    rebuilt = sphinx_build(docs)
    assert rebuilt.returncode != 0
    assert "shows output, yet this build had no CUDA device" in rebuilt.stderr


def test_build_requiring_gpu_without_cuda_fails_clearly(tmp_path):
    docs = write_project(tmp_path)
    built = sphinx_build(docs, **{gating.REQUIRE_GPU_VARIABLE: "1"})
    assert built.returncode != 0
    assert "Configuration error" in built.stderr
    assert "TCDOC_REQUIRE_GPU=1 asks for the GPU examples to run" in built.stderr


# -- The site as built -------------------------------------------------------------------


@pytest.mark.skipif(not (BUILT_HTML / "auto_examples").is_dir(), reason="the docs are not built")
@pytest.mark.parametrize("script", gating.gpu_examples(EXAMPLES), ids=lambda path: path.name)
def test_built_gpu_pages_either_ran_or_say_they_did_not(script):
    page = BUILT_HTML / "auto_examples" / gating.GPU_FOLDER / f"{script.stem}.html"
    assert page.is_file(), f"{page} is missing: build the docs again"
    html = page.read_text(encoding="utf-8")
    noted = gating.NOT_RUN_CLASS in html
    ran = OUTPUT_CLASS in html
    assert noted != ran, "a GPU example page must show either its output or the note, not both"
    if noted:
        assert "had no CUDA device" in html
        assert 'class="highlight' in html  # its code is shown
