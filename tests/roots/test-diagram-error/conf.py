extensions = ["tcdoc.sphinxext"]
