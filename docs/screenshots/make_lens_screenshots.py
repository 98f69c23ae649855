"""Make the recorded-lens screenshots: ``python docs/screenshots/make_lens_screenshots.py``.

Opens real agent logs from ``../shared/real-logs`` (beside the checkout; never copied into the
repository) in the real dashboard (real tailer, real core) with ``--redact``, so the SVGs carry the
figures and the shape of the log's text but none of its content, puts the cursor on the request the
README describes and saves an SVG with Textual's own ``save_screenshot``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from ctxscope.tui.app import CtxscopeApp, DashboardOptions
from ctxscope.tui.messages import Mode
from ctxscope.tui.widgets.timeline import TimelinePlot

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1].parent / "shared" / "real-logs"
SIZE = (160, 48)
SHOTS = (
    ("lens-recorded-claude-code.svg",
     SHARED / "claude-code" / "spotter-4d5611e5-autocompact" / "4d5611e5-241a-462a-8d15-5122611a9569.jsonl", 61),
    ("lens-recorded-codex.svg",
     SHARED / "codex-rollout" / "rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl", None),
)


async def shoot(name: str, log: Path, request: int | None) -> None:
    app = CtxscopeApp(DashboardOptions(str(log), mode=Mode.OFFLINE, redact=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.dashboard
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120

        async def until(condition: object) -> None:
            while not condition():  # type: ignore[operator]
                if loop.time() > deadline:
                    raise TimeoutError(f"{name}: the dashboard did not get ready")
                await pilot.pause(0.05)

        await until(lambda: screen.status is not None and screen.status.done)
        if request is not None:
            screen.follow = False
            screen.cursor = request
        await until(lambda: screen.detail is not None and screen.detail.record.index == screen.cursor)
        await until(lambda: all(plot._pending is None for plot in app.query(TimelinePlot)))
        await pilot.pause(0.3)
        app.save_screenshot(name, path=str(HERE))
        print(f"wrote {HERE / name}")


def main() -> int:
    for name, log, request in SHOTS:
        if not log.exists():
            print(f"{log}: absent (the ../shared folder beside the checkout)", file=sys.stderr)
            return 1
        asyncio.run(shoot(name, log, request))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

