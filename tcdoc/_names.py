"""Names that tcdoc's settings and tables use, known without importing torch.

The registry (``tcdoc._registry``) and :class:`tcdoc.Comparison` import torch; the command's
``--help`` and the Sphinx extension's check of ``conf.py`` must not. So the names of the
operations and scenarios, and the headings of the comparison's fields, are listed here, and
``tests/test_package.py`` checks that they are exactly the registry's and the fields'.
"""

from __future__ import annotations

__all__ = ["LABELS", "OPERATION_NAMES", "SCENARIO_NAMES", "SHORT_LABELS"]

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
    "cuda",
)
"""Every scenario of the registry, CUDA-only ones included, in reading order."""
