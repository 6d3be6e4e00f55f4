"""How :mod:`tcdoc.bench` writes what it measured: sizes, times with their spread, and its table.

Sizes are written in binary units and times to three digits, a time's spread ``[q1, q3]`` in the
unit of its median; the table, the figures, the sentences and the example write them alike.
Nothing here measures or compares.

>>> from tcdoc.bench._format import format_duration, format_size
>>> format_size(4 * 1024 * 1024), format_duration(0.00125, spread=(0.0012, 0.0013))
('4 MiB', '1.25 ms [1.2, 1.3]')
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from tcdoc._cells import cell

if TYPE_CHECKING:
    from tcdoc.bench._results import Cost

__all__ = ["COLUMNS", "Table", "cost_row", "format_duration", "format_size", "html_escape", "text_table"]

COLUMNS = (
    "size",
    "method",
    "median [q1, q3]",
    "blocks",
    "allocated",
    "page faults per call",
    "bandwidth",
    "of limit",
)
"""The columns of a sweep's table, in the order of :func:`cost_row`."""

_UNITS = (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024))


def format_size(nbytes: int) -> str:
    """Write a number of bytes in binary units, as the tables and figures do.

    >>> import tcdoc.bench
    >>> tcdoc.bench.format_size(65536), tcdoc.bench.format_size(100)
    ('64 KiB', '100 B')
    """
    for unit, scale in _UNITS:
        if nbytes >= scale:
            return f"{nbytes / scale:g} {unit}"
    return f"{nbytes} B"


def format_duration(seconds: float, spread: tuple[float, float] | None = None) -> str:
    """Write a time in seconds with a unit that keeps it readable, to three digits.

    With ``spread``, a ``(low, high)`` pair such as the quartiles, add it in brackets, in the
    same unit: ``median [q1, q3]``.

    >>> import tcdoc.bench
    >>> tcdoc.bench.format_duration(0.0000123)
    '12.3 µs'
    >>> tcdoc.bench.format_duration(0.0213, spread=(0.0199, 0.0236))
    '21.3 ms [19.9, 23.6]'
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            text = f"{_three_digits(seconds / scale)} {unit}"
            if spread is None:
                return text
            low, high = spread
            return f"{text} [{_three_digits(low / scale)}, {_three_digits(high / scale)}]"
    raise AssertionError("unreachable")  # pragma: no cover


def cost_row(cost: Cost) -> tuple[str, ...]:
    """Write one :class:`tcdoc.bench.Cost` as a row of the table, in the order of :data:`COLUMNS`.

    Page faults that were not counted (on CUDA) are "n/a", as every table of tcdoc writes a
    value whose question does not apply.
    """
    faults = None if cost.page_faults is None else f"{cost.page_faults:,.0f}"
    return (
        format_size(cost.nbytes),
        cost.code,
        format_duration(cost.seconds, cost.interval),
        str(cost.blocks),
        format_size(cost.bytes_allocated),
        cell(faults, not_applicable=True),
        f"{cost.bandwidth / 1e9:.2f} GB/s",
        f"{cost.fraction_of_limit:.0%}",
    )


@dataclasses.dataclass(frozen=True)
class Table:
    """Rows of a :class:`Sweep` to display: as aligned text, or as HTML in a notebook or a gallery page.

    Attributes
    ----------
    caption
        The machine and the copy limit.
    rows
        One row of text per measurement, in the columns of :meth:`Sweep.rows`.

    """

    caption: str
    rows: tuple[tuple[str, ...], ...]

    def __repr__(self) -> str:
        return f"{self.caption}\n{text_table(list(self.rows))}"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{column}</th>" for column in COLUMNS)
        body = "".join(
            "<tr>" + "".join(f"<td>{html_escape(text)}</td>" for text in row) + "</tr>" for row in self.rows
        )
        return (
            f'<table class="tcdoc-bench"><caption>{html_escape(self.caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )


def text_table(rows: list[tuple[str, ...]]) -> str:
    """Write ``rows`` under the headings of :data:`COLUMNS`, each column as wide as its widest cell.

    >>> print(text_table([("1 KiB", "x.clone()", "1 µs [1, 2]", "5", "1 KiB", "n/a", "2 GB/s", "5%")]))
    size   method     median [q1, q3]  blocks  allocated  page faults per call  bandwidth  of limit
    1 KiB  x.clone()  1 µs [1, 2]      5       1 KiB      n/a                   2 GB/s     5%
    """
    table = [COLUMNS, *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(COLUMNS))]
    lines = ["  ".join(text.ljust(width) for text, width in zip(row, widths, strict=True)) for row in table]
    return "\n".join(line.rstrip() for line in lines)


def html_escape(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` for the text of an HTML element.

    >>> html_escape("x < y & z")
    'x &lt; y &amp; z'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- Helpers ---------------------------------------------------------------------------------


def _three_digits(value: float) -> str:
    """Write a number to three significant digits and no exponent (``1454``, not ``1.45e+03``)."""
    if value >= 100 or value <= 0:
        return f"{value:.0f}"
    decimals = 2 - math.floor(math.log10(value))  # 1 or more below 100, so the text has a point
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".")
