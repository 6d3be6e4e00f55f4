"""The extension's settings in ``conf.py``."""

from __future__ import annotations

from sphinx.application import Sphinx

__all__ = ["add_config_values"]


def add_config_values(app: Sphinx) -> None:
    """Register ``tcdoc_device``, ``tcdoc_operation_docs`` and ``tcdoc_gpu_execute``."""
    app.add_config_value("tcdoc_device", "cpu", "env", types=[str])
    app.add_config_value("tcdoc_operation_docs", {}, "env", types=[dict])
    # None: decide with tcdoc.gating.gpu_examples_execute(). docs/conf.py sets it from that same call.
    app.add_config_value("tcdoc_gpu_execute", None, "env", types=[bool, type(None)])
