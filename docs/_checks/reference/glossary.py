"""The checks of the claims on ``docs/reference/glossary.md``.

Each ``[words]{#id .claim}`` span of the page has its claim here, by id, pinned to its words.
"""

from __future__ import annotations

from _checks._helpers import autograd_sees_detached_changes, each_measured, version_error_words
from tcdoc import Comparison, Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _with_counter(report: Comparison) -> bool:
    """Whether both tensors have a version counter to share (an inference tensor has none)."""
    return report.shares_version_counter is not None


def _counter_shared_by_views_and_detach(matrix: Matrix) -> None:
    for op in ("detach", "view", "slice", "T", "permute", "expand"):
        for scenario, report in each_measured(matrix, op):
            if _with_counter(report):  # an inference tensor has no counter at all
                expect(report.shares_version_counter, f"{op} on {scenario} has its own counter")
    autograd_sees_detached_changes(matrix)


CLAIMS = [
    Claim("version-counter", _counter_shared_by_views_and_detach, pin="70a2447e80", scope="registry"),
    Claim("version-counter-checked", version_error_words, pin="388f046080"),
]
