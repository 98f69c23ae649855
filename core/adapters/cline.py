"""Cline and Roo Code task folders (VS Code ``globalStorage/<extension>/tasks/<taskId>/``).

A task folder holds two documents the extension rewrites as the task runs:

* ``api_conversation_history.json`` — the messages sent to the model, in Anthropic Messages shape
  (``{role, content}`` with text, image, ``tool_use`` and ``tool_result`` blocks): the stored
  history;
* ``ui_messages.json`` — what the chat panel shows: ``{ts, type: say|ask, say|ask, text}``
  events. Every event records ``conversationHistoryIndex`` (the index of the last history message
  when it was written) and ``conversationHistoryDeletedRange``.

Format ``cline`` is recognised on ``ui_messages.json`` and reads the history beside it. Each
``say: api_req_started`` event is one model call; its ``text`` is JSON with the call's
``tokensIn``, ``tokensOut``, ``cacheWrites``, ``cacheReads`` and ``cost`` (and ``cancelReason`` or
``streamingFailedMessage`` for a call that failed). Cline counts tokens the Anthropic way:
``tokensIn`` is the uncached input, so the prompt is ``tokensIn + cacheWrites + cacheReads``
(except a Roo Code call marked ``apiProtocol: "openai"``, whose ``tokensIn`` already holds the
cached part). The recorded cost is kept per call (``ModelRequest.recorded_cost``, :func:`call_costs`).

A call is made over the history up to the reply it got: the first assistant message after the
event's ``conversationHistoryIndex`` (the history as a whole when none follows).

``conversationHistoryDeletedRange`` ``[start, end]`` is Cline's own context truncation: from the
call where it first appears (or grows) on, history messages ``start`` … ``end`` are no longer
sent. It is read as an observed compaction without a summary, whose live context restarts after
``end`` (Cline also keeps the task's first message or pair before ``start``; that message stays
out of the estimate after the truncation).

Roo Code also condenses: a ``say: condense_context`` event (``contextCondense``:
``prevContextTokens``, ``newContextTokens``, ``summary``, ``cost``) with the summary stored in the
history as a message marked ``isSummary``. It is an observed compaction with Roo's own before and
after figures, after which the live context restarts at that summary message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ..jsonl import without_bom
from ..logformat import FormatError
from ..model import (
    MAIN_SCOPE,
    Block,
    BlockKind,
    ErrorKind,
    ObservedCompaction,
    RequestError,
    ScopeHeader,
    Usage,
)
from ..session import Session
from ._chat import ROLE_MAP
from ._common import anthropic_blocks, opt_int, opt_str, text_of

FORMAT: Final = "cline"

HISTORY_FILE: Final = "api_conversation_history.json"
UI_FILE: Final = "ui_messages.json"

MAX_HISTORY_BYTES: Final = 512 << 20
"""A history file larger than this is not read (it must be parsed whole)."""


def is_ui_event(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("ts"), int) and obj.get("type") in ("say", "ask")


def detect_document(doc: Any) -> bool:
    return isinstance(doc, list) and bool(doc) and is_ui_event(doc[0])


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One ``api_req_started`` event, parsed.

    Attributes:
        history_index: ``conversationHistoryIndex`` of the event (-1 when absent).
        deleted: ``conversationHistoryDeletedRange`` when it has one.
        usage: The call's usage (None when the event carries no token counts).
        cost: The cost Cline recorded, in dollars (None when absent).
        error: Why the call failed, '' when it did not.
        timestamp: The event's ``ts`` (milliseconds since the epoch), as text.
    """

    history_index: int
    deleted: tuple[int, int] | None
    usage: Usage | None
    cost: float | None
    error: str
    timestamp: str


def parse_call(event: Mapping[str, Any]) -> ApiCall:
    """The call of an ``api_req_started`` event (a ``text`` that is not JSON gives a call without usage)."""
    try:
        info = orjson.loads(opt_str(event, "text") or "{}")
    except orjson.JSONDecodeError:
        info = {}
    if not isinstance(info, dict):
        info = {}
    usage: Usage | None = None
    if any(key in info for key in ("tokensIn", "tokensOut", "cacheWrites", "cacheReads")):
        tokens_in = opt_int(info, "tokensIn") or 0
        written = opt_int(info, "cacheWrites") or 0
        read = opt_int(info, "cacheReads") or 0
        # Roo Code's OpenAI-protocol calls count the cached part inside tokensIn already.
        prompt = tokens_in if info.get("apiProtocol") == "openai" else tokens_in + written + read
        usage = Usage(prompt, read, written, opt_int(info, "tokensOut") or 0)
    cost = info.get("cost")
    raw_range = event.get("conversationHistoryDeletedRange")
    deleted: tuple[int, int] | None = None
    if (
        isinstance(raw_range, list)
        and len(raw_range) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw_range)
    ):
        deleted = (raw_range[0], raw_range[1])
    index = event.get("conversationHistoryIndex")
    return ApiCall(
        index if isinstance(index, int) and not isinstance(index, bool) else -1,
        deleted,
        usage,
        float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None,
        opt_str(info, "cancelReason") or opt_str(info, "streamingFailedMessage")[:200],
        str(event.get("ts", "")),
    )


@dataclass(frozen=True, slots=True)
class Condense:
    """A Roo Code ``condense_context`` event: the history was summarised.

    Attributes:
        before: ``prevContextTokens``, the context size before, by Roo's count.
        after: ``newContextTokens``, the context size after.
        summary: The summary text.
        cost: What the summarising call cost (None when absent).
        timestamp: The event's ``ts``, as text.
    """

    before: int | None
    after: int | None
    summary: str
    cost: float | None
    timestamp: str


def parse_condense(event: Mapping[str, Any]) -> Condense:
    info = event.get("contextCondense")
    if not isinstance(info, dict):
        info = {}
    cost = info.get("cost")
    return Condense(
        opt_int(info, "prevContextTokens"),
        opt_int(info, "newContextTokens"),
        opt_str(info, "summary"),
        float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None,
        str(event.get("ts", "")),
    )


def task_events(events: list[Any]) -> list[ApiCall | Condense]:
    """The calls and condensings of a ``ui_messages.json``, in order."""
    found: list[ApiCall | Condense] = []
    for event in events:
        if isinstance(event, dict):
            if event.get("say") == "api_req_started":
                found.append(parse_call(event))
            elif event.get("say") == "condense_context":
                found.append(parse_condense(event))
    return found


def api_calls(events: list[Any]) -> list[ApiCall]:
    """Every ``api_req_started`` event of a ``ui_messages.json``, parsed, in order."""
    return [parse_call(e) for e in events if isinstance(e, dict) and e.get("say") == "api_req_started"]


def call_costs(events: list[Any]) -> list[float | None]:
    """The cost Cline recorded for each call, in order (None where it recorded none)."""
    return [call.cost for call in api_calls(events)]


def load_history(folder: str) -> list[Any] | None:
    """The task's ``api_conversation_history.json`` (None when absent or unreadable)."""
    path = os.path.join(folder, HISTORY_FILE)
    try:
        if os.path.getsize(path) > MAX_HISTORY_BYTES:
            return None
        with open(path, "rb") as handle:
            doc = orjson.loads(without_bom(handle.read()))
    except (OSError, orjson.JSONDecodeError):
        return None
    return doc if isinstance(doc, list) else None


class TaskReader:
    """Interleaves a task's history with its calls into one scope."""

    def __init__(self, session: Session, history: list[Any]) -> None:
        self.session = session
        self.history = history
        self.stored = 0
        self.assistant_at = [
            i for i, m in enumerate(history) if isinstance(m, dict) and m.get("role") == "assistant"
        ]
        self.summary_at = [
            i for i, m in enumerate(history) if isinstance(m, dict) and m.get("isSummary") is True
        ]

    def store_to(self, count: int) -> None:
        """Store history messages up to (not including) index ``count``."""
        while self.stored < min(count, len(self.history)):
            position = self.stored
            self.stored += 1
            message = self.history[position]
            try:
                if not isinstance(message, dict):
                    raise FormatError(f"a message must be an object, got {type(message).__name__}")
                raw_role = message.get("role")
                role = ROLE_MAP.get(raw_role) if isinstance(raw_role, str) else None
                if role is None:
                    raise FormatError(f"unknown role {str(message.get('role'))[:20]!r}")
                if message.get("isSummary") is True:  # Roo Code's condensed history
                    blocks = [Block(BlockKind.SUMMARY, text_of(message.get("content")))]
                else:
                    blocks = anthropic_blocks(message.get("content"))
            except FormatError as exc:
                self.session.problems.add("wrong_type", 0, f"{HISTORY_FILE} message {position + 1}: {exc}")
                continue
            self.session.add_message(role, blocks)

    def reply_after(self, index: int) -> int:
        """Index of the first assistant message after history index ``index`` (the history's length
        when none follows)."""
        return next((i for i in self.assistant_at if i > index), len(self.history))

    def condense(self, condense: Condense) -> None:
        """A condensing: the live context restarts at the summary message Roo stored for it."""
        at = next((i for i in self.summary_at if i >= self.stored), None)
        if at is not None:
            self.store_to(at)
        self.session.add_compaction(
            ObservedCompaction(
                MAIN_SCOPE,
                self.stored,
                tokens_before=condense.before,
                tokens_after=condense.after,
                summary=condense.summary,
                summary_index=self.stored if at is not None else None,
                timestamp=condense.timestamp,
            )
        )

    def read(self, events: list[ApiCall | Condense]) -> None:
        deleted: tuple[int, int] | None = None
        for call in events:
            if isinstance(call, Condense):
                self.condense(call)
                continue
            self.store_to(self.reply_after(call.history_index))
            if call.deleted is not None and call.deleted != deleted and call.deleted[1] >= call.deleted[0]:
                deleted = call.deleted
                self.session.add_compaction(
                    ObservedCompaction(MAIN_SCOPE, min(deleted[1] + 1, self.stored), trigger="auto")
                )
            self.session.add_request(
                usage=call.usage,
                error=RequestError(ErrorKind.OTHER, call.error) if call.error else None,
                timestamp=call.timestamp,
                recorded_cost=call.cost,
            )
        self.store_to(len(self.history))


def read_document(session: Session, doc: Any) -> None:
    if not isinstance(doc, list):
        raise FormatError("expected the list of a Cline ui_messages.json")
    folder = os.path.dirname(os.path.abspath(session.source))
    history = load_history(folder)
    task = next((e for e in doc if isinstance(e, dict) and e.get("say") == "task"), None)
    label = text_of(task.get("text"))[:80] if task else ""
    session.set_header(ScopeHeader(MAIN_SCOPE, session_id=os.path.basename(folder), label=label.strip()))
    if history is None:
        session.problems.add("unreadable", 0, f"no readable {HISTORY_FILE} beside it: calls only")
        history = []
    for position, event in enumerate(doc, 1):
        if not isinstance(event, dict):
            session.problems.add("wrong_type", 0, f"{UI_FILE} event {position}: not an object")
        elif event.get("say") not in ("api_req_started", "condense_context"):
            session.ignored[
                f"{opt_str(event, 'type')}:{(opt_str(event, 'say') or opt_str(event, 'ask'))[:40]}"
            ] += 1
    TaskReader(session, history).read(task_events(doc))
