"""The reader's fast paths change nothing a caller can see.

* A Claude Code response written one block per line is held by the adapter and stored once
  (:meth:`TranscriptAdapter.store_response`), yet a session being tailed holds every block as
  soon as its line is read, and a log read in any number of polls ends as it does read at once.
* Reading never touches the process-wide garbage collector (no pause, no freeze).
"""

from __future__ import annotations

import gc
from pathlib import Path

import orjson
import pytest
from ctxscope.core.reader import SessionReader, UnknownFormatError, open_log
from ctxscope.core.session import Session

from tests.core.test_adapters_claude_code import assistant, tool_result, tool_use, usage, user


def lines_of(records: list[dict[str, object]]) -> list[bytes]:
    return [orjson.dumps(r) + b"\n" for r in records]


def response_log() -> list[bytes]:
    """Two calls, each written one block per line, with their tool results and a compaction."""
    u1, u2 = usage(3, 500, 20_000), usage(3, 600, 21_000)
    return lines_of(
        [
            user("Fix the bug."),
            assistant("msg_1", {"type": "thinking", "thinking": "long " * 400, "signature": "s"}, u1),
            assistant("msg_1", {"type": "text", "text": "Looking."}, u1),
            assistant("msg_1", tool_use("toolu_1"), u1),
            assistant("msg_1", tool_use("toolu_2", "Read"), u1),
            user(tool_result("toolu_1", "x" * 5000)),
            user(tool_result("toolu_2")),
            assistant("msg_2", {"type": "text", "text": "Done."}, u2),
            assistant("msg_2", tool_use("toolu_3"), u2),
        ]
    )


def snapshot(session: Session) -> list[object]:
    return [
        (
            scope_id,
            [repr(m) for m in scope.messages],
            [dict(m._tokens) for m in scope.messages],
            [repr(r) for r in scope.requests],
            [repr(c) for c in scope.compactions],
        )
        for scope_id, scope in session.scopes.items()
    ]


def test_a_tailed_response_holds_every_block_read_so_far(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"")
    tail = SessionReader(path, text_cap=64)
    blocks_after: list[int] = []
    for line in response_log()[:5]:
        with open(path, "ab") as handle:
            handle.write(line)
        tail.poll()
        messages = tail.session.scopes["main"].messages
        blocks_after.append(len(messages[-1].blocks) if messages[-1].role == "assistant" else 0)
    assert blocks_after == [0, 1, 2, 3, 4]
    assert len(tail.session.scopes["main"].requests) == 1


@pytest.mark.parametrize("step", [1, 2, 3, 4, 100])
def test_reading_in_polls_ends_as_reading_at_once(tmp_path: Path, step: int) -> None:
    lines = response_log()
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(lines))
    expected = snapshot(open_log(whole, text_cap=64))
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"")
    tail = SessionReader(path, text_cap=64)
    for start in range(0, len(lines), step):
        with open(path, "ab") as handle:
            handle.write(b"".join(lines[start : start + step]))
        tail.poll()
    assert snapshot(tail.read_all()) == expected


def test_a_held_response_is_stored_before_the_next_call_and_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    scope = open_log(path).scopes["main"]
    assert [m.role for m in scope.messages] == ["user", "assistant", "user", "assistant"]
    assert [len(m.blocks) for m in scope.messages] == [1, 4, 2, 2]
    assert [r.message_count for r in scope.requests] == [1, 3]


@pytest.mark.parametrize("enabled", [True, False], ids=["collector on", "collector off"])
def test_reading_leaves_the_garbage_collector_alone(tmp_path: Path, enabled: bool) -> None:
    """The collector is process-wide: reading (also a failed read) neither pauses nor freezes it."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    (tmp_path / "bad.jsonl").write_bytes(b"not json\n" * 3)
    was, thresholds = gc.isenabled(), gc.get_threshold()
    (gc.enable if enabled else gc.disable)()
    try:
        open_log(path)
        with pytest.raises(UnknownFormatError):
            open_log(tmp_path / "bad.jsonl")
        assert gc.isenabled() is enabled
        assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
    finally:
        (gc.enable if was else gc.disable)()
