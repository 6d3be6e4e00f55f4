"""The headings of :class:`tcdoc.Comparison`'s fields, for every table that shows them.

Kept apart from ``tcdoc._compare`` because it needs no torch: the command's ``--help`` and the
Sphinx extension read it without importing torch. ``tests/test_compare.py`` checks that it names
every field.
"""

from __future__ import annotations

__all__ = ["LABELS", "SHORT_LABELS"]

LABELS = {
    "new_object": "new object",
    "shares_storage": "shares memory",
    "shares_version_counter": "shares version counter",
    "requires_grad": "requires_grad",
    "is_leaf": "is_leaf",
    "grad_fn": "grad_fn",
    "gradient_flows_to_source": "gradient reaches x",
    "result_type": "type",
    "copies_grad": "copies .grad",
    "copies_attributes": "copies attributes",
    "same_strides": "same strides",
    "same_device": "same device",
    "new_bytes": "new bytes",
}
"""A heading for each :class:`Comparison` field, in field order: the tables' and the command's."""

SHORT_LABELS = {
    "new_object": "new obj",
    "shares_storage": "shares mem",
    "shares_version_counter": "shares ver",
    "requires_grad": "req grad",
    "is_leaf": "leaf",
    "grad_fn": "grad_fn",
    "gradient_flows_to_source": "grad to x",
    "result_type": "type",
    "new_bytes": "new bytes",
}
"""Shorter headings for the fields that the command's text table shows (it must fit a terminal)."""
