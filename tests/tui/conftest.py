"""Dashboard test fixtures: a MockApp with the tailer replaced by injected messages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from ctxscope.core.snapshot import SessionSnapshot
from ctxscope.tui.app import CtxscopeApp, DashboardOptions
from ctxscope.tui.messages import DetailLoaded, Mode

from . import fakes


class MockApp(CtxscopeApp):
    """The dashboard without a tailer: tests post ``SnapshotUpdated``; details come from fakes.

    Args:
        snapshot: Posted once the app is mounted (None: post nothing).
        detail_messages: How many messages each fake detail has (default: the record's count).
        preview: Preview text of every fake message.
    """

    def __init__(
        self,
        snapshot: SessionSnapshot | None = None,
        *,
        detail_messages: int | None = None,
        preview: str = "",
        done: bool = True,
        mode: Mode = Mode.OFFLINE,
    ) -> None:
        super().__init__(DashboardOptions("/logs/session.jsonl", mode=mode), start_tailer=False)
        self.initial = snapshot
        self.detail_messages = detail_messages
        self.preview = preview
        self.done = done
        self.detail_requests: list[tuple[str, int]] = []
        self.answer_details = True

    def on_mount(self) -> None:
        super().on_mount()
        if self.initial is not None:
            self.post_message(fakes.update(self.initial, done=self.done, mode=self.options.mode))

    def request_detail(self, scope_id: str, index: int) -> None:
        self.detail_requests.append((scope_id, index))
        if not self.answer_details:
            return
        snapshot = self.dashboard.snapshot
        assert snapshot is not None
        scope = snapshot.scopes.get(scope_id)
        if scope is None or index >= len(scope.records):
            return  # asked for before a newer snapshot (a new generation) came: the tailer drops it
        record = scope.records[index]
        detail = fakes.detail(record, self.detail_messages, preview=self.preview)
        self.post_message(DetailLoaded(scope_id, index, detail, self.dashboard.generation))


async def detail_shown(pilot: object, turns: int = 100) -> None:
    """Let the app run until the selected request's detail is on screen (its round trip is asked
    after a refresh and takes a few turns of the message loop), for at most ``turns`` pauses."""
    app = pilot.app  # type: ignore[attr-defined]
    for _ in range(turns):
        await pilot.pause()  # type: ignore[attr-defined]
        screen = app.dashboard
        if screen.detail is not None and screen.record is not None and screen.detail.record == screen.record:
            await pilot.pause()  # type: ignore[attr-defined]
            return


@pytest.fixture
def mock_app() -> Callable[..., MockApp]:
    return MockApp


FROZEN_NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
"""The header's clock in every dashboard test ("last call … ago" must not change between runs)."""


@pytest.fixture(autouse=True)
def _frozen_header_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from ctxscope.tui.widgets import header

    monkeypatch.setattr(header, "CLOCK", lambda: FROZEN_NOW)


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing in the dashboard blinks, but palette inputs do: keep snapshots stable."""
    from textual.widgets import Input

    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)


class ReadyApp(CtxscopeApp):
    """The real app (real tailer); :attr:`ready` is set once the log is read through and the
    selected request's detail is on screen (snapshot tests wait on it, not on a timer)."""

    def __init__(self, options: DashboardOptions) -> None:
        super().__init__(options)
        import asyncio

        self.ready = asyncio.Event()

    def _check_ready(self) -> None:
        screen = self.dashboard
        status = screen.status
        if status is None or not status.done:
            return
        scope = screen.scope
        if scope is None or not scope.records:
            self.ready.set()
            return
        if screen.detail is not None and screen.record is not None and screen.detail.record == screen.record:
            self.ready.set()

    def on_snapshot_updated(self, message: object) -> None:
        self.call_after_refresh(self._check_ready)

    def on_detail_loaded(self, message: object) -> None:
        self.call_after_refresh(self._check_ready)


async def wait_ready(pilot: object) -> None:
    """Wait for :attr:`ReadyApp.ready` (set by the app's own messages: the log read through and
    the selected request's detail on screen), then draw a replot the timeline deferred for its
    rate limit at once instead of waiting out its timer (under load the last snapshot may arrive
    within ``REPLOT_INTERVAL`` of the previous one). No sleep: each step waits for an event."""
    import asyncio

    from ctxscope.tui.widgets.timeline import TimelinePlot

    app = pilot.app  # type: ignore[attr-defined]
    # Only a guard against a hang (a failing tailer): nothing here waits for time to pass.
    await asyncio.wait_for(app.ready.wait(), HANG_GUARD_S)
    await pilot.pause()  # type: ignore[attr-defined]
    for plot in app.query(TimelinePlot):
        pending = plot._pending
        if pending is not None:  # what its timer would draw, drawn now
            pending.stop()
            plot._deferred()
    await pilot.pause()  # type: ignore[attr-defined]


HANG_GUARD_S = 600
"""How long :func:`wait_ready` lets a real log load before calling it a hang (a loaded machine
took 90 s for four of these tests; the guard is far beyond that, not a deadline to race)."""


async def until(pilot: object, condition: Callable[[], bool]) -> None:
    """Let the app process messages until ``condition()`` holds. What it waits for is done in the
    tailer's thread, so each step yields for 10 ms; the bound is only a guard against a hang
    (:data:`HANG_GUARD_S`), never a guess of how long a busy machine takes."""
    for _ in range(int(HANG_GUARD_S / 0.01)):
        if condition():
            return
        await pilot.pause(0.01)  # type: ignore[attr-defined]
    raise AssertionError("condition not reached")
