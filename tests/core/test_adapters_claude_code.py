"""Claude Code transcripts: split responses, parallel results, compaction, sidechains, sub-agent files."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import orjson
from ctxscope.core.model import BlockKind, ErrorKind
from ctxscope.core.reader import SessionReader, detect_format, open_log

SESSION = "4d5611e5-0000-0000-0000-000000000000"
_ids = itertools.count(1)


def envelope(kind: str, parent: str | None, **extra: Any) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/w",
        "sessionId": SESSION,
        "version": "2.1.39",
        "type": kind,
        "uuid": f"u{next(_ids)}",
        "timestamp": "2026-02-12T16:02:29.111Z",
        **extra,
    }


def usage(inp: int, create: int, read: int, out: int = 1) -> dict[str, int]:
    return {
        "input_tokens": inp,
        "cache_creation_input_tokens": create,
        "cache_read_input_tokens": read,
        "output_tokens": out,
    }


def assistant(
    msg_id: str, block: dict[str, Any], use: dict[str, int], model: str = "claude-opus-4-6", **extra: Any
) -> dict[str, Any]:
    message = {
        "model": model,
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "content": [block],
        "stop_reason": None,
        "usage": use,
    }
    return envelope("assistant", None, message=message, requestId=f"req_{msg_id}", **extra)


def user(content: Any, **extra: Any) -> dict[str, Any]:
    return envelope("user", None, message={"role": "user", "content": content}, **extra)


def tool_use(call_id: str, name: str = "Bash") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {"command": "ls"}}


def tool_result(call_id: str, text: str = "out") -> list[dict[str, Any]]:
    return [{"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": False}]


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def test_split_response_is_one_call_and_one_message(tmp_path: Path) -> None:
    u = usage(3, 15005, 11442, 9)
    log = write(
        tmp_path / "s.jsonl",
        [
            user("Fix the bug."),
            assistant("msg_1", {"type": "thinking", "thinking": "hmm", "signature": "x"}, u),
            assistant("msg_1", {"type": "text", "text": "Looking."}, u),
            assistant("msg_1", tool_use("t1"), {**u, "output_tokens": 120}),
            user(tool_result("t1")),
            assistant("msg_2", {"type": "text", "text": "Done."}, usage(1, 50, 26447)),
        ],
    )
    session = open_log(log)
    assert session.format == "claude-code" and detect_format(log) == "claude-code"
    main = session.scopes["main"]
    assert [m.role for m in main.messages] == ["user", "assistant", "user", "assistant"]
    assert [b.kind for b in main.messages[1].blocks] == [
        BlockKind.REASONING,
        BlockKind.TEXT,
        BlockKind.TOOL_CALL,
    ]
    assert [r.message_count for r in main.requests] == [1, 3]
    first = main.requests[0].usage
    assert first is not None and first.prompt_tokens == 3 + 15005 + 11442
    assert first.cached_prompt_tokens == 11442 and first.cache_write_tokens == 15005
    assert first.output_tokens == 120  # the largest placeholder seen across the split lines
    assert main.requests[0].request_id == "req_msg_1" and main.requests[0].model == "claude-opus-4-6"
    assert session.session_id == SESSION


def test_parallel_tool_results_join_one_user_message(tmp_path: Path) -> None:
    """Results written between the pieces of one response are held until it is complete."""
    u = usage(1, 100, 1000)
    log = write(
        tmp_path / "s.jsonl",
        [
            user("Run both."),
            assistant("msg_1", tool_use("a"), u),
            user(tool_result("a")),
            assistant("msg_1", tool_use("b"), u),
            user(tool_result("b")),
            user("<system-reminder>hook said hi</system-reminder>", isMeta=True),
            assistant("msg_2", {"type": "text", "text": "Both ran."}, usage(1, 20, 1100)),
        ],
    )
    main = open_log(log).scopes["main"]
    roles = [(m.role, [b.kind.value for b in m.blocks], m.meta) for m in main.messages]
    assert roles == [
        ("user", ["text"], False),
        ("assistant", ["tool_call", "tool_call"], False),
        ("user", ["tool_result", "tool_result"], False),
        ("user", ["text"], True),
        ("assistant", ["text"], False),
    ]
    assert len(main.requests) == 2 and main.requests[1].message_count == 4
    assert main.tool_rounds["a"].result_index == 2 and main.tool_rounds["b"].result_index == 2


def test_compaction_boundary_and_summary(tmp_path: Path) -> None:
    summary = "This session is being continued from a previous conversation that ran out of context. ..."
    log = write(
        tmp_path / "s.jsonl",
        [
            user("Start."),
            assistant("msg_1", {"type": "text", "text": "ok"}, usage(3, 1000, 163828)),
            envelope(
                "system",
                None,
                subtype="compact_boundary",
                content="Conversation compacted",
                logicalParentUuid="u1",
                compactMetadata={"trigger": "auto", "preTokens": 170251},
                level="info",
            ),
            user(summary, isCompactSummary=True, isVisibleInTranscriptOnly=True),
            envelope("progress", None, data={"type": "hook_progress", "hookEvent": "SessionStart"}),
            assistant("msg_2", {"type": "text", "text": "Continuing."}, usage(3, 14600, 21478)),
        ],
    )
    session = open_log(log)
    main = session.scopes["main"]
    (compaction,) = main.compactions
    assert (compaction.trigger, compaction.tokens_before, compaction.tokens_after) == ("auto", 170251, 36081)
    assert compaction.summary == summary and compaction.message_count == 2
    assert main.messages[2].is_summary
    assert main.context_start(1) == 2 and main.context_start(0) == 0
    assert [m.index for m in main.context_messages(main.requests[1])] == [2]
    assert session.ignored["progress"] == 1


def test_meta_lines_count_but_do_not_start_turns(tmp_path: Path) -> None:
    log = write(
        tmp_path / "s.jsonl",
        [
            user("Caveat: the messages below were generated by the user", isMeta=True),
            user("<command-name>/clear</command-name>"),
            user("Real question?"),
        ],
    )
    main = open_log(log).scopes["main"]
    assert [m.meta for m in main.messages] == [True, False, False]
    assert list(main.user_turn_starts) == [1, 2]


def test_model_is_read_per_call(tmp_path: Path) -> None:
    log = write(
        tmp_path / "s.jsonl",
        [
            user("a"),
            assistant("m1", {"type": "text", "text": "x"}, usage(1, 1, 1), model="claude-haiku-4-5"),
            user("b"),
            assistant("m2", {"type": "text", "text": "y"}, usage(1, 1, 1), model="claude-opus-4-6"),
        ],
    )
    main = open_log(log).scopes["main"]
    assert [r.model for r in main.requests] == ["claude-haiku-4-5", "claude-opus-4-6"]
    assert main.header.model == "claude-haiku-4-5"


def test_api_error_message_is_an_observed_error_not_a_call_or_message(tmp_path: Path) -> None:
    error = assistant(
        "m_err",
        {"type": "text", "text": "Prompt is too long"},
        usage(0, 0, 0),
        model="<synthetic>",
        isApiErrorMessage=True,
    )
    log = write(tmp_path / "s.jsonl", [user("a"), error])
    main = open_log(log).scopes["main"]
    assert len(main.messages) == 1
    assert main.requests == []
    (observed,) = main.errors
    assert observed.error.kind is ErrorKind.CONTEXT_LENGTH and observed.message_count == 1


def test_title_summaries_and_snapshots_are_not_compaction(tmp_path: Path) -> None:
    log = write(
        tmp_path / "s.jsonl",
        [
            {"type": "summary", "summary": "A title", "leafUuid": "x"},
            {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}, "isSnapshotUpdate": False},
            envelope("queue-operation", None, operation="enqueue", content="later"),
            user("hi"),
        ],
    )
    session = open_log(log)
    assert session.format == "claude-code"
    assert session.scopes["main"].compactions == []
    assert session.ignored == {"summary": 1, "file-history-snapshot": 1, "queue-operation": 1}


def test_inline_sidechains_become_scopes(tmp_path: Path) -> None:
    def side(record: dict[str, Any], parent: str | None) -> dict[str, Any]:
        return {**record, "isSidechain": True, "parentUuid": parent}

    root_a = side(user("Task A prompt"), None)
    root_b = side(user("Task B prompt"), None)
    a1 = side(assistant("ma", {"type": "text", "text": "A"}, usage(1, 1, 10)), root_a["uuid"])
    b1 = side(assistant("mb", {"type": "text", "text": "B"}, usage(1, 1, 20)), root_b["uuid"])
    a2 = side(user("more A"), a1["uuid"])
    log = write(
        tmp_path / "s.jsonl",
        [
            user("main prompt"),
            assistant("m0", tool_use("task1", "Task"), usage(1, 1, 5)),
            root_a,
            root_b,
            a1,
            b1,
            a2,
            user(tool_result("task1", "all done")),
        ],
    )
    session = open_log(log)
    assert set(session.scopes) == {"main", "sidechain-1", "sidechain-2"}
    a, b = session.scopes["sidechain-1"], session.scopes["sidechain-2"]
    assert a.header.parent_id == "main" and a.header.label == "Task A prompt"
    assert [m.text for m in a.messages] == ["Task A prompt", "A", "more A"]
    assert [m.text for m in b.messages] == ["Task B prompt", "B"]
    assert len(session.scopes["main"].messages) == 3


def test_subagent_files_join_as_scopes(tmp_path: Path) -> None:
    main_log = write(
        tmp_path / f"{SESSION}.jsonl", [user("go"), assistant("m1", tool_use("t", "Task"), usage(1, 1, 1))]
    )
    folder = tmp_path / SESSION / "subagents"
    folder.mkdir(parents=True)
    sub = {**user("sub prompt"), "isSidechain": True, "agentId": "a1"}
    write(
        folder / "agent-a1.jsonl",
        [
            sub,
            {
                **assistant("s1", {"type": "text", "text": "x"}, usage(2, 2, 2)),
                "isSidechain": True,
                "agentId": "a1",
            },
        ],
    )
    session = open_log(main_log)
    assert set(session.scopes) == {"main", "agent-a1"}
    scope = session.scopes["agent-a1"]
    assert scope.header.parent_id == "main" and len(scope.requests) == 1
    assert scope.source.endswith("agent-a1.jsonl")
    assert session.raw_line("agent-a1", 1) == orjson.dumps(sub)
    # Opened on its own, a sub-agent file is one scope.
    alone = open_log(folder / "agent-a1.jsonl")
    assert set(alone.scopes) == {"main"}


def test_subagent_appearing_later_while_tailing(tmp_path: Path) -> None:
    main_log = write(tmp_path / f"{SESSION}.jsonl", [user("go")])
    reader = SessionReader(main_log)
    reader.poll()
    assert set(reader.session.scopes) == {"main"}
    folder = tmp_path / SESSION / "subagents"
    folder.mkdir(parents=True)
    write(folder / "agent-late.jsonl", [{**user("late"), "isSidechain": True, "agentId": "late"}])
    progress = reader.poll()
    assert set(reader.session.scopes) == {"main", "agent-late"}
    assert progress.lines == 1


def test_subagents_folder_beside_the_file_needs_the_same_session(tmp_path: Path) -> None:
    main_log = write(tmp_path / "session.jsonl", [user("go")])
    folder = tmp_path / "subagents"
    folder.mkdir()
    write(folder / "agent-mine.jsonl", [{**user("mine"), "isSidechain": True, "agentId": "m"}])
    other = {**user("other"), "sessionId": "someone-else", "isSidechain": True, "agentId": "o"}
    write(folder / "agent-other.jsonl", [other])
    assert set(open_log(main_log).scopes) == {"main", "agent-mine"}


def test_text_cap_keeps_estimates_exact(tmp_path: Path) -> None:
    big = "word " * 20_000
    log = write(
        tmp_path / "s.jsonl",
        [
            user("read it"),
            assistant("m1", tool_use("t"), usage(1, 1, 1)),
            user(tool_result("t", big)),
            assistant("m2", {"type": "text", "text": "ok"}, usage(1, 1, 1)),
        ],
    )
    full = open_log(log, text_cap=None).scopes["main"]
    capped = open_log(log, text_cap=1000).scopes["main"]
    result = capped.messages[2].blocks[0]
    assert len(result.text) == 1000 and result.elided_chars == len(big) - 1000
    assert capped.messages[2].tokens() == full.messages[2].tokens()


def test_text_cap_keeps_estimates_exact_across_split_lines(tmp_path: Path) -> None:
    u = usage(1, 1, 1)
    log = write(
        tmp_path / "s.jsonl",
        [
            user("think hard"),
            assistant("m1", {"type": "text", "text": "short"}, u),
            assistant("m1", {"type": "thinking", "thinking": "deep thought " * 3000, "signature": "s"}, u),
            assistant("m1", {"type": "text", "text": "conclusion " * 2000}, u),
        ],
    )
    full = open_log(log, text_cap=None).scopes["main"].messages[1]
    capped = open_log(log, text_cap=500).scopes["main"].messages[1]
    assert [b.elided_chars > 0 for b in capped.blocks] == [False, True, True]
    assert capped.tokens() == full.tokens()
    assert sum(b.chars for b in capped.blocks) == sum(len(b.text) for b in full.blocks)
