import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
extensions = ["myst_parser", "tcdoc.sphinxext"]
myst_enable_extensions = ["attrs_inline", "colon_fence"]
tcdoc_checks = "claimchecks"
