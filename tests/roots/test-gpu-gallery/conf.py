# Shaped like docs/conf.py: one decision about the GPU examples, and the gallery runs what it says.
from tcdoc_site.gating import gallery_filename_pattern, gpu_examples_execute

extensions = ["sphinx_gallery.gen_gallery", "tcdoc_site"]
exclude_patterns = ["_build", "examples"]
nitpicky = True
tcdoc_gpu_execute = gpu_examples_execute(required=False)
sphinx_gallery_conf = {
    "examples_dirs": ["examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": gallery_filename_pattern(tcdoc_gpu_execute),
    "download_all_examples": False,
    "image_scrapers": (),
}
