"""Request-detail rows: every stored message of one request as the row the messages pane shows.

A request's detail lists each stored message with its role, a short description of its content, its
tokens in the request and as stored, its fate and a one-line preview. The rows are materialised in
the worker (:class:`RequestRows`): the held messages' rows are built here, once, with their
texts; the messages a live view released (:mod:`~ctxscope.core.retention`) are one run of rows that
say so, built when read from nothing but their position. Nothing in it refers to live state.

:func:`pipeline_rows` builds the pipeline lens's rows (from the pipeline state and the request's
decision), :func:`recorded_rows` the recorded lens's (from the session's scope).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Final, overload

from .model import CLEAR_TOOL_RESULTS, BlockKind, Message
from .pipeline.engine import Decision, message_fates
from .pipeline.state import ScopeState
from .session import Scope
from .snapshot import Fate, MessageView
from .tokens import Estimator

PREVIEW_CHARS: Final = 160
"""Characters of a row's preview."""

RELEASED_KIND: Final = "released"
"""The kind shown for a message a live view released (its content is no longer held)."""
RELEASED_PREVIEW: Final = "content not held by the live view (ctxscope open FILE shows it)"


def describe(message: Message) -> str:
    """A short description of a message's content, e.g. ``text, tool_call Read``."""
    parts: list[str] = []
    for block in message.blocks:
        if block.kind is BlockKind.TOOL_CALL or block.kind is BlockKind.TOOL_RESULT:
            part = f"{block.kind.value} {block.name}".rstrip()
        elif block.kind is BlockKind.ARTIFACT and block.artifact is not None:
            part = block.artifact.value
        else:
            part = block.kind.value
        if part not in parts:
            parts.append(part)
    return ", ".join(parts) or "empty"


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


class RequestRows(Sequence[MessageView]):
    """Every stored message of one request as a row, by index: the rows of the held messages
    before and after a run of released ones.

    Args:
        head: Rows ``0 .. len(head)``.
        released: The positions of the released messages (right after ``head``).
        tail: The rows after them.
        released_fates: (first position, fate) runs over ``released``, in order (default: kept).
    """

    __slots__ = ("_head", "_released", "_released_fates", "_tail")

    def __init__(
        self,
        head: Sequence[MessageView],
        released: range = range(0),
        tail: Sequence[MessageView] = (),
        released_fates: Iterable[tuple[int, Fate]] = (),
    ) -> None:
        self._head = tuple(head)
        self._released = range(len(self._head), len(self._head) + len(released))
        self._tail = tuple(tail)
        self._released_fates = tuple(released_fates)

    def __len__(self) -> int:
        return len(self._head) + len(self._released) + len(self._tail)

    def _row(self, i: int) -> MessageView:
        if i < len(self._head):
            return self._head[i]
        released = self._released
        if i >= released.stop:
            return self._tail[i - released.stop]
        runs = self._released_fates
        found = bisect_right(runs, i, key=lambda run: run[0]) - 1
        fate = runs[found][1] if found >= 0 else Fate.KEPT
        return MessageView(i, "", RELEASED_KIND, 0, 0, fate, RELEASED_PREVIEW)

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


def pipeline_rows(state: ScopeState, decision: Decision) -> RequestRows:
    """The rows of one request of the pipeline lens: each stored message's fate and tokens in it."""
    fates = message_fates(state, decision)
    count = decision.message_count
    messages, costs = state.messages, state.ledger.costs

    def rows(lo: int, hi: int) -> list[MessageView]:
        tokens = fates.tokens
        return [message_row(i, messages[i], tokens[i], costs[i].stored, fates.fate(i)) for i in range(lo, hi)]

    if messages.offset == 0:
        return RequestRows(rows(0, count))
    pinned = min(messages.pinned, count)
    released = range(pinned, max(pinned, min(messages.offset, count)))
    summarised_to = decision.summary.upto if decision.summary is not None else decision.head_end
    runs = [(released.start, Fate.SUMMARISED), (max(released.start, summarised_to), Fate.DROPPED)]
    return RequestRows(rows(0, pinned), released, rows(released.stop, count), runs)


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
    released = range(pinned, max(pinned, min(messages.offset, message_count)))
    head = rows(0, pinned)
    return RequestRows(head, released, rows(released.stop, message_count)), live_messages


__all__ = [
    "PREVIEW_CHARS",
    "RELEASED_KIND",
    "RELEASED_PREVIEW",
    "RequestRows",
    "describe",
    "message_row",
    "pipeline_rows",
    "preview",
    "recorded_rows",
]
