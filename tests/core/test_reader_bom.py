"""A UTF-8 byte-order mark before a log (some agents and editors write one) is read past: before
JSON lines, before every whole-file JSON document an adapter reads, in the full-text read-back,
and in the OpenCode home's sub-agent check. A BOM alone is an empty log; a BOM before broken JSON
says what was skipped, as it would without the BOM."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from ctxscope.core.follow import newest_log
from ctxscope.core.fulltext import full_texts
from ctxscope.core.jsonl import BOM, without_bom
from ctxscope.core.reader import DEFAULT_TEXT_CAP, UnknownFormatError, detect_format, open_log
from ctxscope.core.session import Session
from ctxscope.tui.cli import main

from .agent_fixtures import FIXTURES
from .test_fulltext import LONG, write_claude_code


def with_bom(path: Path) -> Path:
    path.write_bytes(BOM + path.read_bytes())
    return path


def shape(session: Session) -> tuple[object, ...]:
    """What a read gives, less where it was read from."""
    return (
        session.format,
        session.problems.bad_lines,
        {
            scope_id: (
                [(m.role, m.text) for m in scope.messages],
                [(r.message_count, r.usage) for r in scope.requests],
                len(scope.compactions),
            )
            for scope_id, scope in session.scopes.items()
        },
    )


def same_with_and_without_bom(tmp_path: Path, source: Path, log: str = "") -> Session:
    """Copy ``source`` (a file, or a folder holding the log ``log``) twice, put a BOM before every
    JSON file of the second copy, and check both read the same."""
    plain, marked = tmp_path / "plain", tmp_path / "marked"
    for copy in (plain, marked):
        if source.is_dir():
            shutil.copytree(source, copy / source.name)
        else:
            copy.mkdir()
            shutil.copy(source, copy / source.name)
    for path in sorted((marked / source.name).rglob("*.json")) if source.is_dir() else [marked / source.name]:
        with_bom(path)
    first = open_log(plain / source.name / log if log else plain / source.name)
    second = open_log(marked / source.name / log if log else marked / source.name)
    assert second.problems.bad_lines == 0
    assert shape(second) == shape(first)
    return second


def test_without_bom_strips_one_mark_and_copies_nothing_else() -> None:
    data = b'{"a": 1}'
    assert without_bom(data) is data
    assert without_bom(BOM + data) == data
    assert without_bom(BOM + BOM + data) == BOM + data  # one mark; a second is content
    assert without_bom(b"") == b""


def test_bom_before_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain, marked = tmp_path / "plain.jsonl", tmp_path / "marked.jsonl"
    write_claude_code(plain)
    marked.write_bytes(BOM + plain.read_bytes())
    assert detect_format(marked) == "claude-code"
    assert shape(open_log(marked)) == shape(open_log(plain))
    # The report's counted read (the text let go as it is counted) gives the same figures.
    reports = []
    for path in (plain, marked):
        assert main(["report", str(path), "--json", "--per-request"]) == 0
        out = json.loads(capsys.readouterr().out)
        out.pop("source")
        reports.append(out)
    assert reports[0] == reports[1]


def test_bom_before_a_long_first_line_reads_its_text_back_whole(tmp_path: Path) -> None:
    """The full-text read-back parses the first line again from the file: past its BOM."""
    path = tmp_path / "s.jsonl"
    first = {"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": "s", "isSidechain": False,
             "message": {"role": "user", "content": LONG}}
    path.write_bytes(BOM + json.dumps(first, ensure_ascii=False).encode() + b"\n")
    session = open_log(path)
    (message,) = session.scopes["main"].messages
    assert len(LONG) > DEFAULT_TEXT_CAP and message.blocks[0].elided_chars
    full = full_texts(session, [message])
    assert full.missing_chars == 0 and list(full.texts) == [LONG]


def test_bom_before_a_gemini_cli_document(tmp_path: Path) -> None:
    session = same_with_and_without_bom(tmp_path, FIXTURES / "gemini-cli" / "mgemini-3f9ce747.json")
    assert session.format == "gemini-cli"


def test_bom_before_an_opencode_export(tmp_path: Path) -> None:
    session = same_with_and_without_bom(tmp_path, FIXTURES / "opencode" / "session.export.json")
    assert session.format == "opencode"


def test_bom_before_every_file_of_opencode_storage(tmp_path: Path) -> None:
    storage = FIXTURES / "opencode" / "storage"
    (log,) = [p.relative_to(storage) for p in (storage / "session").rglob("ses_4f2a91c0*.json")]
    session = same_with_and_without_bom(tmp_path, storage, str(log))
    assert session.format == "opencode" and len(session.scopes) == 2  # the sub-agent's files too


def test_bom_before_every_file_of_a_cline_task(tmp_path: Path) -> None:
    """``ui_messages.json`` and the ``api_conversation_history.json`` beside it."""
    tasks = FIXTURES / "cline" / "tasks"
    session = same_with_and_without_bom(tmp_path, tasks, "1764600000000/ui_messages.json")
    assert session.format == "cline"
    history = same_with_and_without_bom(
        tmp_path / "history", tasks, "1764600000000/api_conversation_history.json"
    )
    assert history.format == "openai-chat"


def test_bom_before_a_chat_document_reads_its_elided_text_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_bytes(BOM + json.dumps({"messages": [{"role": "user", "content": LONG}]}).encode())
    session = open_log(path)
    (message,) = session.scopes["main"].messages
    assert message.blocks[0].elided_chars
    assert list(full_texts(session, [message]).texts) == [LONG]


def test_opencode_home_skips_a_sub_agent_session_whose_file_has_a_bom(tmp_path: Path) -> None:
    project = tmp_path / "opencode" / "storage" / "session" / "prj"
    project.mkdir(parents=True)
    parent, child = project / "ses_a.json", project / "ses_b.json"
    parent.write_bytes(b'{"id": "ses_a"}')
    child.write_bytes(BOM + b'{"id": "ses_b", "parentID": "ses_a"}')
    os.utime(parent, ns=(1_000_000_000, 1_000_000_000))
    os.utime(child, ns=(2_000_000_000, 2_000_000_000))
    assert newest_log(tmp_path / "opencode") == str(parent)


@pytest.mark.parametrize("content", [BOM, BOM + b"\n", BOM + b"\n\n"])
def test_a_bom_alone_is_an_empty_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(content)
    assert open_log(path).scopes == {}
    assert main(["report", str(path)]) == 2
    assert "the log is empty" in capsys.readouterr().err


def test_bom_before_broken_json_says_what_was_skipped(tmp_path: Path) -> None:
    lines = tmp_path / "s.jsonl"
    good = b'{"t":"session","v":1}\n{"t":"message","role":"user","content":"hi"}\n'
    lines.write_bytes(BOM + b"{not json\n" + good)
    session = open_log(lines)
    assert session.format == "ctxscope" and len(session.scopes["main"].messages) == 1
    (problem,) = session.problems.kept
    assert (problem.kind, problem.line) == ("invalid_json", 1)
    assert "'{not json'" in problem.reason  # quoted without the mark
    # A broken document: the same refusal as without the mark.
    reasons = []
    for name, prefix in (("plain.json", b""), ("marked.json", BOM)):
        document = tmp_path / name
        document.write_bytes(prefix + b'[{"role": "user", "content": "hi"}\n')
        with pytest.raises(UnknownFormatError) as caught:
            open_log(document)
        reasons.append(str(caught.value).replace(name, "LOG"))
    assert reasons[0] == reasons[1] and "neither JSON lines nor a JSON document" in reasons[0]
