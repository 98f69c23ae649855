"""The tailer: reads the log off the UI thread and posts snapshots of what core computed.

Runs as one async worker (``group="session-tailer"``). Every piece of real work — reading appended
bytes, replaying them through the pipeline, building a snapshot, computing a request's detail — runs
in a thread (``asyncio.to_thread``) called from that one coroutine, so the core objects are only
ever touched by one thread at a time and the UI thread never blocks on I/O or parsing.

watchfiles is only the doorbell: ``awatch`` wakes the tailer, which then reads from its saved byte
offset (the reader keeps the half-written last line, notices truncation and rotation). ``--poll``
(file systems without inotify) replaces the watcher by a plain timer: every :data:`POLL_TICK_S` the
tailer reads from its offset, which costs an ``fstat`` when nothing changed (and, for a folder, a
``stat`` of the folders listed), however many files the folder holds. Snapshots are posted at
most :data:`MAX_RATE` times a second and coalesce in the app's queue (``can_replace``). Shutdown
is immediate: the stop event is set on unmount and the watcher thread returns within one ``step``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from ctxscope.core.adapters.opencode_db import database_file, database_files
from ctxscope.core.analysis import SessionSummary
from ctxscope.core.fulltext import WholeMessage, whole_message
from ctxscope.core.homes import is_session_file
from ctxscope.core.pipeline.config import PipelineConfig
from ctxscope.core.reader import TextCap
from ctxscope.core.search import SearchResult, search_messages
from ctxscope.core.snapshot import Lens, MessageTimes, RequestDetail, SessionSnapshot
from textual.message import Message
from watchfiles import Change, awatch

from .messages import (
    DetailLoaded,
    Mode,
    SearchDone,
    SnapshotUpdated,
    TailerFailed,
    TailStatus,
    WholeMessageLoaded,
)

MAX_RATE: Final = 10
"""Snapshots posted per second, at most."""

PROGRESS_BYTES: Final = 48 << 20
"""Bytes read between two progress snapshots while a file is read from its start (``open``, or
``watch`` catching up with a long log): each one refreshes every pane, and the reading thread
shares the interpreter with the screen. Paced by bytes, not by the clock, the screen costs the
same per MB on a busy machine as on a quiet one, and refreshes a few times a second at most
(reading runs at 50–100 MB/s; measured by ``bench/bench_open.py``). Appends to a live log that
was caught up post at :data:`MAX_RATE`."""

FIRST_CHUNK: Final = 256 << 10
"""Bytes read before the first snapshot of an offline file (the first screen appears quickly)."""

CHUNK: Final = 4 << 20
"""Bytes read per step while catching up with a large file."""

DEBOUNCE_MS: Final = 50
"""How long watchfiles gathers changes before it rings (its default of 1,600 ms is too slow)."""

STEP_MS: Final = 5
"""How often watchfiles looks for changes: it rings after two looks that found nothing new, so an
append is seen about two steps after it was written (20 ms steps: 33 ms median; 5 ms: 9 ms, for
0.2% of a core more while idle; ``bench/bench_dashboard.py``)."""
RUST_TIMEOUT_MS: Final = 2000

DETAIL_SHARE: Final = 0.25
"""At most this share of the tailer's time goes to computing request details: after a detail that
took *t* seconds the next one waits ``t × (1 / DETAIL_SHARE − 1)``. Details of a large scope (tens
of thousands of messages) cost tenths of a second; following the tail of a busy log would otherwise
ask for one with every snapshot and starve reading."""

READING_DETAIL_SHARE: Final = 0.01
"""The share while a file is still being read from its start (``open`` of a large log): the first
detail is served at once (the first full screen), later ones wait longer, and when the reading is
done the wait is :data:`DETAIL_SHARE`'s again (measured by ``bench/bench_open.py``)."""

LIVE_KEEP_DETAIL: Final = 2_000
"""Requests per scope whose detail (messages, breakdowns) a live view keeps (core's
:class:`~ctxscope.core.retention.LiveWindow`). Older requests keep their figures on the timeline;
the messages only they showed are released, so what grows is those figures, a few hundred bytes a
request (``bench/bench_memory.py``; ``ctxscope open`` keeps everything)."""

EXPORT_TICK_S: Final = 1.0
"""With an export, how often the tailer asks it whether the screen should show news (a failed push)
while the log is quiet."""

POLL_TICK_S: Final = 0.25
"""In polling mode the tailer looks at the file this often (and this often while the log cannot be
read). watchfiles' own poll watcher is not used: it stats every file under a followed folder at
each poll (a quarter of a CPU idle on a folder of 5,000 logs) and compares modification times in
whole seconds."""


@dataclass(frozen=True, slots=True)
class Step:
    """What one :meth:`SessionSource.read` did.

    Attributes:
        bytes_read: Bytes of the current file read so far.
        size: The current file's size.
        restarted: The session started over (truncation, rotation, a newer log in a folder).
        path: The file being read now.
        fault: Why the log cannot be read right now ('' when it can); reading is retried.
    """

    bytes_read: int
    size: int
    restarted: bool
    path: str
    fault: str = ""

    @property
    def caught_up(self) -> bool:
        return self.bytes_read >= self.size


class SessionSource(Protocol):
    """A log being read and replayed; every method runs in a worker thread, never concurrently."""

    def read(self, max_bytes: int | None) -> Step:
        """Read (up to ``max_bytes`` of) what was appended and replay it."""

    def finish(self) -> None:
        """The file is finished: take a last line without a newline and flush the readers."""

    def snapshot(self) -> SessionSnapshot:
        """The session as of now, in the current lens."""

    def recorded_snapshot(self) -> SessionSnapshot:
        """The session as of now in the recorded lens, whatever lens is shown (what exports publish)."""

    def compare(self) -> tuple[tuple[SessionSnapshot, ...], tuple[SessionSummary, ...]]:
        """The session under each compare configuration, with its summary (empty without them)."""

    def set_lens(self, lens: Lens) -> None:
        """Show the session in ``lens`` from now on."""

    def detail(self, scope_id: str, index: int) -> RequestDetail | None:
        """The detail of one request in the current lens (None when it does not exist)."""

    def whole_message(self, scope_id: str, index: int) -> WholeMessage | None:
        """One stored message with every character read back from the log (None when gone)."""

    def search(self, scope_id: str, query: str) -> SearchResult:
        """The messages of a scope that hold ``query`` (text or tool names)."""

    def watch_paths(self) -> list[str]:
        """Folders to watch (the log's own folder non-recursively; others recursively)."""

    @property
    def path(self) -> str:
        """The log file (or folder) given."""

    @property
    def recursive(self) -> bool:
        """Watch every path recursively (a followed folder)."""

    def is_relevant(self, path: str) -> bool:
        """Whether a changed path concerns this source."""


class RecordedSource(Protocol):
    """What an export needs of a source: the recorded lens's snapshot."""

    def recorded_snapshot(self) -> SessionSnapshot:
        """The session as of now in the recorded lens."""


class SnapshotExport(Protocol):
    """Publishes the figures of every snapshot the tailer posts (``ctxscope.tui.export.Exporter``)."""

    def publish_snapshot(self, snapshot: SessionSnapshot, source: RecordedSource) -> SessionSnapshot:
        """Publish ``snapshot``'s figures (in the worker's thread); the snapshot to post."""

    def news(self) -> bool:
        """What :meth:`publish_snapshot` adds to the screen changed since it last ran."""


class Tailer:
    """Owns a :class:`SessionSource`; run :meth:`run` inside a worker.

    Args:
        post: Where messages go (``app.post_message``; thread-safe).
        open_source: Builds the source (runs in a thread; raise ``OSError``/``ValueError`` with a
            one-line reason when the log cannot be read).
        mode: Live (follow the file) or offline (read it once).
        force_polling: Poll instead of relying on inotify.
        export: Publishes every snapshot before it is posted, in the worker's thread
            (``--otlp-endpoint``/``--metrics-port``); a quiet log's snapshot is posted again when
            the export has news for the screen.
    """

    def __init__(
        self,
        post: Callable[[Message], object],
        open_source: Callable[[], SessionSource],
        mode: Mode,
        *,
        force_polling: bool = False,
        export: SnapshotExport | None = None,
    ) -> None:
        self._post = post
        self.export = export
        self._repost = False
        self._open_source = open_source
        self.mode = mode
        self.force_polling = force_polling
        self.stop_event = asyncio.Event()
        self.source: SessionSource | None = None
        self.generation = 0
        self._wake = asyncio.Event()
        self._wanted: tuple[str, int] | None = None
        self._last_post = 0.0
        self._posted_bytes = 0
        """Bytes of the current file read when the last snapshot was posted."""
        self._last_step: Step | None = None
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._last_done = False
        self._detail_not_before = 0.0
        self._detail_cost = (0.0, 0.0)
        """(when the last detail was done, what it cost), ``time.monotonic`` seconds."""
        self._detail_timer: tuple[asyncio.TimerHandle, float] | None = None
        """The wake-up for the next due detail, and when it is due (``time.monotonic``)."""
        self._message_wanted: tuple[str, int] | None = None
        self._search_wanted: tuple[str, str] | None = None
        self._lens: Lens | None = None
        self.snapshots_posted = 0
        self.watching = asyncio.Event()
        """Set once the file watcher is running (tests append only after it is)."""

    # -- called from the UI thread --------------------------------------------------------------

    def request_detail(self, scope_id: str, index: int) -> None:
        """Ask for a request's detail; only the latest request is computed."""
        self._wanted = (scope_id, index)
        self._wake.set()

    def request_message(self, scope_id: str, index: int) -> None:
        """Ask for one message in full (the message viewer); only the latest is read."""
        self._message_wanted = (scope_id, index)
        self._wake.set()

    def request_search(self, scope_id: str, query: str) -> None:
        """Ask core to search a scope's messages; only the latest search runs."""
        self._search_wanted = (scope_id, query)
        self._wake.set()

    def set_lens(self, lens: Lens) -> None:
        """Switch the lens: the next snapshot (posted at once) is in ``lens``."""
        self._lens = lens
        self._wake.set()

    def stop(self) -> None:
        self.stop_event.set()
        self._wake.set()

    # -- the worker -----------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            self.source = await asyncio.to_thread(self._open_source)
        except (OSError, ValueError) as exc:
            self._post(TailerFailed(str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
            return
        try:
            await self._catch_up(first=True)
            if self.mode is Mode.OFFLINE:
                await asyncio.to_thread(self.source.finish)
                await self._post_snapshot(done=True)
            elif self.force_polling:
                self._watchers["<tick>"] = asyncio.create_task(self._tick(), name="ctxscope-poll-tick")
                self.watching.set()
            else:
                self._ensure_watchers()
            if self.export is not None:
                self._watchers["<export>"] = asyncio.create_task(self._export_tick(), name="ctxscope-export")
            while not self.stop_event.is_set():
                await self._wake.wait()
                self._wake.clear()
                if self.stop_event.is_set():
                    break
                if self._repost:
                    self._repost = False
                    await self._post_snapshot(done=self._last_done)
                if self._lens is not None:
                    lens, self._lens = self._lens, None
                    await asyncio.to_thread(self.source.set_lens, lens)
                    await self._post_snapshot(done=self._last_done)
                if self.mode is Mode.LIVE:
                    await self._throttle()
                    await self._catch_up()
                    self._ensure_watchers()
                await self._serve_detail()
                await self._serve_message()
                await self._serve_search()
        except (OSError, ValueError) as exc:
            self._post(TailerFailed(str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
        except Exception as exc:  # a bug in reading or replay must not leave a silently frozen screen
            reason = str(exc).splitlines()[0] if str(exc) else ""
            self._post(TailerFailed(f"internal error while reading the log: {type(exc).__name__} {reason}"))
            raise
        finally:
            self.stop_event.set()
            for task in self._watchers.values():
                task.cancel()

    async def _throttle(self) -> None:
        wait = 1 / MAX_RATE - (time.monotonic() - self._last_post)
        if wait > 0:
            await asyncio.sleep(wait)

    async def _catch_up(self, first: bool = False) -> bool:
        """Read until caught up with the file, posting progress every :data:`PROGRESS_BYTES`.

        Returns:
            Whether anything changed.
        """
        assert self.source is not None
        max_bytes = FIRST_CHUNK if first else CHUNK
        changed = any_change = False
        while not self.stop_event.is_set():
            mark = 0 if first else self._posted_bytes + PROGRESS_BYTES
            step = await asyncio.to_thread(self._read_until, max_bytes, mark)
            max_bytes = CHUNK
            if step.restarted:
                self.generation += 1
            previous = self._last_step
            self._last_step = step
            progressed = previous is None or step.restarted or step.bytes_read != previous.bytes_read
            changed = (
                changed
                or progressed
                or (previous is not None and (step.size != previous.size or step.fault != previous.fault))
            )
            if step.fault:
                self._retry_while_faulty()
                break
            any_change = any_change or changed
            if step.caught_up or not progressed:
                # Caught up, or only a half-written last line is left (it waits for its newline).
                break
            if first or step.restarted or step.bytes_read >= mark:
                first = False
                await self._post_snapshot(done=False)
                changed = False
            if self._wanted is not None:
                await self._serve_detail(READING_DETAIL_SHARE)
        done_at, cost = self._detail_cost
        self._detail_not_before = min(self._detail_not_before, done_at + cost * (1 / DETAIL_SHARE - 1))
        if self._wanted is not None:
            self._schedule_detail()
        if changed:
            await self._throttle()
            await self._post_snapshot(done=self.mode is Mode.LIVE)
        return any_change

    def _read_until(self, max_bytes: int, mark: int) -> Step:
        """Read steps of at most ``max_bytes`` (then :data:`CHUNK`) in this thread until caught up,
        stuck on a half-written line, restarted, stopped, a detail is due, or ``mark`` bytes are
        read: one thread hand-off per progress snapshot instead of one per chunk.
        Returns the last step (the steps before it only moved ``bytes_read`` on)."""
        assert self.source is not None
        step = self.source.read(max_bytes)
        while (
            not step.caught_up and not step.restarted and step.bytes_read < mark
            and not self.stop_event.is_set() and not self._detail_due_now()
        ):
            after = self.source.read(CHUNK)
            if after.bytes_read == step.bytes_read and not after.restarted:
                return after  # only a half-written last line is left
            step = after
        return step

    def _detail_due_now(self) -> bool:
        """A detail is asked for and may be served now (the loop's clock is ``time.monotonic``)."""
        return self._wanted is not None and time.monotonic() >= self._detail_not_before

    async def _post_snapshot(self, done: bool) -> None:
        assert self.source is not None
        snapshot = await asyncio.to_thread(self.source.snapshot)
        if self.export is not None:
            snapshot = await asyncio.to_thread(self.export.publish_snapshot, snapshot, self.source)
        compare, summaries = await asyncio.to_thread(self.source.compare)
        self._last_done = done
        step = self._last_step
        status = TailStatus(
            self.mode,
            bytes_read=step.bytes_read if step else 0,
            size=step.size if step else 0,
            done=done,
            path=step.path if step else "",
            fault=step.fault if step else "",
        )
        self._post(SnapshotUpdated(snapshot, status, self.generation, compare, summaries))
        self._last_post = time.monotonic()
        self._posted_bytes = status.bytes_read
        self.snapshots_posted += 1

    async def _serve_detail(self, share: float = DETAIL_SHARE) -> None:
        if self._wanted is None or self.source is None:
            return
        if self._detail_not_before > time.monotonic():
            self._schedule_detail()
            return
        wanted, self._wanted = self._wanted, None
        start = time.monotonic()
        detail = await asyncio.to_thread(self.source.detail, *wanted)
        done = time.monotonic()
        self._detail_cost = (done, done - start)
        self._detail_not_before = done + (done - start) * (1 / share - 1)
        self._post(DetailLoaded(wanted[0], wanted[1], detail, self.generation))

    async def _serve_message(self) -> None:
        """Read the message the viewer asked for (in the worker thread, between reads)."""
        if self._message_wanted is None or self.source is None:
            return
        wanted, self._message_wanted = self._message_wanted, None
        message = await asyncio.to_thread(self.source.whole_message, *wanted)
        self._post(WholeMessageLoaded(message, self.generation))

    async def _serve_search(self) -> None:
        """Run the search the viewer asked for (in the worker thread, between reads)."""
        if self._search_wanted is None or self.source is None:
            return
        wanted, self._search_wanted = self._search_wanted, None
        result = await asyncio.to_thread(self.source.search, *wanted)
        self._post(SearchDone(result, self.generation))

    def _schedule_detail(self) -> None:
        """Wake the worker when the next detail is due (an earlier due time replaces a later one)."""
        due = self._detail_not_before
        timer = self._detail_timer
        if timer is not None and not timer[0].cancelled() and timer[1] <= due:
            return
        if timer is not None:
            timer[0].cancel()
        handle = asyncio.get_running_loop().call_later(max(0.0, due - time.monotonic()), self._detail_due)
        self._detail_timer = (handle, due)

    def _detail_due(self) -> None:
        self._detail_timer = None
        self._wake.set()

    async def _export_tick(self) -> None:
        """With an export: every :data:`EXPORT_TICK_S`, post the snapshot again if it has news."""
        assert self.export is not None
        while not self.stop_event.is_set():
            await asyncio.sleep(EXPORT_TICK_S)
            if self.export.news():
                self._repost = True
                self._wake.set()

    async def _tick(self, while_faulty: bool = False) -> None:
        """Ring the doorbell every :data:`POLL_TICK_S`: in polling mode for good, otherwise while
        the log cannot be read (a file that comes back, or whose permissions change, may ring no
        watcher; the folder it was in may be gone)."""
        while not self.stop_event.is_set():
            await asyncio.sleep(POLL_TICK_S)
            if while_faulty and not (self._last_step and self._last_step.fault):
                return
            self._wake.set()

    def _retry_while_faulty(self) -> None:
        task = self._watchers.get("<tick>")
        if task is None or task.done():
            retry = self._tick(while_faulty=True)
            self._watchers["<tick>"] = asyncio.create_task(retry, name="ctxscope-retry")

    def _ensure_watchers(self) -> None:
        """Start a watcher for every path the source wants watched and is not watched yet."""
        assert self.source is not None
        if self.force_polling:
            return
        for path in self.source.watch_paths():
            if path not in self._watchers and os.path.isdir(path):
                recursive = self.source.recursive or os.path.normpath(path) != os.path.dirname(
                    os.path.abspath(self.source.path)
                )
                self._watchers[path] = asyncio.create_task(
                    self._watch(path, recursive), name=f"ctxscope-watch {path}"
                )

    async def _watch(self, path: str, recursive: bool) -> None:
        """Ring the doorbell whenever a relevant path under ``path`` changes."""
        assert self.source is not None
        source = self.source

        def relevant(change: Change, changed: str) -> bool:
            return source.is_relevant(changed)

        # The watcher registers inside awatch; one extra wake shortly after covers anything
        # appended in between.
        asyncio.get_running_loop().call_later(0.25, self._wake.set)
        asyncio.get_running_loop().call_later(0.25, self.watching.set)
        async for _changes in awatch(
            path,
            watch_filter=relevant,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            stop_event=self.stop_event,
            rust_timeout=RUST_TIMEOUT_MS,
            recursive=recursive,
        ):
            self._wake.set()


class CoreSource:
    """The real source: core's :class:`~ctxscope.core.follow.Follower` and one
    :class:`~ctxscope.core.analysis.Analysis` over what it reads.

    Args:
        path: A log file, or a folder whose newest log is followed.
        format: Force a log format by name.
        budget: Override the pipeline lens's working budget (tokens).
        limit: Override the pipeline lens's hard limit (tokens).
        lens: The lens shown first (None: recorded).
        window: The agent's context window (tokens; the recorded lens).
        trigger: The agent's auto-compaction trigger (tokens; the recorded lens).
        estimator: The estimator's name (None: by model family).
        compare: Configurations replayed side by side over the same log (``ctxscope demo``'s
            what-if view); the first is the reference.
        text_cap: Characters of each block's text the reader keeps (None: all; the demo's logs are
            bounded, so its per-script breakdowns and summaries see every character).
        keep_detail: Keep the detail of only the newest this many requests per scope and release
            what only older ones need (None: keep everything). Live views set it.

    Raises:
        OSError: The log cannot be read.
        ValueError: ``format`` names no known format (``UnknownFormatError``).
    """

    def __init__(
        self,
        path: str,
        *,
        format: str | None = None,
        budget: int | None = None,
        limit: int | None = None,
        lens: Lens | None = None,
        window: int | None = None,
        trigger: int | None = None,
        estimator: str | None = None,
        compare: Sequence[PipelineConfig] = (),
        text_cap: TextCap = "auto",
        keep_detail: int | None = None,
    ) -> None:
        from ctxscope.core.analysis import Analysis, AnalysisOptions
        from ctxscope.core.follow import Follower
        from ctxscope.core.tokens import get_estimator

        self.path = os.path.abspath(path)
        estimator = estimator or _head_estimator(self.path, format, text_cap)
        self.follower = Follower(
            self.path, format, text_cap=text_cap, estimator=get_estimator(estimator) if estimator else None
        )
        self.analysis = Analysis(
            AnalysisOptions(
                lens=lens,
                config=PipelineConfig().replace(budget=budget, hard_limit=limit),
                window=window,
                trigger=trigger,
                estimator=estimator,
                keep_detail=keep_detail,
                compare=tuple(compare),
            )
        )
        self._session: object = None
        self._stem = os.path.splitext(self.path)[0] + os.sep
        self._database = database_files(self.path)
        """An OpenCode database's file and ``-wal`` file (where its commits land); else ()."""

    def read(self, max_bytes: int | None) -> Step:
        progress = self.follower.poll(max_bytes)
        session = self.follower.session
        restarted = progress.new_session or (session is not None and session is not self._session)
        if restarted and self._session is None:
            restarted = False  # the first session is not a restart
        if session is not None:
            self._session = session
            self.analysis.update(session)
        read = progress.read
        return Step(
            bytes_read=read.offset if read is not None else 0,
            size=read.size if read is not None else 0,
            restarted=restarted,
            path=progress.path,
            fault=progress.fault,
        )

    def finish(self) -> None:
        reader = self.follower.reader
        if reader is None:
            return
        reader.read_all()
        session = self.follower.session
        if session is not None:
            self._session = session
            self.analysis.update(session)

    def snapshot(self) -> SessionSnapshot:
        snapshot = self.analysis.snapshot()
        if not snapshot.source:
            return SessionSnapshot(source=self.path, format="", session_id="", scopes={}, lens=snapshot.lens)
        return snapshot

    def recorded_snapshot(self) -> SessionSnapshot:
        return self.analysis.snapshot("recorded")

    def compare(self) -> tuple[tuple[SessionSnapshot, ...], tuple[SessionSummary, ...]]:
        return self.analysis.compare_snapshots(), self.analysis.compare_summaries()

    def set_lens(self, lens: Lens) -> None:
        self.analysis.lens = lens

    def detail(self, scope_id: str, index: int) -> RequestDetail | None:
        detail = self.analysis.detail(scope_id, index)
        if detail is None:
            return None
        # Request i is the same model call in either lens: its time is the recorded one's.
        recorded = self.analysis.snapshot("recorded").scopes.get(scope_id)
        if recorded is None:
            return detail
        return dataclasses.replace(detail, sent_at=MessageTimes(recorded.records, len(detail.messages)))

    def whole_message(self, scope_id: str, index: int) -> WholeMessage | None:
        session = self.follower.session
        return whole_message(session, scope_id, index) if session is not None else None

    def search(self, scope_id: str, query: str) -> SearchResult:
        session = self.follower.session
        return search_messages(session, scope_id, query) if session is not None else SearchResult(
            scope_id, query, ()
        )

    def watch_paths(self) -> list[str]:
        return self.follower.watch_paths()

    @property
    def recursive(self) -> bool:
        return self.follower.is_folder

    def is_relevant(self, path: str) -> bool:
        if self.follower.is_folder:
            return is_session_file(path) or os.path.isdir(path)
        return (
            path == self.path
            or path.startswith(self._stem)
            or path == self._stem[:-1]
            or path in self._database
        )


def check_source(path: str, format: str | None, live: bool) -> None:
    """Fail early, with one line, on a log that cannot be read or whose format is unknown.

    A live log that is still empty is accepted (its format is detected when lines arrive).

    Raises:
        OSError: The file cannot be read.
        ValueError: The format is unknown (the message names the known formats).
    """
    from ctxscope.core.reader import SessionReader, detect_format

    if os.path.isdir(path):
        return
    if format:
        SessionReader(path, format)  # raises on an unknown format name
        return
    if live and os.path.getsize(database_file(path)) == 0:
        return
    detect_format(path)


def _head_estimator(path: str, format: str | None, text_cap: TextCap) -> str | None:
    """The estimator the analysis will pick for a log whose first call is in its first megabyte
    (by that call's model), so the reader counts elided text with it, as ``report`` does; None
    (the analysis picks when it first sees the session) for a folder, a log read whole, a log that
    keeps all text, or one with no call yet."""
    from ctxscope.core.analysis import session_model, session_model_estimator
    from ctxscope.core.reader import read_head

    if text_cap is None or not os.path.isfile(path):
        return None
    head = read_head(path, format)
    if head is None or not session_model(head):
        return None
    return session_model_estimator(head)

