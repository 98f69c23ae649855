"""Byte-offset JSONL reading: complete lines only, hostile input tolerated.

:class:`LineTail` keeps a byte offset into a file and, on each :meth:`LineTail.read`, returns the
complete lines appended since the last call. A half-written last line waits for its newline.
Truncation (the file became shorter than the offset) and replacement (its inode changed) are
reported as a :class:`FileChange` and reading starts again from byte 0.

:func:`decode_line` turns one line into a JSON object or a :class:`LineProblem`; it never raises.
Nothing in a line is ever evaluated.
"""

from __future__ import annotations

import enum
import io
import itertools
import json
import operator
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Final

import orjson

from .files import open_regular

READ_CHUNK: Final = 1 << 20
"""Bytes read per system call."""

_NEWLINES: Final = itertools.repeat(b"\n")


def split_lines(chunk: bytes) -> list[bytes]:
    """``chunk.split(b"\n")``, the same pieces, found with ``memchr`` (``bytes.split`` looks at one
    byte at a time: about twice as slow on log lines of a kilobyte or more)."""
    pieces = list(map(bytes.removesuffix, io.BytesIO(chunk).readlines(), _NEWLINES))
    if not pieces or chunk.endswith(b"\n"):
        pieces.append(b"")  # what follows the last newline (nothing yet)
    return pieces

MAX_LINE_BYTES: Final = 64 << 20
"""A line longer than this is skipped (counted as ``oversize``) without being held in memory."""

EXCERPT_CHARS: Final = 60
"""How much of a bad line is quoted in its problem reason (sanitised)."""

MARK_BYTES: Final = 64
"""Bytes just before the read offset remembered after each read, with the file's first
:data:`HEAD_MARK_BYTES` (a log's first line names its session): when they change, the file was
rewritten in place (``> log`` and new content, possibly longer than before) and is read again
from the start. Two ``pread`` calls a wake."""

HEAD_MARK_BYTES: Final = 4096

BOM: Final = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark some agents and editors write before a file's first byte."""

_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class FileChange(enum.StrEnum):
    TRUNCATED = "truncated"
    ROTATED = "rotated"
    REWRITTEN = "rewritten"
    """A whole-document log (a JSON array or object) changed and was read again."""


@dataclass(frozen=True, slots=True)
class RawLine:
    """One complete line: its 1-based number, byte offset of its start, and bytes (no newline)."""

    number: int
    offset: int
    data: bytes


@dataclass(frozen=True, slots=True)
class LineProblem:
    """Why a line was skipped (or repaired): a kind from :class:`~ctxscope.core.session.Problems`."""

    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class TailRead:
    """What one :meth:`LineTail.read` found.

    The complete lines are three parallel lists (no object per line: a reader goes through
    hundreds of thousands); :attr:`lines` gives them as :class:`RawLine` records.

    Attributes:
        data: The complete lines' bytes in file order (no newline, trailing ``\\r`` stripped).
        offsets: Byte offset of each line's start.
        numbers: 1-based number of each line (consecutive but for oversize lines).
        change: Set when the file was truncated or replaced; lines then start from byte 0.
        oversize: Line numbers skipped for being longer than the cap.
        bytes_read: Bytes consumed (complete lines only).
    """

    data: list[bytes]
    offsets: list[int]
    numbers: list[int]
    change: FileChange | None
    oversize: list[int]
    bytes_read: int

    @property
    def lines(self) -> list[RawLine]:
        """The complete lines as records, in file order."""
        return list(map(RawLine, self.numbers, self.offsets, self.data))


class LineTail:
    """Incremental reader of complete lines from a growing file.

    Args:
        path: The file to follow.
        max_line_bytes: Lines longer than this are skipped and reported, never held in memory.
    """

    def __init__(self, path: str | os.PathLike[str], max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.path = os.fspath(path)
        self.max_line_bytes = max_line_bytes
        self.offset = 0
        """Byte offset of the start of the first line not yet handed out."""
        self.line_number = 0
        """Number of the last complete line handed out (1-based)."""
        self._inode: int | None = None
        self._partial = bytearray()
        """The unfinished last line (when it is not being skipped)."""
        self._skipped = -1
        """Bytes of an oversize unfinished line seen so far; -1 when not skipping."""
        self._marks: tuple[tuple[int, bytes], ...] = ()
        """(position, bytes) of the file's first and of the last :data:`MARK_BYTES` bytes read."""

    @property
    def _held(self) -> int:
        return self._skipped if self._skipped >= 0 else len(self._partial)

    @property
    def pending_bytes(self) -> int:
        """Bytes of a half-written last line waiting for its newline."""
        return self._held

    def take_partial(self) -> RawLine | None:
        """Hand out the unfinished last line as complete (a finished file may lack a newline)."""
        if not self._partial:
            return None
        self.line_number += 1
        line = RawLine(self.line_number, self.offset, bytes(self._partial).rstrip(b"\r"))
        self.offset += len(self._partial)
        self._partial.clear()
        return line

    def size(self) -> int:
        """The file's current size in bytes (0 when it is missing)."""
        try:
            return os.stat(self.path).st_size
        except FileNotFoundError:
            return 0

    def read(self, max_bytes: int | None = None) -> TailRead:
        """Read the complete lines appended since the last call.

        Args:
            max_bytes: Stop after about this many bytes (so a caller can show progress on a big
                file); None reads to the end.

        Raises:
            OSError: The file cannot be opened (missing, permission, not a regular file: a FIFO
                or a device is never read). Callers report it.
        """
        change: FileChange | None = None
        with open_regular(self.path) as handle:
            stat = os.fstat(handle.fileno())
            if self._inode is not None and stat.st_ino != self._inode:
                change = FileChange.ROTATED
            elif stat.st_size < self.offset + self._held or not self._mark_holds(handle):
                change = FileChange.TRUNCATED
            if change is not None:
                self.offset = 0
                self.line_number = 0
                self._partial.clear()
                self._skipped = -1
            self._inode = stat.st_ino
            handle.seek(self.offset + self._held)
            read = self._consume(handle, max_bytes, change)
            if read.bytes_read or change is not None:
                fd = handle.fileno()
                tail = max(0, self.offset - MARK_BYTES)
                head = min(HEAD_MARK_BYTES, self.offset)
                self._marks = ((0, os.pread(fd, head, 0)), (tail, os.pread(fd, self.offset - tail, tail)))
            return read

    def _mark_holds(self, handle: BinaryIO) -> bool:
        """Whether the bytes already read are still there (the file was not rewritten in place)."""
        fd = handle.fileno()
        return all(os.pread(fd, len(data), position) == data for position, data in self._marks)

    def _consume(self, handle: BinaryIO, max_bytes: int | None, change: FileChange | None) -> TailRead:
        data: list[bytes] = []
        offsets: list[int] = []
        numbers: list[int] = []
        oversize: list[int] = []
        start_offset = self.offset
        remaining = max_bytes
        # ``max_bytes`` is a soft bound: reading goes on until at least one line is complete (or
        # an oversize one fully skipped), so a line longer than it is not left waiting for the
        # next write to the file.
        while remaining is None or remaining > 0 or self.offset == start_offset:
            chunk = handle.read(READ_CHUNK)
            if not chunk:
                break
            if remaining is not None:
                remaining -= len(chunk)
            pieces = split_lines(chunk)  # in C: no Python-level work per line
            rest = pieces.pop()
            if pieces and self._skipped >= 0:
                # The end of an oversize line (already reported): skip it.
                self.line_number += 1
                self.offset += self._skipped + len(pieces[0]) + 1
                self._skipped = -1
                del pieces[0]
            if pieces:
                if self._partial:
                    self._partial += pieces[0]
                    pieces[0] = bytes(self._partial)
                    self._partial.clear()
                self._lines(pieces, b"\r" in chunk, data, offsets, numbers, oversize)
            self._hold(rest, oversize)
        return TailRead(data, offsets, numbers, change, oversize, self.offset - start_offset)

    def _lines(
        self,
        pieces: list[bytes],
        cr: bool,
        data: list[bytes],
        offsets: list[int],
        numbers: list[int],
        oversize: list[int],
    ) -> None:
        """Hand out complete lines (``pieces``, newlines removed) starting at :attr:`offset`."""
        first = self.line_number + 1
        count = len(pieces)
        # starts[i] = offset + lengths of the lines before i + one newline each; starts[-1] is
        # where the next line starts.
        lengths = itertools.accumulate(map(len, pieces), initial=0)
        starts = list(map(operator.add, lengths, itertools.count(self.offset)))
        if max(map(len, pieces)) > self.max_line_bytes:
            for i, piece in enumerate(pieces):
                if len(piece) > self.max_line_bytes:
                    oversize.append(first + i)
                else:
                    data.append(piece.rstrip(b"\r"))
                    offsets.append(starts[i])
                    numbers.append(first + i)
        else:
            pieces[0] = pieces[0].rstrip(b"\r")  # its \r may have come in the previous chunk
            if cr:
                pieces = [piece.rstrip(b"\r") for piece in pieces]
            data += pieces
            offsets += starts[:-1]
            numbers += range(first, first + count)
        self.line_number += count
        self.offset = starts[-1]

    def _hold(self, rest: bytes, oversize: list[int]) -> None:
        """Keep an unfinished line for the next read, or skip it once it is too long."""
        if self._skipped >= 0:
            self._skipped += len(rest)
        elif len(self._partial) + len(rest) > self.max_line_bytes:
            oversize.append(self.line_number + 1)
            self._skipped = len(self._partial) + len(rest)
            self._partial.clear()
        else:
            self._partial += rest


def iter_lines(path: str | os.PathLike[str], max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[TailRead]:
    """Read a finished file in chunks of complete lines (for offline reading with progress)."""
    tail = LineTail(path, max_line_bytes)
    while True:
        chunk = tail.read(max_bytes=16 * READ_CHUNK)
        if not chunk.data and not chunk.oversize:
            return
        yield chunk


def sanitise_excerpt(data: bytes, limit: int = EXCERPT_CHARS) -> str:
    """A short, printable excerpt of raw bytes for a problem message: controls become ``?``."""
    text = data[: limit * 4].decode("utf-8", errors="replace")[:limit]
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def without_bom(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte-order mark (orjson refuses one): for every reader that
    parses a whole file as JSON. ``data`` itself when it has none (no copy)."""
    return data[len(BOM) :] if data.startswith(BOM) else data


def decode_line(data: bytes) -> tuple[dict[str, Any] | None, LineProblem | None]:
    """Parse one line into a JSON object.

    Returns:
        ``(obj, None)`` for a good line; ``(obj, problem)`` for a line that was repaired (invalid
        UTF-8 replaced with U+FFFD); ``(None, problem)`` for a line that was skipped. Blank lines
        return ``(None, None)``.
    """
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return decode_failed(data)
    if type(obj) is not dict:
        return None, not_an_object(obj)
    return obj, None


def decode_failed(data: bytes) -> tuple[dict[str, Any] | None, LineProblem | None]:
    """What :func:`decode_line` returns for a line ``orjson.loads`` refused (a reader that calls
    ``orjson.loads`` itself on its hot path comes here for the rest)."""
    # Checked only on failure: stripping every good line would copy it.
    if not data.strip():
        return None, None
    if data.startswith(BOM):
        return decode_line(data[len(BOM) :])
    lenient = _lenient(data)
    if lenient is not None:
        return lenient
    return _diagnose(data)


def _lenient(data: bytes) -> tuple[dict[str, Any] | None, LineProblem | None] | None:
    """Valid JSON that orjson refuses: lone surrogate escapes (``"\\ud83d"``, which real tool
    output holds) or a number beyond a double (``1e400``). The standard library reads it; lone
    surrogates become U+FFFD (they could not be encoded as UTF-8 later). None: not valid JSON."""
    try:
        obj = json.loads(data.decode("utf-8"))  # bytes would let json guess UTF-16 or UTF-32
        if type(obj) is dict and b"\\u" in data:
            text = json.dumps(obj, ensure_ascii=False)
            if _LONE_SURROGATE.search(text):
                obj = json.loads(text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace"))
    except (ValueError, RecursionError):
        return None
    if type(obj) is not dict:
        return None, not_an_object(obj)
    return obj, None


def not_an_object(obj: object) -> LineProblem:
    """The problem of a line that is JSON but not an object."""
    return LineProblem("wrong_type", f"expected a JSON object, got {type(obj).__name__}")


def _diagnose(data: bytes) -> tuple[dict[str, Any] | None, LineProblem | None]:
    if b"\x00" in data:
        return None, LineProblem("nul_bytes", f"NUL bytes in line: {sanitise_excerpt(data)!r}")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        try:
            repaired = orjson.loads(data.decode("utf-8", errors="replace"))
        except orjson.JSONDecodeError:
            return None, LineProblem("invalid_utf8", f"invalid UTF-8 at byte {exc.start}, not JSON")
        if isinstance(repaired, dict):
            return repaired, LineProblem(
                "repaired_utf8", f"invalid UTF-8 at byte {exc.start} replaced; event kept"
            )
        return None, LineProblem("wrong_type", "expected a JSON object")
    stripped = data.rstrip()
    if stripped and stripped[-1:] not in (b"}", b"]"):
        return None, LineProblem("invalid_json", f"truncated JSON: {sanitise_excerpt(data)!r}")
    return None, LineProblem("invalid_json", f"not valid JSON: {sanitise_excerpt(data)!r}")
