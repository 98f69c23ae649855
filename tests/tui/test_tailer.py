"""The real tailer on real files (tmp_path): live appends, truncation, offline progress, shutdown.

Waits are on events and messages (with a generous upper bound so a broken build fails rather than
hangs), never on wall-clock sleeps.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from ctxscope.core.logformat import SessionLogWriter
from ctxscope.tui.app import CtxscopeApp, DashboardOptions
from ctxscope.tui.messages import DetailLoaded, Mode, SnapshotUpdated, TailerFailed
from ctxscope.tui.tailer import CoreSource, Tailer
from textual.message import Message

from . import fakes

TIMEOUT = 30.0


class Inbox:
    """Collects posted messages and lets a test wait for one that satisfies a condition."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._changed = asyncio.Event()

    def post(self, message: Message) -> bool:
        self.messages.append(message)
        self._changed.set()
        return True

    @property
    def snapshots(self) -> list[SnapshotUpdated]:
        return [m for m in self.messages if isinstance(m, SnapshotUpdated)]

    async def wait_for(self, condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async def loop() -> None:
            while not condition():
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)


def requests_in(message: SnapshotUpdated, scope: str = "main") -> int:
    found = message.snapshot.scopes.get(scope)
    return len(found.records) if found is not None else 0


async def held_back(tailer: Tailer, size: int, timeout: float = TIMEOUT) -> None:
    """Wait until the tailer has read a half-written last line of ``size`` bytes and holds it
    back (the reader keeps it until its newline)."""
    def holding() -> bool:
        source = tailer.source
        reader = source.follower.reader if isinstance(source, CoreSource) else None
        return reader is not None and reader.main.tail.pending_bytes == size

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not holding():
        assert loop.time() < deadline, "the tailer never read the half line"
        await asyncio.sleep(0.01)


def append_turns(path: Path, start: int, count: int, **kwargs: object) -> None:
    with SessionLogWriter.create(path, append=True) as log:
        fakes.write_turns(log, start, count, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "polling"])
async def test_live_tailer_sees_appends(tmp_path: Path, poll: bool) -> None:
    """Appended turns reach a new snapshot; a half-written line waits for its newline."""
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox = Inbox()
    tailer = Tailer(inbox.post, lambda: CoreSource(str(log)), Mode.LIVE, force_polling=poll)
    task = asyncio.create_task(tailer.run())
    try:
        await inbox.wait_for(lambda: bool(inbox.snapshots) and requests_in(inbox.snapshots[-1]) == 3)
        assert inbox.snapshots[-1].status.done
        await asyncio.wait_for(tailer.watching.wait(), TIMEOUT)
        append_turns(log, 3, 2)
        await inbox.wait_for(lambda: requests_in(inbox.snapshots[-1]) == 5)
        # half a line: not read until its newline arrives
        with open(log, "ab") as handle:
            handle.write(b'{"t": "request", "scope": "main"')
            handle.flush()
            os.fsync(handle.fileno())
            await held_back(tailer, len(b'{"t": "request", "scope": "main"'))  # it must wait
            handle.write(b"}\n")
        await inbox.wait_for(lambda: requests_in(inbox.snapshots[-1]) == 6)
        last = inbox.snapshots[-1]
        assert not last.snapshot.bad_lines  # the half line was never parsed on its own
        assert last.status.lag_bytes == 0
        assert last.status.mode is Mode.LIVE
        tailer.request_detail("main", 4)
        await inbox.wait_for(lambda: any(isinstance(m, DetailLoaded) for m in inbox.messages))
        detail = next(m for m in inbox.messages if isinstance(m, DetailLoaded))
        assert detail.detail is not None and detail.detail.record.index == 4
        assert len(detail.detail.messages) == detail.detail.record.message_count
    finally:
        tailer.stop()
        await asyncio.wait_for(task, 5)


async def test_truncation_starts_a_new_generation(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=5)
    inbox = Inbox()
    tailer = Tailer(inbox.post, lambda: CoreSource(str(log)), Mode.LIVE)
    task = asyncio.create_task(tailer.run())
    try:
        await inbox.wait_for(lambda: bool(inbox.snapshots) and requests_in(inbox.snapshots[-1]) == 5)
        await asyncio.wait_for(tailer.watching.wait(), TIMEOUT)
        fakes.write_session(log, turns=1)  # rewritten from scratch, shorter
        await inbox.wait_for(lambda: inbox.snapshots[-1].generation == 1
                             and requests_in(inbox.snapshots[-1]) == 1)
        notices = inbox.snapshots[-1].snapshot.notices
        assert notices and notices[-1].kind in ("truncated", "rotated")
    finally:
        tailer.stop()
        await asyncio.wait_for(task, 5)


async def test_offline_first_screen_before_the_end(tmp_path: Path) -> None:
    """A large log: the first snapshot arrives before reading is done, then progress, then done."""
    log = tmp_path / "big.jsonl"
    fakes.write_session(log, turns=250)
    assert log.stat().st_size > 2 << 20  # more than one read step
    inbox = Inbox()
    tailer = Tailer(inbox.post, lambda: CoreSource(str(log)), Mode.OFFLINE)
    task = asyncio.create_task(tailer.run())
    try:
        await inbox.wait_for(lambda: bool(inbox.snapshots) and inbox.snapshots[-1].status.done)
        first, last = inbox.snapshots[0], inbox.snapshots[-1]
        assert not first.status.done
        assert 0 < first.status.bytes_read < first.status.size
        assert requests_in(last) == 250
        assert last.status.bytes_read == log.stat().st_size
    finally:
        tailer.stop()
        await asyncio.wait_for(task, 5)


async def test_shutdown_is_immediate(tmp_path: Path) -> None:
    """Stopping a live tailer returns at once (the watcher thread hears the stop event)."""
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=1)
    inbox = Inbox()
    tailer = Tailer(inbox.post, lambda: CoreSource(str(log)), Mode.LIVE)
    task = asyncio.create_task(tailer.run())
    await asyncio.wait_for(tailer.watching.wait(), TIMEOUT)
    loop = asyncio.get_running_loop()
    start = loop.time()
    tailer.stop()
    await asyncio.wait_for(task, 5)
    assert loop.time() - start < 1.0


async def test_unreadable_log_is_reported(tmp_path: Path) -> None:
    inbox = Inbox()
    missing = tmp_path / "gone.jsonl"
    tailer = Tailer(inbox.post, lambda: CoreSource(str(missing)), Mode.OFFLINE)
    await asyncio.wait_for(tailer.run(), TIMEOUT)
    failures = [m for m in inbox.messages if isinstance(m, TailerFailed)]
    assert failures and "\n" not in failures[0].reason


async def test_app_with_the_real_tailer(tmp_path: Path) -> None:
    """The whole app on a live file: the dashboard follows appended requests."""
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=2, subagent_turns=2)
    app = CtxscopeApp(DashboardOptions(str(log), mode=Mode.LIVE))
    inbox = Inbox()
    async with app.run_test(size=(120, 40), message_hook=inbox.post):
        await inbox.wait_for(lambda: bool(inbox.snapshots) and requests_in(inbox.snapshots[-1]) == 2)
        assert app.tailer is not None
        await asyncio.wait_for(app.tailer.watching.wait(), TIMEOUT)
        append_turns(log, 2, 3)
        await inbox.wait_for(lambda: requests_in(inbox.snapshots[-1]) == 5)
        await inbox.wait_for(
            lambda: any(isinstance(m, DetailLoaded) and m.index == 4 for m in inbox.messages)
        )
        screen = app.dashboard
        assert screen.cursor == 4
        assert set(screen.snapshot.scopes) == {"main", "sub-1"}  # type: ignore[union-attr]
        assert screen.detail is not None and screen.detail.record.index == 4
    assert app.tailer.stop_event.is_set()


async def test_folder_follows_the_newest_log(tmp_path: Path) -> None:
    older = tmp_path / "a.jsonl"
    fakes.write_session(older, turns=2)
    os.utime(older, (1, 1))
    inbox = Inbox()
    tailer = Tailer(inbox.post, lambda: CoreSource(str(tmp_path)), Mode.LIVE)
    task = asyncio.create_task(tailer.run())
    try:
        await inbox.wait_for(lambda: bool(inbox.snapshots) and requests_in(inbox.snapshots[-1]) == 2)
        await asyncio.wait_for(tailer.watching.wait(), TIMEOUT)
        fakes.write_session(tmp_path / "b.jsonl", turns=4)
        await inbox.wait_for(lambda: requests_in(inbox.snapshots[-1]) == 4)
        assert inbox.snapshots[-1].status.path.endswith("b.jsonl")
        assert inbox.snapshots[-1].generation >= 1
    finally:
        tailer.stop()
        await asyncio.wait_for(task, 5)


def test_budget_override_takes_calibration_from_the_recorded_run(tmp_path: Path) -> None:
    """``--budget`` shows the pipeline lens over the recorded configuration's replay, as
    ``ctxscope report`` does: the usage in the log belongs to what was really sent, so calibration
    comes from there; the source is the same :class:`Analysis` the report uses."""
    import random

    from ctxscope.core.analysis import AnalysisOptions, analyse
    from ctxscope.core.pipeline import PipelineConfig
    from ctxscope.core.reader import open_log
    from ctxscope.core.replay import SessionReplay
    from ctxscope.demo_sessions.agent import Transcript
    from ctxscope.demo_sessions.scenarios import ScenarioContext

    path = tmp_path / "calibrated.jsonl"
    with SessionLogWriter.create(path) as log:
        ctx = ScenarioContext(Transcript(log), random.Random(0))
        # The "provider" counts with another tokenizer profile, so calibration is not 1.
        agent = ctx.agent("main", PipelineConfig(hard_limit=60_000, budget=30_000), usage_estimator="openai")
        agent.user("Read these files and note what each one does.")
        agent.call_model()
        for i, text in enumerate(fakes._stdlib_texts() * 2):
            agent.tool_round(f"Reading file {i}.", "Read", {"path": f"f{i}.py"}, text[:12_000])
    source = CoreSource(str(path), budget=15_000, lens="pipeline")
    source.read(None)
    source.finish()
    got = [r.calibration_factor for r in source.snapshot().scopes["main"].records]
    session = open_log(path)
    options = AnalysisOptions(config=PipelineConfig(budget=15_000))
    expected = analyse(session, options).snapshot("pipeline").scopes["main"].records
    assert got == [r.calibration_factor for r in expected]
    assert len({round(f, 3) for f in got}) > 1 or got[-1] != 1.0
    fresh = SessionReplay(PipelineConfig(budget=15_000))
    fresh.update(session)
    assert got != [r.calibration_factor for r in fresh.records("main")]  # an uncalibrated replay


def test_a_live_source_keeps_only_the_newest_details_and_releases_the_rest(tmp_path: Path) -> None:
    """The live dashboard's source (``keep_detail``) shows the same figures as a full one while
    holding only the newest requests' detail and the messages they show."""
    log = tmp_path / "long.jsonl"
    fakes.write_session(log, turns=10, limit=30_000, budget=12_000)
    live = CoreSource(str(log), keep_detail=8)
    live.read(None)
    with SessionLogWriter.create(log, append=True) as writer:
        for start in range(10, 150, 20):
            fakes.write_turns(writer, start, 20)
            writer.stream.flush()
            live.read(None)
    full = CoreSource(str(log))
    full.read(None)
    mine, theirs = live.snapshot().scopes["main"].records, full.snapshot().scopes["main"].records
    assert len(mine) == len(theirs) == 150
    assert [(r.sent_tokens, r.stored_tokens, r.stages, r.summary) for r in mine] == [
        (r.sent_tokens, r.stored_tokens, r.stages, r.summary) for r in theirs
    ]
    assert sum(r.detail_released for r in mine) == 142 and not mine[-1].detail_released
    assert live.detail("main", 0) is None and full.detail("main", 0) is not None
    assert live.detail("main", 149) is not None
    scope = live.follower.session.scopes["main"]  # type: ignore[union-attr]
    held = len(list(scope.messages))
    assert scope.messages.offset > 0 and held < len(scope.messages) // 2
