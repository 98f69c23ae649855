"""The reader's fast paths change nothing a caller can see.

* A Claude Code response written one block per line is held by the adapter and stored once
  (:meth:`TranscriptAdapter.store_response`), yet a session being tailed holds every block as
  soon as its line is read, and a log read in any number of polls ends as it does read at once.
* Reading never touches the process-wide garbage collector (no pause, no freeze).
* A counted read (:func:`~ctxscope.core.reader.open_log_counted`, ``ctxscope report``'s recorded
  lens) keeps every count a full read gives, whichever estimator the whole session picks.
"""

from __future__ import annotations

import gc
from pathlib import Path

import orjson
import pytest
from ctxscope.core import jsonl, reader
from ctxscope.core.reader import SessionReader, UnknownFormatError, open_log, open_log_counted
from ctxscope.core.session import Session
from ctxscope.core.tokens import Estimator, get_estimator

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


def counts(session: Session, estimator: Estimator) -> list[object]:
    """What the recorded lens reads of a session: every message's count, every request."""
    return [
        (scope_id, [m.tokens(estimator) for m in scope.messages], [repr(r) for r in scope.requests])
        for scope_id, scope in session.scopes.items()
    ]


def longest_text(session: Session) -> int:
    return max(len(b.text) for s in session.scopes.values() for m in s.messages for b in m.blocks)


def test_a_counted_read_keeps_every_count_and_lets_the_text_go(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    claude = get_estimator("claude")
    counted = open_log_counted(path, estimator_for=lambda _: claude, text_cap=64)
    assert counts(counted, claude) == counts(open_log(path, text_cap=None), claude)
    assert longest_text(counted) == 64 and counted.estimator is claude


def test_a_counted_read_whose_estimator_changes_reads_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The estimator chosen from the log's head is not the whole session's: every count is still
    the whole session's estimator's over the full text."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    monkeypatch.setattr(reader, "HEAD_BYTES", 1)  # the head: the first line, no call yet
    monkeypatch.setattr(jsonl, "READ_CHUNK", 64)
    chosen: list[str] = []

    def by_calls(session: Session) -> Estimator:
        chosen.append("chars4" if not session.totals()[1] else "claude")
        return get_estimator(chosen[-1])

    counted = open_log_counted(path, estimator_for=by_calls, text_cap=64)
    claude = get_estimator("claude")
    assert chosen == ["chars4", "claude"]
    assert counts(counted, claude) == counts(open_log(path, text_cap=None), claude)
    assert longest_text(counted) == 5000  # read again, keeping all text


def test_a_counted_read_keeps_the_text_of_documents_and_named_formats(tmp_path: Path) -> None:
    lines = response_log()
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines))
    document = tmp_path / "doc.json"
    document.write_bytes(b"[" + b",".join(line.strip() for line in lines) + b"]")
    claude = get_estimator("claude")
    kept = open_log_counted(path, estimator_for=lambda _: claude, whole_text_formats=("claude-code",))
    assert longest_text(kept) == 5000
    with pytest.raises(UnknownFormatError):  # as a whole read says: no document format reads it
        open_log_counted(document, estimator_for=lambda _: claude)
