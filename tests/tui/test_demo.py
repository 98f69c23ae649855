"""``ctxscope demo``: the playback writer, the captions, and one scenario end to end, headless.

The end-to-end tests run the real writer thread and the real tailer on a temporary log, but never
race the playback's clock: the app starts paused (``DemoApp(start=False)``), model calls are
written by steps (``n``) and waited for, the scenario's pace is an hour (so resuming writes
nothing before the next key) and captions change at once. Waits are on conditions, with generous
upper bounds; nothing depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from ctxscope.core.analysis import session_tally, summarise_session
from ctxscope.core.logformat import split_at_requests
from ctxscope.core.pricing import format_dollars
from ctxscope.core.reader import open_log
from ctxscope.core.replay import WhatIf
from ctxscope.core.snapshot import Stage
from ctxscope.demo_sessions.scenarios import SCENARIOS, Scenario
from ctxscope.tui.cli import main
from ctxscope.tui.demo import (
    DemoApp,
    DemoBar,
    DemoScreen,
    Playback,
    PlaybackState,
    closing_caption,
    scenario_list,
)
from ctxscope.tui.screens.whatif import WhatIfScreen
from ctxscope.tui.widgets.header import StatusHeader

TIMEOUT = 60.0

HOUR = 3600.0


def unhurried(name: str) -> Scenario:
    """A scenario whose playback, once resumed, would write its next call only after an hour."""
    return dataclasses.replace(SCENARIOS[name], pace=HOUR)


async def until(pilot: object, condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Let the app run until ``condition`` holds (fails after ``timeout`` seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)  # type: ignore[attr-defined]


def calls_shown(screen: DemoScreen) -> int:
    """Model calls in the dashboard's snapshot, all scopes."""
    snapshot = screen.snapshot
    return sum(len(s.records) for s in snapshot.scopes.values()) if snapshot is not None else 0


async def step_to(pilot: object, screen: DemoScreen, position: int, batch: int = 1) -> None:
    """Write model calls by steps until ``position``, ``batch`` steps at a time (what ``n`` does,
    ``batch`` times over), each batch written and shown before the next one is asked for."""
    playback = screen.playback
    while playback.state().position < position:
        target = min(position, playback.state().position + batch)
        for _ in range(target - playback.state().position):
            screen.action_step_call()
        await until(pilot, lambda n=target: playback.state().position == n)
        await until(pilot, lambda n=target: calls_shown(screen) == n)


def test_split_at_requests_ends_each_step_with_a_model_call() -> None:
    log = (b'{"v":1,"t":"session"}\n{"t":"message"}\n{"t":"request"}\n'
           b'{"t":"message"}\n{"t":"request"}\n{"t":"message"}\n')
    steps = split_at_requests(log)
    assert steps == [
        b'{"v":1,"t":"session"}\n{"t":"message"}\n{"t":"request"}\n',
        b'{"t":"message"}\n{"t":"request"}\n{"t":"message"}\n',
    ]
    assert b"".join(steps) == log


def test_split_at_requests_reads_events_not_prefixes() -> None:
    """A broken line that starts like a request, or a message quoting one, is not a model call; a
    request event written with spaces is one."""
    quoting = b'{"t":"message","content":"{\\"t\\":\\"request\\"}"}\n{"t":"request"\n'
    spaced = b'{ "t" : "request" }\n'
    closing = b'{"t":"message"}\n'
    assert split_at_requests(quoting + spaced + closing) == [quoting + spaced + closing]
    assert split_at_requests(spaced + quoting + spaced) == [spaced, quoting + spaced]
    assert split_at_requests(b"") == []


def test_playback_steps_pauses_and_restarts(tmp_path: Path) -> None:
    """The writer thread alone: paused it writes only the steps asked for, one model call each;
    restart replaces the file (a new inode, so a tailer sees a rotation, never a half-truncated
    file) and starts playing again (at an hour a call: nothing more is written)."""
    playback = Playback(unhurried("cache-batching"), tmp_path, speed=1.0)
    assert playback.steps and b"".join(playback.steps).count(b'"t":"request"') == len(playback.steps)
    states: list[PlaybackState] = []
    changed = threading.Condition()

    def notify(state: PlaybackState) -> None:
        with changed:
            states.append(state)
            changed.notify_all()

    def wait_for(condition: Callable[[PlaybackState], bool]) -> PlaybackState:
        with changed:
            assert changed.wait_for(lambda: bool(states) and condition(states[-1]), TIMEOUT)
            return states[-1]

    playback.toggle()  # paused before the writer starts
    thread = threading.Thread(target=playback.run, args=(notify,), daemon=True)
    thread.start()
    try:
        playback.step()
        assert wait_for(lambda s: s.position == 1).paused
        assert playback.path.read_bytes() == playback.steps[0]
        playback.step()
        wait_for(lambda s: s.position == 2)
        assert playback.path.read_bytes() == b"".join(playback.steps[:2])
        inode = playback.path.stat().st_ino
        playback.restart()
        restarted = wait_for(lambda s: s.run == 1)
        assert restarted.position == 0 and not restarted.paused
        assert playback.path.stat().st_ino != inode
        assert playback.set_speed(1e9).speed == 128 and playback.slower().speed == 64
    finally:
        playback.stop()
        thread.join(TIMEOUT)
    assert not thread.is_alive()
    # Everything the writer did, in order: the two steps, then the restart; nothing while paused.
    assert [(s.run, s.position) for s in states] == [(0, 1), (0, 2), (1, 0)]
    assert playback.path.read_bytes() == b""


def test_demo_list_and_unknown_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("1  eight-subagents") and "6  cache-batching" in out
    assert main(["demo", "nope"]) == 2
    assert "no scenario 'nope'" in capsys.readouterr().err
    assert scenario_list(list(SCENARIOS.values())).count("\n") == len(SCENARIOS) - 1


async def test_demo_end_to_end(tmp_path: Path) -> None:
    """cache-batching played by steps: the intro caption, stage captions, pause and resume, step,
    speed, the side-by-side what-if view (core's WhatIf: batches of 4 keep more of the prefix
    cached than 1), the closing caption, and a restart."""
    scenario = unhurried("cache-batching")
    playback = Playback(scenario, tmp_path, speed=32)
    app = DemoApp(playback, start=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.dashboard
        assert isinstance(screen, DemoScreen)
        screen.caption_seconds = 0
        bar = app.query_one(DemoBar)
        assert scenario.intro in screen.captions.shown[0]
        assert playback.state().paused and playback.state().position == 0
        await step_to(pilot, screen, 3)
        assert "LIVE" in app.query_one(StatusHeader).render().plain
        assert "paused" in bar.render().plain
        # The dashboard's keys the demo keeps off its footer still work (their bindings are the
        # dashboard's own, not copies).
        shown = {a.binding.id for a in screen.active_bindings.values() if a.binding.show}
        assert "demo-step" in shown and not shown & DemoScreen.FOOTER_HIDDEN
        cursor = screen.cursor
        await pilot.press("left")
        assert screen.cursor == cursor - 1 and not screen.follow
        await pilot.press("end")
        assert screen.follow

        # Resume, then pause again: the bar says so; an hour a call, so nothing is written meanwhile.
        await pilot.press("space")
        assert not playback.state().paused and "paused" not in bar.render().plain
        await pilot.press("space")
        assert playback.state().paused and "paused" in bar.render().plain
        assert playback.state().position == 3
        # Step (n): exactly one more model call, and the dashboard shows it.
        await pilot.press("n")
        await until(pilot, lambda: playback.state().position == 4 and calls_shown(screen) == 4)
        assert playback.state().paused
        # Speed up and down (the bar shows the multiplier).
        await pilot.press("plus")
        assert playback.state().speed == 64 and "×64" in bar.render().plain
        await pilot.press("minus", "minus")
        assert playback.state().speed == 16

        # Step to the end: stage 2's caption and the closing caption appear.
        await step_to(pilot, screen, len(playback.steps), batch=8)
        assert playback.state().finished
        await until(pilot, lambda: any(c.startswith("Scenario over") for c in screen.captions.shown))
        shown = "\n".join(screen.captions.shown)
        assert "Stage 2 cleared the 4 oldest tool results" in shown
        assert "finished" in bar.render().plain
        records = screen.scope.records  # type: ignore[union-attr]
        tally = session_tally(summarise_session(screen.snapshot))  # type: ignore[arg-type]
        closing = screen.captions.shown[-1]
        assert closing == closing_caption(tally, scenario, screen.compare_summaries)
        scopes = list(screen.snapshot.scopes.values())  # type: ignore[union-attr]
        assert tally.requests == sum(len(s.records) for s in scopes) == len(playback.steps)
        assert tally.stage_runs[Stage.CLEAR_TOOL_RESULTS.value] == sum(
            1 for s in scopes for r in s.records for run in r.stages if run.stage is Stage.CLEAR_TOOL_RESULTS
        )
        assert tally.over_budget_requests == sum(
            1 for s in scopes for r in s.records
            if not r.refused and r.calibrated_tokens > s.thresholds.budget
        )
        # ... with what batches of 4 saved in money (core's prompt cost of each configuration).
        four_cost, one_cost = (summary.prompt_cost for summary in screen.compare_summaries)
        assert four_cost is not None and one_cost is not None and four_cost.dollars < one_cost.dollars
        saved, _share = four_cost.saved_against(one_cost)
        assert f"batches of 4 saved ≈{format_dollars(saved)}" in closing
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
        expected = WhatIf.of(*(c.config for c in scenario.compare)).snapshots(open_log(playback.path))
        assert [len(s.scopes["main"].records) for s in expected] == [four.requests, one.requests]
        assert whatif.labels == ("batches of 4", "batches of 1")
        screenshot = app.export_screenshot().replace("&#160;", " ")
        assert "batches of 1" in screenshot and "what-if" in screenshot
        assert f"≈{format_dollars(four_cost.dollars)}" in screenshot  # the column's prompt cost
        await pilot.press("escape")
        assert isinstance(app.screen, DemoScreen)

        # Restart: the log starts over (playing, but an hour from its next call), captions start
        # over; a step writes the first call again.
        await pilot.press("r")
        await until(pilot, lambda: playback.state().run == 1 and screen.generation >= 1)
        assert "again from the start" in "\n".join(screen.captions.shown)
        assert playback.state().position == 0
        await step_to(pilot, screen, 1)
        assert screen.scope is not None and len(screen.scope.records) == 1 < len(records)
        await pilot.press("q")


async def test_demo_follows_the_busy_scope_and_explains_scripts(tmp_path: Path) -> None:
    """russian-chapters, by steps: the sub-agent doing the work is shown (not the waiting main
    agent), and the per-script caption says what chars/4 would have counted."""
    playback = Playback(unhurried("russian-chapters"), tmp_path, speed=128)
    app = DemoApp(playback, redact=True, start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.dashboard
        assert isinstance(screen, DemoScreen)
        screen.caption_seconds = 0
        await step_to(pilot, screen, len(playback.steps), batch=8)
        await until(pilot, lambda: "scripts" in screen.captions.explained
                    and any(c.startswith("Scenario over") for c in screen.captions.shown))
        assert screen.scope_id == "chapters-ru"
        shown = "\n".join(screen.captions.shown)
        assert "chars/4 would count request" in shown and "Cyrillic, estimated at" in shown
        assert "прочитать" not in shown  # --redact: sub-agents are named by id
        assert not isinstance(app.screen, WhatIfScreen)
        await pilot.press("w")  # no side-by-side for this scenario: nothing opens
        assert not isinstance(app.screen, WhatIfScreen)
