"""Token counts of a log's long texts taken ahead of the reading, by a second process that reads
the file itself.

A counted read (:func:`~ctxscope.core.reader.open_log_counted`, ``ctxscope report``'s recorded
lens) counts each long text before it drops it, and the counting is about a third of its work. A
forked child (:func:`start`) reads the same file from its start on its own, decodes each line,
takes the Claude Code / Anthropic Messages blocks of every ``user`` and ``assistant`` line
(:func:`~ctxscope.core.adapters._common.anthropic_blocks`, the functions the adapter uses) and
counts every text longer than the threshold with the same estimator. It sends back only three
integers a text, the text's hash, its length and its count, never the text: handing the texts down
a pipe cost what counting them in a second process saved (59270af).

:class:`CountedAhead` is the reading's estimator: for a long text it takes the count the child
sent for a text of the same hash and length if there is one. The session reading with it defers
the count of a long text the child has not answered yet (it holds the text, up to
:data:`~ctxscope.core.session.DEFERRED_CHARS` characters of them, and adds the count to its
message's estimate when it comes; :class:`~ctxscope.core.session.CountsLater`), so the reading
does not count what the child, a little behind it, is about to; at the end of the log the
reading counts what is still unanswered itself, the newest first, while the child goes on from
the oldest. A count is a pure function of the text, so the figures are those of a read that
counts everything itself, whatever the child reaches, and whether it runs at all; only two
different texts of the same length and the same 64-bit hash, on the same read, could make them
differ. Nothing waits for the child.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from array import array
from typing import Final

import orjson

from .adapters._common import anthropic_blocks
from .jsonl import split_lines
from .model import BlockKind
from .tokens import Estimator, ScriptBreakdown

MIN_BYTES: Final = 16 << 20
"""A smaller log is counted in the reading process alone (a fork would cost more than it saves)."""

CHUNK_BYTES: Final = 1 << 20
"""The child reads, counts and answers this much of the file at a time."""

FREE_CORE: Final = 0.5
"""A core counts as free while the 1-minute load average stays this far below the usable cores
(this process's own reading is most of one)."""

_FIELDS: Final = 3
"""Integers sent per text: its hash, its length, its count."""

DRAIN_CHARS: Final = 256 << 10
"""After taking in the child's answers, the reading counts this many characters of long texts
itself before it looks for more (a look is a system call; until the two meet, every long text the
reading reaches is one the child has not)."""


def usable_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def worth_it(size: int) -> bool:
    """Whether a log of ``size`` bytes is counted ahead: a large enough file, two usable cores with
    one of them free by the load average (a child that waits for a core takes it from the reading),
    no other thread running (a fork would copy its locks) and ``fork`` available."""
    if size < MIN_BYTES or threading.active_count() > 1 or not hasattr(os, "fork"):
        return False
    cores = usable_cores()
    try:
        load = os.getloadavg()[0]
    except OSError:  # not known here: no core is known to be free
        return False
    return cores >= 2 and load < cores - FREE_CORE


class CountedAhead:
    """An estimator that takes the counts of long texts from the child (see the module docs).

    Use it as the reading's estimator, then :meth:`close` it (stops and waits for the child)."""

    def __init__(self, inner: Estimator, threshold: int, answers: int, pid: int | None) -> None:
        self.inner = inner
        self.threshold = threshold
        """Texts this long or shorter are counted here (the child counts only longer ones)."""
        self.counts: dict[int, tuple[int, int]] = {}
        """Text hash → (length, count) the child sent (kept: a log repeats texts, a command or a
        file read again; a few bytes a long text)."""
        self.answers: int | None = answers
        """The read end of the child's pipe (None once the child has said all or is closed)."""
        self.pid = pid
        """The child (None: ``answers`` is a file the child wrote, or the child was waited for)."""
        self.taken = 0
        """Counts taken from the child (what the tests check)."""
        self._partial = b""
        self._uncounted = 0
        """Characters of long texts to count here before the child's answers are looked at again."""
        self._owner = os.getpid()
        """The process that started the child: the only one that may stop it and wait for it (a
        process forked later holds a copy of this object, not the child)."""
        os.set_blocking(answers, False)

    @property
    def name(self) -> str:
        return self.inner.name

    def breakdown(self, text: str) -> ScriptBreakdown:
        return self.inner.breakdown(text)

    def count(self, text: str) -> int:
        found = self.known(text)
        return self.inner.count(text) if found is None else found

    def known(self, text: str) -> int | None:
        """The child's count of a long ``text`` if it has sent it (None: not yet, or a text this
        short, which the child does not count); nothing is counted here (see
        :meth:`~ctxscope.core.session.Session.settle_counts`)."""
        length = len(text)
        if length <= self.threshold:
            return None
        key = hash(text)
        found = self.counts.get(key)
        if found is None and self.answers is not None and self._uncounted <= 0:
            self._drain()
            self._uncounted = DRAIN_CHARS
            found = self.counts.get(key)
        if found is not None and found[0] == length:
            self.taken += 1
            return found[1]
        self._uncounted -= length
        return None

    def _drain(self) -> None:
        """Take in whatever the child has sent (without waiting)."""
        assert self.answers is not None
        data = self._partial
        while True:
            try:
                more = os.read(self.answers, 1 << 20)
            except BlockingIOError:
                break
            if not more:  # the child has said all
                os.close(self.answers)
                self.answers = None
                break
            data += more
        size = _FIELDS * 8
        whole = len(data) - len(data) % size
        self._partial = data[whole:]
        numbers = array("q")
        numbers.frombytes(data[:whole])
        counts = self.counts
        for i in range(0, len(numbers), _FIELDS):
            counts[numbers[i]] = (numbers[i + 1], numbers[i + 2])

    def close(self) -> None:
        """Stop the child (it may still be reading) and wait for it; let its counts go.

        Safe to call again, after the child exited (or was waited for elsewhere), and from a
        process forked after :func:`start` (which only lets its copy of the pipe go)."""
        answers, self.answers = self.answers, None
        if answers is not None:
            with contextlib.suppress(OSError):
                os.close(answers)
        pid, self.pid = self.pid, None
        if pid is not None and os.getpid() == self._owner:
            _stop(pid)
        self.counts.clear()


def _stop(pid: int) -> None:
    """Stop and reap the child ``pid`` unless it has exited; never signal a process that is not an
    unreaped child of this one (once reaped, its pid may be another process's)."""
    try:
        exited, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return  # reaped elsewhere (or never ours): its pid may name another process now
    if exited:
        return  # it had finished; now reaped
    # Still an unreaped child of ours: its pid cannot have been reused (a child that exits from
    # here on stays a zombie until the wait below).
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def start(path: str, estimator: Estimator, threshold: int, size: int) -> CountedAhead | None:
    """Fork a child counting the long texts of ``path``'s first ``size`` bytes; None if the fork
    fails."""
    try:
        answers, out = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the child: count, answer, leave without cleanup
        os.close(answers)
        status = 1
        try:
            _count_file(path, size, estimator, threshold, out)
            status = 0
        finally:
            os._exit(status)
    os.close(out)
    return CountedAhead(estimator, threshold, answers, pid)


_SKIPPED: Final = (BlockKind.SUMMARY,)


def _count_file(path: str, size: int, estimator: Estimator, threshold: int, out: int) -> None:
    """Count the long texts of the file's first ``size`` bytes, from its start, a chunk of whole
    lines at a time, answering after each chunk (until the reading closes the pipe). The reading
    defers the counts it has not got (:meth:`~ctxscope.core.session.Session.settle_counts`), so
    the child answers in the order the reading asks."""
    position = 0
    held = bytearray()
    """The start of a line that goes on in the next chunk."""
    with open(path, "rb") as handle, open(out, "wb") as answer:
        while position < size:
            data = handle.read(min(CHUNK_BYTES, size - position))
            if not data:
                return  # the file shrank: the reading says what happened
            position += len(data)
            end = len(data) if position >= size else data.rfind(b"\n") + 1
            if not end:
                held += data  # inside a line longer than a chunk
                continue
            whole = bytes(held) + data[:end]
            held = bytearray(data[end:])
            numbers = _counts(split_lines(whole), estimator, threshold)
            if numbers:
                try:
                    answer.write(numbers.tobytes())
                    answer.flush()
                except BrokenPipeError:
                    return  # the reading is over


def _counts(lines: list[bytes], estimator: Estimator, threshold: int) -> array[int]:
    """(hash, length, count) of every long text in the message blocks of ``lines``."""
    count, loads = estimator.count, orjson.loads
    numbers = array("q")
    for line in lines:
        if b'"content"' not in line:
            continue  # no message in it
        try:
            obj = loads(line)
            if type(obj) is not dict or obj.get("type") not in ("user", "assistant"):
                continue
            message = obj.get("message")
            if type(message) is not dict:
                continue
            blocks = anthropic_blocks(message.get("content"))
        except Exception:  # the reading judges the line; no count is taken of it
            continue
        for block in blocks:
            text = block.text
            if len(text) > threshold and block.kind not in _SKIPPED:
                numbers.extend((hash(text), len(text), count(text)))
    return numbers
