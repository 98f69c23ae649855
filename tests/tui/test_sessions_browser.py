"""The session browser: a generated home driven headlessly (filter, sort, open, back), a live row
updated by the real feed as its log grows, hostile text, and the ``sessions`` / ``statusline``
commands."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest
from ctxscope.core.homes import discover
from ctxscope.core.sessions_index import SessionIndex, SessionRow
from ctxscope.tui import cli
from ctxscope.tui.app import DashboardScreen
from ctxscope.tui.screens.sessions import SessionsApp, SessionsScreen
from ctxscope.tui.sessions_feed import SessionRowsUpdated
from rich.text import Text
from textual.pilot import Pilot

from tests.session_home import claude_call, claude_session, make_home

from .conftest import until
from .test_tailer import TIMEOUT, Inbox

NOW = 1_780_000_000.0


def app_on(tmp_path: Path, **kwargs: object) -> SessionsApp:
    environ = make_home(tmp_path / "home", NOW)
    return SessionsApp(environ=environ, cache=str(tmp_path / "cache.sqlite3"), clock=lambda: NOW, **kwargs)  # type: ignore[arg-type]


def projects(screen: SessionsScreen) -> list[str]:
    return [screen.rows[path].project for path in screen.shown]


def cell(screen: SessionsScreen, path: str, column: str) -> str:
    value = screen.table.get_cell(path, column)
    assert isinstance(value, Text)
    return value.plain


@contextlib.asynccontextmanager
async def browsing(tmp_path: Path) -> AsyncIterator[tuple[SessionsApp, Pilot[None], Inbox]]:
    """The browser on a generated home, once the feed has listed every session."""
    inbox = Inbox()
    app = app_on(tmp_path)
    async with app.run_test(size=(150, 30), message_hook=inbox.post) as pilot:
        await inbox.wait_for(lambda: app.browser.finished)
        await pilot.pause()
        yield app, pilot, inbox


async def test_filter_sort_open_and_back(tmp_path: Path) -> None:
    async with browsing(tmp_path) as (app, pilot, inbox):
        browser = app.browser
        expected = ["/home/dev/shop", "/srv/api", "/home/dev/shop", "/home/dev/blog", "/srv/web"]
        assert projects(browser) == expected
        first = browser.shown[0]
        shown = [cell(browser, first, column) for column in ("live", "calls", "peak")]
        assert shown == ["●", "6", "90.0k"]
        # Type to filter; Escape clears.
        await pilot.press(*"shop")
        assert projects(browser) == ["/home/dev/shop", "/home/dev/shop"]
        await pilot.press("escape")
        assert len(browser.shown) == 5
        # ctrl+s steps through the sortable columns; ctrl+r reverses.
        while browser.sort_key != "peak":
            await pilot.press("ctrl+s")
        assert [browser.rows[p].peak for p in browser.shown] == [90_000, 27_000, 15_000, 8_000, 5_000]
        await pilot.press("ctrl+r")
        assert browser.rows[browser.shown[0]].peak == 5_000
        # Enter opens the dashboard on the selected row (the cursor follows it across sorts).
        await pilot.press("ctrl+r", "down")
        chosen = browser.shown[1]
        await pilot.press("enter")
        assert isinstance(app.screen, DashboardScreen) and app.options.path == chosen
        await inbox.wait_for(lambda: app.dashboard.snapshot is not None)
        assert app.dashboard.snapshot is not None
        assert sum(len(s.records) for s in app.dashboard.snapshot.scopes.values()) == 3  # the Codex calls
        # Escape comes back to the list as it was.
        await pilot.press("escape")
        assert app.screen is browser and browser.selected is not None and browser.selected.path == chosen
        assert app.tailer is None


async def test_a_live_row_updates_as_its_log_grows(tmp_path: Path) -> None:
    async with browsing(tmp_path) as (app, pilot, inbox):
        browser = app.browser
        await asyncio.wait_for(app.feed.watching.wait(), TIMEOUT)
        alpha = next(path for path in browser.shown if path.endswith("s-alpha.jsonl"))
        assert browser.rows[alpha].calls == 6
        with open(alpha, "ab") as out:
            out.write(b"".join(claude_call("s-alpha", "/home/dev/shop", 5, 120_000)))
        await inbox.wait_for(lambda: browser.rows[alpha].calls == 7)
        await pilot.pause()
        assert browser.rows[alpha].context == 120_000 and browser.rows[alpha].peak == 120_000
        assert cell(browser, alpha, "calls") == "7" and cell(browser, alpha, "peak") == "120k"
        # A sub-agent log that appears later joins its session's row.
        sub = Path(alpha).with_suffix("") / "subagents" / "agent-late.jsonl"
        sub.write_bytes(b"".join(claude_call("s-alpha-late", "/home/dev/shop", 1, 3_000)))
        await inbox.wait_for(lambda: browser.rows[alpha].subagents == 3)
        assert browser.rows[alpha].calls == 8
        # A session whose log is removed leaves the list.
        gamma = next(path for path in browser.shown if path.endswith("s-gamma.jsonl"))
        Path(gamma).unlink()
        await inbox.wait_for(lambda: gamma not in browser.rows)
        await pilot.pause()
        assert gamma not in browser.shown and len(browser.shown) == 4


def hostile_row(tmp_path: Path) -> SessionRow:
    return SessionRow(
        path=str(tmp_path / "x.jsonl"), agent="", format="claude-code", session_id="[/x]",
        project="/tmp/[bold red]boom[/]\x1b[2J\x07", model="[link=http://x]m[/link]", started="not a date",
        last_activity=NOW, calls=1, context=5, peak=5, window=None, compactions=0, subagents=0,
        cost=None, unpriced=1, live=True,
    )


async def test_hostile_text_is_shown_literally(tmp_path: Path) -> None:
    app = app_on(tmp_path, start_feed=False)
    async with app.run_test(size=(150, 20)) as pilot:
        row = hostile_row(tmp_path)
        app.post_message(SessionRowsUpdated((row,), done=1, total=1, finished=True))
        await pilot.pause()
        project = cell(app.browser, row.path, "project")
        assert "\x1b" not in project and "\x07" not in project and "[bold red]" in project
        assert cell(app.browser, row.path, "model").startswith("[link=http://x]m[/")
        assert cell(app.browser, row.path, "started") == "not a date"[:11]


async def test_rows_that_only_move_are_updated_at_once_and_moved_soon_after(tmp_path: Path) -> None:
    app = app_on(tmp_path, start_feed=False)
    async with app.run_test(size=(150, 20)) as pilot:
        browser = app.browser
        browser.reorder_seconds = 0.05
        base = hostile_row(tmp_path)
        rows = [
            dataclasses.replace(base, path=f"/s/{n}.jsonl", project=f"/p{n}", last_activity=NOW - n, calls=n)
            for n in range(3)
        ]
        app.post_message(SessionRowsUpdated(tuple(rows), done=3, total=3, finished=True))
        await pilot.pause()
        assert browser.shown == ["/s/0.jsonl", "/s/1.jsonl", "/s/2.jsonl"]
        newest = dataclasses.replace(rows[2], last_activity=NOW + 5, calls=9)
        browser.apply_rows(SessionRowsUpdated((newest,), done=3, total=3, finished=True))
        assert cell(browser, "/s/2.jsonl", "calls") == "9" and browser.shown[0] == "/s/0.jsonl"
        await until(pilot, lambda: browser.shown[0] == "/s/2.jsonl")  # the move comes with the timer
        assert browser.shown == ["/s/2.jsonl", "/s/0.jsonl", "/s/1.jsonl"]


async def test_an_unreadable_session_says_so_instead_of_opening(tmp_path: Path) -> None:
    app = app_on(tmp_path, start_feed=False)
    async with app.run_test(size=(150, 20)) as pilot:
        missing = hostile_row(tmp_path)
        app.post_message(SessionRowsUpdated((missing,), done=1, total=1, finished=True))
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.browser


def run_cli(argv: list[str], stdin: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = cli.main(argv)
    return code, out.getvalue()


def test_sessions_json_prints_the_same_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environ = make_home(tmp_path / "home", NOW)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    buffer = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(buffer))
    assert cli.main(["sessions", "--json", "--cache", str(tmp_path / "c.sqlite3")]) == 0
    sys.stdout.flush()
    printed = orjson.loads(buffer.getvalue())
    with SessionIndex(str(tmp_path / "other.sqlite3")) as index:
        rows = index.rows(discover(environ=environ))
    assert [p["path"] for p in printed] == [r.path for r in rows]
    assert printed[0]["calls"] == 6 and printed[0]["last_compaction"] == {"before": 90_000, "after": 40_000}
    assert cli.main(["sessions", "--json", str(tmp_path / "nowhere")]) == 2


def test_no_arguments_open_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[SessionsApp] = []
    monkeypatch.setattr(SessionsApp, "run", lambda self: opened.append(self))
    assert cli.main([]) == 0 and len(opened) == 1 and opened[0].feed.homes


def test_statusline_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcript = claude_session(tmp_path, "s", [100_000, 150_000, 40_000, 50_000, 60_000], compact_after=2)
    stdin = orjson.dumps({"transcript_path": str(transcript), "model": {"id": "claude-opus-4-6",
                          "display_name": "Opus"}, "context_window": {"context_window_size": 200_000}})
    code, out = run_cli(["statusline"], stdin, monkeypatch)
    assert code == 0
    # The automatic compaction at 150k says where this session compacts: 90k left at 10k a call.
    assert out == "Opus · ctx 60.0k/200k 30% · ~9 calls to auto-compact · last compact 150k→40.0k\n"
    code, out = run_cli(["statusline"], b"garbage", monkeypatch)
    assert (code, out) == (0, "ctx ?/200k\n")
    gone = orjson.dumps({"transcript_path": str(tmp_path / "gone")})
    code, out = run_cli(["statusline"], gone, monkeypatch)
    assert (code, out) == (0, "ctx ?/200k\n")


async def test_no_agent_home_at_all(tmp_path: Path) -> None:
    inbox = Inbox()
    app = SessionsApp(environ={"HOME": str(tmp_path)}, cache=str(tmp_path / "c.sqlite3"), clock=lambda: NOW)
    async with app.run_test(size=(120, 20), message_hook=inbox.post) as pilot:
        await inbox.wait_for(lambda: app.browser.finished)
        await pilot.pause()
        status = app.browser.query_one("#sessions-status").render()
        assert app.browser.shown == [] and "0 sessions" in str(status)
        await pilot.press("enter")  # nothing to open
        assert app.screen is app.browser


async def test_poll_mode_lists_again_without_a_watcher(tmp_path: Path) -> None:
    inbox = Inbox()
    app = app_on(tmp_path, force_polling=True)
    app.feed.poll_seconds = 0.05
    async with app.run_test(size=(150, 30), message_hook=inbox.post) as pilot:
        browser = app.browser
        await inbox.wait_for(lambda: browser.finished)
        beta = next(path for path in browser.rows if path.endswith("s-beta.jsonl"))
        with open(beta, "ab") as out:
            out.write(b"".join(claude_call("s-beta", "/home/dev/shop", 3, 18_000)))
        await inbox.wait_for(lambda: browser.rows[beta].calls == 3)
        new = claude_session(Path(beta).parent, "s-delta", [1_000])
        await inbox.wait_for(lambda: str(new) in browser.rows)
        Path(beta).unlink()
        await inbox.wait_for(lambda: beta not in browser.rows)
        await pilot.pause()
        assert len(browser.shown) == 5
