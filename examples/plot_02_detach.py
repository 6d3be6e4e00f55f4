"""What ``detach()`` does
======================

``y = x.detach()`` gives a new tensor object that looks at the *same memory* as ``x`` but
is cut out of the autograd graph. It is cheap, because nothing is copied, and it is what you
want when a value must leave the computation: logging, plotting, or a target that
gradients must not flow into. The price is that ``y`` and ``x`` share their data.
"""

# %%
# A tensor made by an operation, so that it has autograd history, and its detached twin.
import torch

torch.manual_seed(0)
w = torch.randn(2, 3, requires_grad=True)
x = w * 2
y = x.detach()
print(f"{y = }")

# sphinx_gallery_start_ignore
import warnings

import tcdoc
from tcdoc.claims import claim, raised


def _detach_everywhere() -> str:
    """Detach each kind of ``x`` tcdoc builds; say where the result holds new bytes or requires grad."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some kinds of x warn; the words are about what detach() makes
        for scenario in tcdoc.scenarios():
            source = scenario.build(torch.device("cpu"))
            try:
                detached = source.detach()
            except RuntimeError:
                continue  # where detach() raises, it makes nothing to speak of
            report = tcdoc.compare(source, detached)
            if report.new_bytes != 0 or report.requires_grad:
                return f"x.detach() of {scenario.name} measured {report}"
    return ""


_report = tcdoc.compare(x, y)
_seen = _detach_everywhere()
claim(
    "It is cheap, because nothing is copied",
    _report.new_bytes == 0 and not _report.requires_grad and not _seen,
    _seen or f"x.detach() measured {_report}",
)
# sphinx_gallery_end_ignore

# %%
# 1. A new Python object?
print(f"{y is x = }")

# %%
# 2. Its own metadata: ``y`` does not require gradients and is a leaf, while ``x`` is not.
print((x.requires_grad, x.is_leaf), (y.requires_grad, y.is_leaf))

# %%
# 3. The same memory: both storages start at the same address.
print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

# %%
# So a value written into ``y`` in place shows up in ``x``.
y[0, 0] = 100.0
print(f"{x[0, 0].item() = }")

# sphinx_gallery_start_ignore
_leaf = torch.zeros(3, requires_grad=True)  # a leaf too, where the example detaches a computed x
_twin = _leaf.detach()
_twin[0] = 7.0
claim(
    "The price is that `y` and `x` share their data",
    x[0, 0].item() == 100.0
    and y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    and _leaf[0].item() == 7.0
    and (_leaf._version, _twin._version) == (1, 1),
    f"x[0, 0] is {x[0, 0].item()}; a leaf after a write through its detach(): {_leaf}, {_leaf._version}",
)
# sphinx_gallery_end_ignore

# %%
# They also share a version counter, which autograd uses to notice in-place changes.
# The write above counted for both.
print(f"{x._version = }")
print(f"{y._version = }")

# sphinx_gallery_start_ignore
_source = torch.arange(4.0, requires_grad=True)
_saved = _source.exp()  # exp saves its output for the backward pass
_saved.detach().zero_()
_error = raised(_saved.sum().backward)
claim(
    "They also share a version counter, which autograd uses to notice in-place changes",
    x._version == y._version == 1 and "modified by an inplace operation" in str(_error),
    f"versions {x._version} and {y._version}; after a change through detach(), backward gave {_error}",
)
# sphinx_gallery_end_ignore

# %%
# 4. The history is cut: ``y`` has no ``grad_fn``, so nothing can flow back to ``w``.
print(f"{y.grad_fn = }")

# %%
# All four at once
# ----------------
import tcdoc

x = torch.randn(2, 3, requires_grad=True) * 2
print(tcdoc.compare(x, x.detach()))

# %%
# The same measurements as a picture, drawn by :func:`tcdoc.draw.draw`: both boxes point at
# one storage and one version counter, and the autograd edge is cut. Drawing needs
# matplotlib (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw(x, x.detach(), "x.detach()")

# %%
# In words, as the ``tcdoc explain`` command prints them:
print(tcdoc.answers(tcdoc.compare(x, x.detach())))

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Next: :doc:`plot_03_deepcopy`, Python's copy of everything.
