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
from pathlib import Path
from typing import Any

import orjson
import pytest
from ctxscope.core.model import BlockKind
from ctxscope.core.reader import UnknownFormatError, detect_format, open_log
from ctxscope.core.session import Session

from tests.conftest import SHARED, shared_path

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


# -- independent counts over every real log ------------------------------------------------------
#
# Counted straight from the raw JSON, without the adapters, for every file in ../shared/real-logs:
#
# * Claude Code (a session file and its ``<stem>/subagents/*.jsonl``, or a sub-agent file alone):
#   a call is a distinct ``message.id`` of the ``assistant`` lines (``progress`` lines are another
#   record type and embed other agents' messages; ``<synthetic>`` lines are not calls), counted
#   once across all the session's files. Its prompt is input + cache creation + cache read of
#   the line whose ``usage`` has the most fields (the first such), None when all are zero.
#   A compaction is a ``compact_boundary`` line: before = ``preTokens``, after = ``postTokens``
#   or the prompt of the next call with usage in the same file.
# * Agent SDK streams: the same per ``message.id`` and ``compact_metadata.pre_tokens``.
# * Codex rollouts: a call is a ``token_count`` event with ``info`` whose
#   ``last_token_usage.input_tokens`` is not 0 and whose ``total_token_usage`` differs from the
#   previous counted one (the doubled events repeat it); its prompt is that ``input_tokens``.
#   A compaction is a ``compacted`` line: before = the last call's prompt, after = the next's.
# * codex exec streams: no call has usage; none is counted.
# * documents and OpenHands: the pinned figures of EXPECTED above (counted with jq).


def real_logs() -> list[str]:
    root = shared_path("real-logs")
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.suffix in (".jsonl", ".json", ".traj") and p.name != "SOURCES.json"
    )


@dataclass
class Counted:
    prompts: list[int | None] = field(default_factory=list)
    """One entry per call: its prompt, None without usage."""
    compactions: list[tuple[int | None, int | None]] = field(default_factory=list)
    replayed: int = 0
    """Call lines of a file whose ``message.id`` an earlier file of the session already had."""


def raw_lines(path: Path) -> list[dict[str, Any]]:
    out = []
    for raw in path.read_bytes().splitlines():
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


def anthropic_prompt(usage: dict[str, Any]) -> int | None:
    keys = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    prompt = sum(usage.get(k) or 0 for k in keys)
    return prompt if prompt or usage.get("output_tokens") else None


def count_transcript(files: list[Path], meta_key: str, pre_key: str, post_key: str) -> Counted:
    counted = Counted()
    seen: set[str] = set()
    for path in files:
        lines = raw_lines(path)
        best: dict[str, dict[str, Any]] = {}
        order: list[str] = []
        for obj in lines:
            message = obj.get("message")
            if obj.get("type") != "assistant" or not isinstance(message, dict):
                continue
            if message.get("model") == "<synthetic>":
                continue
            mid = message["id"]
            usage = message.get("usage") or {}
            if mid not in best:
                order.append(mid)
                best[mid] = usage
            elif len(usage) > len(best[mid]):
                best[mid] = usage
        own = [m for m in order if m not in seen]
        counted.replayed += len(order) - len(own)
        seen.update(own)
        counted.prompts += [anthropic_prompt(best[m]) for m in own]
        # Compactions of this file: before = preTokens, after = postTokens or the prompt of the
        # first call with usage whose first line comes after the boundary line.
        passed: set[str] = set()
        for obj in lines:
            message = obj.get("message")
            if obj.get("type") == "assistant" and isinstance(message, dict) and message.get("id") in best:
                passed.add(message["id"])
            if obj.get("type") == "system" and obj.get("subtype") == "compact_boundary":
                meta = obj.get(meta_key) or {}
                after = meta.get(post_key)
                if after is None:
                    nxt = (anthropic_prompt(best[m]) for m in order if m not in passed)
                    after = next((p for p in nxt if p is not None), None)
                counted.compactions.append((meta.get(pre_key), after))
    return counted


def count_rollout(path: Path) -> Counted:
    counted = Counted()
    last_total: Any = None
    pending_before: list[int | None] = []
    for obj in raw_lines(path):
        payload = obj.get("payload") or {}
        if obj.get("type") == "compacted":
            pending_before.append(next((p for p in reversed(counted.prompts) if p is not None), None))
        if obj.get("type") != "event_msg" or payload.get("type") != "token_count" or not payload.get("info"):
            continue
        info = payload["info"]
        prompt = info["last_token_usage"]["input_tokens"]
        if prompt == 0 or info["total_token_usage"] == last_total:
            continue
        last_total = info["total_token_usage"]
        counted.prompts.append(prompt)
        counted.compactions += [(before, prompt) for before in pending_before]
        pending_before = []
    return counted


def independent(relative: str) -> Counted | None:
    path = shared_path("real-logs", *relative.split("/"))
    head = raw_lines(path)[:50] if path.suffix == ".jsonl" else []
    if any("sessionId" in o or "parentUuid" in o for o in head):
        # Sub-agent files: <stem>/subagents/, or a subagents/ folder beside it naming the same session.
        session_id = next(o["sessionId"] for o in head if "sessionId" in o)
        beside = [
            p
            for p in sorted((path.parent / "subagents").glob("*.jsonl"))
            if path.parent.name != "subagents" and raw_lines(p)[0].get("sessionId") == session_id
        ]
        files = [path, *sorted((path.with_suffix("") / "subagents").glob("*.jsonl")), *beside]
        return count_transcript(files, "compactMetadata", "preTokens", "postTokens")
    if any("session_id" in o for o in head):
        return count_transcript([path], "compact_metadata", "pre_tokens", "post_tokens")
    if any(o.get("type") in ("session_meta", "response_item") for o in head):
        return count_rollout(path)
    if any(str(o.get("type", "")).startswith(("thread.", "item.", "turn.")) for o in head):
        return Counted()
    return None


@pytest.mark.parametrize("relative", real_logs() if SHARED.is_dir() else ["absent"])
def test_every_real_log_matches_an_independent_count(relative: str) -> None:
    """No bad lines, and calls, their prompts, compactions and replays as counted from the raw
    JSON (see the comment above for how)."""
    session = open_real(relative)
    assert session.problems.bad_lines == 0, session.problems.kept
    counted = independent(relative)
    requests = [r for s in session.scopes.values() for r in s.requests]
    if counted is None:  # a document or OpenHands: pinned in EXPECTED
        assert relative in {e.path for e in EXPECTED}
        return
    assert len(requests) == len(counted.prompts)
    assert sorted((r.usage.prompt_tokens if r.usage else -1) for r in requests) == sorted(
        -1 if p is None else p for p in counted.prompts
    )
    observed = [(c.tokens_before, c.tokens_after) for s in session.scopes.values() for c in s.compactions]
    assert observed == counted.compactions
    assert sum(s.replayed_calls for s in session.scopes.values()) == counted.replayed


NEWER = [
    # (file, format, calls, calls with usage, ignored kinds that must be counted, unknown kinds)
    (
        "claude-code/bhavana-v2.1.177-mode-records.jsonl",
        "claude-code",
        89,
        89,
        {"mode": 22, "permission-mode": 22, "ai-title": 22, "last-prompt": 21},
    ),
    ("claude-code/soltax-glm5-split-usage.jsonl", "claude-code", 3, 3, {"permission-mode": 1}),
    ("claude-code/bastion-glm47-zero-usage-v2.1.17.jsonl", "claude-code", 6, 0, {"progress": 23}),
    (
        "claude-code/octora-auth-error-only.jsonl",
        "claude-code",
        0,
        0,
        {"queue-operation": 2, "last-prompt": 1},
    ),
    ("codex-rollout/raze-0.114.jsonl", "codex-rollout", 18, 18, {"event_msg:token_count(duplicate)": 17}),
    ("codex-rollout/subly-0.101.jsonl", "codex-rollout", 3, 3, {"event_msg:token_count(duplicate)": 4}),
    (
        "codex-rollout/neurodata-0.40-31-turn-contexts.jsonl",
        "codex-rollout",
        27,
        27,
        {"event_msg:turn_aborted": 4},
    ),
]


@pytest.mark.parametrize("expected", NEWER, ids=lambda e: e[0].rsplit("/", 1)[-1][:32])
def test_newer_cli_versions(expected: tuple[str, str, int, int, dict[str, int]]) -> None:
    relative, fmt, calls, with_usage, ignored = expected
    session = open_real(relative)
    assert session.format == fmt and session.problems.bad_lines == 0
    assert session.unknown_kinds == {}
    requests = [r for s in session.scopes.values() for r in s.requests]
    assert (len(requests), sum(r.usage is not None for r in requests)) == (calls, with_usage)
    for kind, count in ignored.items():
        assert session.ignored[kind] == count, kind


def test_attachment_lines_are_stored_as_context() -> None:
    """bhavana: 23 attachment lines, 20 with text (8 empty command-permission lists and 12 empty
    task reminders are counted as ignored); every stored one is a meta user message."""
    session = open_real("claude-code/bhavana-v2.1.177-mode-records.jsonl")
    main = session.scopes["main"]
    lines = {m.line for m in main.messages if m.meta}
    path = shared_path("real-logs", "claude-code", "bhavana-v2.1.177-mode-records.jsonl")
    with_text = [
        number
        for number, raw in enumerate(path.read_bytes().splitlines(), 1)
        if (obj := orjson.loads(raw)).get("type") == "attachment"
        and any(obj["attachment"].get(k) for k in ("content", "addedLines", "addedBlocks", "snippet"))
    ]
    assert with_text and set(with_text) <= lines
    assert session.ignored["attachment:command_permissions(empty)"] == 8


def test_split_usage_takes_the_most_complete_line() -> None:
    """soltax (glm-5): the first line of each response has {input_tokens, output_tokens: 0}, the
    later ones the full usage with another input figure; the full one is the call's usage."""
    session = open_real("claude-code/soltax-glm5-split-usage.jsonl")
    prompts = [r.usage.prompt_tokens for r in session.scopes["main"].requests if r.usage]
    assert prompts == [26_158, 28_549, 30_322]  # the last response has one line only


def test_auth_error_is_not_a_call() -> None:
    session = open_real("claude-code/octora-auth-error-only.jsonl")
    main = session.scopes["main"]
    assert main.requests == [] and len(main.errors) == 1
    assert "access" in main.errors[0].error.message


def test_acompact_file_is_linked_to_its_compaction() -> None:
    session = open_real(EXPECTED[0].path)
    (compaction,) = session.scopes["main"].compactions
    assert compaction.summariser_scope == "agent-acompact-e1f845"
    assert compaction.summary_index == compaction.message_count
    assert (compaction.tokens_before_source, compaction.tokens_after_source) == ("reported", "next_call")
    assert compaction.request_index == 61  # it precedes the main agent's 62nd call


def test_documents_that_no_format_reads_are_refused_as_documents(tmp_path: Path) -> None:
    """A pretty-printed JSON document of no known shape (Gemini CLI's session with its keys
    renamed: the Gemini reader now reads the original) is refused as a document, not read as
    thousands of bad lines."""
    source = shared_path("real-logs-more", "gemini-cli", "mgemini-17b4d5e9.json").read_text(encoding="utf-8")
    path = tmp_path / "renamed.json"
    path.write_text(source.replace('"sessionId"', '"chatId"', 1).replace('"projectHash"', '"hash"', 1))
    with pytest.raises(UnknownFormatError, match="a JSON document, an object with keys chatId"):
        open_log(path)
