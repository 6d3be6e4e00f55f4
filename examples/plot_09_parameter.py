"""An ``nn.Parameter`` through every copy method
=============================================

Model weights are :class:`torch.nn.Parameter` objects, a subclass of
:class:`torch.Tensor`, and the copy methods do not all treat them alike. Some return a
``Parameter``, others a plain ``Tensor`` (and ``x.tolist()`` Python lists); some keep
``requires_grad``, others drop it; and ``copy.deepcopy`` of a ``Parameter`` follows rules of
its own, unlike those for a plain tensor.
If you copy weights by hand (for a snapshot, a target network, or an optimiser's state), this
table tells you what you get.
"""

# %%
# Every method in one table
# -------------------------
# :func:`tcdoc.matrix` applies every registered operation to a fresh ``Parameter`` built by
# the ``parameter`` scenario, and measures each result:
import tcdoc

print(f'{tcdoc.get_scenario("parameter").summary = }')

# %%
# We print the columns that matter here; a method that warned is marked with its warning's
# category.
measured = tcdoc.matrix(scenarios=["parameter"], grad_modes=["enabled"])
columns = ("new_object", "result_type", "copies_grad", "requires_grad", "is_leaf", "shares_storage")
widths = [len(name) + 2 for name in columns]
print(f"{'code':<48}" + "".join(f"{name:<{w}}" for name, w in zip(columns, widths, strict=True)) + "warnings")
for row in measured.rows:
    code = tcdoc.get_operation(row.operation).code
    if row.properties is None:
        print(f"{code:<48}{row.outcome}")
        continue
    values = row.properties.as_dict()
    cells = "".join(f"{values[name]!s:<{w}}" for name, w in zip(columns, widths, strict=True))
    warned = ", ".join(warning.category for warning in row.warnings)
    print(f"{code:<48}{cells}{warned}".rstrip())

# %%
# Several methods return ``x`` itself, which is why they "return a Parameter" and share
# everything:
reports = {tcdoc.get_operation(row.operation).code: row.properties for row in measured.rows}
print([code for code, report in reports.items() if report is not None and not report.new_object])

# %%
# These make a *new* ``Parameter``:
print(
    [
        code
        for code, report in reports.items()
        if report is not None and report.new_object and report.result_type == "Parameter"
    ]
)

# %%
# No result has a copy of ``.grad`` of its own, although the source had one: the
# ``copies_grad`` column is false on every row where the result is a new tensor, and ``None``
# where it is a list, which has no ``.grad`` at all, or ``x`` itself, which copied nothing.
print(any(report.copies_grad for report in reports.values() if report is not None))

# %%
# Four of those rows as pictures, drawn by :func:`tcdoc.draw.draw_operations` on a fresh
# ``Parameter`` of the same scenario. The first line in each result's box is its type.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["detach", "clone", "deepcopy", "parameter_wrap"], "parameter")

# %%
# Deepcopy: a new Parameter, without ``.grad`` or attributes
# ----------------------------------------------------------
# On a plain tensor, deepcopy copies ``.grad`` and Python attributes (see
# :doc:`plot_08_deepcopy_aliasing`). On a ``Parameter`` it makes a new ``Parameter`` from
# the values alone.
import copy

import torch

torch.manual_seed(0)
weight = torch.nn.Parameter(torch.randn(3))
weight.grad = torch.ones(3)
weight.note = "tied to the decoder"
weight_copy = copy.deepcopy(weight)
print(f"{type(weight_copy).__name__ = }")
print(f"{weight_copy.grad = }")
print(f'{hasattr(weight_copy, "note") = }')

# %%
# The same measurement on a plain leaf tensor with the same ``.grad`` and attribute, and
# the fields where the two differ (``Parameter`` first, plain tensor second):
plain = weight.detach().clone().requires_grad_(True)
plain.grad = torch.ones(3)
plain.note = "tied to the decoder"
from_parameter = tcdoc.compare(weight, weight_copy).as_dict()
from_tensor = tcdoc.compare(plain, copy.deepcopy(plain)).as_dict()
print(
    {
        name: (from_parameter[name], from_tensor[name])
        for name in from_parameter
        if from_parameter[name] != from_tensor[name]
    }
)

# %%
# The same rule applies inside a model: deepcopy of a module copies each weight through
# ``Parameter``'s deepcopy, so the copy starts without gradients.
layer = torch.nn.Linear(3, 1)
layer(torch.randn(2, 3)).sum().backward()
layer_copy = copy.deepcopy(layer)
print(f"{layer.weight.grad is not None = }")
print(f"{layer_copy.weight.grad = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# More on ``Parameter`` and deepcopy: :doc:`/explanation/deepcopy`. The same table for
# every kind of tensor: :doc:`/reference/matrix`.
