"""The session: scopes of append-only history built from a log's events, plus what was skipped.

A :class:`Session` is the one mutable object of the model. Readers (adapters) call its
``add_*`` methods as they parse; it assigns indexes and message counts so that every reader gets
them right, and keeps the derived structure (user turns, tool rounds) up to date incrementally.
Everything downstream (pipeline replay, dashboard snapshots) reads scopes by position and only
ever sees appended records.
"""

from __future__ import annotations

import dataclasses
import os
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Protocol, runtime_checkable

from .model import (
    LAST_CALL,
    MAIN_SCOPE,
    MESSAGE_OVERHEAD_TOKENS,
    NEXT_CALL,
    REPORTED,
    Block,
    BlockKind,
    Category,
    Message,
    ModelRequest,
    ObservedCompaction,
    ObservedError,
    ObservedRollback,
    RequestError,
    Role,
    ScopeHeader,
    ToolRound,
    Usage,
    default_estimator,
)
from .retention import Held
from .rounds import ToolRounds
from .tokens import Estimator

_TEXT: Final = BlockKind.TEXT
_ARTIFACT: Final = BlockKind.ARTIFACT
_TOOL_CALL: Final = BlockKind.TOOL_CALL
_TOOL_RESULT: Final = BlockKind.TOOL_RESULT
_SUMMARY: Final = BlockKind.SUMMARY
_AFTER_ANY: Final = float("inf")
"""Sorts after every message count (for :meth:`Scope.context_start`'s search)."""

KEPT_PROBLEMS: Final = 20
"""How many skipped lines are kept with their line number and reason (all are counted)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A line that was skipped, or something that happened to the file.

    Attributes:
        kind: ``invalid_json``, ``invalid_utf8``, ``repaired_utf8`` (the event was kept),
            ``oversize``, ``nul_bytes``, ``wrong_type``,
            ``unknown_event``, or a file notice: ``truncated``, ``rotated``, ``switched``,
            ``chosen`` (which of the sessions a file holds was opened).
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

    FILE_NOTICES: ClassVar[frozenset[str]] = frozenset(
        {"truncated", "rotated", "rewritten", "switched", "chosen"}
    )

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
    """One agent's history within a session: the main agent or a sub-agent.

    Its messages and requests are :class:`~ctxscope.core.retention.Held`: a live view releases the
    oldest (:meth:`release`, called by :class:`~ctxscope.core.retention.LiveWindow` only), and
    indexes stay absolute.
    """

    def __init__(self, header: ScopeHeader) -> None:
        self.header = header
        self.messages: Held[Message] = Held()
        self.requests: Held[ModelRequest] = Held()
        self.compactions: list[ObservedCompaction] = []
        self.rollbacks: list[ObservedRollback] = []
        self.errors: list[ObservedError] = []
        """Errors the agent wrote instead of a response (not model calls)."""
        self.turn_usage: list[Usage] = []
        """Usage the agent reported per turn, summed over the turn's model calls (``codex exec
        --json``'s ``turn.completed``): not a call's prompt, so not a request's figure."""
        self.replayed_calls = 0
        """Call lines of this scope that repeat a call already counted: a Claude Code sub-agent
        file (``agent-acompact-*``, ``agent-aside_question-*``) replaying its parent's
        ``message.id`` values, or a forked Codex rollout's inherited ``token_count`` events. They
        add no request; their content is still stored (it was the scope's context)."""
        self.user_turn_starts = array("q")
        """Indexes of messages that start a user turn, in order."""
        self.tool_rounds = ToolRounds()
        """Tool rounds by call id, in call order."""
        self.source = ""
        """The file this scope's events were read from (for :meth:`Session.raw_line`)."""
        self._compaction_marks: list[tuple[int, int]] = []
        """(requests before, messages before) of each observed compaction, in order."""
        self._compaction_open = False
        """The last compaction has had no request after it yet (its ``tokens_after`` may be filled)."""
        self._measured_by = -1
        """Index of the request whose prompt is the last compaction's ``tokens_after``."""

    @property
    def scope_id(self) -> str:
        return self.header.scope_id

    @property
    def first_message(self) -> Message | None:
        return self.messages[0] if self.messages else None

    @property
    def request_count(self) -> int:
        return len(self.requests)

    def release(self, messages: int, requests: int, *, keep_first: int = 0) -> None:
        """Forget the stored messages in ``[keep_first, messages)`` (with their finished tool
        rounds) and the requests before ``requests`` (never the newest: a reader may still revise
        it). Counts, indexes and line offsets stay, so a message's text can still be read back
        from the log. Only :class:`~ctxscope.core.retention.LiveWindow` calls this."""
        self.tool_rounds.forget(self.messages.release(messages, keep_first=keep_first), messages)
        self.requests.release(min(requests, len(self.requests) - 1))

    def _index_message(self, message: Message) -> None:
        # One pass over the blocks (the reader calls this for every message it stores).
        has_results = False
        has_content = False
        index = message.index
        for block in message.blocks:
            kind = block.kind
            if kind is _TOOL_CALL:
                if block.call_id and block.call_id not in self.tool_rounds:
                    self.tool_rounds.called(block.call_id, index)
            elif kind is _TOOL_RESULT:
                has_results = True
                call_id = block.call_id
                if call_id and self.tool_rounds.answered(call_id, index) is None:
                    self.tool_rounds.add(ToolRound(call_id, index, index))
            elif kind is _TEXT or kind is _ARTIFACT:
                has_content = True
        if has_content and not has_results and message.role == "user" and not message.meta:
            self.user_turn_starts.append(index)  # see Message.is_user_turn_start

    def context_start(self, request_index: int) -> int:
        """Index of the first stored message in the live context of the scope's request ``request_index``.

        After an observed compaction the live context is what the agent stored from the compaction
        point on (the summary, any history the agent kept, and what came after), plus the system
        messages stored before it (an agent keeps its system prompt); before any compaction it is
        the whole stored history.
        """
        marks = self._compaction_marks
        if not marks:
            return 0
        # The last mark made with at most ``request_index`` requests before it (marks are in order).
        found = bisect_right(marks, (request_index, _AFTER_ANY))
        return marks[found - 1][1] if found else 0

    def context_messages(self, request: ModelRequest) -> list[Message]:
        """The stored messages in a request's live context: system messages stored before the
        context start, then everything from the start up to the request, less the turns a
        rollback made before the request took out (:class:`ObservedRollback`)."""
        start = self.context_start(request.index)
        kept = [m for m in self.messages[:start] if m.role == "system"]
        live = self.messages[start : request.message_count]
        dropped = self.dropped_ranges(request.index)
        if dropped:
            live = [m for i, m in enumerate(live, start) if not any(i in r for r in dropped)]
        return kept + live

    def dropped_ranges(self, request_index: int) -> list[range]:
        """Stored-message ranges that rollbacks made before request ``request_index`` took out
        of the live context."""
        return [r.dropped for r in self.rollbacks if r.request_index <= request_index]

    def user_turns(self) -> list[range]:
        """Message index ranges of the user turns (a turn runs to the next turn's start)."""
        starts = self.user_turn_starts
        ends = [*starts[1:], len(self.messages)]
        return [range(s, e) for s, e in zip(starts, ends, strict=True)]


@runtime_checkable
class CountsLater(Protocol):
    """An estimator whose counts of long texts may come later, from elsewhere
    (:class:`~ctxscope.core.count_ahead.CountedAhead`: a second process counting them): a
    session reading with it defers the count of a long text it cannot take yet (see
    :meth:`Session.settle_counts`, which :meth:`~ctxscope.core.reader.SessionReader.read_all`
    calls at the end: a log read otherwise holds partial estimates until it is called)."""

    name: str

    def count(self, text: str) -> int: ...

    def known(self, text: str) -> int | None:
        """The count of ``text`` if it is known now (nothing is counted here)."""
        ...


DEFERRED_CHARS: Final = 16 << 20
"""Characters of long texts a session holds while their counts are deferred; beyond them it counts
a text at once (so the memory stays bounded when the counts are slow to come)."""

RESOLVE_CHARS: Final = 1 << 20
"""Characters deferred between two looks for the deferred texts' counts."""

RESOLVE_MISSES: Final = 64
"""A look stops after this many deferred texts in a row whose counts have not come (they come in
the order the texts were read)."""


class Session:
    """All scopes read from one log (or one folder of logs), built incrementally.

    Args:
        source: Where the session was read from (a path, for display).
        format: The log format's name (e.g. ``ctxscope``, ``claude-code``).
    """

    def __init__(
        self,
        source: str = "",
        format: str = "",
        *,
        text_cap: int | None = None,
        estimator: Estimator | None = None,
    ) -> None:
        self.source = source
        self.format = format
        self.scopes: dict[str, Scope] = {}
        self.problems = Problems()
        self.ignored: Counter[str] = Counter()
        """Lines deliberately not read, by kind (e.g. Claude Code ``progress`` lines); not problems."""
        self.unknown_kinds: Counter[str] = Counter()
        """Records of a kind the format's adapter does not know (a newer agent version's
        additions), by kind: not read, and not problems either (broken lines are problems)."""
        self.call_ids: set[str] = set()
        """Provider ids of every call counted, across all scopes (see :meth:`claim_call`)."""
        self.session_id = ""
        self.lines_read = 0
        self.bytes_read = 0
        self.text_cap = text_cap
        """Keep at most this many characters of a block's text (None keeps all); see :meth:`add_message`."""
        self.estimator = estimator
        """The estimator whose counts are taken over the full text before a block is elided."""
        self._later = estimator if isinstance(estimator, CountsLater) else None
        """The estimator, when its counts of long texts may come later."""
        self._deferred: list[tuple[str, int, str]] = []
        """(scope, message index, text) of each long text whose count is still to be added to its
        message's estimate (see :meth:`settle_counts`)."""
        self._deferred_chars = 0
        self._unresolved_chars = 0
        self.line_offsets: dict[str, array[int]] = {}
        """Byte offset of each line's start, by source file (index = line number - 1; -1 unknown)."""

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
        """Append a message to a scope's stored history and return it.

        With a :attr:`text_cap`, a block whose text is longer keeps only its first ``text_cap``
        characters (``elided_chars`` records the rest; summaries are always kept whole). The
        message's token estimate for :attr:`estimator` is computed over the full text first and
        memoised on the message, so that estimate stays exact; another estimator scales the kept
        text up by ``chars / len(text)`` (see :meth:`Block.tokens`).
        """
        scope = self.scopes.get(scope_id) or self.scope(scope_id)
        blocks = tuple(blocks)
        messages = scope.messages
        cap = self.text_cap
        if cap is not None:
            for block in blocks:
                if len(block.text) > cap and block.kind is not _SUMMARY:
                    blocks, tokens = self._elide(blocks, cap, scope_id, len(messages))
                    message = Message(
                        len(messages), role, blocks, scope_id, meta, line, category_hint, tokens
                    )
                    break
            else:
                message = Message(len(messages), role, blocks, scope_id, meta, line, category_hint)
        else:
            message = Message(len(messages), role, blocks, scope_id, meta, line, category_hint)
        messages.append(message)
        scope._index_message(message)
        return message

    def _elide(
        self, blocks: tuple[Block, ...], cap: int, scope_id: str, index: int
    ) -> tuple[tuple[Block, ...], dict[str, int]]:
        """``blocks`` (of the message ``index`` of ``scope_id``) with every text longer than ``cap``
        cut to ``cap`` characters (summaries excepted), and the memo of the message's estimate over
        the full text (when any was cut; a count that comes later is added to it then)."""
        for block in blocks:
            if len(block.text) > cap and block.kind is not _SUMMARY:
                break
        else:
            return blocks, {}
        estimator = self.estimator or default_estimator()
        later = self._later
        full = MESSAGE_OVERHEAD_TOKENS
        kept: list[Block] = []
        for b in blocks:
            text = b.text
            long = len(text) > cap and b.kind is not _SUMMARY
            count = self._count_or_defer(later, b, scope_id, index) if long and later is not None else None
            if count is None:
                full += b.tokens(estimator)
            else:  # a deferred count (0 here) is added when it comes
                full += count + b.call_tokens(estimator)
            if long:
                b = Block(
                    b.kind, text[:cap], b.call_id, b.name, b.artifact, b.size_bytes, b.width, b.height,
                    b.is_error, b.elided_chars + len(text) - cap,
                )
            kept.append(b)
        return tuple(kept), {estimator.name: full}

    def _count_or_defer(self, later: CountsLater, block: Block, scope_id: str, index: int) -> int | None:
        """The count of ``block``'s long text if it is known now, else 0 with the count deferred
        (added to the message's estimate when it comes); None when the block is counted as any
        other (an image, a text already cut, or no room left to hold one more text)."""
        if block.elided_chars or block.is_image:
            return None
        text = block.text
        count = later.known(text)
        if count is not None:
            return count
        if self._unresolved_chars >= DEFERRED_CHARS:
            return None
        self._deferred.append((scope_id, index, text))
        self._unresolved_chars += len(text)
        self._deferred_chars += len(text)
        if self._deferred_chars >= RESOLVE_CHARS:
            self._resolve(later, count_rest=False)
        return 0

    def _resolve(self, later: CountsLater, *, count_rest: bool) -> None:
        """Add the counts known now of the deferred texts to their messages' estimates (and, with
        ``count_rest``, count the others here, the newest first)."""
        waiting: list[tuple[str, int, str]] = []
        deferred = self._deferred
        misses = 0
        for position, entry in enumerate(deferred):
            if not count_rest and misses >= RESOLVE_MISSES:
                waiting += deferred[position:]  # the counts come in order: these are not in yet
                break
            count = later.known(entry[2])
            if count is None:
                waiting.append(entry)
                misses += 1
            else:
                self._add_count(entry[0], entry[1], count, later.name)
                misses = 0
        if count_rest:
            while waiting:  # the newest first: counts of the oldest may still come meanwhile
                scope_id, index, text = waiting.pop()
                self._add_count(scope_id, index, later.count(text), later.name)
        self._deferred = waiting
        self._unresolved_chars = sum(len(entry[2]) for entry in waiting)
        self._deferred_chars = 0

    def _add_count(self, scope_id: str, index: int, count: int, name: str) -> None:
        message = self.scopes[scope_id].messages[index]
        known = message.known_estimate(name)
        assert known is not None  # the message was elided, so its memo was made
        message._memoise(name, known + count)

    def settle_counts(self) -> None:
        """Add every deferred count to its message's estimate, counting here the texts whose
        counts have not come: after this, every estimate is what counting at once gives (the
        reader calls it once a log is read to its end)."""
        if self._later is not None and self._deferred:
            self._resolve(self._later, count_rest=True)

    def amend_last_message(self, scope_id: str, extra: Iterable[Block]) -> Message:
        """Add blocks to a scope's last message (a response split over several log lines).

        Only valid while no request has been made over that message; readers use it for Claude
        Code's one-block-per-line assistant messages, whose call was made before the message.
        """
        scope = self.scopes.get(scope_id) or self.scope(scope_id)
        if not scope.messages:
            raise ValueError(f"scope {scope_id!r} has no message to amend")
        last = scope.messages[-1]
        if scope.requests and scope.requests[-1].message_count > last.index:
            raise ValueError("cannot amend a message a request was already made over")
        index = last.index
        starts = scope.user_turn_starts
        if starts and starts[-1] == index:
            starts.pop()
        extra = tuple(extra)
        tokens: dict[str, int] = {}
        if self.text_cap is not None:
            extra, tokens = self._elide(extra, self.text_cap, scope_id, index)
        estimator = self.estimator or default_estimator()
        name = estimator.name
        memo: dict[str, int] = {}
        if last.known_estimate(name) is not None or name in tokens:
            # Exact: a message's estimate is its overhead plus the sum over its blocks, and an
            # elided part carries the count taken over its full text.
            added = tokens.get(name)
            if added is None:
                added = MESSAGE_OVERHEAD_TOKENS
                for block in extra:
                    added += block.tokens(estimator)
            memo[name] = last.tokens(estimator) + added - MESSAGE_OVERHEAD_TOKENS
        amended = Message(
            index, last.role, last.blocks + extra, last.scope_id, last.meta, last.line, last.category_hint,
            memo,
        )
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
        context_window: int | None = None,
        recorded_cost: float | None = None,
    ) -> ModelRequest:
        """Record a model call made over every message the scope holds now."""
        scope = self.scopes.get(scope_id) or self.scope(scope_id)
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
            context_window,
            recorded_cost,
        )
        scope.requests.append(request)
        if scope._compaction_open and usage is not None:
            # "tokens after, as the next call measured": the first call after it with usage.
            scope._compaction_open = False
            last = scope.compactions[-1]
            if last.tokens_after is None:
                scope._measured_by = request.index
                scope.compactions[-1] = dataclasses.replace(
                    last, tokens_after=usage.prompt_tokens, tokens_after_source=NEXT_CALL
                )
        return request

    def claim_call(self, call_id: str) -> bool:
        """True the first time a provider call id is seen in this session, False after.

        Each API call counts once across scopes: a Claude Code sub-agent file that replays its
        parent's history repeats the parent's ``message.id`` values, and those lines are not
        new calls. An empty id is always new (nothing to deduplicate by).
        """
        if not call_id:
            return True
        if call_id in self.call_ids:
            return False
        self.call_ids.add(call_id)
        return True

    def revise_last_request(self, scope_id: str, usage: Usage) -> ModelRequest:
        """Replace the usage of a scope's last request (a response split over several log lines
        may report a larger output count, or a more complete usage, on a later line). Only for
        the request being read now; a compaction whose tokens after it measured follows."""
        scope = self.scope(scope_id)
        if not scope.requests:
            raise ValueError(f"scope {scope_id!r} has no request to revise")
        revised = dataclasses.replace(scope.requests[-1], usage=usage)
        scope.requests[-1] = revised
        if scope.compactions:
            last = scope.compactions[-1]
            measured = scope._measured_by == revised.index and last.tokens_after_source == NEXT_CALL
            if measured or (scope._compaction_open and last.tokens_after is None):
                scope._compaction_open = False
                scope._measured_by = revised.index
                # The call that measured the compaction's tokens after: keep them in step.
                scope.compactions[-1] = dataclasses.replace(
                    last, tokens_after=usage.prompt_tokens, tokens_after_source=NEXT_CALL
                )
        return revised

    def add_compaction(self, compaction: ObservedCompaction) -> ObservedCompaction:
        """Record a compaction the agent reported, and return it as stored.

        After a ``summarize`` compaction the live context of later requests starts at
        ``compaction.message_count`` (see :meth:`Scope.context_start`); other stages (clearing
        tool results) leave the history in place. ``request_index`` is set to the number of
        requests before it. When ``tokens_before`` is None it is the prompt of the scope's last
        call with usage (source :data:`~ctxscope.core.model.LAST_CALL`); a figure given without
        a source is the agent's own (:data:`~ctxscope.core.model.REPORTED`). When
        ``tokens_after`` is None, the next request with usage in the scope fills it in with its
        prompt size.
        """
        scope = self.scope(compaction.scope_id)
        changes: dict[str, Any] = {"request_index": len(scope.requests)}
        if compaction.tokens_before is None:
            last = next((r for r in reversed(scope.requests) if r.usage is not None), None)
            if last is not None and last.usage is not None:
                changes["tokens_before"] = last.usage.prompt_tokens
                changes["tokens_before_source"] = LAST_CALL
        elif not compaction.tokens_before_source:
            changes["tokens_before_source"] = REPORTED
        if compaction.tokens_after is not None and not compaction.tokens_after_source:
            changes["tokens_after_source"] = REPORTED
        compaction = dataclasses.replace(compaction, **changes)
        scope.compactions.append(compaction)
        if compaction.restarts_context:
            scope._compaction_marks.append((len(scope.requests), compaction.message_count))
        scope._compaction_open = True
        return compaction

    def amend_compaction(self, scope_id: str, position: int = -1, **changes: Any) -> ObservedCompaction:
        """Fill in fields of a scope's compaction (by default its last) that later lines give:
        its summary line, the sub-agent that summarised it."""
        scope = self.scope(scope_id)
        if not scope.compactions:
            raise ValueError(f"scope {scope_id!r} has no compaction to amend")
        amended = dataclasses.replace(scope.compactions[position], **changes)
        scope.compactions[position] = amended
        return amended

    def note_kept(self, scope_id: str, index: int) -> None:
        """A stored message the agent carried over into the context right after its last
        compaction (no call since): add it to that compaction's ``kept_indices``."""
        scope = self.scope(scope_id)
        if scope._compaction_open and scope.compactions:
            last = scope.compactions[-1]
            if last.restarts_context and index >= last.message_count:
                scope.compactions[-1] = dataclasses.replace(last, kept_indices=(*last.kept_indices, index))

    def add_rollback(
        self, scope_id: str, turns: int, *, line: int = 0, timestamp: str = ""
    ) -> ObservedRollback:
        """Record that the agent took its last ``turns`` user turns out of the live context.

        The turns counted are those still live: started since the last summary compaction and
        not rolled back already. Requests made after this leave them out
        (:meth:`Scope.context_messages`).
        """
        scope = self.scope(scope_id)
        count = len(scope.messages)
        floor = scope.context_start(len(scope.requests))
        dropped = scope.dropped_ranges(len(scope.requests))
        live = [i for i in scope.user_turn_starts if i >= floor and not any(i in r for r in dropped)]
        start = live[-turns] if 0 < turns <= len(live) else (live[0] if live and turns > 0 else count)
        rollback = ObservedRollback(scope_id, count, turns, start, len(scope.requests), line, timestamp)
        scope.rollbacks.append(rollback)
        return rollback

    def add_error(
        self, scope_id: str, error: RequestError, *, line: int = 0, timestamp: str = ""
    ) -> ObservedError:
        """Record an error the agent wrote in place of a response (not a model call)."""
        scope = self.scope(scope_id)
        observed = ObservedError(scope_id, len(scope.messages), error, line, timestamp)
        scope.errors.append(observed)
        return observed

    def add_turn_usage(self, scope_id: str, usage: Usage) -> None:
        """Record the usage the agent reported for a whole turn (every model call of it summed)."""
        self.scope(scope_id).turn_usage.append(usage)

    def record_line_offset(self, source: str, line: int, offset: int) -> None:
        """Remember where a line starts in its file (readers call this for every line they read)."""
        offsets = self.line_offsets.get(source)
        if offsets is None:
            offsets = self.line_offsets[source] = array("q")
        if len(offsets) < line - 1:
            offsets.extend([-1] * (line - 1 - len(offsets)))
        if len(offsets) == line - 1:
            offsets.append(offset)
        elif 0 < line <= len(offsets):
            offsets[line - 1] = offset

    def raw_line(self, scope_id: str, line: int, limit: int | None = None) -> bytes | None:
        """The raw bytes of a line a scope's events came from, read back from the file.

        Readers keep byte offsets rather than raw text; this reads one line again (``os.pread``),
        up to ``limit`` bytes. None when the line is unknown or the file cannot be read.
        """
        scope = self.scopes.get(scope_id)
        source = scope.source if scope is not None and scope.source else self.source
        offsets = self.line_offsets.get(source)
        if offsets is None or not 0 < line <= len(offsets) or offsets[line - 1] < 0:
            return None
        start = offsets[line - 1]
        end = offsets[line] if line < len(offsets) and offsets[line] > start else None
        try:
            fd = os.open(source, os.O_RDONLY)
        except OSError:
            return None
        try:
            want = (end - start) if end is not None else (limit or (64 << 20))
            if limit is not None:
                want = min(want, limit)
            data = os.pread(fd, want, start)
        finally:
            os.close(fd)
        newline = data.find(b"\n")
        return (data[:newline] if newline >= 0 else data).rstrip(b"\r")

    # -- reading --------------------------------------------------------------------------------

    @property
    def main_scope(self) -> Scope | None:
        """The main agent's scope: the first scope without a parent."""
        for scope in self.scopes.values():
            if scope.header.parent_id is None:
                return scope
        return next(iter(self.scopes.values()), None)

    def scope_or_main(self, scope_id: str | None) -> Scope | None:
        """The scope with this id; with no id, or one the session does not have, the main agent's."""
        scope = self.scopes.get(scope_id) if scope_id is not None else None
        return scope if scope is not None else self.main_scope

    def totals(self) -> tuple[int, int]:
        """(messages, requests) over all scopes."""
        return (
            sum(len(s.messages) for s in self.scopes.values()),
            sum(len(s.requests) for s in self.scopes.values()),
        )
