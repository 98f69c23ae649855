"""Every agent's session home joins the session browser's discovery and folder following: a
generated home with one real fixture per agent (tests/fixtures/agents/)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from ctxscope.core.agent_homes import CHILD_CHECKS
from ctxscope.core.follow import newest_log
from ctxscope.core.homes import discover, is_session_file
from ctxscope.core.reader import open_log
from ctxscope.tui.cli import main

from tests.core.agent_fixtures import FIXTURES
from tests.session_home import make_home

HOUR = 3_600


def copy(source: Path, target: Path, mtime: float) -> Path:
    """Copy a fixture file or folder to ``target``, every file stamped ``mtime``."""
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for path in [target, *target.rglob("*")]:
        if path.is_file():
            os.utime(path, (mtime, mtime))
    return target


@pytest.fixture
def agents_home(tmp_path: Path) -> tuple[dict[str, str], Path, dict[str, Path]]:
    """The environment of a home holding every agent's sessions, the project folder with Aider's
    and SpecStory's files, and each agent's main session file."""
    now = 1_764_600_000.0
    env = make_home(tmp_path / "home", now)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    storage = tmp_path / "config" / "Code" / "User" / "globalStorage"
    project = tmp_path / "project"
    chats = tmp_path / "home" / ".gemini" / "tmp" / "3f9ce747" / "chats"
    data = tmp_path / "data" / "opencode"
    opencode = copy(FIXTURES / "opencode" / "storage", data / "storage", now - 5 * HOUR)
    cline = copy(FIXTURES / "cline" / "tasks", storage / "saoudrizwan.claude-dev" / "tasks", now - 3 * HOUR)
    roo = copy(FIXTURES / "roo" / "tasks", storage / "rooveterinaryinc.roo-cline" / "tasks", now - 4 * HOUR)
    mains = {
        "gemini-cli": copy(FIXTURES / "gemini-cli" / "mgemini-3f9ce747.json",
                           chats / "session-2025-12-01T10-00-3f9c.json", now - 1 * HOUR),
        "opencode": next((opencode / "session").glob("*/ses_4f2a91c0e1ffAbCdEf012345.json")),
        "cline": cline / "1764600000000" / "ui_messages.json",
        "roo-code": roo / "0b9d3c52-4f1e-4c7a-9a43-6f1d2e8b7c10" / "ui_messages.json",
        "aider": copy(FIXTURES / "aider" / "afi-core.aider.chat.history.md",
                      project / ".aider.chat.history.md", now - 6 * HOUR),
        "specstory": copy(FIXTURES / "specstory" / "minsky-bug-fixing-rule.md",
                          project / ".specstory" / "history" / "2025-05-01_minsky.md", now - 2 * HOUR),
    }
    return env, project, mains


def test_discover_finds_each_agents_session_with_its_agent(
    agents_home: tuple[dict[str, str], Path, dict[str, Path]],
) -> None:
    env, project, mains = agents_home
    logs = discover([str(project)], environ=env)
    by_path = {log.path: log.agent for log in logs}
    assert {str(path): agent for agent, path in mains.items()}.items() <= by_path.items()
    # The browser's file watcher wakes for every file listed (and not for OpenCode's parts).
    assert all(is_session_file(path) for path in by_path)
    assert not any(is_session_file(str(p)) for p in Path(env["XDG_DATA_HOME"]).rglob("prt_*.json"))
    # OpenCode's sub-agent session is read as part of its parent's, never a session of its own.
    assert not any("ChIlD" in path for path in by_path)
    assert sorted(set(by_path.values())) == sorted({"claude-code", "codex", *mains})
    # Without the project folder, only the agents with a home are found.
    homed = {"claude-code", "codex"} | (set(mains) - {"aider", "specstory"})
    assert {log.agent for log in discover(environ=env)} == homed


def test_sessions_json_rows_match_open_log(
    agents_home: tuple[dict[str, str], Path, dict[str, Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    env, project, mains = agents_home
    for name in ("HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, env[name])
    assert main(["sessions", str(project), "--json", "--cache", str(tmp_path / "cache.db")]) == 0
    rows = {row["path"]: row for row in json.loads(capsys.readouterr().out)}
    for agent, path in mains.items():
        row = rows[str(path)]
        session = open_log(path)
        main_scope = session.main_scope
        assert main_scope is not None
        recorded = [r.usage.prompt_tokens for r in main_scope.requests if r.usage is not None]
        calls = sum(len(scope.requests) for scope in session.scopes.values())
        got = (row["agent"], row["format"], row["calls"], row["problem"])
        assert got == (agent, session.format, calls, "")
        assert row["context"] == (recorded[-1] if recorded else None)
        assert row["peak"] == (max(recorded) if recorded else None)


def test_watch_folder_follows_the_newest_session_of_every_agent(
    agents_home: tuple[dict[str, str], Path, dict[str, Path]],
) -> None:
    env, project, mains = agents_home
    root = Path(env["HOME"]).parent
    # Each agent's own home follows its session; the project folder its newest (SpecStory's).
    assert newest_log(Path(env["HOME"]) / ".gemini") == str(mains["gemini-cli"])
    assert newest_log(root / "data" / "opencode") == str(mains["opencode"])
    storage = root / "config" / "Code" / "User" / "globalStorage"
    assert newest_log(storage / "saoudrizwan.claude-dev") == str(mains["cline"])
    assert newest_log(storage / "rooveterinaryinc.roo-cline") == str(mains["roo-code"])
    assert newest_log(project) == str(mains["specstory"])
    # The whole globalStorage folder follows the newer of Cline's and Roo's tasks.
    assert newest_log(storage) == str(mains["cline"])


def test_a_listing_leaves_out_every_opencode_sub_agent_session(tmp_path: Path) -> None:
    """Following opens only the newest session files (CHILD_CHECKS); a listing opens them all."""
    project = tmp_path / "data" / "opencode" / "storage" / "session" / "prj"
    project.mkdir(parents=True)
    for n in range(CHILD_CHECKS + 5):  # the sub-agent session is the oldest file
        path = project / f"ses_{n:03d}.json"
        path.write_text(json.dumps({"id": path.stem, "parentID": "ses_001" if n == 0 else None}))
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    listed = {Path(log.path).name for log in discover(environ=env)}
    assert len(listed) == CHILD_CHECKS + 4 and "ses_000.json" not in listed
    assert {Path(log.path).name for log in discover([str(project)], homes=False)} == listed
