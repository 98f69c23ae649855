"""The message viewer: Enter on a message row opens the whole message, read back through core,
shown literally. Runs the real tailer and core on a Claude Code transcript written here whose
messages carry hostile text (Rich markup, OSC and CSI escapes, BEL); no ../shared data."""

from __future__ import annotations

import json
from pathlib import Path

from ctxscope.tui.app import DashboardOptions
from ctxscope.tui.messages import Mode
from ctxscope.tui.screens.message_viewer import MessageScreen
from ctxscope.tui.screens.search import SearchScreen
from ctxscope.tui.widgets.messages_view import MessagesView
from textual.widgets import Input, Static

from .conftest import ReadyApp, until, wait_ready

HOSTILE = "[bold]loud[/] [/path] \x1b]0;pwned\x07 \x1b[31mred\x1b[0m [link=http://x]y[/link]"
LONG_TAIL = "tail-" * 20_000  # longer than any cap the reader keeps in memory for a small file


def write_transcript(path: Path) -> None:
    """A user message with hostile text, a tool call with hostile input, its long result."""
    usage = {"input_tokens": 3, "cache_creation_input_tokens": 500, "cache_read_input_tokens": 9_000,
             "output_tokens": 5}
    lines = [
        {"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": "s1", "isSidechain": False,
         "message": {"role": "user", "content": "Look: " + HOSTILE}},
        {"type": "assistant", "uuid": "a0", "parentUuid": "u0", "sessionId": "s1", "isSidechain": False,
         "requestId": "req_0",
         "message": {"model": "claude-opus-4-6", "id": "msg_0", "type": "message", "role": "assistant",
                     "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                  "input": {"command": "echo " + HOSTILE}}],
                     "usage": usage}},
        {"type": "user", "uuid": "u1", "parentUuid": "a0", "sessionId": "s1", "isSidechain": False,
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                  "content": HOSTILE + LONG_TAIL}]}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s1", "isSidechain": False,
         "requestId": "req_1",
         "message": {"model": "claude-opus-4-6", "id": "msg_1", "type": "message", "role": "assistant",
                     "content": [{"type": "text", "text": "done"}], "usage": usage}},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")


async def open_row(pilot: object, app: ReadyApp, row: int) -> MessageScreen:
    view = app.query_one(MessagesView)
    view.focus()
    view.row = 0
    for _ in range(row):
        await pilot.press("down")  # type: ignore[attr-defined]
    assert view.row == row
    await pilot.press("enter")  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, MessageScreen))  # the tailer reads it in its thread
    assert isinstance(app.screen, MessageScreen)
    return app.screen


async def test_enter_opens_the_whole_message_literally(tmp_path: Path) -> None:
    log = tmp_path / "s1.jsonl"
    write_transcript(log)
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        view = app.query_one(MessagesView)
        assert view.row_count >= 3
        rows = [m.kind for m in app.dashboard.detail.messages]  # type: ignore[union-attr]
        first = await open_row(pilot, app, 0)
        text = first.query_one("#message-text", Static).render()
        shown = getattr(text, "plain", str(text))
        # Markup stays text; escapes are shown as control pictures, never sent to the terminal.
        assert "[bold]loud[/] [/path]" in shown and "[link=http://x]y[/link]" in shown
        assert "\x1b" not in shown and "\x07" not in shown and "␛]0;pwned␇" in shown
        assert not any(span.style and "bold" in str(span.style) and shown[span.start:span.end] == "loud"
                       for span in getattr(text, "spans", []))
        screenshot = app.export_screenshot()
        assert "pwned" in screenshot and "\x1b]0;" not in screenshot
        await pilot.press("escape")
        assert not isinstance(app.screen, MessageScreen)

        # The tool call with its name and input, then the tool result in full (read back by offset).
        call_row = next(i for i, kind in enumerate(rows) if "Bash" in kind or "call" in kind)
        call = await open_row(pilot, app, call_row)
        shown = str(call.query_one("#message-text", Static).render())
        assert "tool call" in shown and "Bash" in shown and "echo [bold]loud[/]" in shown
        await pilot.press("escape")
        result = await open_row(pilot, app, call_row + 1)
        assert result.message.missing_chars == 0
        (block,) = result.message.blocks
        assert block.kind == "tool_result" and len(block.text) == len(HOSTILE + LONG_TAIL)
        assert block.text.endswith(LONG_TAIL)
        await pilot.press("escape")


async def test_search_steps_through_hits_and_moves_the_cursor(tmp_path: Path) -> None:
    """``/`` searches in core (text and tool names); n / N move the request cursor to each hit."""
    log = tmp_path / "s1.jsonl"
    write_transcript(log)
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        screen = app.dashboard
        assert screen.cursor == 1
        await pilot.press("slash")
        assert isinstance(app.screen, SearchScreen)
        for key in "LOUD":  # case-insensitive; the user message, the tool call and its result
            await pilot.press(key)
        await pilot.press("enter")
        await until(pilot, lambda: screen.search is not None)
        assert screen.search is not None
        hits = screen.search.hits
        assert [h.message for h in hits] == [0, 1, 2] and [h.request for h in hits] == [0, 1, 1]
        assert screen.cursor == 0 and screen.hit_message == 0  # the first hit's request
        await pilot.press("n")
        assert (screen.cursor, screen.hit_message) == (1, 1)
        await pilot.press("n")
        assert (screen.cursor, screen.hit_message) == (1, 2)
        assert app.query_one(MessagesView).row == 2
        await pilot.press("N", "N")
        assert (screen.cursor, screen.hit_message) == (0, 0)
        # A tool name is found too.
        await pilot.press("slash")
        search = app.screen
        assert isinstance(search, SearchScreen)
        search.query_one(Input).value = "bash"
        await pilot.press("enter")
        await until(pilot, lambda: screen.search is not None and screen.search.query == "bash")
        assert [(h.message, h.where) for h in screen.search.hits][:1] == [(1, "tool")]
