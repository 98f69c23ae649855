"""The session browser labels an Aider history's chat sessions as chats, not sub-agents."""

from __future__ import annotations

from ctxscope.core.sessions_index import SessionRow
from ctxscope.tui.screens.sessions import COLUMNS, cells


def row(**changes: object) -> SessionRow:
    base: dict[str, object] = dict(
        path="/p/.aider.chat.history.md", agent="aider", format="aider", session_id="", project="/p",
        model="gpt-4o", started="", last_activity=0.0, calls=9, context=14_000, peak=14_000, window=None,
        compactions=0, subagents=0, cost=None, unpriced=0, live=False,
    )
    base.update(changes)
    return SessionRow(**base)  # type: ignore[arg-type]


def cell(shown: SessionRow, key: str) -> str:
    keys = [k for k, _, _ in COLUMNS]
    return cells(shown, 0.0)[keys.index(key)].plain


def test_chat_sessions_show_beside_the_agent_and_not_as_sub_agents() -> None:
    assert (cell(row(chats=10), "agent"), cell(row(chats=10), "subagents")) == ("aider ×10", "")
    assert cell(row(), "agent") == "aider"
    long_name = row(agent="a-very-long-agent-name", chats=3)
    assert cell(long_name, "agent").endswith(" ×3") and len(cell(long_name, "agent")) <= 11
