"""Message lists (OpenAI chat, Anthropic Messages, conversation lists), SWE-agent, OpenHands, SDK stream."""

from __future__ import annotations

import base64
import struct
from pathlib import Path
from typing import Any

import orjson
from ctxscope.core.model import ArtifactKind, BlockKind, Category
from ctxscope.core.reader import open_log

OPENAI = [
    {"role": "system", "content": "You are an airline agent."},
    {"role": "user", "content": "Book me a flight."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "search", "arguments": '{"from":"JFK"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "name": "search", "content": '[{"flight":"HAT001"}]'},
    {"role": "assistant", "content": "Found HAT001."},
]


def dump(path: Path, doc: Any, *, lines: bool = False) -> Path:
    if lines:
        path.write_bytes(b"".join(orjson.dumps(item) + b"\n" for item in doc))
    else:
        path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    return path


def check_openai(scope_messages: list[Any]) -> None:
    assert [m.role for m in scope_messages] == ["system", "user", "assistant", "tool", "assistant"]
    call = scope_messages[2].blocks[0]
    assert (call.kind, call.call_id, call.name, call.text) == (
        BlockKind.TOOL_CALL,
        "call_1",
        "search",
        '{"from":"JFK"}',
    )
    result = scope_messages[3].blocks[0]
    assert (result.kind, result.call_id, result.name) == (BlockKind.TOOL_RESULT, "call_1", "search")


def test_openai_list_body_and_jsonl(tmp_path: Path) -> None:
    for path in (
        dump(tmp_path / "a.json", OPENAI),
        dump(tmp_path / "b.json", {"model": "gpt-4o", "tools": [{"type": "function"}], "messages": OPENAI}),
        dump(tmp_path / "c.jsonl", OPENAI, lines=True),
    ):
        session = open_log(path)
        assert session.format == "openai-chat", path.name
        main = session.scopes["main"]
        messages = [m for m in main.messages if m.category_hint is not Category.TOOL_DEFINITIONS]
        check_openai(messages)
        # Each assistant message is a call over everything before it.
        offset = len(main.messages) - len(messages)
        assert [r.message_count for r in main.requests] == [2 + offset, 4 + offset]
        assert main.requests[0].usage is None


def test_conversation_list_scopes(tmp_path: Path) -> None:
    doc = [
        {"task_id": 7, "trial": 0, "reward": 1.0, "traj": OPENAI},
        {"task_id": 7, "trial": 1, "reward": 0.0, "traj": OPENAI[:3]},
        {"id": "chat-x", "messages": OPENAI[:2]},
        OPENAI[:2],
    ]
    session = open_log(dump(tmp_path / "runs.json", doc))
    assert session.format == "openai-chat"
    assert list(session.scopes) == ["task-7-trial-0", "task-7-trial-1", "chat-x", "conversation-4"]
    assert session.scopes["task-7-trial-0"].header.label == "Book me a flight."
    assert all(s.header.parent_id is None for s in session.scopes.values())


def test_anthropic_body_with_system_blocks(tmp_path: Path) -> None:
    png = base64.b64encode(
        b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + struct.pack(">II", 1500, 750) + b"x" * 50
    )
    body = {
        "model": "claude-sonnet-4-5",
        "system": [{"type": "text", "text": "You are Claude Code."}, {"type": "text", "text": "Be careful."}],
        "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Look at this"},
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": png.decode()},
                    },
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Running."},
                    {"type": "tool_use", "id": "tu1", "name": "Bash", "input": {"c": 1}},
                ],
                "usage": {
                    "input_tokens": 5,
                    "cache_creation_input_tokens": 100,
                    "cache_read_input_tokens": 2000,
                    "output_tokens": 30,
                },
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "tu1",
                        "is_error": True,
                        "content": [{"type": "text", "text": "boom"}],
                    }
                ],
            },
        ],
    }
    session = open_log(dump(tmp_path / "body.json", body))
    assert session.format == "anthropic-messages"
    main = session.scopes["main"]
    assert main.messages[0].text == "You are Claude Code.\nBe careful."
    assert main.messages[1].category() is Category.TOOL_DEFINITIONS
    image = main.messages[2].blocks[1]
    assert image.artifact is ArtifactKind.IMAGE and (image.width, image.height) == (1500, 750)
    assert image.text == ""
    (request,) = main.requests
    assert request.usage is not None and request.usage.prompt_tokens == 2105
    result = main.messages[4].blocks[0]
    assert (result.kind, result.text, result.is_error) == (BlockKind.TOOL_RESULT, "boom", True)


def test_anthropic_jsonl(tmp_path: Path) -> None:
    lines = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hmm"},
                {"type": "tool_use", "id": "a", "name": "ls", "input": {}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x"}]},
    ]
    session = open_log(dump(tmp_path / "m.jsonl", lines[1:], lines=True))
    assert session.format == "anthropic-messages"
    session = open_log(dump(tmp_path / "m2.jsonl", lines, lines=True))
    # The first line alone cannot tell; the mixed parser still reads Anthropic blocks right.
    kinds = [b.kind for m in session.scopes["main"].messages for b in m.blocks]
    assert kinds == [BlockKind.TEXT, BlockKind.REASONING, BlockKind.TOOL_CALL, BlockKind.TOOL_RESULT]


def test_swe_agent_history_and_old_trajectory(tmp_path: Path) -> None:
    history = [
        {"role": "system", "content": "SETTING", "agent": "main"},
        {"role": "user", "content": "ISSUE", "agent": "main"},
        {
            "role": "assistant",
            "content": "Let's look.",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "bash", "arguments": '{"command":"ls"}'},
                }
            ],
        },
        {"role": "tool", "content": "README", "tool_call_ids": ["c1"]},
    ]
    traj = {
        "environment": "x",
        "trajectory": [{"action": "ls", "observation": "README", "response": "r"}],
        "history": history,
        "info": {"exit_status": "submitted"},
    }
    session = open_log(dump(tmp_path / "a.traj", traj))
    assert session.format == "swe-agent"
    main = session.scopes["main"]
    assert main.messages[3].blocks[0].call_id == "c1" and len(main.requests) == 1
    old = open_log(dump(tmp_path / "b.traj", {**traj, "history": []}))
    assert [m.role for m in old.scopes["main"].messages] == ["assistant", "user"]


def openhands_instance(instance: str, prompts: list[int]) -> dict[str, Any]:
    history: list[dict[str, Any]] = [
        {
            "id": 0,
            "source": "agent",
            "action": "system",
            "args": {"content": "You are OpenHands.", "tools": [{"type": "function"}]},
        },
        {"id": 1, "source": "user", "action": "message", "args": {"content": "Fix it."}},
        {"id": 2, "source": "agent", "action": "change_agent_state", "args": {}},
    ]
    for n, prompt in enumerate(prompts):
        metadata = {
            "function_name": "execute_bash",
            "tool_call_id": f"t{n}",
            "total_calls_in_response": 1,
            "model_response": {
                "id": f"gen-{n}",
                "model": "llama",
                "choices": [
                    {
                        "message": {
                            "content": "thinking",
                            "tool_calls": [
                                {
                                    "id": f"t{n}",
                                    "function": {"name": "execute_bash", "arguments": '{"command":"ls"}'},
                                }
                            ],
                        }
                    }
                ],
                "usage": {"prompt_tokens": prompt, "completion_tokens": 9},
            },
        }
        history.append(
            {
                "id": 10 + 2 * n,
                "source": "agent",
                "action": "run",
                "args": {"command": "ls"},
                "tool_call_metadata": metadata,
            }
        )
        history.append(
            {
                "id": 11 + 2 * n,
                "source": "agent",
                "observation": "run",
                "content": "a.c",
                "extras": {},
                "tool_call_metadata": metadata,
            }
        )
    return {
        "instance_id": instance,
        "instruction": "Fix it.",
        "history": history,
        "metadata": {"llm_config": {"model": "openrouter/llama"}},
        "metrics": {},
    }


def test_openhands_lines_and_document(tmp_path: Path) -> None:
    lines = [openhands_instance("a__b-1", [5920, 6736]), openhands_instance("a__b-2", [100])]
    session = open_log(dump(tmp_path / "output.jsonl", lines, lines=True))
    assert session.format == "openhands" and list(session.scopes) == ["a__b-1", "a__b-2"]
    scope = session.scopes["a__b-1"]
    assert scope.header.model == "openrouter/llama"
    assert [r.usage.prompt_tokens for r in scope.requests if r.usage] == [5920, 6736]
    assert [r.message_count for r in scope.requests] == [3, 5]
    assert scope.tool_rounds["t1"].result_index == 6
    single = open_log(dump(tmp_path / "one.json", lines[0]))
    assert single.format == "openhands" and len(single.scopes["a__b-1"].requests) == 2
    events = open_log(dump(tmp_path / "events.json", lines[0]["history"]))
    assert events.format == "openhands" and len(events.scopes["main"].requests) == 2


def test_sdk_stream_subagent_gets_its_task_prompt(tmp_path: Path) -> None:
    def assistant(msg_id: str, block: dict[str, Any], parent: str | None = None) -> dict[str, Any]:
        return {
            "type": "assistant",
            "parent_tool_use_id": parent,
            "session_id": "s",
            "uuid": msg_id,
            "message": {
                "model": "claude-sonnet-4-5",
                "id": msg_id,
                "role": "assistant",
                "content": [block],
                "usage": {
                    "input_tokens": 2,
                    "cache_creation_input_tokens": 40,
                    "cache_read_input_tokens": 12_000,
                    "output_tokens": 1,
                },
            },
        }

    task = {
        "type": "tool_use",
        "id": "toolu_T",
        "name": "Task",
        "input": {"description": "Convert tests", "prompt": "Convert every test to Jest."},
    }
    lines = [
        {
            "type": "system",
            "subtype": "init",
            "session_id": "s",
            "model": "claude-sonnet-4-5",
            "tools": ["Task"],
        },
        assistant("m1", task),
        assistant("s1", {"type": "text", "text": "On it."}, parent="toolu_T"),
        {
            "type": "user",
            "parent_tool_use_id": None,
            "session_id": "s",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_T", "content": "ok"}],
            },
        },
        {
            "type": "system",
            "subtype": "compact_boundary",
            "session_id": "s",
            "compact_metadata": {"trigger": "auto", "pre_tokens": 159_011},
        },
        assistant("m2", {"type": "text", "text": "Done."}),
        {"type": "result", "subtype": "success", "session_id": "s", "usage": {}},
    ]
    session = open_log(dump(tmp_path / "stream.jsonl", lines, lines=True))
    assert session.format == "claude-sdk" and session.session_id == "s"
    sub = session.scopes["task-toolu_T"]
    assert sub.header.parent_id == "main" and sub.header.label == "Convert tests"
    assert [m.text for m in sub.messages] == ["Convert every test to Jest.", "On it."]
    main = session.scopes["main"]
    (compaction,) = main.compactions
    assert (compaction.trigger, compaction.tokens_before, compaction.tokens_after) == (
        "auto",
        159_011,
        12_042,
    )
    assert session.ignored["result"] == 1
