"""Moving between devices
======================

``.to("cuda")``, ``.cuda()`` and ``.cpu()`` read like moves, yet a tensor never changes
device. Each call either returns the very tensor you gave it, when it already is where you
asked, or makes a copy on the other device. Which of the two you get decides whether an
in-place change shows up in the original. The copy stays in the autograd graph.
"""

# %%
# This example needs a CUDA device. When it runs on one, it first prints that device.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_02_devices.png"

if not torch.cuda.is_available():
    raise SystemExit("This example needs a CUDA device, and this torch has none.")
print(f"{torch.cuda.get_device_name() = }")

# %%
# A leaf on the CPU that requires gradients, and a leaf on the GPU with the same values.
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
g = x.detach().to("cuda").requires_grad_()
print(f"{x.device = }")
print(f"{g.device = }")

# sphinx_gallery_start_ignore
from tcdoc.claims import claim

claim(
    "yet a tensor never changes device. Each call either returns the very tensor you gave it, when it "
    "already is where you asked, or makes a copy on the other device",
    all(moved is not x and moved.device.type == "cuda" for moved in (x.to("cuda"), x.cuda()))
    and g.to("cuda") is g
    and g.cuda() is g
    and g.cpu() is not g
    and g.cpu().device.type == "cpu"
    and x.device.type == "cpu"
    and g.device.type == "cuda",
    f"x is on {x.device}, g on {g.device}: a call returned another tensor where it had nothing to do, "
    "or a call moved its tensor",
)
# sphinx_gallery_end_ignore

# %%
# Every call, on each of the two. :func:`tcdoc.compare` measures whether the result is a new
# object, and whether it is on the source's device. It also measures whether the result uses the
# source's memory, and whether a backward pass from it reaches the source.
import tcdoc

moves = {
    'x.to("cuda")': (x, lambda: x.to("cuda")),
    "x.cuda()": (x, lambda: x.cuda()),
    'x.to("cuda", copy=True)': (x, lambda: x.to("cuda", copy=True)),
    "x.cpu()": (x, lambda: x.cpu()),
    'g.to("cuda")': (g, lambda: g.to("cuda")),
    "g.cuda()": (g, lambda: g.cuda()),
    'g.to("cuda", copy=True)': (g, lambda: g.to("cuda", copy=True)),
    "g.cpu()": (g, lambda: g.cpu()),
}
print(f"{'call':<24} {'new object':<11} {'same device':<12} {'shares memory':<14} gradient reaches source")
for code, (source, move) in moves.items():
    report = tcdoc.compare(source, move())
    print(
        f"{code:<24} {report.new_object!s:<11} {report.same_device!s:<12} "
        f"{report.shares_storage!s:<14} {report.gradient_flows_to_source}"
    )

# %%
# A call that returns the tensor itself is no copy at all: a change made through the result
# is a change to the source.
same = g.cuda()
with torch.no_grad():
    same[0, 0] = 100.0
print(f"{g[0, 0].item() = }")

# %%
# A copy to another device is recorded by autograd: it has a ``grad_fn``, and is not a leaf.
on_gpu = x.to("cuda")
print(f"{on_gpu.grad_fn = }")
print(f"{on_gpu.is_leaf = }")

# %%
# So gradients computed on the GPU travel back to the CPU leaf ``x``, and land there on the CPU.
(3 * on_gpu).sum().backward()
print(f"{x.grad = }")

# %%
# The way back works the same: ``.cpu()`` of a GPU tensor is a copy that keeps the history.
back = g.cpu()
(2 * back).sum().backward()
print(f"{back.grad_fn = }")
print(f"{g.grad = }")

# %%
# To copy to another device without the history, detach first.
print(tcdoc.compare(x, x.detach().to("cuda")))

# %%
# These values were measured with:
print(tcdoc.environment("cuda"))

# %%
# Next: :ref:`sphx_glr_auto_examples_gpu_plot_gpu_03_pinned.py` makes these transfers faster.
# The same questions about ``detach()`` alone are in :ref:`sphx_glr_auto_examples_plot_02_detach.py`.
