"""Pictures of what a copy did: two tensors, their storage, version counters and autograd edge.

Every picture is drawn from a :class:`Diagram`, a model built by :func:`diagram`. It comes from
:func:`tcdoc.compare` and the tensors' own shape, strides, storage offset and byte counts;
nothing in it is a template for a particular method. The model (``tcdoc.draw._model``) needs only
torch, so it can be tested without matplotlib. :func:`draw`, :func:`draw_operations` and
:func:`draw_panels` (``tcdoc.draw._render``) render it with matplotlib (``pip install tcdoc[plot]``),
which is imported when one of them is first asked for. Each takes a ``language``, ``"en"`` or
``"zh_CN"``. Chinese labels and alt text are drawn with a CJK font such as Debian's
``fonts-noto-cjk``. :func:`redraw` draws a figure they made again in another language.

>>> import torch
>>> from tcdoc.draw import diagram
>>> x = torch.ones(2, 3, requires_grad=True)
>>> d = diagram(x, x.detach())
>>> d.edge, len(d.storages), d.new_bytes
('cut', 1, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tcdoc._lazy import lazy_names
from tcdoc.draw._model import (
    MAX_CELLS,
    Diagram,
    Edge,
    Failure,
    Span,
    StorageBar,
    TensorBox,
    alt_text,
    diagram,
    diagrams,
)

if TYPE_CHECKING:
    from tcdoc.draw._render import COLOURS, draw, draw_operations, draw_panels, redraw

__all__ = [
    "COLOURS",
    "MAX_CELLS",
    "Diagram",
    "Edge",
    "Failure",
    "Span",
    "StorageBar",
    "TensorBox",
    "alt_text",
    "diagram",
    "diagrams",
    "draw",
    "draw_operations",
    "draw_panels",
    "redraw",
]

# The names that need matplotlib, loaded from the rendering module on first use.
_RENDERING = ("COLOURS", "draw", "draw_operations", "draw_panels", "redraw")

for _value in (Diagram, Failure, Span, StorageBar, TensorBox, alt_text, diagram, diagrams):
    _value.__module__ = __name__  # documented and pickled as tcdoc.draw.NAME

if not TYPE_CHECKING:  # type checkers read the import above instead
    __getattr__, __dir__ = lazy_names(globals(), _RENDERING, ["tcdoc.draw._render"])
