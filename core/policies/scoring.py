"""The seed's rule-based importance scorer (``importance-seed``), formula and weights exactly.

SPEC §4 restates the formula from "Sliding Windows Forget"::

    recency = exp(-age / 500)
    retrieval_frequency = log1p(retrieval_count) / log(10)
    score = role_signal * (0.13*recency + 0.18*persistence + 0.18*preference
                           + 0.15*entity_importance + 0.14*retrieval_frequency
                           + 0.12*contradiction_risk + 0.06*episodic_event + 0.04*length_signal)
    score -= 0.22 * noise
    score -= 0.32 * stale_marker * (1.0 - retrieval_frequency)

The formula, the weights and the recency and retrieval terms are the seed's. The seed names its
signals (durable phrasing, user preference, entity mentions, update terms, episodic terms, length,
role, stale markers, noise markers) but does not publish its keyword lists, so the cue lists below
are ours, written from those names. Each keyword signal is ``min(1, hits / 2)``; ``age`` is the
number of turns between the message and the query; ``retrieval_count`` is the memory store's own
count (:meth:`~.store.MemoryStore.retrieval_count`), never anything from an answer key.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final

from .records import PolicyMessage
from .text import STOP_WORDS, words

RECENCY_SCALE: Final = 500.0
W_RECENCY: Final = 0.13
W_PERSISTENCE: Final = 0.18
W_PREFERENCE: Final = 0.18
W_ENTITY: Final = 0.15
W_RETRIEVAL: Final = 0.14
W_CONTRADICTION: Final = 0.12
W_EPISODIC: Final = 0.06
W_LENGTH: Final = 0.04
W_NOISE: Final = 0.22
W_STALE: Final = 0.32

ROLE_SIGNAL: Final[dict[str, float]] = {"user": 1.0, "system": 0.9, "assistant": 0.7, "tool": 0.5}
"""Role signal per role (not published by the seed; users' words weigh most)."""

LENGTH_WORDS: Final = 50
"""A message of this many words or more has the full length signal."""


def _cues(*phrases: str) -> re.Pattern[str]:
    body = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9])(?:{body})(?![a-z0-9])")


PERSISTENCE_CUES: Final = _cues(
    "always", "never", "from now on", "going forward", "every time", "permanently", "by default",
    "default", "remember", "keep in mind", "note that", "make sure", "must", "policy", "rule",
    "constraint", "requirement", "for good", "standing",
)
PREFERENCE_CUES: Final = _cues(
    "prefer", "prefers", "preferred", "preference", "preferences", "like", "likes", "love", "hate",
    "favorite", "favourite", "rather", "want", "wants", "dislike", "allergic", "diet", "i'm a", "for me",
)
UPDATE_CUES: Final = _cues(
    "update", "updated", "change", "changed", "changes", "moved", "moves", "now", "instead",
    "no longer", "actually", "correction", "switch", "switched", "replaced", "not anymore", "new",
    "revised", "rescheduled", "postponed",
)
EPISODIC_CUES: Final = _cues(
    "yesterday", "today", "this morning", "last week", "last night", "earlier", "met", "meeting",
    "happened", "went", "visited", "call", "demo", "incident", "saw", "had",
)
STALE_CUES: Final = _cues(
    "used to", "previously", "formerly", "outdated", "obsolete", "deprecated", "old", "was",
    "no longer", "ignore", "superseded",
)
NOISE_CUES: Final = _cues(
    "thanks", "thank you", "ok", "okay", "lol", "haha", "brb", "cool", "sounds good", "good morning",
    "weather", "random", "btw", "nice", "np", "sure",
)

_CAPITALISED: Final = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z]+")
_NUMBER: Final = re.compile(r"\$?\d[\d,.:]*")


def _signal(pattern: re.Pattern[str], text: str) -> float:
    return min(1.0, len(pattern.findall(text)) / 2.0)


@dataclass(frozen=True, slots=True)
class SeedFeatures:
    """The seed scorer's per-message signals that do not change with time.

    Attributes:
        role_signal: Weight of the message's role.
        persistence: Durable phrasing.
        preference: User-preference wording.
        entity_importance: Named entities and figures mentioned.
        contradiction_risk: Update terms.
        episodic_event: Episodic terms.
        length_signal: Length, saturating at 50 words.
        stale_marker: Stale wording.
        noise: Chatter wording, or a message of fewer than four words.
    """

    role_signal: float
    persistence: float
    preference: float
    entity_importance: float
    contradiction_risk: float
    episodic_event: float
    length_signal: float
    stale_marker: float
    noise: float


def seed_features(message: PolicyMessage) -> SeedFeatures:
    """Compute a message's time-independent signals from its text and role.

    Args:
        message: The message.

    Returns:
        Its features.
    """
    text = message.content
    lower = text.lower()
    n_words = len(words(text))
    entities = [
        m for m in _CAPITALISED.findall(text) if m.lower() not in STOP_WORDS
    ] + _NUMBER.findall(text)
    noise = _signal(NOISE_CUES, lower)
    if n_words < 4:
        noise = 1.0
    return SeedFeatures(
        role_signal=ROLE_SIGNAL.get(message.role, 0.5),
        persistence=_signal(PERSISTENCE_CUES, lower),
        preference=_signal(PREFERENCE_CUES, lower),
        entity_importance=min(1.0, len(entities) / 3.0),
        contradiction_risk=_signal(UPDATE_CUES, lower),
        episodic_event=_signal(EPISODIC_CUES, lower),
        length_signal=min(1.0, n_words / LENGTH_WORDS),
        stale_marker=1.0 if STALE_CUES.search(lower) else 0.0,
        noise=noise,
    )


def seed_score(features: SeedFeatures, age: int, retrieval_count: int) -> float:
    """The seed's importance score.

    Args:
        features: The message's time-independent signals.
        age: Turns between the message and the query (0 or more).
        retrieval_count: How often the memory layer has retrieved the message so far.

    Returns:
        The score; higher means more worth keeping.
    """
    recency = math.exp(-max(age, 0) / RECENCY_SCALE)
    retrieval_frequency = math.log1p(retrieval_count) / math.log(10)
    f = features
    score = f.role_signal * (
        W_RECENCY * recency
        + W_PERSISTENCE * f.persistence
        + W_PREFERENCE * f.preference
        + W_ENTITY * f.entity_importance
        + W_RETRIEVAL * retrieval_frequency
        + W_CONTRADICTION * f.contradiction_risk
        + W_EPISODIC * f.episodic_event
        + W_LENGTH * f.length_signal
    )
    score -= W_NOISE * f.noise
    score -= W_STALE * f.stale_marker * (1.0 - retrieval_frequency)
    return score
