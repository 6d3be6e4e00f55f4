extensions = ["sphinx_gallery.gen_gallery", "tcdoc_site"]
exclude_patterns = ["_build", "examples"]
sphinx_gallery_conf = {
    "examples_dirs": ["examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"\.py$",
    # No scrapers: figures left open by other tests must not count as output.
    "image_scrapers": (),
}
