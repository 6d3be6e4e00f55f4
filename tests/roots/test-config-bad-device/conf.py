extensions = ["tcdoc.sphinxext"]
tcdoc_device = "gpu"  # a typo: the extension accepts "cpu" or "cuda"
