"""How two times compare: by the spreads of their blocks' times first, then by their medians.

A time is the median of several timed blocks, with the quartiles ``q1`` and ``q3`` of the blocks
(its ``interval``), between which the middle half of the blocks lies. Two times differ "beyond
noise" only where their spreads do not overlap; a factor ("twice", "ten times") compares the
medians, and counts only beyond noise. Each function reads a time's ``seconds`` (the median) and
``interval`` alone, so this module knows nothing of the results' classes; :func:`tcdoc.bench.overlap`
is the public, checked form of :func:`spreads_overlap`.

>>> from tcdoc.bench._stats import Time, more, spreads_overlap
>>> fast, slow = Time(1.0, (0.9, 1.1)), Time(3.0, (2.8, 3.3))
>>> spreads_overlap(fast, slow), more(slow, fast), more(slow, fast, factor=5)
(False, True, False)
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

__all__ = ["Time", "Timed", "more", "spreads_overlap"]


class Timed(Protocol):
    """What the comparisons read of a time: its median and its spread, in seconds."""

    @property
    def seconds(self) -> float:
        """The median of the blocks' times."""
        ...  # pragma: no cover

    @property
    def interval(self) -> tuple[float, float]:
        """``(q1, q3)``, the quartiles of the blocks' times."""
        ...  # pragma: no cover


@dataclasses.dataclass(frozen=True)
class Time:
    """A median and its spread, with nothing else: the smallest :class:`Timed`."""

    seconds: float
    interval: tuple[float, float]


def spreads_overlap(a: Timed, b: Timed) -> bool:
    """Say whether the spreads ``[q1, q3]`` of two times overlap: then neither is beyond the other's noise.

    Spreads that only touch overlap.

    >>> spreads_overlap(Time(1.0, (0.9, 1.1)), Time(1.2, (1.1, 1.3)))
    True
    """
    (a_low, a_high), (b_low, b_high) = a.interval, b.interval
    return a_low <= b_high and b_low <= a_high


def more(a: Timed, b: Timed, factor: float = 1.0) -> bool:
    """Say whether ``a`` took longer than ``b`` beyond noise, with a median over ``factor`` times ``b``'s.

    >>> more(Time(2.5, (2.4, 2.6)), Time(1.0, (0.9, 1.1)), factor=2)
    True
    >>> more(Time(1.0, (0.9, 1.1)), Time(2.5, (2.4, 2.6)))
    False
    """
    return not spreads_overlap(a, b) and a.seconds > b.seconds and a.seconds > factor * b.seconds
