"""Format detection and refusal: documents are read as documents, unknown shapes are refused
with what each known format needs, and the refusal lists every format registered."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from ctxscope.core.adapters import DOCUMENT_FORMATS, LINE_FORMATS
from ctxscope.core.reader import DETECT_LINES, SessionReader, UnknownFormatError, open_log


def test_every_registered_format_says_what_it_needs() -> None:
    for spec in (*LINE_FORMATS, *DOCUMENT_FORMATS):
        assert spec.requires, spec.name


def test_jsonl_of_unknown_shape_is_refused_naming_each_format_and_what_it_needs(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"".join(orjson.dumps({"event": "step", "n": n}) + b"\n" for n in range(3)))
    with pytest.raises(UnknownFormatError) as info:
        open_log(path)
    text = str(info.value)
    assert "\n" not in text and text.startswith("events.jsonl: JSON lines like an object with keys event, n")
    for spec in LINE_FORMATS:
        assert f"{spec.name} needs {spec.requires}" in text


def test_unknown_lines_are_not_guessed_from_a_chat_like_line_far_down(tmp_path: Path) -> None:
    """A log whose first DETECT_LINES objects match nothing is refused, even if a line that looks
    like a chat message comes later."""
    lines = [orjson.dumps({"kind": "tick", "n": n}) for n in range(DETECT_LINES)]
    lines.append(orjson.dumps({"role": "user", "content": "hello"}))
    path = tmp_path / "ticks.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(UnknownFormatError, match="no format reads"):
        open_log(path)
    with pytest.raises(UnknownFormatError):
        SessionReader(path).poll()  # live too: refused once the window is read


def test_pretty_printed_document_is_read_as_one_document(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    path = tmp_path / "chat.json"
    path.write_bytes(b'{ "messages": ' + orjson.dumps(messages, option=orjson.OPT_INDENT_2) + b"\n}\n")
    session = open_log(path)
    assert session.format == "openai-chat" and session.problems.bad_lines == 0
    assert [m.role for m in session.scopes["main"].messages] == ["user", "assistant"]


def test_document_of_no_known_format_is_refused_without_reading_it_as_lines(tmp_path: Path) -> None:
    doc = {"sessionId": "s", "messages": [{"type": "user", "content": "x"}] * 200}
    path = tmp_path / "session.json"
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    with pytest.raises(UnknownFormatError) as info:
        open_log(path)
    text = str(info.value)
    assert "a JSON document, an object with keys sessionId, messages" in text
    assert "bad lines" not in text
    for spec in DOCUMENT_FORMATS:
        assert f"{spec.name} needs {spec.requires}" in text


def test_hostile_keys_in_a_refusal_are_made_printable(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(orjson.dumps({"\x1b[2Jkey": 1, "type": "\x1b]0;t\x07"}) + b"\n")
    with pytest.raises(UnknownFormatError) as info:
        open_log(path)
    assert not any(ch in str(info.value) for ch in "\x1b\x07")


def test_jsonl_with_a_broken_first_line_still_reads_as_lines(tmp_path: Path) -> None:
    good = orjson.dumps({"role": "user", "content": "hi"})
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"role": "user", "content": "cut\n' + good + b"\n" + good + b"\n")
    session = open_log(path)
    assert session.format == "openai-chat" and session.problems.counts == {"invalid_json": 1}


def test_agent_sdk_compaction_reads_snake_case_figures(tmp_path: Path) -> None:
    def sdk(kind: str, **extra: object) -> bytes:
        return orjson.dumps({"type": kind, "session_id": "s1", "uuid": "u", **extra}) + b"\n"

    def reply(msg_id: str, prompt: int) -> bytes:
        usage = {"input_tokens": prompt, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        message = {
            "id": msg_id,
            "model": "claude-sonnet-4-5",
            "role": "assistant",
            "usage": usage,
            "content": [{"type": "text", "text": "x"}],
        }
        return sdk("assistant", message=message, parent_tool_use_id=None)

    path = tmp_path / "stream.jsonl"
    path.write_bytes(
        sdk("system", subtype="init", model="claude-sonnet-4-5")
        + reply("m1", 159_000)
        + sdk(
            "system",
            subtype="compact_boundary",
            compact_metadata={
                "trigger": "auto",
                "pre_tokens": 159_011,
                "post_tokens": 9_000,
                "duration_ms": 30,
            },
        )
        + reply("m2", 9_500)
    )
    (compaction,) = open_log(path).scopes["main"].compactions
    assert (compaction.tokens_before, compaction.tokens_after, compaction.duration_ms) == (159_011, 9_000, 30)
    assert compaction.request_index == 1
