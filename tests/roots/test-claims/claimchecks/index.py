"""The checks of index.md's claims."""

from tcdoc.claims import Claim, Only, expect, measured


def _clone_copies(matrix):
    expect(not measured(matrix, "clone", "no_grad").shares_storage, "clone shares memory with x")


CLAIMS = [
    Claim("clone-copies", _clone_copies, pin="bd0ff9621f"),
    Only(
        "only-detach",
        ops=("detach",),
        test=lambda report: report.shares_storage,
        among=("clone", "detach"),
        scenarios=("no_grad",),
        pin="e53f02140b",
    ),
]
