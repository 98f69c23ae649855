"""Make the session browser's screenshot: ``python docs/screenshots/make_sessions_screenshot.py``.

The real browser (real feed, real SQLite index in a temporary cache) lists a generated home of
Claude Code and Codex sessions (``tests/session_home.py``: no real log text) with its clock
frozen, then saves an SVG with Textual's own ``save_screenshot`` at 150×20.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from ctxscope.tui.screens.sessions import SessionsApp  # noqa: E402

from tests.session_home import make_home  # noqa: E402

NOW = 1_780_000_000.0
SIZE = (150, 20)
FILENAME = "sessions-browser.svg"


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ctxscope-shot-") as folder:
        environ = make_home(Path(folder) / "home", NOW)
        app = SessionsApp(environ=environ, cache=str(Path(folder) / "cache.sqlite3"), clock=lambda: NOW)
        async with app.run_test(size=SIZE) as pilot:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not app.browser.finished:
                if loop.time() > deadline:
                    raise TimeoutError("the feed did not list the home")
                await pilot.pause(0.05)
            app.feed.stop()
            await pilot.pause(0.2)
            app.save_screenshot(FILENAME, str(HERE))
    print(HERE / FILENAME)


if __name__ == "__main__":
    asyncio.run(main())
