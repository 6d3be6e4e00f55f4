"""When changing a detached tensor in place breaks ``backward()``
==============================================================

``detach()`` does not copy: the detached tensor looks at the same memory as its source.
Autograd may keep that source to compute gradients later. Then an in-place change made through
the detached tensor (zeroing it, clamping it, normalising it) also changes what autograd kept.

PyTorch notices a change that a torch operation makes through the detached tensor, thanks to a
version counter the two tensors share. It refuses to compute wrong gradients: ``backward()``
raises. Saved-tensor hooks are the exception: where they packed the tensor autograd saved, there
is no check. The gradients are then silently wrong whenever the change reaches what the hook
kept. The change reaches it with ``torch.autograd.graph.save_on_cpu()`` and a tensor already on
the CPU. A write through another alias of the memory, such as ``d.numpy()``,
``d.untyped_storage()``, ``torch.from_dlpack(d)`` or ``d.data``, moves no counter and goes
unnoticed too.

This example triggers the error, reads it, and fixes it.
"""

# %%
# :func:`torch.exp` keeps its *output* ``y`` for the backward pass, since the derivative of
# ``exp(x)`` is ``exp(x)`` itself. We detach ``y`` to work on its values outside autograd.
import torch

torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
y = x.exp()
d = y.detach()
print(f"{y = }")

# %%
# ``d`` and ``y`` share their memory and their version counter. Both counters start at 0.
import tcdoc

print(tcdoc.shares_memory(d, y), (y._version, d._version))

# sphinx_gallery_start_ignore
from tcdoc.claims import claim, raised

claim(
    "`d` and `y` share their memory and their version counter",
    tcdoc.shares_memory(d, y)
    and tcdoc.compare(y, d).shares_version_counter
    and y._version == d._version == 0,
    f"shares memory: {tcdoc.shares_memory(d, y)}; versions {y._version} and {d._version}",
)
# sphinx_gallery_end_ignore

# %%
# An in-place change through ``d`` writes into ``y`` and moves the shared counter.
d.zero_()
print(y, (y._version, d._version))

# sphinx_gallery_start_ignore
claim(
    "An in-place change through `d` writes into `y` and moves the shared counter",
    torch.equal(y, torch.zeros(4)) and y._version == d._version == 1,
    f"y is {y}; versions {y._version} and {d._version}",
)
# sphinx_gallery_end_ignore

# %%
# In a picture drawn by :func:`tcdoc.draw.draw`, ``y`` and ``d`` stand on one storage and
# are tied to one version counter, whose circle shows the value it has now.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(y, d, "y.detach()", names=("y", "d"))

# %%
# At ``backward()`` autograd compares the counter of the saved ``y`` with the value it
# recorded when saving it (0). It finds 1, and raises instead of using the zeros.
try:
    y.sum().backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext


def _exp_saves_its_output() -> bool:
    """Tell whether exp's backward node holds its output, the tensor it saved."""
    made = torch.arange(4.0, requires_grad=True).exp()
    return torch.equal(made.grad_fn._saved_result, made)


def _noticed_unless_hooked() -> str:
    """Change exp's saved output through its detach() in every in-place way, under hooks, through aliases."""
    right = torch.tensor([1.0, 2.0]).exp()
    hooks: dict[str, Callable[[], AbstractContextManager[object]]] = {
        "save_on_cpu": torch.autograd.graph.save_on_cpu,
        "saved_tensors_hooks": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
    }
    for name, make_hooks in hooks.items():
        leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        with make_hooks():
            made = leaf.exp()
        made.detach().zero_()
        error = raised(made.sum().backward)
        if error is not None or not torch.equal(leaf.grad, torch.zeros(2)):
            return f"{name}: the backward pass gave {error!r} and the gradient {leaf.grad}"
    # Every in-place write through the detached tensor is noticed, inside inference mode too.
    writes: dict[str, Callable[[torch.Tensor], object]] = {
        "add_": lambda t: t.add_(1),
        "mul_": lambda t: t.mul_(2),
        "copy_": lambda t: t.copy_(torch.zeros_like(t)),
        "fill_": lambda t: t.fill_(7.0),
        "zero_": lambda t: t.zero_(),
        "indexed assignment": lambda t: t.__setitem__(0, 5.0),
    }
    for name, write in writes.items():
        for mode in (nullcontext, torch.inference_mode):
            made = torch.tensor([1.0, 2.0], requires_grad=True).exp()
            with mode():
                write(made.detach())
            error = raised(made.sum().backward)
            if "modified by an inplace operation" not in str(error):
                return f"{name} under {mode.__name__}: the backward pass gave {error!r}"
    # A write through NumPy, the storage, DLPack or .data moves no counter; the gradient is silently wrong.
    around: dict[str, Callable[[torch.Tensor], object]] = {
        "d.numpy()": lambda t: t.numpy().__setitem__(slice(None), 0),
        "d.untyped_storage()": lambda t: t.untyped_storage().fill_(0),
        "torch.from_dlpack(d)": lambda t: torch.utils.dlpack.from_dlpack(t).zero_(),
        "d.data": lambda t: t.data.zero_(),
    }
    for name, write in around.items():
        leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        made = leaf.exp()
        detached = made.detach()
        write(detached)
        error = raised(made.sum().backward)
        if detached._version != 0 or error is not None or not torch.equal(leaf.grad, torch.zeros(2)):
            return f"{name}: counter {detached._version}, backward gave {error!r}, gradient {leaf.grad}"
    # Hooks registered on the saved tensor itself, after the fact, skip the check as well.
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    made = leaf.exp()
    made.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)
    made.detach().zero_()
    error = raised(made.sum().backward)
    if error is not None or not torch.equal(leaf.grad, torch.zeros(2)):
        return f"hooks registered on the saved tensor: {error!r}, gradient {leaf.grad}"
    # Hooks the change does not reach give the right gradient: one that copies on a change ...
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        made = leaf.exp()
        made.detach().zero_()
        made.sum().backward()
    if not torch.allclose(leaf.grad, right):
        return f"allow_mutation_on_saved_tensors gave the gradient {leaf.grad}"
    # ... and one that packs a copy. Both skip the check, but their gradients are right: the words say
    # "whenever the change reaches what the hook kept", not "always".
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
        made = leaf.exp()
    made.detach().zero_()
    made.sum().backward()
    if not torch.allclose(leaf.grad, right):
        return f"a hook that packs a copy gave the gradient {leaf.grad}"
    return ""


_error = raised(y.sum().backward)  # the same backward pass again: it raises before it changes anything
claim(
    "At `backward()` autograd compares the counter of the saved `y` with the value it recorded "
    "when "
    "saving it (0). It finds 1, and raises instead of using the zeros",
    "is at version 1; expected version 0" in str(_error) and _exp_saves_its_output() and x.grad is None,
    f"the backward pass gave {_error!r}",
)
_seen = _noticed_unless_hooked()
claim(
    "PyTorch notices a change that a torch operation makes through the detached tensor, thanks to "
    "a version counter the two tensors share. It refuses to compute wrong gradients: `backward()` "
    "raises. Saved-tensor hooks are the exception: where they packed the tensor autograd saved, there "
    "is no check. The gradients are then silently wrong whenever the change reaches what the hook "
    "kept. The change reaches it with `torch.autograd.graph.save_on_cpu()` and a tensor already on "
    "the CPU. A write through another "
    "alias of the memory, such as `d.numpy()`, `d.untyped_storage()`, `torch.from_dlpack(d)` or "
    "`d.data`, moves no counter and goes unnoticed too",
    isinstance(_error, RuntimeError) and not _seen,
    _seen or f"the backward pass gave {_error!r}",
)
# sphinx_gallery_end_ignore

# %%
# The check concerns only tensors that autograd saved. ``x + 1`` saves nothing, since the
# derivative of an addition does not depend on its values. So the same change to its
# detached twin goes through, and the gradient is still right.
z = x + 1
z.detach().zero_()
z.sum().backward()
print(f"{x.grad = }")

# sphinx_gallery_start_ignore


def _backward_after_changing_x(
    make: Callable[[torch.Tensor], torch.Tensor],
    hooks: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> BaseException | None:
    """Change x in place through x.detach() after computing make(x) under hooks(); back-propagate."""
    leaf = torch.arange(4.0, requires_grad=True)
    with hooks():
        made = make(leaf)
    leaf.detach().add_(1)
    return raised(made.sum().backward)


def _only_where_saved() -> str:
    """Change x, or sigmoid's saved output, after operations that save them or not, with hooks or not."""
    leaf = torch.ones(3, requires_grad=True)
    report = tcdoc.compare(leaf, leaf.detach())
    if not (report.shares_storage and report.shares_version_counter):
        return f"x.detach() measured {report}"
    if _backward_after_changing_x(torch.sin) is None:
        return "the change of x after sin, which saves x, went through"
    right = torch.tensor([1.0, 2.0]).sigmoid() * (1 - torch.tensor([1.0, 2.0]).sigmoid())
    hooks: dict[str, Callable[[], AbstractContextManager[object]]] = {
        "save_on_cpu": torch.autograd.graph.save_on_cpu,
        "saved_tensors_hooks": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
    }
    for name, make_hooks in hooks.items():
        leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        with make_hooks():
            made = leaf.sigmoid()
        made.detach().zero_()
        made.sum().backward()
        if torch.allclose(leaf.grad, right):
            return f"under {name} the gradient stayed right"
        if _backward_after_changing_x(torch.sin, make_hooks) is not None:
            return f"under {name} the change of x after sin was noticed"
    for name, make in (("x + 1", lambda t: t + 1), ("x.exp()", torch.exp)):
        error = _backward_after_changing_x(make)
        if error is not None:
            return f"the change of x after {name}, which does not save x, stopped the backward pass: {error}"
    return ""


_seen = _only_where_saved()
claim(
    "The check concerns only tensors that autograd saved. `x + 1` saves nothing, since the "
    "derivative "
    "of an addition does not depend on its values. So the same change to its detached twin goes "
    "through, and the gradient is still right",
    torch.equal(x.grad, torch.ones(4)) and not _seen,
    _seen or f"x.grad is {x.grad}",
)
# sphinx_gallery_end_ignore

# %%
# The fix: copy before changing
# -----------------------------
# ``y.detach().clone()`` has memory of its own. So changing it leaves ``y``, and its
# counter, as they were, and the backward pass succeeds.
x.grad = None
y = x.exp()
d = y.detach().clone()
d.zero_()
y.sum().backward()
print((y._version, d._version), tcdoc.shares_memory(d, y))

# %%
# The gradient is ``exp(x)``, as it should be.
assert torch.allclose(x.grad, x.detach().exp())
print(f"{x.grad = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# sphinx_gallery_start_ignore
_leaf = torch.tensor([1.0, 2.0], requires_grad=True)
_report = tcdoc.compare(_leaf, _leaf.data)
_saved = _leaf.sigmoid()  # sigmoid saves its output, which a change through .data then zeroes
with torch.no_grad():
    _saved.data.zero_()
_error = raised(_saved.sum().backward)
_right = torch.tensor([1.0, 2.0]).sigmoid() * (1 - torch.tensor([1.0, 2.0]).sigmoid())
claim(
    "which shares the memory but not the counter: no error, and wrong gradients",
    _report.shares_storage
    and not _report.shares_version_counter
    and _error is None
    and not torch.allclose(_leaf.grad, _right),
    f"x.data measured {_report}; the backward pass gave {_error!r} and the gradient {_leaf.grad}",
)
# sphinx_gallery_end_ignore

# %%
# :doc:`plot_06_data_is_silent` makes the same change through ``.data``, which shares the
# memory but not the counter: no error, and wrong gradients. More on ``detach()``:
# :doc:`/explanation/detach`; what the counter is and how to read it:
# :doc:`/explanation/four-questions`.
