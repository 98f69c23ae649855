"""Gemini CLI chats: fixtures from mischa-thisness/M-Gemini (CC0) and the one in ../shared.

Independent count: a regular expression over the raw file finds every ``"tokens": {…}`` object
(the CLI writes one per model response) and reads ``input``, ``output`` and ``thoughts`` from it;
calls are the ``"type": "gemini"`` records counted in the raw text, and API errors the
``"[API Error`` strings. No compression is recorded in a chat file, so none is expected.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from ctxscope.core.adapters import gemini_cli
from ctxscope.core.model import BlockKind
from ctxscope.core.reader import detect_format, open_log
from ctxscope.core.session import Session

from tests.conftest import shared_path
from tests.core.agent_fixtures import FIXTURES, assert_figures, figures

TOKENS = re.compile(
    r'"tokens":\s*\{\s*"input":\s*(\d+),\s*"output":\s*(\d+),\s*"cached":\s*(\d+),\s*"thoughts":\s*(\d+)'
)


def raw_counts(path: Path) -> dict[str, int | None]:
    text = path.read_text(encoding="utf-8")
    found = [tuple(int(v) for v in m) for m in TOKENS.findall(text)]
    return {
        "calls": len(re.findall(r'"type":\s*"gemini"', text)),
        "with_usage": len(found),
        "prompt_total": sum(f[0] for f in found),
        "output_total": sum(f[1] + f[3] for f in found),
        "largest": max((f[0] for f in found), default=None),
        "api_errors": text.count('"[API Error'),
    }


def check(path: Path) -> Session:
    session = open_log(path)
    assert session.format == gemini_cli.FORMAT
    assert detect_format(path) == gemini_cli.FORMAT
    want = raw_counts(path)
    assert_figures(
        session,
        calls=want["calls"],
        calls_with_usage=want["with_usage"],
        prompt_total=want["prompt_total"],
        output_total=want["output_total"],
        largest_prompt=want["largest"],
        errors=want["api_errors"],
        compactions=0,
    )
    assert not session.problems.counts
    return session


@pytest.mark.parametrize("name", ["mgemini-7c761c30.json", "mgemini-3f9ce747.json"])
def test_fixture_matches_raw_count(name: str) -> None:
    check(FIXTURES / "gemini-cli" / name)


@pytest.mark.shared
def test_shared_chat_matches_raw_count() -> None:
    session = check(shared_path("real-logs-more", "gemini-cli", "mgemini-17b4d5e9.json"))
    main = session.scopes["main"]
    assert len(main.requests) == 219  # SOURCES.json: "268 messages, 219 with tokens"
    assert main.header.model == "gemini-3-flash-preview"
    assert main.header.label == "Fix UI, add blocklist feature, and make live log work."


def test_tool_calls_pair_with_results_and_thoughts_are_reasoning() -> None:
    session = open_log(FIXTURES / "gemini-cli" / "mgemini-7c761c30.json")
    main = session.scopes["main"]
    doc = orjson.loads((FIXTURES / "gemini-cli" / "mgemini-7c761c30.json").read_bytes())
    call_ids = [c["id"] for m in doc["messages"] for c in m.get("toolCalls") or []]
    assert list(main.tool_rounds) == call_ids
    assert all(r.result_index is not None for r in main.tool_rounds.values())
    assert any(b.kind is BlockKind.REASONING for m in main.messages for b in m.blocks)
    assert session.ignored["message:info"] == 2


def test_prompt_is_input_cached_included() -> None:
    usage = gemini_cli.gemini_usage({"input": 10834, "output": 26, "cached": 4923, "thoughts": 34, "tool": 0})
    assert usage is not None
    assert (usage.prompt_tokens, usage.cached_prompt_tokens, usage.output_tokens) == (10834, 4923, 60)


def test_hostile_chat_is_read_without_crashing(tmp_path: Path) -> None:
    doc = {
        "sessionId": "x",
        "projectHash": "y",
        "messages": [
            "not a message",
            {"type": "user", "content": [{"text": "\x1b[31m[bold]hi[/bold]"}]},
            {"type": "gemini", "content": None, "tokens": {"input": "many"}, "toolCalls": [1, {"args": []}]},
            {"type": "gemini", "thoughts": "not a list", "tokens": {"input": -3}},
            {"type": "surprise"},
        ],
    }
    path = tmp_path / "session-1.json"
    path.write_bytes(orjson.dumps(doc))
    session = open_log(path)
    assert figures(session).calls == 2
    assert figures(session).calls_with_usage == 0
    assert session.problems.counts["wrong_type"] == 1
    assert session.unknown_kinds["message:surprise"] == 1
