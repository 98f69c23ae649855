"""Session rows name the agent of every log, also a single file named on its own, and count an
Aider history's chat sessions as chat sessions, not sub-agents."""

from __future__ import annotations

import shutil
from pathlib import Path

from ctxscope.core import telemetry as tm
from ctxscope.core.agent_homes import agent_of_log
from ctxscope.core.homes import discover
from ctxscope.core.sessions_index import SessionIndex

FIXTURES = Path(__file__).parents[1] / "fixtures" / "agents"


def rows_of(*paths: Path) -> dict[str, object]:
    with SessionIndex(":memory:") as index:
        rows = index.rows(discover([str(p) for p in paths], homes=False))
    return {Path(row.path).name: row for row in rows}


def test_single_files_get_their_agents_name(tmp_path: Path) -> None:
    gemini = tmp_path / "saved-chat.json"  # not in a chats/ folder: named by its format
    shutil.copy(FIXTURES / "gemini-cli" / "mgemini-3f9ce747.json", gemini)
    aider = FIXTURES / "aider" / "afi-core.aider.chat.history.md"
    rows = rows_of(gemini, aider, FIXTURES / "opencode" / "verbose-flag.export.json")
    assert {name: row.agent for name, row in rows.items()} == {  # type: ignore[attr-defined]
        "saved-chat.json": "gemini-cli", "afi-core.aider.chat.history.md": "aider",
        "verbose-flag.export.json": "opencode",
    }
    assert agent_of_log("/x/tasks/1/ui_messages.json", "cline") == "cline"
    roo = "/c/rooveterinaryinc.roo-cline/tasks/1/ui_messages.json"
    assert agent_of_log(roo, "cline") == "roo-code"
    assert agent_of_log("/x/chat.json", "openai-chat") == ""  # several agents write it


def test_an_aider_history_counts_chat_sessions_not_sub_agents() -> None:
    history = FIXTURES / "aider" / "monochromatic.aider.chat.history.md"
    row = rows_of(history)[history.name]
    assert (row.subagents, row.chats) == (0, 10)  # type: ignore[attr-defined]
    assert row.to_json()["chats"] == 10  # type: ignore[attr-defined]


def test_the_export_names_the_agent_of_a_single_file(tmp_path: Path) -> None:
    from ctxscope.core.analysis import Analysis, AnalysisOptions
    from ctxscope.core.reader import open_log

    history = tmp_path / "chat.md"
    shutil.copy(FIXTURES / "aider" / "afi-core.aider.chat.history.md", history)
    analysis = Analysis(AnalysisOptions(lens="recorded"))
    analysis.update(open_log(str(history), "aider"))
    batch = tm.TelemetryTracker(tm.Identity("h")).from_snapshot(analysis.snapshot("recorded"))
    assert {dict(scope.attributes)[tm.AGENT] for scope in batch.scopes} == {"aider"}
