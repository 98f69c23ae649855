"""When a session happened: its first and last timestamped event, and how long ago that was.

Agents write times in different shapes: ISO-8601 strings (Claude Code, Codex, Cline; ``Z`` or an
offset), or epoch numbers (OpenCode's milliseconds). :func:`parse_time` reads both;
:func:`session_times` takes the model calls' times over every scope, and :class:`SessionTimes`
gives the figures the header shows (a log without timestamps has none, and says so).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

_EPOCH_MS = 10**11
"""An epoch number above this is in milliseconds (10**11 s is the year 5138)."""


def parse_time(value: str) -> datetime | None:
    """A log's timestamp as an aware UTC datetime (None when empty or unreadable)."""
    text = value.strip()
    if not text:
        return None
    try:
        if text.isdigit():
            number = int(text)
            return datetime.fromtimestamp(number / 1000 if number > _EPOCH_MS else number, UTC)
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, OverflowError, OSError):
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class SessionTimes:
    """The first and last timestamped model call of a session (None: the log has no times).

    Attributes:
        started: The earliest call's time.
        last: The latest call's time.
    """

    started: datetime | None = None
    last: datetime | None = None

    @property
    def known(self) -> bool:
        return self.started is not None and self.last is not None

    @property
    def ran_seconds(self) -> float | None:
        """From the first call to the last."""
        if self.started is None or self.last is None:
            return None
        return max(0.0, (self.last - self.started).total_seconds())

    def since_last_seconds(self, now: datetime) -> float | None:
        """From the last call to ``now`` (an aware datetime)."""
        return None if self.last is None else max(0.0, (now - self.last).total_seconds())


def session_times(timestamps: Iterable[str]) -> SessionTimes:
    """The span of some timestamps (the model calls' of every scope)."""
    started = last = None
    for value in timestamps:
        moment = parse_time(value)
        if moment is None:
            continue
        started = moment if started is None or moment < started else started
        last = moment if last is None or moment > last else last
    return SessionTimes(started, last)


def duration_text(seconds: float) -> str:
    """``45s``, ``12m``, ``3h05m``, ``2d04h``."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m"
    if whole < 86400:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
    return f"{whole // 86400}d{whole % 86400 // 3600:02d}h"
