"""Claude Code session transcripts (``~/.claude/projects/<cwd>/<session>.jsonl``).

What is read (see ``docs/formats.md`` for the full rules and ``../shared/real-logs/FORMATS.md``):

* ``user`` and ``assistant`` lines carry Anthropic Messages payloads. A response is written one
  content block per line, every line repeating ``message.id``, ``requestId`` and ``usage``: the
  first line of a ``message.id`` is the model call (made over everything stored before it), later
  lines add their blocks to that message. Tool results written between the pieces of one
  response (parallel tool calls) are held until the response is complete and then stored as one
  user message, as the API saw them. A call's prompt is ``input + cache_creation + cache_read``
  tokens; the model is read per call (it can change mid-session). ``output_tokens`` is a
  streaming placeholder on early lines: the largest value seen is kept.
  Usage that is all zeros is no usage (a model behind Claude Code that reports none); when the
  split lines of one response carry different usage, the line whose usage has the most fields
  wins. ``<synthetic>`` assistant lines (API and authentication errors) are not model calls:
  an API error is recorded as an :class:`~ctxscope.core.model.ObservedError`.
* Each API call counts once across the session's scopes: a sub-agent file that replays its
  parent's history (``agent-acompact-*``, ``agent-aside_question-*``, with the parent's own
  ``message.id`` values) stores those messages (they were its context) but adds no request for
  them (:attr:`Scope.replayed_calls`). An ``agent-acompact-*`` file is the summariser of the
  parent's compaction that follows its last call; the compaction records it
  (``summariser_scope``).
* ``system`` lines with ``subtype: compact_boundary`` (``compactMetadata{trigger, preTokens,
  postTokens?, durationMs?}``) and the ``isCompactSummary`` user line after them become an
  observed compaction with the summary; without ``postTokens`` its tokens after are the next
  call's prompt. The live context restarts at the summary; ``attachment`` lines stored after it
  and before the next call (re-attached files, hook context) are what it kept. A
  ``microcompact_boundary`` (``microcompactMetadata{trigger, preTokens, tokensSaved,
  compactedToolIds}``) is a clearing of old tool results that keeps the rest of the history.
* ``isMeta`` user lines (injected reminders) and ``attachment`` lines (text Claude Code adds to
  the context: task notifications, skill listings, deferred-tool lists, re-attached files) are
  stored as meta messages: they count toward the context but do not start a user turn.
* Inline sidechains (``isSidechain: true`` in the session file, Claude Code 1.0.x) become one
  scope per sub-agent, found by following ``parentUuid``; ``<session>/subagents/*.jsonl`` files
  (2.x) become one scope each (:func:`find_siblings`).
* ``progress`` (its ``agent_progress`` lines embed sub-agent messages that are not in the main
  context), ``file-history-snapshot``, ``queue-operation``, ``summary`` (titles, not
  compaction), ``permission-mode``, ``mode``, ``last-prompt`` and ``ai-title`` lines are known
  and not read; they are counted in :attr:`Session.ignored`. Record kinds not known are counted
  in :attr:`Session.unknown_kinds`.

Known limit: the chain is read in file order. A rewound conversation (a fork in ``parentUuid``)
keeps both branches; none of the reference logs has one.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..files import inside, open_regular
from ..jsonl import decode_line
from ..logformat import clamp_count
from ..model import (
    CLEAR_TOOL_RESULTS,
    MAIN_SCOPE,
    SUMMARIZE,
    Block,
    BlockKind,
    ErrorKind,
    ObservedCompaction,
    RequestError,
    ScopeHeader,
    Usage,
)
from ..session import Session
from ._common import (
    anthropic_blocks,
    anthropic_usage,
    get_dict,
    get_list,
    get_str,
    opt_int,
    opt_str,
    short,
    text_of,
)
from .base import Source, UnknownEventError

FORMAT: Final = "claude-code"

IGNORED_TYPES: Final = frozenset(
    {
        "progress",
        "file-history-snapshot",
        "queue-operation",
        "summary",
        "permission-mode",
        "mode",
        "last-prompt",
        "ai-title",
    }
)
"""Record types that are known and not part of any model context."""

ATTACHMENT_TEXT_FIELDS: Final = ("content", "addedBlocks", "addedLines", "snippet", "prompt")
"""Fields of an ``attachment`` that hold the text the model is shown, in the order they are read."""

REPLAYING_PREFIXES: Final = ("agent-acompact", "agent-aside_question")
"""Sub-agent files that start by replaying their parent's history."""

SUMMARY_PREFIX: Final = "This session is being continued from a previous conversation"
"""How Claude Code's compaction summary starts (used where ``isCompactSummary`` is absent)."""

_TOOL_RESULT: Final = BlockKind.TOOL_RESULT

SYNTHETIC_MODEL: Final = "<synthetic>"
"""The model Claude Code names on messages it wrote itself (API errors, placeholders)."""

LABEL_CHARS: Final = 80


def detect(obj: Mapping[str, Any]) -> bool:
    """A transcript line: a record ``type`` with the camelCase envelope (``sessionId`` or
    ``parentUuid``), or one of the two envelope-less records (titles, file snapshots)."""
    kind = obj.get("type")
    if kind == "summary":
        return "leafUuid" in obj
    if kind == "file-history-snapshot":
        return "snapshot" in obj or "messageId" in obj
    return type(kind) is str and ("sessionId" in obj or "parentUuid" in obj)


REQUIRES: Final = (
    "a 'type' with a 'sessionId' or 'parentUuid' envelope (or a 'summary' title, a "
    "'file-history-snapshot')"
)


def find_siblings(path: str, session_id: str = "") -> list[Source]:
    """Sub-agent logs of a session, each its own scope.

    Claude Code 2.x writes them to ``<dir>/<session>/subagents/*.jsonl``. A ``subagents`` folder
    right beside the session file (how some copies of a session are laid out) is also read, but
    only files whose first line names the same ``sessionId``. Only these folders are listed; no
    path written inside a log is ever followed.
    """
    stem, _ = os.path.splitext(path)
    root = os.path.dirname(path) or "."
    sources = [_sibling(p) for p in _jsonl_files(os.path.join(stem, "subagents"), root)]
    if session_id:
        for candidate in _jsonl_files(os.path.join(os.path.dirname(path), "subagents"), root):
            if _first_session_id(candidate) == session_id:
                sources.append(_sibling(candidate))
    return sources


def _jsonl_files(folder: str, root: str) -> list[str]:
    """The ``*.jsonl`` files in ``folder`` that stay inside ``root`` (no symlink out of it)."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(e.name for e in entries if e.name.endswith(".jsonl") and e.is_file())
    except OSError:
        return []
    return [p for p in (os.path.join(folder, name) for name in names) if inside(p, root)]


def _sibling(path: str) -> Source:
    scope_id = os.path.basename(path)[: -len(".jsonl")]
    label = "compaction" if scope_id.startswith("agent-acompact") else ""
    return Source(path, scope_id, MAIN_SCOPE, label, replays_parent=scope_id.startswith(REPLAYING_PREFIXES))


_SESSION_IDS: dict[tuple[str, int], str] = {}
"""First-line ``sessionId`` of sub-agent files already looked at, by (path, inode)."""

FIRST_LINE_BYTES: Final = 256 << 10


def _first_session_id(path: str) -> str:
    try:
        with open_regular(path) as handle:
            key = (path, os.fstat(handle.fileno()).st_ino)
            if key in _SESSION_IDS:
                return _SESSION_IDS[key]
            head = handle.readline(FIRST_LINE_BYTES)
    except OSError:
        return ""
    obj, _ = decode_line(head.rstrip(b"\r\n"))
    value = obj.get("sessionId") if obj is not None else None
    found = value if isinstance(value, str) else ""
    if found or head.endswith(b"\n"):
        if len(_SESSION_IDS) > 4096:
            _SESSION_IDS.clear()
        _SESSION_IDS[key] = found
    return found


def attachment_text(raw: Mapping[str, Any]) -> str:
    """The text an ``attachment`` puts in the context (its text fields; a re-attached file's
    content). Empty when it carries none (e.g. an empty permission list)."""
    parts: list[str] = []
    for key in ATTACHMENT_TEXT_FIELDS:
        value = raw.get(key)
        if type(value) is dict:
            nested = value.get("file")
            value = nested.get("content") if type(nested) is dict else value.get("content", value.get("text"))
        text = text_of(value) if value is not None else ""
        if text:
            parts.append(text)
    return "\n".join(parts)


def link_summarisers(session: Session) -> None:
    """Link each ``agent-acompact-*`` scope to the compaction its last call summarised: the
    parent's first summary compaction at or after that call that has no summariser yet.

    Called when such a scope makes a call and when a compaction is recorded, so the link is made
    whichever of the two files is read first.
    """
    linked = {
        c.summariser_scope for s in session.scopes.values() for c in s.compactions if c.summariser_scope
    }
    for scope in list(session.scopes.values()):
        if not scope.scope_id.startswith("agent-acompact") or scope.scope_id in linked:
            continue
        stamp = next((r.timestamp for r in reversed(scope.requests) if r.timestamp), "")
        parent = session.scopes.get(scope.header.parent_id or MAIN_SCOPE)
        if not stamp or parent is None:
            continue
        for position, compaction in enumerate(parent.compactions):
            if (
                compaction.restarts_context
                and not compaction.summariser_scope
                and compaction.timestamp >= stamp
            ):
                session.amend_compaction(parent.scope_id, position, summariser_scope=scope.scope_id)
                break


def label_of(content: Any) -> str:
    text = text_of(content).strip()
    return text.splitlines()[0][:LABEL_CHARS] if text else ""


@dataclass
class _PendingCompaction:
    trigger: str
    tokens_before: int | None
    line: int
    stage: str = SUMMARIZE
    tokens_after: int | None = None
    duration_ms: int | None = None
    tokens_saved: int | None = None
    compacted_tool_ids: tuple[str, ...] = ()
    timestamp: str = ""


@dataclass(slots=True)
class _ScopeState:
    """Reading state of one scope."""

    open_id: str = ""
    """``message.id`` of the response being read; while set, it is the scope's last message
    (or, until :meth:`TranscriptAdapter.store_response` stores it, :attr:`response`)."""
    open_usage: Usage | None = None
    open_fields: int = -1
    """How many fields the usage of the open call had (-1: none); a later piece with more wins."""
    open_call: bool = False
    """The open response is a call of this scope (False for a replay of a call counted elsewhere)."""
    response: list[Block] | None = None
    """The blocks of the response being read, while they are not stored yet."""
    response_line: int = 0
    seen: set[str] = field(default_factory=set)
    """Ids of every response read (deduplication)."""
    results: list[Block] = field(default_factory=list)
    """Tool results held while their response is still being read."""
    results_line: int = 0
    held: list[tuple[list[Block], bool, int]] = field(default_factory=list)
    """Other user messages (blocks, meta, line) that arrived while results were held."""
    compaction: _PendingCompaction | None = None
    """A compaction boundary waiting for its summary line."""
    labelled: bool = False
    model: str = ""
    """The model of the scope's last call (the header is looked at when it changes)."""


class TranscriptAdapter:
    """Shared reading of Anthropic-payload transcripts (Claude Code and the Agent SDK stream).

    Subclasses say how a line is routed to a scope and how a compaction is written.
    """

    format_name: str = FORMAT

    def __init__(self, session: Session, source: Source) -> None:
        self.session = session
        self.source = source
        self.default_scope = source.default_scope
        self.states: dict[str, _ScopeState] = {}
        self.noted: set[str] = set()
        """Scopes whose header already carries the session id."""

    # -- hooks ------------------------------------------------------------------------------------

    def route(self, obj: Mapping[str, Any]) -> str:
        """The scope a user/assistant line belongs to."""
        return self.default_scope

    def compaction_of(self, obj: Mapping[str, Any]) -> _PendingCompaction | None:
        """A compaction boundary, from a ``system`` line."""
        return None

    # -- scopes -----------------------------------------------------------------------------------

    def open_scope(self, scope_id: str, *, parent_id: str | None = None, label: str = "") -> _ScopeState:
        state = self.states.get(scope_id)
        if state is None:
            state = self.states[scope_id] = _ScopeState()
            existing = self.session.scopes.get(scope_id)
            header = existing.header if existing is not None else ScopeHeader(scope_id)
            if parent_id is None and scope_id == self.source.scope_id:
                parent_id = self.source.parent_id
                label = label or self.source.label
            self.session.set_header(
                dataclasses.replace(
                    header,
                    session_id=header.session_id or self.session.session_id,
                    parent_id=header.parent_id if parent_id is None else parent_id,
                    label=header.label or label,
                )
            )
            self.session.scope(scope_id).source = self.source.path
        return state

    def note_session(self, session_id: str, scope_id: str) -> None:
        if not session_id or scope_id in self.noted:
            return
        self.noted.add(scope_id)
        if not self.session.session_id:
            self.session.session_id = session_id
            for scope in self.session.scopes.values():
                if not scope.header.session_id:
                    scope.header = dataclasses.replace(scope.header, session_id=session_id)
        header = self.session.scope(scope_id).header
        if not header.session_id:
            self.session.set_header(dataclasses.replace(header, session_id=session_id))

    # -- lines ------------------------------------------------------------------------------------

    def feed(self, obj: dict[str, Any], line: int) -> None:
        kind = obj.get("type")
        if kind == "assistant" or kind == "user":
            message = obj.get("message")
            if type(message) is not dict:
                message = get_dict(obj, "message", required=True)  # raises the usual error
            scope_id = self.route(obj)
            if kind == "assistant":
                self.assistant(scope_id, obj, message, line)
            else:
                self.user(scope_id, obj, message, line)
        elif type(kind) is str and kind in IGNORED_TYPES:
            self.ignore(obj, kind)
        elif kind == "system":
            self.system(obj, line)
        elif kind == "attachment":
            self.attachment(obj, line)
        else:
            raise UnknownEventError(kind)

    def attachment(self, obj: Mapping[str, Any], line: int) -> None:
        """Text Claude Code adds to the context (stored as a meta user message)."""
        raw = get_dict(obj, "attachment", required=True)
        text = attachment_text(raw)
        if not text:
            self.session.ignored[f"attachment:{short(raw.get('type'))}(empty)"] += 1
            return
        self.user(self.route(obj), obj, {"content": text}, line, meta=True)

    def ignore(self, obj: Mapping[str, Any], kind: str) -> None:
        self.session.ignored[kind] += 1

    def system(self, obj: Mapping[str, Any], line: int) -> None:
        compaction = self.compaction_of(obj)
        subtype = opt_str(obj, "subtype") or "system"
        if compaction is None:
            self.session.ignored[f"system:{subtype}"] += 1
            return
        scope_id = self.default_scope
        state = self.open_scope(scope_id)
        self.store_response(scope_id, state)
        self.close_compaction(scope_id, state)
        self.flush(scope_id, state)
        compaction.line = line
        compaction.timestamp = opt_str(obj, "timestamp")
        if compaction.stage == SUMMARIZE:
            state.compaction = compaction
        else:
            self.add_compaction(scope_id, compaction, "")

    def assistant(self, scope_id: str, obj: Mapping[str, Any], message: Mapping[str, Any], line: int) -> None:
        blocks = anthropic_blocks(message.get("content"))
        request_id = obj.get("requestId")
        if type(request_id) is not str:
            request_id = get_str(obj, "requestId")
        response_id = message.get("id")
        if type(response_id) is not str:
            response_id = get_str(message, "id")
        response_id = response_id or request_id
        state = self.states.get(scope_id) or self.open_scope(scope_id)
        session = self.session
        if response_id and response_id == state.open_id:
            # Another piece of the response being read (the hot path: one line per block).
            raw_usage = message.get("usage")
            if state.open_call and type(raw_usage) is dict:
                self.revise_usage(scope_id, state, raw_usage)
            if state.response is not None:
                state.response += blocks
            else:
                session.amend_last_message(scope_id, blocks)
            return
        self.store_response(scope_id, state)
        raw_usage = message.get("usage")
        usage = anthropic_usage(raw_usage)
        model = sys.intern(get_str(message, "model"))  # repeated on every call
        if scope_id not in self.noted:
            self.note_session(opt_str(obj, "sessionId") or opt_str(obj, "session_id"), scope_id)
        if state.compaction is not None:
            self.close_compaction(scope_id, state)
        if state.results or state.held:
            self.flush(scope_id, state)
        if response_id and response_id in state.seen:
            # A late piece of a response already closed: keep its blocks; it is not a new call.
            state.open_id = ""
            state.open_usage = None
            session.add_message("assistant", blocks, scope_id=scope_id, line=line)
            return
        if model == SYNTHETIC_MODEL:
            state.open_id = ""
            state.open_usage = None
            self.synthetic(scope_id, obj, blocks, line)
            return
        if response_id:
            state.seen.add(response_id)
        state.response = blocks
        state.response_line = line
        state.open_id = response_id
        if not session.claim_call(response_id):
            # A call another scope already counted (a sub-agent file replaying its parent).
            session.scope(scope_id).replayed_calls += 1
            state.open_call = False
            state.open_usage = None
            return
        timestamp = obj.get("timestamp")
        session.add_request(
            scope_id=scope_id,
            model=model,
            usage=usage,
            request_id=request_id or response_id,
            line=line,
            timestamp=timestamp if type(timestamp) is str else "",
        )
        if model != state.model:
            state.model = model
            self.note_model(scope_id, model)
        state.open_call = True
        state.open_usage = usage
        state.open_fields = len(raw_usage) if usage is not None and type(raw_usage) is dict else -1
        if scope_id.startswith("agent-acompact"):
            link_summarisers(session)

    def revise_usage(self, scope_id: str, state: _ScopeState, raw: dict[str, Any]) -> None:
        """A later piece of the open call: a more complete usage (more fields) replaces the one
        kept; otherwise only a larger ``output_tokens`` is taken."""
        opened = state.open_usage
        if len(raw) > state.open_fields:
            usage = anthropic_usage(raw)
            if usage is not None:
                if opened is not None and opened.output_tokens > usage.output_tokens:
                    usage = dataclasses.replace(usage, output_tokens=opened.output_tokens)
                state.open_usage = usage
                state.open_fields = len(raw)
                self.session.revise_last_request(scope_id, usage)
                return
        output = raw.get("output_tokens")
        if type(output) is int and opened is not None and output > opened.output_tokens:
            state.open_usage = dataclasses.replace(opened, output_tokens=clamp_count(output))
            self.session.revise_last_request(scope_id, state.open_usage)

    def synthetic(self, scope_id: str, obj: Mapping[str, Any], blocks: list[Block], line: int) -> None:
        """A message Claude Code wrote itself, not a model call: an API error is recorded as an
        observed error (not a message); anything else is kept as a message."""
        text = "\n".join(b.text for b in blocks if b.text)
        if obj.get("isApiErrorMessage") is True:
            lowered = text.lower()
            kind = ErrorKind.CONTEXT_LENGTH if "too long" in lowered else ErrorKind.OTHER
            self.session.add_error(
                scope_id, RequestError(kind, text[:200]), line=line, timestamp=opt_str(obj, "timestamp")
            )
            return
        self.session.add_message("assistant", blocks, scope_id=scope_id, line=line)

    def note_model(self, scope_id: str, model: str) -> None:
        header = self.session.scope(scope_id).header
        if model and not header.model:
            self.session.set_header(dataclasses.replace(header, model=model))

    def user(
        self,
        scope_id: str,
        obj: Mapping[str, Any],
        message: Mapping[str, Any],
        line: int,
        *,
        meta: bool = False,
    ) -> None:
        content = message.get("content")
        blocks = anthropic_blocks(content)
        state = self.states.get(scope_id) or self.open_scope(scope_id)
        self.store_response(scope_id, state)
        if scope_id not in self.noted:
            self.note_session(opt_str(obj, "sessionId") or opt_str(obj, "session_id"), scope_id)
        meta = meta or obj.get("isMeta") is True
        if not meta and not state.labelled:
            header = self.session.scope(scope_id).header
            label = header.label or label_of(content)
            if label:
                state.labelled = True
                if not header.label:
                    self.session.set_header(dataclasses.replace(header, label=label))
        is_summary = obj.get("isCompactSummary") is True or (
            type(content) is str and content.startswith(SUMMARY_PREFIX) and state.compaction is not None
        )
        if is_summary:
            self.flush(scope_id, state)
            text = text_of(content)
            had_compaction = state.compaction is not None
            self.close_compaction(scope_id, state, text)
            stored = self.session.add_message(
                "user", [Block(BlockKind.SUMMARY, text)], scope_id=scope_id, line=line
            )
            if had_compaction:
                self.session.amend_compaction(scope_id, summary_index=stored.index)
            return
        if state.compaction is not None:
            self.close_compaction(scope_id, state)
        if state.open_id:
            for block in blocks:
                if block.kind is _TOOL_RESULT:
                    if not state.results:
                        state.results_line = line
                    state.results.extend(blocks)
                    return
            if (state.results or state.held) and meta:
                state.held.append((blocks, meta, line))
                return
        self.flush(scope_id, state)
        stored = self.session.add_message("user", blocks, scope_id=scope_id, meta=meta, line=line)
        if meta:
            self.session.note_kept(scope_id, stored.index)

    # -- buffering --------------------------------------------------------------------------------

    def store_response(self, scope_id: str, state: _ScopeState) -> None:
        """Store the blocks of the response being read (held so that a response written one
        block per line is stored once, not amended once per line).

        Called before anything else happens in the scope, and by :meth:`settle`; the session
        then holds the same messages, in the same order, as if each block had been stored as
        it was read.
        """
        if state.response is not None:
            self.session.add_message("assistant", state.response, scope_id=scope_id, line=state.response_line)
            state.response = None

    def settle(self) -> None:
        """Store every response read so far (the reader calls this after each batch of lines,
        so that a session being tailed holds each block as soon as its line is read)."""
        for scope_id, state in self.states.items():
            self.store_response(scope_id, state)

    def flush(self, scope_id: str, state: _ScopeState) -> None:
        """Store held tool results (one user message) and anything held behind them; close the response."""
        if state.results:
            self.session.add_message("user", state.results, scope_id=scope_id, line=state.results_line)
            state.results = []
        for blocks, meta, line in state.held:
            self.session.add_message("user", blocks, scope_id=scope_id, meta=meta, line=line)
        state.held.clear()
        state.open_id = ""
        state.open_usage = None

    def close_compaction(self, scope_id: str, state: _ScopeState, summary: str = "") -> None:
        if state.compaction is not None:
            pending, state.compaction = state.compaction, None
            self.add_compaction(scope_id, pending, summary)

    def add_compaction(self, scope_id: str, pending: _PendingCompaction, summary: str) -> None:
        self.session.add_compaction(
            ObservedCompaction(
                scope_id,
                len(self.session.scope(scope_id).messages),
                stage=pending.stage,
                trigger=pending.trigger,
                tokens_before=pending.tokens_before,
                tokens_after=pending.tokens_after,
                summary=summary,
                line=pending.line,
                duration_ms=pending.duration_ms,
                tokens_saved=pending.tokens_saved,
                compacted_tool_ids=pending.compacted_tool_ids,
                timestamp=pending.timestamp,
            )
        )
        if pending.stage == SUMMARIZE:
            link_summarisers(self.session)

    def finish(self) -> None:
        for scope_id, state in self.states.items():
            self.store_response(scope_id, state)
            self.close_compaction(scope_id, state)
            self.flush(scope_id, state)


class ClaudeCodeAdapter(TranscriptAdapter):
    """A Claude Code transcript file (the session file or one ``subagents/`` file)."""

    format_name = FORMAT

    def __init__(self, session: Session, source: Source) -> None:
        super().__init__(session, source)
        self.one_scope = source.scope_id is not None
        """A sub-agent file: every line belongs to its scope (no inline sidechains)."""
        self.sidechains: dict[str, str] = {}
        """uuid → scope of inline sidechain lines (the session file of Claude Code 1.0.x)."""
        self.sidechain_count = 0

    def route(self, obj: Mapping[str, Any]) -> str:
        if self.one_scope or obj.get("isSidechain") is not True or "agentId" in obj:
            # A sub-agent file (its lines carry ``agentId``) is one scope, even opened on its own.
            return self.default_scope
        parent = obj.get("parentUuid")
        scope_id = self.sidechains.get(parent) if isinstance(parent, str) else None
        if scope_id is None:
            self.sidechain_count += 1
            scope_id = f"sidechain-{self.sidechain_count}"
            message = obj.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            self.open_scope(scope_id, parent_id=MAIN_SCOPE, label=label_of(content))
        uuid = obj.get("uuid")
        if isinstance(uuid, str):
            self.sidechains[uuid] = scope_id
        return scope_id

    def ignore(self, obj: Mapping[str, Any], kind: str) -> None:
        self.session.ignored[kind] += 1
        if not self.one_scope and obj.get("isSidechain") is True:
            parent, uuid = obj.get("parentUuid"), obj.get("uuid")
            if isinstance(parent, str) and isinstance(uuid, str) and parent in self.sidechains:
                self.sidechains[uuid] = self.sidechains[parent]

    def compaction_of(self, obj: Mapping[str, Any]) -> _PendingCompaction | None:
        subtype = obj.get("subtype")
        if subtype == "compact_boundary":
            meta = get_dict(obj, "compactMetadata")
            return _PendingCompaction(
                opt_str(meta, "trigger"),
                opt_int(meta, "preTokens"),
                0,
                tokens_after=opt_int(meta, "postTokens"),
                duration_ms=opt_int(meta, "durationMs"),
            )
        if subtype == "microcompact_boundary":
            meta = get_dict(obj, "microcompactMetadata")
            before = opt_int(meta, "preTokens")
            saved = opt_int(meta, "tokensSaved")
            after = before - saved if before is not None and saved is not None and saved <= before else None
            return _PendingCompaction(
                opt_str(meta, "trigger"),
                before,
                0,
                stage=CLEAR_TOOL_RESULTS,
                tokens_after=after,
                tokens_saved=saved,
                compacted_tool_ids=tuple(i for i in get_list(meta, "compactedToolIds") if type(i) is str),
            )
        return None

    def system(self, obj: Mapping[str, Any], line: int) -> None:
        if obj.get("subtype") in ("compact_boundary", "microcompact_boundary"):
            self.note_session(opt_str(obj, "sessionId"), self.default_scope)
        super().system(obj, line)


def make_adapter(session: Session, source: Source) -> ClaudeCodeAdapter:
    return ClaudeCodeAdapter(session, source)
