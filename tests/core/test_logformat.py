"""ctxscope's own log format: write with SessionLogWriter, read back with open_log."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from ctxscope.core.logformat import SessionLogWriter
from ctxscope.core.model import (
    ArtifactKind,
    Block,
    BlockKind,
    ErrorKind,
    RequestError,
    Usage,
    text_block,
    tool_call,
    tool_result,
)
from ctxscope.core.reader import UnknownFormatError, open_log

DOCS = Path(__file__).resolve().parents[2] / "docs" / "session-log.md"


def write_sample(path: Path) -> None:
    with SessionLogWriter.create(path) as log:
        log.session(session_id="s1", model="m", context_limit=1000, budget=400)
        log.message("system", "sys")
        log.message("user", "do it")
        log.request(usage=Usage(prompt_tokens=20, cached_prompt_tokens=5))
        log.message("assistant", [text_block("ok"), tool_call("c1", "read", '{"path": "a.txt"}')])
        log.message("tool", [tool_result("c1", "contents", name="read")])
        log.message(
            "user",
            [
                Block(
                    BlockKind.ARTIFACT, artifact=ArtifactKind.SCREENSHOT, size_bytes=1000, width=100,
                    height=75,
                )
            ],
        )
        log.session(scope="sub", parent="main", label="helper", budget=100)
        log.message("user", "brief", scope="sub")
        log.request(scope="sub", error=RequestError(ErrorKind.CONTEXT_LENGTH, "too long"))
        log.compaction(tokens_before=900, tokens_after=100, summary="S")
        log.message("user", [Block(BlockKind.SUMMARY, "S")])
        log.request(usage=Usage(prompt_tokens=110))


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_sample(path)
    session = open_log(path)
    assert session.format == "ctxscope"
    assert session.problems.bad_lines == 0
    assert list(session.scopes) == ["main", "sub"]
    main, sub = session.scopes["main"], session.scopes["sub"]
    assert main.header.context_limit == 1000 and main.header.working_budget == 400
    assert sub.header.parent_id == "main"
    assert sub.header.label == "helper"
    assert [r.message_count for r in main.requests] == [2, 6]
    assert main.requests[0].usage == Usage(20, 5, 0, 0)
    assert sub.requests[0].error == RequestError(ErrorKind.CONTEXT_LENGTH, "too long")
    call = main.messages[2].blocks[1]
    assert call.kind is BlockKind.TOOL_CALL and orjson.loads(call.text) == {"path": "a.txt"}
    assert main.tool_rounds["c1"].call_index == 2 and main.tool_rounds["c1"].result_index == 3
    assert main.compactions[0].tokens_freed == 800 and main.compactions[0].message_count == 5
    assert main.messages[4].blocks[0].width == 100
    assert main.messages[5].is_summary


def test_first_line_carries_version(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_sample(path)
    first = orjson.loads(path.read_bytes().splitlines()[0])
    assert first["v"] == 1 and first["t"] == "session"


def test_documented_example_reads_cleanly(tmp_path: Path) -> None:
    text = DOCS.read_text()
    example = text.split("```jsonl\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.jsonl"
    path.write_text(example)
    session = open_log(path)
    assert session.problems.bad_lines == 0
    assert set(session.scopes) == {"main", "reader-1"}
    main = session.scopes["main"]
    assert len(main.requests) == 2 and len(main.compactions) == 1
    assert main.requests[1].usage is not None and main.requests[1].usage.prompt_tokens == 61950


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b'{"t":"message","role":"wizard","content":"x"}', "wrong_type"),
        (b'{"t":"message","role":"user","content":42}', "wrong_type"),
        (b'{"t":"request","usage":{"prompt_tokens":"many"}}', "wrong_type"),
        (b'{"t":"teleport"}', "wrong_type"),
        (b'{"t":"message","role":"user","content":"cut', "invalid_json"),
        (b"[1,2,3]", "wrong_type"),
    ],
)
def test_bad_events_are_counted_and_reading_goes_on(tmp_path: Path, line: bytes, kind: str) -> None:
    path = tmp_path / "log.jsonl"
    good = b'{"v":1,"t":"message","role":"user","content":"hello"}'
    path.write_bytes(good + b"\n" + line + b"\n" + good + b"\n")
    session = open_log(path)
    assert len(session.scopes["main"].messages) == 2
    assert session.problems.counts == {kind: 1}
    assert session.problems.kept[0].line == 2


def test_unknown_format_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"hello": "world"}\n')
    with pytest.raises(UnknownFormatError, match="known"):
        open_log(path)
