"""What ``clone()`` does
=====================

With gradients enabled, ``y = x.clone()`` of a tensor ``x`` that requires them makes a copy of
the data that stays part of the computation. It has its own memory, yet gradients that reach
``y`` travel on to ``x``. Reach
for it when a computation needs its own copy, for instance to change the copy in place without
touching ``x``. Two heads of a network that read the same tensor need no copy; the last
section shows where one does.

We check the four questions one at a time, then let :func:`tcdoc.compare` measure them all.
"""

# %%
# A leaf tensor that requires gradients, and its clone.
import torch

torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = x.clone()
print(f"{y = }")

# sphinx_gallery_start_ignore
import warnings

import tcdoc
from tcdoc.claims import claim, raised


def _clone_everywhere() -> str:
    """Clone each kind of ``x`` tcdoc builds, under each grad mode; say what broke the words, or ''."""
    modes = {"enabled": torch.enable_grad, "no_grad": torch.no_grad, "inference_mode": torch.inference_mode}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some kinds of x warn; the words are about what clone() makes
        for scenario in tcdoc.scenarios():
            for mode_name, mode in modes.items():
                source = scenario.build(torch.device("cpu"))
                try:
                    with mode():
                        copied = source.clone()
                except RuntimeError:
                    continue  # where clone() raises, it makes no copy to speak of
                report = tcdoc.compare(source, copied)
                where = f"x.clone() of {scenario.name} under {mode_name}"
                if report.shares_storage or not report.new_bytes:
                    return f"{where} copied nothing"
                recorded = source.requires_grad and mode_name == "enabled"
                if report.grad_fn != ("CloneBackward0" if recorded else None):
                    return f"{where} has grad_fn {report.grad_fn}"
    return ""


_report = tcdoc.compare(x, y)
_seen = _clone_everywhere()
claim(
    "With gradients enabled, `y = x.clone()` of a tensor `x` that requires them makes a copy of "
    "the data that stays part of the computation",
    not _report.shares_storage
    and _report.new_bytes
    and _report.grad_fn == "CloneBackward0"
    and _report.gradient_flows_to_source
    and not _seen,
    _seen or f"x.clone() measured {_report}",
)
# sphinx_gallery_end_ignore

# %%
# 1. Is ``y`` a new Python object? ``is`` compares identity.
print(f"{y is x = }")

# %%
# 2. Does ``y`` have metadata of its own? It is not a leaf: it was made by an operation that
#    autograd recorded, and ``grad_fn`` is the node for that operation.
print(f"{y.requires_grad = }")
print(f"{y.is_leaf = }")
print(f"{y.grad_fn.name() = }")

# %%
# 3. Does ``y`` have its own memory? Compare the addresses of the two storages.
print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

# %%
# Because the memory is separate, changing ``y`` in place leaves ``x`` as it was.
with torch.no_grad():
    y[0, 0] = 100.0
print(f"{x[0, 0].item() = }")
print(f"{y[0, 0].item() = }")

# %%
# 4. Is the autograd history kept? Back-propagate through ``y`` and look at ``x.grad``:
#    the gradient of ``(3 * y).sum()`` reached ``x``.
(3 * y).sum().backward()
print(f"{x.grad = }")

# %%
# Under :class:`torch.no_grad`, the clone is not recorded: it is a leaf with no ``grad_fn``.
with torch.no_grad():
    unrecorded = x.clone()
print(f"{unrecorded.is_leaf = }")
print(f"{unrecorded.grad_fn = }")

# sphinx_gallery_start_ignore
_leaf = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    _inside = _leaf.clone()
claim(
    "Under {class}`torch.no_grad`, the clone is not recorded: it is a leaf with no `grad_fn`",
    unrecorded.is_leaf
    and unrecorded.grad_fn is None
    and not unrecorded.requires_grad
    and _inside.is_leaf
    and _inside.grad_fn is None
    and not _inside.requires_grad,
    f"under no_grad: {unrecorded!r}; under inference_mode: {_inside!r}",
)
# sphinx_gallery_end_ignore

# %%
# All four at once
# ----------------
# :func:`tcdoc.compare` measures the same properties, and a few more, without changing
# either tensor.
import tcdoc

x = torch.randn(2, 3, requires_grad=True)
print(tcdoc.compare(x, x.clone()))

# %%
# The same measurements as a picture: :func:`tcdoc.draw.draw` draws each tensor's box, the
# storage each one uses, their version counters and the autograd edge from ``y`` back to
# ``x``. Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(x, x.clone(), "x.clone()")

# %%
# Copying without the history
# ---------------------------
# To copy the values but not the graph, detach first: ``x.detach().clone()`` has its own
# memory and no ``grad_fn``.
print(tcdoc.compare(x, x.detach().clone()))

# %%
# Two heads, one input
# --------------------
# Two heads of a network that read the same tensor need no copy of it: autograd adds the
# gradients that reach it from both. Here they are 2 and 6 for each element of ``w``.
w = torch.ones(3, requires_grad=True)
features = w * 2
(features.sum() + (3 * features).sum()).backward()
print(f"{w.grad = }")

# sphinx_gallery_start_ignore
from collections.abc import Callable


def _heads_add() -> str:
    """Give a leaf, a Parameter and a complex leaf two heads, read directly or through a product."""
    inputs: dict[str, Callable[[], torch.Tensor]] = {
        "a leaf": lambda: torch.ones(3, requires_grad=True),
        "a Parameter": lambda: torch.nn.Parameter(torch.ones(3)),
        "a complex leaf": lambda: torch.ones(3, dtype=torch.complex64, requires_grad=True),
    }
    for kind, make in inputs.items():
        for computed in (False, True):
            grads = []
            for heads in ((0, 1), (0,), (1,)):
                leaf = make()
                read = leaf * 2 if computed else leaf
                outputs = [(read * 3).sum(), (read * read).sum()]
                total = outputs[0] + outputs[1] if heads == (0, 1) else outputs[heads[0]]
                (total.real if total.is_complex() else total).backward()
                grads.append(leaf.grad)
            both, first, second = grads
            if not torch.allclose(both, first + second):
                where = f"{kind}, {'computed features' if computed else 'read directly'}"
                return f"{where}: {both} is not {first} + {second}"
    return ""


_first = torch.autograd.grad((w * 2).sum(), w)[0]  # each head alone, on a graph of its own
_second = torch.autograd.grad((3 * (w * 2)).sum(), w)[0]
_seen = _heads_add()
claim(
    "Two heads of a network that read the same tensor need no copy of it: autograd adds the "
    "gradients that reach it from both",
    torch.equal(w.grad, _first + _second) and not _seen,
    _seen or f"w.grad is {w.grad}, the heads give {_first} and {_second}",
)
# sphinx_gallery_end_ignore


# %%
# A clone is needed where one head changes its input in place while the other head saved that
# input for its backward pass. Head ``a`` multiplies ``features`` by itself, which saves it;
# head ``b`` applies ``relu_`` to it. Without a clone the backward pass raises; with one it runs.
def two_heads(clone_for_b: bool) -> str:
    """Run both heads on one input and back-propagate; say what came of it."""
    w = torch.ones(3, requires_grad=True)
    features = w * 2
    a = (features * features).sum()
    b = (features.clone() if clone_for_b else features).relu_().sum()
    try:
        (a + b).backward()
    except RuntimeError as error:
        return f"RuntimeError: {str(error).split(':')[0]}"
    return f"w.grad = {w.grad}"


print("without a clone:", two_heads(clone_for_b=False))
print("with a clone:", two_heads(clone_for_b=True))

# sphinx_gallery_start_ignore
from torch.autograd.graph import save_on_cpu


def _clone_needed() -> str:
    """Write into head b's input in place, each way, with and without a clone; and under save_on_cpu."""
    writes: dict[str, Callable[[torch.Tensor], object]] = {
        "add_": lambda t: t.add_(1),
        "mul_": lambda t: t.mul_(2),
        "copy_": lambda t: t.copy_(torch.zeros_like(t)),
        "fill_": lambda t: t.fill_(7.0),
        "zero_": lambda t: t.zero_(),
        "indexed assignment": lambda t: t.__setitem__(0, 5.0),
        "relu_": torch.Tensor.relu_,
    }
    for name, write in writes.items():
        cloned_grad = None
        for clone in (True, False):
            leaf = torch.ones(3, requires_grad=True)
            read = leaf * 2
            a = (read * read).sum()
            b_input = read.clone() if clone else read
            write(b_input)
            error = raised((a + b_input.sum()).backward)
            if clone and error is not None:
                return f"{name}: the backward pass raised with a clone: {error}"
            if not clone and error is None:
                return f"{name}: the backward pass ran without a clone"
            if not clone and "modified by an inplace operation" not in str(error):
                return f"{name}: {error}"
            if clone:
                cloned_grad = leaf.grad
        if name == "relu_":
            continue  # on these positive features relu_ changes no value, so no gradient can be wrong
        leaf = torch.ones(3, requires_grad=True)
        with save_on_cpu():
            read = leaf * 2
            a = (read * read).sum()
        write(read)
        (a + read.sum()).backward()
        if leaf.grad is None or torch.equal(leaf.grad, cloned_grad):
            return f"{name}: under save_on_cpu, no clone gave the gradient a clone gives ({leaf.grad})"
    return ""


_without, _with = two_heads(clone_for_b=False), two_heads(clone_for_b=True)
_seen = _clone_needed()
claim(
    "A clone is needed where one head changes its input in place while the other head saved that "
    "input for its backward pass. Head `a` multiplies `features` by itself, which saves it; head `b` "
    "applies `relu_` to it. Without a clone the backward pass raises; with one it runs",
    _without.startswith("RuntimeError")
    and "modified by an inplace operation" in _without
    and _with.startswith("w.grad")
    and not _seen,
    _seen or f"without a clone: {_without}; with one: {_with}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Next: :doc:`plot_02_detach`, which gives the same data without a copy.
