"""tcdoc's probe on CUDA
=====================

The tables on this site are measured while it is built. On a machine with CUDA, the same
probe adds the operations that need a GPU (``x.cuda()`` and ``x.to("cuda")``). It also adds
a source tensor that starts on the GPU. This page runs them, so that you can compare the answers with
the CPU ones in :doc:`/reference/matrix`.
"""

# %%
# This example needs a CUDA device. When it runs on one, it first prints the environment it
# runs in.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_05_probe.png"

if not torch.cuda.is_available():
    raise SystemExit("This example needs a CUDA device, and this torch has none.")
import tcdoc

print(tcdoc.environment("cuda"))

# %%
# The operations and scenarios that tcdoc lists where CUDA is available, and not elsewhere:
print(
    (
        [op.code for op in tcdoc.operations() if op.needs_cuda],
        [scenario.name for scenario in tcdoc.scenarios() if scenario.needs_cuda],
    )
)

# %%
# A few operations on a CPU leaf (``leaf_requires_grad``) and on the same leaf built on the
# GPU (``cuda``), answered in words.
names = ["cuda", "to_cuda", "cpu", "clone", "detach", "deepcopy", "detach_clone"]
result = tcdoc.matrix(names, ["leaf_requires_grad", "cuda"], grad_modes=["enabled"])
for row in result.rows:
    code = tcdoc.get_operation(row.operation).code
    if row.properties is None:
        print(f"{code:<20} {row.scenario:<20} raises {row.error.type}")
        continue
    said = tcdoc.answers(row.properties)
    where = "same device" if row.properties.same_device else "other device"
    print(f"{code:<20} {row.scenario:<20} {where:<13} memory {said['memory']:<30} history {said['history']}")

# %%
# The ``tcdoc`` command asks the same with ``--device cuda``, which builds every source
# tensor on the GPU. Here it is for four methods on a leaf and on a non-leaf.
from tcdoc.cli import main

options = ["--device", "cuda", "--scenario", "leaf_requires_grad", "--scenario", "non_leaf"]
for name in ["clone", "detach", "deepcopy", "detach_clone"]:
    options += ["--op", name]
status = main(["matrix", *options])

# %%
# Next: :doc:`/reference/cli` describes the command, and :doc:`/reference/matrix`
# holds the CPU answers for every operation.
