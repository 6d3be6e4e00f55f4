"""The one decision about the GPU examples: whether this build runs them.

The examples in the ``gpu`` folder of the gallery need a CUDA device. Each build makes one
decision from :func:`tcdoc.cuda_available` and the environment variable ``TCDOC_REQUIRE_GPU``:

- CUDA present: the GPU examples run, and their pages show real output;
- CUDA absent: they are still listed with their code, not run, and their pages say so
  (the Sphinx side of this lives in ``tcdoc_site._gpu``);
- CUDA absent but ``TCDOC_REQUIRE_GPU=1`` (``nox -s docs-gpu``): :class:`GpuRequiredError`.

``docs/conf.py`` turns the decision into sphinx-gallery's ``filename_pattern`` with
:func:`gallery_filename_pattern`; the site's extension checks it against ``TCDOC_REQUIRE_GPU``
when the configuration is read. A check that wants every example page to show output can
exempt the pages of :func:`gpu_examples` when :func:`gpu_examples_execute` is false (in the
HTML, such a page carries the class :data:`NOT_RUN_CLASS`).

This module imports torch only when it must ask it: a CPU-only build of torch (see
:func:`cpu_only_torch`) is known to have no CUDA device without importing it, which keeps a docs
build with nothing to do fast.

>>> from tcdoc_site import gating
>>> gating.gpu_examples_execute(cuda=False, required=False)
False
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from importlib.metadata import version
from pathlib import Path, PurePath

import tcdoc

__all__ = [
    "GPU_FOLDER",
    "NOT_RUN_CLASS",
    "NO_CUDA_NOTE",
    "REQUIRE_GPU_VARIABLE",
    "GpuRequiredError",
    "cpu_only_torch",
    "gallery_filename_pattern",
    "gpu_examples",
    "gpu_examples_execute",
    "gpu_required",
    "gpu_required_error",
    "is_gpu_example",
]

GPU_FOLDER = "gpu"
"""The sub-folder of the examples folder that holds the examples needing CUDA."""

NOT_RUN_CLASS = "tcdoc-not-run"
"""The HTML class of the note on a GPU example page that the build did not run."""

NO_CUDA_NOTE = (
    "This build ({environment}) had no CUDA device, so this example was not run "
    "and shows no output: only its code. "
    "Download it and run it on a machine with CUDA to see the figures for your GPU."
)
"""The note on a GPU example page that a build did not run, ``{environment}`` to fill in."""

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
    >>> from tcdoc_site import gating
    >>> gating.gpu_required({"TCDOC_REQUIRE_GPU": "1"}), gating.gpu_required({})
    (True, False)

    """
    value = (os.environ if env is None else env).get(REQUIRE_GPU_VARIABLE, "")
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ValueError(f"{REQUIRE_GPU_VARIABLE} must be 1 or 0 (or true/false), got {value!r}")


def cpu_only_torch(torch_version: str | None = None) -> bool:
    """Tell whether a torch version is a CPU-only build, which never finds a CUDA device.

    PyTorch's CPU wheels carry the local version label ``+cpu`` (``2.13.0+cpu``; some older
    ones ``+cpu.cxx11.abi``). Reading it from the installed package's metadata needs no import
    of torch.

    Parameters
    ----------
    torch_version
        A torch version; by default that of the installed torch package.

    Examples
    --------
    >>> from tcdoc_site import gating
    >>> gating.cpu_only_torch("2.13.0+cpu"), gating.cpu_only_torch("2.13.0+cu126")
    (True, False)

    """
    found = version("torch") if torch_version is None else torch_version
    if not isinstance(found, str):
        raise TypeError(f"torch_version must be a str or None, got {type(found).__name__}")
    local_label = found.partition("+")[2]  # "cpu", "cpu.cxx11.abi", "cu126", "rocm6.4" or ""
    return local_label.split(".")[0] == "cpu"


def gpu_examples_execute(cuda: bool | None = None, required: bool | None = None) -> bool:
    """Decide whether this build runs the GPU examples.

    Parameters
    ----------
    cuda
        Whether a CUDA device is present; by default False for a CPU-only torch
        (:func:`cpu_only_torch`, no import of torch) and :func:`tcdoc.cuda_available` otherwise.
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
    >>> from tcdoc_site import gating
    >>> gating.gpu_examples_execute(cuda=True, required=True)
    True

    """
    present = cuda
    if present is None:
        present = not cpu_only_torch() and tcdoc.cuda_available()
    if not isinstance(present, bool):
        raise TypeError(f"cuda must be a bool or None, got {type(present).__name__}")
    if (gpu_required() if required is None else required) and not present:
        raise gpu_required_error()
    return present


def gpu_required_error() -> GpuRequiredError:
    """Return the error for GPU examples that are required where they cannot run.

    The message names the torch that was found, and what to do instead.
    """
    return GpuRequiredError(
        f"{REQUIRE_GPU_VARIABLE}=1 asks for the GPU examples to run, but this build has no CUDA "
        f"device ({tcdoc.environment()}). Build on a machine with CUDA and a CUDA build of torch "
        f"(set TCDOC_TORCH to one), or unset {REQUIRE_GPU_VARIABLE} to build with the GPU examples "
        "shown but not run."
    )


def gallery_filename_pattern(cuda: bool) -> str:
    r"""Return sphinx-gallery's ``filename_pattern``: the scripts this build executes.

    With CUDA, every script; without it, every script that is not in a ``gpu`` folder.
    sphinx-gallery still renders the others, with their code and no output.

    >>> import re
    >>> from tcdoc_site import gating
    >>> pattern = gating.gallery_filename_pattern(cuda=False)
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

    The one rule: a GPU example is a script that :func:`gallery_filename_pattern` leaves out of a
    build without CUDA. :func:`gpu_examples` lists them with it.

    >>> from tcdoc_site import gating
    >>> gating.is_gpu_example("examples/gpu/plot_gpu_02_devices.py")
    True
    >>> gating.is_gpu_example("examples/plot_01_clone.py")
    False
    """
    if not isinstance(path, (str, PurePath)):
        raise TypeError(f"path must be a str or a path, got {type(path).__name__}")
    # A leading separator, so that a bare "gpu/plot.py" or "plot.py" reads like a path in a folder.
    name = "/" + str(path)
    return name.endswith(".py") and re.search(gallery_filename_pattern(cuda=False), name) is None


def gpu_examples(examples_dir: str | Path) -> tuple[Path, ...]:
    """List the GPU example scripts under ``examples_dir`` (see :func:`is_gpu_example`), sorted.

    These are the pages that a build without CUDA shows without output.

    Raises
    ------
    ValueError
        If ``examples_dir`` is not a directory.

    """
    folder = Path(examples_dir)
    if not folder.is_dir():
        raise ValueError(f"examples_dir must be a directory, got {str(examples_dir)!r}")
    return tuple(sorted(script for script in folder.rglob("*.py") if is_gpu_example(script)))
