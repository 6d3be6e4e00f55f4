"""Inference-mode tensors: ``detach()`` keeps the mark, ``clone()`` removes it
===========================================================================

Running a frozen network under :class:`torch.inference_mode` computes features without
autograd recording anything. The features it computes are *inference tensors*, and
they carry that mark with them. Train a small model on top of such
features and the first step stops with an error. This example runs into the error, tries
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

# %%
# Centring the features in place is a natural next step. Outside inference mode, an in-place
# operation on an inference tensor made under inference mode, or on a view of it (``add_``,
# ``mul_``, ``copy_``, ``fill_``, ``zero_``, indexed assignment, and ``-=`` here), raises an
# error, but only after it has written. The error suggests the fix: a clone. The two lines
# after the error show that ``features`` changed and is centred all the same; the steps
# below use these centred features.
before = features.clone()
try:
    features -= features.mean(0)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print(f"{torch.equal(features, before) = }")
print(f"{features.mean(0).abs().max().item() < 1e-6 = }")

# %%
# Through the aliases ``x.detach()`` and ``x.data``, made outside inference mode though also
# marked ``is_inference()``, most of those operations change ``x`` without an error.
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

# %%
# Training a head on them
# -----------------------
# A small head learns to predict a target from the three features. Its first forward pass
# already stops: the layer's weight requires gradients, so autograd would have to keep the
# features for the backward pass, and torch refuses to save an inference tensor for it.
head = torch.nn.Linear(3, 1)
targets = torch.randn(8, 1)
try:
    head(features)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

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

# %%
# :func:`tcdoc.compare` says the same of each candidate copy: ``keeps_inference`` is the
# mark, and ``shares_storage`` says whether the copy reads the memory of ``features``.
import tcdoc

for name, candidate in [("detach()", features.detach()), ("clone()", features.clone())]:
    report = tcdoc.compare(features, candidate)
    print(f"{name:10} keeps_inference={report.keeps_inference}  shares_storage={report.shares_storage}")

# %%
# ``clone()`` gives an ordinary tensor
# ------------------------------------
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

# %%
# The two side by side, drawn by :func:`tcdoc.draw.draw_operations` from a fresh
# inference tensor: the detached tensor reads the same bytes and is still marked
# ``is_inference=True``; the clone has its own storage and no mark. Drawing needs matplotlib
# (``pip install tcdoc[plot]``).
import tcdoc.draw

tcdoc.draw.draw_operations(["detach", "clone"], "inference")
# sphinx_gallery_thumbnail_number = 1

# %%
# Or compute the features under ``no_grad``
# -----------------------------------------
# A second fix: :class:`torch.no_grad` also keeps autograd from recording the extractor, and
# its results are ordinary tensors, so no copy is needed.
with torch.no_grad():
    plain_features = extractor(inputs)
print(f"{plain_features.is_inference() = }")
print(f"{head(plain_features).requires_grad = }")

# %%
# These values were measured with:
print(tcdoc.environment())

# %%
# Every copy method on an inference tensor is in the :doc:`/reference/matrix` (the
# ``inference`` column), and :doc:`/explanation/special-tensors` has the other special tensors.
