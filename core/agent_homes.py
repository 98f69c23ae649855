"""Where other agents keep their sessions, for following a folder (``watch FOLDER``, ``open FOLDER``).

Claude Code and Codex write JSONL logs that :mod:`~ctxscope.core.follow` finds by their suffix.
The agents below keep a session in a file with another name, in a known place under their home
or in the project folder. :func:`agent_logs_in` lists those files in a folder the user named, so
that the newest one is followed like any log:

* Gemini CLI: ``chats/session-*.json`` under ``~/.gemini/tmp/<projectHash>/`` (the folder may be
  ``~/.gemini``, its ``tmp``, one project folder or its ``chats``);
* OpenCode: ``storage/session/<projectID>/ses_*.json`` under ``~/.local/share/opencode`` (or the
  ``storage`` or ``session`` folder, or one project folder). A sub-agent's session (one with a
  ``parentID``) is read as part of its parent's, so it is not followed on its own. Current
  OpenCode keeps every session in ``opencode.db`` there instead (or in the folder itself): a
  listing names each of its sessions without a parent as ``opencode.db#SESSION_ID``
  (:mod:`~ctxscope.core.adapters.opencode_db`), following takes the database itself (its
  newest session), dated by its last write (the database or its ``-wal`` file);
* Cline and Roo Code: ``tasks/<taskId>/ui_messages.json`` under the extension's VS Code
  ``globalStorage`` folder (``saoudrizwan.claude-dev``, ``rooveterinaryinc.roo-cline``), the
  ``globalStorage`` folder itself, its ``tasks`` folder, or one task folder;
* Aider: ``.aider.chat.history.md`` in a project folder;
* SpecStory: ``.specstory/history/*.md`` in a project folder (or that folder itself).

The session browser's registry of homes (:mod:`~ctxscope.core.homes`) lists these agents' homes
with the same finders (:data:`FINDERS`), and names each file's agent with :func:`agent_of`.

Only fixed names are looked for, a few levels down, without following symbolic links; each
folder is listed once per look.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Final

import orjson

from .adapters import opencode_db
from .jsonl import without_bom

AIDER_HISTORY: Final = ".aider.chat.history.md"
CLINE_UI: Final = "ui_messages.json"
CLINE_EXTENSION: Final = "saoudrizwan.claude-dev"
ROO_EXTENSION: Final = "rooveterinaryinc.roo-cline"
CLINE_EXTENSIONS: Final = (CLINE_EXTENSION, ROO_EXTENSION)
GEMINI_PREFIX: Final = "session-"
OPENCODE_PREFIX: Final = "ses_"
OPENCODE_DB: Final = "opencode.db"
OPENCODE_DB_FILES: Final = (OPENCODE_DB, f"{OPENCODE_DB}-wal")
"""The files whose change is a change of OpenCode's database (it commits to the ``-wal`` file)."""
CHILD_CHECKS: Final = 20
"""How many of the newest OpenCode session files are opened to skip sub-agent sessions."""


class _Scan:
    """Directory listings for one look over a folder: each folder is listed at most once."""

    def __init__(self) -> None:
        self._listed: dict[str, list[os.DirEntry[str]]] = {}

    def entries(self, folder: str) -> list[os.DirEntry[str]]:
        found = self._listed.get(folder)
        if found is None:
            try:
                with os.scandir(folder) as listed:
                    found = list(listed)
            except OSError:
                found = []
            self._listed[folder] = found
        return found

    def dirs(self, folder: str, name: str | None = None) -> list[str]:
        """Sub-folders of ``folder`` (only the one called ``name`` when given), links excluded."""
        found = []
        for entry in self.entries(folder):
            try:
                if (name is None or entry.name == name) and entry.is_dir(follow_symlinks=False):
                    found.append(entry.path)
            except OSError:
                continue
        return found

    def subdirs(self, folders: list[str]) -> list[str]:
        return [sub for folder in folders for sub in self.dirs(folder)]

    def files(
        self, folder: str, prefix: str = "", suffix: str = "", name: str | None = None
    ) -> Iterator[tuple[int, str]]:
        """(mtime_ns, path) of the regular files in ``folder`` that match."""
        for entry in self.entries(folder):
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


Finder = Callable[["_Scan", str], Iterator[tuple[int, str]]]
"""Lists one agent's session files in a folder: ``(scan, folder) -> (mtime_ns, path)``."""


def gemini_chats(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    projects = [folder, *scan.dirs(folder), *scan.subdirs(scan.dirs(folder, "tmp"))]
    for chats in [folder, *[c for p in projects for c in scan.dirs(p, "chats")]]:
        yield from scan.files(chats, GEMINI_PREFIX, ".json")


@functools.lru_cache(maxsize=256)
def _is_child_session(path: str, mtime_ns: int) -> bool:
    """Whether an OpenCode session file names a ``parentID`` (cached while the file is unchanged)."""
    try:
        with open(path, "rb") as handle:
            info = orjson.loads(without_bom(handle.read(1 << 20)))
    except (OSError, orjson.JSONDecodeError):
        return False
    return isinstance(info, dict) and bool(info.get("parentID"))


def opencode_sessions(
    scan: _Scan, folder: str, checks: int | None = CHILD_CHECKS
) -> Iterator[tuple[int, str]]:
    """OpenCode's session files, newest first; of the newest ``checks`` (all when None) the
    sub-agent sessions are left out (following needs only the newest, a listing needs all)."""
    storage = [folder, *scan.dirs(folder, "storage")]
    session_dirs = [folder, *[d for s in storage for d in scan.dirs(s, "session")]]
    projects = [*session_dirs, *scan.subdirs(session_dirs)]
    found = sorted({f for p in projects for f in scan.files(p, OPENCODE_PREFIX, ".json")}, reverse=True)
    for position, (mtime, path) in enumerate(found):
        if (checks is None or position < checks) and _is_child_session(path, mtime):
            continue
        yield mtime, path


def all_opencode_sessions(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    """OpenCode's session files with every sub-agent session left out (for a listing)."""
    return opencode_sessions(scan, folder, None)


def _opencode_db_files(scan: _Scan, folder: str) -> Iterator[str]:
    for base in [folder, *scan.dirs(folder, "opencode")]:
        for _, path in scan.files(base, name=OPENCODE_DB):
            yield path


def opencode_database(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    """OpenCode's ``opencode.db`` in the folder (or its ``opencode`` folder), dated by its last
    write: following it reads its most recently updated session."""
    for path in _opencode_db_files(scan, folder):
        yield opencode_db.last_change_ns(path), path


def opencode_database_sessions(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    """Each session without a parent in OpenCode's ``opencode.db``, as ``opencode.db#SESSION_ID``
    dated by the session's ``time_updated`` (for a listing)."""
    for path in _opencode_db_files(scan, folder):
        for stored in opencode_db.root_sessions(path):
            yield stored.updated * 1_000_000, opencode_db.session_address(path, stored.id)


def opencode_listing(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    """Every OpenCode session for a listing: the storage's files and the database's sessions."""
    yield from all_opencode_sessions(scan, folder)
    yield from opencode_database_sessions(scan, folder)


def cline_tasks(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    extensions = [d for name in CLINE_EXTENSIONS for d in scan.dirs(folder, name)]
    tasks_dirs = [d for base in [folder, *extensions] for d in scan.dirs(base, "tasks")]
    for task in [folder, *scan.dirs(folder), *scan.subdirs(tasks_dirs)]:
        yield from scan.files(task, name=CLINE_UI)


def project_histories(scan: _Scan, folder: str) -> Iterator[tuple[int, str]]:
    """Aider's history and SpecStory's exports in a project folder."""
    yield from scan.files(folder, name=AIDER_HISTORY)
    history = [h for s in scan.dirs(folder, ".specstory") for h in scan.dirs(s, "history")]
    is_history = (
        os.path.basename(os.path.normpath(folder)) == "history"
        and os.path.basename(os.path.dirname(os.path.normpath(folder))) == ".specstory"
    )
    for exports in history + ([folder] if is_history else []):
        yield from scan.files(exports, suffix=".md")


FINDERS: Final[tuple[Finder, ...]] = (
    gemini_chats,
    opencode_sessions,
    opencode_database,
    cline_tasks,
    project_histories,
)
LISTING_FINDERS: Final[tuple[Finder, ...]] = (
    gemini_chats,
    opencode_listing,
    cline_tasks,
    project_histories,
)
"""The finders a listing of every session uses (:func:`~ctxscope.core.homes.discover`)."""


def agent_logs_in(folder: str, finders: Sequence[Finder] = FINDERS) -> Iterator[tuple[int, str]]:
    """(mtime_ns, path) of the other agents' session files in ``folder`` (see the module docs),
    as ``finders`` list them (default: every agent's)."""
    scan = _Scan()
    seen: set[str] = set()
    for finder in finders:
        for found in finder(scan, folder):
            if found[1] not in seen:
                seen.add(found[1])
                yield found


def agent_of(path: str) -> str:
    """The agent whose session file :func:`agent_logs_in` may find at ``path`` ('' for none):
    ``gemini-cli``, ``opencode``, ``cline``, ``roo-code``, ``aider`` or ``specstory`` (OpenCode's
    database, its ``-wal`` file, and ``opencode.db#SESSION_ID`` are OpenCode's)."""
    parent = os.path.basename(os.path.dirname(path))
    name = os.path.basename(opencode_db.database_file(path))
    if name in OPENCODE_DB_FILES:
        return "opencode"
    if name.startswith(GEMINI_PREFIX) and name.endswith(".json") and parent == "chats":
        return "gemini-cli"
    if name.startswith(OPENCODE_PREFIX) and name.endswith(".json"):
        return "opencode"
    if name == CLINE_UI:
        return "roo-code" if ROO_EXTENSION in path.split(os.sep) else "cline"
    if name == AIDER_HISTORY:
        return "aider"
    if (
        name.endswith(".md")
        and parent == "history"
        and os.path.basename(os.path.dirname(os.path.dirname(path))) == ".specstory"
    ):
        return "specstory"
    return ""


OWN_FORMATS: Final[dict[str, str]] = {
    "gemini-cli": "gemini-cli",
    "opencode": "opencode",
    "cline": "cline",
    "aider": "aider",
    "specstory": "specstory",
    "openhands": "openhands",
    "swe-agent": "swe-agent",
}
"""Log formats only one agent writes, by the agent's name (Claude Code's and Codex's are
:data:`~ctxscope.core.model_info.AGENTS_BY_FORMAT`)."""


def agent_of_log(path: str, format: str) -> str:
    """The agent that wrote a log: by where the file is (:func:`agent_of`: Roo Code's files are
    Cline's format), else by its format ('' for a format several agents write, such as
    ``openai-chat``)."""
    from .model_info import AGENTS_BY_FORMAT

    return agent_of(path) or AGENTS_BY_FORMAT.get(format) or OWN_FORMATS.get(format, "")


def is_agent_log(path: str) -> bool:
    """Whether a changed path may be one of the session files :func:`agent_logs_in` finds (for a
    file watcher's filter: a new or rewritten session of another agent wakes the follower)."""
    return bool(agent_of(path))
