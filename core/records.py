"""A scope's request records, held compactly once their detail is released.

A replay makes one :class:`~ctxscope.core.snapshot.RequestRecord` per model call. A live view
keeps the newest few in full (their breakdowns and detail) and the older ones only as figures
(see ``keep_detail`` in :class:`~ctxscope.core.replay.SessionReplay`). :class:`RecordLog` stores
those figures in columns — a few 8-byte array entries a request instead of a record object with a
dozen boxed integers and three dicts — and gives the records back on access, rebuilt with
``detail_released=True``. Stage runs, summary markers and errors are kept only for the requests
that have them.

:meth:`RecordLog.view` is what a snapshot carries: an immutable sequence over the records as they
are now, safe to read from another thread while the log goes on growing (columns are append-only,
and the full records of the view are its own tuple).
"""

from __future__ import annotations

import math
import sys
from array import array
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, overload

from .snapshot import RequestRecord, StageRun, SummaryMarker

_NOTHING: Final[Mapping[Any, int]] = MappingProxyType({})
_NONE: Final = -1
"""Stands for None in the reported-token columns."""
_OVER_LIMIT: Final = 1
_REFUSED: Final = 2
_UNPRICED: Final = 4
_NAN: Final = float("nan")
"""Stands for None in the dollar columns."""


class _Columns:
    """The figures of released records, by request index (append-only)."""

    __slots__ = (
        "cached_prefix", "calibrated", "costs", "errors", "factor", "flags", "message_count",
        "models", "recorded_costs", "reported", "reported_cached", "sent", "sources", "stages",
        "stored", "summaries", "timestamps", "unseen",
    )

    def __init__(self) -> None:
        self.message_count = array("q")
        self.stored = array("q")
        self.sent = array("q")
        self.calibrated = array("q")
        self.reported = array("q")
        self.reported_cached = array("q")
        self.cached_prefix = array("q")
        self.factor = array("d")
        self.unseen = array("q")
        self.costs = array("d")
        self.recorded_costs = array("d")
        self.timestamps: list[str] = []
        """The records' own strings (the requests' timestamps), so no copy is made."""
        self.sources: list[str] = []
        """Interned, as the model names are."""
        self.flags = bytearray()
        self.models: list[str] = []
        """Interned: a model name is one string however many requests name it."""
        self.stages: dict[int, tuple[StageRun, ...]] = {}
        self.summaries: dict[int, SummaryMarker] = {}
        self.errors: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self.sent)

    def append(self, record: RequestRecord) -> None:
        i = len(self.sent)
        self.message_count.append(record.message_count)
        self.stored.append(record.stored_tokens)
        self.sent.append(record.sent_tokens)
        self.calibrated.append(record.calibrated_tokens)
        self.reported.append(_NONE if record.reported_tokens is None else record.reported_tokens)
        self.reported_cached.append(
            _NONE if record.reported_cached_tokens is None else record.reported_cached_tokens
        )
        self.cached_prefix.append(record.cached_prefix_tokens)
        self.factor.append(record.calibration_factor)
        self.unseen.append(record.unseen_tokens)
        self.sources.append(sys.intern(record.source))
        self.costs.append(_NAN if record.cost is None else record.cost)
        self.recorded_costs.append(_NAN if record.recorded_cost is None else record.recorded_cost)
        self.timestamps.append(record.timestamp)
        self.flags.append(
            (_OVER_LIMIT if record.over_limit else 0) | (_REFUSED if record.refused else 0)
            | (0 if record.priced else _UNPRICED)
        )
        self.models.append(sys.intern(record.model))
        if record.stages:
            self.stages[i] = record.stages
        if record.summary is not None:
            self.summaries[i] = record.summary
        if record.error:
            self.errors[i] = record.error

    def record(self, scope_id: str, i: int) -> RequestRecord:
        reported = self.reported[i]
        cached = self.reported_cached[i]
        flags = self.flags[i]
        cost, recorded_cost = self.costs[i], self.recorded_costs[i]
        return RequestRecord(
            scope_id=scope_id,
            index=i,
            message_count=self.message_count[i],
            stored_tokens=self.stored[i],
            sent_tokens=self.sent[i],
            calibrated_tokens=self.calibrated[i],
            reported_tokens=None if reported == _NONE else reported,
            reported_cached_tokens=None if cached == _NONE else cached,
            cached_prefix_tokens=self.cached_prefix[i],
            stages=self.stages.get(i, ()),
            summary=self.summaries.get(i),
            over_limit=bool(flags & _OVER_LIMIT),
            refused=bool(flags & _REFUSED),
            fate_counts=_NOTHING,
            by_category=_NOTHING,
            by_tool=_NOTHING,
            model=self.models[i],
            error=self.errors.get(i, ""),
            calibration_factor=self.factor[i],
            detail_released=True,
            source=self.sources[i],
            unseen_tokens=self.unseen[i],
            cost=None if math.isnan(cost) else cost,
            recorded_cost=None if math.isnan(recorded_cost) else recorded_cost,
            priced=not flags & _UNPRICED,
            timestamp=self.timestamps[i],
        )


class _Records(Sequence[RequestRecord]):
    """Indexing and slicing over :meth:`_at` (records are rebuilt from figures when released)."""

    def _at(self, i: int) -> RequestRecord:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> RequestRecord: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[RequestRecord]: ...

    def __getitem__(self, index: int | slice) -> RequestRecord | Sequence[RequestRecord]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._at(index)


class RecordView(_Records):
    """An immutable sequence of a scope's records at one moment (see :meth:`RecordLog.view`)."""

    __slots__ = ("_columns", "_full", "_released", "_scope_id")

    def __init__(
        self, scope_id: str, columns: _Columns, released: int, full: tuple[RequestRecord, ...]
    ) -> None:
        self._scope_id = scope_id
        self._columns = columns
        self._released = released
        self._full = full

    def __len__(self) -> int:
        return self._released + len(self._full)

    def _at(self, i: int) -> RequestRecord:
        if i >= self._released:
            return self._full[i - self._released]
        return self._columns.record(self._scope_id, i)

    def __iter__(self) -> Iterator[RequestRecord]:
        columns, scope_id = self._columns, self._scope_id
        for i in range(self._released):
            yield columns.record(scope_id, i)
        yield from self._full

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RecordView({self._scope_id!r}, {len(self)} records, {self._released} released)"


class RecordLog(_Records):
    """A scope's records as a replay makes them: appended in full, released into columns.

    Args:
        scope_id: The scope (released records are rebuilt with it).
    """

    def __init__(self, scope_id: str) -> None:
        self.scope_id = scope_id
        self._columns = _Columns()
        self._full: list[RequestRecord] = []
        """Records from :attr:`released` on, in full."""

    @property
    def released(self) -> int:
        """Records held only as figures (the oldest ones)."""
        return len(self._columns)

    def append(self, record: RequestRecord) -> None:
        self._full.append(record)

    def release(self, upto: int) -> None:
        """Keep records before ``upto`` only as figures (their breakdowns go)."""
        move = min(upto, len(self)) - self.released
        if move <= 0:
            return
        for record in self._full[:move]:
            self._columns.append(record)
        del self._full[:move]

    def view(self) -> Sequence[RequestRecord]:
        """The records as of now: a tuple while none was released, else a :class:`RecordView`."""
        if not self.released:
            return tuple(self._full)
        return RecordView(self.scope_id, self._columns, self.released, tuple(self._full))

    def __len__(self) -> int:
        return self.released + len(self._full)

    def _at(self, i: int) -> RequestRecord:
        released = self.released
        if i >= released:
            return self._full[i - released]
        return self._columns.record(self.scope_id, i)
