"""Names that tcdoc's settings and tables use, known without importing torch.

The registry (``tcdoc._registry``, ``tcdoc._modules``) and :class:`tcdoc.Comparison` import
torch; the command's ``--help`` and the Sphinx extension's check of ``conf.py`` must not. The
headings of the comparisons' fields and the families are defined here, once (the tests check
that they are exactly the fields). The names of the operations and scenarios are the registry's
alone: :data:`OPERATION_NAMES`, :data:`SCENARIO_NAMES` and :data:`MODULE_OPERATION_NAMES` are
read from ``_names.json``, which ``python tools/write_names.py`` writes from the registry and
``tests/test_names.py`` keeps up to date.

"Does not apply" is its own answer. A field is ``None`` where its question cannot be asked of
the two objects, and every table and the command show "n/a" with the reason, never "no":

- A field whose answer depends on something the source may lack (``copies_grad`` needs a
  ``.grad`` to copy, ``keeps_conj`` a conjugate bit to keep) has its reason in
  :data:`NOT_APPLICABLE`.
- A field that only a tensor has (``requires_grad``, ``same_dtype``, ...) does not apply where
  the result is not a tensor at all, as for ``x.tolist()``: those fields are
  :data:`TENSOR_ONLY`, and their reason is :data:`NOT_A_TENSOR`.
- A question about what ``y`` copied from ``x`` (:data:`SAME_OBJECT`) does not apply where ``y``
  *is* ``x``: its reason is :data:`Y_IS_X`, so that "copies .grad" and "copies attributes"
  answer alike there.
- ``same_strides`` does not apply where the shapes differ (``same_shape`` is ``False``): its
  reason is then :data:`SHAPE_DIFFERS`.

:func:`reason` picks the one that applies, from the comparison's values; :data:`REASONS` is
every reason there is, which the legend under a table and the catalogue draw on. A new field
of either kind is typed ``... | None`` in :class:`tcdoc.Comparison` and listed here;
``tests/test_compare.py`` keeps the lists equal to the fields typed so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources

__all__ = [
    "FAMILIES",
    "GRAD_MODES",
    "LABELS",
    "MODULE_LABELS",
    "MODULE_NOT_APPLICABLE",
    "MODULE_OPERATION_NAMES",
    "MODULE_SCENARIO",
    "MODULE_SCENARIO_SUMMARY",
    "NOT_APPLICABLE",
    "NOT_A_TENSOR",
    "OPERATION_NAMES",
    "REASONS",
    "SAME_OBJECT",
    "SCENARIO_GROUPS",
    "SCENARIO_NAMES",
    "SHAPE_DIFFERS",
    "SHORT_LABELS",
    "TENSOR_ONLY",
    "WRITES",
    "WRITE_OUTCOMES",
    "Y_IS_X",
    "check_grad_mode",
    "is_not_applicable",
    "not_applicable",
    "reason",
]

LABELS = {
    "new_object": "new object",
    "shares_storage": "shares memory",
    "is_view": "is a view of x",
    "shares_version_counter": "shares version counter",
    "requires_grad": "requires_grad",
    "is_leaf": "is_leaf",
    "grad_fn": "grad_fn",
    "gradient_flows_to_source": "gradient reaches x",
    "result_type": "type",
    "copies_grad": "copies .grad",
    "copies_attributes": "copies attributes",
    "same_shape": "same shape",
    "same_strides": "same strides",
    "same_device": "same device",
    "new_bytes": "new bytes",
    "new_grad_bytes": "new bytes of .grad",
    "source_moved": "x moved",
    "result_is_tensor": "is a tensor",
    "same_dtype": "same dtype",
    "overlaps_itself": "y overlaps itself",
    "keeps_hooks": "keeps hooks",
    "keeps_conj": "keeps conjugate bit",
    "keeps_inference": "keeps inference mark",
    "writes_add": "y.add_(1)",
    "writes_mul": "y.mul_(2)",
    "writes_copy": "y.copy_(y.detach() * 2)",
    "writes_fill": "y.fill_(7)",
    "writes_zero": "y.zero_()",
    "writes_index": "y[first element] = 100",
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
    "same_dtype": "dtype",
    "new_bytes": "new bytes",
}
"""Shorter headings for the fields that the command's text table shows (it must fit a terminal)."""

WRITES = {
    "writes_add": "add_",
    "writes_mul": "mul_",
    "writes_copy": "copy_",
    "writes_fill": "fill_",
    "writes_zero": "zero_",
    "writes_index": "indexed assignment",
}
"""The in-place writes into ``y`` that :func:`tcdoc.compare` tries, each field with the write it names."""

WRITE_OUTCOMES = {
    "refused": "torch raised and nothing changed: the write was refused",
    "y only": "the write succeeded and left x as it was",
    "y and x": "the write succeeded and also changed x",
    "y only, raised": "the write changed y and left x as it was, and then torch raised",
    "y and x, raised": "the write changed y and x, and then torch raised",
}
"""The values of a field of :data:`WRITES`, each with what it means."""

_NO_REMAKE = "compare() was given no remake, so the write was not tried"

NOT_APPLICABLE = {
    "is_view": "x or y is an inference tensor, of which torch records no views",
    "shares_version_counter": "x or y is an inference tensor without a version counter",
    "gradient_flows_to_source": "x does not require grad, so no gradient can reach it",
    "copies_grad": "x has no .grad",
    "copies_attributes": "x has no Python attributes",
    "same_strides": "x or y is not a strided (dense) tensor",
    "new_grad_bytes": "x has no .grad",
    "source_moved": "compare() was given no footprint of x from before, so it was not measured",
    "keeps_hooks": "x has no hooks",
    "keeps_conj": "x has no conjugate bit",
    "keeps_inference": "x is not an inference tensor",
    **dict.fromkeys(WRITES, _NO_REMAKE),
}
"""The fields that may not apply to a source, each with the reason shown beside "n/a" where not.

The write fields and ``source_moved`` say "not tried" and "not measured" where :func:`tcdoc.compare` was not
given what it needs to measure them (``remake``, ``before``); :func:`tcdoc.probe` always gives it.
"""

NOT_A_TENSOR = "y is not a tensor"
"""Why a field of :data:`TENSOR_ONLY` does not apply to a result such as ``x.tolist()``'s list."""

Y_IS_X = "y is x"
"""Why a field of :data:`SAME_OBJECT` does not apply where the result is the source itself."""

SAME_OBJECT = ("is_view", "copies_grad", "copies_attributes")
"""The questions about what ``y`` is or copied apart from ``x``: ``None`` (n/a) where ``y is x``.

``new_bytes`` still applies there (an operation such as ``x.share_memory_()`` returns ``x``
itself, moved into new memory), and so do the ``keeps_...`` fields (``y`` keeps all ``x`` has).
"""

SHAPE_DIFFERS = "x and y differ in shape, so their strides cannot be compared"
"""Why ``same_strides`` does not apply where ``same_shape`` is ``False`` (``x.view(-1)``, ``x.T``)."""

TENSOR_ONLY = (
    "is_view",
    "shares_version_counter",
    "requires_grad",
    "is_leaf",
    "grad_fn",
    "gradient_flows_to_source",
    "copies_grad",
    "copies_attributes",
    "same_shape",
    "same_strides",
    "same_device",
    "new_bytes",
    "new_grad_bytes",
    "same_dtype",
    "overlaps_itself",
    "keeps_hooks",
    "keeps_conj",
    "keeps_inference",
    *WRITES,
)
"""The fields that only a tensor result has: ``None`` (n/a) where the result is not a tensor.

``source_moved`` is not one of them: it asks about ``x`` alone, whatever ``y`` is.
"""

REASONS = (NOT_A_TENSOR, Y_IS_X, SHAPE_DIFFERS, *dict.fromkeys(NOT_APPLICABLE.values()))
"""Every reason a field may be "n/a" for, each once: what a table's legend can say."""


def reason(field: str, values: Mapping[str, object] | bool = True) -> str | None:
    """Return why ``field`` is ``None`` (n/a), or ``None`` where ``None`` is a value of its own.

    ``values`` is the comparison's ``as_dict()``, from which the reason that applies is read:
    :data:`NOT_A_TENSOR` where the result is not a tensor, :data:`Y_IS_X` for a field of
    :data:`SAME_OBJECT` where ``new_object`` is ``False``, :data:`SHAPE_DIFFERS` for
    ``same_strides`` where ``same_shape`` is ``False``, and the field's own reason in
    :data:`NOT_APPLICABLE` otherwise. A plain ``bool`` instead says only whether the result is a
    tensor, and gives the field's usual reason. ``grad_fn`` of a tensor is ``None`` when it has no
    history: that is an answer, not "n/a".

    >>> reason("copies_grad")
    'x has no .grad'
    >>> reason("copies_grad", {"new_object": False, "result_is_tensor": True})
    'y is x'
    >>> reason("requires_grad", False)
    'y is not a tensor'
    >>> reason("grad_fn") is None
    True
    """
    found: Mapping[str, object] = {"result_is_tensor": values} if isinstance(values, bool) else values
    if found.get("result_is_tensor") is False and field in TENSOR_ONLY:
        return NOT_A_TENSOR
    if field in SAME_OBJECT and found.get("new_object") is False:
        return Y_IS_X
    if field == "same_strides" and found.get("same_shape") is False:
        return SHAPE_DIFFERS
    return NOT_APPLICABLE.get(field)


def is_not_applicable(field: str, values: Mapping[str, object]) -> bool:
    """Tell whether ``field`` of a comparison's ``values`` (``as_dict()``) is "n/a".

    >>> is_not_applicable("copies_grad", {"copies_grad": None, "result_is_tensor": True})
    True
    >>> is_not_applicable("grad_fn", {"grad_fn": None, "result_is_tensor": True})
    False
    """
    return values[field] is None and reason(field, values) is not None


def not_applicable(field: str, values: Mapping[str, object] | bool = True) -> str:
    """Return the words every table and the command show for a field that does not apply.

    ``values`` is as for :func:`reason`.

    >>> not_applicable("copies_grad")
    'n/a: x has no .grad'
    >>> not_applicable("same_dtype", False)
    'n/a: y is not a tensor'
    """
    why = reason(field, values)
    if why is None:
        raise ValueError(f"field {field!r} always applies to a tensor result")
    return f"n/a: {why}"


FAMILIES = {
    "copies": "Copies and their look-alikes",
    "constructors": "Constructors and Python values",
    "conversions": "Conversions: dtype and device",
    "memory_formats": "Memory formats",
    "views": "Views, indexing and joins",
    "in_place": "In-place methods",
    "round_trips": "Round trips: NumPy and files",
}
"""Each family of operations, in reading order, and the heading it gets on the matrix pages."""

GRAD_MODES = ("enabled", "no_grad", "inference_mode")
"""The grad modes an operation is measured under, the default first: as it is, inside
``torch.no_grad()`` and inside ``torch.inference_mode()`` (the source is built outside any)."""


def check_grad_mode(grad_mode: object) -> str:
    """Return ``grad_mode`` if it is one of :data:`GRAD_MODES`.

    >>> check_grad_mode("no_grad")
    'no_grad'

    Raises
    ------
    TypeError
        If ``grad_mode`` is not a string.
    ValueError
        If it is not one of the three, which the message names.

    """
    if not isinstance(grad_mode, str):
        raise TypeError(f"grad_mode must be a str, got {type(grad_mode).__name__}")
    if grad_mode not in GRAD_MODES:
        raise ValueError(f"unknown grad mode {grad_mode!r}; choose from: {', '.join(GRAD_MODES)}")
    return grad_mode


SCENARIO_GROUPS = {
    "everyday": "Everyday tensors",
    "special": "Special tensors",
}
"""The two groups of scenarios, each a table of its own on the matrix pages."""


# -- Modules ------------------------------------------------------------------------------------

MODULE_LABELS = {
    "new_object": "new object",
    "result_type": "type",
    "tensors": "tensors",
    "same_tensors": "x's own tensors",
    "shares_storage": "share x's memory",
    "requires_grad": "require grad",
    "with_grad": "carry x's .grad",
    "changes_source": "changes x",
    "new_bytes": "new bytes",
}
"""A heading for each :class:`tcdoc.ModuleComparison` field, in field order."""

MODULE_NOT_APPLICABLE = {
    "with_grad": "x's tensors have no .grad",
}
"""The module fields that may not apply, each with its reason."""

MODULE_SCENARIO = "trained_model"
"""The name of the one source that module-level operations start from."""

MODULE_SCENARIO_SUMMARY = (
    "A Linear(3, 2) then a BatchNorm1d(2), after one step of Adam: every parameter has a .grad, "
    "the optimizer has state."
)
"""What :data:`MODULE_SCENARIO` is, in one line."""


# -- The registry's names -------------------------------------------------------------------


def _generated() -> dict[str, tuple[str, ...]]:
    """Read ``_names.json``: the registry's names, written by ``tools/write_names.py``."""
    data = json.loads(resources.files(__package__ or "tcdoc").joinpath("_names.json").read_text("utf-8"))
    return {key: tuple(map(str, value)) for key, value in data.items()}


_GENERATED = _generated()

OPERATION_NAMES: tuple[str, ...] = _GENERATED["operations"]
"""Every operation of the registry, CUDA-only ones included, in reading order."""

SCENARIO_NAMES: tuple[str, ...] = _GENERATED["scenarios"]
"""Every scenario of the registry, CUDA-only ones included, in reading order."""

MODULE_OPERATION_NAMES: tuple[str, ...] = _GENERATED["module_operations"]
"""Every module-level operation, CUDA-only ones included, in reading order."""
