"""The status line: Claude Code's stdin JSON, the transcript's end, and the line printed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from ctxscope.core import jsonl, statusline
from ctxscope.core.homes import discover
from ctxscope.core.session_digest import read_digest
from ctxscope.core.statusline import (
    StatusInput,
    TranscriptTail,
    calls_until,
    parse_status_input,
    read_tail,
    status_line,
    trigger_of,
)

from tests.conftest import shared_path
from tests.session_home import claude_call, claude_line, claude_session

CWD = "/home/dev/project"


def test_stdin_json_of_recent_claude_code_versions() -> None:
    data = orjson.dumps({
        "session_id": "s", "transcript_path": "/t/s.jsonl", "cwd": "/w",
        "model": {"id": "claude-opus-4-6", "display_name": "Opus"},
        "context_window": {
            "context_window_size": 1_000_000,
            "current_usage": {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 990,
                              "cache_read_input_tokens": 99_000},
        },
    })
    expected = StatusInput("/t/s.jsonl", "claude-opus-4-6", "Opus", 1_000_000, 100_000)
    assert parse_status_input(data) == expected


def test_stdin_that_is_old_broken_or_hostile() -> None:
    assert parse_status_input(b'{"transcript_path": "/t.jsonl", "model": "x"}') == StatusInput("/t.jsonl")
    assert parse_status_input(b"not json") == StatusInput()
    assert parse_status_input(b"[1, 2]") == StatusInput()
    bad = parse_status_input(
        b'{"context_window": {"context_window_size": -5, "current_usage": {"input_tokens": "x"}}}'
    )
    assert (bad.window, bad.used) == (None, None)
    line = status_line(StatusInput(model_name="\x1b[31mOpus\x07"), TranscriptTail((1000,)))
    assert "\x1b" not in line and "\x07" not in line and line.startswith("[31mOpus")


def test_tail_finds_recent_calls_and_the_latest_compaction(tmp_path: Path) -> None:
    path = claude_session(tmp_path, "s", [50_000, 120_000, 170_000, 40_000, 50_000, 60_000], compact_after=3)
    tail = read_tail(str(path))
    assert tail.prompts == (40_000, 50_000, 60_000)  # only the calls since the compaction
    assert tail.compaction == (170_000, 40_000) and tail.model == "claude-opus-4-6"
    assert tail.compaction_trigger == "auto"


def test_a_compaction_far_before_the_tail_and_text_that_only_mentions_it(tmp_path: Path) -> None:
    path = claude_session(tmp_path, "s", [100_000, 150_000], compact_after=2)
    with path.open("ab") as out:
        out.write(b"".join(claude_call("s", CWD, 3, 30_000)))
        for number in range(4, 400):  # about 400 KB of calls after the compaction
            out.write(b"".join(claude_call("s", CWD, number, 30_000 + number * 100)))
        # A tool result quoting the marker is not a compaction; nor is a half-written last line.
        quoting = {"role": "user", "content": '"compact_boundary"'}
        out.write(claude_line("user", "s", CWD, "t", message=quoting))
        out.write(b'{"type": "assistant", "message": {"usage": {"input_tokens": 9')
    tail = read_tail(str(path), tail_bytes=64 << 10)
    assert tail.compaction == (150_000, 30_000)
    assert tail.prompts[-1] == 30_000 + 399 * 100 and len(tail.prompts) == 9


def test_the_tail_and_the_search_after_a_compaction_split_lines_with_the_shared_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``jsonl.split_lines`` (memchr) cuts the transcript's lines, as every other reader's are cut."""
    path = claude_session(tmp_path, "s", [100_000, 150_000], compact_after=2)
    with path.open("ab") as out:
        for number in range(3, 200):  # calls after the compaction, past a 16 KB tail
            out.write(b"".join(claude_call("s", CWD, number, 30_000 + number * 100)))
    chunks: list[bytes] = []

    def split(chunk: bytes) -> list[bytes]:
        chunks.append(chunk)
        return jsonl.split_lines(chunk)

    monkeypatch.setattr(statusline, "split_lines", split)
    tail = read_tail(str(path), tail_bytes=16 << 10)
    assert tail.compaction == (150_000, 30_300) and tail.prompts[-1] == 30_000 + 199 * 100
    assert len(chunks) >= 2  # the tail, and the forward search for the first call after the compaction


def test_no_compaction_and_an_empty_transcript(tmp_path: Path) -> None:
    path = claude_session(tmp_path, "s", [10_000, 20_000])
    assert read_tail(str(path)) == TranscriptTail((10_000, 20_000), None, "claude-opus-4-6", "")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert read_tail(str(empty)) == TranscriptTail()


def test_a_byte_order_mark_before_the_stdin_json_or_the_first_transcript_line(tmp_path: Path) -> None:
    data = b'{"transcript_path": "/t.jsonl", "context_window": {"context_window_size": 200000}}'
    assert parse_status_input(b"\xef\xbb\xbf" + data) == parse_status_input(data) == StatusInput(
        "/t.jsonl", window=200_000)
    assert parse_status_input("\ufeff" + data.decode()).transcript_path == "/t.jsonl"
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(claude_call("s", CWD, 1, 10_000)))  # the call's lines come first
    plain = read_tail(str(path))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert read_tail(str(path)) == plain and plain.prompts == (10_000,)


def test_calls_until_the_trigger() -> None:
    assert calls_until((100_000, 110_000, 120_000), 187_000) == 7  # 67k left at 10k a call
    # An automatic compaction seen below the default trigger is where the agent compacts.
    lowered = TranscriptTail((50_000,), (150_000, 40_000), "claude-opus-4-6", "auto")
    assert trigger_of(lowered, 200_000, "claude-opus-4-6") == 150_000
    assert trigger_of(TranscriptTail((50_000,), (150_000, 40_000), "", "manual"), 200_000, "") == 167_000
    assert calls_until((100_000,), 187_000) is None
    assert calls_until((120_000, 110_000), 187_000) is None


def test_the_line() -> None:
    status = StatusInput(model_name="Opus", window=200_000, used=120_000)
    tail = TranscriptTail((100_000, 110_000, 120_000), (170_000, 38_000))
    # Claude Code compacts at 167k on a 200k window: 47k left at 10k a call.
    expected = "Opus · ctx 120k/200k 60% · ~5 calls to auto-compact · last compact 170k→38.0k"
    assert status_line(status, tail) == expected
    # Nothing on stdin but the path: the transcript's last call and its model's window.
    assert status_line(StatusInput(), TranscriptTail((5_000,))) == "ctx 5.0k/200k 2%"
    one_million = TranscriptTail((150_000, 250_000), None, "claude-opus-4-6")
    assert status_line(StatusInput(), one_million).startswith("ctx 250k/1.00M 25% · ~")
    due = status_line(StatusInput(window=200_000, used=190_000), TranscriptTail())
    assert due == "ctx 190k/200k 95% · auto-compact due"
    assert status_line(StatusInput(), TranscriptTail((), (None, None))) == "ctx ?/200k · last compact ?→?"


@pytest.mark.shared
def test_the_tail_agrees_with_a_full_read_on_real_transcripts() -> None:
    """On every real Claude Code log: the tail's last call and latest compaction are those a full
    read through the reader finds (the sub-agent files left out of both)."""
    folder = shared_path("real-logs", "claude-code")
    checked = 0
    for log in discover([str(folder)], homes=False):
        digest = read_digest(log.path)
        if digest.format != "claude-code" or digest.context is None:
            continue
        tail = read_tail(log.path, tail_bytes=16 << 10)
        assert tail.prompts and tail.prompts[-1] == digest.context, log.path
        assert tail.compaction == digest.last_compaction, log.path
        checked += 1
    assert checked >= 3
