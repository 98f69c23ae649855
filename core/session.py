"""The session: scopes of append-only history built from a log's events, plus what was skipped.

A :class:`Session` is the one mutable object of the model. Readers (adapters) call its
``add_*`` methods as they parse; it assigns indexes and message counts so that every reader gets
them right, and keeps the derived structure (user turns, tool rounds) up to date incrementally.
Everything downstream (pipeline replay, dashboard snapshots) reads scopes by position and only
ever sees appended records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from .model import (
    MAIN_SCOPE,
    Block,
    BlockKind,
    Category,
    Message,
    ModelRequest,
    ObservedCompaction,
    RequestError,
    Role,
    ScopeHeader,
    ToolRound,
    Usage,
)

KEPT_PROBLEMS: Final = 20
"""How many skipped lines are kept with their line number and reason (all are counted)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A line that was skipped, or something that happened to the file.

    Attributes:
        kind: ``invalid_json``, ``invalid_utf8``, ``oversize``, ``nul_bytes``, ``wrong_type``,
            ``unknown_event``, or a file notice: ``truncated``, ``rotated``, ``switched``.
        line: 1-based line number (0 for file notices).
        reason: One line saying what was wrong, safe to show (no raw log text beyond a short,
            sanitised excerpt).
    """

    kind: str
    line: int
    reason: str


@dataclass
class Problems:
    """Counts of skipped lines by kind, with the first few kept for display."""

    counts: Counter[str] = field(default_factory=Counter)
    kept: list[Problem] = field(default_factory=list)
    notices: list[Problem] = field(default_factory=list)

    FILE_NOTICES: Final = frozenset({"truncated", "rotated", "switched"})

    def add(self, kind: str, line: int, reason: str) -> None:
        problem = Problem(kind, line, reason)
        if kind in self.FILE_NOTICES:
            self.notices.append(problem)
            return
        self.counts[kind] += 1
        if len(self.kept) < KEPT_PROBLEMS:
            self.kept.append(problem)

    @property
    def bad_lines(self) -> int:
        return sum(self.counts.values())


class Scope:
    """One agent's history within a session: the main agent or a sub-agent."""

    def __init__(self, header: ScopeHeader) -> None:
        self.header = header
        self.messages: list[Message] = []
        self.requests: list[ModelRequest] = []
        self.compactions: list[ObservedCompaction] = []
        self.user_turn_starts: list[int] = []
        """Indexes of messages that start a user turn, in order."""
        self.tool_rounds: dict[str, ToolRound] = {}
        """Tool rounds by call id, in call order."""
        self.tool_result_indices: list[int] = []
        """Indexes of messages holding tool results."""

    @property
    def scope_id(self) -> str:
        return self.header.scope_id

    @property
    def first_message(self) -> Message | None:
        return self.messages[0] if self.messages else None

    def _index_message(self, message: Message) -> None:
        if message.is_user_turn_start:
            self.user_turn_starts.append(message.index)
        for block in message.blocks:
            if block.kind is BlockKind.TOOL_CALL and block.call_id:
                self.tool_rounds.setdefault(block.call_id, ToolRound(block.call_id, message.index, None))
            elif block.kind is BlockKind.TOOL_RESULT and block.call_id:
                known = self.tool_rounds.get(block.call_id)
                call_index = known.call_index if known else message.index
                self.tool_rounds[block.call_id] = ToolRound(block.call_id, call_index, message.index)
        if message.has_tool_results:
            self.tool_result_indices.append(message.index)

    def user_turns(self) -> list[range]:
        """Message index ranges of the user turns (a turn runs to the next turn's start)."""
        starts = self.user_turn_starts
        ends = [*starts[1:], len(self.messages)]
        return [range(s, e) for s, e in zip(starts, ends, strict=True)]


class Session:
    """All scopes read from one log (or one folder of logs), built incrementally.

    Args:
        source: Where the session was read from (a path, for display).
        format: The log format's name (e.g. ``ctxscope``, ``claude-code``).
    """

    def __init__(self, source: str = "", format: str = "") -> None:
        self.source = source
        self.format = format
        self.scopes: dict[str, Scope] = {}
        self.problems = Problems()
        self.session_id = ""
        self.lines_read = 0
        self.bytes_read = 0

    # -- building -------------------------------------------------------------------------------

    def scope(self, scope_id: str = MAIN_SCOPE) -> Scope:
        """The scope with this id, created with a default header if it is new."""
        found = self.scopes.get(scope_id)
        if found is None:
            found = Scope(ScopeHeader(scope_id, session_id=self.session_id))
            self.scopes[scope_id] = found
        return found

    def set_header(self, header: ScopeHeader) -> Scope:
        """Add a scope or update its header (a later header line may fill in the model or limit)."""
        scope = self.scope(header.scope_id)
        scope.header = header
        if header.session_id and not self.session_id:
            self.session_id = header.session_id
        return scope

    def add_message(
        self,
        role: Role,
        blocks: Iterable[Block],
        *,
        scope_id: str = MAIN_SCOPE,
        meta: bool = False,
        line: int = 0,
        category_hint: Category | None = None,
    ) -> Message:
        """Append a message to a scope's stored history and return it."""
        scope = self.scope(scope_id)
        message = Message(
            len(scope.messages), role, tuple(blocks), scope_id, meta, line, category_hint
        )
        scope.messages.append(message)
        scope._index_message(message)
        return message

    def amend_last_message(self, scope_id: str, extra: Iterable[Block]) -> Message:
        """Add blocks to a scope's last message (a response split over several log lines).

        Only valid while no request has been made over that message; readers use it for Claude
        Code's one-block-per-line assistant messages, whose call was made before the message.
        """
        scope = self.scope(scope_id)
        if not scope.messages:
            raise ValueError(f"scope {scope_id!r} has no message to amend")
        last = scope.messages[-1]
        if scope.requests and scope.requests[-1].message_count > last.index:
            raise ValueError("cannot amend a message a request was already made over")
        if last.is_user_turn_start:
            scope.user_turn_starts.pop()
        if last.has_tool_results:
            scope.tool_result_indices.pop()
        amended = last.replace_blocks(last.blocks + tuple(extra))
        scope.messages[-1] = amended
        scope._index_message(amended)
        return amended

    def add_request(
        self,
        *,
        scope_id: str = MAIN_SCOPE,
        model: str = "",
        usage: Usage | None = None,
        error: RequestError | None = None,
        request_id: str = "",
        line: int = 0,
        timestamp: str = "",
    ) -> ModelRequest:
        """Record a model call made over every message the scope holds now."""
        scope = self.scope(scope_id)
        request = ModelRequest(
            len(scope.requests),
            scope_id,
            len(scope.messages),
            model or scope.header.model,
            usage,
            error,
            request_id,
            line,
            timestamp,
        )
        scope.requests.append(request)
        return request

    def add_compaction(self, compaction: ObservedCompaction) -> None:
        self.scope(compaction.scope_id).compactions.append(compaction)

    # -- reading --------------------------------------------------------------------------------

    @property
    def main_scope(self) -> Scope | None:
        """The main agent's scope: the first scope without a parent."""
        for scope in self.scopes.values():
            if scope.header.parent_id is None:
                return scope
        return next(iter(self.scopes.values()), None)

    def totals(self) -> tuple[int, int]:
        """(messages, requests) over all scopes."""
        return (
            sum(len(s.messages) for s in self.scopes.values()),
            sum(len(s.requests) for s in self.scopes.values()),
        )
