extensions = ["tcdoc.sphinxext"]
nitpicky = True
