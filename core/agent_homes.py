"""Where other agents keep their sessions, for following a folder (``watch FOLDER``, ``open FOLDER``).

Claude Code and Codex write JSONL logs that :mod:`~ctxscope.core.follow` finds by their suffix.
The agents below keep a session in a file with another name, in a known place under their home
or in the project folder. :func:`agent_logs_in` lists those files in a folder the user named, so
that the newest one is followed like any log:

* Gemini CLI: ``chats/session-*.json`` under ``~/.gemini/tmp/<projectHash>/`` (the folder may be
  ``~/.gemini``, its ``tmp``, one project folder or its ``chats``);
* OpenCode: ``storage/session/<projectID>/ses_*.json`` under ``~/.local/share/opencode`` (or the
  ``storage`` or ``session`` folder, or one project folder). A sub-agent's session (one with a
  ``parentID``) is read as part of its parent's, so it is not followed on its own;
* Cline and Roo Code: ``tasks/<taskId>/ui_messages.json`` under the extension's VS Code
  ``globalStorage`` folder (``saoudrizwan.claude-dev``, ``rooveterinaryinc.roo-cline``), the
  ``globalStorage`` folder itself, its ``tasks`` folder, or one task folder;
* Aider: ``.aider.chat.history.md`` in a project folder;
* SpecStory: ``.specstory/history/*.md`` in a project folder (or that folder itself).

Only fixed names are looked for, a few levels down, without following symbolic links.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Final

import orjson

AIDER_HISTORY: Final = ".aider.chat.history.md"
CLINE_UI: Final = "ui_messages.json"
CLINE_EXTENSIONS: Final = ("saoudrizwan.claude-dev", "rooveterinaryinc.roo-cline")
GEMINI_PREFIX: Final = "session-"
OPENCODE_PREFIX: Final = "ses_"
CHILD_CHECKS: Final = 20
"""How many of the newest OpenCode session files are opened to skip sub-agent sessions."""


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listed:
            return list(listed)
    except OSError:
        return []


def _dirs(folder: str, name: str | None = None) -> list[str]:
    """Sub-folders of ``folder`` (only the one called ``name`` when given), symbolic links excluded."""
    found = []
    for entry in _entries(folder):
        try:
            if (name is None or entry.name == name) and entry.is_dir(follow_symlinks=False):
                found.append(entry.path)
        except OSError:
            continue
    return found


def _files(
    folder: str, prefix: str = "", suffix: str = "", name: str | None = None
) -> Iterator[tuple[int, str]]:
    """(mtime_ns, path) of the regular files in ``folder`` that match."""
    for entry in _entries(folder):
        try:
            matches = (
                entry.name == name
                if name is not None
                else (entry.name.startswith(prefix) and entry.name.endswith(suffix))
            )
            if matches and entry.is_file(follow_symlinks=False):
                yield entry.stat(follow_symlinks=False).st_mtime_ns, entry.path
        except OSError:
            continue


def _one_level(folders: list[str]) -> list[str]:
    return [sub for folder in folders for sub in _dirs(folder)]


def gemini_chats(folder: str) -> Iterator[tuple[int, str]]:
    projects = [folder, *_dirs(folder), *_one_level(_dirs(folder, "tmp"))]
    for chats in [folder, *[c for p in projects for c in _dirs(p, "chats")]]:
        yield from _files(chats, GEMINI_PREFIX, ".json")


def _is_child_session(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            info = orjson.loads(handle.read(1 << 20))
    except (OSError, orjson.JSONDecodeError):
        return False
    return isinstance(info, dict) and bool(info.get("parentID"))


def opencode_sessions(folder: str) -> Iterator[tuple[int, str]]:
    storage = [folder, *_dirs(folder, "storage")]
    session_dirs = [folder, *[d for s in storage for d in _dirs(s, "session")]]
    projects = [*session_dirs, *_one_level(session_dirs)]
    found = sorted({f for p in projects for f in _files(p, OPENCODE_PREFIX, ".json")}, reverse=True)
    for position, (mtime, path) in enumerate(found):
        if position < CHILD_CHECKS and _is_child_session(path):
            continue
        yield mtime, path


def cline_tasks(folder: str) -> Iterator[tuple[int, str]]:
    extensions = [d for name in CLINE_EXTENSIONS for d in _dirs(folder, name)]
    tasks_dirs = [d for base in [folder, *extensions] for d in _dirs(base, "tasks")]
    for task in [folder, *_dirs(folder), *_one_level(tasks_dirs)]:
        yield from _files(task, name=CLINE_UI)


def project_histories(folder: str) -> Iterator[tuple[int, str]]:
    """Aider's history and SpecStory's exports in a project folder."""
    yield from _files(folder, name=AIDER_HISTORY)
    history = [h for s in _dirs(folder, ".specstory") for h in _dirs(s, "history")]
    is_history = (
        os.path.basename(os.path.normpath(folder)) == "history"
        and os.path.basename(os.path.dirname(os.path.normpath(folder))) == ".specstory"
    )
    for exports in history + ([folder] if is_history else []):
        yield from _files(exports, suffix=".md")


def agent_logs_in(folder: str) -> Iterator[tuple[int, str]]:
    """(mtime_ns, path) of the other agents' session files in ``folder`` (see the module docs)."""
    seen: set[str] = set()
    for finder in (gemini_chats, opencode_sessions, cline_tasks, project_histories):
        for found in finder(folder):
            if found[1] not in seen:
                seen.add(found[1])
                yield found


def is_agent_log(path: str) -> bool:
    """Whether a changed path may be one of the session files :func:`agent_logs_in` finds (for a
    file watcher's filter: a new or rewritten session of another agent wakes the follower)."""
    parent = os.path.basename(os.path.dirname(path))
    name = os.path.basename(path)
    return (
        (name.startswith(GEMINI_PREFIX) and name.endswith(".json") and parent == "chats")
        or (name.startswith(OPENCODE_PREFIX) and name.endswith(".json"))
        or name in (CLINE_UI, AIDER_HISTORY)
        or (
            name.endswith(".md")
            and parent == "history"
            and os.path.basename(os.path.dirname(os.path.dirname(path))) == ".specstory"
        )
    )
