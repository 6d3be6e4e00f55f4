"""The claims that ``examples/gpu/plot_gpu_02_devices.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import torch

from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _devices_never_change(matrix: Matrix) -> None:
    x = torch.ones(3, requires_grad=True)
    for moved in (x.to("cuda"), x.cuda()):
        expect(x.device.type == "cpu" and moved.device.type == "cuda" and moved is not x, "x changed device")
    g = x.detach().cuda()
    expect(g.to("cuda") is g and g.cuda() is g, "a call on a tensor already there made a copy")
    back = g.cpu()
    expect(g.device.type == "cuda" and back.device.type == "cpu", "g changed device")


CLAIMS = [
    Claim(
        "never-moves",
        _devices_never_change,
        quote="yet a tensor never changes device. Each call either returns the very tensor you gave it, "
        "when it "
        "already is where you asked, or makes a copy on the other device",
        scope="stated: the three calls named",
        needs_cuda=True,
    ),
]
