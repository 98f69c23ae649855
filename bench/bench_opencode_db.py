#!/usr/bin/env python3
"""OpenCode's SQLite store: reading one session from ``opencode.db`` against reading the same
session as an ``opencode export`` document, and the session list's refresh after one session of
a many-session database changed.

The database is built in a temporary folder from the real fixture
(``tests/fixtures/agents/opencode/session.opencode.db``, written by OpenCode 1.18.33): its main
session's messages and parts are repeated ``--repeat-session`` times (new ids, same data) into one
long session, and ``--sessions`` copies of the fixture's main session are added beside it. The
export is the long session rebuilt from the database, written as JSON. Timings are the best of
``--runs`` runs, in this process, each reported as a ratio to the export read of the same run.

::

    python bench/bench_opencode_db.py
    python bench/bench_opencode_db.py --repeat-session 100 --sessions 500 --json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "agents" / "opencode" / "session.opencode.db"
MAIN_ID = "ses_dca87eb08ffehZ00fd5peXoWuX"
LONG_ID = "ses_benchlongsession0000000"


def copy_rows(connection: sqlite3.Connection, session_id: str, suffix: str) -> None:
    """The main session's messages and parts again, in ``session_id``, their ids ending ``suffix``."""
    connection.execute(
        "INSERT INTO message (id, session_id, time_created, time_updated, data) "
        "SELECT id || ?, ?, time_created, time_updated, data FROM message WHERE session_id = ?",
        (suffix, session_id, MAIN_ID),
    )
    connection.execute(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) "
        "SELECT id || ?, message_id || ?, ?, time_created, time_updated, data FROM part "
        "WHERE session_id = ?",
        (suffix, suffix, session_id, MAIN_ID),
    )


def build(folder: Path, repeats: int, sessions: int) -> Path:
    """The scaled database (see the module docs)."""
    data = folder / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    db = data / "opencode.db"
    shutil.copyfile(FIXTURE, db)
    columns = "project_id, slug, directory, title, version, time_created, time_updated"
    with contextlib.closing(sqlite3.connect(db)) as connection:
        connection.execute(
            f"INSERT INTO session (id, {columns}) SELECT ?, {columns} FROM session WHERE id = ?",
            (LONG_ID, MAIN_ID),
        )
        for copy in range(repeats):
            copy_rows(connection, LONG_ID, f"{copy:05d}")
        for number in range(sessions):
            other = f"ses_benchother{number:012d}"
            connection.execute(
                f"INSERT INTO session (id, {columns}) SELECT ?, {columns} FROM session WHERE id = ?",
                (other, MAIN_ID),
            )
            copy_rows(connection, other, other[-12:])
        connection.commit()
    return db


def export_of(db: Path, folder: Path) -> Path:
    """The long session as an export document (rebuilt from the database's rows)."""
    from ctxscope.core.adapters import opencode_db

    with opencode_db.reading(str(db)) as connection:
        sessions = opencode_db.stored_sessions(connection)
        (long,) = [s for s in sessions if s.id == LONG_ID]
        document = {"info": long.info(), "messages": opencode_db.Rows(connection, sessions).messages(LONG_ID)}
    path = folder / "export.json"
    path.write_text(json.dumps(document))
    return path


def best(runs: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat-session", type=int, default=50, help="copies of the session's messages")
    parser.add_argument("--sessions", type=int, default=200, help="other sessions in the database")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from ctxscope.core.homes import discover
    from ctxscope.core.reader import open_log
    from ctxscope.core.sessions_index import SessionIndex

    with tempfile.TemporaryDirectory(prefix="ctxscope-bench-opencode-") as tmp:
        folder = Path(tmp)
        db = build(folder, args.repeat_session, args.sessions)
        export = export_of(db, folder)
        address = f"{db}#{LONG_ID}"
        via_db, via_export = open_log(address), open_log(export)
        calls = sum(len(scope.requests) for scope in via_db.scopes.values())
        assert calls == sum(len(scope.requests) for scope in via_export.scopes.values())
        export_s = best(args.runs, lambda: open_log(export))
        db_s = best(args.runs, lambda: open_log(address))
        logs = discover(environ={"HOME": tmp})
        with SessionIndex(":memory:") as index:
            start = time.perf_counter()
            index.rows(logs)
            first_s = time.perf_counter() - start
            first_reads = index.reads
            with contextlib.closing(sqlite3.connect(db)) as writer:
                writer.execute("UPDATE session SET time_updated = time_updated + 1 WHERE id = ?", (LONG_ID,))
                writer.commit()
            start = time.perf_counter()
            index.rows(logs)
            refresh_s = time.perf_counter() - start
            refresh_reads = index.reads - first_reads
        result = {
            "calls_in_session": calls,
            "sessions_listed": len(logs),
            "db_bytes": os.path.getsize(db),
            "export_bytes": os.path.getsize(export),
            "export_read_s": round(export_s, 4),
            "db_read_s": round(db_s, 4),
            "db_over_export": round(db_s / export_s, 2),
            "list_first_s": round(first_s, 3),
            "list_first_reads": first_reads,
            "list_refresh_s": round(refresh_s, 3),
            "list_refresh_reads": refresh_reads,
            "refresh_over_first": round(refresh_s / first_s, 3),
            "load": os.getloadavg()[0],
        }
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for name, value in result.items():
            print(f"{name:20} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
