"""Full text: a message's blocks with every character the reader elided read back from the log.

A reader keeps at most ``text_cap`` characters of a block in memory (``Block.elided_chars`` counts
the rest) and the byte offset of every line (:meth:`~ctxscope.core.session.Session.raw_line`).
What needs every character — the per-script breakdown of a request, the memory-policy lab — asks
here: the message's log line is read again (one ``pread``), parsed, and the string the block was
cut from is found in it: the value whose length is the block's full length and that starts with
the kept text (also inside a JSON-encoded string value, as Codex writes tool output; an object
as compact JSON; a list's text parts joined). Nothing is
kept: the full text lives only as long as the caller holds it, so memory stays bounded.

When the line cannot be read back (the file changed or is gone, or no value matches because the
adapter joined several values) the kept text is used, and :class:`FullText` says how many
characters are still missing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import orjson

from .adapters._common import json_text, text_of
from .model import Block, Message
from .session import Session

if TYPE_CHECKING:  # the policy lab's package is imported only by its caller
    from .policies.records import PolicyMessage

MAX_LINE_BYTES: Final = 64 << 20
"""A line longer than this is not read back (its kept text is used)."""

SPLIT_LINES: Final = 64
"""Lines read from a message's first line on, at most: a response split one block per line, or
the tool results of parallel calls, each on its own line with the agent's progress lines between
(three parallel reads span 9 lines of a real Claude Code log)."""

SPLIT_BYTES: Final = 32 << 20
"""Bytes of the lines after a message's first read back for it, at most (they are read until
every elided block is found; the first line is read whole, up to :data:`MAX_LINE_BYTES`)."""


@dataclass(frozen=True, slots=True)
class FullText:
    """Texts of some messages with their elided characters restored.

    Attributes:
        texts: One text per message (its blocks' texts joined by newlines, as ``Message.text``).
        missing_chars: Characters that could not be read back (0: every character is there).
    """

    texts: tuple[str, ...]
    missing_chars: int = 0


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    """Every text a block may have been made of in a parsed JSON value: its strings (and those of
    JSON encoded in a string, one level), each object as compact JSON (a tool call's input) and
    each list's text parts joined (a tool result's content), as the adapters build them."""
    if isinstance(value, str):
        yield value
        if depth == 0 and value[:1] in ("{", "["):
            try:
                inner = orjson.loads(value)
            except orjson.JSONDecodeError:
                return
            yield from _strings(inner, depth + 1)
    elif isinstance(value, dict):
        yield json_text(value)
        for item in value.values():
            yield from _strings(item, depth)
    elif isinstance(value, list):
        yield text_of(value)
        for item in value:
            yield from _strings(item, depth)


def restore(session: Session, message: Message) -> tuple[tuple[Block, ...], int]:
    """``message``'s blocks with their elided text read back from the log, and the characters
    still missing."""
    elided = [b for b in message.blocks if b.elided_chars]
    if not elided:
        return message.blocks, 0
    wanted = {(b.chars, b.text) for b in elided}
    found: dict[tuple[int, str], str] = {}
    # A response split over several lines (Claude Code) is one message from its first line on.
    budget = SPLIT_BYTES  # for the lines after the first, which is read whole up to MAX_LINE_BYTES
    for line in range(message.line, message.line + SPLIT_LINES) if message.line > 0 else ():
        first = line == message.line
        limit = MAX_LINE_BYTES if first else min(MAX_LINE_BYTES, budget)
        raw = session.raw_line(message.scope_id, line, limit) if limit > 0 else None
        if raw is None:
            break
        if not first:
            budget -= len(raw)
        try:
            candidates = _strings(orjson.loads(raw))
        except orjson.JSONDecodeError:
            continue
        for text in candidates:
            for key in wanted:
                chars, kept = key
                if key not in found and len(text) == chars and text.startswith(kept):
                    found[key] = text  # the first match, the nearest to the message's own line
        if len(found) == len(wanted):
            break
    blocks: list[Block] = []
    missing = 0
    for block in message.blocks:
        if not block.elided_chars:
            blocks.append(block)
            continue
        full = found.get((block.chars, block.text))
        if full is None:
            missing += block.elided_chars
            blocks.append(block)
        else:
            blocks.append(
                Block(block.kind, full, block.call_id, block.name, block.artifact, block.size_bytes,
                      block.width, block.height, block.is_error)
            )
    return tuple(blocks), missing


def full_texts(session: Session, messages: Iterable[Message]) -> FullText:
    """The full text of each of ``messages`` (see the module docs)."""
    texts: list[str] = []
    missing = 0
    for message in messages:
        blocks, lost = restore(session, message)
        missing += lost
        texts.append("\n".join(block.text for block in blocks if block.text))
    return FullText(tuple(texts), missing)


def policy_messages(session: Session, scope_id: str | None = None) -> list[PolicyMessage]:
    """A scope's messages as the memory-policy lab sees them, each with its full text (as
    :func:`~ctxscope.core.policies.session_messages`, whose texts are the reader's kept part)."""
    scope = session.scopes.get(scope_id) if scope_id is not None else None
    if scope is None:
        scope = session.main_scope
    if scope is None:
        return []
    from .policies.records import PolicyMessage

    held = list(scope.messages)  # what is held (a live view releases the oldest)
    texts = full_texts(session, held).texts
    return [PolicyMessage(m.index + 1, m.role, text) for m, text in zip(held, texts, strict=True)]


@dataclass(frozen=True, slots=True)
class WholeBlock:
    """One block of a whole message, every character read back.

    Attributes:
        kind: The block's kind (``text``, ``tool_call``, ``tool_result``, ``summary``…).
        text: Its whole text (a tool call's input as compact JSON).
        name: The tool's name for a tool call ('' otherwise).
        call_id: The tool call id a call or result carries ('' otherwise).
        is_error: A tool result marked as an error.
    """

    kind: str
    text: str
    name: str = ""
    call_id: str = ""
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class WholeMessage:
    """One stored message in full, for the message viewer.

    Attributes:
        scope_id: Its scope.
        index: Its position in the scope's stored history.
        role: ``system``, ``user``, ``assistant`` or ``tool``.
        line: The log line it came from (0 when not from a log).
        blocks: Its blocks, each with its whole text.
        missing_chars: Characters that could not be read back from the log (0: all there).
    """

    scope_id: str
    index: int
    role: str
    line: int
    blocks: tuple[WholeBlock, ...]
    missing_chars: int = 0


def whole_message(session: Session, scope_id: str, index: int) -> WholeMessage | None:
    """Message ``index`` of a scope with every character read back from the log (None when the
    scope or message does not exist, or the message was released from memory)."""
    scope = session.scopes.get(scope_id)
    if scope is None or not scope.messages.is_held(index):
        return None
    message = scope.messages[index]
    blocks, missing = restore(session, message)
    return WholeMessage(
        scope_id,
        index,
        message.role,
        message.line,
        tuple(WholeBlock(b.kind.value, b.text, b.name, b.call_id, b.is_error) for b in blocks),
        missing,
    )
