"""A scope's timeline in bounded memory: its requests' figures, per bucket of consecutive requests.

The dashboard's timeline draws a few hundred points across the screen however many requests a
scope has, and a live session of 300,000 requests must not keep 300,000 points per series in the
UI. A :class:`TimelineSeries` takes a scope's records as they arrive and keeps them grouped into at
most ``capacity`` buckets of ``step`` consecutive requests (``step`` is a power of two; when the
buckets fill up, neighbours merge pairwise and ``step`` doubles), so its memory is fixed: about
85 bytes a bucket, 170 KB at the default capacity, for 10 requests or 10 million.

Per bucket it keeps the largest figure of each series (maxima, so a peak is never averaged away),
the most each stage freed, where a compaction falls (the agent's own, and the summaries ctxscope's
pipeline would make) and the time of the bucket's first timestamped request (for a wall-clock
axis). :meth:`TimelineSeries.changed_since` says from which bucket on anything changed after a
revision, so a renderer redraws those buckets alone.
"""

from __future__ import annotations

import math
from array import array
from collections import deque
from typing import Final

from .snapshot import RequestRecord, ScopeSnapshot, Stage
from .timing import parse_time

NONE: Final = -1
"""A bucket's figure when none of its requests has one (no reported prompt, a stage that did not run)."""
MARK_SUMMARY: Final = 1
"""The bucket holds a request at which ctxscope's pipeline would summarise (a what-if)."""
MARK_COMPACTION: Final = 2
"""The bucket holds the first request after a compaction the agent made itself."""
DEFAULT_CAPACITY: Final = 2048
"""Buckets kept: more than twice the dots of a 400-column plot (two braille dots a cell), so
merging never makes a bucket wider than a dot."""
FIGURE_CAP: Final = 10**15
"""Figures are clamped into ``0..FIGURE_CAP`` (core clamps token counts to 10**12 upstream; the
cap only guarantees an 8-byte array slot)."""

Revision = tuple[int, int]
"""``(epoch, version)``: the epoch changes when every bucket did (a reset, a merge)."""


def _clamp(value: int) -> int:
    return 0 if value < 0 else FIGURE_CAP if value > FIGURE_CAP else value


def _same(record: RequestRecord, seen: RequestRecord | None) -> bool:
    """``record`` is the request ``seen`` was (a live view rebuilds its older records from figures,
    so identity is not enough)."""
    return record is seen or (
        seen is not None
        and record.index == seen.index
        and record.stored_tokens == seen.stored_tokens
        and record.calibrated_tokens == seen.calibrated_tokens
        and record.context_tokens == seen.context_tokens
    )


def _epoch_seconds(timestamp: str) -> float:
    moment = parse_time(timestamp) if timestamp else None
    return math.nan if moment is None else moment.timestamp()


class TimelineSeries:
    """Per-bucket figures of one scope's requests, extended as its records are appended.

    A different scope, lens or generation, or records that are not an extension of the ones seen
    (a new session after truncation), start the buckets over.

    Attributes:
        count: Requests taken in.
        step: Requests per bucket (a power of two).
        context: Per bucket, the largest figure the lens shows (``RequestRecord.context_tokens``).
        stored: Per bucket, the largest stored history in the lens's unit: the request plus the
            history it held back (:attr:`RequestRecord.held_back_tokens`, calibrated as the request
            is), so that it meets the request's line where nothing was held back.
        reported: Per bucket, the largest reported prompt (:data:`NONE` where no request has one).
        freed: Per stage and bucket, the most the stage freed at one request (:data:`NONE`: it
            did not run there).
        peak_freed: Per stage, the most it freed at any request (0 when it never ran).
        marks: Per bucket, :data:`MARK_SUMMARY` | :data:`MARK_COMPACTION` bits.
        times: Per bucket, the first timestamped request's time in epoch seconds (NaN: none).
        last_time: The newest request's time in epoch seconds (NaN when it has none).
        timed: Some request of the scope carries a timestamp.
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = max(2, capacity)
        self._epoch = 0
        self._reset(("", "", 0))

    def _reset(self, key: tuple[str, str, int]) -> None:
        self.key = key
        self.count = 0
        self.step = 1
        self.context = array("q")
        self.stored = array("q")
        self.reported = array("q")
        self.freed: dict[Stage, array[int]] = {stage: array("q") for stage in Stage}
        self.peak_freed: dict[Stage, int] = dict.fromkeys(Stage, 0)
        self.marks = bytearray()
        self.times = array("d")
        self.last_time = math.nan
        self.timed = False
        self._last: RequestRecord | None = None
        self._compactions = 0
        """Agent compactions of the scope looked at (those at a request not yet taken in wait)."""
        self._epoch += 1
        self._version = 0
        self._changes: deque[tuple[int, int]] = deque(maxlen=64)
        """``(version, lowest bucket changed)`` of the latest updates."""

    def __len__(self) -> int:
        """Buckets in use."""
        return len(self.context)

    @property
    def revision(self) -> Revision:
        return (self._epoch, self._version)

    def bucket_of(self, request: int) -> int:
        return request // self.step

    def first_request(self, bucket: int) -> int:
        return bucket * self.step

    def changed_since(self, seen: Revision) -> int:
        """The lowest bucket that changed after revision ``seen``; ``len(self)`` when none did,
        0 when every bucket may have."""
        epoch, version = seen
        if epoch != self._epoch or (self._changes and self._changes[0][0] > version + 1):
            return 0
        return min((low for v, low in self._changes if v > version), default=len(self))

    def update(self, scope: ScopeSnapshot, generation: int = 0) -> None:
        """Take in the scope's records (and compactions) not seen yet."""
        records = scope.records
        key = (scope.header.scope_id, scope.lens, generation)
        n = self.count
        if key != self.key or len(records) < n or (n and not _same(records[n - 1], self._last)):
            self._reset(key)
            n = 0
        low = len(self)
        if len(records) > n:
            low = min(low, self.bucket_of(n))
            for record in records[n:]:
                low = min(low, self._append(record))
            self._last = records[-1]
            self.last_time = _epoch_seconds(records[-1].timestamp)
        compactions = scope.agent_compactions
        while self._compactions < len(compactions) and compactions[self._compactions].request < self.count:
            bucket = self.bucket_of(max(0, compactions[self._compactions].request))
            self.marks[bucket] |= MARK_COMPACTION
            low = min(low, bucket)
            self._compactions += 1
        if low < len(self):
            self._version += 1
            self._changes.append((self._version, low))

    def _append(self, record: RequestRecord) -> int:
        """Add one request; returns the lowest bucket changed (0 after a merge)."""
        merged = self.count >= self.capacity * self.step
        if merged:
            self._merge()
        bucket = self.count // self.step
        context = _clamp(record.context_tokens)
        stored = _clamp(record.context_tokens + record.held_back_tokens)
        reported = NONE if record.reported_tokens is None else _clamp(record.reported_tokens)
        ran: dict[Stage, int] = {}
        for run in record.stages:
            ran[run.stage] = max(ran.get(run.stage, NONE), _clamp(run.tokens_freed))
        mark = MARK_SUMMARY if record.summary is not None and not record.source else 0
        if bucket == len(self.context):
            self.context.append(context)
            self.stored.append(stored)
            self.reported.append(reported)
            for stage, column in self.freed.items():
                column.append(ran.get(stage, NONE))
            self.marks.append(mark)
            self.times.append(_epoch_seconds(record.timestamp))
        else:
            self.context[bucket] = max(self.context[bucket], context)
            self.stored[bucket] = max(self.stored[bucket], stored)
            self.reported[bucket] = max(self.reported[bucket], reported)
            for stage, value in ran.items():
                self.freed[stage][bucket] = max(self.freed[stage][bucket], value)
            self.marks[bucket] |= mark
            if math.isnan(self.times[bucket]):
                self.times[bucket] = _epoch_seconds(record.timestamp)
        for stage, value in ran.items():
            self.peak_freed[stage] = max(self.peak_freed[stage], value)
        if record.timestamp and not self.timed:
            self.timed = not math.isnan(self.times[bucket])
        self.count += 1
        return 0 if merged else bucket

    def _merge(self) -> None:
        """Halve the buckets: each pair becomes one bucket of twice the step (maxima, marks OR-ed,
        the earlier time)."""

        def pairwise_max(column: array[int]) -> array[int]:
            merged = array("q", map(max, column[0::2], column[1::2]))
            if len(column) % 2:
                merged.append(column[-1])
            return merged

        self.context = pairwise_max(self.context)
        self.stored = pairwise_max(self.stored)
        self.reported = pairwise_max(self.reported)
        self.freed = {stage: pairwise_max(column) for stage, column in self.freed.items()}
        marks = bytearray(a | b for a, b in zip(self.marks[0::2], self.marks[1::2], strict=False))
        if len(self.marks) % 2:
            marks.append(self.marks[-1])
        self.marks = marks
        times = array("d", (_earlier(a, b) for a, b in zip(self.times[0::2], self.times[1::2], strict=False)))
        if len(self.times) % 2:
            times.append(self.times[-1])
        self.times = times
        self.step *= 2
        self._epoch += 1
        self._version = 0
        self._changes.clear()

    def span_of(self, bucket: int) -> range:
        """The requests a bucket holds."""
        start = bucket * self.step
        return range(start, min(self.count, start + self.step))


def _earlier(a: float, b: float) -> float:
    """The earlier of two times, NaN counting as unknown."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return min(a, b)
