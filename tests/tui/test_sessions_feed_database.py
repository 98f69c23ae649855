"""The session list re-reads an OpenCode database's rows when a commit lands in the database or
its ``-wal`` file (the file watcher names those files, not the ``opencode.db#ses_…`` rows): it
lists that database alone again, over one connection, and no other home."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from ctxscope.core.adapters import opencode_db
from ctxscope.core.homes import discover
from ctxscope.core.sessions_index import SessionIndex
from ctxscope.tui import sessions_feed
from ctxscope.tui.sessions_feed import SessionsFeed
from textual.message import Message

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "agents" / "opencode" / "session.opencode.db"


def test_a_commit_to_the_database_re_reads_its_rows(tmp_path: Path) -> None:
    data = tmp_path / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    db = data / "opencode.db"
    shutil.copy(FIXTURE, db)
    posted: list[Message] = []
    feed = SessionsFeed(posted.append, homes=True, open_index=lambda: SessionIndex(":memory:"),
                        environ={"HOME": str(tmp_path)})
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as writer:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        feed._first_rows()
        assert [row.calls for row in feed.rows.values()] == [7]
        writer.execute("DELETE FROM message WHERE data LIKE '%compaction%'")  # lands in the -wal file
        posted.clear()
        feed._refresh({f"{db}-wal"})
        rows = [row for message in posted for row in getattr(message, "rows", ())]
        assert [row.calls for row in rows] == [6]
        assert [row.calls for row in feed.rows.values()] == [6]


COLUMNS = "project_id, slug, directory, title, version, time_created, time_updated"
MAIN_ID = "ses_dca87eb08ffehZ00fd5peXoWuX"


def test_a_commit_re_lists_that_database_alone_over_one_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    db = data / "opencode.db"
    shutil.copy(FIXTURE, db)
    opened: list[str] = []
    reading = opencode_db.reading

    @contextlib.contextmanager
    def counted(file: str) -> Iterator[sqlite3.Connection]:
        opened.append(file)
        with reading(file) as connection:
            yield connection

    listings: list[object] = []
    monkeypatch.setattr(opencode_db, "reading", counted)
    monkeypatch.setattr(sessions_feed, "discover", lambda *a, **k: listings.append(a) or discover(*a, **k))
    posted: list[Message] = []
    feed = SessionsFeed(posted.append, homes=True, open_index=lambda: SessionIndex(":memory:"),
                        environ={"HOME": str(tmp_path)})
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as writer:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        for n in range(4):
            writer.execute(
                f"INSERT INTO session (id, {COLUMNS}) SELECT ?, {COLUMNS} FROM session WHERE id = ?",
                (f"ses_other{n}", MAIN_ID),
            )
        feed._first_rows()
        assert len(feed.rows) == 5
        listings.clear()
        opened.clear()
        writer.execute(
            "UPDATE session SET title = 'renamed', time_updated = time_updated + 1 WHERE id = 'ses_other1'"
        )
        feed._refresh({f"{db}-wal"})
        # one connection lists and stamps the database's five rows; the renamed session is read
        # (its state, then its rows): never one connection a row, and no home is listed again
        assert (len(opened), listings) == (3, [])
        assert feed.index is not None and feed.index.reads == 6
        writer.execute(
            f"INSERT INTO session (id, {COLUMNS}) SELECT 'ses_new', {COLUMNS} FROM session WHERE id = ?",
            (MAIN_ID,),
        )
        writer.execute("DELETE FROM session WHERE id = 'ses_other2'")
        posted.clear()
        feed._refresh({str(db)})
        assert listings == []
        (message,) = posted
        assert getattr(message, "removed", ()) == (f"{db}#ses_other2",)
        assert sorted(row.rpartition("#")[2] for row in feed.rows) == sorted(
            [MAIN_ID, "ses_new", "ses_other0", "ses_other1", "ses_other3"]
        )
        assert sorted(feed.logs) == sorted(feed.rows)
        assert feed.logs[f"{db}#ses_new"].agent == feed.rows[f"{db}#ses_new"].agent == "opencode"


def test_a_session_the_database_cannot_stamp_stays_listed_after_a_commit(tmp_path: Path) -> None:
    """Found in review: a session whose ``time_updated`` is text (no stamp) was listed by the
    first run but taken for gone at the next commit to its database, and its row removed."""
    data = tmp_path / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    db = data / "opencode.db"
    shutil.copy(FIXTURE, db)
    posted: list[Message] = []
    feed = SessionsFeed(posted.append, homes=True, open_index=lambda: SessionIndex(":memory:"),
                        environ={"HOME": str(tmp_path)})
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as writer:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute(
            f"INSERT INTO session (id, {COLUMNS}) SELECT 'ses_odd', {COLUMNS} FROM session WHERE id = ?",
            (MAIN_ID,),
        )
        writer.execute("UPDATE session SET time_updated = 'soon' WHERE id = 'ses_odd'")
        feed._first_rows()
        assert f"{db}#ses_odd" in feed.rows
        writer.execute("UPDATE session SET title = 'renamed' WHERE id = ?", (MAIN_ID,))
        posted.clear()
        feed._refresh({f"{db}-wal"})
        assert all(getattr(message, "removed", ()) == () for message in posted)
        assert f"{db}#ses_odd" in feed.rows and f"{db}#ses_odd" in feed.logs
