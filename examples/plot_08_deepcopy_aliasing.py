"""What one ``copy.deepcopy`` call keeps together
==============================================

:func:`copy.deepcopy` remembers, for the length of one call, what it has already copied.
Plain tensors that shared one storage before the call (a tensor and a view of it) still share
it in the copy. A weight used twice stays one tensor. Copied in two calls, they come apart.
A ``Parameter`` is cloned on its own, and conjugate or negative views are copied physically.
So neither keeps the sharing, nor do two storages over the same memory, such as two
``torch.from_numpy()`` of one array.

On plain tensors, deepcopy works on whole storages, the memory under the tensors.
So the deepcopy of a small slice of a plain tensor holds the whole storage the slice looks at.
A ``Parameter`` goes through its own deepcopy, which clones only its elements.
The copy of a slice with the conjugate or negative bit holds only its elements too.
This example measures both, with the bytes each copy holds.
"""

# %%
# One call, several tensors
# -------------------------
# A tensor and a view of part of it, in one dictionary given to one deepcopy call.
import copy

import torch

base = torch.arange(8.0)
state = {"base": base, "view": base[2:5]}
copied = copy.deepcopy(state)
print(f"{copied = }")

# sphinx_gallery_start_ignore
import warnings

import numpy

import tcdoc
from tcdoc.claims import claim, raised


def _tied_weights() -> str:
    """Deepcopy a model whose two layers use one weight, and the tied state_dict, against clones."""
    with torch.random.fork_rng(devices=[]):  # new layers draw their weights; the example's numbers stay
        model = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
        saved = torch.nn.Sequential(torch.nn.Embedding(10, 4), torch.nn.Linear(4, 10, bias=False))
    model[1].weight = model[0].weight
    model.register_buffer("steps", torch.zeros(1))
    twin = copy.deepcopy(model)
    if twin[1].weight is not twin[0].weight:
        return "the deep copy of a tied model split the tie"
    if twin[0].weight is model[0].weight or tcdoc.shares_memory(twin[0].weight, model[0].weight):
        return "the copy holds the original parameter, or shares its memory"
    if tcdoc.shares_memory(twin.get_buffer("steps"), model.get_buffer("steps")):
        return "the buffer was not copied"
    saved[1].weight = saved[0].weight
    state = saved.state_dict()
    state["1.weight"] = state["0.weight"]  # what state_dict gives for tied weights
    one_by_one = {name: tensor.detach().clone() for name, tensor in state.items()}
    whole = copy.deepcopy(state)
    if tcdoc.shares_memory(one_by_one["0.weight"], one_by_one["1.weight"]):
        return "the clones of tied weights share memory"
    if not tcdoc.shares_memory(whole["0.weight"], whole["1.weight"]):
        return "the deep copy of a tied state_dict split the tie"
    return ""


def _sharing_not_kept() -> str:
    """Deepcopy Parameters on one storage, conjugate and negative views, two tensors over one array."""
    values = torch.arange(6.0)
    first, second = torch.nn.Parameter(values), torch.nn.Parameter(values[:3])
    first_copy, second_copy = copy.deepcopy([first, second])
    if not tcdoc.shares_memory(first, second) or tcdoc.shares_memory(first_copy, second_copy):
        return "two Parameters on one storage kept their sharing"
    complex_values = torch.complex(torch.arange(3.0), torch.ones(3))
    for name, view in {"conj": complex_values.conj(), "neg": complex_values._neg_view()}.items():
        values_copy, view_copy = copy.deepcopy([complex_values, view])
        if not tcdoc.shares_memory(complex_values, view) or tcdoc.shares_memory(values_copy, view_copy):
            return f"the {name} view kept its sharing"
        if not torch.equal(view_copy, view):
            return f"the {name} view's copy changed its values"
    array = numpy.arange(6.0)
    first, second = torch.from_numpy(array), torch.from_numpy(array)
    first_copy, second_copy = copy.deepcopy([first, second])
    if not tcdoc.shares_memory(first, second) or tcdoc.shares_memory(first_copy, second_copy):
        return "two storages over one array kept their sharing"
    return ""


_two_calls = tcdoc.shares_memory(copy.deepcopy(base), copy.deepcopy(base[2:5]))
_seen = _tied_weights() or _sharing_not_kept()
claim(
    "`copy.deepcopy` remembers, for the length of one call, what it has already copied. Plain "
    "tensors that shared one storage before the call (a tensor and a view of it) still share it in the "
    "copy. A weight used twice stays one tensor. Copied in two calls, they come apart. A "
    "`Parameter` is cloned on its own, and conjugate or negative views are copied physically. So "
    "neither keeps the sharing, nor do two storages over the same memory, such as two "
    "`torch.from_numpy()` of one array",
    tcdoc.shares_memory(copied["view"], copied["base"])
    and not tcdoc.shares_memory(copied["base"], base)
    and not _two_calls
    and not _seen,
    _seen or f"the copied view shares the copied base: {tcdoc.shares_memory(copied['view'], copied['base'])}",
)
# sphinx_gallery_end_ignore

# %%
# Inside the copy, the view still looks at the copied base, and neither shares memory with
# the originals.
import tcdoc

print(tcdoc.shares_memory(copied["view"], copied["base"]), tcdoc.shares_memory(copied["base"], base))

# sphinx_gallery_start_ignore
claim(
    "Inside the copy, the view still looks at the copied base, and neither shares memory with the originals",
    tcdoc.shares_memory(copied["view"], copied["base"])
    and not tcdoc.shares_memory(copied["base"], base)
    and not tcdoc.shares_memory(copied["view"], base),
    f"the copied view is {copied['view']!r}",
)
# sphinx_gallery_end_ignore

# %%
# So a change to the copied base shows through the copied view, as it would in the original.
copied["base"][2] = 100.0
print(f'{copied["view"] = }')

# sphinx_gallery_start_ignore
claim(
    "So a change to the copied base shows through the copied view, as it would in the original",
    copied["view"][0].item() == 100.0 and base[2].item() == 2.0,
    f"the copied view holds {copied['view']}",
)
# sphinx_gallery_end_ignore

# %%
# Two calls, two storages
# -----------------------
# Copied one at a time, the base and the view each get memory of their own, and the link
# between them is gone.
base_copy = copy.deepcopy(base)
view_copy = copy.deepcopy(base[2:5])
print(f"{tcdoc.shares_memory(view_copy, base_copy) = }")

# sphinx_gallery_start_ignore
claim(
    "Copied one at a time, the base and the view each get memory of their own, and the link "
    "between "
    "them is gone",
    not tcdoc.shares_memory(view_copy, base_copy),
    "the two copies share memory",
)
# sphinx_gallery_end_ignore

# %%
# A list works like the dictionary: what matters is that it is one call.
a, b = copy.deepcopy([base, base[2:5]])
print(f"{tcdoc.shares_memory(b, a) = }")

# %%
# ``.grad`` and attributes come along
# -----------------------------------
# Deepcopy also copies a plain leaf's gradient (one without a history of its own) into a new
# tensor. It copies the leaf's Python attributes too, as ``copy.deepcopy`` copies any value.
# A ``Parameter`` keeps neither: see :doc:`plot_09_parameter`.
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
x.grad = torch.ones(3)
x.label = "encoder bias"
y = copy.deepcopy(x)
report = tcdoc.compare(x, y)
print(f"{report.copies_grad = }")
print(f"{report.copies_attributes = }")
print(f"{y.grad is x.grad = }")
print(f"{y.label = }")

# sphinx_gallery_start_ignore
import functools


def _grad_and_attributes() -> str:
    """Deepcopy leaves with a .grad, a string and a list, a Parameter, and a .grad with a history."""
    source = tcdoc.get_scenario("leaf_requires_grad").build(torch.device("cpu"))
    source.mutable = [1.0]
    copied = copy.deepcopy(source)
    report = tcdoc.compare(source, copied)
    if not (report.copies_grad and report.copies_attributes):
        return f"deepcopy of tcdoc's leaf_requires_grad measured {report}"
    if copied.grad is source.grad or copied.mutable != source.mutable or copied.mutable is source.mutable:
        return "the deepcopy of tcdoc's leaf_requires_grad shares its .grad or its list"
    for requires_grad in (True, False):
        leaf = torch.ones(3, requires_grad=requires_grad)
        if requires_grad:
            leaf.grad = torch.full((3,), 2.0)
        leaf.note, leaf.tags = "a string", ["a", "list"]
        twin = copy.deepcopy(leaf)
        if requires_grad and (twin.grad is leaf.grad or not torch.equal(twin.grad, leaf.grad)):
            return f"the copied .grad is {twin.grad!r}, of {leaf.grad!r}"
        if twin.note is not leaf.note or twin.tags != leaf.tags or twin.tags is leaf.tags:
            return "the string was duplicated, or the list is not a new list"
    parameter = torch.nn.Parameter(torch.ones(3))
    parameter.grad, parameter.note = torch.ones(3), "a string"
    kept = copy.deepcopy(parameter)
    if kept.grad is not None or hasattr(kept, "note"):
        return "a Parameter's deepcopy kept .grad or attributes"
    # A .grad with a history of its own (higher-order gradients) is a tensor deepcopy refuses.
    leaf = torch.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns of the cycle between the leaf and its .grad
        (leaf**3).sum().backward(create_graph=True)
    if leaf.grad is None or leaf.grad.grad_fn is None:
        return "backward(create_graph=True) left no history"
    error = raised(functools.partial(copy.deepcopy, leaf))
    leaf.grad = None  # breaks the cycle
    if not isinstance(error, RuntimeError):
        return f"deepcopy of a leaf whose .grad has a history gave {error!r}, not a RuntimeError"
    return ""


_seen = _grad_and_attributes()
claim(
    "Deepcopy also copies a plain leaf's gradient (one without a history of its own) into a new "
    "tensor. It copies the leaf's Python attributes too, as `copy.deepcopy` copies any value. "
    "A `Parameter` keeps neither: see {doc}`plot_09_parameter`",
    report.copies_grad
    and report.copies_attributes
    and y.grad is not x.grad
    and torch.equal(y.grad, x.grad)
    and y.label == x.label
    and not _seen,
    _seen or f"x.grad and y.grad: {x.grad!r}, {y.grad!r}; deepcopy measured {report}",
)
# sphinx_gallery_end_ignore

# %%
# A small slice keeps its big storage
# -----------------------------------
# A slice is a view: ten numbers at the start of a storage of a million. Deepcopy copies
# the view's whole storage, so the copy holds four megabytes for forty bytes of values.
big = torch.zeros(1_000_000)
small = big[:10]
small_copy = copy.deepcopy(small)
print(f"{small.untyped_storage().nbytes() = }")
print(f"{small_copy.untyped_storage().nbytes() = }")

# sphinx_gallery_start_ignore


def _slices() -> str:
    """Deepcopy a slice of a slice, a Parameter made of a slice, conjugate and negative slices."""
    whole = torch.arange(1000.0)
    held = copy.deepcopy(whole[100:200][:10]).untyped_storage().nbytes()
    if held != 4000:
        return f"the deepcopy of a slice of a slice holds {held} bytes, not the 4000 of its storage"
    parameter = torch.nn.Parameter(whole[:10])
    held = copy.deepcopy(parameter).untyped_storage().nbytes()
    if parameter.untyped_storage().nbytes() != 4000 or held != 40:
        return f"the deepcopy of a Parameter made of a slice holds {held} bytes"
    complex_values = torch.complex(torch.arange(1000.0), torch.ones(1000))
    for name, view in {"conj": complex_values.conj()[:10], "neg": complex_values._neg_view()[:10]}.items():
        held = copy.deepcopy(view).untyped_storage().nbytes()
        if held != 80:
            return f"the deepcopy of a {name} slice of 10 elements holds {held} bytes"
    return ""


_seen = _slices()
claim(
    "On plain tensors, deepcopy works on whole storages, the memory under the tensors. So the "
    "deepcopy of a small slice of a plain tensor holds the whole storage the slice looks at. A "
    "`Parameter` goes through its own deepcopy, which clones only its elements. The copy of a "
    "slice with the conjugate or negative bit holds only its elements too",
    small_copy.untyped_storage().nbytes() == small.untyped_storage().nbytes() == 4_000_000 and not _seen,
    _seen or f"the deepcopy of small holds {small_copy.untyped_storage().nbytes()} bytes",
)
claim(
    "Deepcopy copies the view's whole storage, so the copy holds four megabytes for forty bytes of values",
    small_copy.untyped_storage().nbytes() == 4_000_000 and small.numel() * small.element_size() == 40,
    f"the copy holds {small_copy.untyped_storage().nbytes()} bytes",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.compare` counts the same bytes as new memory that the copy holds.
print(f"{tcdoc.compare(small, small_copy).new_bytes = }")

# %%
# ``clone()`` copies only the elements of the view, into a storage of their own size.
small_clone = small.clone()
print(f"{small_clone.untyped_storage().nbytes() = }")
print(f"{tcdoc.compare(small, small_clone).new_bytes = }")

# sphinx_gallery_start_ignore
claim(
    "`clone()` copies only the elements of the view, into a storage of their own size",
    small_clone.untyped_storage().nbytes() == 40 and tcdoc.compare(small, small_clone).new_bytes == 40,
    f"the clone holds {small_clone.untyped_storage().nbytes()} bytes",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.draw.draw_panels` draws the two results with their storage bars on one scale,
# so that the length of each new bar compares with the storage under ``small``.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(small, small_copy, "copy.deepcopy(small)", names=("small", "small_copy")),
        tcdoc.draw.diagram(small, small_clone, "small.clone()", names=("small", "small_clone")),
    ]
)

# %%
# So to keep a slice, clone it; to deepcopy something that holds slices (a dictionary of
# them, say), clone them first.
kept = copy.deepcopy({"first_ten": small.clone()})
print(f'{kept["first_ten"].untyped_storage().nbytes() = }')

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# More on deepcopy: :doc:`/explanation/deepcopy`. A model whose layers use one weight
# twice: :doc:`plot_11_ema_target_network`.
