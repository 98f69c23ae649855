"""SessionReader and open_log: tailing, restarts, documents, detection, forced formats, raw lines."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from ctxscope.core.adapters import known_formats
from ctxscope.core.jsonl import FileChange
from ctxscope.core.reader import SessionReader, UnknownFormatError, detect_format, open_log


def event(**fields: Any) -> bytes:
    return orjson.dumps(fields) + b"\n"


def message(text: str, role: str = "user") -> bytes:
    return event(t="message", role=role, content=text)


def append(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


def test_poll_reads_only_what_was_appended(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(event(v=1, t="session", model="m") + message("one"))
    reader = SessionReader(path)
    first = reader.poll()
    assert (first.lines, first.done, first.change) == (2, True, None)
    assert reader.format == "ctxscope"
    append(path, message("two") + b'{"t":"message","role":"user","con')
    second = reader.poll()
    assert second.lines == 1 and not second.done  # the half-written line waits
    assert len(reader.session.scopes["main"].messages) == 2
    append(path, b'tent":"three"}\n')
    assert reader.poll().lines == 1
    assert [m.text for m in reader.session.scopes["main"].messages] == ["one", "two", "three"]
    assert reader.session.lines_read == 4 and reader.session.bytes_read == path.stat().st_size


def test_truncation_starts_a_new_session_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(message("one") + message("two"))
    reader = SessionReader(path)
    reader.poll()
    old = reader.session
    path.write_bytes(message("fresh"))
    progress = reader.poll()
    assert progress.change is FileChange.TRUNCATED
    assert reader.session is not old
    assert [m.text for m in reader.session.scopes["main"].messages] == ["fresh"]
    assert [n.kind for n in reader.session.problems.notices] == ["truncated"]


def test_rotation_starts_a_new_session(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(message("old"))
    reader = SessionReader(path)
    reader.poll()
    other = tmp_path / "other.jsonl"
    other.write_bytes(message("new one") + message("new two"))
    os.replace(other, path)
    progress = reader.poll()
    assert progress.change is FileChange.ROTATED
    assert len(reader.session.scopes["main"].messages) == 2


def test_empty_file_waits_for_a_format(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"")
    reader = SessionReader(path)
    assert reader.poll().lines == 0 and reader.format is None
    append(path, message("hello"))
    reader.poll()
    assert reader.format == "ctxscope"


def test_unknown_format_is_one_line_naming_the_known_ones(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"hello": "world"}\n{"also": "unknown"}\n')
    with pytest.raises(UnknownFormatError) as info:
        open_log(path)
    text = str(info.value)
    assert "\n" not in text and "log.jsonl" in text
    for name in known_formats():
        assert name in text


def test_unknown_document_format(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(b'[{"weather": "sunny"}]')
    with pytest.raises(UnknownFormatError, match="known formats: ctxscope, claude-code"):
        open_log(path)


def test_unknown_forced_format_name(tmp_path: Path) -> None:
    with pytest.raises(UnknownFormatError, match="unknown format 'klingon'"):
        SessionReader(tmp_path / "x.jsonl", format="klingon")


def test_forced_format_and_aliases(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(event(role="user", content="hi") + event(role="assistant", content="hello"))
    assert open_log(path).format == "openai-chat"
    assert open_log(path, format="anthropic").format == "anthropic-messages"
    # Forcing a format that does not fit counts the lines instead of guessing.
    session = open_log(path, format="codex-rollout")
    assert session.problems.counts == {"wrong_type": 2} and session.scopes == {}


def test_json_array_document_and_pretty_object(tmp_path: Path) -> None:
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello"},
    ]
    array = tmp_path / "chat.json"
    array.write_bytes(orjson.dumps(messages, option=orjson.OPT_INDENT_2))
    pretty = tmp_path / "body.json"
    pretty.write_bytes(orjson.dumps({"model": "gpt-4o", "messages": messages}, option=orjson.OPT_INDENT_2))
    minified = tmp_path / "body.min.json"
    minified.write_bytes(orjson.dumps({"model": "gpt-4o", "messages": messages}))
    for path in (array, pretty, minified):
        session = open_log(path)
        assert session.format == "openai-chat", path.name
        main = session.scopes["main"]
        assert [m.role for m in main.messages] == ["system", "user", "assistant"]
        assert [r.message_count for r in main.requests] == [2]
        assert detect_format(path) == "openai-chat"


def test_document_rewritten_while_tailing(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_bytes(orjson.dumps([{"role": "user", "content": "a"}]))
    reader = SessionReader(path)
    reader.poll()
    assert len(reader.session.scopes["main"].messages) == 1
    assert reader.poll().lines == 0  # unchanged: not read again
    path.write_bytes(orjson.dumps([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]))
    os.utime(path, ns=(1, 10**18))
    progress = reader.poll()
    assert progress.change is FileChange.REWRITTEN
    assert len(reader.session.scopes["main"].messages) == 2


def test_half_written_document_waits_while_tailing(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_bytes(b'[{"role": "user", "content": "a"}, {"ro')
    reader = SessionReader(path)
    assert reader.poll().lines == 0
    with pytest.raises(UnknownFormatError, match="neither JSON lines nor a JSON document"):
        reader.read_all()


def test_jsonl_whose_first_line_looks_like_an_array(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"[1,2,3]\n" + message("fine"))
    session = open_log(path)
    assert session.problems.counts == {"wrong_type": 1}
    assert len(session.scopes["main"].messages) == 1


def test_raw_line_reads_an_event_back(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    lines = [message("one"), message("two " * 100), message("three")]
    path.write_bytes(b"".join(lines))
    session = open_log(path)
    assert session.raw_line("main", 2) == lines[1].rstrip(b"\n")
    assert session.raw_line("main", 3, limit=10) == lines[2][:10]
    assert session.raw_line("main", 9) is None


def test_last_line_without_newline_is_read_offline(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(message("one") + message("two").rstrip(b"\n"))
    assert len(open_log(path).scopes["main"].messages) == 2


def test_read_all_reads_big_files_in_steps(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(message(f"m{i} " + "x" * 400) for i in range(60_000)))
    session = open_log(path)
    assert len(session.scopes["main"].messages) == 60_000
    assert session.bytes_read == path.stat().st_size


def test_auto_text_cap_follows_the_log_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ctxscope.core import reader as reader_module

    path = tmp_path / "log.jsonl"
    long_text = "y" * 5000
    path.write_bytes(message(long_text))
    reader = SessionReader(path)
    assert reader.text_cap == reader_module.DEFAULT_TEXT_CAP
    reader.poll()
    block = reader.session.scopes["main"].messages[0].blocks[0]
    assert len(block.text) == reader_module.DEFAULT_TEXT_CAP and block.chars == 5000
    monkeypatch.setattr(reader_module, "LARGE_LOG_BYTES", 10_000)
    append(path, message(long_text) + message(long_text))
    reader.poll()  # the live log became large: later blocks keep a preview only
    later = reader.session.scopes["main"].messages[-1].blocks[0]
    assert len(later.text) == reader_module.LARGE_LOG_TEXT_CAP and later.chars == 5000
    assert len(open_log(path, text_cap=None).scopes["main"].messages[0].text) == 5000
