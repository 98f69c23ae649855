"""Every real log in ../shared/real-logs as a fixture.

The expected figures were counted independently of the adapters, with jq over the raw files
(FORMATS.md states several of them), e.g. for a Claude Code transcript::

    jq -r 'select(.type=="assistant" and .isSidechain==false)|.message.id' F | sort -u | wc -l   # calls
    jq -r 'select(.type=="assistant")|.message.content[]|select(.type=="tool_use")|.id' F | sort -u | wc -l
    jq -r 'select(.type=="assistant")|.message.usage|.input_tokens+.cache_creation_input_tokens
           +.cache_read_input_tokens' F | sort -n | tail -1                          # largest prompt

for a Codex rollout, distinct ``total_token_usage`` of non-null ``token_count`` events (calls),
``function_call``/``custom_tool_call`` items (tool calls) and the largest
``last_token_usage.input_tokens``; for tau-bench ``[.[]|.traj[]|select(.role=="assistant")]|length``
and the ``tool_calls`` of those; for OpenHands distinct ``model_response.id`` per instance and the
largest ``metrics.token_usages[].prompt_tokens``. Skipped cleanly when ../shared is absent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from ctxscope.core.model import BlockKind
from ctxscope.core.reader import detect_format, open_log
from ctxscope.core.session import Session

from tests.conftest import shared_path

pytestmark = pytest.mark.shared


@dataclass(frozen=True)
class Expected:
    path: str
    format: str
    calls: int
    tool_calls: int
    largest_prompt: int | None
    compactions: tuple[tuple[int | None, int | None], ...] = ()
    scopes: dict[str, int] = field(default_factory=dict)
    """Calls per scope, for the scopes worth pinning."""


SPOTTER = "claude-code/spotter-4d5611e5-autocompact"

EXPECTED = [
    Expected(
        f"{SPOTTER}/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
        "claude-code",
        139 + 12 + 1,
        150 + 33,
        173_514,
        ((170_251, 36_081),),
        {"main": 139, "agent-a2898e3": 12, "agent-acompact-e1f845": 1},
    ),
    Expected(f"{SPOTTER}/subagents/agent-a2898e3.jsonl", "claude-code", 12, 33, 71_257),
    Expected(f"{SPOTTER}/subagents/agent-acompact-e1f845.jsonl", "claude-code", 1, 0, 173_514),
    Expected("claude-code/agentcmd/full-session-five.jsonl", "claude-code", 3, 5, 21_430),
    Expected("claude-code/agentcmd/full-session-four.jsonl", "claude-code", 30, 27, 52_909),
    Expected(
        "claude-code/claude-code-viewer/fe5e1c67-v1.0.98-inline-sidechains.jsonl",
        "claude-code",
        170,
        167,
        42_726,
        scopes={
            "main": 9,
            "sidechain-1": 9,
            "sidechain-2": 34,
            "sidechain-3": 40,
            "sidechain-4": 25,
            "sidechain-5": 53,
        },
    ),
    Expected(
        "claude-code/claude-code-viewer/5c0375b4-v1.0.108-japanese.jsonl",
        "claude-code",
        20,
        21,
        26_080,
        scopes={"main": 10, "sidechain-1": 3, "sidechain-2": 7},
    ),
    Expected(
        "claude-agent-sdk-stream/tielec-issue-10-06_testing-revise-ja.jsonl",
        "claude-sdk",
        251,
        269,
        153_921,
        scopes={"main": 36, "task-toolu_01H3NwBZue3Wy1eeiybAUUGV": 94},
    ),
    Expected("codex-exec-json/tielec-issue-119-04_implementation-ja.jsonl", "codex-exec", 0, 61, None),
    Expected(
        "codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        "codex-rollout",
        39,
        39,
        52_645,
    ),
    Expected(
        "codex-rollout/rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl",
        "codex-rollout",
        132,
        123,
        96_338,
    ),
    Expected("openai-chat/tau-bench-gpt-4o-airline.json", "openai-chat", 2454, 1164, None),
    Expected("openai-chat/swe-agent-marshmallow-1867-function-calling.traj", "swe-agent", 13, 13, None),
    Expected(
        "openhands/multi_swe_bench_output.jsonl",
        "openhands",
        23 + 33 + 49,
        105,
        33_459,
        scopes={"ponylang__ponyc-4595": 23, "ponylang__ponyc-4593": 33, "ponylang__ponyc-4588": 49},
    ),
]


def open_real(path: str) -> Session:
    return open_log(shared_path("real-logs", *path.split("/")))


def tool_calls(session: Session) -> int:
    return sum(len(m.tool_calls) for s in session.scopes.values() for m in s.messages)


def largest_prompt(session: Session) -> int | None:
    prompts = [r.usage.prompt_tokens for s in session.scopes.values() for r in s.requests if r.usage]
    return max(prompts, default=None)


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda e: e.path.rsplit("/", 1)[-1][:40])
def test_real_log_figures(expected: Expected) -> None:
    session = open_real(expected.path)
    assert session.format == expected.format
    assert detect_format(shared_path("real-logs", *expected.path.split("/"))) == expected.format
    assert session.problems.bad_lines == 0, session.problems.kept
    assert sum(len(s.requests) for s in session.scopes.values()) == expected.calls
    assert tool_calls(session) == expected.tool_calls
    assert largest_prompt(session) == expected.largest_prompt
    observed = tuple(
        (c.tokens_before, c.tokens_after) for s in session.scopes.values() for c in s.compactions
    )
    assert observed == expected.compactions
    for scope_id, calls in expected.scopes.items():
        assert len(session.scopes[scope_id].requests) == calls, scope_id


def test_claude_code_autocompact_details() -> None:
    session = open_real(EXPECTED[0].path)
    main = session.scopes["main"]
    (compaction,) = main.compactions
    assert compaction.trigger == "auto"
    assert compaction.summary.startswith("This session is being continued from a previous conversation")
    assert 15_000 <= len(compaction.summary) <= 16_500
    before = [r for r in main.requests if r.message_count <= compaction.message_count]
    after = [r for r in main.requests if r.message_count > compaction.message_count]
    assert before[-1].usage is not None and before[-1].usage.prompt_tokens == 164_831
    first_after = after[0].usage
    assert first_after is not None
    assert (first_after.prompt_tokens, first_after.cache_write_tokens, first_after.cached_prompt_tokens) == (
        36_081,
        14_600,
        21_478,
    )
    assert main.context_start(after[0].index) == compaction.message_count
    assert main.messages[compaction.message_count].is_summary
    # agent_progress lines embed sub-agent messages; they are not in the main context.
    assert session.ignored["progress"] == 1083 + 70
    assert session.scopes["agent-acompact-e1f845"].header.label == "compaction"
    assert {r.model for r in main.requests} == {"claude-opus-4-6"}
    assert {r.model for r in session.scopes["agent-a2898e3"].requests} == {"claude-sonnet-4-5-20250929"}


def test_claude_code_title_summaries_are_not_compactions() -> None:
    session = open_real("claude-code/agentcmd/full-session-five.jsonl")
    assert session.ignored["summary"] == 16
    assert all(not s.compactions for s in session.scopes.values())


def test_inline_sidechains_are_separate_scopes() -> None:
    session = open_real(EXPECTED[5].path)
    main = session.scopes["main"]
    sidechains = [s for s in session.scopes.values() if s.header.parent_id == "main"]
    assert len(sidechains) == 5
    # One assistant message per distinct response: 9 in the main chain, 161 in the sidechains.
    assert sum(m.role == "assistant" for m in main.messages) == 9
    assert sum(m.role == "assistant" for s in sidechains for m in s.messages) == 161
    # Every sidechain starts with its Task prompt (a root line, parentUuid null).
    assert all(
        s.messages[0].role == "user" and s.header.label == s.messages[0].text[:80].splitlines()[0]
        for s in sidechains
    )
    assert all(m.scope_id == "main" for m in main.messages)


def test_codex_rollout_reasoning_and_results() -> None:
    session = open_real(EXPECTED[9].path)
    main = session.scopes["main"]
    assert main.header.context_limit == 258_400 and main.header.model == "gpt-5.1-codex"
    kinds = {b.kind for m in main.messages for b in m.blocks}
    assert {BlockKind.REASONING, BlockKind.TOOL_CALL, BlockKind.TOOL_RESULT} <= kinds
    assert session.ignored["event_msg:token_count(duplicate)"] == 39
    assert main.requests[0].usage is not None and main.requests[0].usage.prompt_tokens == 10_128


def test_tau_bench_conversations_are_scopes() -> None:
    session = open_real("openai-chat/tau-bench-gpt-4o-airline.json")
    assert len(session.scopes) == 200
    first = session.scopes["task-0-trial-0"]
    assert [m.role for m in first.messages][:3] == ["system", "user", "assistant"]
    assert len(first.messages) == 32


def test_openhands_scope_has_system_prompt_and_tools() -> None:
    session = open_real("openhands/multi_swe_bench_output.jsonl")
    scope = session.scopes["ponylang__ponyc-4595"]
    assert scope.messages[0].role == "system"
    assert scope.messages[1].category().value == "tool_definitions"
    prompts = [r.usage.prompt_tokens for r in scope.requests if r.usage]
    assert prompts[0] == 5_920 and prompts[-1] == 33_459 and sum(prompts) == 565_158
