"""Sphinx configuration for the tcdoc site."""

from __future__ import annotations

import os

from sphinx.errors import ConfigError

import tcdoc
from tcdoc.gating import GpuRequiredError, gallery_filename_pattern, gpu_examples_execute

# -- Project information -------------------------------------------------------------------

project = "tcdoc"
author = "the tcdoc developers"
copyright = f"2026, {author}"
release = tcdoc.__version__
version = ".".join(release.split(".")[:2])

# -- General configuration -----------------------------------------------------------------

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_copybutton",
    "sphinx_gallery.gen_gallery",
    "tcdoc.sphinxext",
]
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip"]
nitpicky = True
nitpick_ignore = [
    # Type variables and private helpers that autodoc spells out in signatures.
]

# -- Options for MyST ------------------------------------------------------------------------

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- Options for autodoc -------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}
napoleon_google_docstring = False

# -- Options for tcdoc.sphinxext -----------------------------------------------------------

# Where the facts are measured. The GPU build sets TCDOC_DEVICE=cuda.
tcdoc_device = os.environ.get("TCDOC_DEVICE", "cpu")
# The page that shows each operation best; tables link an operation's code to it.
tcdoc_operation_docs = {
    "clone": "auto_examples/plot_01_clone",
    "detach": "auto_examples/plot_02_detach",
    "deepcopy": "auto_examples/plot_03_deepcopy",
    "detach_clone": "auto_examples/plot_01_clone",
}

# -- Options for the GPU examples ----------------------------------------------------------

# One decision per build (tcdoc.gating): the examples in examples/gpu run only where CUDA exists;
# elsewhere their pages show the code and a note saying so. TCDOC_REQUIRE_GPU=1 (nox -s docs-gpu)
# turns a missing CUDA device into an error here, reported by Sphinx in one message.
try:
    tcdoc_gpu_execute = gpu_examples_execute()
except GpuRequiredError as error:
    raise ConfigError(str(error)) from None

# -- Options for sphinx-gallery --------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    # Execute every script, not only plot_*; those in examples/gpu only where CUDA exists.
    "filename_pattern": gallery_filename_pattern(tcdoc_gpu_execute),
    "within_subsection_order": "FileNameSortKey",
    "capture_repr": ("_repr_html_", "__repr__"),
    "download_all_examples": True,
    "remove_config_comments": True,
    "show_signature": False,
    "reference_url": {"tcdoc": None},
}

# -- Options for HTML output -----------------------------------------------------------------

html_theme = "furo"
html_title = "tcdoc"
html_static_path = ["_static"]
html_css_files = ["tcdoc.css"]
html_last_updated_fmt = None
