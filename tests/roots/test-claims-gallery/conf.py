extensions = ["myst_parser", "sphinx_gallery.gen_gallery", "tcdoc.sphinxext"]
myst_enable_extensions = ["attrs_inline"]
exclude_patterns = ["_build", "examples"]
# The site's settings that decide what a failing example does (docs/conf.py sets none of
# abort_on_example_error and only_warn_on_example_error: a failing example fails the build).
sphinx_gallery_conf = {
    "examples_dirs": ["examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"\.py$",
    "remove_config_comments": True,
    "image_scrapers": (),
}
