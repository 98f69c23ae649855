"""Search a scope's messages: which messages hold a query, and the model call that first sent each.

The dashboard's ``/`` asks here (in the tailer's thread): every stored message of the scope whose
text or tool names contain the query (case-insensitive), in order, each with the request that
first carried it — the first call made over a history that included it — so that stepping
through the hits (``n`` / ``N``) moves the request cursor. The text searched is what the reader
keeps in memory (``Block.text``; a block cut at the reader's ``text_cap`` is searched in its kept
part); nothing is read back from the log, so a search over a long session stays one pass in memory.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Final

from .session import Session

MAX_HITS: Final = 10_000
"""At most this many hits are returned (the first ones, in order)."""

CONTEXT_CHARS: Final = 60
"""Characters of the matching text kept around the hit for its one-line preview."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One message that holds the query.

    Attributes:
        message: The message's index in its scope's stored history.
        request: The first request whose history included it (-1: no call came after it yet).
        where: ``text`` (a block's text) or ``tool`` (a tool call's or result's name).
        preview: The match with some text around it (log text: show it literally).
    """

    message: int
    request: int
    where: str
    preview: str


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The hits of one query over one scope.

    Attributes:
        scope_id: The scope searched.
        query: The query, as typed.
        hits: The hits, in message order (at most :data:`MAX_HITS`).
        truncated: More messages matched than :data:`MAX_HITS`.
    """

    scope_id: str
    query: str
    hits: tuple[SearchHit, ...]
    truncated: bool = False


def _preview(text: str, at: int, length: int) -> str:
    start = max(0, at - CONTEXT_CHARS // 2)
    end = min(len(text), at + length + CONTEXT_CHARS // 2)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def search_messages(session: Session, scope_id: str, query: str) -> SearchResult:
    """Every message of ``scope_id`` whose text or tool names contain ``query`` (see module docs)."""
    scope = session.scopes.get(scope_id)
    needle = query.casefold()
    if scope is None or not needle:
        return SearchResult(scope_id, query, ())
    counts = [request.message_count for request in scope.requests]
    hits: list[SearchHit] = []
    for message in scope.messages:  # the held ones (a live view releases the oldest)
        found: tuple[str, str] | None = None
        for block in message.blocks:
            if block.name and needle in block.name.casefold():
                found = ("tool", block.name)
                break
            at = block.text.casefold().find(needle)
            if at >= 0:
                found = ("text", _preview(block.text, at, len(needle)))
                break
        if found is None:
            continue
        if len(hits) == MAX_HITS:
            return SearchResult(scope_id, query, tuple(hits), truncated=True)
        # The first call made over more than ``message.index`` messages carried this one.
        first = bisect_right(counts, message.index)
        hits.append(SearchHit(message.index, first if first < len(counts) else -1, *found))
    return SearchResult(scope_id, query, tuple(hits))
