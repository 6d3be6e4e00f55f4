"""The claims that ``examples/plot_02_detach.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from _checks._helpers import autograd_sees_detached_changes, detach_copies_nothing, write_through_detached
from tcdoc.claims import Claim

__all__ = ["CLAIMS"]


CLAIMS = [
    Claim("cheap", detach_copies_nothing, quote="It is cheap, because nothing is copied"),
    Claim("share-data", write_through_detached, quote="The price is that `y` and `x` share their data"),
    Claim(
        "share-counter",
        autograd_sees_detached_changes,
        quote="They also share a version counter, which autograd uses to notice in-place changes",
    ),
]
