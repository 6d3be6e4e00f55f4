# A site that loads tcdoc's package extension alone, with furo and sphinx-gallery, as another
# project would: nothing of tcdoc's own site (docs/_ext/tcdoc_site) is loaded.
extensions = ["sphinx_gallery.gen_gallery", "tcdoc.sphinxext"]
html_theme = "furo"
exclude_patterns = ["_build", "examples"]
sphinx_gallery_conf = {
    "examples_dirs": ["examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"\.py$",
    "image_scrapers": (),
    "download_all_examples": False,
}
