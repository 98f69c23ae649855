"""Following a live session: one log file, or the newest log in a folder.

:class:`Follower` is what the dashboard's tailer calls on every wake (watchfiles is only the
doorbell; this module imports no watcher and never sleeps). Given a file it tails that file
(:class:`~ctxscope.core.reader.SessionReader`: byte offsets, a half-written last line waits,
truncation and rotation noticed, Claude Code sub-agent logs joining as scopes, also when they
appear later). Given a folder it follows the newest ``*.jsonl`` log in it and switches when a newer
one appears:

* a Claude Code project folder (``~/.claude/projects/<cwd>/``): the session files in it (the
  ``<session>/subagents/`` folders are read as part of their session, never followed on their own);
* a Codex sessions folder (``~/.codex/sessions/YYYY/MM/DD/``): only the newest year, month and day
  folders are looked into, so a long history costs a few directory listings per wake;
* a folder of project folders (``~/.claude/projects/``): each project folder, one level down;
* the session homes of Gemini CLI, OpenCode, Cline and Roo Code, and project folders holding an
  Aider history or SpecStory exports (see :mod:`~ctxscope.core.agent_homes`).

Only the folder the user named is listed; nothing written inside a log is ever followed.

File-system faults never stop following: a log that is missing, unreadable, replaced by a folder or
a FIFO, or a folder that cannot be listed, is reported in :attr:`FollowProgress.fault` and tried
again on the next poll; once it is readable again reading goes on (from the start when it is
another file now, from where it was when it is the same one).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from .agent_homes import agent_logs_in
from .files import NotARegularFileError, inside
from .jsonl import FileChange
from .reader import ReadProgress, SessionReader, TextCap
from .session import Session
from .tokens import Estimator

LOG_SUFFIX: Final = ".jsonl"
MAX_DATE_DEPTH: Final = 4
"""How deep date-named folders (Codex's YYYY/MM/DD) are descended."""
SKIPPED_DIRS: Final = frozenset({"subagents"})


@dataclass(frozen=True, slots=True)
class FollowProgress:
    """What one :meth:`Follower.poll` did.

    Attributes:
        path: The log being followed ('' while a folder holds none).
        read: What reading it did (None while there is no log).
        switched: A newer log appeared in the folder and is now followed (a new session).
        fault: Why the log (or folder) cannot be read right now, in a few words ('' when it
            can): reading is tried again on the next poll.
    """

    path: str
    read: ReadProgress | None
    switched: bool = False
    fault: str = ""

    @property
    def change(self) -> FileChange | None:
        return self.read.change if self.read is not None else None

    @property
    def new_session(self) -> bool:
        """The follower's :attr:`Follower.session` is another object than before this poll."""
        return self.switched or self.change is not None


def _logs_in(
    folder: str, depth: int = 0, root: str = "", listed_dirs: dict[str, int] | None = None
) -> Iterator[tuple[int, str]]:
    """(mtime_ns, path) of the candidate logs under ``folder`` (see the module docs for which).

    A symlinked log is a candidate only when it resolves inside ``root`` (the folder the user
    named): a link to ``/etc/passwd`` in a project folder is never followed. ``listed_dirs``
    collects the modification time of every folder listed.
    """
    root = root or folder
    try:
        if listed_dirs is not None:
            listed_dirs[folder] = os.stat(folder).st_mtime_ns
        with os.scandir(folder) as entries:
            listed = list(entries)
    except OSError:
        return
    files = 0
    dated: list[os.DirEntry[str]] = []
    others: list[os.DirEntry[str]] = []
    for entry in listed:
        try:
            if entry.is_file() and entry.name.endswith(LOG_SUFFIX):
                if entry.is_symlink() and not inside(entry.path, root):
                    continue
                files += 1
                yield entry.stat().st_mtime_ns, entry.path
            elif entry.is_dir(follow_symlinks=False):
                if entry.name.isdigit():
                    dated.append(entry)
                elif entry.name not in SKIPPED_DIRS and not entry.name.startswith("."):
                    others.append(entry)
        except OSError:
            continue
    if dated and depth < MAX_DATE_DEPTH:
        # Newest date folder first; an empty one (just created) falls back to the one before.
        for entry in sorted(dated, key=lambda e: (len(e.name), e.name), reverse=True):
            found = list(_logs_in(entry.path, depth + 1, root, listed_dirs))
            if found:
                yield from found
                break
    if depth == 0 and not files and not dated:
        for entry in others:
            yield from _logs_in(entry.path, MAX_DATE_DEPTH, root, listed_dirs)
    if depth == 0:
        yield from agent_logs_in(folder)  # Gemini CLI, OpenCode, Cline, Aider, SpecStory


def _reason(exc: OSError) -> str:
    """A few words for a file-system fault (no path: the header names the file)."""
    if isinstance(exc, FileNotFoundError):
        return "missing"
    if isinstance(exc, PermissionError):
        return "cannot read: permission denied"
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a log file"
    if isinstance(exc, NotARegularFileError):
        return str(exc)
    return f"cannot read: {exc.strerror or type(exc).__name__}"


def newest_log(folder: str | os.PathLike[str]) -> str | None:
    """The most recently modified log in a folder (see the module docs for where it looks)."""
    best = max(_logs_in(os.fspath(folder)), default=None)
    return best[1] if best is not None else None


class Follower:
    """Follows a log file, or the newest log in a folder, into a session.

    Args:
        path: A log file or a folder.
        format: Force a format (``--format``); None detects it per log.
        text_cap: Characters kept per block of text (see :class:`SessionReader`).
        estimator: Whose token counts are taken before text is elided.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: str | None = None,
        *,
        text_cap: TextCap = "auto",
        estimator: Estimator | None = None,
    ) -> None:
        self.target = os.fspath(path)
        self.is_folder = os.path.isdir(self.target)
        self.format = format
        self.text_cap = text_cap
        self.estimator = estimator
        self.reader: SessionReader | None = None
        self._known: set[str] = set()
        self._listed: dict[str, int] = {}
        """Folders listed by the last look for a newer log, with their modification times: while
        none changed no log was added, and the folder is not listed again (a folder of 5,000
        logs costs a few ``stat`` calls a wake, not 5,000)."""
        if not self.is_folder:
            self.reader = self._reader(self.target)

    def _reader(self, path: str) -> SessionReader:
        return SessionReader(path, self.format, text_cap=self.text_cap, estimator=self.estimator)

    @property
    def path(self) -> str:
        """The log being followed ('' while a folder holds none)."""
        return self.reader.path if self.reader is not None else ""

    @property
    def session(self) -> Session | None:
        """The session being built (replaced on truncation, rotation or a switch)."""
        return self.reader.session if self.reader is not None else None

    def watch_paths(self) -> list[str]:
        """What a file watcher should watch (recursively) to ring the doorbell for this follower."""
        if self.is_folder:
            return [self.target]
        stem, _ = os.path.splitext(self.target)
        return [os.path.dirname(os.path.abspath(self.target))] + ([stem] if os.path.isdir(stem) else [])

    def poll(self, max_bytes: int | None = None) -> FollowProgress:
        """Look for a newer log (folders), then read what was appended.

        A log or folder that cannot be read is reported in the progress's ``fault``, never raised.

        Raises:
            UnknownFormatError: The followed log is a JSON document of no known format.
        """
        switched = False
        if self.is_folder:
            try:
                os.scandir(self.target).close()
            except OSError as exc:
                return FollowProgress("", None, False, f"cannot list the folder: {_reason(exc)}")
            switched = self._look_for_newer()
        if self.reader is None:
            return FollowProgress("", None, False)
        try:
            read = self.reader.poll(max_bytes)
        except OSError as exc:
            return FollowProgress(self.reader.path, None, switched, _reason(exc))
        if switched:
            self.reader.session.problems.add(
                "switched", 0, f"following the newer log {os.path.basename(self.reader.path)}"
            )
        return FollowProgress(self.reader.path, read, switched)

    def _unchanged(self) -> bool:
        if not self._listed or (self.reader is not None and not os.path.exists(self.reader.path)):
            return False
        try:
            return all(os.stat(path).st_mtime_ns == mtime for path, mtime in self._listed.items())
        except OSError:
            return False

    def _look_for_newer(self) -> bool:
        """Switch to a newer log in the folder (or to any log when the followed one is gone)."""
        if self._unchanged():
            return False
        self._listed = {}
        logs = list(_logs_in(self.target, listed_dirs=self._listed))
        if not logs:
            return False
        current = self.reader.path if self.reader is not None else None
        newest = max(logs)[1]
        switch_to: str | None = None
        if current is None or not os.path.exists(current):
            switch_to = newest
        else:
            current_time = next((t for t, p in logs if p == current), 0)
            fresh = [(t, p) for t, p in logs if p not in self._known and p != current and t >= current_time]
            if fresh:
                switch_to = max(fresh)[1]
        self._known.update(p for _, p in logs)
        if switch_to is None or switch_to == current:
            return False
        first = self.reader is None
        self.reader = self._reader(switch_to)
        return not first
