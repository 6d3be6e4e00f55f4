"""What ``copy.deepcopy`` does
===========================

:func:`copy.deepcopy` is Python's general "copy this and everything inside it". PyTorch
tensors support it, with their own rules. The copy of a plain tensor gets new memory, and a copy
of ``.grad`` and of any Python attributes. It becomes a new leaf with no history. A ``Parameter``
gets neither ``.grad`` nor attributes: :doc:`plot_09_parameter`.

Deepcopy is how you copy a whole model. But on a single plain tensor it refuses tensors that
are not leaves. It refuses a leaf whose ``.grad`` has a history of its own too, as
``backward(create_graph=True)`` can leave it.
"""

# %%
# A leaf that requires gradients, with a gradient and a Python attribute of its own.
import copy

import torch

torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
x.grad = torch.ones(2, 3)
x.note = "a Python attribute"
y = copy.deepcopy(x)
print(f"{y = }")

# sphinx_gallery_start_ignore
import functools
import warnings

import tcdoc
from tcdoc.claims import claim, raised


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


_report = tcdoc.compare(x, y)
_bare = torch.ones(3, requires_grad=True)  # a leaf without .grad too
_bare_report = tcdoc.compare(_bare, copy.deepcopy(_bare))
_seen = _grad_and_attributes()
claim(
    "The copy of a plain tensor gets new memory, and a copy of `.grad` and of any Python attributes. "
    "It becomes a new leaf with no history. A `Parameter` gets neither `.grad` nor attributes: "
    "{doc}`plot_09_parameter`",
    not _report.shares_storage
    and _report.copies_grad
    and _report.copies_attributes
    and _report.is_leaf
    and _report.grad_fn is None
    and not _bare_report.shares_storage
    and _bare_report.is_leaf
    and _bare_report.grad_fn is None
    and not _seen,
    _seen or f"copy.deepcopy(x) measured {_report}",
)
# sphinx_gallery_end_ignore

# %%
# 1. A new Python object?
print(f"{y is x = }")

# %%
# 2. Its own metadata: ``y`` keeps ``requires_grad`` and is a leaf of its own.
print(f"{y.requires_grad = }")
print(f"{y.is_leaf = }")

# %%
# ``.grad`` was copied too, into a new tensor, and so was the Python attribute. That is the way
# ``copy.deepcopy`` copies any value: a string is shared, since it cannot change, and a list
# would be copied into a new one.
print(f"{y.grad is x.grad = }")
print(f"{torch.equal(y.grad, x.grad) = }")
print(f"{y.note = }")
print(f"{y.note is x.note = }")

# sphinx_gallery_start_ignore
_seen = _grad_and_attributes()
claim(
    "`.grad` was copied too, into a new tensor, and so was the Python attribute. That is the way "
    "`copy.deepcopy` copies any value: a string is shared, since it cannot change, and a list would be "
    "copied into a new one",
    y.grad is not x.grad and torch.equal(y.grad, x.grad) and y.note is x.note and not _seen,
    _seen or f"y.grad is {y.grad!r}, y.note is {y.note!r}",
)
# sphinx_gallery_end_ignore

# %%
# 3. New memory:
print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

# %%
# 4. No history back to ``x``: ``y`` is a leaf, so gradients stop at ``y``. Look at the
#    values, though. A deep copy starts out with a copy of the old ``.grad``, and the backward
#    pass adds its gradient, 2, to it. So ``y.grad`` holds 3s, not 2s.
(2 * y).sum().backward()
print(f"{y.grad = }")

# sphinx_gallery_start_ignore
claim(
    "A deep copy starts out with a copy of the old `.grad`, and the backward pass adds its "
    "gradient, 2, to it. So `y.grad` holds 3s, not 2s",
    torch.equal(y.grad, torch.full((2, 3), 3.0)) and torch.equal(x.grad, torch.ones(2, 3)),
    f"y.grad is {y.grad}, x.grad is {x.grad}",
)
# sphinx_gallery_end_ignore

# %%
# ``x.grad`` is still the ones we set: nothing flowed back. To start the copy without a
# gradient, set ``y.grad = None`` after copying.
print(f"{x.grad = }")

# %%
# Only leaves
# -----------
# A tensor that a differentiable operation such as ``x * 2`` made from a tensor that requires
# gradients, while autograd records, is not a leaf. Deepcopy refuses it. (A result without a
# gradient, such as ``x > 0`` or ``x.int()``, is a leaf, and deepcopy copies it.) We catch the
# error to show its message.
z = x * 2
try:
    copy.deepcopy(z)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore


def _refusals() -> str:
    """Deepcopy tcdoc's non-leaf and 0-d tensors, which it refuses, and its everyday leaves, copied."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some kinds of x warn; the words are about what deepcopy does
        for scenario in tcdoc.scenarios():
            refused = scenario.name in ("non_leaf", "zero_dim")
            if not refused and scenario.group != "everyday":
                continue  # a Tensor subclass is refused for a reason of its own (the special-tensors page)
            source = scenario.build(torch.device("cpu"))
            error = raised(functools.partial(copy.deepcopy, source))
            if refused and (error is None or "leaves" not in str(error)):
                return f"deepcopy of {scenario.name} gave {error!r}"
            if not refused and source.is_leaf and error is not None:
                return f"deepcopy raised on the leaf {scenario.name}: {error}"
    return ""


def _results_without_gradient() -> str:
    """With autograd recording, differentiable results of x are refused; those without a gradient copied."""
    leaf = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    differentiable = {"x * 2": leaf * 2, "x.exp()": leaf.exp(), "x.sum()": leaf.sum(), "x[1:]": leaf[1:]}
    for code, made in differentiable.items():
        error = raised(functools.partial(copy.deepcopy, made))
        if made.is_leaf or not isinstance(error, RuntimeError):
            return f"{code} is a leaf, or its deepcopy gave {error!r}"
    without_gradient = {"x > 0": leaf > 0, "x.int()": leaf.int(), "x.argmax()": leaf.argmax()}
    for code, made in without_gradient.items():
        if not made.is_leaf or made.grad_fn is not None or not torch.equal(copy.deepcopy(made), made):
            return f"{code} is not a leaf, or deepcopy did not copy it"
    return ""


_error = raised(functools.partial(copy.deepcopy, z))
_seen = _refusals() or _grad_and_attributes()  # the second tries a .grad with a history
claim(
    "on a single plain tensor it refuses tensors that are not leaves. It refuses a leaf whose `.grad` "
    "has a history of its own too, as `backward(create_graph=True)` can leave it",
    not z.is_leaf and isinstance(_error, RuntimeError) and not _seen,
    _seen or f"deepcopy of z gave {_error!r}",
)
_seen = _refusals() or _results_without_gradient()
_positive, _integers = x > 0, x.int()
claim(
    "A tensor that a differentiable operation such as `x * 2` made from a tensor that requires "
    "gradients, while autograd records, is not a leaf. Deepcopy refuses it. (A result without a "
    "gradient, such as `x > 0` or `x.int()`, is a leaf, and deepcopy copies it.)",
    not z.is_leaf
    and isinstance(_error, RuntimeError)
    and _positive.is_leaf
    and torch.equal(copy.deepcopy(_positive), _positive)
    and _integers.is_leaf
    and torch.equal(copy.deepcopy(_integers), _integers)
    and not _seen,
    _seen or f"z.is_leaf is {z.is_leaf}, its deepcopy gave {_error!r}",
)
# sphinx_gallery_end_ignore

# %%
# The same product computed under ``torch.no_grad()`` records no history: it is a leaf, and
# deepcopy copies it.
with torch.no_grad():
    w = x * 2
print(w.is_leaf, copy.deepcopy(w).is_leaf)

# sphinx_gallery_start_ignore
_copied = copy.deepcopy(w)
claim(
    "The same product computed under `torch.no_grad()` records no history: it is a leaf, and "
    "deepcopy copies it",
    w.is_leaf
    and w.grad_fn is None
    and not w.requires_grad
    and _copied.is_leaf
    and _copied is not w
    and torch.equal(_copied, w)
    and not z.is_leaf,
    f"w is {w!r}, its deepcopy {_copied!r}",
)
# sphinx_gallery_end_ignore

# %%
# ``z.detach().clone()`` is the copy to make instead.
import tcdoc

print(tcdoc.compare(z, z.detach().clone()))

# %%
# All four at once, for the leaf:
x = torch.randn(2, 3, requires_grad=True)
print(tcdoc.compare(x, copy.deepcopy(x)))

# %%
# The same measurements as a picture, drawn by :func:`tcdoc.draw.draw`. Drawing needs
# matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(x, copy.deepcopy(x), "copy.deepcopy(x)")

# %%
# These values were measured with:
print(tcdoc.environment())
