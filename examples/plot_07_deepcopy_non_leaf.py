"""Why ``copy.deepcopy`` refuses a tensor that is not a leaf
=========================================================

:func:`copy.deepcopy` copies a plain tensor only if it is a leaf of the autograd graph. Such
a leaf is one you created, one computed while autograd was not recording (under
:class:`torch.no_grad`), or one without a gradient (``x > 0``, ``x.int()``). A tensor computed
by a differentiable operation, with autograd recording, from tensors that require gradients,
is not a leaf. (A ``Parameter`` goes
through a deepcopy of its own, which copies it even when it is not a leaf.)

Few people deepcopy such a tensor on purpose. They meet the error when they deepcopy a *model*,
to keep a snapshot or to build a target network. Somewhere inside it, a module holds a computed
tensor as a plain attribute. This example shows the error, three ways models end up holding
such tensors, and the fix for each.
"""

# %%
# The error itself, on a tensor computed from a leaf that requires gradients:
import copy

import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
z = x * 2
try:
    copy.deepcopy(z)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
import functools
import warnings

import tcdoc
from tcdoc.claims import claim, raised


def _leaves_only() -> str:
    """Deepcopy tcdoc's kinds of x, results with and without a gradient, unrecorded products, a Parameter."""
    for scenario in tcdoc.scenarios():
        refused = scenario.name in ("non_leaf", "zero_dim")
        if not refused and scenario.group != "everyday":
            continue  # a Tensor subclass is refused for another reason
        source = scenario.build(torch.device("cpu"))
        error = raised(functools.partial(copy.deepcopy, source))
        if refused and (error is None or "leaves" not in str(error)):
            return f"deepcopy of {scenario.name} gave {error!r}"
        if not refused and source.is_leaf and error is not None:
            return f"deepcopy raised on the leaf {scenario.name}: {error}"
    leaf = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    for mode in (torch.no_grad, torch.inference_mode):
        with mode():
            product = leaf * 2
        if not product.is_leaf or not torch.equal(copy.deepcopy(product), product):
            return f"the product made under {mode.__name__} is no leaf deepcopy copies"
    differentiable = {"x * 2": leaf * 2, "x.exp()": leaf.exp(), "x.sum()": leaf.sum(), "x[1:]": leaf[1:]}
    for code, made in differentiable.items():
        error = raised(functools.partial(copy.deepcopy, made))
        if made.is_leaf or not isinstance(error, RuntimeError):
            return f"{code} is a leaf, or its deepcopy gave {error!r}"
    without_gradient = {"x > 0": leaf > 0, "x.int()": leaf.int(), "x.argmax()": leaf.argmax()}
    for code, made in without_gradient.items():
        if not made.is_leaf or made.grad_fn is not None or not torch.equal(copy.deepcopy(made), made):
            return f"{code} is not a leaf, or deepcopy did not copy it"
    weight = torch.nn.Parameter(torch.ones(3), requires_grad=False)
    weight.mul_(leaf)  # recorded in place: weight is no leaf now
    copied = copy.deepcopy(weight)
    if weight.is_leaf or not isinstance(copied, torch.nn.Parameter) or not torch.equal(copied, weight):
        return f"the Parameter made no leaf ({weight!r}) was not copied: {copied!r}"
    return ""


_error = raised(functools.partial(copy.deepcopy, z))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # some kinds of x warn
    _seen = _leaves_only()
claim(
    "{func}`copy.deepcopy` copies a plain tensor only if it is a leaf of the autograd graph. Such a leaf is "
    "one you created, one computed while autograd was not recording (under {class}`torch.no_grad`), "
    "or one without a gradient (`x > 0`, `x.int()`). A tensor computed by a differentiable "
    "operation, with autograd recording, from tensors that require gradients, is not a leaf. "
    "(A `Parameter` goes through a deepcopy of its own, which copies it even when it is not a leaf.)",
    not z.is_leaf and isinstance(_error, RuntimeError) and not _seen,
    _seen or f"deepcopy of z gave {_error!r}",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.draw.draw_operations` applies operations to a fresh tensor of this kind:
# tcdoc's ``non_leaf`` scenario, a leaf that requires gradients times two. It draws what each
# one gave, a tensor or an error: here ``copy.deepcopy(x)`` beside ``x.detach().clone()``.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["deepcopy", "detach_clone"], "non_leaf")

# %%
# A module that caches what it computes
# -------------------------------------
# This layer remembers its last output, say for plotting or for a hook. To try deepcopy on
# each module below, a helper returns the copy's type, or the error's first sentence.
from torch import nn


def try_deepcopy(thing: object) -> str:
    """Deepcopy ``thing``; name the copy's type, or the error that deepcopy raised."""
    try:
        return f"copied: {type(copy.deepcopy(thing)).__name__}"
    except RuntimeError as error:
        return f"RuntimeError: {str(error).partition('.')[0]}."


class Remembering(nn.Module):
    """A linear layer that keeps its last output."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(3, 2)
        self.last_output: torch.Tensor | None = None

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        output = self.linear(inputs)
        self.last_output = output
        return output


# %%
# Before its first call it holds no computed tensor, and deepcopy works.
model = Remembering()
print(f"{try_deepcopy(model) = }")

# %%
# After one forward pass, ``last_output`` is a tensor with autograd history, and the same
# deepcopy fails.
model(torch.randn(1, 3))
print(f"{try_deepcopy(model) = }")

# sphinx_gallery_start_ignore


class _RememberingDetached(Remembering):
    """The same layer, keeping a detached output (the example's fix, below)."""

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        output = self.linear(inputs)
        self.last_output = output.detach()
        return output


with torch.random.fork_rng(devices=[]):  # keeps the example's random numbers
    _fresh, _fixed = Remembering(), _RememberingDetached()
_fresh_copy = try_deepcopy(_fresh)
_fixed(torch.ones(1, 3))
claim(
    "After one forward pass, `last_output` is a tensor with autograd history, and the same deepcopy fails",
    model.last_output is not None
    and model.last_output.grad_fn is not None
    and try_deepcopy(model).startswith("RuntimeError")
    and _fresh_copy.startswith("copied")
    and try_deepcopy(_fixed).startswith("copied"),
    f"after a pass: {try_deepcopy(model)}; before: {_fresh_copy}; detached: {try_deepcopy(_fixed)}",
)
# sphinx_gallery_end_ignore


# %%
# A tensor computed in ``__init__``
# ---------------------------------
# Here the module stores a value computed from its own parameter. It fails before any
# forward pass: the attribute has a ``grad_fn`` from the start.
class Scaled(nn.Module):
    """A linear map divided by its weight's norm at creation."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2, 3))
        self.initial_norm = self.weight.norm()

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return inputs @ self.weight.T / self.initial_norm


scaled = Scaled()
print(f"{type(scaled.initial_norm.grad_fn).__name__ = }")
print(f"{try_deepcopy(scaled) = }")

# sphinx_gallery_start_ignore
claim(
    "It fails before any forward pass: the attribute has a `grad_fn` from the start",
    scaled.initial_norm.grad_fn is not None and try_deepcopy(scaled).startswith("RuntimeError"),
    f"initial_norm is {scaled.initial_norm!r}; deepcopy: {try_deepcopy(scaled)}",
)
# sphinx_gallery_end_ignore

# %%
# The old ``weight_norm``
# -----------------------
# :func:`torch.nn.utils.weight_norm` replaces a layer's ``weight`` parameter by two others and
# stores ``weight``, computed from them, as a plain attribute. Whether this torch still has
# it, whether it warns, and what deepcopy does with a module that uses it, is printed below.
import warnings

if hasattr(nn.utils, "weight_norm"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old_style = nn.utils.weight_norm(nn.Linear(3, 2))
    for warning in caught:
        print(f"{warning.category.__name__}: {warning.message}")
    print(f"parameters: {[name for name, _ in old_style.named_parameters()]}")
    print(f"weight is a leaf: {old_style.weight.is_leaf}")
    print(try_deepcopy(old_style))
else:
    print(f"torch {torch.__version__} has no torch.nn.utils.weight_norm any more")

# %%
# Its ``weight`` is recomputed before every forward pass. Under :class:`torch.no_grad` it is
# recomputed without history, so such a model can copy after such a pass. It fails after any
# forward pass with gradients enabled, ``model.eval()`` or not, while its parameters require
# gradients.
if hasattr(nn.utils, "weight_norm"):
    with torch.no_grad():
        old_style(torch.randn(1, 3))
    print(f"after a no_grad forward: {try_deepcopy(old_style)}")
    old_style(torch.randn(1, 3))
    print(f"after a forward with gradients: {try_deepcopy(old_style)}")

# sphinx_gallery_start_ignore


def _old_weight_norm() -> str:
    """Deepcopy a layer with the old weight_norm after passes with and without grad, in eval mode, frozen."""
    with torch.random.fork_rng(devices=[]), warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated
        layer = nn.utils.weight_norm(nn.Linear(3, 2))
    inputs = torch.ones(1, 3)
    for step in ("training", "eval mode"):
        if step == "eval mode":
            layer.eval()  # changes nothing
        with torch.no_grad():
            layer(inputs)
        if not try_deepcopy(layer).startswith("copied"):
            return f"{step}: after a no_grad pass, {try_deepcopy(layer)}"
        layer(inputs)
        if not try_deepcopy(layer).startswith("RuntimeError"):
            return f"{step}: after a pass with gradients, {try_deepcopy(layer)}"
    layer.requires_grad_(False)  # frozen: its weight is recomputed as a leaf
    layer(inputs)
    if not try_deepcopy(layer).startswith("copied"):
        return f"frozen: after a pass with gradients, {try_deepcopy(layer)}"
    return ""


if hasattr(nn.utils, "weight_norm"):  # as the visible code does
    _seen = _old_weight_norm()
    claim(
        "Under `torch.no_grad` it is recomputed without history, so such a model can copy after such "
        "a pass. It fails after any forward pass with gradients enabled, `model.eval()` or not, while "
        "its parameters require gradients",
        try_deepcopy(old_style).startswith("RuntimeError") and not _seen,
        _seen or f"after a forward with gradients: {try_deepcopy(old_style)}",
    )
# sphinx_gallery_end_ignore


# %%
# The fixes
# ---------
# A cache that is for looking at, not for back-propagating through, should hold a detached
# tensor. Then deepcopy works after any number of forward passes.
class RememberingDetached(Remembering):
    """The same layer, keeping a detached output."""

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        output = self.linear(inputs)
        self.last_output = output.detach()
        return output


model = RememberingDetached()
model(torch.randn(1, 3))
print(f"{try_deepcopy(model) = }")


# %%
# A constant computed once belongs in a buffer, made from a detached value: it is then
# part of the ``state_dict`` and moves with the module in ``.to()``, and deepcopy copies it.
class ScaledBuffer(nn.Module):
    """The same map, keeping the norm in a buffer."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2, 3))
        self.register_buffer("initial_norm", self.weight.detach().norm())

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return inputs @ self.weight.T / self.initial_norm


scaled = ScaledBuffer()
print(f"{list(copy.deepcopy(scaled).state_dict()) = }")

# sphinx_gallery_start_ignore
_twin = copy.deepcopy(scaled)
_moved = copy.deepcopy(scaled).to(torch.float64)  # on a copy: .to() works in place
claim(
    "it is then part of the `state_dict` and moves with the module in `.to()`, and deepcopy copies it",
    "initial_norm" in scaled.state_dict()
    and _moved.get_buffer("initial_norm").dtype == torch.float64
    and torch.equal(_twin.initial_norm, scaled.initial_norm)
    and not tcdoc.shares_memory(_twin.initial_norm, scaled.initial_norm),
    f"state_dict {list(scaled.state_dict())}; the copy's buffer {_twin.initial_norm!r}",
)
# sphinx_gallery_end_ignore

# %%
# For weight normalisation, :func:`torch.nn.utils.parametrizations.weight_norm` computes
# ``weight`` when it is read instead of storing it. So there is nothing to refuse, and the
# copy computes the same outputs.
new_style = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
new_style(torch.randn(1, 3))
twin = copy.deepcopy(new_style)
inputs = torch.randn(1, 3)
print(f"{torch.equal(twin(inputs), new_style(inputs)) = }")

# sphinx_gallery_start_ignore
claim(
    "`torch.nn.utils.parametrizations.weight_norm` computes `weight` when it is read instead of "
    "storing it. So there is nothing to refuse, and the copy computes the same outputs",
    "weight" not in new_style.__dict__
    and "weight" not in dict(new_style.named_parameters())
    and torch.equal(twin(inputs), new_style(inputs)),
    f"parameters {list(dict(new_style.named_parameters()))}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
import tcdoc

print(tcdoc.environment())

# %%
# More on deepcopy and leaves: :doc:`/explanation/deepcopy`. The
# copy to make of a single non-leaf tensor, ``z.detach().clone()``, is in
# :doc:`plot_03_deepcopy`.
