"""Draw the gallery thumbnails of the GPU examples, on the CPU, with tcdoc.draw.

The examples in ``examples/gpu`` run only where CUDA exists, so a build without CUDA has no
figure of theirs to make a thumbnail from. Each of them names a picture drawn here instead, with
``# sphinx_gallery_thumbnail_path``: the copies its page is about, applied to CPU tensors and
drawn by :mod:`tcdoc.draw` from what :func:`tcdoc.compare` measured, and drawn again in Chinese
for the Chinese edition (``<name>.zh_CN.png``, which needs a CJK font such as Debian's
``fonts-noto-cjk``). The PNGs are committed beside this script; draw them again after changing
tcdoc.draw or what an example is about::

    python docs/_thumbnails/draw_gpu_thumbnails.py
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import torch
from matplotlib.figure import Figure

from tcdoc.draw import draw, draw_operations, redraw

HERE = Path(__file__).parent


def copies() -> Figure:
    """Draw the four copies whose GPU memory plot_gpu_01_copies counts: the new bytes of each."""
    return draw_operations(["clone", "detach", "deepcopy", "detach_clone"], "leaf_requires_grad")


def devices() -> Figure:
    """Draw, for plot_gpu_02_devices, a move that returns the tensor itself and one that copies."""
    return draw_operations(["cpu", "to_copy"], "leaf_requires_grad")


def pinned() -> Figure:
    """Draw, for plot_gpu_03_pinned, a copy into a host buffer made beforehand: ``host.copy_(x)``."""
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    host = torch.zeros(4, 8)
    host.copy_(x)
    return draw(x, host, names=("x", "host"))


def model() -> Figure:
    """Draw, for plot_gpu_04_model, a weight of a deep-copied model against the original's."""
    torch.manual_seed(0)
    layer = torch.nn.Linear(4, 2)
    twin = copy.deepcopy(layer)
    return draw(
        layer.weight, twin.weight, "copy.deepcopy(model).weight", names=("model.weight", "twin.weight")
    )


def probe() -> Figure:
    """Draw, for plot_gpu_05_probe, some rows of the probe's table."""
    operations = ["clone", "detach", "deepcopy", "to_same_dtype", "to_float64", "cpu"]
    return draw_operations(operations, "leaf_requires_grad", columns=3)


def cost() -> Figure:
    """Draw, for plot_gpu_cost, the memory of each copy method it times, on a tensor without grad."""
    operations = ["detach", "clone", "detach_clone", "deepcopy", "torch_tensor", "to_copy"]
    return draw_operations(operations, "no_grad", columns=3)


THUMBNAILS: dict[str, Callable[[], Figure]] = {
    "plot_gpu_01_copies": copies,
    "plot_gpu_02_devices": devices,
    "plot_gpu_03_pinned": pinned,
    "plot_gpu_04_model": model,
    "plot_gpu_05_probe": probe,
    "plot_gpu_cost": cost,
}
"""The drawing for each GPU example, by the example's file name without ``.py``."""


LANGUAGES = ("zh_CN",)
"""The languages, besides English, each thumbnail is drawn in: ``<name>.<language>.png``."""


def write(name: str, folder: Path = HERE, language: str = "en") -> Path:
    """Draw the thumbnail of example ``name`` into ``folder`` as ``<name>.png``; return its path.

    In another ``language`` the file is ``<name>.<language>.png``.
    """
    figure = THUMBNAILS[name]()
    if language != "en":
        translated = redraw(figure, language)
        assert translated is not None  # tcdoc.draw drew it
        plt.close(figure)
        figure = translated
    path = folder / (f"{name}.png" if language == "en" else f"{name}.{language}.png")
    # About 800 pixels wide: twice what the gallery shows, and a small file to commit.
    dpi = min(100.0, 800 / figure.get_figwidth())
    figure.savefig(path, format="png", dpi=dpi, transparent=True)
    plt.close(figure)
    return path


def main() -> None:
    """Draw every GPU example's thumbnail beside this script, in English and in each of :data:`LANGUAGES`."""
    for name in THUMBNAILS:
        for language in ("en", *LANGUAGES):
            print(write(name, language=language))


if __name__ == "__main__":
    main()
