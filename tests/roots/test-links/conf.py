extensions = ["sphinx.ext.intersphinx", "tcdoc.sphinxext"]
nitpicky = True
