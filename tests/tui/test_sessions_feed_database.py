"""The session list re-reads an OpenCode database's rows when a commit lands in the database or
its ``-wal`` file (the file watcher names those files, not the ``opencode.db#ses_…`` rows)."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

from ctxscope.core.sessions_index import SessionIndex
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
