"""The claims that ``examples/plot_18_forward_ad.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from _checks._helpers import detach_clone_has_no_tangent, forward_tangents
from tcdoc import Matrix
from tcdoc.claims import Claim

__all__ = ["CLAIMS"]


def _tangents_follow_the_graph(matrix: Matrix) -> None:
    forward_tangents(matrix)
    detach_clone_has_no_tangent(matrix)


CLAIMS = [
    Claim(
        "tangent",
        _tangents_follow_the_graph,
        quote="The copy methods treat the tangent the way they treat the backward graph: `detach()` drops "
        "it, "
        "`clone()` carries it along",
    ),
    Claim(
        "detach-clone",
        detach_clone_has_no_tangent,
        quote="`detach().clone()` copies the values only, so it has no tangent either",
        scope="stated: detach().clone()",
    ),
]
