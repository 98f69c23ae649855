"""A request's per-script breakdown, built from memoised per-block breakdowns.

The detail of a request shows its text split by writing script
(:class:`~ctxscope.core.tokens.ScriptBreakdown`). Counting the whole request's text again for every
new request costs as much as the session is long; here each message's blocks are broken down once
(their elided text read back from the log, :func:`~ctxscope.core.fulltext.restore`; with the real
tokenizers' counts where the exact extra is installed) and a request's
breakdown is the sum over its messages (:func:`sum_breakdowns`), so a new request costs only its new
messages.

Blocks are broken down one by one, as :meth:`~ctxscope.core.model.Block.tokens` counts them, so the
breakdown's total is the text part of the raw estimate: a request's raw estimate (the sum of its
messages' :meth:`~ctxscope.core.model.Message.tokens`) is the breakdown's ``tokens`` plus
:func:`non_text_tokens` (message and tool-call overheads, tool names, images), when every elided
character was read back and the estimator is the one the reader counted with.

The memo is keyed by (scope, message index) and remembers the blocks it broke down: a message
amended across polls (:meth:`~ctxscope.core.session.Session.amend_last_message`) or reshaped by the
pipeline has other blocks and is broken down again. A live view drops the entries of the messages
its window released (:meth:`ScriptMemo.forget_released`), so the memo holds no more than the session.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from types import MappingProxyType

from .exact import with_exact_counts
from .fulltext import restore
from .model import MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, Block, BlockKind, Message, image_tokens
from .scripts import DISPLAY_CLASSES
from .session import Session
from .tokens import Estimator, ScriptBreakdown, ScriptCount


def sum_breakdowns(estimator: str, parts: Iterable[ScriptBreakdown]) -> ScriptBreakdown:
    """The breakdown of several texts taken together: characters and tokens added per class
    (``chars4`` is the ``ceil(chars / 4)`` of the summed characters; exact when every part is),
    and the real tokenizers' counts added per tokenizer."""
    chars = dict.fromkeys(DISPLAY_CLASSES, 0)
    tokens = dict.fromkeys(DISPLAY_CLASSES, 0)
    exact_counts: dict[str, int] = {}
    exact = True
    for part in parts:
        exact = exact and part.exact
        for tokenizer, exact_count in part.exact_counts.items():
            exact_counts[tokenizer] = exact_counts.get(tokenizer, 0) + exact_count
        for name, count in part.by_script.items():
            chars[name] = chars.get(name, 0) + count.chars
            tokens[name] = tokens.get(name, 0) + count.tokens
    total_chars = sum(chars.values())
    return ScriptBreakdown(
        estimator=estimator,
        chars=total_chars,
        tokens=sum(tokens.values()),
        chars4=math.ceil(total_chars / 4),
        by_script=MappingProxyType({k: ScriptCount(chars[k], tokens[k]) for k in chars}),
        exact=exact,
        exact_counts=MappingProxyType(exact_counts),
    )


def _has_text(block: Block) -> bool:
    return bool(block.text) and not (block.artifact is not None and block.is_image)


def non_text_tokens(message: Message, estimator: Estimator) -> int:
    """What :meth:`~ctxscope.core.model.Message.tokens` counts beyond its blocks' text: the message
    overhead, each tool call's name and overhead, each image's tokens."""
    tokens = MESSAGE_OVERHEAD_TOKENS
    for block in message.blocks:
        if block.artifact is not None and block.is_image:
            tokens += image_tokens(block.width, block.height, block.size_bytes)
        elif block.kind is BlockKind.TOOL_CALL:
            tokens += estimator.count(block.name) + TOOL_CALL_OVERHEAD_TOKENS
    return tokens


class ScriptMemo:
    """Per-message breakdowns of one session's messages, for one estimator (see the module)."""

    def __init__(self, estimator: Estimator) -> None:
        self.estimator = estimator
        self._entries: dict[str, dict[int, tuple[tuple[Block, ...], ScriptBreakdown, int]]] = {}
        """Per scope, per message index: the blocks broken down, their breakdown, and the raw
        estimate's tokens of the text that could not be read back."""

    def __len__(self) -> int:
        return sum(len(entries) for entries in self._entries.values())

    def __contains__(self, key: object) -> bool:
        """Whether a ``(scope id, message index)`` has an entry."""
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        return key[1] in self._entries.get(key[0], {})

    def message(self, session: Session, message: Message) -> ScriptBreakdown:
        """The breakdown of ``message``'s text (its elided text read back), memoised."""
        return self._entry(session, message)[1]

    def _entry(self, session: Session, message: Message) -> tuple[tuple[Block, ...], ScriptBreakdown, int]:
        entries = self._entries.setdefault(message.scope_id, {})
        entry = entries.get(message.index)
        if entry is not None and entry[0] == message.blocks:
            return entry
        blocks, missing = restore(session, message)
        estimator = self.estimator
        parts = [estimator.breakdown(b.text) if _has_text(b) else None for b in blocks]
        found = sum_breakdowns(estimator.name, (
            with_exact_counts(part, b.text) for b, part in zip(blocks, parts, strict=True) if part is not None
        ))
        unread = 0
        if missing:  # what the raw estimate gives these blocks beyond the text that was held
            counts = message.block_tokens(estimator)  # restore keeps the blocks' order
            for block, part, count in zip(blocks, parts, counts, strict=True):
                if block.elided_chars and part is not None:
                    unread += count - part.tokens - block.call_tokens(estimator)
        entry = entries[message.index] = (message.blocks, found, unread)
        return entry

    def request(self, session: Session, messages: Sequence[Message]) -> ScriptBreakdown:
        """The breakdown of a request's messages: the sum of theirs."""
        return sum_breakdowns(self.estimator.name, (self.message(session, m) for m in messages))

    def unread(self, session: Session, messages: Sequence[Message]) -> int:
        """The raw estimate's tokens of ``messages``' text the log no longer gives back (elided when
        read, and not found again): the part of the raw estimate the breakdown cannot show."""
        return sum(self._entry(session, m)[2] for m in messages)

    def framing(self, messages: Sequence[Message]) -> int:
        """What the raw estimate of ``messages`` counts beyond their text (:func:`non_text_tokens`)."""
        return sum(non_text_tokens(m, self.estimator) for m in messages)

    def forget_released(self, session: Session) -> None:
        """Drop the entries of the messages ``session`` no longer holds (a live window released
        them) and of the scopes it no longer has."""
        for scope_id in list(self._entries):
            scope = session.scopes.get(scope_id)
            entries = self._entries[scope_id]
            if scope is None:
                del self._entries[scope_id]
                continue
            held = scope.messages
            for index in [i for i in entries if not held.is_held(i)]:
                del entries[index]


__all__ = ["ScriptMemo", "non_text_tokens", "sum_breakdowns"]
