"""Cline / Roo Code task folders: a hand-written Cline task and a hand-written Roo Code task
(``ui_messages.json`` beside ``api_conversation_history.json``, written for these tests following
Cline's ``ClineMessage``/``ClineApiReqInfo`` and Roo Code's ``contextCondense`` types; no public
task folder with a licence that allows it was found).

Independent count: every ``api_req_started`` event found by a regular expression over the raw
``ui_messages.json`` is a call; its ``text`` (JSON) gives ``tokensIn + cacheWrites + cacheReads``
as the prompt (``tokensIn`` alone with ``apiProtocol: openai``), ``tokensOut`` as the output and
``cost``; compactions are the distinct ``conversationHistoryDeletedRange`` values plus the
``condense_context`` events.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import orjson
import pytest
from ctxscope.core.adapters import cline
from ctxscope.core.model import REPORTED, SUMMARIZE
from ctxscope.core.reader import detect_format, open_log

from tests.core.agent_fixtures import FIXTURES, assert_figures, figures

TASK = FIXTURES / "cline" / "tasks" / "1764600000000"
UI = TASK / "ui_messages.json"
ROO_UI = FIXTURES / "roo" / "tasks" / "0b9d3c52-4f1e-4c7a-9a43-6f1d2e8b7c10" / "ui_messages.json"


def raw_counts(path: Path) -> dict[str, object]:
    text = path.read_text(encoding="utf-8")
    events = re.findall(r'"say": "api_req_started",\s*"text": ("(?:[^"\\]|\\.)*")', text)
    infos = [json.loads(json.loads(e)) for e in events]
    used = [i for i in infos if "tokensIn" in i]
    prompts = [
        i["tokensIn"] + (0 if i.get("apiProtocol") == "openai" else i["cacheWrites"] + i["cacheReads"])
        for i in used
    ]
    ranges = set(re.findall(r'"conversationHistoryDeletedRange": \[\s*(\d+),\s*(\d+)\s*\]', text))
    return {
        "calls": len(infos),
        "with_usage": len(used),
        "prompt_total": sum(prompts),
        "output_total": sum(i["tokensOut"] for i in used),
        "largest": max(prompts),
        "cost": round(sum(i["cost"] for i in used), 6),
        "compactions": len(ranges) + len(re.findall(r'"say": "condense_context"', text)),
    }


@pytest.mark.parametrize("ui", [UI, ROO_UI], ids=["cline", "roo"])
def test_task_matches_raw_count(ui: Path) -> None:
    session = open_log(ui)
    assert session.format == cline.FORMAT == detect_format(ui)
    want = raw_counts(ui)
    assert_figures(
        session,
        calls=want["calls"],
        calls_with_usage=want["with_usage"],
        prompt_total=want["prompt_total"],
        output_total=want["output_total"],
        largest_prompt=want["largest"],
        compactions=want["compactions"],
    )
    assert want["compactions"] in (1, 2)
    costs = cline.call_costs(orjson.loads(ui.read_bytes()))
    assert round(sum(c for c in costs if c is not None), 6) == want["cost"]


def test_history_is_stored_and_calls_sit_before_their_replies() -> None:
    session = open_log(UI)
    main = session.scopes["main"]
    history = orjson.loads((TASK / cline.HISTORY_FILE).read_bytes())
    assert [m.role for m in main.messages] == [m["role"] for m in history]
    replies = [
        main.messages[r.message_count].role for r in main.requests if r.message_count < len(main.messages)
    ]
    assert replies == ["assistant"] * len(main.requests)
    failed = [r for r in main.requests if r.error is not None]
    assert len(failed) == 1 and failed[0].usage is None
    assert failed[0].message_count == next(
        r.message_count for r in main.requests if r.index == failed[0].index + 1
    )


def test_deleted_range_is_an_agent_compaction() -> None:
    main = open_log(UI).scopes["main"]
    first, second = main.compactions
    assert (first.stage, first.trigger, first.message_count) == (SUMMARIZE, "auto", 4)
    assert second.message_count == 6
    assert first.tokens_before == 4 + 265 + 20285  # the last call with usage before it
    assert first.tokens_after == 4 + 831 + 11869  # the call it preceded: the dropped file read is gone


def test_roo_condensing_is_an_agent_compaction_with_its_summary() -> None:
    main = open_log(ROO_UI).scopes["main"]
    (condensed,) = main.compactions
    assert (condensed.tokens_before, condensed.tokens_after) == (12_857, 9_540)  # Roo's own figures
    assert condensed.tokens_before_source == condensed.tokens_after_source == REPORTED
    assert condensed.summary.startswith("## Conversation summary")
    assert (
        condensed.summary_index == condensed.message_count
        and main.messages[condensed.message_count].is_summary
    )
    after = main.requests[condensed.request_index]
    assert after.message_count > condensed.message_count
    assert main.context_start(after.index) == condensed.message_count


def test_without_history_the_calls_are_still_read(tmp_path: Path) -> None:
    (tmp_path / "ui_messages.json").write_bytes(UI.read_bytes())
    session = open_log(tmp_path / "ui_messages.json")
    assert figures(session).calls == raw_counts(UI)["calls"]
    assert session.problems.counts["unreadable"] == 1


def test_hostile_events_are_read_without_crashing(tmp_path: Path) -> None:
    events = [
        {"ts": 1, "type": "say", "say": "task", "text": "\x1b[2J[bold]x"},
        {"ts": 2, "type": "say", "say": "api_req_started", "text": "not json"},
        {
            "ts": 3,
            "type": "say",
            "say": "api_req_started",
            "text": '{"tokensIn": -5, "cost": "a lot"}',
            "conversationHistoryDeletedRange": [5, 1],
        },
        {"ts": 4, "type": "ask", "ask": "followup", "conversationHistoryIndex": "x"},
        "junk",
    ]
    (tmp_path / "ui_messages.json").write_bytes(orjson.dumps(events))
    (tmp_path / cline.HISTORY_FILE).write_bytes(orjson.dumps([{"role": "user", "content": 5}, "x"]))
    session = open_log(tmp_path / "ui_messages.json")
    assert figures(session).calls == 2
    assert figures(session).compactions == 0
    assert session.problems.counts["wrong_type"] == 3  # two history messages and the "junk" event
