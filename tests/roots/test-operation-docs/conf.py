extensions = ["tcdoc.sphinxext"]
tcdoc_operation_docs = {"clone": "operations/clone"}
