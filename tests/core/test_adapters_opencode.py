"""OpenCode: a hand-written export and the same session in the JSON session storage, with the
sub-agent session its ``task`` tool started (written for these tests, following OpenCode's
message and part schema; no public export with a licence that allows it was found).

Independent count: a recursive walk over every JSON value of the raw files collects each object
whose ``type`` is ``step-finish``; its ``tokens`` give the prompt (``input + cache.read +
cache.write``) and output (``output + reasoning``), its ``cost`` the recorded cost. Compactions are
the message objects with ``"summary": true``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from ctxscope.core.adapters import opencode
from ctxscope.core.model import SUMMARIZE, BlockKind
from ctxscope.core.reader import detect_format, open_log

from tests.core.agent_fixtures import FIXTURES, assert_figures, figures

EXPORT = FIXTURES / "opencode" / "verbose-flag.export.json"
STORAGE = FIXTURES / "opencode" / "storage"
MAIN_ID = "ses_4f2a91c0e1ffAbCdEf012345"
CHILD_ID = "ses_4f2a9d77b3ffChIlD0123456"
SESSION_FILE = next((STORAGE / "session").glob(f"*/{MAIN_ID}.json"))


def walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def raw_counts(docs: list[Any]) -> dict[str, Any]:
    steps = [o for doc in docs for o in walk(doc) if o.get("type") == "step-finish"]
    prompts = [
        o["tokens"]["input"] + o["tokens"]["cache"]["read"] + o["tokens"]["cache"]["write"] for o in steps
    ]
    return {
        "calls": len(steps),
        "prompt_total": sum(prompts),
        "output_total": sum(o["tokens"]["output"] + o["tokens"]["reasoning"] for o in steps),
        "largest": max(prompts),
        "cost": round(sum(o["cost"] for o in steps), 6),
        "compactions": sum(1 for doc in docs for o in walk(doc) if o.get("summary") is True),
    }


def test_export_matches_raw_count() -> None:
    session = open_log(EXPORT)
    assert session.format == opencode.FORMAT == detect_format(EXPORT)
    doc = orjson.loads(EXPORT.read_bytes())
    want = raw_counts([doc])
    assert_figures(
        session,
        calls=want["calls"],
        calls_with_usage=want["calls"],
        prompt_total=want["prompt_total"],
        output_total=want["output_total"],
        largest_prompt=want["largest"],
        compactions=want["compactions"],
    )
    assert want["compactions"] == 1
    assert round(sum(opencode.step_costs(doc)), 6) == want["cost"]


def test_summary_is_an_agent_compaction() -> None:
    main = open_log(EXPORT).scopes["main"]
    (compaction,) = main.compactions
    assert compaction.stage == SUMMARIZE
    assert compaction.summary.startswith("Summary: the user asked for a --verbose flag")
    assert compaction.summary_index == compaction.message_count
    assert main.messages[compaction.message_count].is_summary
    assert compaction.tokens_before == 14_320  # the summariser call's own prompt
    assert compaction.tokens_after == 812 + 1706 + 905  # the next call's prompt
    summary_request = main.requests[compaction.request_index - 1]
    assert summary_request.usage is not None and summary_request.usage.prompt_tokens == 14_320


def test_storage_reads_the_session_and_its_sub_agent() -> None:
    session = open_log(SESSION_FILE)
    assert session.format == opencode.FORMAT
    docs = [orjson.loads(p.read_bytes()) for p in sorted(STORAGE.rglob("*.json"))]
    want = raw_counts(docs)
    assert_figures(
        session,
        calls=want["calls"],
        prompt_total=want["prompt_total"],
        largest_prompt=want["largest"],
        compactions=want["compactions"],
    )
    assert set(session.scopes) == {"main", CHILD_ID}
    child = session.scopes[CHILD_ID]
    assert child.header.parent_id == "main"
    assert child.header.label.startswith("Find test layout")
    export = open_log(EXPORT).scopes["main"]
    stored = session.scopes["main"]
    assert [m.text for m in stored.messages] == [m.text for m in export.messages]
    assert [r.usage for r in stored.requests] == [r.usage for r in export.requests]


def test_tool_parts_pair_calls_with_results() -> None:
    main = open_log(EXPORT).scopes["main"]
    assert list(main.tool_rounds) == ["toolu_01", "toolu_02", "toolu_03", "toolu_04"]
    assert all(r.result_index is not None for r in main.tool_rounds.values())
    errors = [b for m in main.messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT and b.is_error]
    assert [b.call_id for b in errors] == ["toolu_03"]


def test_hostile_export_is_read_without_crashing(tmp_path: Path) -> None:
    doc = {
        "info": {"id": "ses_x", "time": {}, "directory": "/"},
        "messages": [
            {"info": {"role": "user"}, "parts": ["x", {"type": "text", "text": "\x1b]0;title\x07[red]hi"}]},
            {"info": {"role": "assistant"}, "parts": [{"type": "step-finish", "tokens": {"input": "9"}}]},
            {"info": {"role": "robot"}, "parts": []},
            {"parts": []},
        ],
    }
    path = tmp_path / "export.json"
    path.write_bytes(orjson.dumps(doc))
    session = open_log(path)
    assert figures(session).calls == 1
    assert figures(session).calls_with_usage == 0
    assert session.problems.counts["wrong_type"] == 2


def test_a_session_file_outside_a_storage_folder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ses_x.json"
    path.write_bytes(SESSION_FILE.read_bytes())
    with pytest.raises(
        ValueError, match=r"ses_x\.json: not a valid opencode document .*outside storage/session"
    ):
        open_log(path)


def test_a_message_without_steps_is_one_call_with_its_own_tokens(tmp_path: Path) -> None:
    tokens = {"input": 10, "output": 5, "reasoning": 0, "cache": {"read": 90, "write": 0}}
    doc = {
        "info": {"id": "ses_old", "time": {"created": 1}, "directory": "/"},
        "messages": [
            {"info": {"role": "user"}, "parts": [{"type": "text", "text": "list files"}]},
            {
                "info": {"role": "assistant", "modelID": "m", "tokens": tokens},
                "parts": [
                    {"type": "text", "text": "Listing."},
                    {
                        "type": "tool",
                        "callID": "c1",
                        "tool": "ls",
                        "state": {"status": "completed", "output": "a"},
                    },
                ],
            },
        ],
    }
    path = tmp_path / "old.json"
    path.write_bytes(orjson.dumps(doc))
    main = open_log(path).scopes["main"]
    assert [(r.usage.prompt_tokens if r.usage else None) for r in main.requests] == [100]
    assert [m.role for m in main.messages] == ["user", "assistant", "tool"]
    assert main.tool_rounds["c1"].result_index == 2


def test_storage_files_that_are_not_json_are_counted(tmp_path: Path) -> None:
    storage = tmp_path / "storage"
    shutil.copytree(STORAGE, storage)
    parts = sorted((storage / "part").rglob("*.json"))
    parts[0].write_text("not json", encoding="utf-8")
    child_messages = sorted((storage / "message" / CHILD_ID).glob("*.json"))
    child_messages[-1].write_text("[1, 2]", encoding="utf-8")
    session = open_log(next((storage / "session").glob(f"*/{MAIN_ID}.json")))
    assert session.problems.counts["wrong_type"] == 2
    assert len(session.scopes[CHILD_ID].requests) == 0  # its one assistant message is unreadable
    assert len(session.scopes["main"].requests) == 7
