"""Why ``copy.deepcopy`` refuses a tensor that is not a leaf
=========================================================

:func:`copy.deepcopy` copies a plain tensor only if it is a leaf of the autograd graph: one you
created, one computed while autograd was not recording (under :class:`torch.no_grad`), or one
without a gradient (``x > 0``, ``x.int()``); not one computed by a differentiable operation, with
autograd recording, from tensors that require gradients. (A ``Parameter`` goes through a
deepcopy of its own, which copies it even when it is not a leaf.) Few people deepcopy such a
tensor on purpose; they meet the error when they deepcopy a *model* (to keep a snapshot, or to
build a target network) and somewhere inside it a module holds a computed tensor as a plain
attribute. This example shows the error, three ways models end up holding such tensors, and
the fix for each.
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

# %%
# :func:`tcdoc.draw.draw_operations` applies operations to a fresh tensor of this kind
# (tcdoc's ``non_leaf`` scenario, a leaf that requires gradients times two) and draws what
# each one gave, a tensor or an error: here ``copy.deepcopy(x)`` beside ``x.detach().clone()``.
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
# recomputed without history, which is why such a model can copy after such a pass and fails
# after any forward pass with gradients enabled, ``model.eval()`` or not, while its parameters
# require gradients.
if hasattr(nn.utils, "weight_norm"):
    with torch.no_grad():
        old_style(torch.randn(1, 3))
    print(f"after a no_grad forward: {try_deepcopy(old_style)}")
    old_style(torch.randn(1, 3))
    print(f"after a forward with gradients: {try_deepcopy(old_style)}")


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

# %%
# For weight normalisation, :func:`torch.nn.utils.parametrizations.weight_norm` computes
# ``weight`` when it is read instead of storing it, so there is nothing to refuse, and the
# copy computes the same outputs.
new_style = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
new_style(torch.randn(1, 3))
twin = copy.deepcopy(new_style)
inputs = torch.randn(1, 3)
print(f"{torch.equal(twin(inputs), new_style(inputs)) = }")

# %%
# These values were measured with:
import tcdoc

print(tcdoc.environment())

# %%
# More on deepcopy and leaves: :doc:`/explanation/deepcopy`. The
# copy to make of a single non-leaf tensor, ``z.detach().clone()``, is in
# :doc:`plot_03_deepcopy`.
