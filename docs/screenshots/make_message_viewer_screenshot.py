"""Make the message viewer's screenshot: ``python docs/screenshots/make_message_viewer_screenshot.py``.

The real dashboard (real tailer and core) opens the bundled ``cache-batching`` scenario (generated
into a temporary folder: a scripted agent, no real log text), selects the first tool call's row in
the messages pane, presses Enter and saves the message viewer as an SVG with Textual's own
``save_screenshot`` at 120×36.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from ctxscope.demo_sessions.generate import generate  # noqa: E402
from ctxscope.tui.app import CtxscopeApp, DashboardOptions  # noqa: E402
from ctxscope.tui.messages import Mode  # noqa: E402
from ctxscope.tui.screens.message_viewer import MessageScreen  # noqa: E402
from ctxscope.tui.widgets.messages_view import MessagesView  # noqa: E402

SIZE = (120, 36)
FILENAME = "message-viewer.svg"


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ctxscope-shot-") as folder:
        log = generate("cache-batching", Path(folder) / "cache-batching.jsonl").path
        app = CtxscopeApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
        async with app.run_test(size=SIZE) as pilot:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60

            async def until(condition: object) -> None:
                while not condition():  # type: ignore[operator]
                    if loop.time() > deadline:
                        raise TimeoutError("the dashboard did not get there")
                    await pilot.pause(0.05)

            await until(lambda: app.dashboard.detail is not None)
            await pilot.press("2")  # the messages pane
            view = app.query_one(MessagesView)
            view.focus()
            detail = app.dashboard.detail
            assert detail is not None
            row = next(i for i, m in enumerate(detail.messages) if m.role == "tool")
            for _ in range(row):
                await pilot.press("down")
            await pilot.press("enter")
            await until(lambda: isinstance(app.screen, MessageScreen))
            await pilot.pause(0.2)
            app.save_screenshot(FILENAME, str(HERE))
    print(HERE / FILENAME)


if __name__ == "__main__":
    asyncio.run(main())
