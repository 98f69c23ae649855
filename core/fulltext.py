"""Full text: a message's blocks with every character the reader elided read back from the log.

A reader keeps at most ``text_cap`` characters of a block in memory (``Block.elided_chars`` counts
the rest) and the byte offset of every line (:meth:`~ctxscope.core.session.Session.raw_line`).
What needs every character — the per-script breakdown of a request, the memory-policy lab — asks
here: the message's log line is read again (one ``pread``), parsed, and the string the block was
cut from is found in it: the value whose length is the block's full length and that starts with
the kept text (also inside a JSON-encoded string value, as Codex writes tool output; an object or
a list as compact JSON; a list's text parts joined; the values an adapter joins into one text,
:func:`~ctxscope.core.adapters.openhands.joined_text`). Nothing is kept: the full text lives
only as long as the caller holds it, so memory stays bounded.

A log read whole (a JSON document: an OpenAI-chat or tau-bench log, a SWE-agent trajectory) has no
line offsets: its document is parsed again once, and the whole texts of all the session's elided
blocks from it are memoised with the session (dropped with it, when the file changes or when
another document of the session is read back): at most the elided part of one document of up to
:data:`MAX_DOCUMENT_BYTES`, so that a request's breakdown, which restores its messages one by one,
parses the document once and not once a message. A document has no line to tell apart two blocks
alike in length and kept start: their texts go to them in order, and when the document holds more
such texts than blocks, none is guessed.

A Markdown log (Aider, SpecStory: read whole, with no JSON value to find a text in) is read again
by its own adapter into a session that keeps every character, once for the session's elided blocks
(memoised as a document's texts are), and each block takes the text at its own place when its
length and kept start match (18 ms for the 45 elided blocks of the 547 KB SpecStory export in
``../shared/real-logs-more``).

When the text cannot be read back (the file changed or is gone, or no value matches) the kept
text is used, and :class:`FullText` says how many characters are still missing.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import orjson

from .adapters import text_format
from .adapters._common import json_text, text_of
from .adapters.openhands import joined_text
from .files import open_regular
from .jsonl import without_bom
from .model import Block, BlockKind, Message, whitespace_only
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

MAX_DOCUMENT_BYTES: Final = MAX_LINE_BYTES
"""A log read whole that is larger than this is not read back (its kept text is used)."""

DOCUMENT_HEAD_BYTES: Final = 4096
"""What is read of a log read whole before the rest: a file that does not start a JSON document
(Markdown, an SQLite database) is read no further."""

Key = tuple[int, str]
"""What finds an elided block's whole text: its length and the start the reader kept."""


Place = tuple[str, int, int]
"""Where an elided block is: its scope, its message's index there and its position in the message."""


@dataclass(frozen=True, slots=True)
class _DocumentTexts:
    """The whole texts found in one document for the elided blocks of one session."""

    source: str
    file: tuple[int, int, int]
    """The document's (inode, size, mtime_ns) when it was parsed."""
    places: frozenset[Place]
    found: dict[Place, str]


_DOCUMENTS: Final[weakref.WeakKeyDictionary[Session, _DocumentTexts]] = weakref.WeakKeyDictionary()
"""The texts found in the document last read back for each session (dropped with the session)."""


@dataclass(frozen=True, slots=True)
class FullText:
    """Texts of some messages with their elided characters restored.

    Attributes:
        texts: One text per message (its blocks' texts joined by newlines, as ``Message.text``).
        missing_chars: Characters that could not be read back (0: every character is there).
    """

    texts: tuple[str, ...]
    missing_chars: int = 0


MAX_NESTING: Final = 100
"""Values nested deeper than this in a log line are not taken apart: no adapter cuts a block from
one, and orjson parses up to 1,024 levels, deeper than Python's recursion goes."""


def _compact(value: dict[str, Any] | list[Any]) -> Iterator[str]:
    """``value`` as compact JSON, as the adapters write it (none when it is too deep to write)."""
    try:
        yield json_text(value)
    except RecursionError:  # deeper than orjson writes (255 levels) and than repr goes
        return


def _strings(value: Any, depth: int = 0, nesting: int = 0) -> Iterator[str]:
    """Every text a block may have been made of in a parsed JSON value: its strings (and those of
    JSON encoded in a string, one level), each object as compact JSON (a tool call's input) and
    each list's text parts joined (a tool result's content) and each list as compact JSON (tool
    definitions), and the texts an adapter joins from an object's values, as the adapters build
    them; nothing nested deeper than :data:`MAX_NESTING`."""
    if nesting > MAX_NESTING:
        return
    if isinstance(value, str):
        yield value
        if depth == 0 and value[:1] in ("{", "["):
            try:
                inner = orjson.loads(value)
            except orjson.JSONDecodeError:
                return
            yield from _strings(inner, depth + 1, nesting + 1)
    elif isinstance(value, dict):
        yield from _compact(value)
        for item in value.values():
            yield from _strings(item, depth, nesting + 1)
        joined = joined_text(value)
        if joined is not None:
            yield joined
    elif isinstance(value, list):
        yield text_of(value)
        yield from _compact(value)
        for item in value:
            yield from _strings(item, depth, nesting + 1)


def _match(candidates: Iterable[str], wanted: Collection[Key], found: dict[Key, str]) -> None:
    """Adds to ``found`` the first of ``candidates`` that is the whole text of each wanted key
    not found yet."""
    starts: dict[int, list[str]] = {}
    for chars, kept in wanted:
        starts.setdefault(chars, []).append(kept)
    for text in candidates:
        for kept in starts.get(len(text), ()):
            key = (len(text), kept)
            if key not in found and text.startswith(kept):
                found[key] = text


def _document(path: str) -> Any:
    """The parsed JSON document of a log read whole (None for a file that is not one: Markdown,
    a database, or one larger than :data:`MAX_DOCUMENT_BYTES`)."""
    try:
        with open_regular(path) as handle:
            data = handle.read(DOCUMENT_HEAD_BYTES)
            if without_bom(data).lstrip()[:1] not in (b"{", b"["):
                return None
            data += handle.read(MAX_DOCUMENT_BYTES + 1 - len(data))
    except OSError:
        return None
    if len(data) > MAX_DOCUMENT_BYTES:
        return None
    data = without_bom(data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        try:  # as the reader repairs it: invalid UTF-8 replaced
            return orjson.loads(data.decode("utf-8", errors="replace"))
        except orjson.JSONDecodeError:
            return None


def _places(message: Message) -> list[tuple[Key, Place]]:
    return [
        ((block.chars, block.text), (message.scope_id, message.index, position))
        for position, block in enumerate(message.blocks)
        if block.elided_chars
    ]


def _elided_places(session: Session, source: str, message: Message) -> dict[Key, list[Place]]:
    """Where every elided block of the session's scopes read from ``source`` is, by key, in the
    session's order (and ``message``'s own, should it be in none of them)."""
    places: dict[Key, list[Place]] = {}
    for scope in session.scopes.values():
        if (scope.source or session.source) == source:
            for stored in scope.messages:
                for key, place in _places(stored):
                    places.setdefault(key, []).append(place)
    for key, place in _places(message):
        if place not in places.get(key, ()):
            places.setdefault(key, []).append(place)
    return places


def _assign(candidates: Iterable[str], places: dict[Key, list[Place]]) -> dict[Place, str]:
    """The whole text of each place: the texts of a key in the document, told apart in their
    order, go to its blocks in the session's order; a key whose texts outnumber its blocks (or
    fall short of them, with more than one) is ambiguous and found for none."""
    texts: dict[Key, dict[str, None]] = {key: {} for key in places}
    starts: dict[int, list[str]] = {}
    for chars, kept in places:
        starts.setdefault(chars, []).append(kept)
    for text in candidates:
        for kept in starts.get(len(text), ()):
            seen = texts[(len(text), kept)]
            if len(seen) <= len(places[(len(text), kept)]) and text.startswith(kept):
                seen.setdefault(text, None)  # at most one more than its blocks: then ambiguous
    found: dict[Place, str] = {}
    for key, where in places.items():
        distinct = list(texts[key])
        if len(distinct) == 1:
            found.update((place, distinct[0]) for place in where)
        elif len(distinct) == len(where):
            found.update(zip(where, distinct, strict=True))
    return found


def _memoised_texts(
    session: Session, source: str, message: Message,
    find: Callable[[dict[Key, list[Place]]], dict[Place, str]],
) -> dict[Place, str]:
    """Whole texts of the elided blocks of a log read whole (``find`` reads it: at most
    :data:`MAX_DOCUMENT_BYTES`), found once for every elided block of the session and memoised
    with it while the file stays as it was."""
    try:
        stat = os.stat(source)
    except OSError:
        return {}
    file = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    held = _DOCUMENTS.get(session)
    wanted = {place for _, place in _places(message)}
    if held is not None and held.source == source and held.file == file and wanted <= held.places:
        return held.found
    places = _elided_places(session, source, message)
    found = find(places) if stat.st_size <= MAX_DOCUMENT_BYTES else {}
    _DOCUMENTS[session] = _DocumentTexts(
        source, file, frozenset(p for where in places.values() for p in where), found
    )
    return found


def _document_texts(session: Session, source: str, message: Message) -> dict[Place, str]:
    """Whole texts of elided blocks from the document ``source`` (a log read whole, so with no
    line offsets), parsed once for every elided block of the session and memoised with it."""
    if not source or source in session.line_offsets:
        return {}

    def find(places: dict[Key, list[Place]]) -> dict[Place, str]:
        document = _document(source)
        return {} if document is None else _assign(_strings(document), places)

    return _memoised_texts(session, source, message, find)


def _text_log_texts(session: Session, source: str, message: Message) -> dict[Place, str]:
    """Whole texts of elided blocks from the Markdown log ``source`` (Aider, SpecStory: read whole,
    with no JSON to find a value in): the file is read again by its own adapter into a session that
    keeps every character, once for every elided block of the session (memoised with it, as a
    document's texts are). A block takes the text at its own place (scope, message, position) only
    when that text is as long as the block was and starts with what the reader kept: a log that
    changed since is read back for nothing."""
    spec = text_format(session.format)
    if spec is None or not source:
        return {}

    def find(places: dict[Key, list[Place]]) -> dict[Place, str]:
        try:
            with open_regular(source) as handle:
                data = handle.read(MAX_DOCUMENT_BYTES + 1)
        except OSError:
            return {}
        if not data or len(data) > MAX_DOCUMENT_BYTES:
            return {}
        again = Session(source, session.format)  # no text cap: every character kept
        spec.read(again, data.decode("utf-8", errors="replace"))  # as the reader decodes it
        found: dict[Place, str] = {}
        for (chars, kept), where in places.items():
            for place in where:
                scope_id, index, position = place
                scope = again.scopes.get(scope_id)
                if scope is None or index >= len(scope.messages):
                    continue
                blocks = scope.messages[index].blocks
                text = blocks[position].text if position < len(blocks) else ""
                if len(text) == chars and text.startswith(kept):
                    found[place] = text
        return found

    return _memoised_texts(session, source, message, find)


def restore(session: Session, message: Message) -> tuple[tuple[Block, ...], int]:
    """``message``'s blocks with their elided text read back from the log, and the characters
    still missing."""
    elided = [b for b in message.blocks if b.elided_chars]
    if not elided:
        return message.blocks, 0
    wanted = {(b.chars, b.text) for b in elided}
    found: dict[Key, str] = {}
    in_document: dict[Place, str] = {}
    scope = session.scopes.get(message.scope_id)
    source = scope.source if scope is not None and scope.source else session.source
    by_place = message.line <= 0 or text_format(session.format) is not None
    if message.line <= 0:  # a message of a document: found in it, parsed once for the session
        in_document = _document_texts(session, source, message)
    elif by_place:  # a Markdown log: read again by its adapter, once for the session
        in_document = _text_log_texts(session, source, message)
    # A response split over several lines (Claude Code) is one message from its first line on.
    budget = SPLIT_BYTES  # for the lines after the first, which is read whole up to MAX_LINE_BYTES
    for line in range(message.line, message.line + SPLIT_LINES) if not by_place else ():
        first = line == message.line
        limit = MAX_LINE_BYTES if first else min(MAX_LINE_BYTES, budget)
        raw = session.raw_line(message.scope_id, line, limit) if limit > 0 else None
        if raw is None:
            break
        if not first:
            budget -= len(raw)
        try:
            candidates = _strings(orjson.loads(without_bom(raw)))  # a log's first line may have one
        except orjson.JSONDecodeError:
            continue
        _match(candidates, wanted, found)  # the first match, the nearest to the message's own line
        if len(found) == len(wanted):
            break
    blocks: list[Block] = []
    missing = 0
    for position, block in enumerate(message.blocks):
        if not block.elided_chars:
            blocks.append(block)
            continue
        place = (message.scope_id, message.index, position)
        full = in_document.get(place) if by_place else found.get((block.chars, block.text))
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
    :func:`~ctxscope.core.policies.session_messages`, whose texts are the reader's kept part) and
    its author's role (tool output sent with the user role is the tool's)."""
    scope = session.scope_or_main(scope_id)
    if scope is None:
        return []
    from .policies.records import PolicyMessage

    held = list(scope.messages)  # what is held (a live view releases the oldest)
    texts = full_texts(session, held).texts
    return [PolicyMessage(m.index + 1, m.author_role, text) for m, text in zip(held, texts, strict=True)]


DEFAULT_POLICY_QUERY = "What should happen next?"
"""The lab's query when a scope holds no prompt of the person's own."""


def policy_query(session: Session, scope_id: str | None = None, max_chars: int = 300) -> str:
    """The memory-policy lab's default query: the scope's last prompt, cut to ``max_chars``.

    A prompt is a user message of the person's own: text (beside images, perhaps), no tool
    result (agents send those with the user role) and not an injected reminder
    (``Message.meta``). Its text blocks are read back whole (a reader may have kept only part of
    a long one). With none, :data:`DEFAULT_POLICY_QUERY`.
    """
    scope = session.scope_or_main(scope_id)
    if scope is None:
        return DEFAULT_POLICY_QUERY
    for message in reversed(scope.messages):
        if message.role != "user" or message.meta or message.index < 0:
            continue
        kinds = {block.kind for block in message.blocks}
        if BlockKind.TEXT not in kinds or not kinds <= {BlockKind.TEXT, BlockKind.ARTIFACT}:
            continue
        blocks, _ = restore(session, message)
        text = "\n".join(b.text for b in blocks if b.kind is BlockKind.TEXT).strip()
        if text:
            return text[:max_chars]
    return DEFAULT_POLICY_QUERY


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

    @property
    def whitespace_only(self) -> bool:
        """Its text is whitespace only (:func:`~ctxscope.core.model.whitespace_only`)."""
        return whitespace_only(self.text)


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
