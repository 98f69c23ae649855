"""Every message the dashboard passes around.

The tailer (a worker) talks to the UI only through these, with ``post_message`` (thread-safe).
State-snapshot messages carry the whole latest state and replace an unprocessed older one of their
kind (``can_replace``), so a slow screen only ever renders the newest state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ctxscope.core.analysis import SessionSummary
from ctxscope.core.snapshot import AgentCompaction, Lens, RequestDetail, SessionSnapshot, SummaryMarker
from textual.message import Message


class Mode(enum.StrEnum):
    """How the dashboard reads its log."""

    LIVE = "live"
    """Following a file that is still being written."""
    OFFLINE = "offline"
    """A finished session, read once."""


@dataclass(frozen=True, slots=True)
class TailStatus:
    """Where the tailer is in the file.

    Attributes:
        mode: Live or offline.
        bytes_read: Bytes of the log read and replayed.
        size: The log's size at the last read.
        done: The whole file has been read (offline), or the tailer is caught up (live).
        path: The file being read now (a folder follows its newest log).
        fault: Why the log cannot be read right now ('' when it can): missing, unreadable, a
            folder… The tailer keeps trying and reading goes on once it can.
    """

    mode: Mode
    bytes_read: int = 0
    size: int = 0
    done: bool = False
    path: str = ""
    fault: str = ""

    @property
    def lag_bytes(self) -> int:
        """Bytes written to the log but not yet shown."""
        return max(0, self.size - self.bytes_read)

    @property
    def progress(self) -> float:
        """Share of the file read, 0..1."""
        return 1.0 if self.size <= 0 else min(1.0, self.bytes_read / self.size)


class SnapshotUpdated(Message):
    """The latest state of the whole session (posted by the tailer at most 10 times a second).

    Args:
        snapshot: What core computed.
        status: Where the tailer is in the file.
        generation: Bumped whenever the session starts over (truncation, rotation, a newer log in a
            followed folder), so widgets know to drop what they have rather than append.
        compare: The same session under other configurations, side by side (``ctxscope demo``'s
            what-if view; empty otherwise). The first is the reference configuration.
        compare_summaries: The summary of each of ``compare`` (computed in core).
    """

    def __init__(
        self,
        snapshot: SessionSnapshot,
        status: TailStatus,
        generation: int = 0,
        compare: tuple[SessionSnapshot, ...] = (),
        compare_summaries: tuple[SessionSummary, ...] = (),
    ) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.status = status
        self.generation = generation
        self.compare = compare
        self.compare_summaries = compare_summaries

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SnapshotUpdated)


class DetailLoaded(Message):
    """The on-demand detail (messages with fates, per-script breakdown) of one request.

    Args:
        scope_id: The request's scope.
        index: The request's index in its scope.
        detail: What core computed, or None when the request no longer exists.
        generation: The session generation it was computed for.
    """

    def __init__(self, scope_id: str, index: int, detail: RequestDetail | None, generation: int = 0) -> None:
        super().__init__()
        self.scope_id = scope_id
        self.index = index
        self.detail = detail
        self.generation = generation

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, DetailLoaded)


class TailerFailed(Message):
    """The log cannot be read (missing, unreadable, unknown format); the reason is one safe line."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class RequestPicked(Message):
    """A widget asks the dashboard to move the cursor to a request (e.g. a summary marker)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class SummaryOpened(Message):
    """A widget asks the dashboard to show a summary's text."""

    def __init__(self, marker: SummaryMarker | None, compaction: AgentCompaction | None = None) -> None:
        super().__init__()
        self.marker = marker
        self.compaction = compaction


class LensChosen(Message):
    """The viewer switched the lens (posted by the dashboard; the app tells the tailer)."""

    def __init__(self, lens: Lens) -> None:
        super().__init__()
        self.lens = lens


class DetailWanted(Message):
    """The dashboard wants one request's detail (bubbles to the app, which asks the tailer)."""

    def __init__(self, scope_id: str, index: int) -> None:
        super().__init__()
        self.scope_id = scope_id
        self.index = index
