"""core.search: messages holding a query (text and tool names), each with the first request
that carried it; released messages are skipped and the hit count is bounded."""

from __future__ import annotations

import pytest
from ctxscope.core import search
from ctxscope.core.model import Block, BlockKind
from ctxscope.core.search import search_messages
from ctxscope.core.session import Session


def session() -> Session:
    s = Session("t", "claude-code")
    s.add_message("user", [Block(BlockKind.TEXT, "Find the Needle in the haystack")])
    s.add_request()
    s.add_message("assistant", [Block(BlockKind.TOOL_CALL, '{"path": "a"}', call_id="c1", name="Grep")])
    s.add_message("tool", [Block(BlockKind.TOOL_RESULT, "no needle here", call_id="c1", name="Grep")])
    s.add_request()
    s.add_message("assistant", [Block(BlockKind.TEXT, "a needle after the last call")])
    return s


def test_text_and_tool_names_with_the_request_that_first_sent_them() -> None:
    result = search_messages(session(), "main", "NEEDLE")
    found = [(h.message, h.request, h.where) for h in result.hits]
    assert found == [(0, 0, "text"), (2, 1, "text"), (3, -1, "text")]
    assert "Needle" in result.hits[0].preview
    tools = search_messages(session(), "main", "grep")
    assert [(h.message, h.where, h.preview) for h in tools.hits] == [(1, "tool", "Grep"), (2, "tool", "Grep")]


def test_empty_query_unknown_scope_and_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    assert search_messages(session(), "main", "").hits == ()
    assert search_messages(session(), "nope", "needle").hits == ()
    monkeypatch.setattr(search, "MAX_HITS", 2)
    bounded = search_messages(session(), "main", "needle")
    assert len(bounded.hits) == 2 and bounded.truncated
