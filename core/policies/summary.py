"""An incremental extractive summary capped in tokens, as a summarising memory would keep.

There is no model here, so "summarising" is extractive: each message that states something (not a
question, not chatter) becomes one short line — its first sentence, cut to 25 words — and the lines
are merged into the running summary as messages leave the recent window. When the summary outgrows
its cap (2,000 tokens by default) the oldest lines go first. That is the failure mode the seed names
on purpose: the summary silently loses old constraints, and it does not know that a later line
contradicts an earlier one, so stale lines stay until they are pushed out.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Final

from .records import DEFAULT_SUMMARY_TOKENS, PolicyMessage
from .text import first_sentence, words

LINE_WORDS: Final = 25
"""Most words of one summary line."""

MIN_WORDS: Final = 4
"""Messages shorter than this are treated as chatter and not summarised."""


@dataclass(frozen=True, slots=True)
class SummaryLine:
    """One line of the summary and the turn it stands for.

    Attributes:
        turn: The message the line came from.
        text: The line as it appears in the summary.
        tokens: Its estimated tokens.
    """

    turn: int
    text: str
    tokens: int


def summary_worthy(message: PolicyMessage) -> bool:
    """Whether a message states something a summary should record.

    Args:
        message: A stored message.

    Returns:
        False for assistant and tool messages, questions and short chatter.
    """
    if message.role not in ("user", "system"):
        return False
    text = message.content.strip()
    return not text.endswith("?") and len(words(text)) >= MIN_WORDS


class IncrementalSummary:
    """A running summary that messages are folded into in order.

    Args:
        cap_tokens: Most tokens the summary may hold.
        estimator: The token estimator its lines are counted with (``None``: the default).
    """

    def __init__(self, cap_tokens: int = DEFAULT_SUMMARY_TOKENS, estimator: str | None = None) -> None:
        self.cap_tokens = cap_tokens
        self.estimator = estimator
        self.lines: deque[SummaryLine] = deque()
        self.tokens = 0
        self.folded_through = -1
        """The last turn folded in (-1 before any)."""

    def fold(self, message: PolicyMessage) -> None:
        """Merge one message into the summary (messages must come in turn order).

        Args:
            message: The next message leaving the recent window.
        """
        from ..tokens import DEFAULT_ESTIMATOR, estimate_tokens

        if message.turn <= self.folded_through:
            return
        self.folded_through = message.turn
        if not summary_worthy(message):
            return
        text = f"[{message.turn}] {first_sentence(message.content, LINE_WORDS)}"
        line = SummaryLine(message.turn, text, estimate_tokens(text, self.estimator or DEFAULT_ESTIMATOR) + 1)
        self.lines.append(line)
        self.tokens += line.tokens
        while self.tokens > self.cap_tokens and self.lines:
            self.tokens -= self.lines.popleft().tokens

    def text(self) -> str:
        """The summary as sent to the model (empty when nothing was summarised)."""
        if not self.lines:
            return ""
        return "Summary of earlier conversation:\n" + "\n".join(line.text for line in self.lines)

    def turns(self) -> tuple[int, ...]:
        """Turns whose content the summary carries, ascending."""
        return tuple(line.turn for line in self.lines)
