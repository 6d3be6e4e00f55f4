"""Sphinx configuration for the tcdoc site."""

from __future__ import annotations

import os

import tcdoc

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
    "clone_detach": "auto_examples/plot_04_detach_clone_order",
    "torch_tensor": "auto_examples/plot_04_detach_clone_order",
    "data": "auto_examples/plot_06_data_is_silent",
}

# -- Options for sphinx-gallery --------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    # Execute every script, not only plot_*.
    "filename_pattern": r"\.py$",
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
