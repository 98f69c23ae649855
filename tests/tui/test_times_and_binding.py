"""Each request's time beside it (messages and summaries panes), the header at every width, and the
widgets' bound reactives (a widget changes only when its own value does)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from ctxscope.core.snapshot import MessageTimes, ScopeTotals
from ctxscope.tui.app import DashboardOptions
from ctxscope.tui.messages import Mode, TailStatus
from ctxscope.tui.widgets.breakdown import BreakdownPanel
from ctxscope.tui.widgets.header import StatusHeader, header_text
from ctxscope.tui.widgets.messages_view import MessagesView
from ctxscope.tui.widgets.meter import ContextMeter
from ctxscope.tui.widgets.summaries import SummaryList

from ..conftest import shared_path
from . import fakes
from .conftest import MockApp, ReadyApp, detail_shown, wait_ready

CLAUDE_LOG = ("real-logs", "claude-code", "spotter-4d5611e5-autocompact",
              "4d5611e5-241a-462a-8d15-5122611a9569.jsonl")


def timed_scope(count: int) -> object:
    """A scope whose request i was sent at 09:00 + i minutes (two messages a request)."""
    base = fakes.scope(count, summary_every=10)
    records = tuple(
        dataclasses.replace(r, timestamp=f"2026-11-30T09:{r.index:02d}:00Z") for r in base.records
    )
    return dataclasses.replace(base, records=records, totals=ScopeTotals().extended(records))


def test_message_times_are_the_first_request_that_carried_each_message() -> None:
    scope = timed_scope(5)  # request i carries 5 + 2i messages
    times = MessageTimes(scope.records, scope.records[-1].message_count)  # type: ignore[attr-defined]
    assert times[0] == times[4] == datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    assert times[5] == times[6] == datetime(2026, 11, 30, 9, 1, tzinfo=UTC)
    assert times[-1] == datetime(2026, 11, 30, 9, 4, tzinfo=UTC)
    assert len(times[2:6]) == 4
    with pytest.raises(IndexError):
        times[len(times)]


async def test_summary_rows_show_their_request_time_and_untimed_logs_say_so() -> None:
    app = MockApp(fakes.session(timed_scope(25)))  # type: ignore[arg-type]
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        summaries = app.query_one(SummaryList)
        rows = [str(summaries.get_option_at_index(i).prompt) for i in range(summaries.option_count)]
        assert any("#10" in row and "09:10:00" in row for row in rows)
        assert "timestamps" not in str(app.dashboard.query_one("#summaries-pane").border_title)
    untimed = dataclasses.replace(fakes.session(fakes.scope(25, summary_every=10)), lens="recorded")
    app = MockApp(untimed)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert "no timestamps in the log" in str(app.dashboard.query_one("#summaries-pane").border_title)
        assert "no timestamps in the log" in str(app.dashboard.query_one("#messages-pane").border_title)
        assert "no timestamps in the log" in app.query_one(StatusHeader).render().plain
    app = MockApp(fakes.session(fakes.scope(25, summary_every=10)))  # the pipeline lens says so too
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert "no timestamps in the log" in app.query_one(StatusHeader).render().plain
        assert "no timestamps in the log" in str(app.dashboard.query_one("#summaries-pane").border_title)


@pytest.mark.shared
async def test_message_rows_show_when_each_message_was_first_sent() -> None:
    """The real tailer on a Claude Code log: every row has its time, the title the request's."""
    app = ReadyApp(DashboardOptions(str(shared_path(*CLAUDE_LOG)), mode=Mode.OFFLINE, redact=True))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        view = app.query_one(MessagesView)
        rows = [view.render_line(y).text for y in range(3)]
        assert all(row.split()[1].count(":") == 2 for row in rows), rows  # `   0 21:14:05 user …`
        title = str(app.dashboard.query_one("#messages-pane").border_title)
        assert " UTC" in title and "no timestamps" not in title


@pytest.mark.parametrize("width", [80, 120, 160, 200])
def test_header_fields_give_way_whole_never_cut(width: int) -> None:
    snap = fakes.session(fakes.scope(3), fakes.scope(3, scope_id="s", parent="main", label="review slice 1"))
    snap = dataclasses.replace(snap, estimator="claude", format="claude-code")
    status = TailStatus(Mode.OFFLINE, 10, 10, True, "/logs/session.jsonl")
    text = header_text(snap, snap.scopes["s"], status, paused=False, follow=True, width=width).plain
    assert len(text) <= width and not text.endswith("…")
    assert "model claude-opus-4-6" in text  # the model keeps its place longest
    for field in ("format claude-code", "estimator claude", "session 4d5611e5"):
        assert field in text or field.split()[0] + " " not in text  # whole or not at all
    if width >= 160:
        assert "format claude-code" in text


async def test_widgets_change_only_when_their_own_value_does() -> None:
    """A snapshot that grows another scope: the shown scope's record and detail stay the same
    objects, so the breakdown and the messages list keep what they rendered."""
    main, sub = fakes.scope(30), fakes.scope(4, scope_id="s", parent="main", label="sub")
    app = MockApp(fakes.session(main, sub))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        breakdown, view = app.query_one(BreakdownPanel), app.query_one(MessagesView)
        lines, detail = breakdown._lines, view.detail
        record = app.query_one(ContextMeter).record
        assert record is not None and record.index == 29 and detail is not None
        grown = fakes.scope(6, scope_id="s", parent="main", label="sub")
        app.post_message(fakes.update(fakes.session(main, grown)))
        for _ in range(100):  # bounded turns of the message loop, never a sleep
            await pilot.pause()
            if app.dashboard.snapshot is not None and len(app.dashboard.snapshot.scopes["s"].records) == 6:
                break
        await pilot.pause()
        assert app.query_one(StatusHeader).snapshot is app.dashboard.snapshot  # the header took it
        assert app.query_one(ContextMeter).record is record
        assert breakdown._lines is lines and view.detail is detail
        assert len(app.detail_requests) == 1  # nothing new to ask for
