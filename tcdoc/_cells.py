"""The words of one cell of a table: the one formatter that the tables, the command and ``diff`` use.

A field's value is written the same way wherever tcdoc shows it in a table: ``True`` and
``False`` as "yes" and "no", ``None`` as "n/a" where the question does not apply (see
:func:`tcdoc._names.is_not_applicable`) and as an en dash where ``None`` is the answer itself
(``grad_fn`` of a tensor without history), and anything else as ``str()`` writes it. Torch-free,
so that the command's ``--help`` and the Sphinx extension can import it.
"""

from __future__ import annotations

from collections.abc import Callable

from tcdoc._locale import english

__all__ = ["EMPTY", "NO", "NOT_APPLICABLE", "YES", "cell"]

YES = "yes"
"""A field that is ``True``."""

NO = "no"
"""A field that is ``False``."""

NOT_APPLICABLE = "n/a"
"""A field whose question does not apply (its reason is said beside the table)."""

EMPTY = "\u2013"
"""A field that is ``None`` as an answer of its own (``grad_fn`` without history): an en dash."""


def cell(value: object, not_applicable: bool = False, translate: Callable[[str], str] = english) -> str:
    """Return the words of a table cell that holds ``value``.

    ``not_applicable`` tells a ``None`` that means "does not apply" from a ``None`` that is the
    answer; ``translate`` (a gettext function) translates the words "yes", "no" and "n/a", never a
    value.

    >>> cell(True), cell(False), cell(None, not_applicable=True), cell(None), cell(12)
    ('yes', 'no', 'n/a', '–', '12')
    """
    if isinstance(value, bool):
        return translate(YES if value else NO)
    if value is None:
        return translate(NOT_APPLICABLE) if not_applicable else EMPTY
    return str(value)
