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


# -- Claude Code 2.1: new record kinds, usage quirks, replaying sub-agents ------------------------


def boundary(**metadata: Any) -> dict[str, Any]:
    return envelope(
        "system", None, subtype="compact_boundary", content="Conversation compacted", compactMetadata=metadata
    )


SUMMARY = "This session is being continued from a previous conversation that ran out of context. ..."


def test_newer_record_kinds_are_known_and_unknown_ones_counted_apart(tmp_path: Path) -> None:
    log = write(
        tmp_path / "s.jsonl",
        [
            {"type": "mode", "mode": "normal", "sessionId": SESSION},  # the first line of the file
            {"type": "permission-mode", "permissionMode": "default", "sessionId": SESSION},
            user("a"),
            {"type": "ai-title", "aiTitle": "A title", "sessionId": SESSION},
            {"type": "last-prompt", "lastPrompt": "a", "sessionId": SESSION},
            envelope("queue-operation", None, operation="enqueue", content="later"),
            {"type": "agent-name", "name": "x", "sessionId": SESSION},
            assistant("m1", {"type": "text", "text": "x"}, usage(1, 2, 3)),
        ],
    )
    session = open_log(log)
    assert session.format == "claude-code" and session.problems.bad_lines == 0
    assert session.ignored == {
        "mode": 1,
        "permission-mode": 1,
        "ai-title": 1,
        "last-prompt": 1,
        "queue-operation": 1,
    }
    assert session.unknown_kinds == {"agent-name": 1}
    assert len(session.scopes["main"].requests) == 1


def test_attachments_are_meta_context_and_what_a_compaction_kept(tmp_path: Path) -> None:
    def attachment(**body: Any) -> dict[str, Any]:
        return envelope("attachment", None, attachment=body)

    log = write(
        tmp_path / "s.jsonl",
        [
            user("a"),
            attachment(type="skill_listing", content="- skill: does things", skillCount=1),
            attachment(type="command_permissions", allowedTools=[]),  # nothing the model reads
            assistant("m1", {"type": "text", "text": "x"}, usage(1, 100, 170_000)),
            boundary(trigger="manual", preTokens=170_101, postTokens=12_000, durationMs=41_000),
            user(SUMMARY, isCompactSummary=True),
            attachment(
                type="file", filename="/w/a.py", content={"type": "text", "file": {"content": "x = 1\n"}}
            ),
            attachment(type="deferred_tools_delta", addedLines=["WebFetch", "TaskCreate"], addedNames=[]),
            assistant("m2", {"type": "text", "text": "y"}, usage(1, 100, 13_000)),
            attachment(type="queued_command", prompt="later task"),
        ],
    )
    session = open_log(log)
    main = session.scopes["main"]
    assert [(m.text, m.meta) for m in main.messages if m.meta] == [
        ("- skill: does things", True),
        ("x = 1\n", True),
        ("WebFetch\nTaskCreate", True),
        ("later task", True),
    ]
    assert session.ignored["attachment:command_permissions(empty)"] == 1
    (compaction,) = main.compactions
    assert (compaction.trigger, compaction.tokens_before, compaction.tokens_after) == (
        "manual",
        170_101,
        12_000,
    )
    assert (compaction.tokens_after_source, compaction.duration_ms) == ("reported", 41_000)
    assert compaction.summary_index == 3 and main.messages[3].is_summary
    assert [main.messages[i].text for i in compaction.kept_indices] == ["x = 1\n", "WebFetch\nTaskCreate"]
    assert compaction.request_index == 1


def test_microcompact_is_a_clearing_with_its_own_figures(tmp_path: Path) -> None:
    log = write(
        tmp_path / "s.jsonl",
        [
            user("a"),
            assistant("m1", tool_use("t1"), usage(1, 1, 90_000)),
            user(tool_result("t1", "long output")),
            envelope(
                "system",
                None,
                subtype="microcompact_boundary",
                microcompactMetadata={
                    "trigger": "auto",
                    "preTokens": 90_500,
                    "tokensSaved": 20_000,
                    "compactedToolIds": ["t1"],
                },
            ),
            assistant("m2", {"type": "text", "text": "y"}, usage(1, 1, 71_000)),
        ],
    )
    main = open_log(log).scopes["main"]
    (clearing,) = main.compactions
    assert (clearing.stage, clearing.tokens_before, clearing.tokens_after) == (
        "clear_tool_results",
        90_500,
        70_500,
    )
    assert (clearing.tokens_saved, clearing.compacted_tool_ids, clearing.request_index) == (
        20_000,
        ("t1",),
        1,
    )
    assert not clearing.restarts_context and main.context_start(1) == 0


def test_zero_usage_is_no_usage_and_split_usage_takes_the_fullest_line(tmp_path: Path) -> None:
    zero = {"input_tokens": 0, "output_tokens": 0}
    partial = {"input_tokens": 27_693, "output_tokens": 0}
    full = {**usage(26_158, 0, 0, 116), "service_tier": "standard"}
    log = write(
        tmp_path / "s.jsonl",
        [
            user("a"),
            assistant("g1", {"type": "thinking", "thinking": "t", "signature": ""}, zero, model="glm-4.7"),
            assistant("g1", {"type": "text", "text": "x"}, zero, model="glm-4.7"),
            user("b"),
            assistant("g2", {"type": "thinking", "thinking": "t", "signature": ""}, partial, model="glm-5"),
            assistant("g2", {"type": "text", "text": "y"}, full, model="glm-5"),
            assistant("g2", tool_use("t1"), full, model="glm-5"),
        ],
    )
    main = open_log(log).scopes["main"]
    assert [r.usage for r in main.requests] == [None, main.requests[1].usage]
    usage2 = main.requests[1].usage
    assert usage2 is not None and (usage2.prompt_tokens, usage2.output_tokens) == (26_158, 116)


def replaying_session(tmp_path: Path) -> Path:
    """A main session that compacts once, an acompact file replaying its two calls (same
    message ids) before its own summarising call, and an aside-question file replaying one."""
    main_log = write(
        tmp_path / f"{SESSION}.jsonl",
        [
            user("go"),
            assistant("m1", {"type": "text", "text": "1"}, usage(1, 10, 100)),
            user("more"),
            assistant("m2", {"type": "text", "text": "2"}, usage(1, 10, 168_000)),
            {**boundary(trigger="auto", preTokens=168_500), "timestamp": "2026-02-12T16:10:00.000Z"},
            user(SUMMARY, isCompactSummary=True),
            assistant("m3", {"type": "text", "text": "3"}, usage(1, 10, 20_000)),
        ],
    )
    folder = tmp_path / SESSION / "subagents"
    folder.mkdir(parents=True)

    def sub(record: dict[str, Any], agent: str, stamp: str = "2026-02-12T16:02:29.111Z") -> dict[str, Any]:
        return {**record, "isSidechain": True, "agentId": agent, "timestamp": stamp}

    write(
        folder / "agent-acompact-ab12.jsonl",
        [
            sub(user("go"), "acompact-ab12"),
            sub(assistant("m1", {"type": "text", "text": "1"}, usage(1, 10, 100)), "acompact-ab12"),
            sub(user("more"), "acompact-ab12"),
            sub(assistant("m2", {"type": "text", "text": "2"}, usage(1, 10, 168_000)), "acompact-ab12"),
            sub(
                user("Your task is to create a detailed summary of the conversation so far"), "acompact-ab12"
            ),
            sub(
                assistant("s1", {"type": "text", "text": "<summary>"}, usage(3, 5_000, 168_100)),
                "acompact-ab12",
                "2026-02-12T16:09:58.000Z",
            ),
        ],
    )
    write(
        folder / "agent-aside_question-cd34.jsonl",
        [
            sub(user("go"), "aside_question-cd34"),
            sub(assistant("m1", {"type": "text", "text": "1"}, usage(1, 10, 100)), "aside_question-cd34"),
            sub(user("a side question"), "aside_question-cd34"),
            sub(
                assistant("q1", {"type": "text", "text": "answer"}, usage(1, 10, 300)), "aside_question-cd34"
            ),
        ],
    )
    (folder / "agent-acompact-ab12.meta.json").write_text('{"agentType": "compact"}')  # not a log
    return main_log


def test_replaying_subagent_files_add_no_calls(tmp_path: Path) -> None:
    session = open_log(replaying_session(tmp_path))
    assert session.problems.bad_lines == 0 and len(session.scopes) == 3
    calls = {sid: [r.request_id for r in s.requests] for sid, s in session.scopes.items()}
    assert calls == {
        "main": ["req_m1", "req_m2", "req_m3"],
        "agent-acompact-ab12": ["req_s1"],
        "agent-aside_question-cd34": ["req_q1"],
    }
    acompact = session.scopes["agent-acompact-ab12"]
    assert acompact.replayed_calls == 2 and session.scopes["agent-aside_question-cd34"].replayed_calls == 1
    # The replayed history is still the sub-agent's context: its one call was made over all of it.
    assert acompact.requests[0].message_count == 5
    (compaction,) = session.scopes["main"].compactions
    assert compaction.summariser_scope == "agent-acompact-ab12"
    assert (compaction.tokens_before, compaction.tokens_after) == (168_500, 20_011)


def test_replaying_files_are_deduplicated_while_tailing_too(tmp_path: Path) -> None:
    main_log = replaying_session(tmp_path)
    reader = SessionReader(main_log)
    while not reader.poll(max_bytes=300).done:  # small steps: the main file takes several polls
        pass
    scopes = reader.session.scopes
    assert [
        len(scopes[s].requests) for s in ("main", "agent-acompact-ab12", "agent-aside_question-cd34")
    ] == [
        3,
        1,
        1,
    ]
