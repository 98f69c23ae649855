"""The records a memory policy sees and returns.

A policy sees :class:`PolicyMessage` s — ``(turn, role, content)`` and, in a conversation between
several people, the ``speaker`` — and nothing else: a query string
and a :class:`Budget`. It returns a :class:`Selection`: the turns it would send verbatim, the turns a
summary it built stands for, and what that costs in tokens. None of these types has a field for a
label, a flag or a score from an answer key; the answer key lives in :mod:`.answer_key`, which no
policy module imports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

ROLES: Final[frozenset[str]] = frozenset({"system", "user", "assistant", "tool"})
"""Roles a policy message may have."""

DEFAULT_RECENT: Final = 15
"""Recent messages the hybrid context builder keeps (the seed's default)."""

DEFAULT_TOP_K: Final = 6
"""Retrieved prior snippets at most (the seed's default)."""

DEFAULT_MIN_SCORE: Final = 0.08
"""Minimum retrieval score, TF-IDF cosine similarity (the seed's default)."""

DEFAULT_SUMMARY_TOKENS: Final = 2000
"""Cap of the incremental summary in tokens (the seed's default)."""

DEFAULT_BUDGET_MESSAGES: Final = 600
"""Message budget of the seed's published benchmark."""


@dataclass(frozen=True, slots=True)
class PolicyMessage:
    """One message of a session as a policy sees it.

    Attributes:
        turn: Position in the session, 1-based and strictly increasing (not necessarily dense).
        role: ``system``, ``user``, ``assistant`` or ``tool``.
        content: The message text.
        speaker: Who wrote it, when a conversation has several people in one role (OpenAI's
            ``name``); empty when the role says enough. "I" in a message is its speaker.
    """

    turn: int
    role: str
    content: str
    speaker: str = ""

    def __post_init__(self) -> None:
        if self.turn < 0:
            raise ValueError(f"turn must be non-negative, got {self.turn}")
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {sorted(ROLES)}, got {self.role!r}")


@dataclass(frozen=True, slots=True)
class Budget:
    """What a policy may send: a number of messages, of tokens, or both.

    Attributes:
        messages: Most messages (a summary counts as one); None for no limit.
        tokens: Most tokens (estimated); None for no limit.
    """

    messages: int | None = DEFAULT_BUDGET_MESSAGES
    tokens: int | None = None

    def __post_init__(self) -> None:
        if self.messages is not None and self.messages < 1:
            raise ValueError("a message budget must be at least 1")
        if self.tokens is not None and self.tokens < 1:
            raise ValueError("a token budget must be at least 1")

    def label(self) -> str:
        """A short human description such as ``600 msgs`` or ``600 msgs / 20000 tok``."""
        parts = []
        if self.messages is not None:
            parts.append(f"{self.messages} msgs")
        if self.tokens is not None:
            parts.append(f"{self.tokens} tok")
        return " / ".join(parts) or "unlimited"


@dataclass(frozen=True, slots=True)
class Selection:
    """What one policy would send for one query.

    Attributes:
        policy: The policy's name.
        turns: Turns sent verbatim, ascending.
        summary_turns: Turns whose content the summary carries (a summary line per turn), ascending.
        summary: The summary text (empty when the policy builds none).
        tokens: Estimated tokens of everything sent (verbatim messages plus the summary).
        retrieved: Turns the policy's own lexical retrieval returned for this query (a subset may
            have been dropped, e.g. as superseded).
        dropped_stale: Turns the policy itself judged superseded and left out (only policies that
            track supersession fill this).
        over_budget: True when the policy ignores the budget by design (full history).
    """

    policy: str
    turns: tuple[int, ...]
    summary_turns: tuple[int, ...] = ()
    summary: str = ""
    tokens: int = 0
    retrieved: tuple[int, ...] = ()
    dropped_stale: tuple[int, ...] = ()
    over_budget: bool = False
    notes: tuple[str, ...] = field(default=())
    """Short remarks from the policy (e.g. which sources the adaptive policy chose)."""

    @property
    def kept(self) -> frozenset[int]:
        """Every turn whose content reaches the model, verbatim or through the summary."""
        return frozenset(self.turns) | frozenset(self.summary_turns)

    @property
    def message_count(self) -> int:
        """Messages sent: the verbatim ones plus one for a summary."""
        return len(self.turns) + (1 if self.summary else 0)
