"""Screenshots of ``ctxscope open`` on the other agents' fixtures.

Run ``python docs/screenshots/make_agent_screenshots.py [NAME…]``.

Each fixture under ``tests/fixtures/agents/`` is opened by the real app (real tailer, real core)
at 160×48, read through, and saved with Textual's ``save_screenshot``. Fixtures taken from other
projects are shown with ``--redact`` (message previews are shapes, not their text); the
hand-written OpenCode, Cline and Roo Code sessions are shown as they are.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from ctxscope.tui.app import DashboardOptions
from ctxscope.tui.messages import Mode

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.tui.conftest import ReadyApp, wait_ready  # noqa: E402 - the repository's own test helpers

HERE = Path(__file__).resolve().parent
AGENTS = REPO / "tests" / "fixtures" / "agents"
SIZE = (160, 48)

SHOTS = [
    ("aider", AGENTS / "aider" / "monochromatic.aider.chat.history.md", True),
    ("specstory", AGENTS / "specstory" / "minsky-starting-task-008.md", True),
    ("gemini-cli", AGENTS / "gemini-cli" / "mgemini-7c761c30.json", True),
    ("opencode", AGENTS / "opencode" / "verbose-flag.export.json", False),
    ("cline", AGENTS / "cline" / "tasks" / "1764600000000" / "ui_messages.json", False),
    ("roo-code", next((AGENTS / "roo" / "tasks").glob("*/ui_messages.json")), False),
]


async def shoot(name: str, log: Path, redact: bool) -> Path:
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE, redact=redact))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot)
        filename = f"agent-{name}-160x48.svg"
        app.save_screenshot(filename, str(HERE))
    return HERE / filename


async def main() -> None:
    wanted = set(sys.argv[1:])
    for name, log, redact in SHOTS:
        if not wanted or name in wanted:
            path = await shoot(name, log, redact)
            print(f"{path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    asyncio.run(main())
