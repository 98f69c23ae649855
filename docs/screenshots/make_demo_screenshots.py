"""Make the README tour's screenshots: ``python docs/screenshots/make_demo_screenshots.py``.

Each scenario is played headless by the real ``ctxscope demo`` app (real writer thread, real tailer,
real pipeline replay) to its end; then the app is put on the moment the tour describes and saves
an SVG with Textual's own ``save_screenshot``. Sizes are 120×36, the smallest four-pane layout.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from ctxscope.demo_sessions.scenarios import SCENARIOS
from ctxscope.tui.demo import DemoApp, DemoScreen, Playback
from ctxscope.tui.widgets.breakdown import BreakdownPanel
from textual.pilot import Pilot

HERE = Path(__file__).resolve().parent
SIZE = (120, 36)

Setup = Callable[[Pilot[None], DemoApp, DemoScreen], Awaitable[None]]


async def _until(pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 120) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError("the demo did not reach the wanted state")
        await pilot.pause(0.05)


def _caption(screen: DemoScreen, prefix: str) -> str:
    return next(c for c in screen.captions.shown if c.startswith(prefix))


async def _settle(pilot: Pilot[None], screen: DemoScreen) -> None:
    """Wait for the selected request's detail, then for the plot's deferred replot."""
    await _until(pilot, lambda: screen.detail is not None and screen.detail.record.index == screen.cursor)
    await pilot.pause(0.6)


async def whatif(pilot: Pilot[None], app: DemoApp, screen: DemoScreen) -> None:
    await pilot.press("w")
    await _until(pilot, lambda: bool(getattr(app.screen, "summaries", None)))
    await pilot.pause(0.6)


async def at_first(stage_prefix: str, pane: str = "") -> Setup:
    async def setup(pilot: Pilot[None], app: DemoApp, screen: DemoScreen) -> None:
        text = _caption(screen, stage_prefix)
        index = int(text.split("request #", 1)[1].split(" ", 1)[0].rstrip(":"))
        screen.follow = False
        screen.cursor = index
        screen._show_caption(text)
        if pane:
            await pilot.press(pane)
        await _settle(pilot, screen)
        if pane == "3":  # the per-script table is at the bottom of the breakdown
            screen.query_one(BreakdownPanel).scroll_end(animate=False)
            await pilot.pause(0.2)

    return setup


async def shoot(name: str, filename: str, setup: Setup | None = None) -> Path:
    with tempfile.TemporaryDirectory(prefix="ctxscope-shot-") as folder:
        playback = Playback(SCENARIOS[name], folder, speed=128)
        app = DemoApp(playback)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.dashboard
            assert isinstance(screen, DemoScreen)
            screen.caption_seconds = 0.01
            await _until(pilot, lambda: playback.state().finished)
            await _until(pilot, lambda: any(c.startswith("Scenario over") for c in screen.captions.shown))
            screen.playback_changed(playback.set_speed(1.0))
            await _settle(pilot, screen)
            if setup is not None:
                await setup(pilot, app, screen)
            app.save_screenshot(filename, str(HERE))
    return HERE / filename


async def main() -> None:
    shots = [
        ("eight-subagents", "demo-1-eight-subagents.svg", whatif),
        ("forty-chapters", "demo-2-forty-chapters.svg", await at_first("Stage 2 cleared")),
        ("russian-chapters", "demo-3-russian-chapters.svg", await at_first("chars/4 would count", "3")),
        ("browser-investigation", "demo-4-browser-investigation.svg", await at_first("Stage 4")),
        ("long-planning", "demo-5-long-planning.svg", await at_first("Stage 3 summarised", "4")),
        ("cache-batching", "demo-6-cache-batching.svg", whatif),
    ]
    wanted = set(sys.argv[1:])
    for name, filename, setup in shots:
        if wanted and name not in wanted:
            continue
        path = await shoot(name, filename, setup)
        print(f"{path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    asyncio.run(main())
