"""The one decision about the GPU examples: whether this build runs them.

The examples in the ``gpu`` folder of the gallery need a CUDA device. Each build makes one
decision from :func:`tcdoc.cuda_available` and the environment variable ``TCDOC_REQUIRE_GPU``:

- CUDA present: the GPU examples run, and their pages show real output;
- CUDA absent: they are still listed with their code, not run, and their pages say so
  (the Sphinx side of this lives in ``tcdoc.sphinxext``);
- CUDA absent but ``TCDOC_REQUIRE_GPU=1`` (``nox -s docs-gpu``): :class:`GpuRequiredError`.

``docs/conf.py`` turns the decision into sphinx-gallery's ``filename_pattern`` with
:func:`gallery_filename_pattern`. A check that wants every example page to show output can
exempt the pages of :func:`gpu_examples` when :func:`gpu_examples_execute` is false (in the
HTML, such a page carries the class :data:`NOT_RUN_CLASS`).

This module imports only torch and the standard library.

>>> import tcdoc.gating
>>> tcdoc.gating.gpu_examples_execute(cuda=False, required=False)
False
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePath

from tcdoc._probe import environment
from tcdoc._registry import cuda_available

__all__ = [
    "GPU_FOLDER",
    "NOT_RUN_CLASS",
    "REQUIRE_GPU_VARIABLE",
    "GpuRequiredError",
    "gallery_filename_pattern",
    "gpu_examples",
    "gpu_examples_execute",
    "gpu_required",
    "is_gpu_example",
    "no_cuda_note",
]

GPU_FOLDER = "gpu"
"""The sub-folder of the examples folder that holds the examples needing CUDA."""

NOT_RUN_CLASS = "tcdoc-not-run"
"""The HTML class of the note on a GPU example page that the build did not run."""

REQUIRE_GPU_VARIABLE = "TCDOC_REQUIRE_GPU"
"""Set it to ``1`` to make a build without CUDA an error instead of a build with notes."""

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


class GpuRequiredError(RuntimeError):
    """GPU examples were required (``TCDOC_REQUIRE_GPU=1``), and this torch has no CUDA device."""


def gpu_required(env: Mapping[str, str] | None = None) -> bool:
    """Read ``TCDOC_REQUIRE_GPU`` from ``env`` (by default ``os.environ``).

    Raises
    ------
    ValueError
        If the variable is set to something other than a yes or no (``1``/``0``, ``true``/``false``).

    Examples
    --------
    >>> import tcdoc.gating
    >>> tcdoc.gating.gpu_required({"TCDOC_REQUIRE_GPU": "1"}), tcdoc.gating.gpu_required({})
    (True, False)

    """
    value = (os.environ if env is None else env).get(REQUIRE_GPU_VARIABLE, "")
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ValueError(f"{REQUIRE_GPU_VARIABLE} must be 1 or 0 (or true/false), got {value!r}")


def gpu_examples_execute(cuda: bool | None = None, required: bool | None = None) -> bool:
    """Decide whether this build runs the GPU examples.

    Parameters
    ----------
    cuda
        Whether a CUDA device is present; by default :func:`tcdoc.cuda_available`.
    required
        Whether the build must run them; by default :func:`gpu_required`.

    Returns
    -------
    bool
        True where CUDA is present.

    Raises
    ------
    GpuRequiredError
        If they are required and CUDA is absent; the message names the torch that was found.

    Examples
    --------
    >>> import tcdoc.gating
    >>> tcdoc.gating.gpu_examples_execute(cuda=True, required=True)
    True

    """
    present = cuda_available() if cuda is None else cuda
    if not isinstance(present, bool):
        raise TypeError(f"cuda must be a bool or None, got {type(present).__name__}")
    if (gpu_required() if required is None else required) and not present:
        raise GpuRequiredError(
            f"{REQUIRE_GPU_VARIABLE}=1 asks for the GPU examples to run, but this build has no CUDA "
            f"device ({environment()}). Build on a machine with CUDA and a CUDA build of torch "
            f"(set TCDOC_TORCH to one), or unset {REQUIRE_GPU_VARIABLE} to build with the GPU examples "
            "shown but not run."
        )
    return present


def gallery_filename_pattern(cuda: bool) -> str:
    r"""Return sphinx-gallery's ``filename_pattern``: the scripts this build executes.

    With CUDA, every script; without it, every script that is not in a ``gpu`` folder.
    sphinx-gallery still renders the others, with their code and no output.

    >>> import re, tcdoc.gating
    >>> pattern = tcdoc.gating.gallery_filename_pattern(cuda=False)
    >>> bool(re.search(pattern, "examples/plot_01_clone.py"))
    True
    >>> bool(re.search(pattern, "examples/gpu/plot_gpu_01_copies.py"))
    False
    """
    if not isinstance(cuda, bool):
        raise TypeError(f"cuda must be a bool, got {type(cuda).__name__}")
    if cuda:
        return r"\.py$"
    # The last path separator before the file name must not follow a folder called "gpu".
    return rf"(?<![\\/]{re.escape(GPU_FOLDER)})[\\/][^\\/]+\.py$"


def is_gpu_example(path: str | PurePath) -> bool:
    """Tell whether the script at ``path`` is a GPU example (its folder is called ``gpu``).

    >>> import tcdoc.gating
    >>> tcdoc.gating.is_gpu_example("examples/gpu/plot_gpu_02_devices.py")
    True
    """
    if not isinstance(path, (str, PurePath)):
        raise TypeError(f"path must be a str or a path, got {type(path).__name__}")
    # Windows separators are normalised here too, so the answer is the same on every system.
    parts = PurePath(str(path).replace("\\", "/")).parts
    return len(parts) >= 2 and parts[-2] == GPU_FOLDER and parts[-1].endswith(".py")


def gpu_examples(examples_dir: str | Path) -> tuple[Path, ...]:
    """List the GPU example scripts under ``examples_dir``, sorted by name.

    These are the pages that a build without CUDA shows without output.

    Raises
    ------
    ValueError
        If ``examples_dir`` is not a directory.

    """
    folder = Path(examples_dir)
    if not folder.is_dir():
        raise ValueError(f"examples_dir must be a directory, got {str(examples_dir)!r}")
    return tuple(sorted((folder / GPU_FOLDER).glob("*.py")))


def no_cuda_note() -> str:
    """Return the sentence shown on a GPU example page that this build did not run.

    >>> import tcdoc.gating, torch
    >>> torch.__version__ in tcdoc.gating.no_cuda_note()
    True
    """
    return (
        f"This build ({environment()}) had no CUDA device, so this example was not run "
        "and shows no output: only its code. "
        "Download it and run it on a machine with CUDA to see the figures for your GPU."
    )
