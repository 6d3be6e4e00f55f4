"""Names that tcdoc's settings and tables use, known without importing torch.

The registry (``tcdoc._registry``) and :class:`tcdoc.Comparison` import torch; the command's
``--help`` and the Sphinx extension's check of ``conf.py`` must not. So the names of the
operations and scenarios, and the headings of the comparison's fields, are listed here, and
``tests/test_package.py`` checks that they are exactly the registry's and the fields'.

"Does not apply" is its own answer. A field whose answer depends on something the source
tensor may lack (``copies_grad`` needs a ``.grad`` to copy, ``copies_attributes`` needs Python
attributes) is typed ``bool | None`` in :class:`tcdoc.Comparison` and is ``None`` where the
source lacked it: ``null`` in the JSON, ``n/a`` with the reason in :data:`NOT_APPLICABLE` on
every page and in the command, never "no". A new field of that kind is typed ``bool | None``
and gets its reason here; ``tests/test_package.py`` keeps :data:`NOT_APPLICABLE` equal to the
fields typed so.
"""

from __future__ import annotations

__all__ = ["LABELS", "NOT_APPLICABLE", "OPERATION_NAMES", "SCENARIO_NAMES", "SHORT_LABELS", "not_applicable"]

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
    "copies_grad": ".grad",
    "copies_attributes": "attrs",
    "new_bytes": "new bytes",
}
"""Shorter headings for the fields that the command's text table shows (it must fit a terminal)."""

NOT_APPLICABLE = {
    "copies_grad": "x has no .grad",
    "copies_attributes": "x has no Python attributes",
}
"""The fields that may not apply to a source, each with the reason shown beside "n/a" where not."""


def not_applicable(field: str) -> str:
    """Return the words every table and the command show for a field that does not apply.

    >>> not_applicable("copies_grad")
    'n/a: x has no .grad'
    """
    return f"n/a: {NOT_APPLICABLE[field]}"


OPERATION_NAMES: tuple[str, ...] = (
    "clone",
    "detach",
    "detach_clone",
    "clone_detach",
    "deepcopy",
    "copy",
    "data",
    "torch_tensor",
    "new_tensor",
    "as_tensor",
    "to_same_dtype",
    "to_float64",
    "to_copy",
    "contiguous",
    "view",
    "reshape",
    "numpy_roundtrip",
    "save_load",
    "parameter_wrap",
    "cpu",
    "clone_contiguous_format",
    "cuda",
    "to_cuda",
)
"""Every operation of the registry, CUDA-only ones included, in reading order."""

SCENARIO_NAMES: tuple[str, ...] = (
    "leaf_requires_grad",
    "non_leaf",
    "no_grad",
    "parameter",
    "strided_view",
    "channels_last",
    "parameter_with_attribute",
    "cuda",
)
"""Every scenario of the registry, CUDA-only ones included, in reading order."""
