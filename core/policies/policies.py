"""The memory policies: what each would send for one query, within a budget.

Every policy implements :class:`Policy`: ``select(context) -> Selection``. A
:class:`PolicyContext` holds the :class:`~.store.MemoryStore` (the session's messages so far, their
index and retrieval counts), the query's turn, the query text and the :class:`~.records.Budget`.
That is all a policy can see.

=====================  =============================================================================
``full-history``       every earlier message (ignores the budget; no bound under one)
``sliding-window``     the newest messages that fit
``summary``            an incremental extractive summary (≤ 2,000 tokens) plus the newest messages
``retrieval``          up to 6 TF-IDF snippets scoring ≥ 0.08
``hybrid``             15 recent + summary + retrieved + pinned (system prompt, "remember ..." notes)
``adaptive``           picks its sources per query from how much of the query the recent window covers
``importance-seed``    the seed's scorer (:mod:`.scoring`), top messages by score
``focus``              recommended: question's evidence + statements in force + recent, superseded left out
=====================  =============================================================================
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol

from .claims import name_words, names_in
from .ledger import SupersessionTracker
from .lexicon import THIRD_PARTY, is_assertion
from .records import DEFAULT_RECENT, DEFAULT_SUMMARY_TOKENS, Budget, PolicyMessage, Selection
from .scoring import SeedFeatures, seed_features, seed_score
from .store import MemoryStore
from .summary import IncrementalSummary
from .text import terms, words

PIN_CUES: Final = re.compile(
    r"\bremember\b|\bkeep in mind\b|\bnote that\b|\bdon'?t forget\b|\bimportant:|\bpin this\b", re.IGNORECASE
)
"""Wording by which a user pins a message (the hybrid policy's pinned context)."""

ADAPTIVE_COVERAGE: Final = 0.6
"""Share of query terms the recent window must contain for the adaptive policy to stay recent."""

ADAPTIVE_WIDE_K: Final = 30
"""How many snippets the adaptive policy retrieves when the recent window does not cover the query."""


@dataclass(frozen=True, slots=True)
class PolicyContext:
    """Everything a policy may look at for one query.

    Attributes:
        store: The session's messages so far, indexed, with retrieval counts.
        at_turn: The query's turn; only messages before it are history.
        query: The query text.
        budget: What may be sent.
    """

    store: MemoryStore
    at_turn: int
    query: str
    budget: Budget

    def history(self) -> Sequence[PolicyMessage]:
        """Messages before the query, in order."""
        return self.store.history(before=self.at_turn)


class Policy(Protocol):
    """A memory policy."""

    name: ClassVar[str]
    description: ClassVar[str]

    def select(self, context: PolicyContext) -> Selection:
        """What the policy would send for this query."""
        ...


class _Packer:
    """Adds turns while the budget allows, remembering what it took."""

    def __init__(self, store: MemoryStore, budget: Budget, messages_used: int = 0, tokens_used: int = 0):
        self.store = store
        self.budget = budget
        self.messages = messages_used
        self.tokens = tokens_used
        self.taken: set[int] = set()

    def room(self) -> bool:
        return self.budget.messages is None or self.messages < self.budget.messages

    def add(self, turn: int) -> bool:
        """Take ``turn`` if it fits and is new; True when it was taken."""
        if turn in self.taken:
            return False
        cost = self.store.tokens(turn)
        if self.budget.messages is not None and self.messages + 1 > self.budget.messages:
            return False
        if self.budget.tokens is not None and self.tokens + cost > self.budget.tokens:
            return False
        self.taken.add(turn)
        self.messages += 1
        self.tokens += cost
        return True

    def add_all(self, turns: Iterable[int]) -> None:
        for turn in turns:
            if not self.room():
                return
            self.add(turn)

    def turns(self) -> tuple[int, ...]:
        return tuple(sorted(self.taken))


def _newest_first(history: Sequence[PolicyMessage]) -> Iterable[int]:
    return (m.turn for m in reversed(history))


SUMMARY_FRAME_TOKENS: Final = 16
"""Tokens set aside for the summary's heading and message framing, beyond its lines."""


def _summary_reserve(budget: Budget) -> tuple[int, int]:
    """Messages and tokens to set aside for a summary under ``budget``."""
    tokens = DEFAULT_SUMMARY_TOKENS
    if budget.tokens is not None:
        tokens = min(tokens, budget.tokens // 2)
    return 1, tokens


def _summary_cap(reserve_tokens: int) -> int:
    """The summary lines' cap inside a reserve (the frame takes the rest)."""
    return max(1, reserve_tokens - SUMMARY_FRAME_TOKENS)


class _SummaryKeeper:
    """An :class:`IncrementalSummary` folded up to a moving point, rebuilt if asked to go back."""

    def __init__(self) -> None:
        self.summary = IncrementalSummary()

    def through(
        self, history: Sequence[PolicyMessage], end: int, cap_tokens: int, estimator: str | None
    ) -> IncrementalSummary:
        """The summary of ``history[:end]``, counted with ``estimator`` (the store's)."""
        if cap_tokens != self.summary.cap_tokens or estimator != self.summary.estimator or (
            end > 0 and self.summary.folded_through > history[end - 1].turn
        ) or (end == 0 and self.summary.folded_through >= 0):
            self.summary = IncrementalSummary(cap_tokens, estimator)
        for message in history[:end]:
            if message.turn > self.summary.folded_through:
                self.summary.fold(message)
        return self.summary


def _summary_tokens(summary: IncrementalSummary) -> int:
    return summary.tokens + SUMMARY_FRAME_TOKENS if summary.lines else 0


class FullHistory:
    """Every earlier message, whatever the budget."""

    name: ClassVar[str] = "full-history"
    description: ClassVar[str] = "every earlier message; ignores the budget"

    def select(self, context: PolicyContext) -> Selection:
        history = context.history()
        turns = tuple(m.turn for m in history)
        tokens = sum(context.store.tokens(t) for t in turns)
        budget = context.budget
        over = (budget.messages is not None and len(turns) > budget.messages) or (
            budget.tokens is not None and tokens > budget.tokens
        )
        return Selection(self.name, turns, tokens=tokens, over_budget=over)


class SlidingWindow:
    """The newest messages that fit."""

    name: ClassVar[str] = "sliding-window"
    description: ClassVar[str] = "the newest messages that fit the budget"

    def select(self, context: PolicyContext) -> Selection:
        packer = _Packer(context.store, context.budget)
        for turn in _newest_first(context.history()):
            if not packer.add(turn):
                break
        return Selection(self.name, packer.turns(), tokens=packer.tokens)


class SummaryPolicy:
    """An incremental summary of everything older than the window, plus the newest messages."""

    name: ClassVar[str] = "summary"
    description: ClassVar[str] = "incremental summary (≤ 2,000 tokens) + the newest messages"

    def __init__(self) -> None:
        self._keeper = _SummaryKeeper()

    def select(self, context: PolicyContext) -> Selection:
        history = context.history()
        reserve_msgs, reserve_tokens = _summary_reserve(context.budget)
        packer = _Packer(context.store, context.budget, reserve_msgs, reserve_tokens)
        start = len(history)
        for message in reversed(history):
            if not packer.add(message.turn):
                break
            start -= 1
        summary = self._keeper.through(
            history, start, _summary_cap(reserve_tokens), context.store.estimator
        )
        text = summary.text()
        return Selection(
            self.name,
            packer.turns(),
            summary_turns=summary.turns(),
            summary=text,
            tokens=packer.tokens - reserve_tokens + _summary_tokens(summary),
        )


class Retrieval:
    """Lexical retrieval only: up to 6 snippets scoring at least 0.08."""

    name: ClassVar[str] = "retrieval"
    description: ClassVar[str] = "TF-IDF retrieval: up to 6 snippets with cosine ≥ 0.08"

    def select(self, context: PolicyContext) -> Selection:
        hits = context.store.retrieve_for_query(context.at_turn, context.query)
        packer = _Packer(context.store, context.budget)
        packer.add_all(h.turn for h in hits)
        retrieved = tuple(h.turn for h in hits)
        return Selection(self.name, packer.turns(), tokens=packer.tokens, retrieved=retrieved)


def _pinned(history: Sequence[PolicyMessage]) -> list[int]:
    """Pinned context, newest first: the system prompt(s) and messages the user asked to remember."""
    pinned = [
        m.turn for m in history if m.role == "system" or (m.role == "user" and PIN_CUES.search(m.content))
    ]
    return pinned[::-1]


def _system_turns(history: Sequence[PolicyMessage]) -> frozenset[int]:
    return frozenset(m.turn for m in history if m.role == "system")


class Hybrid:
    """15 recent messages + summary + retrieved snippets + pinned context.

    Under a tight budget the system prompt goes first, then the recent messages, the retrieved
    snippets, the user's pinned notes, and the summary in the room set aside for it.
    """

    name: ClassVar[str] = "hybrid"
    description: ClassVar[str] = "15 recent + summary + 6 retrieved + pinned"

    def __init__(self, recent: int = DEFAULT_RECENT) -> None:
        self.recent = recent
        self._keeper = _SummaryKeeper()

    def select(self, context: PolicyContext) -> Selection:
        history = context.history()
        reserve_msgs, reserve_tokens = _summary_reserve(context.budget)
        packer = _Packer(context.store, context.budget, reserve_msgs, reserve_tokens)
        pinned = _pinned(history)
        packer.add_all(t for t in pinned if t in _system_turns(history))
        packer.add_all([m.turn for m in history[-self.recent :]][::-1])
        hits = context.store.retrieve_for_query(context.at_turn, context.query)
        packer.add_all(h.turn for h in hits)
        packer.add_all(pinned)
        start = max(0, len(history) - self.recent)
        summary = self._keeper.through(
            history, start, _summary_cap(reserve_tokens), context.store.estimator
        )
        return Selection(
            self.name,
            packer.turns(),
            summary_turns=summary.turns(),
            summary=summary.text(),
            tokens=packer.tokens - reserve_tokens + _summary_tokens(summary),
            retrieved=tuple(h.turn for h in hits),
        )


class Adaptive:
    """Chooses its sources per query.

    When the recent window already contains most of the query's terms, the query is about the
    current thread: the newest messages fill the budget, with the usual 6 retrieved snippets. When
    it does not, the query reaches back: 15 recent messages, a wide retrieval (30 snippets at the
    same minimum score), the summary, then the newest messages for what room is left.
    """

    name: ClassVar[str] = "adaptive"
    description: ClassVar[str] = "per query: recent-heavy, or wide retrieval + summary"

    def __init__(self, recent: int = DEFAULT_RECENT) -> None:
        self.recent = recent
        self._keeper = _SummaryKeeper()

    def select(self, context: PolicyContext) -> Selection:
        history = context.history()
        store = context.store
        query_terms = set(terms(context.query))
        recent_terms: set[str] = set()
        for message in history[-self.recent :]:
            recent_terms.update(store.index.term_counts(message.turn))
        coverage = len(query_terms & recent_terms) / len(query_terms) if query_terms else 1.0
        hits = store.retrieve_for_query(context.at_turn, context.query)
        if coverage >= ADAPTIVE_COVERAGE:
            packer = _Packer(store, context.budget)
            packer.add_all(h.turn for h in hits)
            packer.add_all(_newest_first(history))
            return Selection(
                self.name, packer.turns(), tokens=packer.tokens, retrieved=tuple(h.turn for h in hits),
                notes=(f"recent: the window covers {coverage:.0%} of the query",),
            )
        reserve_msgs, reserve_tokens = _summary_reserve(context.budget)
        packer = _Packer(store, context.budget, reserve_msgs, reserve_tokens)
        packer.add_all([m.turn for m in history[-self.recent :]][::-1])
        wide = store.search(
            context.query, before=context.at_turn, top_k=ADAPTIVE_WIDE_K, min_score=store.min_score
        )
        packer.add_all(h.turn for h in hits)
        packer.add_all(h.turn for h in wide)
        start = max(0, len(history) - self.recent)
        summary = self._keeper.through(
            history, start, _summary_cap(reserve_tokens), context.store.estimator
        )
        packer.add_all(_newest_first(history[:start]))
        return Selection(
            self.name,
            packer.turns(),
            summary_turns=summary.turns(),
            summary=summary.text(),
            tokens=packer.tokens - reserve_tokens + _summary_tokens(summary),
            retrieved=tuple(dict.fromkeys([h.turn for h in hits] + [h.turn for h in wide])),
            notes=(f"recall: the window covers {coverage:.0%} of the query; wide retrieval + summary",),
        )


class ImportanceSeed:
    """The seed's importance scorer: the top messages by score.

    Args:
        save_scores: Record each query's scores in the store's ``scores`` table.
    """

    name: ClassVar[str] = "importance-seed"
    description: ClassVar[str] = "the seed's rule-based importance score, top messages"

    def __init__(self, save_scores: bool = False) -> None:
        self.save_scores = save_scores
        self._features: dict[int, SeedFeatures] = {}

    def scores(self, context: PolicyContext) -> dict[int, float]:
        """Every earlier message's score at this query."""
        store = context.store
        scores: dict[int, float] = {}
        for message in context.history():
            features = self._features.get(message.turn)
            if features is None:
                features = seed_features(message)
                self._features[message.turn] = features
            age = context.at_turn - message.turn
            scores[message.turn] = seed_score(features, age, store.retrieval_count(message.turn))
        return scores

    def select(self, context: PolicyContext) -> Selection:
        # the memory layer retrieves for this call first, as in the seed's runtime path
        context.store.retrieve_for_query(context.at_turn, context.query)
        scores = self.scores(context)
        if self.save_scores:
            context.store.save_scores(self.name, context.at_turn, scores)
        packer = _Packer(context.store, context.budget)
        for turn in sorted(scores, key=lambda t: (-scores[t], -t)):
            if not packer.room():
                break
            packer.add(turn)
        return Selection(self.name, packer.turns(), tokens=packer.tokens)


_FACT_LIKE_VALUE: Final = re.compile(r"\d|\$")


FOCUS_QUERY_SHARE: Final = 0.5
"""Share of the budget the recommended policy first spends on the question's own evidence."""

FOCUS_QUERY_K: Final = 60
"""Snippets the recommended policy retrieves for the question at most."""

FOCUS_RARE_DF: Final = 2
"""A term at most this many messages before the question use (the statement itself included) is
one the conversation seldom uses: what makes a statement particular rather than routine."""


def _content(history: Sequence[PolicyMessage], turn: int) -> str:
    """The text of the message at ``turn`` (``history`` is in turn order)."""
    at = bisect_left(history, turn, key=lambda m: m.turn)
    return history[at].content if at < len(history) and history[at].turn == turn else ""


def _only_asks(text: str) -> bool:
    """Whether every sentence of a message is a question: it asks, it carries no state."""
    parts = _SENTENCE_END.split(text.strip())
    return bool(text.strip()) and all(p.rstrip().endswith("?") for p in parts if p)


_SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s+")


def _particularity(store: MemoryStore, turn: int, at_turn: int) -> float:
    """How much a message says that the conversation seldom says, per token it costs: its rare
    terms (:data:`FOCUS_RARE_DF`) ÷ its tokens."""
    rare = store.index.rare_terms(turn, before=at_turn, at_most=FOCUS_RARE_DF)
    return rare / max(1, store.tokens(turn))


class Focus:
    """The recommended policy: the state in force, the question's evidence, the recent thread.

    It is built on properties of language and conversation, not on any one dataset's facts, and
    fills the budget in this order, leaving out at every step what the supersession tracker
    (:mod:`.ledger`) judged replaced by a later statement of the same speaker or about the same
    subject and attribute — even when retrieval or recency brings it back:

    1. the system prompt;
    2. retrieval against the current question (TF-IDF, best first) up to
       :data:`FOCUS_QUERY_SHARE` of the budget;
    3. every claim in force per subject and kind of value: those about the question's subjects
       first, then the most particular per token (the terms the conversation seldom uses, per
       token: a statement of something specific before one of routine), then the newest;
    4. statements of no kind the session taught that are worded as a change ("I'm vegan now");
    5. the 15 most recent messages;
    6. the rest of the question's retrieval;
    7. the newest statements that look factual (a name or a figure; not a question, hedge,
       episode or someone else's habit), from any speaker;
    8. the newest remaining messages, until the budget is spent.

    Args:
        recent: Recent messages kept.
    """

    name: ClassVar[str] = "focus"
    description: ClassVar[str] = (
        "recommended: question's evidence + claims in force + recent; superseded statements left out"
    )

    def __init__(self, recent: int = DEFAULT_RECENT) -> None:
        self.recent = recent
        self.tracker = SupersessionTracker()
        self._shape: dict[int, _FactShape | None] = {}
        """Per turn, what its text alone says about looking factual (None: it cannot)."""
        self._named: set[int] = set()
        """Turns that mention a name learnt so far (names are only ever added)."""

    def _catch_up(self, history: Sequence[PolicyMessage], at_turn: int) -> None:
        if self.tracker.read_through >= at_turn:  # asked about an earlier point: read again
            self.tracker = SupersessionTracker()
            self._named = set()
        lo = len(history)
        while lo > 0 and history[lo - 1].turn > self.tracker.read_through:
            lo -= 1
        self.tracker.read_many(history[lo:])

    def select(self, context: PolicyContext) -> Selection:
        history = context.history()
        self._catch_up(history, context.at_turn)
        ledger = self.tracker.ledger
        stale = ledger.superseded
        store = context.store
        budget = context.budget
        packer = _Packer(store, budget)

        def add_fresh(turns: Iterable[int]) -> None:
            packer.add_all(t for t in turns if t not in stale)

        add_fresh(sorted(_system_turns(history)))
        counted = store.retrieve_for_query(context.at_turn, context.query)
        wide = store.search(context.query, before=context.at_turn, top_k=FOCUS_QUERY_K, min_score=0.0)
        ranked = list(dict.fromkeys([h.turn for h in counted] + [h.turn for h in wide]))
        if budget.tokens is not None:
            share_tokens = int(FOCUS_QUERY_SHARE * budget.tokens)
            for turn in ranked:
                if packer.tokens >= share_tokens or not packer.room():
                    break
                if turn not in stale and not _only_asks(_content(history, turn)):
                    packer.add(turn)
        else:
            share_messages = int(FOCUS_QUERY_SHARE * (budget.messages or len(ranked)))
            add_fresh(ranked[:share_messages])
        about = {n.lower() for n in names_in(context.query, self.tracker.names)}
        in_force: dict[int, bool] = {}
        for (subject, _kind), turns in ledger.current.items():
            for turn in turns:
                in_force[turn] = in_force.get(turn, False) or subject in about
        particular = {t: _particularity(store, t, context.at_turn) for t in in_force}
        add_fresh(sorted(in_force, key=lambda t: (not in_force[t], -particular[t], -t)))
        # statements of no kind the session taught, worded as a change ("I'm vegan now")
        add_fresh(sorted(
            (t for turns in ledger.open_claims.values() for t in turns if ledger.claims[t].change),
            reverse=True,
        ))
        add_fresh(m.turn for m in reversed(history[-self.recent :]))
        add_fresh(ranked)
        names = self.tracker.names
        lower_names = {n.lower() for n in names}
        add_fresh(m.turn for m in reversed(history) if self._looks_factual(m, names, lower_names))
        add_fresh(_newest_first(history))
        dropped = tuple(sorted(t for t in stale if t < context.at_turn))
        return Selection(
            self.name,
            packer.turns(),
            tokens=packer.tokens,
            retrieved=tuple(ranked),
            dropped_stale=dropped,
        )

    def _looks_factual(self, message: PolicyMessage, names: set[str], lower_names: set[str]) -> bool:
        """A statement that sets no learnt value but names someone or gives a figure."""
        turn = message.turn
        if turn in self._shape:
            shape = self._shape[turn]
        else:
            shape = self._shape[turn] = _fact_shape(message)
        if shape is None:
            return False
        claim = self.tracker.ledger.claims.get(turn)
        if claim is not None and claim.values:
            return False
        if shape.figure or turn in self._named:
            return True
        if not shape.words.isdisjoint(lower_names if shape.lowered else names):
            self._named.add(turn)
            return True
        return False


@dataclass(frozen=True, slots=True)
class _FactShape:
    """What a message's text alone says about whether it looks factual.

    Attributes:
        figure: It gives a figure (a digit or an amount).
        lowered: It is typed all in lower case (names are then matched case-insensitively).
        words: The capitalisable words that would be names (lower-case when ``lowered``).
    """

    figure: bool
    lowered: bool
    words: frozenset[str]


def _fact_shape(message: PolicyMessage) -> _FactShape | None:
    """The text's part of :meth:`Focus._looks_factual`, or None when the text rules it out (an
    assistant's message, under four words, not an assertion, someone else's habit)."""
    text = message.content
    if message.role == "assistant" or len(words(text)) < 4:
        return None
    if not is_assertion(text) or THIRD_PARTY.search(text):
        return None
    lowered = text == text.lower()
    candidates = frozenset(word.lower() if lowered else word for word in name_words(text))
    return _FactShape(_FACT_LIKE_VALUE.search(text) is not None, lowered, candidates)


POLICY_TYPES: Final[tuple[type[Policy], ...]] = (
    FullHistory,
    SlidingWindow,
    SummaryPolicy,
    Retrieval,
    Hybrid,
    Adaptive,
    ImportanceSeed,
    Focus,
)
POLICY_NAMES: Final[tuple[str, ...]] = tuple(t.name for t in POLICY_TYPES)
"""Every policy's name, in the order reports list them."""

RECOMMENDED: Final = Focus.name
"""The policy the lab recommends (docs/policies.md shows where it stands on each dataset)."""


def make_policies(names: Sequence[str] | None = None) -> list[Policy]:
    """Fresh policy instances.

    Args:
        names: Policy names (default: all, in :data:`POLICY_NAMES` order).

    Returns:
        The policies.

    Raises:
        ValueError: For an unknown name.
    """
    by_name = {t.name: t for t in POLICY_TYPES}
    chosen = list(names) if names is not None else list(POLICY_NAMES)
    unknown = [n for n in chosen if n not in by_name]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; known: {', '.join(POLICY_NAMES)}")
    return [by_name[n]() for n in chosen]
