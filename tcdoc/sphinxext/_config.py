"""The extension's settings in ``conf.py``, checked when the configuration is read.

A wrong value stops the build at once with Sphinx's "Configuration error", naming the setting,
what it was given and what it accepts, instead of a traceback from the first directive that
reads it. The check imports no torch unless a setting needs CUDA, so a build with nothing to
do stays quick.
"""

from __future__ import annotations

from collections.abc import Mapping

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

from tcdoc._names import MODULE_OPERATION_NAMES, OPERATION_NAMES

__all__ = ["DEVICES", "add_config_values", "check_config", "operation_doc"]

DEVICES = ("cpu", "cuda")
"""The values ``tcdoc_device`` accepts."""


def add_config_values(app: Sphinx) -> None:
    """Register the settings, and their check at ``config-inited``."""
    # Where every fact is measured.
    app.add_config_value("tcdoc_device", "cpu", "env", types=[str])
    # Operation name -> the docname of the page that shows it; tables link the operation's code there.
    app.add_config_value("tcdoc_operation_docs", {}, "env", types=[dict])
    # The docname that an operation not in tcdoc_operation_docs links to; None: no link.
    app.add_config_value("tcdoc_operation_default_doc", None, "env", types=[str, type(None)])
    # The folder of snapshots (torch-X.Y.Z.json), relative to the source directory, that
    # tcdoc-changes compares and the matrix tables mark changes from; None: none.
    app.add_config_value("tcdoc_snapshots", None, "env", types=[str, type(None)])
    # The address of a torch release's notes, {version} filled in; None: versions are not linked.
    app.add_config_value(
        "tcdoc_release_notes",
        "https://github.com/pytorch/pytorch/releases/tag/v{version}",
        "env",
        types=[str, type(None)],
    )
    app.connect("config-inited", check_config)


def check_config(app: Sphinx, config: Config) -> None:
    """Check every tcdoc setting (``config-inited``).

    Raises
    ------
    sphinx.errors.ConfigError
        For a setting of the wrong type or value, or a CUDA device asked for and absent.

    """
    _check_device(config.tcdoc_device)
    _check_operation_docs(config.tcdoc_operation_docs)
    if config.tcdoc_operation_default_doc is not None:
        _check_docname("tcdoc_operation_default_doc", config.tcdoc_operation_default_doc)


def _check_device(device: object) -> None:
    if device not in DEVICES:
        raise ConfigError(f"tcdoc_device must be one of {', '.join(map(repr, DEVICES))}; got {device!r}")
    if device == "cuda" and not _cuda_present():
        raise ConfigError(
            "tcdoc_device is 'cuda', but this torch has no CUDA device. "
            "Build on a machine with CUDA and a CUDA build of torch, or set tcdoc_device = 'cpu'."
        )


def _check_operation_docs(docs: object) -> None:
    if not isinstance(docs, Mapping):
        raise ConfigError(
            f"tcdoc_operation_docs must be a dict of operation name to docname; got {type(docs).__name__}"
        )
    known = (*OPERATION_NAMES, *MODULE_OPERATION_NAMES)
    unknown = sorted(str(name) for name in docs if name not in known)
    if unknown:
        raise ConfigError(
            f"tcdoc_operation_docs names unknown operations: {', '.join(map(repr, unknown))}. "
            f"Known operations: {', '.join(known)}"
        )
    for name, docname in docs.items():
        _check_docname(f"tcdoc_operation_docs[{name!r}]", docname)


def _check_docname(setting: str, docname: object) -> None:
    if not isinstance(docname, str) or not docname or docname.endswith((".html", ".md", ".rst", ".py")):
        raise ConfigError(
            f"{setting} must be a docname such as 'explanation/look-alikes' (no suffix); got {docname!r}"
        )


def operation_doc(config: Config, name: str) -> str | None:
    """Return the docname that the tables link operation ``name``'s code to, or ``None``.

    That is ``tcdoc_operation_docs[name]``, or ``tcdoc_operation_default_doc`` for an operation
    the map does not name.
    """
    docname = config.tcdoc_operation_docs.get(name, config.tcdoc_operation_default_doc)
    return None if docname is None else str(docname)


def _cuda_present() -> bool:
    """Tell whether torch finds a CUDA device (this imports torch: only ``tcdoc_device = "cuda"`` asks)."""
    import tcdoc

    return tcdoc.cuda_available()
