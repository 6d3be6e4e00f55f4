"""The claims that ``examples/plot_09_parameter.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

from _checks._helpers import (
    each_measured_on,
    module_deepcopy_drops_grads,
    parameter_deepcopy_drops,
    parameter_deepcopy_is_its_own,
)
from tcdoc import Matrix
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _parameter_methods_differ(matrix: Matrix) -> None:
    measured_here = each_measured_on(matrix, "parameter")
    reports = [report for _, report in measured_here]
    types = {report.result_type for report in reports if report.result_is_tensor}
    expect(types == {"Parameter", "Tensor"}, f"the tensors returned are of types {types}")
    lists = {operation for operation, report in measured_here if not report.result_is_tensor}
    expect(lists == {"tolist"}, f"{lists} return no tensor")
    flags = {report.requires_grad for report in reports if report.result_is_tensor}
    expect(flags == {True, False}, "requires_grad is kept by all or dropped by all")
    parameter_deepcopy_is_its_own(matrix)


def _parameter_self_results(matrix: Matrix) -> None:
    for operation, report in each_measured_on(matrix, "parameter"):
        if not report.new_object:
            # Memory is measured against x as it was before the call: x.share_memory_() returns x
            # itself, moved into new memory, which it still shares with itself (source_moved).
            same_memory = report.shares_storage or report.source_moved
            ok = report.result_type == "Parameter" and same_memory and report.shares_version_counter
            expect(ok, f"{operation} returned x yet measured {report}")
    expect(any(not r.new_object for _, r in each_measured_on(matrix, "parameter")), "none returns x")


def _no_result_copies_parameter_grad(matrix: Matrix) -> None:
    for operation, report in each_measured_on(matrix, "parameter"):
        # n/a where there is no new tensor: a list has no .grad, and x itself copied nothing.
        expected = False if report.result_is_tensor and report.new_object else None
        expect(
            report.copies_grad is expected,
            f"{operation} on a Parameter measured copies_grad={report.copies_grad}",
        )


def _plain_deepcopy_parameter_values_alone(matrix: Matrix) -> None:
    parameter_deepcopy_drops(matrix)


CLAIMS = [
    Claim(
        "methods-differ",
        _parameter_methods_differ,
        quote="Some return a `Parameter`, others a plain `Tensor` (and `x.tolist()` Python lists); some keep "
        "`requires_grad`, others drop it; and `copy.deepcopy` of a `Parameter` follows rules of its own, "
        "unlike those for a plain tensor",
    ),
    Claim(
        "return-x",
        _parameter_self_results,
        quote='Several methods return `x` itself, which is why they "return a Parameter" and share '
        "everything",
    ),
    Claim(
        "no-grad-copied",
        _no_result_copies_parameter_grad,
        quote="No result has a copy of `.grad` of its own, although the source had one: `copies_grad` is "
        "false for every method whose result is a new tensor, and `None` where it is a list, which has no "
        "`.grad` at all, or `x` itself, which copied nothing",
        scope="registry",
    ),
    Claim(
        "values-alone",
        _plain_deepcopy_parameter_values_alone,
        quote="On a plain tensor, deepcopy copies `.grad` and Python attributes (see "
        "{doc}`plot_08_deepcopy_aliasing`). On a `Parameter` it makes a new `Parameter` from the values "
        "alone",
    ),
    Claim(
        "module",
        module_deepcopy_drops_grads,
        quote="The same rule applies inside a model: deepcopy of a module copies each weight through "
        "`Parameter`'s "
        "deepcopy, so the copy starts without gradients",
    ),
]
