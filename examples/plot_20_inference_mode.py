"""Inference tensors: ``detach()`` keeps the mark, ``clone()`` outside inference mode drops it
===========================================================================================

Running a frozen network under :class:`torch.inference_mode` computes features without
autograd recording anything. The features it computes are *inference tensors*, and
they carry that mark with them. Feed them to a linear layer that
trains, and its first forward pass stops with an error. This example runs into the error, tries
the copy people reach for first, and ends with the copy that works.
"""

# %%
# Features from a frozen extractor
# --------------------------------
# A linear layer stands in for a large pretrained network. Its output, computed under
# inference mode, is an inference tensor.
import torch

torch.manual_seed(0)
extractor = torch.nn.Linear(4, 3)
inputs = torch.randn(8, 4)
with torch.inference_mode():
    features = extractor(inputs)
print(f"{features.is_inference() = }")
print(f"{features.requires_grad = }")

# sphinx_gallery_start_ignore

from tcdoc.claims import claim, raised

with torch.inference_mode():
    _computed = {
        "relu": torch.relu(inputs),
        "matmul": inputs @ inputs.T,
        "sum": inputs.sum(),
        "a network": torch.nn.Sequential(extractor, torch.nn.ReLU())(inputs),
    }
    # the words say "the features it computes": a layer that returns its input computes nothing
    _passed = torch.nn.Identity()(inputs)
claim(
    "Running a frozen network under {py:class}`torch.inference_mode` computes features without autograd "
    "recording anything. The features it computes are *inference tensors*, and they carry "
    "that mark with them",
    features.grad_fn is None
    and not features.requires_grad
    and features.is_inference()
    and features.detach().is_inference()
    and all(t.is_inference() for t in _computed.values())
    and _passed is inputs
    and not _passed.is_inference(),
    f"features: grad_fn={features.grad_fn}, is_inference()={features.is_inference()}; "
    f"not marked: {[name for name, t in _computed.items() if not t.is_inference()]}",
)
# sphinx_gallery_end_ignore

# %%
# Centring the features in place is a natural next step. Outside inference mode, an in-place
# operation on an inference tensor made under inference mode, or on a view of it, raises an
# error. That holds for each of ``add_``, ``mul_``, ``copy_``, ``fill_``, ``zero_``, indexed
# assignment and ``-=``, tried here. But it raises only after it has written. The error
# suggests the fix: a clone. The two lines after the error show that ``features`` changed and
# is centred all the same. The steps below use these centred features.
before = features.clone()
try:
    features -= features.mean(0)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print(f"{torch.equal(features, before) = }")
print(f"{features.mean(0).abs().max().item() < 1e-6 = }")

# sphinx_gallery_start_ignore
_WRITES = {
    "add_": lambda t: t.add_(1),
    "mul_": lambda t: t.mul_(2),
    "copy_": lambda t: t.copy_(torch.zeros_like(t)),
    "fill_": lambda t: t.fill_(7.0),
    "zero_": lambda t: t.zero_(),
    "indexed assignment": lambda t: t.__setitem__(0, 5.0),
    "-=": lambda t: t.__isub__(1),
}
_REFUSED = "Inplace update to inference tensor outside InferenceMode"


def _written_then_raised(write, target, source):
    """Tell whether ``write(target)`` changed ``source`` (``target`` or what it views), then raised."""
    before = source.clone()
    error = raised(lambda w=write, t=target: w(t))
    return isinstance(error, RuntimeError) and _REFUSED in str(error) and not torch.equal(source, before)


def _made_under_inference_mode():
    """Return fresh inference tensors, made under inference mode in the ways the example meets them."""
    ordinary = torch.full((3,), 3.0)
    with torch.inference_mode():
        base = torch.full((3,), 3.0)
        return {
            "a factory's result": torch.full((3,), 3.0),
            "a computed result": ordinary * 1,
            "a layer's output": extractor(inputs),
            "detach() inside inference mode": torch.full((3,), 3.0).detach(),
            "a view made inside inference mode": base[:],
        }


def _in_place_not_refused_after_writing():
    """Return the writes into an inference tensor, or a view of it, that did not write, then raise."""
    wrong = []
    for mode in (torch.enable_grad, torch.no_grad):  # outside inference mode, with or without grad
        for name, write in _WRITES.items():
            for reach in ("itself", "a view"):
                for kind, x in _made_under_inference_mode().items():
                    if not x.is_inference():
                        wrong.append(f"{kind} is not an inference tensor")
                    with mode():
                        if not _written_then_raised(write, x if reach == "itself" else x[:2], x):
                            wrong.append(f"{name} on {kind}, {reach}, under {mode.__name__}")
                # the error suggests a clone
                with torch.inference_mode():
                    x = torch.full((3,), 3.0)
                with mode():
                    message = str(raised(lambda w=write, t=(x if reach == "itself" else x[0:2]): w(t)))
                if "make a clone" not in message:
                    wrong.append(f"the error of {name} on {reach} says {message!r}")
    # after an add_ that raised, x holds what add_ wrote; a clone of it takes the write
    with torch.inference_mode():
        x = torch.ones(3)
    raised(lambda: x.add_(1))
    fixed = x.clone()
    fixed.add_(1)
    if not torch.equal(x, torch.full((3,), 2.0)) or fixed.is_inference():
        wrong.append(f"after the add_ that raised, x is {x}; the clone is_inference()={fixed.is_inference()}")
    return wrong


_wrong = _in_place_not_refused_after_writing()
claim(
    "Outside inference mode, an in-place operation on an inference tensor made under inference mode, "
    "or on a view of it, raises an error. That holds for each of `add_`, `mul_`, `copy_`, `fill_`, "
    "`zero_`, indexed assignment and `-=`, tried here. But it raises only after it has written. The "
    "error suggests the fix: a clone",
    not _wrong and not torch.equal(features, before) and bool(features.mean(0).abs().max() < 1e-6),
    f"{_wrong}; or the -= that raised did not centre the features",
)
# sphinx_gallery_end_ignore

# %%
# Through the aliases ``x.detach()`` and ``x.data``, most of those operations change ``x``
# without an error. The aliases are made outside inference mode, though also marked
# ``is_inference()``.
# Assignments such as ``x.detach()[0] = ...`` and ``x.detach()[0:1] = ...``, and any of those
# operations through a view of an alias, change ``x`` and then raise.
with torch.inference_mode():
    scratch = torch.zeros(3)
scratch.detach().add_(1)
scratch.data.mul_(5)
try:
    scratch.detach()[0] = 7.0
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('.')[0]}")
print(f"{scratch = }")

# sphinx_gallery_start_ignore
_ALIAS_WRITES = {name: write for name, write in _WRITES.items() if name != "indexed assignment"} | {
    # "most of those operations": assignment through an index tensor, a mask, an ellipsis or the
    # whole slice [:] goes through silently too.
    "assignment through an index tensor": lambda t: t.__setitem__(torch.tensor([0]), 5.0),
    "assignment through a mask": lambda t: t.__setitem__(t > 0, 5.0),
    "assignment to [...]": lambda t: t.__setitem__(Ellipsis, 5.0),
}
# "Assignments such as x.detach()[0] = ... and x.detach()[0:1] = ...": through an alias (x.data
# too), they write, then raise.
_ELEMENT_OR_SLICE = {
    "[0] = ...": _WRITES["indexed assignment"],
    "[0:1] = ...": lambda t: t.__setitem__(slice(0, 1), 5.0),
}


def _fresh_alias(alias):
    """Return a new inference tensor of threes and its alias ``x.detach()`` or ``x.data``."""
    with torch.inference_mode():
        x = torch.full((3,), 3.0)
    return x, x.detach() if alias == "detach" else x.data


def _alias_writes_gone_wrong():
    """Return the writes through ``x.detach()`` or ``x.data``, or a view of them, not as the words say."""
    wrong = []
    for mode in (torch.enable_grad, torch.no_grad):
        for alias in ("detach", "data"):
            for name, write in _ALIAS_WRITES.items():  # change x without an error
                x, seen = _fresh_alias(alias)
                with mode():
                    error = raised(lambda w=write, t=seen: w(t))
                if not seen.is_inference() or error is not None or torch.equal(x, torch.full((3,), 3.0)):
                    wrong.append(f"{name} through x.{alias} under {mode.__name__}: {error!r}, x is {x}")
            # assignment to [:] goes through silently on torch 2.13, and writes then raises on 2.4.1:
            # either way it changes x, as both sentences allow ("most of those operations", "such as")
            x, seen = _fresh_alias(alias)
            with mode():
                raised(lambda t=seen: t.__setitem__(slice(None), 5.0))
            if torch.equal(x, torch.full((3,), 3.0)):
                wrong.append(f"[:] = ... through x.{alias} left x unchanged")
            # element or slice assignment through the alias, and every write through a view of it:
            # written, then raised
            cases = [(name, write, False) for name, write in _ELEMENT_OR_SLICE.items()]
            cases += [(name, write, True) for name, write in _WRITES.items()]
            for name, write, through_view in cases:
                x, seen = _fresh_alias(alias)
                with mode():
                    if not _written_then_raised(write, seen[0:2] if through_view else seen, x):
                        where = f"a view of x.{alias}" if through_view else f"x.{alias}"
                        wrong.append(f"{name} through {where} under {mode.__name__}")
    return wrong


_wrong = _alias_writes_gone_wrong()
claim(
    "Through the aliases `x.detach()` and `x.data`, most of those operations change `x` without an "
    "error. The aliases are made outside inference mode, though also marked `is_inference()`. "
    "Assignments such as "
    "`x.detach()[0] = ...` and `x.detach()[0:1] = ...`, and any of those operations through a view of "
    "an alias, change `x` and then raise",
    not _wrong and scratch.is_inference() and torch.equal(scratch, torch.tensor([7.0, 5.0, 5.0])),
    f"{_wrong}; scratch is {scratch}",
)
# sphinx_gallery_end_ignore

# %%
# Training a head on them
# -----------------------
# A small head learns to predict a target from the three features. Its first forward pass
# already stops. The layer's weight requires gradients, so autograd would have to keep the
# features for the backward pass. Torch refuses to save an inference tensor for it.
head = torch.nn.Linear(3, 1)
targets = torch.randn(8, 1)
try:
    head(features)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
_refused = raised(lambda: head(features))
_not_saved = isinstance(_refused, RuntimeError) and "Inference tensors cannot be saved for backward" in str(
    _refused
)
claim(
    "Feed them to a linear layer that trains, and its first forward pass stops with an error",
    _not_saved,
    f"head(features) gave {_refused!r}",
)
claim(
    "Its first forward pass already stops. The layer's weight requires gradients, so autograd would have "
    "to keep the features for the backward pass. Torch refuses to save an inference tensor for it",
    _not_saved and head.weight.requires_grad,
    f"head(features) gave {_refused!r}; head.weight.requires_grad={head.weight.requires_grad}",
)
# sphinx_gallery_end_ignore

# %%
# ``detach()`` is not the way out
# -------------------------------
# ``detach()`` is the usual answer to "keep this tensor out of autograd", and it copies
# nothing. But the detached tensor is still an inference tensor: it keeps the mark, and the
# same forward pass stops in the same way.
detached = features.detach()
print(f"{detached.is_inference() = }")
try:
    head(detached)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
import tcdoc

_report = tcdoc.compare(features, detached)
_refused = raised(lambda: head(detached))
claim(
    '`detach()` is the usual answer to "keep this tensor out of autograd", and it copies nothing. But '
    "the detached tensor is still an inference tensor: it keeps the mark, and the same forward pass "
    "stops in the same way",
    detached.is_inference()
    and _report.shares_storage
    and _report.new_bytes == 0
    and _report.keeps_inference
    and isinstance(_refused, RuntimeError)
    and "Inference tensors cannot be saved for backward" in str(_refused),
    f"features.detach() measured {_report}; head(detached) gave {_refused!r}",
)
# sphinx_gallery_end_ignore

# %%
# :func:`tcdoc.compare` says the same of each candidate copy: ``keeps_inference`` is the
# mark, and ``shares_storage`` says whether the copy reads the memory of ``features``.
import tcdoc

for name, candidate in [("detach()", features.detach()), ("clone()", features.clone())]:
    report = tcdoc.compare(features, candidate)
    print(f"{name:10} keeps_inference={report.keeps_inference}  shares_storage={report.shares_storage}")

# %%
# ``clone()`` outside inference mode gives an ordinary tensor
# -----------------------------------------------------------
# A clone made outside inference mode is an ordinary tensor with memory of its own, and the
# head trains on it.
usable = features.clone()
optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
losses = []
for _ in range(20):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(head(usable), targets)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
print(f"{round(losses[0], 4) = }")
print(f"{round(losses[-1], 4) = }")

# sphinx_gallery_start_ignore
claim(
    "A clone made outside inference mode is an ordinary tensor with memory of its own, and the head "
    "trains on it",
    not usable.is_inference()
    and not tcdoc.shares_memory(features, usable)
    and head.weight.grad is not None
    and losses[-1] < losses[0],
    f"usable.is_inference()={usable.is_inference()}; the losses went from {losses[0]} to {losses[-1]}",
)
# sphinx_gallery_end_ignore

# %%
# Here are the two side by side, drawn by :func:`tcdoc.draw.draw_operations` from a fresh
# inference tensor. The detached tensor reads the same bytes and is still marked
# ``is_inference=True``. The clone has its own storage and no mark. Drawing needs matplotlib
# (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["detach", "clone"], "inference")
# sphinx_gallery_thumbnail_number = 1

# sphinx_gallery_start_ignore
_detached = tcdoc.probe("detach", "inference").properties
_cloned = tcdoc.probe("clone", "inference").properties
claim(
    "The detached tensor reads the same bytes and is still marked `is_inference=True`. The clone has its "
    "own storage and no mark",
    _detached is not None
    and _detached.shares_storage
    and _detached.keeps_inference
    and _cloned is not None
    and not _cloned.shares_storage
    and _cloned.keeps_inference is False,
    f"detach() measured {_detached}; clone() measured {_cloned}",
)
# sphinx_gallery_end_ignore

# %%
# Or compute the features under ``no_grad``
# -----------------------------------------
# A second fix: :class:`torch.no_grad` also keeps autograd from recording the extractor.
# Its results are ordinary tensors, so no copy is needed.
with torch.no_grad():
    plain_features = extractor(inputs)
print(f"{plain_features.is_inference() = }")
print(f"{head(plain_features).requires_grad = }")

# sphinx_gallery_start_ignore
_refused = raised(lambda: torch.autograd.grad(head(plain_features).sum(), head.weight))
claim(
    "A second fix: {py:class}`torch.no_grad` also keeps autograd from recording the extractor. Its "
    "results are ordinary tensors, so no copy is needed",
    plain_features.grad_fn is None and not plain_features.is_inference() and _refused is None,
    f"grad_fn={plain_features.grad_fn}, is_inference()={plain_features.is_inference()}; "
    f"a backward pass through the head gave {_refused!r}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Every copy method on an inference tensor is in :doc:`/reference/matrix` (the
# ``inference`` column), and :doc:`/explanation/special-tensors` has the other special tensors.
