"""Codex rollouts (token_count dedup, compaction, zeroed artefact) and exec --json streams."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from ctxscope.core.analysis import analyse
from ctxscope.core.model import BlockKind, Usage
from ctxscope.core.reader import open_log


def line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-09-25T01:22:25.361Z", "type": kind, "payload": payload}


def token_count(prompt: int, total: int, cached: int = 0, window: int = 272_000) -> dict[str, Any]:
    usage = {
        "input_tokens": prompt,
        "cached_input_tokens": cached,
        "output_tokens": 10,
        "reasoning_output_tokens": 0,
        "total_tokens": prompt + 10,
    }
    info = {
        "total_token_usage": {**usage, "total_tokens": total},
        "last_token_usage": usage,
        "model_context_window": window,
    }
    return line("event_msg", {"type": "token_count", "info": info, "rate_limits": {}})


def message(role: str, text: str) -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return line("response_item", {"type": "message", "role": role, "content": [{"type": kind, "text": text}]})


def call(call_id: str) -> dict[str, Any]:
    return line(
        "response_item",
        {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}', "call_id": call_id},
    )


def output(call_id: str, text: str = "a.py") -> dict[str, Any]:
    return line(
        "response_item",
        {
            "type": "function_call_output",
            "call_id": call_id,
            "output": orjson.dumps({"output": text, "metadata": {"exit_code": 0}}).decode(),
        },
    )


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def rollout(tmp_path: Path) -> Path:
    return write(
        tmp_path / "rollout-2025-09-24T19-22-20-x.jsonl",
        [
            line(
                "session_meta",
                {"id": "sess-1", "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.58.0"},
            ),
            message("user", "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"),
            message("user", "List the files."),
            line("event_msg", {"type": "user_message", "message": "List the files."}),
            line("turn_context", {"cwd": "/w", "model": "gpt-5-codex"}),
            line("event_msg", {"type": "token_count", "info": None, "rate_limits": {}}),
            line("event_msg", {"type": "agent_reasoning", "text": "**Planning**"}),
            token_count(3000, 3010),
            line(
                "response_item",
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": "**Planning**"}],
                    "content": None,
                    "encrypted_content": "gAAAA",
                },
            ),
            call("c1"),
            output("c1"),
            line("turn_context", {"cwd": "/w", "model": "gpt-5-codex"}),
            token_count(3000, 3010),  # the duplicate 0.58 writes at the next turn_context
            token_count(3500, 6520, cached=2900),
            message("assistant", "Here they are."),
            line("response_item", {"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}}),
        ],
    )


def test_rollout_calls_messages_and_dedup(tmp_path: Path) -> None:
    session = open_log(rollout(tmp_path))
    assert session.format == "codex-rollout"
    main = session.scopes["main"]
    assert main.header.session_id == "sess-1" and main.header.model == "gpt-5-codex"
    assert main.header.context_limit == 272_000
    assert [(m.role, m.meta) for m in main.messages] == [
        ("user", True),
        ("user", False),
        ("assistant", False),
        ("tool", False),
        ("assistant", False),
    ]
    assert [b.kind for b in main.messages[2].blocks] == [BlockKind.REASONING, BlockKind.TOOL_CALL]
    assert [r.message_count for r in main.requests] == [2, 4]
    usage = main.requests[1].usage
    assert usage is not None and (usage.prompt_tokens, usage.cached_prompt_tokens) == (3500, 2900)
    assert session.ignored["event_msg:token_count(duplicate)"] == 1
    assert session.ignored["event_msg:user_message"] == 1  # UI duplicates are not double counted
    assert session.ignored["response_item:ghost_snapshot"] == 1


def test_rollout_compaction(tmp_path: Path) -> None:
    summary = "Summary of the work so far: listed files, fixed a.py."
    path = write(
        tmp_path / "r.jsonl",
        [
            message("user", "Do a long task."),
            line("turn_context", {"model": "gpt-5-codex"}),
            token_count(209_950, 900_000),
            message("assistant", "Working."),
            line(
                "compacted",
                {
                    "message": summary,
                    "replacement_history": [
                        {
                            "type": "message",
                            "role": "user",
                            "content": [{"type": "input_text", "text": "Do a long task."}],
                        },
                        {
                            "type": "message",
                            "role": "user",
                            "content": [{"type": "input_text", "text": summary}],
                        },
                    ],
                },
            ),
            line("event_msg", {"type": "context_compacted"}),
            token_count(0, 940_499),  # the zeroed artefact written at a compaction
            token_count(48_297, 990_000),
        ],
    )
    session = open_log(path)
    main = session.scopes["main"]
    (compaction,) = main.compactions
    assert (compaction.tokens_before, compaction.tokens_after) == (209_950, 48_297)
    assert compaction.summary == summary and compaction.message_count == 2
    assert len(main.requests) == 2
    assert session.ignored["event_msg:token_count(zeroed)"] == 1
    live = main.context_messages(main.requests[1])
    assert [m.text for m in live] == ["Do a long task.", summary]
    assert live[1].is_summary


def test_exec_json_stream(tmp_path: Path) -> None:
    cmd = {
        "id": "item_0",
        "type": "command_execution",
        "command": "bash -lc ls",
        "aggregated_output": "",
        "exit_code": None,
        "status": "in_progress",
    }
    path = write(
        tmp_path / "exec.jsonl",
        [
            {"type": "thread.started", "thread_id": "th-1"},
            {"type": "turn.started"},
            {"type": "item.started", "item": cmd},
            {
                "type": "item.completed",
                "item": {**cmd, "aggregated_output": "a.py\n", "exit_code": 0, "status": "completed"},
            },
            {"type": "item.started", "item": {**cmd, "id": "item_1", "command": "false"}},
            {
                "type": "item.completed",
                "item": {**cmd, "id": "item_1", "command": "false", "exit_code": 1, "status": "failed"},
            },
            {
                "type": "item.completed",
                "item": {
                    "id": "item_2",
                    "type": "file_change",
                    "changes": [{"path": "a.py", "kind": "update"}],
                    "status": "completed",
                },
            },
            {
                "type": "item.completed",
                "item": {"id": "item_2", "type": "file_change", "changes": [], "status": "x"},
            },
            {"type": "item.completed", "item": {"id": "item_3", "type": "agent_message", "text": "Done."}},
            {
                "type": "turn.completed",
                "usage": {"input_tokens": 2795973, "cached_input_tokens": 2597760, "output_tokens": 15308},
            },
        ],
    )
    session = open_log(path)
    assert session.format == "codex-exec" and session.session_id == "th-1"
    main = session.scopes["main"]
    calls = [b for m in main.messages for b in m.tool_calls]
    assert [(b.name, b.call_id) for b in calls] == [
        ("shell", "item_0"),
        ("shell", "item_1"),
        ("apply_patch", "item_2"),
    ]
    results = [b for m in main.messages for b in m.tool_results]
    assert [b.is_error for b in results] == [False, True, False]
    assert main.requests == []  # cumulative turn usage is not a per-call prompt
    assert main.messages[-1].text == "Done."
    # ... but it is what the log reports, kept per turn and shown as such (never a request's figure).
    assert main.turn_usage == [Usage(2795973, cached_prompt_tokens=2597760, output_tokens=15308)]
    volume = analyse(session).snapshot("recorded").scopes["main"].stored_volume
    assert volume is not None and volume.turns == 1 and volume.turn_usage == main.turn_usage[0]
    assert sum(volume.by_category.values()) == volume.estimated_tokens > 0


# -- Codex 0.101+: compaction items, forks, rollbacks, the window per call -------------------------


def at(record: dict[str, Any], stamp: str) -> dict[str, Any]:
    return {**record, "timestamp": stamp}


def test_replacement_history_is_the_live_context_with_summary_and_kept_items(tmp_path: Path) -> None:
    path = write(
        tmp_path / "r.jsonl",
        [
            message("user", "First request."),
            line("turn_context", {"model": "gpt-5.1-codex"}),
            token_count(234_537, 900_000, window=258_400),
            message("assistant", "Done."),
            line(
                "compacted",
                {
                    "message": "",
                    "replacement_history": [
                        {
                            "type": "message",
                            "role": "user",
                            "content": [{"type": "input_text", "text": "First request."}],
                        },
                        {"type": "compaction", "encrypted_content": "gAAAAB" + "x" * 400},
                    ],
                },
            ),
            line("event_msg", {"type": "context_compacted"}),
            token_count(22_361, 930_000, window=258_400),
        ],
    )
    session = open_log(path)
    main = session.scopes["main"]
    (compaction,) = main.compactions
    assert (compaction.tokens_before, compaction.tokens_after) == (234_537, 22_361)
    assert (compaction.tokens_before_source, compaction.tokens_after_source) == ("last_call", "next_call")
    assert compaction.kept_indices == (2,) and compaction.summary_index == 3
    assert main.messages[3].is_summary and main.messages[2].text == "First request."
    assert [m.index for m in main.context_messages(main.requests[1])] == [2, 3]
    assert [r.context_window for r in main.requests] == [258_400, 258_400]
    assert session.problems.bad_lines == 0 and not session.ignored.get("response_item:compaction")


def test_forked_rollout_is_a_subagent_without_its_parents_calls(tmp_path: Path) -> None:
    fork = "2026-03-01T10:00:00.000Z"
    path = write(
        tmp_path / "rollout-fork.jsonl",
        [
            at(
                line(
                    "session_meta",
                    {
                        "id": "child",
                        "forked_from_id": "parent",
                        "source": {"subagent": {"thread_spawn": {"parent_thread_id": "parent", "depth": 1}}},
                        "base_instructions": {"text": "You are Codex."},
                    },
                ),
                fork,
            ),
            at(line("session_meta", {"id": "parent", "base_instructions": {"text": "You are Codex."}}), fork),
            # The parent's history, replayed within milliseconds of the fork.
            at(message("user", "Parent task."), "2026-03-01T10:00:00.001Z"),
            at(line("turn_context", {"model": "gpt-5.1-codex"}), "2026-03-01T10:00:00.002Z"),
            at(token_count(10_000, 10_010), "2026-03-01T10:00:00.003Z"),
            at(message("assistant", "Parent answer."), "2026-03-01T10:00:00.004Z"),
            at(token_count(12_000, 22_020), "2026-03-01T10:00:00.005Z"),
            # The fork's own work, seconds later.
            at(message("user", "Sub-agent task."), "2026-03-01T10:00:04.000Z"),
            at(token_count(13_000, 35_030), "2026-03-01T10:00:09.000Z"),
        ],
    )
    session = open_log(path)
    main = session.scopes["main"]
    assert main.header.parent_id == "parent" and main.header.session_id == "child"
    assert [r.usage.prompt_tokens for r in main.requests if r.usage] == [13_000]
    assert main.replayed_calls == 2
    # The inherited history is the fork's context; the parent's header adds no second prompt.
    assert [m.text for m in main.context_messages(main.requests[0])] == [
        "You are Codex.",
        "Parent task.",
        "Parent answer.",
        "Sub-agent task.",
    ]
    assert session.ignored["session_meta(repeated)"] == 1


def test_a_rollout_that_is_not_a_fork_keeps_every_call(tmp_path: Path) -> None:
    stamp = "2026-03-01T10:00:00.000Z"
    path = write(
        tmp_path / "r.jsonl",
        [
            at(line("session_meta", {"id": "root"}), stamp),
            at(message("user", "x"), stamp),
            at(token_count(5, 15), stamp),
        ],
    )
    main = open_log(path).scopes["main"]
    assert len(main.requests) == 1 and main.replayed_calls == 0 and main.header.parent_id is None


def test_thread_rolled_back_takes_turns_out_of_the_live_context(tmp_path: Path) -> None:
    path = write(
        tmp_path / "r.jsonl",
        [
            message("user", "<environment_context>cwd</environment_context>"),
            message("user", "Turn one."),
            token_count(1_000, 1_010),
            message("assistant", "One."),
            message("user", "Turn two."),
            token_count(2_000, 3_020),
            message("assistant", "Two."),
            line("event_msg", {"type": "thread_rolled_back", "num_turns": 1}),
            message("user", "Turn two, again."),
            token_count(1_500, 4_530),
        ],
    )
    main = open_log(path).scopes["main"]
    (rollback,) = main.rollbacks
    assert (rollback.turns, rollback.dropped, rollback.request_index) == (1, range(3, 5), 2)
    assert [m.text for m in main.context_messages(main.requests[2])] == [
        "<environment_context>cwd</environment_context>",
        "Turn one.",
        "One.",
        "Turn two, again.",
    ]
