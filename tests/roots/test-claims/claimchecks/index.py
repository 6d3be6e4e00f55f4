"""The checks of index.md's claims."""

from tcdoc.claims import Claim, Only, expect, measured


def _clone_copies(matrix):
    expect(not measured(matrix, "clone", "no_grad").shares_storage, "clone shares memory with x")


def _clone_is_a_leaf(matrix, scope):
    for name, measured_there in scope.cells(matrix, "clone"):
        expect(measured_there.is_leaf, f"clone of {name} is not a leaf under {scope.grad_mode}")


CLAIMS = [
    Claim("clone-copies", _clone_copies, words="`x.clone()` copies the data of `x`"),
    Only(
        "only-detach",
        ops=("detach",),
        test=lambda report: report.shares_storage,
        among=("clone", "detach"),
        scenarios=("no_grad",),
        words="Of {among}, on {scenarios}, only {ops} shares memory with `x`",
    ),
    Claim("clone-is-a-leaf", _clone_is_a_leaf, words="`x.clone()` is a leaf"),
]
