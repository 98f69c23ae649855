"""What a message row's kind says, on a Claude Code transcript written here and read by the real
tailer and core (no ../shared data): the real log's request #1 has an assistant message of a
whitespace-only text block, reasoning and a Bash call, then the call's result."""

from __future__ import annotations

import json
from pathlib import Path

from ctxscope.tui.app import DashboardOptions
from ctxscope.tui.messages import Mode
from ctxscope.tui.widgets.messages_view import MessagesView
from textual.widgets import Static

from .conftest import ReadyApp, wait_ready
from .test_message_viewer import open_row

USAGE = {"input_tokens": 3, "cache_creation_input_tokens": 500, "cache_read_input_tokens": 9_000,
         "output_tokens": 5}


def line(kind: str, uuid: str, parent: str | None, message: dict[str, object], **extra: object) -> str:
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s1",
                       "isSidechain": False, "message": message, **extra})


def assistant(uuid: str, parent: str, number: int, content: list[dict[str, object]]) -> str:
    return line("assistant", uuid, parent, {
        "model": "claude-opus-4-6", "id": f"msg_{number}", "type": "message", "role": "assistant",
        "content": content, "usage": USAGE}, requestId=f"req_{number}")


def write_transcript(path: Path) -> None:
    lines = [
        line("user", "u0", None, {"role": "user", "content": "Work on the bead."}),
        assistant("a0", "u0", 0, [
            {"type": "text", "text": "\n\n"},
            {"type": "thinking", "thinking": "Let me check the issue first.", "signature": "x"},
            {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "bd show"}},
        ]),
        line("user", "u1", "a0", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "spotter-dov [EPIC]"}]}),
        assistant("a1", "u1", 1, [{"type": "text", "text": "Done."}]),
    ]
    path.write_text("\n".join(lines) + "\n")


async def test_a_tool_call_and_a_tool_result_have_one_name_at_every_width(tmp_path: Path) -> None:
    """The kind column said ``call Bash`` where a long kind was shortened to fit and
    ``tool_result`` (``tool_call …`` when short enough) where it was not: two names for one thing
    on one screen. Core names them ``call`` and ``result`` wherever the kind is shown."""
    log = tmp_path / "s1.jsonl"
    write_transcript(log)
    for width in (80, 120, 160):
        app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
        async with app.run_test(size=(width, 40)) as pilot:
            await wait_ready(pilot)
            detail = app.dashboard.detail
            assert detail is not None
            kinds = [m.kind for m in detail.messages]
            assert kinds[2] == "result" and kinds[1].endswith("call Bash"), kinds
            await pilot.press("2")  # the messages pane (small terminals show one pane at a time)
            await pilot.pause()
            view = app.query_one(MessagesView)
            rows = [view.render_line(y).text for y in range(len(kinds))]
            assert "call Bash" in rows[1] and " result " in rows[2], rows
            assert not any("tool_" in row for row in rows), rows


async def test_a_whitespace_only_text_block_says_what_it_is(tmp_path: Path) -> None:
    """The viewer showed the ``"\\n\\n"`` text block as a "── text  2 chars" section over blank
    lines, and the row's kind named a text that says nothing. The section now says it is
    whitespace; the kind names only what there is to read; the tokens are the row's as before."""
    log = tmp_path / "s1.jsonl"
    write_transcript(log)
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        detail = app.dashboard.detail
        assert detail is not None and detail.messages[1].kind == "reasoning, call Bash"
        viewer = await open_row(pilot, app, 1)
        shown = str(viewer.query_one("#message-text", Static).render())
        assert "── text  2 chars, whitespace only (spaces and line breaks)\n\n── reasoning" in shown
        assert viewer.message.blocks[0].text == "\n\n"  # read back whole, only shown differently
