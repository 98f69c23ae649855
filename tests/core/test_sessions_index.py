"""The session list: agent homes, one row a session, the SQLite cache and reading grown logs on."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from ctxscope.core import homes
from ctxscope.core.homes import AgentHome, SessionLog, discover, register_home
from ctxscope.core.model import Usage
from ctxscope.core.model_info import compaction_trigger
from ctxscope.core.pricing import cost_of, session_cost
from ctxscope.core.reader import open_log
from ctxscope.core.session_digest import DIGEST_VERSION, read_digest
from ctxscope.core.sessions_index import SCHEMA_VERSION, SessionIndex, cache_path, matches, sort_rows

from tests.conftest import shared_path
from tests.session_home import (
    claude_call,
    claude_compaction,
    claude_session,
    codex_line,
    codex_session,
    make_home,
)

NOW = 1_780_000_000.0


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    return make_home(tmp_path / "home", NOW)


def index(tmp_path: Path) -> SessionIndex:
    return SessionIndex(str(tmp_path / "cache" / "sessions.sqlite3"), clock=lambda: NOW)


def by_session(rows: list) -> dict:  # type: ignore[type-arg]
    return {row.session_id: row for row in rows}


def test_homes_honour_their_environment_variables(home: dict[str, str]) -> None:
    logs = discover(environ=home)
    names = sorted(os.path.basename(log.path) for log in logs)
    assert names == sorted(["s-alpha.jsonl", "s-beta.jsonl", "s-gamma.jsonl",
                            "rollout-2025-09-25T01-22-20-one.jsonl", "rollout-2025-09-25T02-00-00-two.jsonl"])
    alpha = next(log for log in logs if log.path.endswith("s-alpha.jsonl"))
    assert alpha.agent == "claude-code" and [os.path.basename(p) for p in alpha.subagents] == [
        "agent-a0.jsonl", "agent-a1.jsonl"
    ]
    assert {log.agent for log in logs} == {"claude-code", "codex"}
    # Without the variables the defaults under HOME are used (and do not exist here).
    assert discover(environ={"HOME": home["HOME"]}) == []


def test_named_folders_and_files_join_each_log_once(home: dict[str, str], tmp_path: Path) -> None:
    extra = codex_session(tmp_path / "elsewhere" / "run.jsonl", [1_000])
    logs = discover([str(tmp_path / "elsewhere"), home["CODEX_HOME"], str(extra)], environ=home)
    assert len(logs) == 6
    assert next(log for log in logs if log.path == str(extra)).agent == ""


def test_the_registry_takes_another_agents_home(tmp_path: Path) -> None:
    saved = list(homes.AGENT_HOMES)
    try:
        codex_session(tmp_path / "aider" / "chats" / "one.jsonl", [2_000])
        register_home(AgentHome("aider", "AIDER_HOME", "~/.aider", "chats"))
        logs = discover(environ={"HOME": str(tmp_path), "AIDER_HOME": str(tmp_path / "aider")})
        assert [(log.agent, os.path.basename(log.path)) for log in logs] == [("aider", "one.jsonl")]
    finally:
        homes.AGENT_HOMES[:] = saved


def test_rows_carry_the_recorded_figures(home: dict[str, str], tmp_path: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    with index(tmp_path) as idx:
        rows = idx.rows(discover(environ=home), on_row=lambda r, i, n: seen.append((r.session_id, i, n)))
    assert [r.session_id for r in rows] == ["s-alpha", "rollout-2025-09-25T01-22-20-one", "s-beta", "s-gamma",
                                            "rollout-2025-09-25T02-00-00-two"]
    assert len(seen) == 5 and all(n == 5 for _, _, n in seen)
    alpha = by_session(rows)["s-alpha"]
    assert (alpha.agent, alpha.format, alpha.project, alpha.model) == (
        "claude-code", "claude-code", "/home/dev/shop", "claude-opus-4-6"
    )
    # Four calls in the session (each written over two lines) and one in each sub-agent.
    assert (alpha.calls, alpha.context, alpha.peak) == (6, 40_000, 90_000)
    assert (alpha.compactions, alpha.subagents, alpha.window) == (1, 2, 200_000)
    assert alpha.last_compaction == (90_000, 40_000)
    assert alpha.started == "2026-02-12T16:00:00.000Z" and alpha.live and alpha.last_activity == NOW - 30
    prompts = (20_000, 45_000, 90_000, 40_000, 5_000, 5_000)
    per_call = [cost_of(Usage(p, p - 110, 100, 50), "claude-opus-4-6") or 0 for p in prompts]
    assert alpha.cost == pytest.approx(sum(per_call))
    codex = by_session(rows)["rollout-2025-09-25T01-22-20-one"]
    assert (codex.calls, codex.context, codex.window) == (3, 27_000, 272_000)
    assert (codex.project, codex.live) == ("/srv/api", False)
    costs = [cost_of(Usage(p, p // 2, 0, 10), "gpt-5-codex") or 0 for p in (3_000, 9_000, 27_000)]
    assert codex.cost == pytest.approx(sum(costs))


def test_a_warm_run_reads_nothing_and_gives_the_same_rows(home: dict[str, str], tmp_path: Path) -> None:
    with index(tmp_path) as first:
        cold = first.rows(discover(environ=home))
        assert first.reads == 7  # five sessions, two sub-agent logs
    with index(tmp_path) as second:
        warm = second.rows(discover(environ=home))
        assert second.reads == 0
    assert warm == cold


def test_a_grown_log_is_read_on_from_the_cached_offset(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-p"
    path = claude_session(folder, "s-grow", [10_000, 20_000])
    first = read_digest(str(path))
    assert (first.calls, first.context) == (2, 20_000)
    # The next call is written over two lines: the first arrives before the index looks again,
    # the second after (a response straddling the cached offset counts once).
    call = claude_call("s-grow", "/home/dev/project", 3, 30_000, pieces=2)
    with path.open("ab") as out:
        out.write(call[0])
    middle = read_digest(str(path), first)
    with path.open("ab") as out:
        out.write(b"".join(call[1:]))
    last = read_digest(str(path), middle)
    whole = read_digest(str(path))
    assert (middle.calls, last.calls, whole.calls) == (3, 3, 3)
    assert last.cost == pytest.approx(whole.cost) and last.peak == whole.peak == 30_000
    assert middle.offset < last.offset == whole.offset == path.stat().st_size
    # Proof that it read on rather than again: what only the cache held survives.
    middle.unpriced = 99
    with path.open("ab") as out:
        out.write(b"".join(claude_call("s-grow", "/home/dev/project", 4, 35_000)))
    resumed = read_digest(str(path), middle)
    assert (resumed.unpriced, resumed.calls, resumed.context) == (99, 4, 35_000)


def test_a_compaction_finished_after_the_offset_is_freed_once(tmp_path: Path) -> None:
    """The compaction's after is the next call's prompt, written after the index read: the
    read on from the offset completes it (tokens freed, the trigger it shows, cached share)."""
    cwd = "/home/dev/project"
    path = claude_session(tmp_path / "p", "s-c", [100_000, 150_000])
    with path.open("ab") as out:
        out.write(b"".join(claude_compaction("s-c", cwd, 150_000)))
    first = read_digest(str(path))
    assert (first.last_compaction, first.tokens_freed, first.trigger_seen) == ((150_000, None), 0, 150_000)
    with path.open("ab") as out:
        out.write(b"".join(claude_call("s-c", cwd, 3, 20_000)))
    resumed, whole = read_digest(str(path), first), read_digest(str(path))
    assert resumed.offset > first.offset
    for digest in (resumed, whole):
        assert (digest.last_compaction, digest.tokens_freed) == ((150_000, 20_000), 130_000)
        assert (digest.cached, digest.trigger_seen) == (20_000 - 110, 150_000)
    with path.open("ab") as out:
        out.write(b"".join(claude_call("s-c", cwd, 4, 30_000)))
    assert read_digest(str(path), resumed).tokens_freed == 130_000


def test_a_cache_of_another_version_is_rebuilt(home: dict[str, str], tmp_path: Path) -> None:
    db = tmp_path / "cache" / "sessions.sqlite3"
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as old:  # what an older ctxscope left: other columns, other digests
        old.execute("CREATE TABLE files (path TEXT PRIMARY KEY, blob BLOB)")
        old.execute("INSERT INTO files VALUES ('/x', 'old')")
        old.execute(f"PRAGMA user_version = {SCHEMA_VERSION * 1000 + DIGEST_VERSION - 1}")
    with index(tmp_path) as idx:
        assert len(idx.rows(discover(environ=home))) == 5 and idx.reads > 0
    with sqlite3.connect(db) as rebuilt:
        assert rebuilt.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION * 1000 + DIGEST_VERSION


def test_a_replaced_log_is_read_again(tmp_path: Path) -> None:
    path = claude_session(tmp_path / "p", "s-one", [10_000, 20_000, 30_000])
    before = read_digest(str(path))
    before.unpriced = 99
    replacement = claude_session(tmp_path / "q", "s-two", [1_000, 2_000, 3_000, 4_000])
    os.replace(replacement, path)
    again = read_digest(str(path), before)
    assert (again.unpriced, again.calls, again.session_id) == (0, 4, "s-two")


def test_a_codex_count_repeated_across_the_offset_is_one_call(tmp_path: Path) -> None:
    path = codex_session(tmp_path / "rollout.jsonl", [3_000, 9_000])
    first = read_digest(str(path))
    repeated = path.read_bytes().splitlines(keepends=True)[-1]
    with path.open("ab") as out:
        out.write(codex_line("turn_context", {"model": "gpt-5-codex"}) + repeated)
    again = read_digest(str(path), first)
    assert (first.calls, again.calls) == (2, 2) and again.cost == pytest.approx(first.cost)


def test_the_cache_follows_size_and_mtime(home: dict[str, str], tmp_path: Path) -> None:
    logs = discover(environ=home)
    with index(tmp_path) as idx:
        idx.rows(logs)
        gamma = next(log for log in logs if log.path.endswith("s-gamma.jsonl"))
        with open(gamma.path, "ab") as out:
            out.write(b"".join(claude_call("s-gamma", "/home/dev/blog", 2, 9_500)))
        os.utime(gamma.path, (NOW - 5, NOW - 5))
        rows = idx.rows(logs)
        assert idx.reads == 8
    row = by_session(rows)["s-gamma"]
    assert (row.calls, row.context, row.live) == (2, 9_500, True)
    assert rows[0].session_id == "s-gamma"


def test_logs_that_are_gone_leave_the_cache(home: dict[str, str], tmp_path: Path) -> None:
    logs = discover(environ=home)
    with index(tmp_path) as idx:
        idx.rows(logs)
    beta = next(log for log in logs if log.path.endswith("s-beta.jsonl"))
    os.remove(beta.path)
    with index(tmp_path) as idx:
        assert len(idx.rows(discover(environ=home))) == 4
        # A log merely not listed this time (another folder) keeps its entry.
        assert idx.prune([]) == 0
        assert beta.path not in idx.cached_paths() and len(idx.cached_paths()) == 6


def test_hostile_and_foreign_files(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "notes.jsonl").write_bytes(b'{"hello": "world"}\n{"x": 1}\n')
    (folder / "broken.jsonl").write_bytes(b"\x1b[31m not json\n{\n")
    (folder / "doc.jsonl").write_bytes(b'[{"weird": true}]')
    good = claude_session(folder, "s-ok", [1_000])
    with good.open("ab") as out:
        out.write(b'{"type": "assistant", "sessionId": "s-ok", "message": 7}\n\xff\xfe\n')
    with index(tmp_path) as idx:
        rows = idx.rows(discover([str(folder)], homes=False))
    by_name = {os.path.basename(r.path): r for r in rows}
    assert set(by_name) == {"s-ok.jsonl", "doc.jsonl"}
    assert by_name["s-ok.jsonl"].calls == 1 and not by_name["s-ok.jsonl"].problem
    assert by_name["doc.jsonl"].problem.startswith("doc.jsonl: ") and by_name["doc.jsonl"].calls == 0
    missing = SessionLog(str(folder / "gone.jsonl"))
    with index(tmp_path) as idx:
        assert idx.row(missing) is None


def test_a_damaged_cache_is_started_again(home: dict[str, str], tmp_path: Path) -> None:
    db = tmp_path / "cache" / "sessions.sqlite3"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"this is not a database" * 100)
    with index(tmp_path) as idx:
        assert len(idx.rows(discover(environ=home))) == 5


def test_a_damaged_cache_entry_is_read_again(home: dict[str, str], tmp_path: Path) -> None:
    with index(tmp_path) as idx:
        cold = idx.rows(discover(environ=home))
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        db.execute("UPDATE files SET digest = ? WHERE path LIKE ?", (b'{"calls": "many"', "%s-beta%"))
    with index(tmp_path) as idx:
        assert idx.rows(discover(environ=home)) == cold and idx.reads == 1


def test_cache_location() -> None:
    assert cache_path({"CTXSCOPE_CACHE_DIR": "/c"}) == "/c/sessions.sqlite3"
    assert cache_path({"XDG_CACHE_HOME": "/x", "HOME": "/h"}) == "/x/ctxscope/sessions.sqlite3"
    assert cache_path({"HOME": "/h"}) == "/h/.cache/ctxscope/sessions.sqlite3"


def test_sorting_and_filtering(home: dict[str, str], tmp_path: Path) -> None:
    with index(tmp_path) as idx:
        rows = idx.rows(discover(environ=home))
    assert [r.peak for r in sort_rows(rows, "peak")] == [90_000, 27_000, 15_000, 8_000, 5_000]
    assert [r.calls for r in sort_rows(rows, "calls", descending=False)] == [1, 1, 2, 3, 6]
    assert [r.session_id for r in rows if matches(r, "SHOP sonnet")] == ["s-beta"]
    assert sum(matches(r, "codex") for r in rows) == 2


@pytest.mark.shared
def test_rows_agree_with_a_full_read_of_every_real_log(tmp_path: Path) -> None:
    """Per-file digests added up give what one read of the whole session (sub-agent logs
    included) gives: calls, compactions, the main agent's last recorded context, the cost."""
    folder = shared_path("real-logs")
    checked = 0
    with index(tmp_path) as idx:
        for log in discover([str(folder)], homes=False):
            row = idx.row(log)
            if row is None or row.problem:
                continue
            session = open_log(log.path)
            requests = [r for scope in session.scopes.values() for r in scope.requests]
            main = session.main_scope
            assert main is not None
            usage = next((r.usage for r in reversed(main.requests) if r.usage), None)
            last = usage.prompt_tokens if usage is not None else None
            assert row.calls == len(requests), log.path
            assert row.cached == (usage.cached_prompt_tokens if usage is not None else None), log.path
            trigger = compaction_trigger(row.agent, row.window or 0, main.compactions, model=row.model)
            assert row.trigger == trigger, log.path
            freed = sum(c.tokens_freed or 0 for c in main.compactions)
            assert row.tokens_freed == freed, log.path
            assert row.compactions == sum(len(s.compactions) for s in session.scopes.values()), log.path
            assert row.context == last, log.path
            assert (row.cost or 0.0) == pytest.approx(session_cost(requests).dollars), log.path
            checked += 1
    assert checked >= 10


def test_a_helper_log_replaying_the_main_calls_counts_them_once(tmp_path: Path) -> None:
    """Claude Code's compaction summariser log replays the session's calls (same message ids)
    before its own: the row counts each call once, as one read of the whole session does."""
    folder = tmp_path / "projects" / "-p"
    prompts = [10_000, 20_000, 30_000]
    path = claude_session(folder, "s-main", prompts)
    helper = folder / "s-main" / "subagents" / "agent-acompact-1f.jsonl"
    helper.parent.mkdir(parents=True)
    replayed = [line for n, p in enumerate(prompts, 1) for line in claude_call("s-main", "/w", n, p)]
    helper.write_bytes(b"".join([*replayed, *claude_call("s-main-summary", "/w", 1, 31_000)]))
    log = discover([str(tmp_path / "projects")], homes=False)[0]
    assert (log.subagents, log.helpers) == ((), (str(helper),))
    with index(tmp_path) as idx:
        row = idx.row(log)
    session = open_log(str(path))
    requests = [r for scope in session.scopes.values() for r in scope.requests]
    assert row is not None and row.calls == len(requests) == 4 and row.subagents == 0
    assert row.cost == pytest.approx(session_cost(requests).dollars)
