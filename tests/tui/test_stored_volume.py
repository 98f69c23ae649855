"""A log that records no model call (``codex exec --json``) still shows its tool volume offline; one
whose calls all failed says so."""

from __future__ import annotations

import orjson
from ctxscope.core.analysis import analyse
from ctxscope.core.reader import open_log
from ctxscope.tui.widgets import text as fmt
from ctxscope.tui.widgets.meter import ContextMeter

from ..conftest import shared_path


def test_codex_exec_log_shows_its_tool_volume_against_an_independent_count() -> None:
    folder = shared_path("real-logs", "codex-exec-json")
    log = next(folder.glob("*.jsonl"))
    # Independent count, from the raw lines: one tool call per completed command, file change or
    # to-do list update (the agent's plan tool).
    completed = [orjson.loads(line) for line in log.read_bytes().splitlines() if line.strip()]
    commands = sum(
        1 for event in completed
        if event.get("type") == "item.completed"
        and event["item"].get("type") in {"command_execution", "file_change", "todo_list"}
    )
    scope = analyse(open_log(log)).snapshot("recorded").scopes["main"]
    assert not scope.records
    volume = scope.stored_volume
    assert volume is not None
    assert volume.tool_calls == volume.tool_results == commands > 0
    assert volume.messages == scope.stored_messages
    assert volume.estimated_tokens > 0
    text = ContextMeter._no_call(scope).plain
    assert f"{commands:,} tool calls" in text and "estimated" in text
    assert "waiting" not in text
    # The turns' usage as the log reports it (summed over each turn's calls), counted from the raw lines.
    turns = [event["usage"] for event in completed if event.get("type") == "turn.completed"]
    assert volume.turns == len(turns) > 0 and volume.turn_usage is not None
    assert volume.turn_usage.prompt_tokens == sum(u["input_tokens"] for u in turns)
    assert volume.turn_usage.cached_prompt_tokens == sum(u["cached_input_tokens"] for u in turns)
    assert volume.turn_usage.output_tokens == sum(u["output_tokens"] for u in turns)
    assert f"{fmt.tokens(volume.turn_usage.prompt_tokens)} input" in text and "not a context size" in text


def test_a_log_with_calls_carries_no_stored_volume() -> None:
    log = shared_path("real-logs", "codex-rollout", "subly-0.101.jsonl")
    for scope in analyse(open_log(log)).snapshot("recorded").scopes.values():
        assert scope.records and scope.stored_volume is None


def test_nothing_stored_yet_is_still_waiting() -> None:
    assert "waiting for the first request" in ContextMeter._no_call(None).plain


def test_a_log_whose_only_call_failed_says_why_on_the_meter() -> None:
    log = shared_path("real-logs", "claude-code", "octora-auth-error-only.jsonl")
    scope = analyse(open_log(log)).snapshot("recorded").scopes["main"]
    assert not scope.records and scope.agent_errors.count == 1
    text = ContextMeter._no_call(scope).plain
    assert text.startswith("No model call answered so far: the agent got 1 API error in place of a response")
    assert "does not have access to Claude" in text and "Stored: 4 messages" in text
    assert "no per-call usage" not in text  # the log has usage fields; its one call failed
