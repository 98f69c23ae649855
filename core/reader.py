"""Reading a log file into a :class:`~ctxscope.core.session.Session`, once or while it grows.

Data flows one way: bytes → :class:`~ctxscope.core.jsonl.LineTail` (complete lines, byte offsets)
→ :func:`~ctxscope.core.jsonl.decode_line` (JSON object or a counted problem) → a format adapter
(``feed(obj, line)``) → the session. A bad line is counted and skipped; every valid event is read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .jsonl import FileChange, LineTail, RawLine, decode_line
from .logformat import FORMAT_NAME, FormatError, apply_event, looks_like_ctxscope
from .session import Session


class LogAdapter(Protocol):
    """Turns decoded lines of one log format into session events."""

    name: ClassVar[str]

    def feed(self, obj: dict[str, Any], line: int) -> None:
        """Apply one decoded line; raise FormatError for a line that is not a valid event."""

    def finish(self) -> None:
        """Flush anything buffered (called when a finished file has been read through)."""


class CtxscopeAdapter:
    """ctxscope's own format: each line is one event (see :mod:`ctxscope.core.logformat`)."""

    name: ClassVar[str] = FORMAT_NAME

    def __init__(self, session: Session) -> None:
        self.session = session

    @staticmethod
    def detect(obj: Mapping[str, Any]) -> bool:
        return looks_like_ctxscope(obj)

    def feed(self, obj: dict[str, Any], line: int) -> None:
        apply_event(self.session, obj, line)

    def finish(self) -> None:
        return None


class UnknownFormatError(ValueError):
    """The log's format could not be recognised; the message names the formats ctxscope knows."""


@dataclass(frozen=True, slots=True)
class ReadProgress:
    """What one :meth:`SessionReader.poll` did.

    Attributes:
        lines: Lines consumed by this poll.
        offset: Bytes of the file read so far (complete lines).
        size: The file's size at the time of the poll.
        change: Set when the file was truncated or replaced and reading started over.
    """

    lines: int
    offset: int
    size: int
    change: FileChange | None

    @property
    def done(self) -> bool:
        return self.offset >= self.size


def _detect(obj: Mapping[str, Any]) -> str | None:
    if CtxscopeAdapter.detect(obj):
        return CtxscopeAdapter.name
    return None


class SessionReader:
    """Reads a JSONL log incrementally into a session.

    Args:
        path: The log file.
        format: Force a format by name; None detects it from the first decodable line.
    """

    def __init__(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        self.path = os.fspath(path)
        self.forced_format = format
        self.tail = LineTail(self.path)
        self.session = Session(self.path, format or "")
        self.adapter: LogAdapter | None = None

    def _start_adapter(self, name: str) -> LogAdapter:
        if name != CtxscopeAdapter.name:
            raise UnknownFormatError(f"unknown format {name!r}; known: {CtxscopeAdapter.name}")
        self.session.format = name
        return CtxscopeAdapter(self.session)

    def poll(self, max_bytes: int | None = None) -> ReadProgress:
        """Read what was appended since the last poll and apply it to :attr:`session`.

        On truncation or rotation the session is replaced by a fresh one read from byte 0; the
        returned progress says so and the new session carries a notice.
        """
        read = self.tail.read(max_bytes)
        if read.change is not None:
            self.session = Session(self.path, self.forced_format or "")
            self.adapter = None
            self.session.problems.add(
                read.change.value, 0, f"the file was {read.change.value}; read again from the start"
            )
        for number in read.oversize:
            self.session.problems.add(
                "oversize", number, f"line longer than {self.tail.max_line_bytes} bytes skipped"
            )
        self._apply(read.lines)
        return ReadProgress(len(read.lines), self.tail.offset, self.tail.size(), read.change)

    def _apply(self, lines: list[RawLine]) -> None:
        session = self.session
        for raw in lines:
            obj, problem = decode_line(raw.data)
            if problem is not None:
                session.problems.add(problem.kind, raw.number, problem.reason)
            if obj is None:
                continue
            if self.adapter is None:
                name = self.forced_format or _detect(obj)
                if name is None:
                    session.problems.add("unknown_event", raw.number, "line of no known format")
                    continue
                self.adapter = self._start_adapter(name)
            try:
                self.adapter.feed(obj, raw.number)
            except FormatError as exc:
                session.problems.add("wrong_type", raw.number, str(exc))
        session.lines_read = self.tail.line_number
        session.bytes_read = self.tail.offset

    def read_all(self) -> Session:
        """Read a finished file to its end, including a last line without a newline."""
        while True:
            position = self.tail.offset + self.tail.pending_bytes
            self.poll(max_bytes=16 << 20)
            if self.tail.offset + self.tail.pending_bytes == position:
                break
        last = self.tail.take_partial()
        if last is not None:
            self._apply([last])
        if self.adapter is not None:
            self.adapter.finish()
        elif self.session.lines_read and not self.session.scopes:
            raise UnknownFormatError(
                f"{os.path.basename(self.path)}: no line in a known format; known: {CtxscopeAdapter.name}"
            )
        return self.session


def read_session(path: str | os.PathLike[str], format: str | None = None) -> Session:
    """Read a finished log into a session."""
    return SessionReader(path, format).read_all()
