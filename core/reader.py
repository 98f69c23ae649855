"""Reading a log into a :class:`~ctxscope.core.session.Session`, once or while it grows.

Data flows one way: bytes → :class:`~ctxscope.core.jsonl.LineTail` (complete lines, byte offsets)
→ :func:`~ctxscope.core.jsonl.decode_line` (JSON object or a counted problem) → a format adapter
(``feed(obj, line)``) → the session. A bad line is counted and skipped; every valid event is read.

Two reading paths share one entry point, :func:`open_log` (offline) and one incremental reader,
:class:`SessionReader` (live):

* **line formats** (JSONL) are read line by line from a byte offset, so a growing file can be
  tailed. A Claude Code session also reads the sub-agent logs beside it
  (``<session>/subagents/*.jsonl``) into their own scopes, including ones that appear later;
* **document formats** (a JSON array, or a pretty-printed object) are parsed whole; while
  tailing, a changed document is read again from scratch (reported as ``rewritten``).

The format is detected from the first lines (or the document); a forced ``format`` skips
detection. A log in no known format is refused: :class:`UnknownFormatError`, whose one-line
message says what the log holds and, for every known format, what it needs (each format's
``requires``). A JSONL log is refused once its first :data:`DETECT_LINES` JSON objects are
claimed by no format, a JSON document that parses but that no document format accepts at once
(it is not read again as thousands of bad lines).

Memory: the reader keeps byte offsets of lines (:meth:`Session.raw_line` reads one back) and at
most ``text_cap`` characters of each block's text; token estimates of elided blocks are taken
over the full text before it is dropped (see :meth:`Session.add_message`).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

import orjson

from .adapters import (
    DOCUMENT_FORMATS,
    LINE_FORMATS,
    TEXT_FORMATS,
    DocumentFormat,
    LineFormat,
    Source,
    TextFormat,
    canonical_name,
    document_format,
    known_formats,
    line_format,
    text_format,
)
from .adapters._common import short
from .adapters.base import HoldsBack, LogAdapter, UnknownEventError
from .adapters.ctxscope import CtxscopeAdapter
from .adapters.opencode_db import change_key, database_format, is_database, read_database, session_state
from .files import looks_utf16, open_regular
from .jsonl import (
    MAX_LINE_BYTES,
    FileChange,
    LineTail,
    TailRead,
    decode_failed,
    decode_line,
    not_an_object,
    without_bom,
)
from .logformat import FormatError
from .session import Session
from .tokens import Estimator

DEFAULT_TEXT_CAP: Final = 2048
"""Characters of a block's text kept in memory for an ordinary log (the rest is elided)."""

LARGE_LOG_BYTES: Final = 64 << 20
"""From this size on a log is large: blocks keep only :data:`LARGE_LOG_TEXT_CAP` characters."""

LARGE_LOG_TEXT_CAP: Final = 256
"""Characters of a block's text kept for a large log (a preview; ``raw_line`` reads the rest)."""

TextCap = int | None | Literal["auto"]
"""Characters kept per block: a number, None (keep all), or ``auto`` (by the log's size)."""

MAX_DOCUMENT_BYTES: Final = 512 << 20
"""A whole-document log larger than this is refused (a JSON document must be parsed whole)."""

SNIFF_BYTES: Final = 64 << 10
"""How much of a file's head is looked at to tell JSONL from a JSON document."""

DETECT_LINES: Final = 64
"""A JSONL log whose first this many JSON-object lines no line format claims is refused."""

POLL_CHUNK: Final = 4 << 20
"""Bytes read per step by :meth:`SessionReader.read_all`."""

HEAD_BYTES: Final = 1 << 20
"""How much of a JSONL log :func:`open_log_counted` reads first to choose its estimator."""

Mode = Literal["lines", "document", "text", "database"]

__all__ = [
    "DEFAULT_TEXT_CAP",
    "LARGE_LOG_BYTES",
    "LARGE_LOG_TEXT_CAP",
    "CtxscopeAdapter",
    "LogAdapter",
    "ReadProgress",
    "SessionReader",
    "TextCap",
    "UnknownFormatError",
    "detect_format",
    "known_formats",
    "open_log",
    "open_log_counted",
]


class UnknownFormatError(ValueError):
    """The log's format could not be recognised; the message names the formats ctxscope knows."""


UTF16_REFUSAL: Final = "UTF-16 text; ctxscope reads UTF-8 logs (convert: iconv -f UTF-16 -t UTF-8)"


def _unknown(path: str, detail: str) -> UnknownFormatError:
    return UnknownFormatError(
        f"{os.path.basename(path) or path}: {detail}; known formats: {', '.join(known_formats())}"
    )


def _refused(
    path: str,
    holds: str,
    specs: tuple[LineFormat, ...] | tuple[DocumentFormat, ...] | tuple[TextFormat, ...],
) -> UnknownFormatError:
    """The refusal of a log that no format accepts: what it holds, and what each format needs."""
    needs = "; ".join(f"{spec.name} needs {spec.requires}" for spec in specs)
    name = os.path.basename(path) or path
    return UnknownFormatError(
        f"{name}: {holds}, which no format reads ({needs}); known formats: {', '.join(known_formats())}"
    )


def describe(value: Any) -> str:
    """What a decoded line or document looks like, for a refusal: its shape and first keys
    (shortened and made printable; no values beyond a ``type``)."""
    if isinstance(value, dict):
        keys = [short(k, 24) for k in list(value)[:6]]
        text = "an object with keys " + ", ".join(keys) + (", …" if len(value) > 6 else "")
        kind = value.get("type")
        return text + (f" (type {short(kind)!r})" if isinstance(kind, str) else "")
    if isinstance(value, list):
        first = f" whose first is {describe(value[0])}" if value and not isinstance(value[0], list) else ""
        return f"a list of {len(value)} items{first}"
    return f"a JSON {type(value).__name__}"


@dataclass(frozen=True, slots=True)
class ReadProgress:
    """What one :meth:`SessionReader.poll` did.

    Attributes:
        lines: Lines consumed by this poll (all files of the session).
        offset: Bytes read so far (complete lines; all files of the session).
        size: The files' size at the time of the poll.
        change: Set when a file was truncated, replaced or rewritten and reading started over
            (:attr:`SessionReader.session` is then a new session).
    """

    lines: int
    offset: int
    size: int
    change: FileChange | None

    @property
    def done(self) -> bool:
        return self.offset >= self.size


def detect_line_format(obj: Mapping[str, Any]) -> LineFormat | None:
    """The first line format that claims a decoded line (hostile values in its fields, such as a
    list where a string is expected, claim none)."""
    for spec in LINE_FORMATS:
        if _claims(spec.detect, obj):
            return spec
    return None


def detect_document_format(doc: Any) -> DocumentFormat | None:
    """The first document format that claims a parsed document."""
    for spec in DOCUMENT_FORMATS:
        if _claims(spec.detect, doc):
            return spec
    return None


def _claims(detect: Callable[[Any], bool], value: Any) -> bool:
    try:
        return bool(detect(value))
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError):
        return False  # e.g. ``"type": []`` looked up in a set of type names


def _sniff(head: bytes) -> Mode | None:
    """JSONL or one JSON document, from a file's first bytes (None: nothing written yet)."""
    text = without_bom(head).lstrip(b" \t\r\n")
    if not text:
        return None
    if text[:1] == b"[":
        return "document"
    first = text.split(b"\n", 1)[0].strip()
    if first == b"{":
        return "document"  # a pretty-printed object
    return "lines"


TEXT_LINES: Final = 3
"""A head with at least this many complete non-blank lines, none of them starting like JSON, is text."""


def _looks_like_text(head: bytes, final: bool) -> str | None:
    """The first line of a head that holds text, not JSON (None when it may be JSON)."""
    head = without_bom(head)  # a BOM alone is an empty log, not text
    lines = [ln.strip() for ln in head.split(b"\n")[:-1] if ln.strip()]
    if not final and len(lines) < TEXT_LINES:
        return None
    if final and not lines and head.strip():
        lines = [head.strip()]
    if not lines or any(ln[:1] in (b"{", b"[") for ln in lines[:20]):
        return None
    return lines[0].decode("utf-8", errors="replace")


def detect_text_format(head: bytes) -> TextFormat | None:
    """The first text (Markdown) format that claims a file's head; never one that looks like JSON."""
    text = without_bom(head).lstrip(b" \t\r\n")
    if text[:1] in (b"{", b"["):
        return None
    decoded = text.decode("utf-8", errors="replace")
    return next((spec for spec in TEXT_FORMATS if spec.detect(decoded)), None)


def _pretty_printed(head: bytes) -> bool:
    """A file that opens like a pretty-printed JSON object (``{ "key": …`` on a first line that is
    not a whole JSON value, more lines after it), rather than JSON lines."""
    text = without_bom(head).lstrip(b" \t\r\n")
    first, newline, _ = text.partition(b"\n")
    if not newline or not first.startswith(b"{"):
        return False
    try:
        orjson.loads(first)
    except orjson.JSONDecodeError:
        return True
    return False


def _read_head(path: str, size: int = SNIFF_BYTES) -> bytes:
    with open_regular(path) as handle:
        return handle.read(size)


@dataclass
class _LineSource:
    """One JSONL file of a session: where it is read up to and the adapter reading it."""

    source: Source
    tail: LineTail
    adapter: LogAdapter | None = None

    @property
    def prefix(self) -> str:
        return f"{os.path.basename(self.source.path)}: " if self.source.scope_id else ""


class SessionReader:
    """Reads a log incrementally into a session (tail it with :meth:`poll`, or :meth:`read_all`).

    Args:
        path: The log file.
        format: Force a format by name (aliases allowed); None detects it.
        text_cap: Characters kept per block of text (None keeps all; ``auto``:
            :data:`DEFAULT_TEXT_CAP`, or :data:`LARGE_LOG_TEXT_CAP` once the log is larger than
            :data:`LARGE_LOG_BYTES`). Estimates stay exact either way.
        estimator: The estimator whose counts are taken before text is elided (default: the
            default estimator).
        siblings: Also read the session's sibling logs (Claude Code sub-agents).
        max_line_bytes: A longer line is skipped (counted as ``oversize``) without being held.

    Raises:
        UnknownFormatError: ``format`` names no known format.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: str | None = None,
        *,
        text_cap: TextCap = "auto",
        estimator: Estimator | None = None,
        siblings: bool = True,
        max_line_bytes: int = MAX_LINE_BYTES,
    ) -> None:
        self.path = os.fspath(path)
        self.max_line_bytes = max_line_bytes
        self.forced_format: str | None = None
        if format:
            self.forced_format = canonical_name(format)
            if self.forced_format is None:
                raise _unknown(self.path, f"unknown format {format[:40]!r}")
        self.text_cap_setting: TextCap = text_cap
        self.estimator = estimator
        self.read_siblings = siblings
        self.mode: Mode | None = None
        self.line_spec: LineFormat | None = None
        self.document_spec: DocumentFormat | None = None
        self.text_spec: TextFormat | None = None
        self.session = self._new_session()
        self.main = _LineSource(Source(self.path), LineTail(self.path, self.max_line_bytes))
        self.siblings: dict[str, _LineSource] = {}
        self._dead: set[str] = set()
        """Sibling files that could not be read (not read again in this session)."""
        self._document_key: tuple[int, int, int] | None = None
        self._database_key: tuple[int, int, int, int] | None = None
        self._database_state: tuple[str, tuple[int, int]] | None = None
        """The followed session and its change stamp at the last read (OpenCode databases)."""
        self._document_parsed = False
        """The file parsed as one JSON document (so it is not JSON lines)."""
        self._unclaimed = 0
        """JSON-object lines read before any line format claimed one."""
        self._first_unclaimed = ""
        """What the first of them looked like (for the refusal)."""

    @property
    def format(self) -> str | None:
        """The format being read (None until detected)."""
        if self.line_spec is not None:
            return self.line_spec.name
        if self.document_spec is not None:
            return self.document_spec.name
        if self.text_spec is not None:
            return self.text_spec.name
        return None

    @property
    def adapter(self) -> LogAdapter | None:
        """The main file's adapter (line formats)."""
        return self.main.adapter

    @property
    def tail(self) -> LineTail:
        """The main file's tail."""
        return self.main.tail

    @property
    def text_cap(self) -> int | None:
        """The characters kept per block now (``auto`` resolved by the log's current size)."""
        if self.text_cap_setting != "auto":
            return self.text_cap_setting
        try:
            large = os.stat(self.path).st_size >= LARGE_LOG_BYTES
        except OSError:
            large = False
        return LARGE_LOG_TEXT_CAP if large else DEFAULT_TEXT_CAP

    def _new_session(self) -> Session:
        return Session(
            self.path,
            self.format or self.forced_format or "",
            text_cap=self.text_cap,
            estimator=self.estimator,
        )

    # -- polling --------------------------------------------------------------------------------

    def poll(self, max_bytes: int | None = None) -> ReadProgress:
        """Read what was appended since the last poll and apply it to :attr:`session`.

        On truncation or rotation (or a rewritten document) the session is replaced by a fresh
        one read from the start; the returned progress says so and the new session carries a
        notice.

        Raises:
            OSError: The file cannot be read (missing, permission). Callers report it.
            UnknownFormatError: A whole-document log of no known format.
        """
        if self.mode is None:
            self.mode = self._choose_mode(final=False)
            if self.mode is None:
                return ReadProgress(0, 0, self.main.tail.size(), None)
        if self.mode == "document":
            return self._poll_document(final=False)
        if self.mode == "text":
            return self._poll_text()
        if self.mode == "database":
            return self._poll_database()
        return self._poll_lines(max_bytes)

    def _choose_mode(self, final: bool) -> Mode | None:
        if is_database(self.path):
            return "database"  # OpenCode's opencode.db (or one session of it, FILE#SESSION_ID)
        forced = self.forced_format
        if forced is not None and text_format(forced) is not None:
            self.text_spec = text_format(forced)
            return "text"
        if forced is None:
            head = _read_head(self.path)
            spec = detect_text_format(head)
            if spec is not None:
                self.text_spec = spec
                return "text"
            first = _looks_like_text(head, final)
            if first is not None:
                if looks_utf16(head):
                    raise _unknown(self.path, UTF16_REFUSAL)
                raise _refused(self.path, f"text that is not JSON (it starts {short(first)!r})", TEXT_FORMATS)
        if forced is not None:
            has_line = line_format(forced) is not None
            has_document = document_format(forced) is not None
            if has_line != has_document:
                return "lines" if has_line else "document"
        head = _read_head(self.path)
        mode = _sniff(head)
        if mode is None and final:
            mode = "lines"
        if mode == "lines" and final and _pretty_printed(head):
            mode = "document"  # read_all falls back to lines if it does not parse
        return mode

    def _poll_lines(self, max_bytes: int | None) -> ReadProgress:
        if self.text_cap_setting == "auto":
            self.session.text_cap = self.text_cap  # a live log may grow large
        change: FileChange | None = None
        lines = 0
        for _attempt in range(2):
            read = self.main.tail.read(max_bytes)
            if read.change is not None:
                change = read.change
                self._restart(read.change, self.main)
            lines += self._take(self.main, read)
            restarted = False
            read_through = self._main_read_through()
            for sibling in self._discover_siblings():
                if sibling.source.replays_parent and not read_through:
                    continue
                try:
                    sibling_read = sibling.tail.read(max_bytes)
                except OSError as exc:
                    # Gone or unreadable: say so once and stop reading it (reading it again from
                    # the start would repeat its events in this session).
                    self.siblings.pop(sibling.source.path, None)
                    self._dead.add(sibling.source.path)
                    self.session.problems.add(
                        "unreadable", 0, f"{sibling.prefix}cannot read: {exc.strerror or exc}"
                    )
                    continue
                if sibling_read.change is not None:
                    # Start over: a new session, every file read again from byte 0.
                    change = sibling_read.change
                    self._restart(sibling_read.change, sibling)
                    restarted = True
                    break
                lines += self._take(sibling, sibling_read)
            if not restarted:
                break
        sources = [self.main, *self.siblings.values()]
        offset = sum(s.tail.offset for s in sources)
        size = sum(s.tail.size() for s in sources)
        return ReadProgress(lines, offset, size, change)

    def _main_read_through(self) -> bool:
        """The main file is read to its current end: only then are siblings that replay it read
        (:attr:`Source.replays_parent`), so that they find its calls counted already (each call
        counts once, in the scope that made it: :meth:`Session.claim_call`)."""
        tail = self.main.tail
        return tail.offset + tail.pending_bytes >= tail.size()

    def _discover_siblings(self) -> list[_LineSource]:
        """The sibling files now (new ones join; only the format's own sibling folder is listed)."""
        if self.read_siblings and self.line_spec is not None and self.line_spec.siblings is not None:
            for source in self.line_spec.siblings(self.path, self.session.session_id):
                if source.path not in self.siblings and source.path not in self._dead:
                    self.siblings[source.path] = _LineSource(
                        source, LineTail(source.path, self.max_line_bytes)
                    )
        return list(self.siblings.values())

    def _take(self, source: _LineSource, read: TailRead) -> int:
        for number in read.oversize:
            self.session.problems.add(
                "oversize",
                number,
                f"{source.prefix}line longer than {source.tail.max_line_bytes} bytes skipped",
            )
        self._apply(source, read.numbers, read.offsets, read.data)
        return len(read.data)

    def _restart(self, change: FileChange, cause: _LineSource) -> None:
        """A file was truncated or replaced: start a new session and read every file from byte 0."""
        self.session = self._new_session()
        self.session.problems.add(
            change.value,
            0,
            f"{os.path.basename(cause.source.path)} was {change.value}; read again from the start",
        )
        if cause is self.main:
            self.main.adapter = None  # its tail already starts again from byte 0
        else:
            self.main = _LineSource(self.main.source, LineTail(self.path, self.max_line_bytes))
        if not self.forced_format:
            self.line_spec = None
        self.siblings = {}
        self._dead = set()

    def _apply(self, source: _LineSource, numbers: list[int], starts: list[int], lines: list[bytes]) -> None:
        """Decode lines (numbered ``numbers``, starting at byte ``starts``) and feed them to the
        source's adapter. The hot loop of the reader: no object is made per line but the
        decoded event."""
        session = self.session
        if not lines:
            self._note_progress(source)
            return
        path = source.source.path
        prefix = source.prefix
        problems = session.problems
        offsets = session.line_offsets.get(path)
        if offsets is None:
            offsets = session.line_offsets[path] = array("q")
        first = numbers[0]
        if len(offsets) == first - 1 and numbers[-1] - first == len(numbers) - 1:
            offsets.extend(starts)  # the common case: consecutive lines, in one call
        else:
            for number, start in zip(numbers, starts, strict=True):
                session.record_line_offset(path, number, start)
        adapter = source.adapter
        feed = adapter.feed if adapter is not None else None
        loads = orjson.loads
        for number, data in zip(numbers, lines, strict=True):
            try:
                obj = loads(data)
            except orjson.JSONDecodeError:
                obj, problem = decode_failed(data)
                if problem is not None:
                    problems.add(problem.kind, number, prefix + problem.reason)
                if obj is None:
                    continue
            else:
                if type(obj) is not dict:
                    problems.add("wrong_type", number, prefix + not_an_object(obj).reason)
                    continue
            if feed is None:
                adapter = self._start(source, obj)
                if adapter is None:
                    self._note_unclaimed(obj)
                    problems.add("unknown_event", number, f"{prefix}line of no known format")
                    continue
                feed = adapter.feed
            try:
                feed(obj, number)
            except UnknownEventError as exc:
                session.unknown_kinds[exc.kind] += 1
            except FormatError as exc:
                problems.add("wrong_type", number, prefix + str(exc))
            except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
                # Hostile input the adapter did not foresee must not stop reading either.
                problems.add("wrong_type", number, f"{prefix}unreadable event ({type(exc).__name__})")
        if isinstance(adapter, HoldsBack):
            adapter.settle()
        self._note_progress(source)

    def _note_unclaimed(self, obj: Mapping[str, Any]) -> None:
        """A JSON object that no line format claims: refuse the log after :data:`DETECT_LINES`."""
        if self._unclaimed == 0:
            self._first_unclaimed = describe(obj)
        self._unclaimed += 1
        if self._unclaimed >= DETECT_LINES and self.line_spec is None:
            raise self._refuse_lines()

    def _refuse_lines(self) -> UnknownFormatError:
        if looks_utf16(_read_head(self.path)):
            return _unknown(self.path, UTF16_REFUSAL)
        holds = (
            f"JSON lines like {self._first_unclaimed}"
            if self._unclaimed
            else f"no JSON object ({self.session.problems.bad_lines} lines that are not JSON objects)"
        )
        return _refused(self.path, holds, LINE_FORMATS)

    def _note_progress(self, source: _LineSource) -> None:
        if source is self.main:
            self.session.lines_read = source.tail.line_number
            self.session.bytes_read = source.tail.offset

    def _start(self, source: _LineSource, obj: Mapping[str, Any]) -> LogAdapter | None:
        spec = self.line_spec
        if spec is None:
            spec = line_format(self.forced_format) if self.forced_format else detect_line_format(obj)
            if spec is None:
                return None
            self.line_spec = spec
            self.session.format = spec.name
        source.adapter = spec.factory(self.session, source.source)
        return source.adapter

    # -- documents ------------------------------------------------------------------------------

    def _poll_document(self, final: bool) -> ReadProgress:
        stat = os.stat(self.path)
        key = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if key == self._document_key:
            return ReadProgress(0, stat.st_size, stat.st_size, None)
        if stat.st_size > MAX_DOCUMENT_BYTES:
            raise _unknown(self.path, f"a JSON document larger than {MAX_DOCUMENT_BYTES >> 20} MB")
        with open_regular(self.path) as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)  # bounded even if the size lied
        if len(data) > MAX_DOCUMENT_BYTES:
            raise _unknown(self.path, f"a JSON document larger than {MAX_DOCUMENT_BYTES >> 20} MB")
        repaired = False
        data = without_bom(data)
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            try:
                doc = orjson.loads(data.decode("utf-8", errors="replace"))
                repaired = True
            except orjson.JSONDecodeError:
                if final:
                    raise _unknown(self.path, f"neither JSON lines nor a JSON document ({exc})") from None
                return ReadProgress(0, 0, stat.st_size, None)  # still being written
        self._document_parsed = True
        spec = document_format(self.forced_format) if self.forced_format else detect_document_format(doc)
        if spec is None:
            raise _refused(self.path, f"a JSON document, {describe(doc)}", DOCUMENT_FORMATS)
        change = FileChange.REWRITTEN if self._document_key is not None else None
        self.document_spec = spec
        self.session = self._new_session()
        self.session.format = spec.name
        if change is not None:
            self.session.problems.add(change.value, 0, "the document changed; read again")
        if repaired:
            self.session.problems.add("repaired_utf8", 0, "invalid UTF-8 in the document replaced")
        try:
            spec.read(self.session, doc)
        except FormatError as exc:
            raise _unknown(self.path, f"not a valid {spec.name} document ({exc})") from None
        self.session.bytes_read = stat.st_size
        self._document_key = key
        return ReadProgress(1, stat.st_size, stat.st_size, change)

    # -- text (Markdown) ------------------------------------------------------------------------

    def _poll_text(self) -> ReadProgress:
        """Read a Markdown log whole (again, as a new session, when it changed since)."""
        assert self.text_spec is not None
        stat = os.stat(self.path)
        key = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if key == self._document_key:
            return ReadProgress(0, stat.st_size, stat.st_size, None)
        if stat.st_size > MAX_DOCUMENT_BYTES:
            raise _unknown(self.path, f"a text log larger than {MAX_DOCUMENT_BYTES >> 20} MB")
        with open(self.path, "rb") as handle:
            data = handle.read()
        change = FileChange.REWRITTEN if self._document_key is not None else None
        self.session = self._new_session()
        self.session.format = self.text_spec.name
        if change is not None:
            self.session.problems.add(change.value, 0, "the log changed; read again")
        text = data.decode("utf-8", errors="replace")
        if "\ufffd" in text and b"\xef\xbf\xbd" not in data:
            self.session.problems.add("invalid_utf8", 0, "invalid UTF-8 in the log replaced")
        self.text_spec.read(self.session, text)
        self.session.bytes_read = stat.st_size
        self.session.lines_read = text.count("\n") + (not text.endswith("\n") and bool(text))
        self._document_key = key
        return ReadProgress(1, stat.st_size, stat.st_size, change)

    def _poll_database(self) -> ReadProgress:
        """Read one session of an OpenCode database (again, as a new session, once it or its
        ``-wal`` file changed; see :mod:`~ctxscope.core.adapters.opencode_db`)."""
        key = change_key(self.path)
        size = key[0] + key[2]
        if key == self._database_key:
            return ReadProgress(0, size, size, None)
        state = session_state(self.path)
        if self._database_key is not None and state is not None and state == self._database_state:
            self._database_key = key  # another session of the file was written: nothing to read
            return ReadProgress(0, size, size, None)
        change = FileChange.REWRITTEN if self._database_key is not None else None
        self.document_spec = document_format("opencode")
        session = self._new_session()
        if change is not None:
            session.problems.add(change.value, 0, "the database changed; read again")
        try:
            read_database(session, self.path)
        except FormatError as exc:  # a database: the list of known formats would not help
            if change is not None:  # a live re-read (locked, or caught mid-write): keep what was read
                raise OSError(f"{os.path.basename(self.path)}: {exc}") from None
            raise UnknownFormatError(f"{os.path.basename(self.path)}: {exc}") from None
        self.session = session
        self.session.bytes_read = size
        self._database_key = key
        self._database_state = state
        return ReadProgress(1, size, size, change)

    # -- offline --------------------------------------------------------------------------------

    def read_all(self) -> Session:
        """Read a finished log to its end, including a last line without a newline; every count
        an estimator that counts later deferred is in (:meth:`Session.settle_counts`).

        Raises:
            OSError: The file cannot be read.
            UnknownFormatError: Nothing in the log is in a known format.
        """
        session = self._read_to_end()
        session.settle_counts()
        return session

    def _read_to_end(self) -> Session:
        if self.mode is None:
            self.mode = self._choose_mode(final=True)
        if self.mode in ("text", "database"):
            self.poll()
            return self.session
        if self.mode == "document":
            try:
                self._poll_document(final=True)
            except UnknownFormatError:
                if self.forced_format or self._document_parsed or not self._has_many_lines():
                    raise
                self.mode = "lines"  # a JSONL file whose first line is broken
            else:
                return self.session
        while True:
            position = self._position()
            self._poll_lines(POLL_CHUNK)
            if self._position() == position:
                break
        for source in [self.main, *self.siblings.values()]:
            last = source.tail.take_partial()
            if last is not None:
                self._apply(source, [last.number], [last.offset], [last.data])
            if source.adapter is not None:
                source.adapter.finish()
        blank = not (self._unclaimed or self.session.problems.bad_lines)  # blank lines, a BOM alone
        if self.line_spec is None and self.session.lines_read and not self.session.scopes and not blank:
            return self._read_as_document_instead()
        return self.session

    def _position(self) -> int:
        return sum(s.tail.offset + s.tail.pending_bytes for s in (self.main, *self.siblings.values()))

    def _has_many_lines(self) -> bool:
        head = _read_head(self.path).strip()
        return b"\n" in head

    def _read_as_document_instead(self) -> Session:
        """A single-line JSON object that no line format claims may be a minified document."""
        if self.session.lines_read == 1 and not self.forced_format:
            saved = self.session
            self.mode = "document"
            try:
                self._poll_document(final=True)
            except UnknownFormatError:
                if self._document_parsed:
                    raise  # it is a document: say why no document format reads it
                self.session = saved
            else:
                return self.session
        raise self._refuse_lines()


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format name of a log (reads it whole for a document; the first lines otherwise; a
    database's schema and session table).

    Raises:
        UnknownFormatError: The log is in no known format.
    """
    path = os.fspath(path)
    if is_database(path):
        try:
            return database_format(path)
        except FormatError as exc:
            raise UnknownFormatError(f"{os.path.basename(path)}: {exc}") from None
    if (text_spec := detect_text_format(_read_head(path))) is not None:
        return text_spec.name
    mode = _sniff(_read_head(path)) or "lines"
    if mode == "lines":
        tail = LineTail(path)
        read = tail.read(max_bytes=4 * SNIFF_BYTES)
        lines = read.lines or ([p] if (p := tail.take_partial()) else [])
        for raw in lines:
            obj, _ = decode_line(raw.data)
            if obj is not None and (spec := detect_line_format(obj)) is not None:
                return spec.name
    return SessionReader(path, siblings=False).read_all().format


def open_log(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    text_cap: TextCap = "auto",
    estimator: Estimator | None = None,
    siblings: bool = True,
) -> Session:
    """Read a finished log (any known format, line-wise or whole-document) into a session.

    Args:
        path: The log file.
        format: Force a format by name (``--format``); None detects it.
        text_cap: Characters kept per block of text (None keeps everything; ``auto`` decides
            by the log's size, see :class:`SessionReader`).
        estimator: Whose token counts are taken over the full text before eliding.
        siblings: Also read sibling logs (Claude Code ``<session>/subagents/*.jsonl``).

    Raises:
        OSError: The file cannot be read.
        UnknownFormatError: The log is in no known format (or ``format`` names none).
    """
    return SessionReader(path, format, text_cap=text_cap, estimator=estimator, siblings=siblings).read_all()


def read_head(path: str | os.PathLike[str], format: str | None = None) -> Session | None:
    """The session in a line log's first :data:`HEAD_BYTES`, all text kept: what a reader that
    elides text looks at first to pick the estimator its counts are taken with (the analysis's own
    pick, by the first call's model). None for a log that is not read line by line (a document,
    Markdown, a database: read whole, keeping all text) or that cannot be read here."""
    head = SessionReader(path, format, text_cap=None, siblings=False)
    try:
        head.mode = head._choose_mode(final=False)
        if head.mode != "lines":
            return None
        head.poll(HEAD_BYTES)
    except (OSError, ValueError):
        return None  # the whole read says what is wrong
    return head.session if head.format is not None else None


def open_log_counted(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    estimator_for: Callable[[Session], Estimator],
    whole_text_formats: Collection[str] = (),
    text_cap: int = LARGE_LOG_TEXT_CAP,
    siblings: bool = True,
    count_ahead: bool | None = None,
) -> Session:
    """Read a finished log for its figures: each message is counted as it is read and only the
    first ``text_cap`` characters of each block's text are kept (``ctxscope report``'s recorded
    lens needs counts, not text; the whole text of a large log would fill memory).

    The counts are taken by the estimator ``estimator_for`` picks for a session (the analysis's
    own choice, e.g. by its first call's model): picked first from the session in the log's first
    :data:`HEAD_BYTES`, then from the whole session. Should the two differ while some text was
    elided, the log is read again keeping all text, so every count is what a full read gives. A
    whole-document or Markdown log, and a log in one of ``whole_text_formats`` (whose figures
    need the text itself), is read once, keeping all text.

    ``count_ahead``: whether a second process counts the long texts ahead of the reading
    (:mod:`~ctxscope.core.count_ahead`; the figures are the same either way); None decides by the
    log's size and the usable cores (:func:`~ctxscope.core.count_ahead.worth_it`).

    Raises:
        OSError: The file cannot be read.
        UnknownFormatError: The log is in no known format (or ``format`` names none).
    """
    head = read_head(path, format)
    if head is None or head.format in whole_text_formats:
        return open_log(path, format, text_cap=None, siblings=siblings)
    chosen = estimator_for(head)
    session = _read_counted(path, format, text_cap, chosen, siblings, count_ahead)
    final = estimator_for(session)
    if final.name != chosen.name and _elided(session):
        session = open_log(path, format, text_cap=None, estimator=final, siblings=siblings)
    return session


def _read_counted(
    path: str | os.PathLike[str],
    format: str | None,
    text_cap: int,
    estimator: Estimator,
    siblings: bool,
    count_ahead: bool | None,
) -> Session:
    """:func:`open_log` eliding text, the long texts counted ahead by a second process if asked."""
    from . import count_ahead as ahead

    path = os.fspath(path)
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    counter = None
    if count_ahead or (count_ahead is None and ahead.worth_it(size)):
        counter = ahead.start(path, estimator, text_cap, size)
    if counter is None:
        return open_log(path, format, text_cap=text_cap, estimator=estimator, siblings=siblings)
    try:
        session = open_log(path, format, text_cap=text_cap, estimator=counter, siblings=siblings)
    finally:
        counter.close()
    session.estimator = estimator  # the counts it holds are the estimator's own
    return session


def _elided(session: Session) -> bool:
    """Whether any stored block of the session lost text to the text cap."""
    return any(
        block.elided_chars for scope in session.scopes.values() for m in scope.messages for block in m.blocks
    )
