"""Full text: breakdowns and the policy lab see every character, read back from the log by offset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ctxscope.core.analysis import analyse
from ctxscope.core.fulltext import DEFAULT_POLICY_QUERY, full_texts, policy_messages, policy_query
from ctxscope.core.model import Message
from ctxscope.core.reader import DEFAULT_TEXT_CAP, open_log
from ctxscope.core.session import Session

from ..conftest import shared_path

LONG = "".join(f"line {k}: the file's content, ключ {k}, 値 {k}\n" for k in range(400))


def write_claude_code(path: Path) -> None:
    """A Claude Code transcript: a long tool result, and a response split over two lines whose
    second block (a tool call with a long input) is longer than the reader keeps."""
    call = {"type": "tool_use", "id": "toolu_1", "name": "Write",
            "input": {"file_path": "a.py", "content": LONG}}
    lines = [
        {"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": "s", "isSidechain": False,
         "message": {"role": "user", "content": "Write the file."}},
        {"type": "assistant", "uuid": "a0", "parentUuid": "u0", "sessionId": "s", "isSidechain": False,
         "requestId": "req_0", "message": {"model": "claude-opus-4-6", "id": "msg_0", "role": "assistant",
                                            "content": [{"type": "text", "text": "Writing it."}],
                                            "usage": {"input_tokens": 3, "cache_read_input_tokens": 20_000}}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "a0", "sessionId": "s", "isSidechain": False,
         "requestId": "req_0", "message": {"model": "claude-opus-4-6", "id": "msg_0", "role": "assistant",
                                            "content": [call],
                                            "usage": {"input_tokens": 3, "cache_read_input_tokens": 20_000}}},
        {"type": "user", "uuid": "u1", "parentUuid": "a1", "sessionId": "s", "isSidechain": False,
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                   "content": LONG}]}},
        {"type": "assistant", "uuid": "a2", "parentUuid": "u1", "sessionId": "s", "isSidechain": False,
         "requestId": "req_1", "message": {"model": "claude-opus-4-6", "id": "msg_1", "role": "assistant",
                                            "content": [{"type": "text", "text": "Done."}],
                                            "usage": {"input_tokens": 3,
                                                      "cache_read_input_tokens": 25_000}}},
    ]
    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"
    path.write_text(text, encoding="utf-8")


def test_elided_text_is_read_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_claude_code(path)
    session = open_log(path)
    messages = session.scopes["main"].messages
    assert len(LONG) > DEFAULT_TEXT_CAP and any(b.elided_chars for m in messages for b in m.blocks)
    full = full_texts(session, messages)
    assert full.missing_chars == 0
    kept = sum(len(m.text) for m in messages)
    assert sum(len(t) for t in full.texts) > kept + 2 * (len(LONG) - DEFAULT_TEXT_CAP) - 10
    assert any(LONG in t for t in full.texts)  # the tool result, whole
    call = json.dumps({"file_path": "a.py", "content": LONG}, ensure_ascii=False, separators=(",", ":"))
    assert any(call in t for t in full.texts)  # the tool call on the response's second line
    lab = policy_messages(session)
    assert any(LONG in m.content for m in lab)


def test_the_detail_breakdown_counts_every_character(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_claude_code(path)
    session = open_log(path)
    analysis = analyse(session)
    for lens in ("recorded", "pipeline"):
        detail = analysis.detail("main", 1, lens)  # type: ignore[arg-type]
        assert detail is not None
        assert detail.by_script.chars >= 2 * len(LONG)
        assert detail.by_script.by_script["cyrillic"].chars >= 400 * 4


def test_a_file_that_changed_keeps_the_kept_text(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_claude_code(path)
    session = open_log(path)
    path.write_text("", encoding="utf-8")
    full = full_texts(session, session.scopes["main"].messages)
    assert full.missing_chars > 0
    assert all(t for t in full.texts)


@pytest.mark.shared
def test_spotter_request_138_script_rows_cover_the_category_rows() -> None:
    """Issue 13: the per-script rows saw only 2,048 characters a block; now they see all."""
    log = shared_path("real-logs", "claude-code", "spotter-4d5611e5-autocompact",
                      "4d5611e5-241a-462a-8d15-5122611a9569.jsonl")
    analysis = analyse(open_log(log))
    for lens in ("recorded", "pipeline"):
        detail = analysis.detail("main", 138, lens)  # type: ignore[arg-type]
        assert detail is not None
        raw = sum(detail.record.by_category.values())
        # Within the per-message and per-call framing tokens, which carry no text.
        assert detail.by_script.tokens >= 0.97 * raw


LINE_LOGS = ("claude-agent-sdk-stream", "claude-code", "codex-exec-json", "codex-rollout")
"""The real logs read line by line, whose every elided character can be read back."""

WHOLE_LOGS = ("openai-chat", "openhands")
"""Real logs read whole (a tau-bench document, a SWE-agent trajectory: no line offsets) and
OpenHands' instances (a recall block joins two values; tool definitions are a list as JSON)."""


@pytest.mark.shared
@pytest.mark.parametrize("agent", LINE_LOGS)
def test_every_elided_character_of_real_line_logs_is_read_back(agent: str) -> None:
    """Parallel tool calls put each result on its own line with progress lines between: three
    reads of spotter's message 10 span 9 lines, and the third was missed when 8 were read."""
    folder = shared_path("real-logs", agent)
    logs = sorted(p for p in folder.rglob("*.jsonl") if "subagents" not in p.parts)
    assert logs
    for log in logs:
        session = open_log(log)
        scopes = session.scopes.values()
        elided = [m for s in scopes for m in s.messages if any(b.elided_chars for b in m.blocks)]
        assert full_texts(session, elided).missing_chars == 0, log.name


def elided_messages(session: Session) -> list[Message]:
    return [m for s in session.scopes.values() for m in s.messages if any(b.elided_chars for b in m.blocks)]


@pytest.mark.shared
@pytest.mark.parametrize("agent", WHOLE_LOGS)
def test_every_elided_character_of_documents_and_joined_values_is_read_back(agent: str) -> None:
    """Before: 895,918 elided characters of the openai-chat documents and 19,881 of OpenHands'
    joined values could not be read back; now every one is, and they are the texts a read that
    keeps all text has."""
    logs = sorted(p for p in shared_path("real-logs", agent).iterdir() if p.is_file())
    assert logs
    for log in logs:
        session = open_log(log)
        elided = elided_messages(session)
        assert elided, log.name
        full = full_texts(session, elided)
        assert full.missing_chars == 0, log.name
        whole = open_log(log, text_cap=None)
        assert list(full.texts) == [whole.scopes[m.scope_id].messages[m.index].text for m in elided], log.name


@pytest.mark.shared
def test_a_document_is_parsed_once_for_all_its_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request's breakdown restores its messages one by one: the document is parsed once for
    the session, not once a message (229 messages of the tau-bench log)."""
    from ctxscope.core import fulltext

    parsed: list[str] = []
    document = fulltext._document

    def counted(path: str) -> object:
        parsed.append(path)
        return document(path)

    monkeypatch.setattr(fulltext, "_document", counted)
    log = shared_path("real-logs", "openai-chat", "tau-bench-gpt-4o-airline.json")
    session = open_log(log)
    elided = elided_messages(session)
    assert len(elided) > 200
    assert all(fulltext.restore(session, m)[1] == 0 for m in elided)
    assert parsed == [str(log)]
    assert fulltext.restore(open_log(log), elided[0])[1] == 0  # another session parses it again
    assert parsed == [str(log), str(log)]


def test_read_back_takes_the_nearest_match_and_the_whole_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later line holding a string of the same length and the same kept start (a test re-run,
    say) does not replace the block's own text; the budget for the lines after the first never
    cuts the first."""
    from ctxscope.core import fulltext

    path = tmp_path / "s.jsonl"
    write_claude_code(path)
    twin = LONG[:-2] + "!\n"  # same length, same start: only the end differs
    lines = path.read_text(encoding="utf-8").splitlines()
    echo = json.loads(lines[3])
    echo["uuid"], echo["parentUuid"] = "u9", "u1"
    echo["message"]["content"][0]["content"] = twin
    path.write_text("\n".join([*lines[:4], json.dumps(echo, ensure_ascii=False), *lines[4:]]) + "\n",
                    encoding="utf-8")
    session = open_log(path)
    result = next(
        m for m in session.scopes["main"].messages
        if m.role != "assistant" and any(b.elided_chars and b.text.startswith("line 0") for b in m.blocks)
    )
    monkeypatch.setattr(fulltext, "SPLIT_BYTES", 100)  # smaller than the first line itself
    (text,) = full_texts(session, [result]).texts
    assert LONG in text and twin not in text


def test_blocks_of_a_document_alike_in_length_and_start_get_their_own_texts(tmp_path: Path) -> None:
    """Found in review: two messages of a document whose texts have the same length and kept
    start both got the first one's text (``…x`` twice); the texts go to the blocks in order."""
    import json

    log = tmp_path / "chat.json"
    messages = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "A" * 3000 + "x"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "A" * 3000 + "y"},
    ]
    log.write_text(json.dumps({"messages": messages}))
    session = open_log(log)
    elided = elided_messages(session)
    assert len(elided) == 2
    full = full_texts(session, elided)
    assert full.missing_chars == 0
    assert list(full.texts) == ["A" * 3000 + "x", "A" * 3000 + "y"]
    whole = full_texts(session, elided[1:])  # from the memo, the second alone
    assert list(whole.texts) == ["A" * 3000 + "y"]


def test_a_key_with_more_texts_in_the_document_than_blocks_is_not_guessed(tmp_path: Path) -> None:
    """Two texts alike in length and start for one block: which is its own cannot be told, so
    its characters are counted missing rather than taken from the wrong one."""
    import json

    log = tmp_path / "chat.json"
    messages = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "A" * 3000 + "x", "name": "A" * 3000 + "z"},
    ]
    log.write_text(json.dumps({"messages": messages}))
    session = open_log(log)
    elided = elided_messages(session)
    assert len(elided) == 1
    assert full_texts(session, elided).missing_chars == 3001 - len(elided[0].blocks[0].text)


@pytest.mark.parametrize("kind", ["line", "document"])
def test_a_value_nested_deeper_than_python_recurses_does_not_break_the_read_back(
    tmp_path: Path, kind: str
) -> None:
    """Found in review: orjson parses up to 1,024 levels, but taking the parsed line apart
    (compact JSON of every object, its repr when orjson will not write it) raised RecursionError
    out of ``full_texts`` (a detail's breakdown, the tailer's internal error). Now the deep value
    is not taken apart and the elided text beside it is still read back."""
    deep = "[" * 1000 + "]" * 1000
    text = "word " * 3000
    if kind == "line":
        log = tmp_path / "s.jsonl"
        user = {"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": "s", "isSidechain": False,
                "message": {"role": "user", "content": text}, "x": "DEEP"}
        reply = {"type": "assistant", "uuid": "a0", "parentUuid": "u0", "sessionId": "s",
                 "isSidechain": False, "requestId": "req_0",
                 "message": {"model": "claude-opus-4-6", "id": "msg_0", "role": "assistant",
                             "content": [{"type": "text", "text": "ok"}],
                             "usage": {"input_tokens": 3, "output_tokens": 1}}}
        lines = [json.dumps(user).replace('"DEEP"', deep), json.dumps(reply)]
    else:
        log = tmp_path / "chat.json"
        chat = {"x": "DEEP", "messages": [{"role": "user", "content": text},
                                         {"role": "assistant", "content": "ok"}]}
        lines = [json.dumps(chat).replace('"DEEP"', deep)]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = open_log(log)
    elided = elided_messages(session)
    assert len(elided) == 1
    full = full_texts(session, elided)
    assert full.missing_chars == 0
    assert list(full.texts) == [text]


def test_the_labs_default_query_is_the_last_prompt_not_a_tool_result(tmp_path: Path) -> None:
    """Agents send tool results with the user role: the default query is the person's last prompt
    (text blocks of a user message that is not an injected reminder), cut to ``max_chars``."""
    path = tmp_path / "s.jsonl"
    write_claude_code(path)  # its last user message is a tool result
    session = open_log(path)
    assert policy_query(session) == "Write the file."
    roles = [m.role for m in policy_messages(session)]
    assert roles[0] == "user" and "tool" in roles  # the tool result is the tool's, not the user's
    assert policy_query(session, max_chars=5) == "Write"
    assert policy_query(Session()) == DEFAULT_POLICY_QUERY


@pytest.mark.shared
def test_the_labs_default_query_on_a_real_claude_code_log() -> None:
    session = open_log(shared_path("real-logs", "claude-code", "bhavana-v2.1.177-mode-records.jsonl"))
    scope = session.main_scope
    assert scope is not None
    last_user = next(m for m in reversed(scope.messages) if m.role == "user")
    query = policy_query(session)
    assert query and query != DEFAULT_POLICY_QUERY
    assert all(b.kind.value == "tool_result" for b in last_user.blocks) or last_user.meta
    assert query not in last_user.text  # not the tool result the old default took


def write_specstory(path: Path, body: str = LONG) -> None:
    """A SpecStory export whose user prompt, assistant text and tool result are longer than the
    reader keeps of a block."""
    path.write_text(
        "<!-- Generated by SpecStory -->\n\n# Read the file (2025-11-15 06:33Z)\n\n"
        f"_**User (2025-11-15 06:33Z)**_\n\nPlease read it.\n\n{body}\n---\n\n"
        "_**Agent (model grok-code-fast-1, mode Agent)**_\n\n"
        f"Reading it now. {body}\n\n---\n\n"
        f'<tool-use data-tool-name="read_file">\n<details><summary>Read file: a.py</summary>\n\n{body}\n'
        "</details>\n</tool-use>\n\n---\n\nDone.\n",
        encoding="utf-8",
    )


def test_elided_markdown_text_is_read_back_by_the_logs_own_adapter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SpecStory (Markdown, read whole: no JSON value to find a text in): the breakdown said
    "+ not read back" for every long section. The export is read again by its adapter, keeping
    every character, once for the session; each block takes the text at its own place."""
    from ctxscope.core import fulltext

    log = tmp_path / "task.md"
    write_specstory(log)
    session = open_log(log, text_cap=DEFAULT_TEXT_CAP)
    elided = elided_messages(session)
    assert len(elided) == 3
    read: list[str] = []
    again = fulltext.Session

    def counted(source: str, format: str) -> Session:
        read.append(source)
        return again(source, format)

    monkeypatch.setattr(fulltext, "Session", counted)
    full = full_texts(session, elided)
    assert full.missing_chars == 0 and read == [str(log)]  # read again once for all three
    whole = open_log(log, text_cap=None)
    assert list(full.texts) == [whole.scopes[m.scope_id].messages[m.index].text for m in elided]
    assert analyse(session).detail("main", len(session.scopes["main"].requests) - 1).unread_tokens == 0


def test_a_markdown_log_that_changed_keeps_the_kept_text(tmp_path: Path) -> None:
    log = tmp_path / "task.md"
    write_specstory(log)
    session = open_log(log, text_cap=DEFAULT_TEXT_CAP)
    elided = elided_messages(session)
    write_specstory(log, LONG.replace("content", "CONTENT"))  # the same lengths, another text
    full = full_texts(session, elided)
    assert full.missing_chars == sum(b.elided_chars for m in elided for b in m.blocks)


@pytest.mark.shared
def test_every_elided_character_of_the_real_specstory_export_is_read_back() -> None:
    log = shared_path("real-logs-more", "specstory", "minsky-starting-task-027.md")
    session = open_log(log, text_cap=DEFAULT_TEXT_CAP)
    elided = elided_messages(session)
    assert len(elided) > 40
    full = full_texts(session, elided)
    assert full.missing_chars == 0
    whole = open_log(log, text_cap=None)
    assert list(full.texts) == [whole.scopes[m.scope_id].messages[m.index].text for m in elided]
