"""OpenCode's SQLite session store, ``~/.local/share/opencode/opencode.db``.

Current OpenCode (1.x) keeps every session of every project in one database (WAL mode). Its
schema (``packages/opencode/src/session/session.sql.ts``; the tables below as OpenCode 1.18.33
created them) holds the records an ``opencode export`` document is made of:

* ``session``: ``id``, ``project_id``, ``parent_id`` (the session whose ``task`` tool started
  this one), ``slug``, ``directory``, ``title``, ``version``, ``time_created``,
  ``time_updated`` (milliseconds), and running totals;
* ``message``: ``id``, ``session_id``, times, and ``data``: the JSON of the message's info
  without its ids (``role``, ``modelID``, ``tokens``, ``summary`` …);
* ``part``: ``id``, ``message_id``, ``session_id``, times, and ``data``: the JSON of the part
  without its ids (``type``, ``text``, ``state``, ``tokens`` …).

One session is rebuilt as an export's ``{info, messages: [{info, parts}]}`` (each message's
``data`` with ``id`` and ``sessionID`` put back, each part's with ``id``, ``sessionID`` and
``messageID``, in id order as ``opencode export`` lists them) and read by the export reader, so
its figures are the export's; its sub-agent sessions become scopes of their own, as in the JSON
storage.

**Naming a session.** A path to the database opens its most recently updated session that has
no parent, and says so in a notice; ``PATH#SESSION_ID`` (:func:`session_address`) names one
session of the file (the session list's rows are such addresses). Naming a database's format
(:func:`database_format`) reads its schema and ``session`` table only, not the session.

**Read-only.** The file is opened with a ``mode=ro`` URI and ``PRAGMA query_only``, inside one
read transaction: nothing is written, and in WAL mode a reader takes no lock that blocks the
agent's writer, so a database that a running OpenCode is writing is read as of its last commit.
When no ``-wal`` or ``-journal`` file is beside it (no OpenCode has it open), it is opened
``immutable`` as well: SQLite would otherwise create the ``-shm`` and ``-wal`` files of a WAL
database even for a read-only connection. Should OpenCode start writing during that read, what
SQLite reports (a malformed page) refuses this read, and the next one sees the ``-wal`` file.
Rows whose ``data`` is not a JSON object are skipped and counted among the session's problems; a
file that is not a database, is corrupt, truncated or locked is refused with SQLite's reason.

**Live.** :func:`change_key` is the pair of the database's and its ``-wal`` file's (size, mtime):
a follower that polls reads the session again when either changed (OpenCode commits to the
``-wal`` file, and only a checkpoint touches the database itself). The session list keys a
session's row by :func:`change_stamps` instead (its own rows' count and newest ``time_updated``),
so a write to one session does not read every session of the file again; one connection
stamps every session of the file a refresh looks at, and :func:`session_stamps` lists the file's
sessions with their stamps (a commit re-lists that file alone).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ..files import open_regular
from ..logformat import FormatError
from ..session import Session
from ._common import short
from .opencode import FORMAT, MAX_CHILD_DEPTH, add_skipped, read_tree

SQLITE_MAGIC: Final = b"SQLite format 3\x00"
ADDRESS_MARK: Final = "#"
SESSION_ID: Final = re.compile(r"ses_[A-Za-z0-9]{1,100}")
MAX_ROWS: Final = 200_000
"""At most this many message and part rows are read for one session tree."""
BUSY_TIMEOUT: Final = 2.0
"""Seconds a read waits for a lock (only a rollback-journal writer can hold one against it)."""


def split_address(path: str) -> tuple[str, str | None]:
    """(the database file, the session id) of ``FILE#SESSION_ID``; (path, None) for any other path
    (a file whose own name holds ``#`` stays a file)."""
    file, mark, session_id = path.rpartition(ADDRESS_MARK)
    if mark and file and SESSION_ID.fullmatch(session_id) and not os.path.exists(path):
        return file, session_id
    return path, None


def session_address(file: str, session_id: str) -> str:
    """The path naming one session of a database (:func:`split_address` reads it back)."""
    return f"{file}{ADDRESS_MARK}{session_id}"


def database_file(path: str) -> str:
    """The file a path or session address reads."""
    return split_address(path)[0]


def database_files(path: str) -> tuple[str, ...]:
    """The database's file and its ``-wal`` file, when a path or address names a database (a
    watcher's filter: a commit lands in the ``-wal`` file); () for any other path."""
    file = database_file(path)
    return (file, f"{file}-wal") if is_database(path) else ()


def is_database(path: str) -> bool:
    """Whether the file a path or session address names starts like an SQLite database."""
    try:
        with open_regular(database_file(path)) as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def change_key(path: str) -> tuple[int, int, int, int]:
    """(size, mtime_ns) of the database and of its ``-wal`` file ((0, 0) when there is none).

    Raises:
        OSError: The database cannot be stat'ed.
    """
    file = database_file(path)
    stat = os.stat(file)
    try:
        wal = os.stat(file + "-wal")
        wal_key = (wal.st_size, wal.st_mtime_ns)
    except OSError:
        wal_key = (0, 0)
    return (stat.st_size, stat.st_mtime_ns, *wal_key)


def last_change_ns(path: str) -> int:
    """When the database or its ``-wal`` file was last written (0 when it cannot be stat'ed)."""
    try:
        key = change_key(path)
    except OSError:
        return 0
    return max(key[1], key[3])


def log_stat(path: str) -> os.stat_result:
    """``os.stat`` of a log; for a database (``*.db``) or one of its sessions, of the database or
    of its ``-wal`` file, whichever was written last (a digest cached by size and mtime must go
    stale when either is written).

    Raises:
        OSError: The file cannot be stat'ed.
    """
    file = database_file(path)
    found = os.stat(file)
    if file != path or file.endswith(".db"):
        with contextlib.suppress(OSError):
            wal = os.stat(file + "-wal")
            if wal.st_mtime_ns > found.st_mtime_ns:
                return wal
    return found


STAMP_SQL: Final = """
WITH RECURSIVE tree(id, depth) AS (
    SELECT id, 0 FROM session WHERE id = ?
    UNION SELECT session.id, tree.depth + 1 FROM session JOIN tree ON session.parent_id = tree.id
    WHERE tree.depth < ?
)
SELECT
    (SELECT count(*) FROM tree)
    + (SELECT count(*) FROM message WHERE session_id IN (SELECT id FROM tree))
    + (SELECT count(*) FROM part WHERE session_id IN (SELECT id FROM tree)),
    max(
        (SELECT coalesce(max(time_updated), 0) FROM session WHERE id IN (SELECT id FROM tree)),
        (SELECT coalesce(max(time_updated), 0) FROM message WHERE session_id IN (SELECT id FROM tree)),
        (SELECT coalesce(max(time_updated), 0) FROM part WHERE session_id IN (SELECT id FROM tree))
    )
"""


Stamp = tuple[int, int]
"""(rows, newest ``time_updated`` in ms) of a session tree: see :func:`change_stamps`."""


def _stamp(connection: sqlite3.Connection, session_id: str) -> Stamp | None:
    rows, newest = connection.execute(STAMP_SQL, (session_id, MAX_CHILD_DEPTH)).fetchone()
    return (rows, newest) if isinstance(rows, int) and isinstance(newest, int) else None


def session_stamps(file: str, session_ids: Iterable[str] | None = None) -> dict[str, Stamp | None] | None:
    """The stamps of sessions of one database by their addresses, read over one connection: of
    ``session_ids``, or of every session without a parent when None (a listing of the database's
    sessions, the most recently updated first; one the database cannot stamp, with odd values,
    is listed with None). None when the database cannot be read."""
    try:
        with reading(file) as connection:
            if session_ids is None:
                session_ids = [s.id for s in stored_sessions(connection) if s.parent_id is None]
            return {session_address(file, i): _stamp(connection, i) for i in session_ids}
    except FormatError:
        return None


def change_stamps(paths: Iterable[str]) -> dict[str, Stamp]:
    """(rows, newest ``time_updated`` in ms) over each session an address among ``paths`` names and
    its sub-agent sessions: their ``session``, ``message`` and ``part`` rows, read over one
    connection per database. OpenCode bumps a row's ``time_updated`` whenever it writes it, so a
    stamp changes exactly when its session does (a write to another session of the file leaves it
    alone). Other paths, and the sessions of a database that cannot be read, are left out."""
    wanted: dict[str, list[str]] = {}
    for path in paths:
        file, session_id = split_address(path)
        if session_id is not None:
            wanted.setdefault(file, []).append(session_id)
    found: dict[str, Stamp] = {}
    for file, session_ids in wanted.items():
        stamps = session_stamps(file, session_ids) or {}
        found.update((address, stamp) for address, stamp in stamps.items() if stamp is not None)
    return found


def _refusal(file: str, exc: sqlite3.Error) -> FormatError:
    name = short(os.path.basename(file), 80)
    return FormatError(f"cannot read the OpenCode database {name}: {short(exc, 200)}")


def _decoded(value: bytes) -> str:
    """A TEXT value as a string, invalid UTF-8 replaced (shown as U+FFFD)."""
    return value.decode("utf-8", errors="replace")


@contextlib.contextmanager
def reading(file: str) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the database, inside one read transaction.

    Raises:
        FormatError: SQLite cannot open or read the file (corrupt, not a database, locked).
    """
    uri = f"file:{urllib.parse.quote(os.path.abspath(file))}?mode=ro"
    if not any(os.path.exists(file + suffix) for suffix in ("-wal", "-journal")):
        uri += "&immutable=1"  # no writer: read the file alone, creating no -shm or -wal beside it
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
    except sqlite3.Error as exc:
        raise _refusal(file, exc) from None
    connection.text_factory = _decoded  # a bad byte in one title or part must not refuse the file
    try:
        connection.execute("PRAGMA query_only = ON")
        connection.execute("BEGIN")
        yield connection
    except sqlite3.Error as exc:
        raise _refusal(file, exc) from None
    finally:
        connection.close()


@dataclass(frozen=True, slots=True)
class StoredSession:
    """One row of the ``session`` table."""

    id: str
    parent_id: str | None
    project_id: str
    slug: str
    directory: str
    title: str
    version: str
    created: int
    updated: int

    def info(self) -> dict[str, Any]:
        """The session's info as ``opencode export`` writes it (the fields the reader uses)."""
        info: dict[str, Any] = {
            "id": self.id,
            "slug": self.slug,
            "projectID": self.project_id,
            "directory": self.directory,
            "title": self.title,
            "version": self.version,
            "time": {"created": self.created, "updated": self.updated},
        }
        if self.parent_id:
            info["parentID"] = self.parent_id
        return info


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


SESSION_COLUMNS: Final = (
    "id, parent_id, project_id, slug, directory, title, version, time_created, time_updated"
)


def stored_sessions(connection: sqlite3.Connection) -> list[StoredSession]:
    """Every session of the database, the most recently updated first."""
    rows = connection.execute(f"SELECT {SESSION_COLUMNS} FROM session ORDER BY time_updated DESC, id DESC")
    found = []
    for row in rows:
        if not isinstance(row[0], str):
            continue
        project, slug, directory, title, version = (_text(value) for value in row[2:7])
        parent = row[1] if isinstance(row[1], str) and row[1] else None
        found.append(
            StoredSession(
                row[0], parent, project, slug, directory, title, version, _int(row[7]), _int(row[8])
            )
        )
    return found


def root_sessions(path: str) -> list[StoredSession]:
    """The sessions without a parent of a database, the most recently updated first (none when it
    cannot be read)."""
    try:
        with reading(database_file(path)) as connection:
            return [s for s in stored_sessions(connection) if s.parent_id is None]
    except FormatError:
        return []


SESSION_TABLES: Final = frozenset({"session", "message", "part"})
"""The tables a session is read from: a database without them is not OpenCode's."""

COLUMNS_SQL: Final = (
    f"SELECT {SESSION_COLUMNS} FROM session LIMIT 0",
    "SELECT id, session_id, data FROM message LIMIT 0",
    "SELECT id, session_id, message_id, data FROM part LIMIT 0",
)
"""Queries naming every column a session is read from (they read no row)."""


def database_format(path: str) -> str:
    """The format of a database a path or session address names, known from its schema and its
    ``session`` table alone (no message or part is read): what naming the format of a log costs,
    when opening the session reads it anyway.

    Raises:
        FormatError: The database cannot be read, has no OpenCode tables, or holds no such
            session (or none yet), as :func:`read_database` would refuse it.
    """
    file, wanted = split_address(path)
    name = short(os.path.basename(file), 80)
    with reading(file) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not SESSION_TABLES.issubset(tables):
            raise FormatError(f"an SQLite database without OpenCode's session tables: {name}")
        for query in COLUMNS_SQL:  # a missing column is refused as read_database refuses it
            connection.execute(query)
        choose(stored_sessions(connection), wanted, file)
    return FORMAT


class Rows:
    """Reads one session tree's messages and parts from an open database."""

    def __init__(self, connection: sqlite3.Connection, sessions: list[StoredSession]) -> None:
        self.connection = connection
        self.sessions = sessions
        self.rows = 0
        self.bad: list[str] = []
        """Rows whose ``data`` is not a JSON object (skipped)."""

    def _data(self, table: str, row_id: Any, data: Any) -> dict[str, Any] | None:
        try:
            value = orjson.loads(data) if isinstance(data, (str, bytes)) else None
        except orjson.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return value
        self.bad.append(f"the data of {table} {short(str(row_id), 60)}")
        return None

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        """``{info, parts}`` records of a session, in id order (the shape of an export)."""
        parts: dict[str, list[dict[str, Any]]] = {}
        for part_id, message_id, data in self.connection.execute(
            "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id",
            (session_id,),
        ):
            self.rows += 1
            if self.rows > MAX_ROWS:
                break
            part = self._data("part", part_id, data)
            if part is not None:
                part.update(id=part_id, sessionID=session_id, messageID=message_id)
                parts.setdefault(str(message_id), []).append(part)
        records: list[dict[str, Any]] = []
        for message_id, data in self.connection.execute(
            "SELECT id, data FROM message WHERE session_id = ? ORDER BY id", (session_id,)
        ):
            self.rows += 1
            if self.rows > MAX_ROWS:
                break
            info = self._data("message", message_id, data)
            if info is not None:
                info.update(id=message_id, sessionID=session_id)
                records.append({"info": info, "parts": parts.get(str(message_id), [])})
        return records

    def children(self, session_id: str) -> list[dict[str, Any]]:
        """The infos of the sessions whose parent is ``session_id``, oldest first."""
        found = [s for s in self.sessions if s.parent_id == session_id]
        return [s.info() for s in sorted(found, key=lambda s: (s.created, s.id))]


def choose(sessions: list[StoredSession], wanted: str | None, file: str) -> tuple[StoredSession, str]:
    """The session to open and, when the path named none, the notice saying which was opened.

    Raises:
        FormatError: The named session is not in the database, or it has no session.
    """
    if wanted is not None:
        for stored in sessions:
            if stored.id == wanted:
                return stored, ""
        raise FormatError(f"no session {wanted} in the OpenCode database {short(os.path.basename(file), 80)}")
    roots = [s for s in sessions if s.parent_id is None]
    if not roots:
        raise FormatError("an OpenCode database without sessions (yet)")
    newest = roots[0]
    count = len(roots)
    which = "its only session" if count == 1 else f"the most recently updated of its {count} sessions"
    notice = (
        f"opened {which}, {short(newest.id, 100)} ({short(newest.title, 60)!r}); "
        f"name one as PATH{ADDRESS_MARK}SESSION_ID"
    )
    return newest, notice


def session_state(path: str) -> tuple[str, Stamp] | None:
    """The session ``path`` opens (the one it names, else the most recently updated) and its
    :func:`change_stamps` stamp, read in one transaction: what a live reader compares to know whether the
    session it follows changed, so a write to another session of the file costs no re-read (None
    when the database cannot say)."""
    file, wanted = split_address(path)
    try:
        with reading(file) as connection:
            chosen, _ = choose(stored_sessions(connection), wanted, file)
            stamp = _stamp(connection, chosen.id)
    except FormatError:
        return None
    return None if stamp is None else (chosen.id, stamp)


def read_database(session: Session, path: str) -> None:
    """One session of an OpenCode database (the one ``path`` names, else the most recently
    updated), with its sub-agent sessions as scopes.

    Raises:
        FormatError: The database cannot be read, or holds no such session.
    """
    file, wanted = split_address(path)
    session.format = FORMAT
    with reading(file) as connection:
        sessions = stored_sessions(connection)
        chosen, notice = choose(sessions, wanted, file)
        if notice:
            session.problems.add("chosen", 0, notice)
        rows = Rows(connection, sessions)
        read_tree(session, chosen.info(), rows.messages, rows.children)
    add_skipped(session, rows.bad, "rows")
    if rows.rows > MAX_ROWS:
        session.problems.add("oversize", 0, f"more than {MAX_ROWS} message and part rows; the rest skipped")
