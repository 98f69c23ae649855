"""Where agents keep their session logs, and finding every session log under a folder.

:data:`AGENT_HOMES` is a registry: one :class:`AgentHome` per agent, naming the environment
variable that moves its home and the default folder under the user's home directory. An adapter
for another agent registers its home with :func:`register_home`. :func:`discover` lists the
session logs in the homes that exist plus any folders (or files) the user names.

A session is one log file (:class:`SessionLog`); the sub-agent logs Claude Code writes beside a
session (``<session>/subagents/*.jsonl``) belong to it and are never listed as sessions of their
own. The agents that keep a session in a file of another name (Gemini CLI, OpenCode, Cline, Roo
Code, Aider, SpecStory) are listed by :mod:`~ctxscope.core.agent_homes`, the same listers that
folder following (``watch FOLDER``) uses: in their homes, and in any folder the user names (Aider's
and SpecStory's files live in project folders, so they have no home). Only folders are listed:
nothing written inside a log is ever followed.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from . import agent_homes
from .adapters import claude_code

LOG_SUFFIXES: Final = (".jsonl",)
"""File names a session log may end with (an agent's home may register more)."""

SUBAGENT_DIR: Final = "subagents"
"""Folders of this name hold sub-agent logs of the session beside them (never sessions)."""

HELPER_LABEL: Final = "compaction"
"""The label the Claude Code adapter gives a sibling log of its compaction summariser."""
MAX_DEPTH: Final = 6
"""How deep folders are descended below a home or a named folder."""


@dataclass(frozen=True, slots=True)
class SessionLog:
    """One session found on disk.

    Attributes:
        path: The session's log file.
        agent: The agent whose home it was found in ('' for a folder the user named).
        subagents: Sub-agent logs that belong to the session (Claude Code's
            ``<session>/subagents/*.jsonl``), sorted.
        helpers: Logs of the agent's own helper calls that belong to the session (Claude
            Code's compaction summariser, ``agent-acompact-*.jsonl``): their calls count, they
            are no sub-agents.
    """

    path: str
    agent: str = ""
    subagents: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()

    @property
    def files(self) -> tuple[str, ...]:
        return (self.path, *self.subagents, *self.helpers)


Lister = Callable[[str, str], Iterator[SessionLog]]
"""Lists the sessions under a folder: ``(folder, agent) -> sessions``."""


@dataclass(frozen=True, slots=True)
class AgentHome:
    """Where one agent writes its session logs.

    Attributes:
        agent: The agent's name as rows show it (``claude-code``, ``codex``).
        env: The environment variable that moves the agent's home ('' when none does).
        default: The home when ``env`` is unset, ``~`` expanded against ``HOME``.
        subdir: The folder under the home that holds the session logs ('' for the home itself).
        lister: How sessions are found under that folder (default: :func:`walk_logs`).
    """

    agent: str
    env: str
    default: str
    subdir: str = ""
    lister: Lister | None = None

    def folder(self, environ: Mapping[str, str]) -> str:
        """The folder holding this agent's session logs under ``environ``."""
        base = environ.get(self.env, "") if self.env else ""
        if not base:
            home = environ.get("HOME") or os.path.expanduser("~")
            base = self.default.replace("~", home, 1) if self.default.startswith("~") else self.default
        return os.path.join(base, self.subdir) if self.subdir else base

    def sessions(self, environ: Mapping[str, str]) -> Iterator[SessionLog]:
        folder = os.path.abspath(self.folder(environ))
        if os.path.isdir(folder):
            yield from (self.lister or walk_logs)(folder, self.agent)


def is_session_file(path: str) -> bool:
    """Whether a changed path may be a session log :func:`discover` lists (a file watcher's filter)."""
    return path.endswith(LOG_SUFFIXES) or agent_homes.is_agent_log(path)


def session_log(path: str, agent: str = "") -> SessionLog:
    """A session log with the logs that belong to it, found as the reader finds them (Claude
    Code's sibling rule, :func:`~ctxscope.core.adapters.claude_code.find_siblings`, with the file
    name as the session id)."""
    siblings = claude_code.find_siblings(path, os.path.splitext(os.path.basename(path))[0])
    return SessionLog(
        path,
        agent,
        tuple(s.path for s in siblings if s.label != HELPER_LABEL),
        tuple(s.path for s in siblings if s.label == HELPER_LABEL),
    )


def walk_logs(folder: str, agent: str = "") -> Iterator[SessionLog]:
    """Every session log under ``folder`` (``*.jsonl``, :data:`MAX_DEPTH` levels down; hidden
    folders and ``subagents`` folders skipped), each with the sub-agent logs beside it."""
    stack = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        for entry in listed:
            try:
                if entry.is_file() and entry.name.endswith(LOG_SUFFIXES):
                    yield session_log(entry.path, agent)
                elif (
                    entry.is_dir(follow_symlinks=False)
                    and depth < MAX_DEPTH
                    and entry.name != SUBAGENT_DIR
                    and not entry.name.startswith(".")
                ):
                    stack.append((entry.path, depth + 1))
            except OSError:
                continue


def agent_lister(finder: agent_homes.Finder) -> Lister:
    """A :data:`Lister` over one of :mod:`~ctxscope.core.agent_homes`'s per-agent finders."""

    def lister(folder: str, agent: str) -> Iterator[SessionLog]:
        for _, path in agent_homes.agent_logs_in(folder, (finder,)):
            yield SessionLog(path, agent)

    return lister


def agent_logs(folder: str) -> Iterator[SessionLog]:
    """The other agents' session files in a folder the user named, each with its agent."""
    for _, path in agent_homes.agent_logs_in(folder, agent_homes.LISTING_FINDERS):
        yield SessionLog(path, agent_homes.agent_of(path))


VSCODE_STORAGE: Final = "Code/User/globalStorage"
"""VS Code's extension storage under the user's config folder (``XDG_CONFIG_HOME``)."""

AGENT_HOMES: Final[list[AgentHome]] = [
    AgentHome("claude-code", "CLAUDE_CONFIG_DIR", "~/.claude", "projects"),
    AgentHome("codex", "CODEX_HOME", "~/.codex", "sessions"),
    AgentHome("gemini-cli", "", "~/.gemini", "tmp", agent_lister(agent_homes.gemini_chats)),
    AgentHome(
        "opencode",
        "XDG_DATA_HOME",
        "~/.local/share",
        "opencode",
        agent_lister(agent_homes.opencode_listing),
    ),
    AgentHome(
        "cline",
        "XDG_CONFIG_HOME",
        "~/.config",
        f"{VSCODE_STORAGE}/{agent_homes.CLINE_EXTENSION}",
        agent_lister(agent_homes.cline_tasks),
    ),
    AgentHome(
        "roo-code",
        "XDG_CONFIG_HOME",
        "~/.config",
        f"{VSCODE_STORAGE}/{agent_homes.ROO_EXTENSION}",
        agent_lister(agent_homes.cline_tasks),
    ),
]
"""Every agent home ctxscope looks in (extend it with :func:`register_home`)."""


def register_home(home: AgentHome) -> None:
    """Add an agent's home to :data:`AGENT_HOMES` (replacing one of the same agent)."""
    AGENT_HOMES[:] = [h for h in AGENT_HOMES if h.agent != home.agent]
    AGENT_HOMES.append(home)


def discover(
    paths: Sequence[str] = (),
    *,
    homes: bool = True,
    environ: Mapping[str, str] | None = None,
) -> list[SessionLog]:
    """Every session log in the agents' homes (when ``homes``) and under ``paths``.

    Args:
        paths: Folders to walk, or single log files, besides the homes.
        homes: Look in every registered :class:`AgentHome`.
        environ: The environment the homes are resolved in (default: ``os.environ``).

    Returns:
        One :class:`SessionLog` per log, each path once and absolute (a home's agent wins over a
        named folder).
    """
    env = os.environ if environ is None else environ
    found: dict[str, SessionLog] = {}
    if homes:
        for home in AGENT_HOMES:
            for log in home.sessions(env):
                found.setdefault(os.path.abspath(log.path), log)
    for path in paths:
        expanded = os.path.abspath(os.path.expanduser(path))
        if os.path.isdir(expanded):
            logs: Iterator[SessionLog] = itertools.chain(walk_logs(expanded), agent_logs(expanded))
        else:
            logs = iter([session_log(expanded)])
        for log in logs:
            found.setdefault(os.path.abspath(log.path), log)
    return list(found.values())
