"""Small valid sessions in every line format, and hostile JSON values to put in any of their fields.

Shared by the Hypothesis properties (``test_hostile_fields.py``) and the larger fuzz run
(``bench/fuzz_fields.py``). A case takes one seed session, picks some of its fields (any depth,
containers included) and puts a hostile value there: any JSON value where a string or a number is
expected, integers of any size, markup and escape sequences.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

Path = tuple[str | int, ...]

_CC = {"parentUuid": None, "isSidechain": False, "sessionId": "s-1", "cwd": "/w", "version": "2.1.0"}
_USAGE = {
    "input_tokens": 3,
    "cache_creation_input_tokens": 40,
    "cache_read_input_tokens": 1200,
    "output_tokens": 9,
}


def _cc(kind: str, uuid: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        **_CC,
        "type": kind,
        "uuid": uuid,
        "timestamp": "2025-01-01T00:00:00Z",
        "message": message,
        **extra,
    }


def _codex(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-09-25T01:22:25.361Z", "type": kind, "payload": payload}


def _sdk(msg_id: str, block: dict[str, Any], parent: str | None = None) -> dict[str, Any]:
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
            "usage": dict(_USAGE),
        },
    }


SEEDS: dict[str, list[dict[str, Any]]] = {
    "claude-code": [
        _cc("user", "u1", {"role": "user", "content": "list the files"}),
        _cc(
            "assistant",
            "a1",
            {
                "id": "m1",
                "model": "claude-sonnet-4-5",
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "ok"},
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
                ],
                "usage": dict(_USAGE),
            },
            requestId="r1",
        ),
        _cc(
            "user",
            "u2",
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py\nb.py"}],
            },
        ),
        _cc(
            "system",
            "y1",
            None,
            subtype="compact_boundary",
            content="Conversation compacted",
            compactMetadata={"trigger": "auto", "preTokens": 150000},
        ),
        _cc(
            "user",
            "u3",
            {"role": "user", "content": "This session is being continued. Summary: x"},
            isCompactSummary=True,
        ),
        _cc(
            "assistant",
            "a2",
            {
                "id": "m2",
                "model": "claude-opus-4",
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "done"}],
                "usage": dict(_USAGE),
            },
            requestId="r2",
        ),
        {"type": "summary", "summary": "Title", "leafUuid": "a2"},
    ],
    "claude-sdk": [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "claude-sonnet-4-5", "tools": []},
        {
            "type": "user",
            "session_id": "s",
            "parent_tool_use_id": None,
            "message": {"role": "user", "content": "convert the tests"},
        },
        _sdk(
            "m1",
            {
                "type": "tool_use",
                "id": "toolu_T",
                "name": "Task",
                "input": {"description": "Convert", "prompt": "Convert every test."},
            },
        ),
        _sdk("m2", {"type": "text", "text": "sub-agent speaking"}, parent="toolu_T"),
        {
            "type": "user",
            "session_id": "s",
            "parent_tool_use_id": None,
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_T", "content": "converted"}],
            },
        },
        {
            "type": "result",
            "subtype": "success",
            "session_id": "s",
            "usage": dict(_USAGE),
            "total_cost_usd": 0.1,
        },
    ],
    "codex-rollout": [
        _codex("session_meta", {"id": "c-1", "cwd": "/w", "instructions": "be brief", "cli_version": "0.40"}),
        _codex("turn_context", {"cwd": "/w", "model": "gpt-5-codex"}),
        _codex(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it"}]},
        ),
        _codex(
            "response_item",
            {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}', "call_id": "c1"},
        ),
        _codex(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "c1",
                "output": '{"output": "a.py", "metadata": {"exit_code": 0}}',
            },
        ),
        _codex(
            "event_msg",
            {
                "type": "token_count",
                "rate_limits": {},
                "info": {
                    "total_token_usage": {
                        "input_tokens": 900,
                        "cached_input_tokens": 100,
                        "output_tokens": 10,
                    },
                    "last_token_usage": {
                        "input_tokens": 900,
                        "cached_input_tokens": 100,
                        "output_tokens": 10,
                    },
                    "model_context_window": 272000,
                },
            },
        ),
        _codex("compacted", {"message": "summary of the work so far"}),
        _codex(
            "response_item",
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]},
        ),
    ],
    "codex-exec": [
        {"type": "thread.started", "thread_id": "th-1"},
        {"type": "turn.started"},
        {
            "type": "item.completed",
            "item": {
                "id": "i0",
                "type": "command_execution",
                "command": "ls",
                "aggregated_output": "a.py\n",
                "exit_code": 0,
                "status": "completed",
            },
        },
        {"type": "item.completed", "item": {"id": "i1", "type": "agent_message", "text": "done"}},
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 500, "cached_input_tokens": 100, "output_tokens": 20},
        },
    ],
    "anthropic-messages": [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hmm"},
                {"type": "tool_use", "id": "a", "name": "ls", "input": {}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x"}]},
        {
            "role": "user",
            "content": [
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
                }
            ],
        },
    ],
    "openai-chat": [
        {"role": "system", "content": "you are helpful"},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}],
            "usage": {
                "prompt_tokens": 100,
                "completion_tokens": 5,
                "prompt_tokens_details": {"cached_tokens": 0},
            },
        },
        {"role": "tool", "tool_call_id": "c1", "content": "a.py"},
    ],
    "ctxscope": [
        {
            "v": 1,
            "t": "session",
            "scope": "main",
            "session_id": "x",
            "model": "m",
            "context_limit": 200000,
            "budget": 150000,
            "label": "main agent",
        },
        {"t": "message", "scope": "main", "role": "user", "content": [{"type": "text", "text": "hello"}]},
        {
            "t": "request",
            "scope": "main",
            "model": "m",
            "usage": {
                "prompt_tokens": 120,
                "cached_prompt_tokens": 0,
                "cache_write_tokens": 0,
                "output_tokens": 4,
            },
        },
        {
            "t": "message",
            "scope": "main",
            "role": "assistant",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "tool_call", "id": "c1", "name": "Task", "input": {"a": 1}},
            ],
        },
        {
            "v": 1,
            "t": "session",
            "scope": "sub-1",
            "parent": "main",
            "session_id": "x",
            "model": "m",
            "context_limit": 100000,
            "budget": 80000,
            "label": "sub agent",
        },
        {
            "t": "message",
            "scope": "main",
            "role": "tool",
            "content": [{"type": "tool_result", "id": "c1", "content": "report"}],
        },
        {
            "t": "compaction",
            "scope": "main",
            "stage": "summarize",
            "trigger": "auto",
            "tokens_before": 100,
            "tokens_after": 10,
            "summary": "s",
        },
        {"t": "request", "scope": "main", "model": "m", "usage": {"prompt_tokens": 200, "output_tokens": 4}},
    ],
}
"""Per format, a session of a few lines touching its main record kinds (calls, tool rounds,
usage, compaction, sub-agents)."""

HOSTILE_STRINGS = [
    "[/]",
    "[bold red]styled[/]",
    "[link=https://evil.example]x[/link]",
    "[@click=app.screenshot('o','/tmp')]click[/]",
    "\x1b]52;c;cHduZWQ=\x07",
    "\x1b]2;pwned\x07",
    "\x1b[2J",
    "\x9b31m",
    "\r\x08\x00",
    "\u3164\uffa0",
    "\U000e0041\U000e0042",
    "\u202e",
    "\ud83d",
    "😀" * 50,
    "x" * 5000,
]

BIG_INTS = [2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30, -(2**63) - 1, -1]


def hostile_values() -> st.SearchStrategy[Any]:
    """Any JSON value, weighted towards what breaks readers: huge integers, markup, escapes."""
    scalar = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from(BIG_INTS),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(HOSTILE_STRINGS),
        st.text(max_size=20),
    )
    return st.recursive(
        scalar,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6,
    )


def field_paths(value: Any, prefix: Path = ()) -> Iterator[Path]:
    """Every field of a JSON value (containers and leaves), as key paths."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from field_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*prefix, index)
            yield from field_paths(item, (*prefix, index))


def all_fields() -> list[tuple[str, int, Path]]:
    """(format, line index, field path) of every field of every seed line."""
    return [
        (name, index, path)
        for name, lines in SEEDS.items()
        for index, line in enumerate(lines)
        for path in field_paths(line)
    ]


def replaced(line: Any, path: Path, value: Any) -> Any:
    """A copy of ``line`` with the field at ``path`` set to ``value``."""
    if not path:
        return value
    copy = json.loads(json.dumps(line))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def dump_lines(lines: list[Any]) -> bytes:
    """JSONL through the standard library (orjson refuses integers past 64 bits)."""
    return b"".join(
        json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n" for line in lines
    )
