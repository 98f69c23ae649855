"""Make the dashboard's screenshots: ``python docs/screenshots/make_dashboard_screenshots.py``.

Each shot opens a log in the real dashboard (real tailer, real core), puts it on the moment the
docs describe and saves an SVG with Textual's own ``save_screenshot``:

* the recorded lens on real agent logs from ``../shared/real-logs`` (beside the checkout; never
  copied into the repository), with ``--redact`` so the SVGs carry the figures and the shape of the
  log's text but none of its content: a Claude Code session at its auto compaction (#61), a Codex
  rollout;
* the layout on the bundled ``eight-subagents`` scenario (generated into a temporary folder),
  sub-agent scope ``review slice 1``: 160×48, 80×24 with each pane, and a summary's text (the pipeline
  lens with ``--budget 60000``, on sub-agent ``sub-6``, which it summarises).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ctxscope.demo_sessions.generate import generate
from ctxscope.tui.app import CtxscopeApp, DashboardOptions
from ctxscope.tui.messages import Mode
from ctxscope.tui.widgets.timeline import TimelinePlot
from textual.pilot import Pilot

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1].parent / "shared" / "real-logs"
SPOTTER = SHARED / "claude-code" / "spotter-4d5611e5-autocompact" / "4d5611e5-241a-462a-8d15-5122611a9569.jsonl"
CODEX = SHARED / "codex-rollout" / "rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl"


@dataclass(frozen=True)
class Shot:
    name: str
    size: tuple[int, int]
    redact: bool = False
    request: int | None = None
    scope: str = ""
    keys: tuple[str, ...] = ()
    budget: int | None = None
    lens: str | None = None
    ready: Callable[[CtxscopeApp], bool] = field(default=lambda app: True)


async def shoot(shot: Shot, log: Path) -> None:
    options = DashboardOptions(str(log), mode=Mode.OFFLINE, redact=shot.redact, budget=shot.budget,
                               lens=shot.lens)  # type: ignore[arg-type]
    app = CtxscopeApp(options)
    async with app.run_test(size=shot.size) as pilot:
        screen = app.dashboard
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 300

        async def until(condition: Callable[[], bool]) -> None:
            while not condition():
                if loop.time() > deadline:
                    raise TimeoutError(f"{shot.name}: the dashboard did not get ready")
                await pilot.pause(0.05)

        await until(lambda: screen.status is not None and screen.status.done)
        if shot.scope:
            screen.scope_id = shot.scope
        if shot.request is not None:
            screen.follow = False
            screen.cursor = shot.request
        await until(lambda: screen.detail is not None and screen.detail.record.index == screen.cursor)
        await settle(pilot, app)
        for key in shot.keys:
            await pilot.press(key)
        await until(lambda: shot.ready(app))
        await settle(pilot, app)
        app.save_screenshot(shot.name, path=str(HERE))
        print(f"wrote {HERE / shot.name}")


async def settle(pilot: Pilot[None], app: CtxscopeApp) -> None:
    """Let a replot deferred by the plot's rate limit land."""
    while any(plot._pending is not None for plot in app.query(TimelinePlot)):
        await pilot.pause(0.05)
    await pilot.pause(0.3)


def main() -> int:
    for log in (SPOTTER, CODEX):
        if not log.exists():
            print(f"{log}: absent (the ../shared folder beside the checkout)", file=sys.stderr)
            return 1
    asyncio.run(shoot(Shot("lens-recorded-claude-code.svg", (160, 48), redact=True, request=61), SPOTTER))
    asyncio.run(shoot(Shot("lens-recorded-codex.svg", (160, 48), redact=True), CODEX))
    with tempfile.TemporaryDirectory() as folder:
        eight = generate("eight-subagents", Path(folder) / "eight.jsonl").path
        for shot in (
            Shot("dashboard-160x48.svg", (160, 48), scope="sub-1"),
            Shot("dashboard-80x24.svg", (80, 24), scope="sub-1"),
            Shot("messages-80x24.svg", (80, 24), scope="sub-1", keys=("2",)),
            Shot("breakdown-80x24.svg", (80, 24), scope="sub-1", keys=("3",)),
        ):
            asyncio.run(shoot(shot, eight))
        # The summary's text: the pipeline lens with a smaller budget, so stage 3 runs (a what-if).
        # sub-6 is one the what-if summarises at that budget (sub-1 only needs clearing).
        probe = Shot("summary-120x36.svg", (120, 36), scope="sub-6", budget=60_000, lens="pipeline",
                     keys=("4", "enter"),
                     ready=lambda app: app.screen is not app.dashboard)
        asyncio.run(shoot(probe, eight))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
