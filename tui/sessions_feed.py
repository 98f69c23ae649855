"""The session browser's feed: lists every session off the UI thread and keeps live rows current.

Runs as one async worker. The real work — discovering logs, reading them into the SQLite-cached
index (:class:`~ctxscope.core.sessions_index.SessionIndex`) — runs in a thread called from that
one coroutine, so the index is only ever used by one thread at a time. On a first run rows are
posted in batches as they become known (progress). Afterwards watchfiles is the doorbell: a
change under a home or a named folder re-reads only the sessions whose files changed (from the
cached offsets), and a new log anywhere there is listed; a commit to an OpenCode database (its
file or ``-wal`` file) lists that database's sessions again, alone, over one connection that
also stamps its rows. When nothing changes the feed still
wakes every :data:`RECHECK_MS` to let rows stop being live. With ``--poll`` (mounts without
inotify) there is no watcher: every :data:`POLL_SECONDS` the folders are listed again and each
log costs a ``stat`` (the cache tells what changed).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from ctxscope.core.adapters.opencode_db import (
    ADDRESS_MARK,
    Stamp,
    change_stamps,
    database_file,
    database_files,
    session_stamps,
)
from ctxscope.core.agent_homes import agent_of
from ctxscope.core.homes import AGENT_HOMES, SessionLog, discover, is_session_file
from ctxscope.core.sessions_index import SessionIndex, SessionRow
from textual.message import Message
from watchfiles import Change, awatch

BATCH_ROWS: Final = 64
BATCH_SECONDS: Final = 0.2
"""A first run posts its rows at least this often, or every :data:`BATCH_ROWS` rows."""

DEBOUNCE_MS: Final = 50
STEP_MS: Final = 20
RECHECK_MS: Final = 15_000
"""How often rows are looked at again when no file changed (live markers go out)."""

POLL_SECONDS: Final = 2.0
"""How often ``--poll`` lists the folders again."""


class SessionRowsUpdated(Message):
    """Rows of the session browser that are new or changed.

    Args:
        rows: The rows, each replacing any earlier row of the same path.
        done: Sessions looked at so far.
        total: Sessions found.
        finished: Every session found has been looked at.
        removed: Main log paths of sessions whose log is gone.
    """

    def __init__(
        self,
        rows: tuple[SessionRow, ...],
        *,
        done: int,
        total: int,
        finished: bool = False,
        removed: tuple[str, ...] = (),
    ) -> None:
        super().__init__()
        self.rows = rows
        self.removed = removed
        self.done = done
        self.total = total
        self.finished = finished


class SessionsFeed:
    """Owns the index; run :meth:`run` inside a worker.

    Args:
        post: Where messages go (``app.post_message``; thread-safe).
        folders: Folders (or logs) to list besides the agents' homes.
        homes: Also list the agents' homes.
        open_index: Builds the index (runs in the feed's thread).
        environ: Where the homes are resolved (default ``os.environ``).
        force_polling: List the folders again every :data:`POLL_SECONDS` instead of watching
            them (mounts without inotify).
    """

    def __init__(
        self,
        post: Callable[[Message], object],
        folders: Sequence[str] = (),
        *,
        homes: bool = True,
        open_index: Callable[[], SessionIndex] = SessionIndex,
        environ: Mapping[str, str] | None = None,
        force_polling: bool = False,
    ) -> None:
        self._post = post
        self.folders = list(folders)
        self.homes = homes
        self._open_index = open_index
        self.environ = os.environ if environ is None else environ
        self.force_polling = force_polling
        self.stop_event = asyncio.Event()
        self.index: SessionIndex | None = None
        self.logs: dict[str, SessionLog] = {}
        """Sessions by main log path."""
        self._owner: dict[str, str] = {}
        """Main log path of every file of every session."""
        self._databases: dict[str, str] = {}
        """The OpenCode database each database file and ``-wal`` file listed belongs to: a commit
        to either may add, change or remove any of its rows."""
        self._in_database: dict[str, set[str]] = {}
        """The sessions (``opencode.db#ses_…`` rows) of each database, as last listed."""
        self._live: set[str] = set()
        """Main log paths of the rows last posted as live."""
        self.rows: dict[str, SessionRow] = {}
        """The rows last posted, by main log path."""
        self.poll_seconds = POLL_SECONDS
        self.watching = asyncio.Event()
        """Set once the file watcher runs (tests append only after it is)."""

    def stop(self) -> None:
        self.stop_event.set()

    # -- in the feed's thread ---------------------------------------------------------------------

    def _discover(self) -> list[SessionLog]:
        logs = discover(self.folders, homes=self.homes, environ=self.environ)
        self.logs = {log.path: log for log in logs}
        self._owner = {path: log.path for log in logs for path in log.files}
        self._databases, self._in_database = {}, {}
        for log in logs:
            if ADDRESS_MARK in log.path:
                database = database_file(log.path)
                if database not in self._in_database:
                    self._databases.update((file, database) for file in database_files(log.path))
                self._in_database.setdefault(database, set()).add(log.path)
        return logs

    def _list_database(self, database: str) -> tuple[dict[str, Stamp | None], tuple[str, ...]]:
        """Lists one database's sessions again after a commit to it (one connection; no other
        home or folder is listed): the stamps of its rows, and the rows gone. A database that
        cannot be read now (locked, caught mid-write) keeps its rows as they are."""
        listed = session_stamps(database) if os.path.exists(database) else {}
        if listed is None:
            return {}, ()
        known = self._in_database.get(database, set())
        agent = next((self.logs[row].agent for row in known if row in self.logs), agent_of(database))
        for row in listed.keys() - known:
            self.logs[row] = SessionLog(row, agent)
            self._owner[row] = row
        gone = tuple(sorted(known - listed.keys()))
        for row in gone:
            self.logs.pop(row, None)
            self._owner.pop(row, None)
        self._in_database[database] = set(listed)
        return listed, gone

    def _first_rows(self) -> None:
        self.index = self._open_index()
        logs = self._discover()
        batch: list[SessionRow] = []
        last = time.monotonic()

        def collect(row: SessionRow, position: int, total: int) -> None:
            nonlocal last
            batch.append(row)
            self.rows[row.path] = row
            if row.live:
                self._live.add(row.path)
            now = time.monotonic()
            if len(batch) >= BATCH_ROWS or now - last >= BATCH_SECONDS:
                self._post(SessionRowsUpdated(tuple(batch), done=position + 1, total=total))
                batch.clear()
                last = now

        self.index.rows(logs, on_row=collect)
        self._post(SessionRowsUpdated(tuple(batch), done=len(logs), total=len(logs), finished=True))

    def _refresh(self, changed: Iterable[str]) -> None:
        """Rows of the sessions whose files changed; a log not seen before lists the folders again."""
        assert self.index is not None
        paths = set(changed)
        databases = {self._databases[p] for p in paths if p in self._databases}
        gone = tuple(sorted(p for p in paths if p in self.logs and not os.path.exists(p)))
        unknown = (p not in self._owner and p not in self._databases and is_session_file(p) for p in paths)
        if gone or any(unknown):
            before = set(self.logs)
            self._discover()
            paths |= set(self.logs) - before
        mains = {self._owner[p] for p in paths if p in self._owner and self._owner[p] in self.logs}
        stamps: dict[str, Stamp] = {}
        for database in sorted(databases):
            listed, dropped = self._list_database(database)
            stamps.update((row, stamp) for row, stamp in listed.items() if stamp is not None)
            mains |= listed.keys()
            gone += dropped
        if not paths:  # a quiet wake: look at the live rows again
            mains = set(self._live)
        stamps.update(change_stamps(main for main in mains if main not in stamps))
        rows = [row for main in sorted(mains) if (row := self.index.row(self.logs[main], stamps)) is not None]
        self.index.flush()
        self._live = {row.path for row in rows if row.live} | (self._live - mains - set(gone))
        self._posted(rows, gone)

    def _poll_all(self) -> None:
        """``--poll``: list the folders again and post the rows that changed or went."""
        assert self.index is not None
        logs = self._discover()
        stamps = change_stamps(log.path for log in logs)
        rows = [row for log in logs if (row := self.index.row(log, stamps)) is not None]
        self.index.flush()
        gone = tuple(sorted(set(self.rows) - {row.path for row in rows}))
        self._posted([row for row in rows if self.rows.get(row.path) != row], gone)

    def _posted(self, rows: list[SessionRow], gone: tuple[str, ...]) -> None:
        for path in gone:
            self.rows.pop(path, None)
        self.rows.update((row.path, row) for row in rows)
        if rows or gone:
            total = len(self.logs)
            self._post(SessionRowsUpdated(tuple(rows), done=total, total=total, finished=True, removed=gone))

    # -- the worker -------------------------------------------------------------------------------

    def roots(self) -> list[str]:
        """The folders watched: the homes that exist and the folders named (a log's folder)."""
        found: list[str] = []
        if self.homes:
            found += [home.folder(self.environ) for home in AGENT_HOMES]
        for folder in self.folders:
            expanded = os.path.expanduser(folder)
            found.append(expanded if os.path.isdir(expanded) else os.path.dirname(os.path.abspath(expanded)))
        return sorted({os.path.abspath(f) for f in found if os.path.isdir(f)})

    async def run(self) -> None:
        try:
            await asyncio.to_thread(self._first_rows)
            roots = self.roots()
            if self.force_polling:
                await self._poll()
            elif roots:
                await self._watch(roots)
        finally:
            if self.index is not None:
                self.index.close()

    async def _watch(self, roots: list[str]) -> None:
        asyncio.get_running_loop().call_later(0.25, self.watching.set)
        async for changes in awatch(
            *roots,
            watch_filter=_is_log,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            stop_event=self.stop_event,
            rust_timeout=RECHECK_MS,
            yield_on_timeout=True,
        ):
            await asyncio.to_thread(self._refresh, {path for _, path in changes})

    async def _poll(self) -> None:
        self.watching.set()
        while not self.stop_event.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop_event.wait(), self.poll_seconds)
            if not self.stop_event.is_set():
                await asyncio.to_thread(self._poll_all)


def _is_log(change: Change, path: str) -> bool:
    return is_session_file(path)
