"""An ``nn.Parameter`` through every copy method
=============================================

Model weights are :class:`torch.nn.Parameter` objects, a subclass of
:class:`torch.Tensor`, and the copy methods do not all treat them alike. Some return a
``Parameter``, others a plain ``Tensor`` (and ``x.tolist()`` Python lists). Some keep
``requires_grad``, others drop it. And ``copy.deepcopy`` of a ``Parameter`` follows rules of
its own, unlike those for a plain tensor.

If you copy weights by hand (for a snapshot, a target network, or an optimiser's state), this
example follows one weight through the copies you would reach for, one step each. Then it asks
every registered method at once.
"""

# %%
# A weight with a gradient
# ------------------------
# One ``Parameter``, after a backward pass has left a gradient on it.
import torch

import tcdoc

torch.manual_seed(0)
weight = torch.nn.Parameter(torch.randn(3))
weight.grad = torch.ones(3)


def show(code: str, result: torch.Tensor) -> None:
    """Print what a copy of ``weight`` is: its type, its flags, its memory, its gradient."""
    report = tcdoc.compare(weight, result)
    grad = result.grad if result.is_leaf else "n/a (not a leaf)"
    print(
        f"{code:24} {type(result).__name__:9} requires_grad={result.requires_grad!s:5} "
        f"shares memory={report.shares_storage!s:5} grad_fn={report.grad_fn} .grad={grad}"
    )


print(f"{type(weight).__name__ = }")
print(f"{weight.grad = }")

# %%
# Step 1: ``detach()`` and ``.data``, the weight's own memory
# -----------------------------------------------------------
# Both give a plain ``Tensor`` over the weight's memory, outside autograd: a change to the
# weight, such as ``optimizer.step()``, shows through them.
show("weight.detach()", weight.detach())
show("weight.data", weight.data)

# %%
# Step 2: ``clone()``, a copy still in the graph
# ----------------------------------------------
# A plain ``Tensor`` in memory of its own that autograd recorded: gradients that reach it
# travel on to ``weight``.
show("weight.clone()", weight.clone())

# %%
# Step 3: ``detach().clone()``, a snapshot
# ----------------------------------------
# A plain ``Tensor`` in memory of its own, with no history: the copy to keep.
show("weight.detach().clone()", weight.detach().clone())

# %%
# Step 4: deepcopy, a new Parameter without ``.grad`` or attributes
# -----------------------------------------------------------------
# On a plain tensor, deepcopy copies ``.grad`` and Python attributes (see
# :doc:`plot_08_deepcopy_aliasing`). On a ``Parameter`` it makes a new ``Parameter`` from
# the values alone.
import copy

weight.note = "tied to the decoder"
weight_copy = copy.deepcopy(weight)
show("copy.deepcopy(weight)", weight_copy)
print(f"{hasattr(weight_copy, 'note') = }")

# %%
# The same measurement on a plain leaf tensor with the same ``.grad`` and attribute, and
# the fields where the two differ (``Parameter`` first, plain tensor second):
plain = weight.detach().clone().requires_grad_(True)
plain.grad = torch.ones(3)
plain.note = "tied to the decoder"
from_parameter = tcdoc.compare(weight, weight_copy).as_dict()
from_tensor = tcdoc.compare(plain, copy.deepcopy(plain)).as_dict()
for name in from_parameter:
    if from_parameter[name] != from_tensor[name]:
        print(f"{name}: {from_parameter[name]} (Parameter), {from_tensor[name]} (plain tensor)")

# sphinx_gallery_start_ignore
from tcdoc.claims import claim

_bare = torch.nn.Parameter(torch.arange(3.0))  # a Parameter with .grad and no attribute
_bare.grad = torch.ones(3)
_from_parameters = [from_parameter, tcdoc.compare(_bare, copy.deepcopy(_bare)).as_dict()]
claim(
    "On a plain tensor, deepcopy copies `.grad` and Python attributes (see "
    "{doc}`plot_08_deepcopy_aliasing`). On a `Parameter` it makes a new `Parameter` from the values alone",
    from_tensor["copies_grad"] is True
    and from_tensor["copies_attributes"] is True
    and from_parameter["copies_attributes"] is False
    and all(
        made["result_type"] == "Parameter" and made["requires_grad"] is True and made["copies_grad"] is False
        for made in _from_parameters
    ),
    f"from a Parameter {_from_parameters}, from a plain tensor {from_tensor}",
)
# sphinx_gallery_end_ignore

# %%
# The same rule applies inside a model: deepcopy of a module copies each weight through
# ``Parameter``'s deepcopy, so the copy starts without gradients.
layer = torch.nn.Linear(3, 1)
layer(torch.randn(2, 3)).sum().backward()
layer_copy = copy.deepcopy(layer)
print(f"{layer.weight.grad is not None = }")
print(f"{layer_copy.weight.grad = }")

# sphinx_gallery_start_ignore
claim(
    "The same rule applies inside a model: deepcopy of a module copies each weight through `Parameter`'s "
    "deepcopy, so the copy starts without gradients",
    all(p.grad is not None for p in layer.parameters())
    and all(p.grad is None for p in layer_copy.parameters()),
    f"the copy's gradients are {[p.grad for p in layer_copy.parameters()]}",
)
# sphinx_gallery_end_ignore

# %%
# Every method at once
# --------------------
# :func:`tcdoc.matrix` applies every registered operation to a fresh ``Parameter`` with a
# gradient, built by the ``parameter`` scenario. Several methods return ``x`` itself, which is
# why they "return a Parameter" and share everything:
measured = tcdoc.matrix(scenarios=["parameter"], grad_modes=["enabled"])
reports = {tcdoc.get_operation(row.operation).code: row.properties for row in measured.rows}
print([code for code, report in reports.items() if report is not None and not report.new_object])

# sphinx_gallery_start_ignore
_ran = [(row.operation, row.properties) for row in measured.rows if row.properties is not None]
_tensors = [report for _, report in _ran if report.result_is_tensor]
claim(
    "Some return a `Parameter`, others a plain `Tensor` (and `x.tolist()` Python lists). Some keep "
    "`requires_grad`, others drop it. And `copy.deepcopy` of a `Parameter` follows rules of its own, "
    "unlike those for a plain tensor",
    {report.result_type for report in _tensors} == {"Parameter", "Tensor"}
    and {operation for operation, report in _ran if not report.result_is_tensor} == {"tolist"}
    and {report.requires_grad for report in _tensors} == {True, False}
    and torch.nn.Parameter.__deepcopy__ is not torch.Tensor.__deepcopy__,
    f"types {[(op, r.result_type, r.requires_grad) for op, r in _ran]}, "
    f"Parameter.__deepcopy__ is {torch.nn.Parameter.__deepcopy__}",
)
# x.share_memory_() returns x itself, moved into new memory, which it still shares with itself: memory is
# measured against x as it was before the call, hence source_moved.
_itself = [(operation, report) for operation, report in _ran if not report.new_object]
claim(
    'Several methods return `x` itself, which is why they "return a Parameter" and share everything',
    _itself
    and all(
        report.result_type == "Parameter"
        and (report.shares_storage or report.source_moved)
        and report.shares_version_counter
        for _, report in _itself
    ),
    f"x itself: {[(op, r.result_type, r.shares_storage, r.shares_version_counter) for op, r in _itself]}",
)
# sphinx_gallery_end_ignore

# %%
# These make a *new* ``Parameter``:
print(
    [code for code, r in reports.items() if r is not None and r.new_object and r.result_type == "Parameter"]
)

# %%
# No result has a copy of ``.grad`` of its own, although the source had one. ``copies_grad``
# is false for every method whose result is a new tensor. It is ``None`` where the result is a
# list, which has no ``.grad`` at all, or ``x`` itself, which copied nothing.
print(f"{any(report.copies_grad for report in reports.values() if report is not None) = }")

# sphinx_gallery_start_ignore
# n/a (None) where there is no new tensor: a list has no .grad, and x itself copied nothing.
_wrong = [
    (operation, report.copies_grad)
    for operation, report in _ran
    if report.copies_grad is not (False if report.result_is_tensor and report.new_object else None)
]
claim(
    "No result has a copy of `.grad` of its own, although the source had one. `copies_grad` is false for "
    "every method whose result is a new tensor. It is `None` where the result is a list, which has no "
    "`.grad` at all, or `x` itself, which copied nothing",
    not _wrong,
    f"copies_grad of {_wrong}",
)
# sphinx_gallery_end_ignore

# %%
# Four of those methods as pictures, drawn by :func:`tcdoc.draw.draw_operations` on a fresh
# ``Parameter`` of the same scenario. The first line in each result's box is its type.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["detach", "clone", "deepcopy", "parameter_wrap"], "parameter")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# More on ``Parameter`` and deepcopy: :doc:`/explanation/deepcopy`. The table of every method
# on every kind of tensor: :doc:`/reference/matrix`.
