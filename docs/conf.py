"""Sphinx configuration for the tcdoc site."""

from __future__ import annotations

import os
import sys
import time
from importlib.metadata import version as installed_version
from urllib.parse import urlsplit

import tcdoc

# The site's own extension (docs/_ext/tcdoc_site): what only this site does to its pages. The
# package's tcdoc.sphinxext renders the facts; the wheel ships no part of this one.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))
from tcdoc_site.gating import gallery_filename_pattern, gpu_examples_execute

# -- Project information -------------------------------------------------------------------

project = "tcdoc"
author = "the tcdoc developers"
# SOURCE_DATE_EPOCH pins every date in the output, so that two builds of a commit match.
_build_time = time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", time.time())))
copyright = f"{_build_time.tm_year}, {author}"
release = tcdoc.__version__
version = ".".join(release.split(".")[:2])

# -- General configuration -----------------------------------------------------------------

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx_gallery.gen_gallery",
    "tcdoc.sphinxext",
    "tcdoc_site",
    "sphinx_sitemap",
    "sphinxext.opengraph",
]
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip"]
nitpicky = True
# Every reference resolves: torch, Python, NumPy and matplotlib names through the inventories kept in
# docs/_inventories (see intersphinx below), so nothing needs nitpick_ignore.

# -- Options for translations -------------------------------------------------------------

# The English pages are the source. docs/locales holds the Simplified Chinese catalogues, one per
# page (sphinx-intl's layout); `nox -s docs-zh` builds that edition with language=zh_CN into
# _build/html/zh_CN, and tools/i18n.py keeps the catalogues in step with the English text.
locale_dirs = ["locales/"]
gettext_compact = False
gettext_uuid = False
gettext_last_translator = "the tcdoc developers"
gettext_language_team = "tcdoc <https://github.com/tcdoc/tcdoc>"
# The Chinese search splits text into words with jieba, keeping the terms of
# locales/zh_CN/terms.txt whole, and splits a typed query the same way (tcdoc_site._search).

# -- Options for MyST ------------------------------------------------------------------------

# attrs_inline: a claim is a span of the page's own words, [words]{#id .claim} (see tcdoc_checks).
myst_enable_extensions = ["attrs_inline", "colon_fence", "deflist"]
myst_heading_anchors = 3

# -- Options for autodoc -------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}
napoleon_google_docstring = False

# -- Options for intersphinx ---------------------------------------------------------------

# The build machines have no network, so each project's inventory is read from a file kept in
# the repository: tools/make_inventories.py writes them from the names the site uses, each with
# its address on the official site, and tests/test_inventories.py keeps them up to date. They
# link the cross-references of the pages and the names in example code (sphinx-gallery reads
# intersphinx too).
intersphinx_mapping = {
    "torch": ("https://docs.pytorch.org/docs/stable/", "_inventories/torch.inv"),
    "python": ("https://docs.python.org/3/", "_inventories/python.inv"),
    "numpy": ("https://numpy.org/doc/stable/", "_inventories/numpy.inv"),
    "matplotlib": ("https://matplotlib.org/stable/", "_inventories/matplotlib.inv"),
}

# -- Options for tcdoc.sphinxext -----------------------------------------------------------

# The checks of the pages' claims: docs/_checks, one module per page (docs/_checks/explanation/clone.py
# for explanation/clone.md, docs/_checks/examples/plot_03_deepcopy.py for that example). See CONTRIBUTING.md.
sys.path.insert(0, os.path.dirname(__file__))
tcdoc_checks = "_checks"
# Where the facts are measured. The GPU build sets TCDOC_DEVICE=cuda.
tcdoc_device = os.environ.get("TCDOC_DEVICE", "cpu")
# The page that shows each operation best; tables link an operation's code to it. An operation
# that the map does not name links to the look-alikes page, which goes through the calls that
# look as if they copy; the map names only the operations that another page shows better.
tcdoc_operation_default_doc = "explanation/look-alikes"
# The matrices of earlier torch releases (nox -s snapshot writes one): what the page of changes
# between releases compares, and what the family pages' tables mark a changed cell from.
tcdoc_snapshots = "_snapshots"
tcdoc_operation_docs = {
    "clone": "auto_examples/plot_01_clone",
    "detach": "auto_examples/plot_02_detach",
    "deepcopy": "auto_examples/plot_03_deepcopy",
    "detach_clone": "auto_examples/plot_01_clone",
    "clone_detach": "auto_examples/plot_04_detach_clone_order",
    "torch_tensor": "auto_examples/plot_04_detach_clone_order",
    "data": "auto_examples/plot_06_data_is_silent",
    "contiguous": "auto_examples/plot_14_memory_format",
    "clone_contiguous_format": "auto_examples/plot_14_memory_format",
    "view": "auto_examples/plot_15_views_vs_copies",
    "reshape": "auto_examples/plot_15_views_vs_copies",
    "numpy_roundtrip": "auto_examples/plot_13_numpy",
    "save_load": "auto_examples/plot_16_save_load",
    "cuda": "auto_examples/gpu/plot_gpu_02_devices",
    "to_cuda": "auto_examples/gpu/plot_gpu_02_devices",
    "torch_clone": "auto_examples/plot_01_clone",
    "empty_like_copy": "auto_examples/plot_19_cost",
    "add_zero": "auto_examples/plot_15_views_vs_copies",
    "to_cuda_non_blocking": "auto_examples/gpu/plot_gpu_03_pinned",
    "pin_memory": "auto_examples/gpu/plot_gpu_03_pinned",
    "clone_channels_last": "auto_examples/plot_14_memory_format",
    "slice": "auto_examples/plot_21_indexing_views",
    "index": "auto_examples/plot_21_indexing_views",
    "T": "auto_examples/plot_15_views_vs_copies",
    "permute": "auto_examples/plot_15_views_vs_copies",
    "expand": "auto_examples/plot_21_indexing_views",
    "cat": "auto_examples/plot_21_indexing_views",
    "stack": "auto_examples/plot_21_indexing_views",
    "share_memory_": "auto_examples/plot_17_multiprocessing",
    "numpy_direct": "auto_examples/plot_13_numpy",
    # Module-level operations (the tcdoc-modules table).
    "module_to_same_dtype": "auto_examples/plot_22_module_to",
    "module_to_float64": "auto_examples/plot_22_module_to",
    "module_to_cuda": "auto_examples/gpu/plot_gpu_04_model",
    "module_deepcopy": "auto_examples/plot_11_ema_target_network",
    "state_dict": "auto_examples/plot_10_best_model",
    "state_dict_deepcopy": "auto_examples/plot_10_best_model",
}

# -- Options for the GPU examples ----------------------------------------------------------

# One decision per build (tcdoc_site.gating): the examples in examples/gpu run only where CUDA exists;
# elsewhere their pages show the code and a note saying so. The site's extension checks the decision
# when the configuration is read: with TCDOC_REQUIRE_GPU=1 (nox -s docs-gpu) and no CUDA device,
# the build stops there with a configuration error that says why.
tcdoc_gpu_execute = gpu_examples_execute(required=False)

# -- Options for sphinx-gallery --------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    # Execute every script, not only plot_*; those in examples/gpu only where CUDA exists.
    "filename_pattern": gallery_filename_pattern(tcdoc_gpu_execute),
    "within_subsection_order": "FileNameSortKey",
    "capture_repr": ("_repr_html_", "__repr__"),
    # A figure a cell ends with is shown as its image; its repr would only add noise.
    "ignore_repr_types": r"matplotlib\.figure\.Figure",
    "download_all_examples": True,
    "remove_config_comments": True,
    "show_signature": False,
    # A downloaded notebook starts by installing what it imports (see "Install" on the home page).
    "first_notebook_cell": (
        "# Install tcdoc and what the examples draw with (matplotlib). On Linux, pip's default torch\n"
        "# may be a large CUDA build: without an NVIDIA GPU, install the CPU build first with\n"
        "# %pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
        '%pip install "tcdoc[plot]"'
    ),
    # "Examples using this" mini-galleries on the API page, for tcdoc's public functions.
    "doc_module": ("tcdoc",),
    "backreferences_dir": "gen_modules/backreferences",
    # Each figure is saved as usual and, beside it, drawn in Chinese for the Chinese edition, which
    # does not run the examples (tcdoc_site._figures; it needs a CJK font, Debian's fonts-noto-cjk).
    "image_scrapers": ("tcdoc_site._figures.scraper", "tcdoc_site._printed_findings.scraper"),
    # "parallel" stays off: on a 2-core machine it did not shorten a cold build (measured 17.3 s
    # with 2 workers against 17.1 s without), since each worker pays for importing torch again.
}

# -- Options for HTML output -----------------------------------------------------------------

html_theme = "furo"
html_title = "tcdoc"
html_logo = "_static/logo.svg"
html_favicon = "_static/favicon.svg"
html_static_path = ["_static"]
html_css_files = ["tcdoc.css"]
templates_path = ["_templates"]
# furo's sidebar, with a switch to the same page in the other language below the search box.
html_sidebars = {
    "**": [
        "sidebar/scroll-start.html",
        "sidebar/brand.html",
        "sidebar/search.html",
        "sidebar/language.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ]
}
# "View" and "edit" buttons at the top of each page, pointing at its source in the repository;
# a gallery page points at its example script (tcdoc_site), not at the generated page.
html_theme_options = {
    "source_repository": "https://github.com/tcdoc/tcdoc/",
    "source_branch": "main",
    "source_directory": "docs/",
}
# The footer's torch version, from the installed package: the torch that ran the examples, read
# without importing it (nothing in this file imports torch, so a build with nothing to do is quick).
html_context = {"tcdoc_torch": installed_version("torch"), "tcdoc_device": tcdoc_device}
# Where the site is published. Read the Docs sets READTHEDOCS_CANONICAL_URL; the pages
# themselves use relative links, so the site also works from any other address or from disk.
# The Chinese edition's address is this one's zh_CN/ (tcdoc_site adds it).
html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "https://tcdoc.readthedocs.io/en/latest/")
# The path a host serves the site under, which the 404 page tries first to find the site's root
# (tcdoc_site._notfound; it finds the root under any other path too): GitHub Pages sets
# TCDOC_URL_PREFIX to /<repository>/ (.github/workflows/docs.yml).
tcdoc_url_prefix = os.environ.get("TCDOC_URL_PREFIX") or urlsplit(html_baseurl).path or "/"

# -- Options for sphinx-sitemap and sphinxext-opengraph --------------------------------------

sitemap_url_scheme = "{link}"
sitemap_excludes = ["search.html", "genindex.html", "404.html"]
ogp_site_url = html_baseurl
ogp_site_name = "tcdoc"
# Link previews show PNG, not SVG: a 1200 x 630 card drawn from the logo by tools/make_social_card.py.
ogp_image = "_static/social-card.png"
ogp_image_alt = "tcdoc: a tensor and its copy"
ogp_social_cards = {"enable": False}  # cards are drawn with matplotlib at build time: slow, and not needed

# -- Options for the gallery's thumbnails ----------------------------------------------------

# A thumbnail shows at most 160 x 112 CSS pixels: twice that is sharp on a high-density screen,
# and weighs less than sphinx-gallery's default of 400 x 280.
sphinx_gallery_conf["thumbnail_size"] = (320, 224)

# sphinx-gallery writes no computation-times pages when SOURCE_DATE_EPOCH is set (CI sets it for
# reproducible builds); the site keeps them, and nox -s reproducible leaves them out of its comparison.
sphinx_gallery_conf["write_computation_times"] = True
