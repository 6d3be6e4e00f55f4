"""Forward-mode AD: ``detach()`` drops the tangent, ``clone()`` outside inference mode keeps it
============================================================================================

Forward-mode automatic differentiation (:mod:`torch.autograd.forward_ad`) computes a
directional derivative alongside the values: each tensor of the computation is a *dual
tensor* that carries a *tangent* next to its primal value. It is how Jacobian-vector
products are computed in one forward pass. With gradients enabled, ``detach()`` and
``clone()`` treat the tangent the way they treat the backward graph: ``detach()`` drops it,
``clone()`` carries it along. The grad modes part the two: under :class:`torch.no_grad` a
clone records no backward graph yet keeps the tangent, and under
:class:`torch.inference_mode` it keeps neither.
"""

# %%
# A dual tensor
# -------------
# Inside :class:`~torch.autograd.forward_ad.dual_level`, :func:`~torch.autograd.forward_ad.make_dual`
# pairs a primal value with a tangent (the direction to differentiate along), and
# :func:`~torch.autograd.forward_ad.unpack_dual` takes them apart again. Along a direction
# of ones, the tangent of ``sin(x)`` is ``cos(x)``.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
primal = torch.randn(3)
direction = torch.ones(3)

with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    y = x.sin()
    tangent = fwAD.unpack_dual(y).tangent
print(f"{tangent = }")
print(f"{primal.cos() = }")

# sphinx_gallery_start_ignore
import warnings

from tcdoc.claims import claim


def _tangent_of(make):
    """Return the tangent of ``make(x)`` for a dual ``x`` of ``primal`` along ``direction``, or None."""
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore", DeprecationWarning)  # raised inside torch on some versions
        return fwAD.unpack_dual(make(fwAD.make_dual(primal, direction))).tangent


# sphinx_gallery_end_ignore

# %%
# ``detach()`` drops the tangent
# ------------------------------
# A detached tensor is a plain tensor again: ``unpack_dual`` finds its values but no
# tangent.
with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    y = x.sin()
    detached = fwAD.unpack_dual(y.detach())
print(f"{detached = }")

# %%
# ``clone()`` keeps it
# --------------------
# A clone is part of the computation, so its tangent is the tangent of ``y``, and it keeps
# flowing through later operations.
with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    y = x.sin()
    cloned = fwAD.unpack_dual(y.clone())
    doubled = fwAD.unpack_dual(2 * y.clone())
print(f"{cloned.tangent = }")
print(f"{doubled.tangent = }")

# sphinx_gallery_start_ignore
claim(
    "With gradients enabled, `detach()` and `clone()` treat the tangent the way they treat the "
    "backward graph: `detach()` drops it, `clone()` carries it along",
    detached.tangent is None and torch.equal(cloned.tangent, tangent),
    f"the detached tangent is {detached.tangent}, the clone's {cloned.tangent}",
)
# sphinx_gallery_end_ignore

# %%
# The same clone under each grad mode: does it keep the tangent?
with fwAD.dual_level():
    y = fwAD.make_dual(primal, direction).sin()
    for mode in (torch.enable_grad, torch.no_grad, torch.inference_mode):
        with mode():
            kept = fwAD.unpack_dual(y.clone()).tangent is not None
        print(f"{mode.__name__}: {kept}")


# sphinx_gallery_start_ignore
def _clone_under(mode):
    """Return a function that clones its tensor under the grad mode ``mode``."""

    def make(t):
        with mode():
            return t.clone()

    return make


with torch.no_grad():
    _recorded = torch.ones(2, requires_grad=True).clone().grad_fn
claim(
    "The grad modes part the two: under {class}`torch.no_grad` a clone records no backward graph "
    "yet keeps the tangent, and under {class}`torch.inference_mode` it keeps neither",
    _tangent_of(_clone_under(torch.no_grad)) is not None
    and _tangent_of(_clone_under(torch.inference_mode)) is None
    and _recorded is None,
    f"under no_grad the clone recorded {_recorded}, or a mode kept or dropped the tangent",
)
# sphinx_gallery_end_ignore

# %%
# The same two results over many points, plotted against ``cos``, the derivative of ``sin``:
# the points are the tangent that ``y.clone()`` carries, and the title says what
# ``y.detach()`` has.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import matplotlib.pyplot as plt

points = torch.linspace(-3.0, 3.0, 41)
with fwAD.dual_level():
    wave = fwAD.make_dual(points, torch.ones_like(points)).sin()
    carried = fwAD.unpack_dual(wave.clone()).tangent
    dropped = fwAD.unpack_dual(wave.detach()).tangent

figure, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
ax.plot(points, torch.cos(points), color="0.6", linewidth=3, label="cos(x)")
ax.plot(points, carried, "o", markersize=4, label="tangent of y.clone()")
ax.set(title=f"y = sin(x); tangent of y.detach(): {dropped}", xlabel="x")
ax.legend()
plt.show()

# %%
# ``detach().clone()`` copies the values only, so it has no tangent either.
with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    y = x.sin()
    copied = fwAD.unpack_dual(y.detach().clone())
print(f"{copied = }")

# sphinx_gallery_start_ignore
claim(
    "`detach().clone()` copies the values only, so it has no tangent either",
    copied.tangent is None and _tangent_of(lambda t: t.detach().clone()) is None,
    f"y.detach().clone() has the tangent {copied.tangent}",
)
# sphinx_gallery_end_ignore

# %%
# Other copies lose it silently
# ------------------------------
# Here ``primal`` does not require grad. :func:`copy.deepcopy` and ``.data`` then drop the
# tangent too, and raise no error. A lost tangent gives a wrong derivative: along
# ``direction`` (ones), the tangent of ``x * x`` is ``2 * x``, but ``x.detach() * x`` has
# only ``x``.
import copy

with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    print(f"{fwAD.unpack_dual(copy.deepcopy(x)).tangent = }")
    print(f"{fwAD.unpack_dual(x.data).tangent = }")
    print(f"{fwAD.unpack_dual(x * x).tangent = }")
    print(f"{fwAD.unpack_dual(x.detach() * x).tangent = }")
print(f"{primal = }")

# sphinx_gallery_start_ignore
_right = _tangent_of(lambda t: t * t)  # d(x * x) = 2x along the ones
_wrong = _tangent_of(lambda t: t.detach() * t)
claim(
    "{func}`copy.deepcopy` and `.data` then drop the tangent too, and raise no error",
    not primal.requires_grad and _tangent_of(copy.deepcopy) is None and _tangent_of(lambda t: t.data) is None,
    "copy.deepcopy or .data kept the tangent",
)
claim(
    "A lost tangent gives a wrong derivative: along `direction` (ones), the tangent of `x * x` is "
    "`2 * x`, but `x.detach() * x` has only `x`",
    torch.equal(direction, torch.ones(3))
    and torch.allclose(_right, 2 * primal)
    and torch.allclose(_wrong, primal),
    f"x * x has the tangent {_right}, x.detach() * x has {_wrong}",
)
# sphinx_gallery_end_ignore

# %%
# Tangents live only inside the level
# -----------------------------------
# When the ``dual_level`` block ends, its tangents are gone: ``y`` is a plain tensor again.
print(f"{fwAD.unpack_dual(y) = }")

# %%
# These values were measured with:
import tcdoc

print(tcdoc.environment())

# %%
# ``detach()`` cuts the backward graph in the same way: :doc:`/explanation/detach`.
