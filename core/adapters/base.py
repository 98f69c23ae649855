"""What a format adapter is: the protocol the reader drives and the records of the format registry.

Two kinds of format exist:

* **line formats** (JSONL): the reader hands each decoded line to a :class:`LogAdapter`'s
  :meth:`~LogAdapter.feed` as it is read, so a growing file can be tailed;
* **document formats** (one JSON array or object per file): the reader parses the whole file and
  calls the format's ``read`` function once.

Each format has a ``detect`` predicate over a decoded line (or the whole document). Detection looks
at structure only; nothing in a log is ever evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..logformat import FormatError
from ..model import MAIN_SCOPE
from ..session import Session
from ._common import short


class UnknownEventError(FormatError):
    """A line of the right format with a record kind the adapter does not know (a newer agent
    version's addition, most often).

    The reader counts it by kind in :attr:`Session.unknown_kinds
    <ctxscope.core.session.Session.unknown_kinds>`, not as a problem, and reads on (other
    :class:`FormatError` s count as ``wrong_type`` problems).

    Args:
        kind: The record kind as the log names it (shortened and made printable here).
    """

    def __init__(self, kind: object) -> None:
        self.kind = short(kind)
        super().__init__(f"unknown record kind {self.kind!r}")


class LogAdapter(Protocol):
    """Turns decoded lines of one log format into session events."""

    def feed(self, obj: dict[str, Any], line: int) -> None:
        """Apply one decoded line; raise :class:`~ctxscope.core.logformat.FormatError` for a line
        that is JSON but not a valid event (the reader counts it and reads on)."""

    def finish(self) -> None:
        """Flush anything buffered (called when a finished file has been read through)."""


@runtime_checkable
class HoldsBack(Protocol):
    """A :class:`LogAdapter` that holds back part of what it read, to store it at once later."""

    def settle(self) -> None:
        """Store everything held back, so that the session holds every event read so far (the
        reader calls this after each batch of lines it fed)."""


@dataclass(frozen=True, slots=True)
class Source:
    """Which file an adapter reads and where its events go.

    Attributes:
        path: The file.
        scope_id: The scope every event of the file belongs to (a sub-agent file beside a
            session); None lets the adapter choose (``main`` and any inline sub-agents).
        parent_id: The parent scope of ``scope_id``.
        label: A human name for the scope.
        replays_parent: The file starts by replaying its parent's history (a Claude Code
            ``agent-acompact-*`` or ``agent-aside_question-*`` file): the reader reads it only
            once the parent's file is read to its current end, so that the parent claims its own
            calls first (:meth:`Session.claim_call <ctxscope.core.session.Session.claim_call>`).
    """

    path: str
    scope_id: str | None = None
    parent_id: str | None = None
    label: str = ""
    replays_parent: bool = False

    @property
    def default_scope(self) -> str:
        return self.scope_id or MAIN_SCOPE


AdapterFactory = Callable[[Session, Source], LogAdapter]
LineDetector = Callable[[Mapping[str, Any]], bool]
SiblingFinder = Callable[[str, str], list[Source]]
DocumentDetector = Callable[[Any], bool]
DocumentReader = Callable[[Session, Any], None]


@dataclass(frozen=True, slots=True)
class LineFormat:
    """A JSONL log format.

    Attributes:
        name: The name ``--format`` takes and :attr:`Session.format` reports.
        summary: One line saying what writes it.
        detect: True for a decoded line that only this format writes.
        factory: Makes the adapter for one file of the session.
        siblings: Finds the other files of the same session (sub-agent logs beside a Claude Code
            session) from the log's path and session id; called again while tailing, so files
            that appear later join.
        requires: What a line needs for ``detect`` to accept it, in a few words: the reader's
            refusal of a log of no known format quotes it for every format.
    """

    name: str
    summary: str
    detect: LineDetector
    factory: AdapterFactory
    siblings: SiblingFinder | None = None
    requires: str = ""


@dataclass(frozen=True, slots=True)
class DocumentFormat:
    """A whole-document JSON log format.

    Attributes:
        name: The name ``--format`` takes and :attr:`Session.format` reports.
        summary: One line saying what writes it.
        detect: True for a parsed document of this format.
        read: Reads the parsed document into a session. Raises
            :class:`~ctxscope.core.logformat.FormatError` when the document has the wrong shape;
            problems inside it (a bad message) are counted on the session instead.
        requires: What a document needs for ``detect`` to accept it (quoted by the refusal).
    """

    name: str
    summary: str
    detect: DocumentDetector
    read: DocumentReader
    requires: str = ""


TextDetector = Callable[[str], bool]
TextReader = Callable[[Session, str], None]


@dataclass(frozen=True, slots=True)
class TextFormat:
    """A plain-text (Markdown) log format, read whole like a document.

    Attributes:
        name: The name ``--format`` takes and :attr:`Session.format` reports.
        summary: One line saying what writes it.
        detect: True for the head of a file (its first few kilobytes, decoded) of this format.
        read: Reads the whole text into a session; problems inside it are counted on the session.
        requires: What the head needs for ``detect`` to accept it (quoted by the refusal).
    """

    name: str
    summary: str
    detect: TextDetector
    read: TextReader
    requires: str = ""
