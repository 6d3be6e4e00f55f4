extensions = ["tcdoc.sphinxext"]
tcdoc_snapshots = "_snapshots"  # the test writes the snapshots into the copy it builds
