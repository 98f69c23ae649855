"""OpenCode's SQLite store: ``session.opencode.db`` was written by OpenCode 1.18.33 itself
(``make_opencode_db.py`` beside it runs ``opencode run`` against a scripted local model server),
and ``session.export.json`` is ``opencode export`` of its main session from the same run.

Independent count: the ``data`` column of every ``part`` row, read here with the ``sqlite3``
module and ``json``, gives each ``step-finish``; its ``tokens`` give the prompt (``input +
cache.read + cache.write``) and output (``output + reasoning``). Compactions are the message rows
whose data has ``"summary": true``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ctxscope.core.adapters import opencode, opencode_db
from ctxscope.core.agent_homes import agent_of
from ctxscope.core.analysis import analyse
from ctxscope.core.follow import Follower
from ctxscope.core.homes import discover
from ctxscope.core.reader import SessionReader, UnknownFormatError, detect_format, open_log
from ctxscope.core.sessions_index import SessionIndex
from ctxscope.tui.tailer import check_source

from tests.core.agent_fixtures import FIXTURES, assert_figures, figures

FOLDER = FIXTURES / "opencode"
DB = FOLDER / "session.opencode.db"
EXPORT = FOLDER / "session.export.json"
MAIN_ID = "ses_dca87eb08ffehZ00fd5peXoWuX"
CHILD_ID = "ses_dca87d35fffeAlk3O1r5wg3yfl"


def rows(path: Path, sql: str) -> list[Any]:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        return connection.execute(sql).fetchall()


def raw_counts(path: Path) -> dict[str, Any]:
    parts = [json.loads(data) for (data,) in rows(path, "SELECT data FROM part")]
    steps = [p["tokens"] for p in parts if p.get("type") == "step-finish"]
    prompts = [t["input"] + t["cache"]["read"] + t["cache"]["write"] for t in steps]
    messages = [json.loads(data) for (data,) in rows(path, "SELECT data FROM message")]
    return {
        "calls": len(steps),
        "prompt_total": sum(prompts),
        "output_total": sum(t["output"] + t["reasoning"] for t in steps),
        "largest": max(prompts),
        "compactions": sum(1 for m in messages if m.get("summary") is True),
    }


def test_the_database_matches_a_raw_count() -> None:
    session = open_log(DB)
    assert session.format == opencode.FORMAT == detect_format(DB)
    want = raw_counts(DB)
    got = assert_figures(
        session,
        calls=want["calls"],
        calls_with_usage=want["calls"],
        prompt_total=want["prompt_total"],
        output_total=want["output_total"],
        largest_prompt=want["largest"],
        compactions=want["compactions"],
    )
    assert (got.calls, got.prompt_total, got.compactions) == (
        7,
        39_400,
        1,
    )  # what the scripted server reported
    assert set(session.scopes) == {"main", CHILD_ID}
    child = session.scopes[CHILD_ID]
    assert child.header.parent_id == "main"
    assert child.header.label == "count lines (@general subagent)"
    assert [r.usage.prompt_tokens for r in child.requests if r.usage] == [3100, 3300]


def test_the_database_and_the_export_give_the_same_figures() -> None:
    from_db = open_log(DB)
    from_export = open_log(EXPORT)
    db_main, export_main = from_db.scopes["main"], from_export.scopes["main"]
    assert [m.text for m in db_main.messages] == [m.text for m in export_main.messages]
    assert [(r.usage, r.model, r.recorded_cost) for r in db_main.requests] == [
        (r.usage, r.model, r.recorded_cost) for r in export_main.requests
    ]
    db_summary = analyse(from_db).summary().to_json(per_request=True)
    export_summary = analyse(from_export).summary().to_json(per_request=True)
    (export_scope,) = export_summary["scopes"]
    assert db_summary["scopes"][0] == export_scope  # the export holds no sub-agent session
    assert len(db_summary["scopes"]) == 2


def test_a_path_names_the_newest_session_and_says_so() -> None:
    session = open_log(DB)
    (notice,) = session.problems.notices
    assert notice.kind == "chosen"
    assert MAIN_ID in notice.reason and "PATH#SESSION_ID" in notice.reason
    assert figures(open_log(f"{DB}#{MAIN_ID}")) == figures(session)
    assert not open_log(f"{DB}#{MAIN_ID}").problems.notices


def test_a_session_address_opens_that_session_alone() -> None:
    child = open_log(f"{DB}#{CHILD_ID}")
    assert set(child.scopes) == {"main"}
    assert child.scopes["main"].header.session_id == CHILD_ID
    assert figures(child).calls == 2
    with pytest.raises(ValueError, match="no session ses_missing0 in the OpenCode database"):
        open_log(f"{DB}#ses_missing0")


def test_naming_the_format_reads_no_session_and_opening_reads_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    messages = opencode_db.Rows.messages

    def counted(rows: opencode_db.Rows, session_id: str) -> list[dict[str, Any]]:
        reads.append(session_id)
        return messages(rows, session_id)

    monkeypatch.setattr(opencode_db.Rows, "messages", counted)
    for path in (str(DB), f"{DB}#{MAIN_ID}", f"{DB}#{CHILD_ID}"):
        assert detect_format(path) == opencode.FORMAT
    assert reads == []
    check_source(f"{DB}#{MAIN_ID}", None, live=False)  # what `ctxscope watch` does first
    open_log(f"{DB}#{MAIN_ID}")
    assert reads == [MAIN_ID, CHILD_ID]  # the session and its sub-agent, each read once
    with pytest.raises(UnknownFormatError, match="no session ses_missing0 in the OpenCode database"):
        detect_format(f"{DB}#ses_missing0")
    other = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(other)) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.commit()
    with pytest.raises(UnknownFormatError, match="without OpenCode's session tables"):
        detect_format(other)
    empty = tmp_path / "opencode.db"
    shutil.copyfile(DB, empty)
    with contextlib.closing(sqlite3.connect(empty)) as connection:
        connection.execute("DELETE FROM session")
        connection.commit()
    with pytest.raises(UnknownFormatError, match="without sessions"):
        detect_format(empty)


def test_split_address_keeps_other_paths_whole(tmp_path: Path) -> None:
    assert opencode_db.split_address(f"{DB}#{MAIN_ID}") == (str(DB), MAIN_ID)
    assert opencode_db.split_address(str(DB)) == (str(DB), None)
    assert opencode_db.split_address(f"{DB}#notes") == (f"{DB}#notes", None)
    odd = tmp_path / "x#ses_1"
    odd.write_text("{}")
    assert opencode_db.split_address(str(odd)) == (str(odd), None)  # a real file wins


@pytest.mark.parametrize("journal", ["DELETE", "WAL"])
def test_the_agents_database_is_never_written(tmp_path: Path, journal: str) -> None:
    copy = tmp_path / "opencode.db"
    shutil.copyfile(DB, copy)
    with contextlib.closing(sqlite3.connect(copy)) as connection:
        connection.execute(f"PRAGMA journal_mode = {journal}")  # OpenCode's is WAL
    before = copy.read_bytes()
    assert figures(open_log(copy)).calls == 7
    assert copy.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["opencode.db"]  # no -shm, no -wal


def wal_copy(tmp_path: Path) -> tuple[Path, sqlite3.Connection]:
    """A copy of the fixture in WAL mode, with a writer connection holding it open."""
    copy = tmp_path / "opencode.db"
    shutil.copyfile(DB, copy)
    writer = sqlite3.connect(copy, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    return copy, writer


def test_a_database_being_written_is_read_and_reread_when_its_wal_grows(tmp_path: Path) -> None:
    copy, writer = wal_copy(tmp_path)
    with contextlib.closing(writer):
        writer.execute("BEGIN IMMEDIATE")  # a writer's transaction is open while we read
        reader = SessionReader(copy)
        first = reader.poll()
        assert first.lines == 1 and figures(reader.session).calls == 7
        assert reader.poll().lines == 0  # nothing changed
        writer.execute(
            "DELETE FROM part WHERE session_id = ? AND data LIKE '%step-finish%' "
            "AND id = (SELECT max(id) FROM part WHERE session_id = ?)",
            (MAIN_ID, MAIN_ID),
        )
        writer.execute("COMMIT")
        assert (copy.parent / "opencode.db-wal").stat().st_size > 0
        second = reader.poll()
        assert second.change is not None and second.lines == 1
        assert reader.session.problems.notices[0].kind == "rewritten"
        # the last step lost its step-finish: still a call, without usage
        assert figures(reader.session).calls_with_usage == 6


def test_a_write_to_another_session_costs_no_re_read(tmp_path: Path) -> None:
    """The database holds every session: a commit elsewhere leaves the followed one as it was
    read (no restart of the live view), and a commit to it reads it again."""
    copy, writer = wal_copy(tmp_path)
    other = "ses_0ther0session0000000000"
    columns = "project_id, slug, directory, title, version, time_created, time_updated"
    with contextlib.closing(writer):
        reader = SessionReader(f"{copy}#{MAIN_ID}")
        assert reader.poll().lines == 1
        writer.execute(
            f"INSERT INTO session (id, {columns}) SELECT ?, {columns} FROM session WHERE id = ?",
            (other, MAIN_ID),
        )
        writer.execute("UPDATE session SET title = 'renamed', time_updated = 1 WHERE id = ?", (other,))
        quiet = reader.poll()
        assert (quiet.lines, quiet.change) == (0, None)
        writer.execute("UPDATE session SET time_updated = time_updated + 1 WHERE id = ?", (MAIN_ID,))
        again = reader.poll()
        assert again.lines == 1 and again.change is not None


def test_a_live_re_read_that_fails_keeps_the_session_and_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Locked past the wait, or caught mid-write: a fault of this poll (an OSError, as the follower
    reports a file it cannot read for now), not a refusal of the log; the next change reads again."""
    from ctxscope.core import reader as reader_module
    from ctxscope.core.logformat import FormatError

    copy, writer = wal_copy(tmp_path)
    with contextlib.closing(writer):
        reader = SessionReader(copy)
        assert reader.poll().lines == 1
        first = reader.session
        real = reader_module.read_database

        def locked(session: object, path: str) -> None:
            raise FormatError("cannot read the OpenCode database opencode.db: database is locked")

        monkeypatch.setattr(reader_module, "read_database", locked)
        writer.execute("UPDATE session SET time_updated = time_updated + 1 WHERE id = ?", (MAIN_ID,))
        with pytest.raises(OSError, match="locked"):
            reader.poll()
        assert reader.session is first and figures(first).calls == 7
        monkeypatch.setattr(reader_module, "read_database", real)
        again = reader.poll()
        assert again.lines == 1 and figures(reader.session).calls == 7


def test_invalid_utf8_in_a_title_is_replaced_not_refused(tmp_path: Path) -> None:
    copy, writer = wal_copy(tmp_path)
    with contextlib.closing(writer):
        writer.execute("UPDATE session SET title = CAST(X'4F4B20FF2074' AS TEXT) WHERE id = ?", (MAIN_ID,))
    session = open_log(f"{copy}#{MAIN_ID}")
    assert figures(session).calls == 7


def test_bad_json_in_data_columns_is_counted_and_the_rest_kept(tmp_path: Path) -> None:
    copy, writer = wal_copy(tmp_path)
    with contextlib.closing(writer):
        (first_part,) = writer.execute("SELECT min(id) FROM part WHERE session_id = ?", (MAIN_ID,)).fetchone()
        writer.execute("UPDATE part SET data = 'not json' WHERE id = ?", (first_part,))
        writer.execute(
            "UPDATE message SET data = '[1, 2]' WHERE session_id = ? AND data LIKE '%\"summary\":true%'",
            (MAIN_ID,),
        )
    session = open_log(copy)
    assert session.problems.counts["wrong_type"] == 2
    assert figures(session).calls == 6  # the summary message's one call is gone
    assert figures(session).compactions == 0


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda data: data[: len(data) // 3], "cannot read the OpenCode database"),
        (lambda data: data[:100], "cannot read the OpenCode database"),
        (lambda data: data[:16] + b"\xff" * 84 + data[100:], "cannot read the OpenCode database"),
    ],
)
def test_a_damaged_database_is_refused_with_sqlites_reason(tmp_path: Path, damage: Any, reason: str) -> None:
    broken = tmp_path / "opencode.db"
    broken.write_bytes(damage(DB.read_bytes()))
    with pytest.raises(ValueError, match=reason):
        open_log(broken)


def test_a_database_locked_by_a_writer_is_refused_not_waited_on_forever(tmp_path: Path) -> None:
    copy = tmp_path / "opencode.db"
    shutil.copyfile(DB, copy)  # rollback-journal mode: a writer mid-transaction shuts readers out
    with contextlib.closing(sqlite3.connect(copy, isolation_level=None)) as writer:
        writer.execute("PRAGMA locking_mode = EXCLUSIVE")
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("DELETE FROM part")
        assert (tmp_path / "opencode.db-journal").exists()
        with pytest.raises(ValueError, match="database is locked"):
            open_log(copy)


def test_a_database_of_another_program_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(other)) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.commit()
    with pytest.raises(ValueError, match="no such table: session"):
        open_log(other)


def opencode_home(tmp_path: Path) -> Path:
    """A home whose OpenCode data folder holds the fixture as ``opencode.db``."""
    data = tmp_path / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    shutil.copyfile(DB, data / "opencode.db")
    return data


def test_the_session_list_shows_each_database_session_as_a_row(tmp_path: Path) -> None:
    data = opencode_home(tmp_path)
    logs = discover(environ={"HOME": str(tmp_path)})
    address = f"{data / 'opencode.db'}#{MAIN_ID}"
    assert [(log.path, log.agent) for log in logs] == [(address, "opencode")]  # no row for the sub-agent
    with SessionIndex(":memory:") as index:
        (row,) = index.rows(logs)
        assert index.rows(logs) == [row]
        assert index.reads == 1  # the unchanged database is not read again
    assert (row.agent, row.format, row.session_id, row.calls, row.subagents) == (
        "opencode",
        "opencode",
        MAIN_ID,
        7,
        1,
    )
    assert (row.compactions, row.peak, row.problem) == (1, 21_000, "")
    assert row.last_activity == 1796193401.478  # the session's time_updated, not the file's mtime


def test_a_commit_to_a_session_makes_its_row_stale_and_no_other(tmp_path: Path) -> None:
    data = opencode_home(tmp_path)
    other = "ses_0ther0session0000000000"
    with contextlib.closing(sqlite3.connect(data / "opencode.db", isolation_level=None)) as writer:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        columns = "project_id, slug, directory, title, version, time_created, time_updated"
        writer.execute(
            f"INSERT INTO session (id, {columns}) SELECT ?, {columns} FROM session WHERE id = ?",
            (other, MAIN_ID),
        )
        logs = discover(environ={"HOME": str(tmp_path)})
        assert sorted(log.path.rpartition("#")[2] for log in logs) == sorted([MAIN_ID, other])
        with SessionIndex(":memory:") as index:
            calls = {row.session_id: row.calls for row in index.rows(logs)}
            assert (calls, index.reads) == ({MAIN_ID: 7, other: 0}, 2)
            writer.execute(
                "UPDATE session SET title = 'renamed', time_updated = time_updated + 1 WHERE id = ?", (other,)
            )
            index.rows(logs)
            assert index.reads == 3  # only the renamed session was read again
            writer.execute(
                "DELETE FROM message WHERE session_id = ? AND data LIKE '%compaction%'", (MAIN_ID,)
            )
            calls = {row.session_id: row.calls for row in index.rows(logs)}
            assert (calls, index.reads) == ({MAIN_ID: 6, other: 0}, 4)


def test_the_session_list_stamps_a_databases_rows_over_one_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = opencode_home(tmp_path)
    columns = "project_id, slug, directory, title, version, time_created, time_updated"
    with contextlib.closing(sqlite3.connect(data / "opencode.db")) as writer:
        for n in range(9):
            writer.execute(
                f"INSERT INTO session (id, {columns}) SELECT ?, {columns} FROM session WHERE id = ?",
                (f"ses_other{n}", MAIN_ID),
            )
        writer.commit()
    logs = discover(environ={"HOME": str(tmp_path)})
    opened: list[str] = []
    reading = opencode_db.reading

    @contextlib.contextmanager
    def counted(file: str) -> Iterator[sqlite3.Connection]:
        opened.append(file)
        with reading(file) as connection:
            yield connection

    with SessionIndex(":memory:") as index:
        index.rows(logs)
        monkeypatch.setattr(opencode_db, "reading", counted)
        assert len(index.rows(logs)) == 10
        assert (opened, index.reads) == ([str(data / "opencode.db")], 10)  # not one connection a row
    assert opencode_db.change_stamps([f"{DB}#{MAIN_ID}", f"{DB}#ses_missing0", str(DB)]) == {
        f"{DB}#{MAIN_ID}": (opencode_db.session_stamps(str(DB)) or {})[f"{DB}#{MAIN_ID}"],
        f"{DB}#ses_missing0": (0, 0),
    }


def test_following_a_folder_takes_the_database(tmp_path: Path) -> None:
    data = opencode_home(tmp_path)
    follower = Follower(str(data))
    progress = follower.poll()
    assert progress.path == str(data / "opencode.db")
    assert follower.session is not None and figures(follower.session).calls == 7


@pytest.mark.parametrize(
    ("path", "agent"),
    [
        ("/h/.local/share/opencode/opencode.db", "opencode"),
        ("/h/.local/share/opencode/opencode.db-wal", "opencode"),
        (f"/h/.local/share/opencode/opencode.db#{MAIN_ID}", "opencode"),
        ("/h/.local/share/opencode/opencode.db-shm", ""),
        ("/h/other.db", ""),
    ],
)
def test_database_files_belong_to_opencode(path: str, agent: str) -> None:
    assert agent_of(path) == agent


def test_hostile_rows_are_kept_out_of_the_notice_and_skipped(tmp_path: Path) -> None:
    copy, writer = wal_copy(tmp_path)
    with contextlib.closing(writer):
        writer.execute("UPDATE session SET title = ? WHERE id = ?", ("\x1b]0;owned\x07[red]x", MAIN_ID))
        writer.execute("UPDATE session SET time_updated = 'soon' WHERE id = ?", (CHILD_ID,))
        (message,) = writer.execute(
            "SELECT min(id) FROM message WHERE session_id = ?", (CHILD_ID,)
        ).fetchone()
        writer.execute("UPDATE message SET data = 42 WHERE id = ?", (message,))
        writer.execute(
            "UPDATE part SET data = x'00ff' WHERE session_id = ? AND data LIKE '%step-start%'", (CHILD_ID,)
        )
    session = open_log(copy)
    (notice,) = session.problems.notices
    assert "\x1b" not in notice.reason and "\x07" not in notice.reason
    assert session.problems.counts["wrong_type"] == 3  # the message and the child's two step-starts
    assert figures(session).calls == 7  # a step without its step-start is still a call


def test_naming_the_format_refuses_what_opening_refuses(tmp_path: Path) -> None:
    """Found in review: a database with tables named session, message and part but without the
    columns a session is read from was named OpenCode's (``ctxscope watch`` accepted it, then
    failed to read it); a session table whose only row has an id that is no text was too."""
    odd = tmp_path / "odd.db"
    with contextlib.closing(sqlite3.connect(odd)) as connection:
        for table in ("session", "message", "part"):
            connection.execute(f"CREATE TABLE {table} (id, parent_id)")
        connection.execute("INSERT INTO session VALUES ('ses_a', NULL)")
        connection.commit()
    with pytest.raises(UnknownFormatError):
        open_log(odd)
    with pytest.raises(UnknownFormatError):
        detect_format(odd)
    numbered = tmp_path / "opencode.db"
    shutil.copyfile(DB, numbered)
    with contextlib.closing(sqlite3.connect(numbered)) as connection:
        connection.execute("UPDATE session SET id = x'07' WHERE parent_id IS NULL")
        connection.commit()
    with pytest.raises(UnknownFormatError):
        open_log(numbered)
    with pytest.raises(UnknownFormatError, match="without sessions"):
        detect_format(numbered)
