"""``.data`` changes are silent, and the gradients are wrong
=========================================================

``x.data`` reaches a tensor's values outside autograd, and older code and forum answers
still use it where ``x.detach()`` would do. Like ``detach()`` it shares
memory with its source, but it does not share the version counter, so autograd cannot see
changes made through it. Where :doc:`plot_05_inplace_after_detach` ends in an error, the same
change through ``.data`` ends in gradients that are simply wrong, with nothing to warn you.
"""

# %%
# The same start as in the ``detach()`` example: :func:`torch.exp` saves its output ``y``
# for the backward pass.
import torch

torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
y = x.exp()
print(f"{y = }")

# %%
# ``y.data`` shares memory with ``y``, as ``y.detach()`` does, but not its version counter.
import tcdoc

print(tcdoc.compare(y, y.data))

# sphinx_gallery_start_ignore
import warnings
from collections.abc import Callable

from tcdoc.claims import claim, raised


def _sigmoid_after_change(reach: Callable[[torch.Tensor], torch.Tensor]) -> BaseException | torch.Tensor:
    """Zero sigmoid's saved output through ``reach(output)``; return the error, or the gradient."""
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    made = leaf.sigmoid()
    with torch.no_grad():
        reach(made).zero_()
    return raised(made.sum().backward) or leaf.grad


def _data_everywhere() -> str:
    """Take .data of each kind of ``x`` tcdoc builds; say where it shares the counter or not the memory."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some kinds of x warn; the words are about what .data gives
        for scenario in tcdoc.scenarios():
            source = scenario.build(torch.device("cpu"))
            try:
                data = source.data
            except RuntimeError:
                continue  # where .data raises, it gives nothing to speak of
            report = tcdoc.compare(source, data)
            if not report.shares_storage or report.shares_version_counter:
                return f"x.data of {scenario.name} measured {report}"
    return ""


_right = torch.tensor([1.0, 2.0]).sigmoid() * (1 - torch.tensor([1.0, 2.0]).sigmoid())
_through_data = _sigmoid_after_change(lambda t: t.data)
_leaf = torch.ones(3, requires_grad=True)  # a leaf too, where the example takes .data of a computed y
_leaf_report = tcdoc.compare(_leaf, _leaf.data)
_report = tcdoc.compare(y, y.data)
claim(
    "Like `detach()` it shares memory with its source, but it does not share the version "
    "counter, so "
    "autograd cannot see changes made through it",
    _report.shares_storage
    and not _report.shares_version_counter
    and _leaf_report.shares_storage
    and not _leaf_report.shares_version_counter
    and isinstance(_through_data, torch.Tensor)
    and not torch.allclose(_through_data, _right),
    f"y.data measured {_report}; a change through .data gave {_through_data!r}",
)
_detached = tcdoc.compare(y, y.detach())
_leaf_detached = tcdoc.compare(_leaf, _leaf.detach())
_seen = _data_everywhere()
claim(
    "`y.data` shares memory with `y`, as `y.detach()` does, but not its version counter",
    _report.shares_storage
    and not _report.shares_version_counter
    and _detached.shares_storage
    and _detached.shares_version_counter
    and _leaf_detached.shares_storage
    and _leaf_detached.shares_version_counter
    and not _seen,
    _seen or f"y.data measured {_report}; y.detach() measured {_detached}",
)
# sphinx_gallery_end_ignore

# %%
# Next to ``detach()``, measured on the same ``y``, the difference is that one field.
print(tcdoc.compare(y, y.detach()).shares_version_counter, tcdoc.compare(y, y.data).shares_version_counter)

# %%
# Drawn side by side by :func:`tcdoc.draw.draw_panels`, both stand on the storage of ``y``;
# the version counters are where the pictures differ.
#
# Drawing needs matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_panels(
    [
        tcdoc.draw.diagram(y, y.detach(), "y.detach()", names=("y", "d")),
        tcdoc.draw.diagram(y, y.data, "y.data", names=("y", "d")),
    ]
)

# %%
# Zeroing through ``.data`` writes into ``y``, and only the counter of the ``.data`` tensor
# moves. ``y``'s counter still reads 0.
d = y.data
d.zero_()
print(y, (y._version, d._version))

# sphinx_gallery_start_ignore
claim(
    "Zeroing through `.data` writes into `y`, and only the counter of the `.data` tensor moves",
    torch.equal(y, torch.zeros(4)) and (y._version, d._version) == (0, 1),
    f"y is {y}; versions {y._version} and {d._version}",
)
# sphinx_gallery_end_ignore

# %%
# So ``backward()`` runs without complaint, using the zeros as if they were ``exp(x)``.
y.sum().backward()
wrong = x.grad
print(f"{wrong = }")

# %%
# The right gradient, computed on a fresh graph from the same values of ``x``:
x_fresh = x.detach().clone().requires_grad_(True)
x_fresh.exp().sum().backward()
right = x_fresh.grad
print(f"{right = }")

# %%
# Side by side, first row from ``.data``, second row correct. They differ, and nothing
# said so.
assert not torch.allclose(wrong, right)
print(f"{torch.stack([wrong, right]) = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# sphinx_gallery_start_ignore
_through_detach = _sigmoid_after_change(lambda t: t.detach())
claim(
    "a mistake then raises",
    isinstance(_through_detach, RuntimeError),
    f"a change through detach() gave {_through_detach!r}",
)
# sphinx_gallery_end_ignore

# %%
# Use ``detach()`` where older code uses ``.data``: a mistake then raises, as in
# :doc:`plot_05_inplace_after_detach`, instead of going unnoticed. The exceptions are the cases
# that example names: saved-tensor hooks, and a write through another alias of the memory. Where
# ``.data`` sits among the other look-alikes: :doc:`/explanation/look-alikes`.
