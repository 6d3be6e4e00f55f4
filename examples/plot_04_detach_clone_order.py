"""``detach().clone()`` or ``clone().detach()``?
=============================================

Both spellings give an independent copy of a tensor's values, with its own memory and no
autograd history, and both are common in real code. Does the order matter? For the result,
no; for what happens on the way there, a little: ``clone().detach()`` first makes a copy
that autograd records, then throws the record away. For a plain tensor, a third spelling,
``torch.tensor(x)``, makes the same copy and warns you about it; a subclass of
:class:`torch.Tensor` comes back from it as a plain ``Tensor``.
"""

# %%
# A leaf tensor that requires gradients, and its copy made both ways.
import torch

torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
a = x.detach().clone()
b = x.clone().detach()
print(f"{torch.equal(a, b) = }")

# %%
# What ``x.detach().clone()`` shares with ``x``: nothing, and it keeps no history.
import tcdoc

print(tcdoc.compare(x, a))

# sphinx_gallery_start_ignore
from tcdoc.claims import claim

_report = tcdoc.compare(x, a)
claim(
    "What `x.detach().clone()` shares with `x`: nothing, and it keeps no history",
    not _report.shares_storage
    and not _report.shares_version_counter
    and _report.grad_fn is None
    and not _report.gradient_flows_to_source,
    f"x.detach().clone() measured {_report}",
)
# sphinx_gallery_end_ignore

# %%
# ``x.clone().detach()`` measures the same on every field, so the two results cannot be
# told apart.
print(f"{tcdoc.compare(x, b) == tcdoc.compare(x, a) = }")

# %%
# :func:`tcdoc.draw.draw_panels` draws each result from its own measurements, side by side:
# apart from their names, the two pictures are the same.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(x, a, "x.detach().clone()", names=("x", "a")),
        tcdoc.draw.diagram(x, b, "x.clone().detach()", names=("x", "b")),
    ]
)

# %%
# The order shows in the intermediate tensor. In ``x.clone().detach()`` the clone comes
# first, while ``x`` is still attached, so autograd records it (it gets a ``grad_fn``) before
# ``detach()`` drops that record. In ``x.detach().clone()`` the clone copies a tensor with
# no history, and nothing is recorded.
print(f"{tcdoc.compare(x, x.clone()).grad_fn = }")
print(f"{tcdoc.compare(x, x.detach()).grad_fn = }")

# sphinx_gallery_start_ignore
claim(
    "In `x.clone().detach()` the clone comes first, while `x` is still attached, so autograd "
    "records it "
    "(it gets a `grad_fn`) before `detach()` drops that record. In `x.detach().clone()` the clone "
    "copies a tensor with no history, and nothing is recorded",
    tcdoc.compare(x, x.clone()).grad_fn == "CloneBackward0"
    and b.grad_fn is None
    and x.detach().grad_fn is None
    and a.grad_fn is None,
    f"x.clone() has grad_fn {x.clone().grad_fn}; b has {b.grad_fn}, a has {a.grad_fn}",
)
# sphinx_gallery_end_ignore

# %%
# That record is made just to be dropped. Under :class:`torch.no_grad` it is not made at all,
# whatever the order.
with torch.no_grad():
    unrecorded = x.clone()
print(f"{tcdoc.compare(x, unrecorded).grad_fn = }")

# sphinx_gallery_start_ignore
_recorded = x.clone()
claim(
    "That record is made just to be dropped",
    _recorded.grad_fn is not None and _recorded.detach().grad_fn is None and a.grad_fn is None,
    f"x.clone() has grad_fn {_recorded.grad_fn}, its detach() {_recorded.detach().grad_fn}",
)
# sphinx_gallery_end_ignore

# %%
# ``torch.tensor(x)`` copies too
# ------------------------------
# Passing a tensor to :func:`torch.tensor` makes a copy as well, and PyTorch warns that
# this is not the recommended spelling. We catch the warning to print it.
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    t = torch.tensor(x)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")

# %%
# The copy it made measures exactly like ``x.detach().clone()``.
print(f"{tcdoc.compare(x, t) == tcdoc.compare(x, a) = }")


# %%
# A subclass is where ``torch.tensor(x)`` differs: ``x.detach().clone()`` keeps the subclass,
# ``torch.tensor`` returns a plain ``Tensor``.
class Tagged(torch.Tensor):
    """A subclass of Tensor that adds nothing."""


tagged = torch.ones(2).as_subclass(Tagged)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(type(tagged.detach().clone()).__name__, type(torch.tensor(tagged)).__name__)

# sphinx_gallery_start_ignore
_plain = torch.arange(6.0).reshape(2, 3)  # a plain tensor that does not require grad too
with warnings.catch_warnings(record=True) as _caught:
    warnings.simplefilter("always")
    _copied = torch.tensor(_plain)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    _kept, _made = type(tagged.detach().clone()), type(torch.tensor(tagged))
claim(
    "For a plain tensor, a third spelling, `torch.tensor(x)`, makes the same copy and warns you "
    "about it; a subclass of {class}`torch.Tensor` comes back from it as a plain `Tensor`",
    any(warning.category is UserWarning for warning in caught)
    and tcdoc.compare(x, t) == tcdoc.compare(x, a)
    and any(warning.category is UserWarning for warning in _caught)
    and tcdoc.compare(_plain, _copied) == tcdoc.compare(_plain, _plain.detach().clone())
    and _kept is Tagged
    and _made is torch.Tensor,
    f"warnings {[str(w.message) for w in caught]}; the subclass gave {_kept.__name__} and {_made.__name__}",
)
# sphinx_gallery_end_ignore

# %%
# When the copy should itself be trained, ask for gradients on it: it becomes a new leaf,
# and gradients stop there instead of reaching ``x``.
c = x.detach().clone().requires_grad_(True)
print(f"{c.requires_grad = }")
print(f"{c.is_leaf = }")
print(f"{tcdoc.compare(x, c).gradient_flows_to_source = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# More on ``detach()`` and its version counter: :doc:`/explanation/detach`. The other ways
# to get a tensor's values, ``torch.tensor`` among them: :doc:`/explanation/look-alikes`.
