"""``ctxscope demo``: the playback writer, the captions, and one scenario end to end, headless.

The end-to-end test runs the real writer thread and the real tailer on a temporary log; it waits on
conditions (with generous upper bounds), never on fixed sleeps.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from ctxscope.core.replay import WhatIf
from ctxscope.demo_sessions.scenarios import SCENARIOS
from ctxscope.tui.cli import main
from ctxscope.tui.demo import (
    DemoApp,
    DemoBar,
    DemoScreen,
    Playback,
    PlaybackState,
    closing_caption,
    scenario_list,
    split_steps,
)
from ctxscope.tui.screens.whatif import WhatIfScreen
from ctxscope.tui.widgets.header import StatusHeader

TIMEOUT = 60.0


async def until(pilot: object, condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Let the app run until ``condition`` holds (fails after ``timeout`` seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)  # type: ignore[attr-defined]


def test_split_steps_ends_each_step_with_a_model_call() -> None:
    log = (b'{"v":1,"t":"session"}\n{"t":"message"}\n{"t":"request"}\n'
           b'{"t":"message"}\n{"t":"request"}\n{"t":"message"}\n')
    steps = split_steps(log)
    assert steps == [
        b'{"v":1,"t":"session"}\n{"t":"message"}\n{"t":"request"}\n',
        b'{"t":"message"}\n{"t":"request"}\n{"t":"message"}\n',
    ]
    assert b"".join(steps) == log


def test_playback_steps_pauses_and_restarts(tmp_path: Path) -> None:
    """The writer thread alone: paused it writes nothing; a step writes one model call; restart
    replaces the file (a new inode, so a tailer sees a rotation, never a half-truncated file)."""
    playback = Playback(SCENARIOS["cache-batching"], tmp_path, speed=1.0)
    assert playback.steps and b"".join(playback.steps).count(b'"t":"request"') == len(playback.steps)
    states: list[PlaybackState] = []
    wrote = threading.Event()

    def notify(state: PlaybackState) -> None:
        states.append(state)
        wrote.set()

    playback.toggle()  # paused before the writer starts
    thread = threading.Thread(target=playback.run, args=(notify,), daemon=True)
    thread.start()
    try:
        assert not wrote.wait(0.3) and playback.path.stat().st_size == 0
        playback.step()
        assert wrote.wait(10)
        assert states[-1].position == 1 and states[-1].paused
        assert playback.path.read_bytes() == playback.steps[0]
        wrote.clear()
        playback.step()
        assert wrote.wait(10) and states[-1].position == 2
        inode = playback.path.stat().st_ino
        wrote.clear()
        playback.restart()
        assert wrote.wait(10)
        assert states[-1].run == 1 and states[-1].position in (0, 1)
        assert playback.path.stat().st_ino != inode
        assert playback.set_speed(1e9).speed == 128 and playback.slower().speed == 64
    finally:
        playback.stop()
        thread.join(10)
    assert not thread.is_alive()


def test_demo_list_and_unknown_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("1  eight-subagents") and "6  cache-batching" in out
    assert main(["demo", "nope"]) == 2
    assert "no scenario 'nope'" in capsys.readouterr().err
    assert scenario_list(list(SCENARIOS.values())).count("\n") == len(SCENARIOS) - 1


async def test_demo_end_to_end(tmp_path: Path) -> None:
    """cache-batching played live: the intro caption, stage captions, pause, step, speed, the
    side-by-side what-if view (core's WhatIf: batches of 4 keep more of the prefix cached than 1),
    the closing caption, and a restart."""
    scenario = SCENARIOS["cache-batching"]
    playback = Playback(scenario, tmp_path, speed=32)
    app = DemoApp(playback)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.dashboard
        assert isinstance(screen, DemoScreen)
        screen.caption_seconds = 0.05
        bar = app.query_one(DemoBar)
        assert scenario.intro in screen.captions.shown[0]
        await until(pilot, lambda: screen.snapshot is not None and screen.scope is not None
                    and len(screen.scope.records) >= 3)
        assert "LIVE" in app.query_one(StatusHeader).render().plain

        # Pause: the writer stops; the bar says so.
        await pilot.press("space")
        paused_at = playback.state().position
        assert playback.state().paused and "paused" in bar.render().plain
        await pilot.pause(0.3)
        assert playback.state().position == paused_at
        # Step: exactly one more model call, and the dashboard shows it.
        await pilot.press("n")
        await until(pilot, lambda: playback.state().position == paused_at + 1)
        await until(pilot, lambda: screen.scope is not None and len(screen.scope.records) == paused_at + 1)
        # Speed up and down (the bar shows the multiplier).
        await pilot.press("plus")
        assert playback.state().speed == 64 and "×64" in bar.render().plain
        await pilot.press("minus", "minus")
        assert playback.state().speed == 16

        # Play to the end: stage 2's caption and the closing caption appear.
        await pilot.press("plus", "plus", "plus", "space")
        assert not playback.state().paused
        await until(pilot, lambda: playback.state().finished)
        await until(pilot, lambda: any(c.startswith("Scenario over") for c in screen.captions.shown))
        shown = "\n".join(screen.captions.shown)
        assert "Stage 2 cleared the 4 oldest tool results" in shown
        assert "finished" in bar.render().plain
        records = screen.scope.records  # type: ignore[union-attr]
        assert screen.captions.shown[-1] == closing_caption(screen.snapshot, scenario)  # type: ignore[arg-type]
        assert len(records) == len(playback.steps)

        # The what-if view: two configurations of the same session, figures from core.
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WhatIfScreen) and bool(app.screen.summaries))
        whatif = app.screen
        assert isinstance(whatif, WhatIfScreen)
        four, one = (summary.scopes[0] for summary in whatif.summaries)
        assert four.stage_runs["clear_tool_results"] < one.stage_runs["clear_tool_results"]
        assert four.cached_prefix_ratio > one.cached_prefix_ratio + 0.15
        # ... the same figures core's WhatIf computes from the log.
        from ctxscope.core.reader import read_session

        expected = WhatIf.of(*(c.config for c in scenario.compare)).snapshots(read_session(playback.path))
        assert [len(s.scopes["main"].records) for s in expected] == [four.requests, one.requests]
        assert whatif.labels == ("batches of 4", "batches of 1")
        screenshot = app.export_screenshot().replace("&#160;", " ")
        assert "batches of 1" in screenshot and "what-if" in screenshot
        await pilot.press("escape")
        assert isinstance(app.screen, DemoScreen)

        # Restart (slowly, to watch it start over): the log starts over, captions start over.
        await pilot.press(*["minus"] * 6)
        await pilot.press("r")
        await until(pilot, lambda: playback.state().run == 1)
        await until(pilot, lambda: screen.generation >= 1 and screen.scope is not None
                    and len(screen.scope.records) < len(records))
        assert "again from the start" in "\n".join(screen.captions.shown)
        await pilot.press("q")


async def test_demo_follows_the_busy_scope_and_explains_scripts(tmp_path: Path) -> None:
    """russian-chapters: the sub-agent doing the work is shown (not the waiting main agent), and
    the per-script caption says what chars/4 would have counted."""
    playback = Playback(SCENARIOS["russian-chapters"], tmp_path, speed=128)
    app = DemoApp(playback, redact=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.dashboard
        assert isinstance(screen, DemoScreen)
        screen.caption_seconds = 0.05
        await until(pilot, lambda: playback.state().finished)
        await until(pilot, lambda: "scripts" in screen.captions.explained
                    and any(c.startswith("Scenario over") for c in screen.captions.shown))
        assert screen.scope_id == "chapters-ru"
        shown = "\n".join(screen.captions.shown)
        assert "chars/4 would count request" in shown and "Cyrillic, at" in shown
        assert "прочитать" not in shown  # --redact: sub-agents are named by id
        assert not isinstance(app.screen, WhatIfScreen)
        await pilot.press("w")  # no side-by-side for this scenario: nothing opens
        assert not isinstance(app.screen, WhatIfScreen)
