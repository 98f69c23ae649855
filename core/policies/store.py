"""The memory store: messages, the lexical index, scores and retrieval counts in SQLite.

This is the seed's runtime path — store messages, index memory, retrieve, record usage — with
stdlib :mod:`sqlite3` underneath so a benchmark run can be inspected afterwards (pass a file path)
or kept in memory (``":memory:"``, the default). Reads during a run come from in-memory mirrors, so
SQLite never sits on the hot path; :meth:`MemoryStore.flush` writes what is pending.

Retrieval counts are the store's own: each query the memory layer answers (see
:meth:`MemoryStore.retrieve_for_query`) retrieves once — top 6, minimum score 0.08 — and every
message it returns has its count raised by one. Nothing outside the session's own text feeds them.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .lexical import Hit, LexicalIndex
from .records import DEFAULT_MIN_SCORE, DEFAULT_TOP_K, PolicyMessage

MESSAGE_OVERHEAD_TOKENS: Final = 4
"""Tokens a chat format spends per message on role markers and separators."""

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS messages (
    turn INTEGER PRIMARY KEY, role TEXT NOT NULL, content TEXT NOT NULL, tokens INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS postings (term TEXT NOT NULL, turn INTEGER NOT NULL, tf INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS retrievals (
    query_turn INTEGER NOT NULL, turn INTEGER NOT NULL, score REAL NOT NULL);
CREATE TABLE IF NOT EXISTS retrieval_counts (turn INTEGER PRIMARY KEY, count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS scores (
    policy TEXT NOT NULL, at_turn INTEGER NOT NULL, turn INTEGER NOT NULL, score REAL NOT NULL);
"""


def message_tokens(content: str, estimator: str | None = None) -> int:
    """Estimated tokens of one message in a request (content plus per-message overhead).

    Args:
        content: The message text.
        estimator: The token estimator's name (a log's own, in the dashboard's policy lab);
            ``None`` for the default.

    Returns:
        The estimate.
    """
    from ..tokens import DEFAULT_ESTIMATOR, estimate_tokens

    return estimate_tokens(content, estimator or DEFAULT_ESTIMATOR) + MESSAGE_OVERHEAD_TOKENS


class MemoryStore:
    """Messages of one session, indexed for retrieval, with retrieval counts and scores.

    Args:
        path: A SQLite database file, or ``":memory:"``.
        top_k: Snippets each retrieval returns at most.
        min_score: Minimum cosine similarity of a retrieved snippet.
        estimator: The token estimator the messages and the summary are counted with (``None``:
            the default; the benchmarks use it, the policy lab passes the log's own).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = ":memory:",
        *,
        top_k: int = DEFAULT_TOP_K,
        min_score: float = DEFAULT_MIN_SCORE,
        estimator: str | None = None,
    ) -> None:
        self.path = os.fspath(path)
        self.estimator = estimator
        self.top_k = top_k
        self.min_score = min_score
        self.db = sqlite3.connect(self.path)
        self.db.executescript(SCHEMA)
        self.index = LexicalIndex()
        self.messages: list[PolicyMessage] = []
        self._tokens: dict[int, int] = {}
        self._counts: dict[int, int] = {}
        self._answered: dict[tuple[int, str], tuple[Hit, ...]] = {}
        self._pending_messages: list[tuple[int, str, str, int]] = []
        self._pending_postings: list[tuple[str, int, int]] = []
        self._pending_retrievals: list[tuple[int, int, float]] = []

    def close(self) -> None:
        """Flush and close the database."""
        self.flush()
        self.db.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------------------------

    def add(self, message: PolicyMessage) -> None:
        """Store and index one message.

        Args:
            message: The next message; its turn must be greater than every stored turn.

        Raises:
            ValueError: When turns arrive out of order.
        """
        counts = self.index.add(message.turn, message.content)
        tokens = message_tokens(message.content, self.estimator)
        self.messages.append(message)
        self._tokens[message.turn] = tokens
        self._pending_messages.append((message.turn, message.role, message.content, tokens))
        self._pending_postings.extend((term, message.turn, tf) for term, tf in counts.items())

    def add_many(self, messages: Iterable[PolicyMessage]) -> None:
        """Store and index messages in order."""
        for message in messages:
            self.add(message)

    def flush(self) -> None:
        """Write pending messages, postings, retrievals and counts to SQLite."""
        with self.db:
            self.db.executemany("INSERT INTO messages VALUES (?, ?, ?, ?)", self._pending_messages)
            self.db.executemany("INSERT INTO postings VALUES (?, ?, ?)", self._pending_postings)
            self.db.executemany("INSERT INTO retrievals VALUES (?, ?, ?)", self._pending_retrievals)
            self.db.executemany(
                "INSERT OR REPLACE INTO retrieval_counts VALUES (?, ?)", sorted(self._counts.items())
            )
        self._pending_messages.clear()
        self._pending_postings.clear()
        self._pending_retrievals.clear()

    def save_scores(self, policy: str, at_turn: int, scores: Mapping[int, float]) -> None:
        """Record the scores a policy gave at one point of the session.

        Args:
            policy: The policy's name.
            at_turn: The query turn the scores were computed for.
            scores: Score per message turn.
        """
        with self.db:
            self.db.executemany(
                "INSERT INTO scores VALUES (?, ?, ?, ?)",
                [(policy, at_turn, turn, score) for turn, score in scores.items()],
            )

    # -- retrieval ------------------------------------------------------------------------------

    def retrieve_for_query(self, at_turn: int, query: str) -> tuple[Hit, ...]:
        """The memory layer's retrieval for the model call answering ``query`` at ``at_turn``.

        Searches the messages before ``at_turn``. The first call for a given ``(at_turn, query)``
        raises the retrieval count of each hit; later calls (other policies building their context
        for the same model call) get the same hits without counting again.

        Args:
            at_turn: The turn of the query (only earlier turns are searched).
            query: The query text.

        Returns:
            Up to ``top_k`` hits scoring at least ``min_score``, best first.
        """
        key = (at_turn, query)
        found = self._answered.get(key)
        if found is None:
            found = tuple(
                self.index.search(query, top_k=self.top_k, min_score=self.min_score, before=at_turn)
            )
            self._answered[key] = found
            for hit in found:
                self._counts[hit.turn] = self._counts.get(hit.turn, 0) + 1
                self._pending_retrievals.append((at_turn, hit.turn, hit.score))
        return found

    def search(self, query: str, *, before: int, top_k: int, min_score: float) -> list[Hit]:
        """A retrieval that is not counted (a policy's private look-up).

        Args:
            query: The query text.
            before: Only turns before this one are searched.
            top_k: Most hits.
            min_score: Minimum cosine similarity.

        Returns:
            Hits, best first.
        """
        return self.index.search(query, top_k=top_k, min_score=min_score, before=before)

    # -- reading --------------------------------------------------------------------------------

    def tokens(self, turn: int) -> int:
        """Estimated tokens of a stored message."""
        return self._tokens[turn]

    def retrieval_count(self, turn: int) -> int:
        """How often the memory layer has retrieved a message so far."""
        return self._counts.get(turn, 0)

    def history(self, before: int | None = None) -> Sequence[PolicyMessage]:
        """Stored messages in order, optionally only those before a turn."""
        if before is None:
            return self.messages
        lo, hi = 0, len(self.messages)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.messages[mid].turn < before:
                lo = mid + 1
            else:
                hi = mid
        return self.messages[:lo]

    def db_counts(self) -> dict[str, int]:
        """Row counts of each table (after a flush), for inspection and tests."""
        tables = ("messages", "postings", "retrievals", "retrieval_counts", "scores")
        return {t: int(self.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in tables}
