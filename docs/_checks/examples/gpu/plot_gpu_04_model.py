"""The claim of ``examples/gpu/plot_gpu_04_model.py`` that a CPU build checks too.

The example runs only where CUDA does, and its hidden block checks this claim there. On a CPU
build the page still shows the sentence, so the same words are checked here on a CPU model: what
``copy.deepcopy`` of a module copies does not depend on the device.
"""

from __future__ import annotations

from _checks._helpers import module_deepcopy_drops_grads
from tcdoc.claims import Claim

__all__ = ["CLAIMS"]


CLAIMS = [
    Claim(
        "grad-not-copied",
        module_deepcopy_drops_grads,
        quote="`deepcopy` of a module copies each parameter's values but not its `.grad`",
    ),
]
