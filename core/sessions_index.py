"""Every agent session at a glance: one :class:`SessionRow` per session log, cached in SQLite.

:class:`SessionIndex` turns the logs :func:`~ctxscope.core.homes.discover` finds into rows. Each
log file's :class:`~ctxscope.core.session_digest.LogDigest` is cached in a SQLite database under
the user's cache directory (:func:`cache_path`), keyed by path, size and modification time: an
unchanged file costs one ``stat``; a grown one is read on from the byte offset the cache holds;
anything else is read again. A session's row adds up its main log and its sub-agent logs; a
call a sub-agent log replays from the main log (Claude Code's compaction summariser does) counts
once, as in one read of the whole session. A sub-agent log's digest is cached with what the
logs before it had counted when it was read: replays repeat calls made before them, so that
does not go stale.

The first run over a large home reads every log once; :meth:`SessionIndex.rows` hands each row
to a callback as soon as it is known, so a caller can show progress. Nothing here sleeps or
watches files: the browser's worker calls :meth:`SessionIndex.rows` again when a file changes.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final

from .adapters.opencode_db import Stamp, change_stamps, log_stat
from .agent_homes import agent_of_log
from .homes import SessionLog
from .model_info import context_window, refined_trigger
from .session_digest import DIGEST_VERSION, LogDigest, read_digest

CACHE_ENV: Final = "CTXSCOPE_CACHE_DIR"
"""Overrides where the cache lives (tests, read-only homes)."""

CACHE_FILE: Final = "sessions.sqlite3"

SCHEMA_VERSION: Final = 1
"""With :data:`~ctxscope.core.session_digest.DIGEST_VERSION`, the cache's ``user_version``: a
cache written under other versions is dropped and rebuilt."""

LIVE_SECONDS: Final = 120.0
"""A session whose log was written this recently is marked live."""

_SCHEMA: Final = "CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, digest BLOB)"

_WRITE_BATCH: Final = 64
"""Digests written to the cache per transaction while a first run reads."""


def cache_path(environ: Mapping[str, str] | None = None) -> str:
    """``$CTXSCOPE_CACHE_DIR/sessions.sqlite3``, else under ``$XDG_CACHE_HOME/ctxscope``, else
    ``~/.cache/ctxscope``."""
    env = os.environ if environ is None else environ
    folder = env.get(CACHE_ENV, "")
    if not folder:
        base = env.get("XDG_CACHE_HOME", "") or os.path.join(
            env.get("HOME") or os.path.expanduser("~"), ".cache"
        )
        folder = os.path.join(base, "ctxscope")
    return os.path.join(folder, CACHE_FILE)


@dataclass(frozen=True, slots=True)
class ExportFigures:
    """What ``ctxscope sessions --export`` publishes beyond a row's columns (the rows of an index
    opened with ``export=True``).

    Attributes:
        estimate: ctxscope's raw estimate of the main agent's latest call with a reported
            prompt, and that prompt (None when not known).
        logs: The session's logs, main first, each with its digest (whose
            :meth:`~ctxscope.core.session_digest.LogDigest.call_points` are its calls).
    """

    estimate: tuple[int, int] | None
    logs: tuple[tuple[str, LogDigest], ...]


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One session in the list.

    Attributes:
        path: The session's main log.
        agent: The agent whose home it is in, else the agent its file name or format belongs to
            (:func:`~ctxscope.core.agent_homes.agent_of_log`; '' when neither says).
        format: The log format.
        session_id: The agent's session id.
        project: The working directory the agent ran in.
        model: The model of the last call.
        started: The first timestamp in the log (ISO-8601), '' when it has none.
        last_activity: When any of the session's logs was last written (seconds since the epoch).
        calls: Model calls, sub-agents included.
        context: Recorded context of the main agent's last call (the prompt tokens the provider
            reported), None before any call with usage.
        peak: The largest recorded context of a main-agent call.
        window: The context window: the one the log states, else the model's
            (:func:`~ctxscope.core.model_info.context_window`); None when neither is known.
        compactions: Compactions the agents reported.
        subagents: Sub-agent logs and inline sub-agents.
        chats: Chat sessions the log holds when it holds several side by side (Aider writes every
            chat of a project into one history; each is its own scope and none is a sub-agent),
            else 0. ``context`` and ``peak`` are then the newest chat's, ``calls`` every chat's.
        cost: Estimated dollars of the priced calls (see :mod:`ctxscope.core.pricing`), None when
            no call could be priced.
        unpriced: Calls with usage whose model has no price.
        live: The session's logs were written in the last :data:`LIVE_SECONDS`.
        last_compaction: (tokens before, tokens after) of the main agent's latest compaction.
        trigger: Where the main agent compacts by itself
            (:func:`~ctxscope.core.model_info.compaction_trigger`), None when not known.
        cached: Prompt tokens of the main agent's last call read from the provider's cache.
        tokens_freed: Tokens the main agent's compactions took out of the context.
        problem: Why the log could not be read ('' when it could).
        export: What the export publishes beyond these columns (None unless the index was
            opened with ``export=True``); not part of the row's JSON or of its equality.
    """

    path: str
    agent: str
    format: str
    session_id: str
    project: str
    model: str
    started: str
    last_activity: float
    calls: int
    context: int | None
    peak: int | None
    window: int | None
    compactions: int
    subagents: int
    cost: float | None
    unpriced: int
    live: bool
    last_compaction: tuple[int | None, int | None] | None = None
    trigger: int | None = None
    cached: int | None = None
    tokens_freed: int = 0
    chats: int = 0
    problem: str = ""
    export: ExportFigures | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The row as JSON-ready data (``ctxscope sessions --json``)."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "export"}
        data["last_activity"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.last_activity))
        data["last_compaction"] = (
            None
            if self.last_compaction is None
            else {"before": self.last_compaction[0], "after": self.last_compaction[1]}
        )
        return data


def make_row(
    log: SessionLog,
    main: LogDigest,
    subagents: Sequence[LogDigest],
    mtime: float,
    now: float,
    *,
    export: ExportFigures | None = None,
) -> SessionRow:
    """The row of a session from the digests of its main log and of the other logs that belong
    to it (sub-agents and helpers)."""
    calls = main.calls + sum(d.calls for d in subagents)
    priced_any = any(d.cost or (d.calls and not d.unpriced) for d in (main, *subagents))
    cost = main.cost + sum(d.cost for d in subagents)
    agent = log.agent or agent_of_log(log.path, main.format)
    window = context_window(main.model, log_window=main.window, largest_prompt=main.peak)
    return SessionRow(
        path=log.path,
        agent=agent,
        format=main.format,
        session_id=main.session_id,
        project=main.cwd,
        model=main.model,
        started=main.started,
        last_activity=mtime,
        calls=calls,
        context=main.context,
        peak=main.peak,
        window=window,
        compactions=main.compactions + sum(d.compactions for d in subagents),
        subagents=len(log.subagents) + len(main.scopes),
        chats=1 + len(main.chats) if main.chats else 0,
        cost=cost if priced_any else None,
        unpriced=main.unpriced + sum(d.unpriced for d in subagents),
        live=now - mtime <= LIVE_SECONDS,
        last_compaction=main.last_compaction,
        trigger=refined_trigger(agent, window, main.trigger_seen, model=main.model) if window else None,
        cached=main.cached,
        tokens_freed=main.tokens_freed,
        problem=main.problem,
        export=export,
    )


def export_figures(logs: Sequence[tuple[str, LogDigest]]) -> ExportFigures:
    """A session's :class:`ExportFigures` from its logs' digests (main first)."""
    main = logs[0][1]
    known = main.estimate is not None and main.estimate_of
    return ExportFigures((main.estimate or 0, main.estimate_of or 0) if known else None, tuple(logs))


RowCallback = Callable[[SessionRow, int, int], None]
"""Called with each row as it is known, its position and the number of sessions."""


class SessionIndex:
    """Session rows from logs, with every log's digest cached in SQLite.

    Args:
        path: The cache database (default: :func:`cache_path`); ``:memory:`` keeps nothing.
        clock: Seconds since the epoch now (for the live marker; tests pass their own).
        export: Keep what ``ctxscope sessions --export`` publishes (every call's prompt and
            model, the main agent's running estimate; see
            :mod:`~ctxscope.core.session_digest`): rows carry :class:`ExportFigures`, and a
            cached digest read without them is read again from the start once.

    One index is used from one thread at a time (the browser's worker owns it).
    """

    def __init__(
        self, path: str | None = None, *, clock: Callable[[], float] = time.time, export: bool = False
    ) -> None:
        self.path = path or cache_path()
        self.clock = clock
        self.export = export
        self._db = self._connect(self.path)
        self._known: dict[str, tuple[int, int, bytes]] | None = None
        self._digests: dict[str, LogDigest] = {}
        self._pending: list[tuple[str, int, int, bytes]] = []
        self.reads = 0
        """Log files read (wholly or from an offset) by this index so far."""

    @staticmethod
    def _connect(path: str) -> sqlite3.Connection:
        if path != ":memory:":
            try:
                os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            except OSError:
                path = ":memory:"
        try:
            db = sqlite3.connect(path, timeout=5.0, check_same_thread=False)
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError:
            db = sqlite3.connect(":memory:", check_same_thread=False)
            version = 0
        wanted = SCHEMA_VERSION * 1000 + DIGEST_VERSION
        if version != wanted:
            with db:
                db.execute("DROP TABLE IF EXISTS files")
                db.execute(_SCHEMA)
                db.execute(f"PRAGMA user_version = {wanted}")
        with contextlib.suppress(sqlite3.DatabaseError):
            db.execute("PRAGMA journal_mode = WAL")
        return db

    def close(self) -> None:
        self.flush()
        self._db.close()

    def __enter__(self) -> SessionIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the cache --------------------------------------------------------------------------------

    def _load(self) -> dict[str, tuple[int, int, bytes]]:
        if self._known is None:
            self._known = {
                path: (size, mtime, bytes(blob))
                for path, size, mtime, blob in self._db.execute(
                    "SELECT path, size, mtime_ns, digest FROM files"
                )
            }
        return self._known

    def flush(self) -> None:
        """Write the digests read since the last flush to the cache."""
        if self._pending:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO files (path, size, mtime_ns, digest) VALUES (?, ?, ?, ?)",
                    self._pending,
                )
            self._pending.clear()

    def digest(
        self,
        path: str,
        stat: os.stat_result | None = None,
        counted: Iterable[int] = (),
        *,
        main: bool = True,
        key: tuple[int, int] | None = None,
    ) -> LogDigest:
        """A log file's digest: from the cache when its size and mtime are unchanged, else read
        (on from the cached offset when the file only grew) and cached.

        ``counted`` are hashes of calls the session's other logs counted, which this log does
        not count again (see :func:`~ctxscope.core.session_digest.read_digest`); ``main`` says
        the log is a session's main log (an exporting index keeps its running estimate). ``key``
        replaces (size, mtime) as what must be unchanged: a session of an OpenCode database
        is keyed by its own rows (:func:`~ctxscope.core.adapters.opencode_db.change_stamps`),
        since a write to any session changes the file.
        """
        if stat is None:
            try:
                stat = os.stat(path)
            except OSError as exc:
                return LogDigest(problem=f"cannot read: {exc.strerror or exc}")
        known = self._load()
        cached = known.get(path)
        held = self._digests.get(path)
        if held is None and cached is not None:
            held = LogDigest.load(cached[2])
        export, estimate = self.export, self.export and main
        size, mtime_ns = key or (stat.st_size, stat.st_mtime_ns)
        unchanged = cached is not None and cached[:2] == (size, mtime_ns)
        # An unchanged log with no call has nothing to estimate yet.
        lacks = held is not None and held.lacks(export=export, estimate=estimate and held.calls > 0)
        if held is not None and unchanged and not lacks:
            self._digests[path] = held
            return held
        digest = read_digest(path, held, counted, export=export, estimate=estimate)
        self.reads += 1
        blob = digest.to_json()
        known[path] = (size, mtime_ns, blob)
        self._digests[path] = digest
        self._pending.append((path, size, mtime_ns, blob))
        if len(self._pending) >= _WRITE_BATCH:
            self.flush()
        return digest

    # -- rows ---------------------------------------------------------------------------------------

    def row(self, log: SessionLog, stamps: Mapping[str, Stamp] | None = None) -> SessionRow | None:
        """The row of one session, or None when its log is in no known format (not a session).

        ``stamps`` are the change stamps of the OpenCode database sessions being looked at
        (:func:`~ctxscope.core.adapters.opencode_db.change_stamps` of them all, read over one
        connection per database); None reads this session's own.
        """
        try:
            stat = log_stat(log.path)
        except OSError:
            return None
        stamp = (change_stamps([log.path]) if stamps is None else stamps).get(log.path)
        main = self.digest(log.path, stat, key=stamp)
        if not main.format and not main.problem:
            return None
        mtime = stamp[1] / 1000 if stamp is not None else stat.st_mtime
        logs = [(log.path, main)]
        counted = list(main.call_ids)
        for path in log.files[1:]:
            try:
                sub_stat = os.stat(path)
            except OSError:  # gone since it was listed
                continue
            sub = self.digest(path, sub_stat, counted, main=False)
            logs.append((path, sub))
            counted += sub.call_ids
            mtime = max(mtime, sub_stat.st_mtime)
        subagents = [digest for _, digest in logs[1:]]
        export = export_figures(logs) if self.export else None
        return make_row(log, main, subagents, mtime, self.clock(), export=export)

    def rows(self, logs: Iterable[SessionLog], on_row: RowCallback | None = None) -> list[SessionRow]:
        """Rows of every session log, newest activity first.

        Args:
            logs: The sessions (from :func:`~ctxscope.core.homes.discover`).
            on_row: Called with each row as soon as it is known (progress on a first run).
        """
        listed = list(logs)
        stamps = change_stamps(log.path for log in listed)
        found: list[SessionRow] = []
        try:
            for position, log in enumerate(listed):
                row = self.row(log, stamps)
                if row is not None:
                    found.append(row)
                    if on_row is not None:
                        on_row(row, position, len(listed))
        finally:
            self.flush()
        self.prune(path for log in listed for path in log.files)
        return sort_rows(found)

    def cached_paths(self) -> set[str]:
        """The logs the cache holds a digest of."""
        return set(self._load())

    def prune(self, seen: Iterable[str]) -> int:
        """Forget the cached digests of logs that no longer exist (those in ``seen`` do);
        returns how many were forgotten."""
        known = self._load()
        listed = set(seen)
        gone = [path for path in known if path not in listed and not os.path.exists(path)]
        if gone:
            with self._db:
                self._db.executemany("DELETE FROM files WHERE path = ?", [(path,) for path in gone])
            for path in gone:
                known.pop(path, None)
                self._digests.pop(path, None)
        return len(gone)


SORT_KEYS: Final[dict[str, Callable[[SessionRow], Any]]] = {
    "agent": lambda r: r.agent or r.format,
    "project": lambda r: r.project,
    "model": lambda r: r.model,
    "started": lambda r: r.started,
    "last": lambda r: r.last_activity,
    "calls": lambda r: r.calls,
    "context": lambda r: r.context or 0,
    "peak": lambda r: r.peak or 0,
    "compactions": lambda r: r.compactions,
    "subagents": lambda r: r.subagents,
    "cost": lambda r: r.cost or 0.0,
}
"""How rows sort by each column."""


def sort_rows(rows: Iterable[SessionRow], key: str = "last", descending: bool = True) -> list[SessionRow]:
    """Rows sorted by a :data:`SORT_KEYS` column (newest activity first by default); ties keep
    newest first."""
    by_time = sorted(rows, key=SORT_KEYS["last"], reverse=True)
    if key == "last" and descending:
        return by_time
    return sorted(by_time, key=SORT_KEYS[key], reverse=descending)


def matches(row: SessionRow, needle: str) -> bool:
    """The row's agent, format, project, model, session id or path contains ``needle`` (any case)."""
    if not needle:
        return True
    text = " ".join((row.agent, row.format, row.project, row.model, row.session_id, row.path)).lower()
    return all(word in text for word in needle.lower().split())
