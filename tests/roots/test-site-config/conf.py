extensions = ["tcdoc_site"]
