"""Lexical retrieval: an incremental TF-IDF index with cosine similarity.

Scores are cosine similarities in [0, 1], so the seed's minimum retrieval score (0.08) has a fixed
meaning. The index only grows (messages never change once written) and every search can be limited
to the turns before a point in the session: document frequencies are then counted over those turns
only, so a search at turn T is exactly what an index built from turns < T would answer.

Weights: sublinear term frequency ``1 + ln(tf)`` times smoothed inverse document frequency
``ln((1 + n) / (1 + df)) + 1``.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .text import terms


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieval result.

    Attributes:
        turn: The message's turn.
        score: Cosine similarity with the query, in [0, 1].
    """

    turn: int
    score: float


class LexicalIndex:
    """An append-only TF-IDF index over messages keyed by turn."""

    def __init__(self) -> None:
        self._turns: list[int] = []
        self._postings: dict[str, tuple[list[int], list[int]]] = {}
        self._doc_terms: dict[int, dict[str, int]] = {}

    def __len__(self) -> int:
        return len(self._turns)

    def add(self, turn: int, text: str) -> dict[str, int]:
        """Index one message.

        Args:
            turn: Its turn; must be greater than every turn added before.
            text: Its content.

        Returns:
            The message's term frequencies.

        Raises:
            ValueError: When turns are added out of order.
        """
        if self._turns and turn <= self._turns[-1]:
            raise ValueError(f"turn {turn} added after turn {self._turns[-1]}")
        counts = dict(Counter(terms(text)))
        self._turns.append(turn)
        self._doc_terms[turn] = counts
        for term, tf in counts.items():
            posting = self._postings.get(term)
            if posting is None:
                posting = ([], [])
                self._postings[term] = posting
            posting[0].append(turn)
            posting[1].append(tf)
        return counts

    def term_counts(self, turn: int) -> dict[str, int]:
        """Term frequencies of an indexed message (empty for an unknown turn)."""
        return self._doc_terms.get(turn, {})

    def rare_terms(self, turn: int, *, before: int, at_most: int) -> int:
        """How many of a message's terms at most ``at_most`` messages before ``before`` use: what
        it says that the conversation seldom says (0 for an unknown turn)."""
        return sum(1 for term in self._doc_terms.get(turn, {}) if self._df(term, before) <= at_most)

    def postings(self) -> Iterable[tuple[str, int, int]]:
        """Every ``(term, turn, tf)`` entry, for persisting the index."""
        for term, (turns, tfs) in self._postings.items():
            for turn, tf in zip(turns, tfs, strict=True):
                yield term, turn, tf

    def _df(self, term: str, before: int | None) -> int:
        posting = self._postings.get(term)
        if posting is None:
            return 0
        return len(posting[0]) if before is None else bisect_left(posting[0], before)

    def search(
        self,
        query: str,
        *,
        top_k: int,
        min_score: float = 0.0,
        before: int | None = None,
        exclude: frozenset[int] = frozenset(),
    ) -> list[Hit]:
        """The messages most similar to ``query``.

        Args:
            query: The query text.
            top_k: Most hits to return.
            min_score: Hits scoring below this are dropped.
            before: Only turns strictly before this one are searched (and counted for IDF).
            exclude: Turns never returned.

        Returns:
            Hits, best first; ties go to the later turn.
        """
        n_docs = len(self._turns) if before is None else bisect_left(self._turns, before)
        if n_docs == 0 or top_k <= 0:
            return []
        idf_cache: dict[str, float] = {}

        def idf(term: str) -> float:
            value = idf_cache.get(term)
            if value is None:
                value = math.log((1 + n_docs) / (1 + self._df(term, before))) + 1.0
                idf_cache[term] = value
            return value

        query_weights = {
            term: (1.0 + math.log(tf)) * idf(term)
            for term, tf in Counter(terms(query)).items()
            if self._df(term, before) > 0
        }
        if not query_weights:
            return []
        query_norm = math.sqrt(sum(w * w for w in query_weights.values()))
        dots: dict[int, float] = {}
        for term, q_weight in query_weights.items():
            turns, tfs = self._postings[term]
            limit = len(turns) if before is None else bisect_left(turns, before)
            term_idf = idf(term)
            for i in range(limit):
                turn = turns[i]
                dots[turn] = dots.get(turn, 0.0) + q_weight * (1.0 + math.log(tfs[i])) * term_idf
        hits: list[Hit] = []
        for turn, dot in dots.items():
            if turn in exclude:
                continue
            doc = self._doc_terms[turn]
            norm = math.sqrt(sum(((1.0 + math.log(tf)) * idf(t)) ** 2 for t, tf in doc.items()))
            score = dot / (norm * query_norm) if norm else 0.0
            if score >= min_score:
                hits.append(Hit(turn, min(score, 1.0)))
        hits.sort(key=lambda h: (-h.score, -h.turn))
        return hits[:top_k]
