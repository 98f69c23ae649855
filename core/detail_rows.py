"""Request-detail rows: every stored message of one request as the row the messages pane shows.

A request's detail lists each stored message with its role, a short description of its content, its
tokens in the request and as stored, its fate and a one-line preview. The rows are materialised in
the worker: :class:`RequestRows` holds the rows themselves, :class:`PipelineRows` copies of the
figures (fates, tokens) and the immutable messages, and builds a row's texts when it is read (a pane
shows a screenful of a request with tens of thousands of messages). The messages a live view
released (:mod:`~ctxscope.core.retention`) are one run of rows that say so. Nothing in either
refers to live state.

:func:`pipeline_rows` builds the pipeline lens's rows (from the pipeline state and the request's
decision), :func:`recorded_rows` the recorded lens's (from the session's scope).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Final, overload

from .model import CLEAR_TOOL_RESULTS, BlockKind, Message, whitespace_only
from .pipeline.engine import Decision, MessageFates, message_fates
from .pipeline.state import FATES, ScopeState
from .session import Scope
from .snapshot import Fate, MessageView
from .tokens import Estimator

PREVIEW_CHARS: Final = 160
"""Characters of a row's preview."""

RELEASED_KIND: Final = "released"
"""The kind shown for a message a live view released (its content is no longer held)."""
RELEASED_PREVIEW: Final = "content not held by the live view (ctxscope open FILE shows it)"


KIND_NAMES: Final = {BlockKind.TOOL_CALL: "call", BlockKind.TOOL_RESULT: "result"}
"""What a tool call and a tool result are called in a row's kind (before the tool's name): one
name wherever the kind is shown, however narrow the column."""


def describe(message: Message) -> str:
    """A short description of a message's content, e.g. ``text, call Read`` or ``result Read``.

    A text block of whitespace only is not named beside other content (it says nothing; its tokens
    stay in the row's figures); a message of nothing else is ``whitespace``."""
    parts: list[str] = []
    blank = False
    for block in message.blocks:
        name = KIND_NAMES.get(block.kind)
        if name is not None:
            part = f"{name} {block.name}".rstrip()
        elif block.kind is BlockKind.ARTIFACT and block.artifact is not None:
            part = block.artifact.value
        elif block.kind is BlockKind.TEXT and whitespace_only(block.text):
            blank = True
            continue
        else:
            part = block.kind.value
        if part not in parts:
            parts.append(part)
    return ", ".join(parts) or ("whitespace" if blank else "empty")


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """One line of raw text (whitespace collapsed; render literally, never as markup)."""
    line = " ".join(text[: limit * 4].split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def message_row(index: int, message: Message, tokens: int, stored: int, fate: Fate) -> MessageView:
    """The row of a held message."""
    return MessageView(
        index=index,
        role=message.role,
        kind=describe(message),
        tokens=tokens,
        stored_tokens=stored,
        fate=fate,
        preview=preview(message.text),
    )


class _Rows(Sequence[MessageView]):
    """Rows by message index: the held messages' before and after a run of released ones."""

    __slots__ = ("_count", "_pinned", "_released_stop")

    def __init__(self, count: int, pinned: int, released_stop: int) -> None:
        self._count = count
        self._pinned = pinned
        """Rows before this one are the head (held)."""
        self._released_stop = released_stop
        """Rows from :attr:`_pinned` up to this one are released messages."""

    def __len__(self) -> int:
        return self._count

    @abstractmethod
    def _row(self, i: int) -> MessageView:
        """Row ``i`` (``0 <= i < len(self)``)."""

    def _held(self, i: int) -> int:
        """The position of row ``i`` among the held rows."""
        return i if i < self._pinned else i - (self._released_stop - self._pinned)

    @overload
    def __getitem__(self, index: int) -> MessageView: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[MessageView]: ...

    def __getitem__(self, index: int | slice) -> MessageView | Sequence[MessageView]:
        if isinstance(index, slice):
            return [self._row(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._row(index)


def _released_row(i: int, tokens: int, fate: Fate) -> MessageView:
    return MessageView(i, "", RELEASED_KIND, tokens, 0, fate, RELEASED_PREVIEW)


class RequestRows(_Rows):
    """Rows built up front (the recorded lens's): the held rows, and a run of released ones that
    count as kept (nothing else is known of them).

    Args:
        head: The rows before the released run.
        released: How many messages were released after them.
        tail: The rows after them.
    """

    __slots__ = ("_rows",)

    def __init__(
        self, head: Sequence[MessageView], released: int = 0, tail: Sequence[MessageView] = ()
    ) -> None:
        super().__init__(len(head) + released + len(tail), len(head), len(head) + released)
        self._rows = (*head, *tail)

    def _row(self, i: int) -> MessageView:
        if self._pinned <= i < self._released_stop:
            return _released_row(i, 0, Fate.KEPT)
        return self._rows[self._held(i)]


class PipelineRows(_Rows):
    """Rows built when read from columns copied in the worker (the pipeline lens's: a request of a
    long session has tens of thousands of messages and a pane shows a screenful): each message's
    fate and tokens in the request, its stored tokens, and the message itself (immutable)."""

    __slots__ = ("_codes", "_messages", "_stored", "_tokens")

    def __init__(
        self,
        fates: MessageFates,
        messages: tuple[Message, ...],
        stored: Sequence[int],
        pinned: int,
        released_stop: int,
    ) -> None:
        super().__init__(len(fates), pinned, released_stop)
        self._codes = bytes(fates.codes)
        self._tokens = fates.tokens
        self._messages = messages
        self._stored = stored

    def _row(self, i: int) -> MessageView:
        fate, tokens = FATES[self._codes[i]], self._tokens[i]
        if self._pinned <= i < self._released_stop:
            return _released_row(i, tokens, fate)
        k = self._held(i)
        return message_row(i, self._messages[k], tokens, self._stored[k], fate)


def pipeline_rows(state: ScopeState, decision: Decision) -> PipelineRows:
    """The rows of one request of the pipeline lens: each stored message's fate and tokens in it."""
    fates = message_fates(state, decision)
    count = decision.message_count
    messages, stored = state.messages, state.ledger.stored
    if messages.offset == 0:
        return PipelineRows(fates, tuple(messages[0:count]), stored.values(0, count), count, count)
    pinned = min(messages.pinned, count)
    released_stop = max(pinned, min(messages.offset, count))
    held = (*messages[0:pinned], *messages[released_stop:count])
    values = stored.values(0, pinned) + stored.values(released_stop, count)
    return PipelineRows(fates, held, values, pinned, released_stop)


def recorded_rows(
    scope: Scope, request_index: int, message_count: int, estimator: Estimator
) -> tuple[RequestRows, list[Message]]:
    """The rows of one request of the recorded lens, and the stored messages in its live context.

    What the agent sent: everything from its live context start (its last compaction) on, and the
    system messages before it, less the turns it rolled back and the tool results its
    microcompacts emptied (those messages are in the request with no tokens to count here).
    """
    start = scope.context_start(request_index)
    dropped = scope.dropped_ranges(request_index)  # turns the agent rolled back
    cleared = {  # tool results the agent's microcompacts emptied before this call
        call_id
        for c in scope.compactions
        if c.stage == CLEAR_TOOL_RESULTS and 0 <= c.request_index <= request_index
        for call_id in c.compacted_tool_ids
    }
    live_messages: list[Message] = []

    def rows(lo: int, hi: int) -> list[MessageView]:
        out: list[MessageView] = []
        for i, message in scope.messages.held(lo, hi):
            tokens = message.tokens(estimator)
            live = (i >= start or message.role == "system") and not any(i in r for r in dropped)
            results = message.tool_results
            emptied = bool(results) and all(b.call_id in cleared for b in results)
            if live and not emptied:
                live_messages.append(message)
            fate = (
                Fate.DROPPED if any(i in r for r in dropped)
                else Fate.SUMMARISED if not live
                else Fate.CLEARED if emptied
                else Fate.KEPT
            )
            out.append(message_row(i, message, tokens if fate is Fate.KEPT else 0, tokens, fate))
        return out

    messages = scope.messages
    if messages.offset == 0:
        return RequestRows(rows(0, message_count)), live_messages
    pinned = min(messages.pinned, message_count)
    released_stop = max(pinned, min(messages.offset, message_count))
    head = rows(0, pinned)
    return RequestRows(head, released_stop - pinned, rows(released_stop, message_count)), live_messages


__all__ = [
    "PREVIEW_CHARS",
    "RELEASED_KIND",
    "RELEASED_PREVIEW",
    "PipelineRows",
    "RequestRows",
    "describe",
    "message_row",
    "pipeline_rows",
    "preview",
    "recorded_rows",
]
