"""The reader's fast paths change nothing a caller can see.

* A Claude Code response written one block per line is held by the adapter and stored once
  (:meth:`TranscriptAdapter.store_response`), yet a session being tailed holds every block as
  soon as its line is read, and a log read in any number of polls ends as it does read at once.
* ``read_all`` pauses the cyclic garbage collector and afterwards moves what it read to the
  oldest generation; concurrent reads nest, the collector's state is restored, and nothing is
  left frozen (nor is anyone else's freeze undone).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from ctxscope.core import reader
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


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


def test_read_all_restores_the_collector_and_freezes_nothing(tmp_path: Path, collector_enabled: None) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    open_log(path)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with pytest.raises(UnknownFormatError):
        open_log(tmp_path / "s.jsonl", "no-such-format")
    (tmp_path / "bad.jsonl").write_bytes(b"not json\n" * 3)
    with pytest.raises(UnknownFormatError):
        open_log(tmp_path / "bad.jsonl")
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_collector_disabled_before_stays_disabled(tmp_path: Path, collector_enabled: None) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    gc.disable()
    open_log(path)
    assert not gc.isenabled()


def test_someone_elses_freeze_is_left_alone(tmp_path: Path, collector_enabled: None) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        open_log(path)
        assert gc.get_freeze_count() >= frozen and gc.isenabled()
    finally:
        gc.unfreeze()


def test_concurrent_reads_nest_their_pauses(collector_enabled: None) -> None:
    inside = threading.Barrier(2)
    first_out = threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with reader._collector_paused():
            inside.wait()
        first_out.set()

    def second() -> None:
        with reader._collector_paused():
            inside.wait()
            first_out.wait()
            seen["paused after the first left"] = not gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert seen == {"paused after the first left": True}
    assert gc.isenabled() and gc.get_freeze_count() == 0
