"""The timeline's axes: where a bucket of requests lands across the plot, and the ticks of both axes.

Drawing only: the figures come from :class:`~ctxscope.core.timeline_series.TimelineSeries`. The x
axis spans a *rounded-up* extent (requests ``0 … 1, 2, 5 × 10^k``, or a whole number of minutes,
hours or days of wall-clock time) rather than exactly the data, so while a log is read the points
fill the plot from the left and only the newest columns change; the axis rescales (and the whole
plot is redrawn) only when the data passes the extent, a few times over a session.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from ctxscope.core.timeline_series import TimelineSeries

MINUTE: Final = 60
HOUR: Final = 3600
DAY: Final = 86_400
TIME_STEPS: Final = (
    MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
    HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR, 12 * HOUR,
    DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 182 * DAY, 365 * DAY,
)
"""Wall-clock extents and tick steps, in seconds (beyond a year: whole years, rounded like counts)."""
TOP_STEPS: Final = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8)
"""Mantissas of the y axis's top (fine enough that the plot's height is not wasted)."""
EXTENT_STEPS: Final = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8)
"""Mantissas of the request axis's extent: the data fills at least 80% of the width, and the
axis rescales about ten times a decade of requests."""


def nice_ceiling(value: float, steps: tuple[float, ...] = (1, 2, 5)) -> int:
    """The smallest ``m × 10^k`` at least ``value`` (``m`` from ``steps``); 1 for ``value <= 1``."""
    if not value > 1:
        return 1
    magnitude: int = 10 ** math.floor(math.log10(value))
    for mantissa in (*steps, 10):
        candidate = math.ceil(mantissa * magnitude)
        if candidate >= value:
            return candidate
    return 10 * magnitude


def nice_duration(seconds: float) -> int:
    """The smallest step of :data:`TIME_STEPS` covering ``seconds`` (whole years past a year)."""
    for step in TIME_STEPS:
        if step >= seconds:
            return step
    return 365 * DAY * nice_ceiling(seconds / (365 * DAY))


def nice_ticks(top: float, count: int = 4) -> list[int]:
    """Round tick values from 0 to about ``top``, about ``count`` steps: whole numbers, so a step
    is a whole number too (2.5 only from 25 on: #0 #2 #5 #7 was the request axis of 15 calls)."""
    if top <= 0:
        return [0]
    raw = top / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw and m * magnitude % 1 == 0)
    return [int(i * step) for i in range(int(top // step) + 1)]


@dataclass(frozen=True, slots=True)
class XScale:
    """The x axis: ``origin`` maps to the first dot, ``origin + extent`` to the last.

    Attributes:
        wall_clock: The axis is time in epoch seconds (False: the request number).
        origin: The first dot's request (0) or time.
        extent: Requests or seconds the ``dots`` span.
        dots: Dots across the plot (two a cell with braille).
    """

    wall_clock: bool
    origin: float
    extent: float
    dots: int

    def dot(self, x: float) -> int:
        """The dot ``x`` (a request, or a time) falls on, clamped to the plot."""
        position = (x - self.origin) * (self.dots - 1) / self.extent
        if not position >= 0:  # also NaN
            return 0
        return min(self.dots - 1, int(position + 0.5))


def x_scale(series: TimelineSeries, dots: int, wall_clock: bool, expected: int = 0) -> XScale:
    """The axis for ``series`` across ``dots``: wall-clock time when asked for and the log has
    timestamps, else the request number, up to ``expected`` requests when more are known to come
    (a log still being read from its start: the axis does not rescale at every snapshot)."""
    dots = max(2, dots)
    if wall_clock and series.timed:
        known = [t for t in series.times if not math.isnan(t)]
        if not math.isnan(series.last_time):
            known.append(series.last_time)
        origin = math.floor(min(known) / MINUTE) * MINUTE
        return XScale(True, origin, nice_duration(max(known) - origin), dots)
    return XScale(False, 0, nice_ceiling(max(1, series.count - 1, expected - 1), EXTENT_STEPS), dots)


def bucket_dots(series: TimelineSeries, scale: XScale) -> list[int]:
    """The dot every bucket lands on, in bucket order (never decreasing).

    On a wall-clock axis a bucket without a time, or with a time before an earlier bucket's (a
    log's clock going back), stands at the latest time seen before it.
    """
    if not scale.wall_clock:
        step, dot = series.step, scale.dot
        return [dot(b * step) for b in range(len(series))]
    out: list[int] = []
    latest = scale.origin
    for moment in series.times:
        if moment > latest:  # False for NaN
            latest = moment
        out.append(scale.dot(latest))
    return out


def request_ticks(scale: XScale, room: int) -> list[tuple[int, str]]:
    """``(dot, label)`` of the request axis: about one tick per ``room`` cells."""
    count = max(1, (scale.dots // 2) // max(1, room))
    return [(scale.dot(value), f"#{value}") for value in nice_ticks(scale.extent, count)]


def time_ticks(scale: XScale, room: int) -> list[tuple[int, str]]:
    """``(dot, label)`` of the wall-clock axis at whole UTC minutes, hours or days."""
    count = max(1, (scale.dots // 2) // max(1, room))
    step = next((s for s in TIME_STEPS if s * count >= scale.extent), nice_duration(scale.extent / count))
    first = math.ceil(scale.origin / step) * step
    ticks = []
    moment = first
    while moment <= scale.origin + scale.extent:
        ticks.append((scale.dot(moment), time_label(moment, step)))
        moment += step
    return ticks


def time_label(moment: float, step: int) -> str:
    """``14:05`` (steps under a day), ``12-01`` (whole days), ``2026`` (years); UTC."""
    try:
        when = datetime.fromtimestamp(moment, UTC)
    except (OverflowError, OSError, ValueError):
        return "?"
    if step >= 365 * DAY:
        return f"{when:%Y}"
    if step >= DAY:
        return f"{when:%m-%d}"
    return f"{when:%H:%M}"
