"""The extension's settings in ``conf.py``, all registered here and checked when the configuration is read.

Every wrong setting stops the build at once with Sphinx's "Configuration error", in one message
that names each of them, what it was given and what it accepts, instead of a traceback from the
first directive that reads one. The check imports no torch unless a setting needs CUDA, so a
build with nothing to do stays quick.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

from tcdoc._names import MODULE_OPERATION_NAMES, OPERATION_NAMES

__all__ = ["DEVICES", "add_config_values", "check_config", "operation_doc"]

DEVICES = ("cpu", "cuda")
"""The values ``tcdoc_device`` accepts."""

# A module's dotted name, as tcdoc_checks gives the package of a site's checks.
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def add_config_values(app: Sphinx) -> None:
    """Register every setting, and their check at ``config-inited``."""
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
    # The package of the site's claim checks, one module per page (importable from the
    # configuration's folder); "": the pages' claims are not checked.
    app.add_config_value("tcdoc_checks", "", "env", types=[str])
    app.connect("config-inited", check_config)


def check_config(app: Sphinx, config: Config) -> None:
    """Check every tcdoc setting (``config-inited``), and report every wrong one in one error.

    Raises
    ------
    sphinx.errors.ConfigError
        For settings of the wrong type or value, or a CUDA device asked for and absent.

    """
    problems = [
        *_device_problems(config.tcdoc_device),
        *_operation_docs_problems(config.tcdoc_operation_docs),
        *_docname_problems("tcdoc_operation_default_doc", config.tcdoc_operation_default_doc, optional=True),
        *_text_problems("tcdoc_snapshots", config.tcdoc_snapshots, "a folder such as '_snapshots'"),
        *_text_problems("tcdoc_release_notes", config.tcdoc_release_notes, "an address with {version}"),
    ]
    if isinstance(config.tcdoc_release_notes, str) and "{version}" not in config.tcdoc_release_notes:
        problems.append(f"tcdoc_release_notes must hold {{version}}; got {config.tcdoc_release_notes!r}")
    checks = config.tcdoc_checks
    if not isinstance(checks, str) or (checks and not _MODULE.fullmatch(checks)):
        problems.append(f"tcdoc_checks must be a package's name such as '_checks', or ''; got {checks!r}")
    if problems:
        raise ConfigError("\n".join(problems))


def _device_problems(device: object) -> list[str]:
    if device not in DEVICES:
        return [f"tcdoc_device must be one of {', '.join(map(repr, DEVICES))}; got {device!r}"]
    if device == "cuda" and not _cuda_present():
        return [
            "tcdoc_device is 'cuda', but this torch has no CUDA device. "
            "Build on a machine with CUDA and a CUDA build of torch, or set tcdoc_device = 'cpu'."
        ]
    return []


def _operation_docs_problems(docs: object) -> list[str]:
    if not isinstance(docs, Mapping):
        return [
            f"tcdoc_operation_docs must be a dict of operation name to docname; got {type(docs).__name__}"
        ]
    known = (*OPERATION_NAMES, *MODULE_OPERATION_NAMES)
    unknown = sorted(str(name) for name in docs if name not in known)
    problems = []
    if unknown:
        problems.append(
            f"tcdoc_operation_docs names unknown operations: {', '.join(map(repr, unknown))}. "
            f"Known operations: {', '.join(known)}"
        )
    for name, docname in docs.items():
        problems += _docname_problems(f"tcdoc_operation_docs[{name!r}]", docname)
    return problems


def _docname_problems(setting: str, docname: object, optional: bool = False) -> list[str]:
    if optional and docname is None:
        return []
    if not isinstance(docname, str) or not docname or docname.endswith((".html", ".md", ".rst", ".py")):
        return [f"{setting} must be a docname such as 'explanation/look-alikes' (no suffix); got {docname!r}"]
    return []


def _text_problems(setting: str, value: object, what: str) -> list[str]:
    if value is None or (isinstance(value, str) and value):
        return []
    return [f"{setting} must be {what}, or None; got {value!r}"]


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
