"""Pilot tests of the dashboard with the tailer replaced by injected messages."""

from __future__ import annotations

import dataclasses
import re

from ctxscope.core.session import Problem
from ctxscope.tui.app import DashboardCommands, DashboardScreen
from ctxscope.tui.messages import DetailLoaded, Mode, SnapshotUpdated, TailStatus
from ctxscope.tui.screens.modals import HelpScreen, ProblemsScreen, ScopeScreen, TextScreen
from ctxscope.tui.widgets.error_strip import ErrorStrip
from ctxscope.tui.widgets.header import StatusHeader
from ctxscope.tui.widgets.messages_view import MessagesView
from ctxscope.tui.widgets.meter import ContextMeter
from ctxscope.tui.widgets.summaries import SummaryList
from ctxscope.tui.widgets.timeline import StageLanes, TimelinePlot
from textual.widgets import OptionList

from . import fakes
from .conftest import MockApp, detail_shown


def plain(widget: object) -> str:
    """What a widget renders, as plain text."""
    rendered = widget.render()  # type: ignore[attr-defined]
    return getattr(rendered, "plain", str(rendered))


def dashboard(app: MockApp) -> DashboardScreen:
    return app.dashboard


async def test_first_snapshot_fills_every_widget() -> None:
    """One injected snapshot: header, meter, timeline, lanes, messages and summaries all show it."""
    snap = fakes.session(fakes.scope(60, summary_every=25))
    app = MockApp(snap)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        screen = dashboard(app)
        assert screen.cursor == 59
        assert screen.follow
        header = plain(app.query_one(StatusHeader))
        assert "OFFLINE" in header and "4d5611e5" in header and "claude-opus-4-6" in header
        meter = plain(app.query_one(ContextMeter))
        record = snap.scopes["main"].records[59]
        assert f"calibrated {record.calibrated_tokens:,}" in meter
        assert "trigger 320k" in meter and "limit 1.00M" in meter
        assert "#59" in plain(app.query_one(StageLanes))
        assert app.query_one(TimelinePlot).replots >= 1
        assert app.query_one(TimelinePlot).series is app.query_one(StageLanes).series  # one copy
        assert app.detail_requests[-1] == ("main", 59)
        view = app.query_one(MessagesView)
        assert view.row_count == record.message_count
        assert len(app.query_one(SummaryList).entries) == 2


async def test_cursor_keys_and_follow() -> None:
    """←/→ move the cursor and turn follow off; End turns it back on; new requests follow."""
    snap = fakes.session(fakes.scope(10))
    app = MockApp(snap, mode=Mode.LIVE, done=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        screen = dashboard(app)
        await pilot.press("left", "left")
        assert screen.cursor == 7 and not screen.follow
        await pilot.press("home")
        assert screen.cursor == 0
        # a newer snapshot does not move the cursor while follow is off
        app.post_message(fakes.update(fakes.session(fakes.scope(12)), mode=Mode.LIVE))
        await pilot.pause()
        assert screen.cursor == 0
        await pilot.press("end")
        assert screen.follow and screen.cursor == 11
        app.post_message(fakes.update(fakes.session(fakes.scope(15)), mode=Mode.LIVE))
        await pilot.pause()
        assert screen.cursor == 14
        await pilot.press("f")
        assert not screen.follow
        await pilot.press("right")
        assert screen.cursor == 14
        assert ("main", 0) in app.detail_requests


async def test_pause_holds_back_updates() -> None:
    """While paused the screen keeps its state; resuming applies the newest snapshot."""
    app = MockApp(fakes.session(fakes.scope(5)), mode=Mode.LIVE)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        screen = dashboard(app)
        await pilot.press("space")
        assert screen.paused
        app.post_message(fakes.update(fakes.session(fakes.scope(9)), mode=Mode.LIVE))
        await pilot.pause()
        assert screen.cursor == 4
        assert "PAUSED" in plain(app.query_one(StatusHeader))
        await pilot.press("p")
        assert screen.cursor == 8
        assert "LIVE" in plain(app.query_one(StatusHeader))


async def test_scopes_switch_and_picker() -> None:
    """] cycles scopes; S opens the picker; each scope keeps its own records."""
    snap = fakes.session(fakes.scope(20), fakes.scope(7, scope_id="agent-a1", parent="main", label="tests"))
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        screen = dashboard(app)
        await pilot.press("right_square_bracket")
        assert screen.scope_id == "agent-a1"
        assert screen.cursor == 6
        assert "tests" in plain(app.query_one(StatusHeader))
        await pilot.press("S")
        assert isinstance(app.screen, ScopeScreen)
        await pilot.press("home", "enter")
        await pilot.pause()
        assert screen.scope_id == "main"
        assert screen.cursor == 19


async def test_detail_for_another_request_is_ignored() -> None:
    """A late detail for a request no longer selected never replaces the current one."""
    snap = fakes.session(fakes.scope(10))
    app = MockApp(snap)
    app.answer_details = False
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        records = snap.scopes["main"].records
        app.post_message(DetailLoaded("main", 9, fakes.detail(records[9], 5)))
        await pilot.pause()
        view = app.query_one(MessagesView)
        assert view.row_count == 5
        # a detail from an older session generation is dropped
        app.post_message(DetailLoaded("main", 9, fakes.detail(records[9], 3), generation=7))
        await pilot.pause()
        assert view.row_count == 5


async def test_summary_marker_opens_text_literally() -> None:
    """Enter on a summary marker opens its text; hostile markup is shown, not interpreted."""
    snap = fakes.session(fakes.scope(30, summary_every=10))
    app = MockApp(snap)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        await pilot.press("4")
        summaries = app.query_one(SummaryList)
        assert summaries.has_focus
        assert summaries.highlighted == 1  # the newest marker at or before the cursor (#20)
        await pilot.press("enter")
        assert isinstance(app.screen, TextScreen)
        body = app.screen.query_one("#text-body").render()
        assert "[bold red]x[/]" in str(getattr(body, "plain", body))
        assert "\x1b" not in str(getattr(body, "plain", body))
        await pilot.press("escape")
        assert app.screen is app.dashboard


async def test_enter_on_timeline_opens_the_summary_at_the_cursor() -> None:
    snap = fakes.session(fakes.scope(30, summary_every=10))
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        dashboard(app).cursor = 20
        await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.screen, TextScreen)


async def test_highlighting_a_summary_moves_the_cursor() -> None:
    snap = fakes.session(fakes.scope(30, summary_every=10))
    app = MockApp(snap)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        await pilot.press("4", "up")
        await pilot.pause()
        assert dashboard(app).cursor == 10
        assert not dashboard(app).follow


async def test_agent_compactions_are_listed() -> None:
    from ctxscope.core.snapshot import AgentCompaction

    compaction = AgentCompaction(9, "summary", "auto", 170_251, 36_081, 8_119, 0, "the summary")
    scope = dataclasses.replace(fakes.scope(20), agent_compactions=(compaction,))
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        entries = app.query_one(SummaryList).entries
        assert [e.request_index for e in entries] == [9]
        assert entries[0].compaction is compaction


async def test_help_screen_and_problems_screen() -> None:
    snap = fakes.session(fakes.scope(3), bad_lines={"invalid_json": 2, "wrong_type": 1})
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("e")
        assert isinstance(app.screen, ProblemsScreen)
        await pilot.press("escape")
        assert app.screen is app.dashboard


async def test_error_strip_counts_and_notices() -> None:
    """Bad lines are counted by kind; a truncation notice shows; the strip hides when clean."""
    app = MockApp(fakes.session(fakes.scope(3)))
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        strip = app.query_one(ErrorStrip)
        assert not strip.has_class("-shown")
        snap = fakes.session(fakes.scope(3), bad_lines={"invalid_json": 2})
        notice = Problem("truncated", 0, "session.jsonl was truncated; read again")
        snap = dataclasses.replace(snap, notices=(notice,))
        app.post_message(fakes.update(snap, generation=1))
        await pilot.pause()
        assert strip.has_class("-shown")
        text = plain(strip)
        assert "2 bad lines" in text and "invalid_json 2" in text and "truncated" in text


async def test_new_generation_starts_over() -> None:
    """After truncation (a new generation) the summaries list and detail are rebuilt."""
    app = MockApp(fakes.session(fakes.scope(30, summary_every=10)))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert len(app.query_one(SummaryList).entries) == 2
        app.post_message(fakes.update(fakes.session(fakes.scope(4)), generation=1))
        await pilot.pause()
        assert app.query_one(SummaryList).entries == []
        assert dashboard(app).cursor == 3


async def test_snapshot_messages_coalesce() -> None:
    """Only the newest snapshot is processed when several are queued (can_replace)."""
    first = fakes.update(fakes.session(fakes.scope(1)))
    second = fakes.update(fakes.session(fakes.scope(2)))
    assert second.can_replace(first)
    assert not DetailLoaded("main", 0, None).can_replace(first)
    app = MockApp(None)
    seen: list[int] = []
    async with app.run_test(size=(120, 40), message_hook=lambda m: seen.append(1)
                            if isinstance(m, SnapshotUpdated) else None) as pilot:
        for n in range(1, 40):
            app.post_message(fakes.update(fakes.session(fakes.scope(n))))
        await pilot.pause()
        assert dashboard(app).cursor == 38


async def test_waiting_for_the_first_request() -> None:
    """A session with no model call yet shows what it is waiting for, and nothing crashes."""
    empty = fakes.session(fakes.scope(0))
    app = MockApp(empty, mode=Mode.LIVE)
    async with app.run_test(size=(100, 30)) as pilot:
        await detail_shown(pilot)
        assert "No model call yet" in plain(app.query_one(ContextMeter))
        await pilot.press("left", "right", "home", "end", "enter", "4", "2")
        assert dashboard(app).cursor == -1


async def test_reading_progress_in_header() -> None:
    app = MockApp(fakes.session(fakes.scope(3)), done=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        header = plain(app.query_one(StatusHeader))
        assert re.search(r"reading \d+%", header)
        assert "of 3.0 MB" in header
        status = TailStatus(Mode.OFFLINE, bytes_read=10, size=40, done=False)
        assert status.lag_bytes == 30 and status.progress == 0.25


async def test_palette_provider_lists_scopes_and_agent_compactions() -> None:
    from ctxscope.core.snapshot import AgentCompaction

    compactions = tuple(
        AgentCompaction(k, "summary", "auto", 170_000, 36_000, 8_000, 0, "") for k in (10, 20)
    )
    main = dataclasses.replace(fakes.scope(30), agent_compactions=compactions)
    snap = fakes.session(main, fakes.scope(3, scope_id="sub", parent="main"))
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        provider = DashboardCommands(app.dashboard)
        hits = [hit async for hit in provider.search("summary")]
        names = [hit.text for hit in hits]
        assert "Go to the agent's summary at request #10" in names
        scopes = [hit.text async for hit in provider.search("scope")]
        assert any("sub" in (name or "") for name in scopes)
        discovered = [hit async for hit in provider.discover()]
        assert len(discovered) >= 8
        target = next(hit for hit in hits if hit.text == "Go to the agent's summary at request #20")
        target.command()
        await pilot.pause()
        assert dashboard(app).cursor == 20


async def test_compact_layout_at_80x24_shows_one_pane() -> None:
    """80×24: tabs show and one pane at a time; 1-4 switch; nothing overlaps the footer."""
    app = MockApp(fakes.session(fakes.scope(40, summary_every=15)))
    async with app.run_test(size=(80, 24)) as pilot:
        await detail_shown(pilot)
        assert app.screen.has_class("-narrow") and app.screen.has_class("-short")
        assert app.query_one("#pane-tabs").display
        assert app.query_one("#timeline-pane").display
        assert not app.query_one("#messages-pane").display
        await pilot.press("2")
        assert app.query_one("#messages-pane").display
        assert not app.query_one("#timeline-pane").display
        assert app.query_one(MessagesView).has_focus
        plot = app.query_one(TimelinePlot)
        assert plot.size.height == 0 or plot.region.bottom <= 23


async def test_wide_layout_shows_every_pane() -> None:
    app = MockApp(fakes.session(fakes.scope(40, summary_every=15)))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert app.screen.has_class("-wide") and app.screen.has_class("-tall")
        assert not app.query_one("#pane-tabs").display
        for pane in ("timeline", "messages", "breakdown", "summaries"):
            region = app.query_one(f"#{pane}-pane").region
            assert region.width > 40 and region.height > 8, pane
        assert app.query_one(TimelinePlot).size.height >= 12


async def test_scope_picker_option_list_is_safe() -> None:
    """Scope labels are raw log text: shown literally in the picker."""
    snap = fakes.session(fakes.scope(2), fakes.scope(2, scope_id="s2", parent="main", label=fakes.HOSTILE))
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        await pilot.press("S")
        options = app.screen.query_one(OptionList)
        prompt = options.get_option_at_index(1).prompt
        text = getattr(prompt, "plain", str(prompt))
        assert "[bold red]x[/]" in text
        assert not any(ch in text for ch in "\x1b\x07\x00\r\u202e\u200b")


async def test_hostile_scope_label_in_titles() -> None:
    """A scope label is log text: in the pane title it stays literal (a str title would be markup)."""
    label = "[/path] [bold red]x[/] [unbalanced \x1b[2J"
    snap = fakes.session(fakes.scope(2), fakes.scope(3, label=label, scope_id="s", parent="main"))
    app = MockApp(snap)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        await pilot.press("right_square_bracket")
        title = str(app.query_one("#timeline-pane").border_title)
        assert "[/path]" in title.replace("\\[", "[") and "\x1b" not in title
        svg = app.export_screenshot().replace("&#160;", " ")
        assert "[/path] [bold red]x[/]" in svg


async def test_m_opens_the_policy_lab_on_the_shown_scope() -> None:
    """m: the memory-policy lab for the shown scope (it reads the log in its own worker)."""
    from ctxscope.tui.screens.policies import PolicyLabScreen

    snap = dataclasses.replace(
        fakes.session(fakes.scope(5), fakes.scope(3, scope_id="agent-1", parent="main")), estimator="openai"
    )
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        await pilot.press("right_square_bracket", "m")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PolicyLabScreen)
        assert screen.request.scope_id == "agent-1" and screen.request.path == "/logs/session.jsonl"
        assert screen.request.estimator == "openai"  # the meter's: the lab's counts agree with it
        await pilot.app.workers.wait_for_complete()
        await pilot.press("escape")
        assert not isinstance(app.screen, PolicyLabScreen)


async def test_a_request_whose_detail_a_live_view_released_says_so() -> None:
    """Watching live, old requests keep their figures; their breakdowns and messages say they are
    not held (and the dashboard does not ask the tailer for them)."""
    from ctxscope.tui.widgets.breakdown import RELEASED_NOTE, BreakdownPanel

    base = fakes.scope(30)
    released = tuple(
        dataclasses.replace(r, fate_counts={}, by_category={}, by_tool={}, detail_released=True)
        if r.index < 20
        else r
        for r in base.records
    )
    snap = fakes.session(dataclasses.replace(base, records=released))
    app = MockApp(snap, mode=Mode.LIVE, done=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        asked = len(app.detail_requests)
        await pilot.press("home")
        await pilot.pause()
        text = " ".join(app.query_one(BreakdownPanel).plain.split())
        assert "Request #0: not kept while watching live" in text and "ctxscope open shows all" in text
        assert RELEASED_NOTE.split(":")[0] in " ".join(plain(app.query_one(MessagesView)).split()) or (
            app.query_one(MessagesView).row_count == 0
        )
        assert all(index >= 20 for _, index in app.detail_requests[asked:])
        # The timeline still shows every request's figures.
        assert "#0" in plain(app.query_one(StageLanes))
        await pilot.press("end")
        await pilot.pause()
        assert app.detail_requests[-1] == ("main", 29)


async def test_footer_enables_the_scope_keys_when_a_second_scope_appears() -> None:
    """Found chasing a flaky snapshot (TestRealData under load): ``S Scopes`` is enabled only with
    more than one scope (``check_action``), but nothing refreshed the footer when a snapshot
    brought the second scope, so whether it showed enabled depended on whether the first
    snapshot landed before or after the startup focus refreshed the bindings."""
    from textual.widgets import Footer

    def scope_key_enabled(app: MockApp) -> bool:
        keys = [key for key in app.query_one(Footer).query("FooterKey") if key.action == "pick_scope"]
        assert len(keys) == 1
        return not keys[0].has_class("-disabled")

    one = fakes.session(fakes.scope(5))
    two = fakes.session(fakes.scope(5), fakes.scope(3, scope_id="agent-1", parent="main", label="sub"))
    app = MockApp(one)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert not scope_key_enabled(app)
        app.post_message(fakes.update(two))
        await detail_shown(pilot)
        assert scope_key_enabled(app)
        app.post_message(fakes.update(one))
        await detail_shown(pilot)
        assert not scope_key_enabled(app)
