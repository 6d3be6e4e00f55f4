"""The claims that ``examples/plot_11_ema_target_network.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from _checks._helpers import tied_model_deepcopy, tied_module
from tcdoc.claims import Claim

__all__ = ["CLAIMS"]


CLAIMS = [
    Claim(
        "tie-kept",
        tied_module,
        quote="A deep copy of the whole model keeps the tie inside the copy, because one deepcopy call "
        "copies a "
        "shared object once (see {doc}`plot_08_deepcopy_aliasing`), and shares nothing with the original",
    ),
    Claim(
        "separate-copies",
        tied_model_deepcopy,
        quote="So a change to one of the separate copies no longer reaches the other, where in the "
        "deep-copied "
        "model it reaches both uses of the weight",
    ),
]
