"""The claims that ``examples/plot_06_data_is_silent.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import torch

from _checks._helpers import (
    data_change_goes_unnoticed,
    data_shares_memory_not_counter,
    detach_stops_backward,
)
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _data_counter_moves_alone(matrix: Matrix) -> None:
    y = torch.randn(4, requires_grad=True).exp()
    d = y.data
    d.zero_()
    expect((y._version, d._version) == (0, 1), f"the counters read {(y._version, d._version)}")
    expect(torch.equal(y, torch.zeros(4)), "the change did not reach y")


CLAIMS = [
    Claim(
        "data-shares-memory",
        data_change_goes_unnoticed,
        quote="Like `detach()` it shares memory with its source, but it does not share the version "
        "counter, so "
        "autograd cannot see changes made through it",
    ),
    Claim(
        "not-its-counter",
        data_shares_memory_not_counter,
        quote="`y.data` shares memory with `y`, as `y.detach()` does, but not its version counter",
    ),
    Claim(
        "counter-moves-alone",
        _data_counter_moves_alone,
        quote="Zeroing through `.data` writes into `y`, and only the counter of the `.data` tensor moves",
        scope="stated: y and y.data",
    ),
    Claim("mistake-raises", detach_stops_backward, quote="a mistake then raises"),
]
