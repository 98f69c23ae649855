"""Token counts of a log's texts taken beside the reading, by a second process.

A counted read (:func:`~ctxscope.core.reader.open_log_counted`, ``ctxscope report``'s recorded lens)
needs each long text's count before it drops the text, and the counting is about a third of its
work. :class:`CountingWorker` hands each text to a forked child that counts it with the same
estimator while the reading goes on; the texts go down a pipe in order and the counts come back, in
the same order, once the reading is over (:meth:`CountingWorker.counts`). A count is the same number
whichever process takes it (the estimator is a pure function of the text), so the figures are those
of a read that counts as it goes.

:func:`start_worker` declines (None: count in the reading process) where a second process cannot
help or cannot be had: one usable core, or no core free by the load average (the worker would
wait for one, and handing it the texts costs about a tenth of the reading's CPU), threads running
(a fork would copy their locks), or ``fork`` failing. A child that dies or answers short makes
:meth:`CountingWorker.counts` raise :class:`CountingFailed`; its caller reads again counting itself.
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
from array import array
from typing import BinaryIO, Final

from .tokens import Estimator

FRAME: Final = struct.Struct("<q")
"""Each text goes down the pipe as its UTF-8 length, then its bytes."""

PIPE_BUFFER: Final = 1 << 20
"""Bytes buffered on each side of the pipe (a write is one system call per this many bytes)."""


class CountingFailed(RuntimeError):
    """The counting process died or answered short (the counts it owes are lost)."""


def usable_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def start_worker(estimator: Estimator) -> CountingWorker | None:
    """A worker counting with ``estimator``, or None where one would not help (no core free for
    it: one core, or the others already busy by the load average) or cannot be had."""
    cores = usable_cores()
    if cores < 2 or os.getloadavg()[0] > cores - 1:
        return None  # it would wait for a core, and pay for the handing over of the texts
    if threading.active_count() > 1 or not hasattr(os, "fork"):
        return None
    try:
        return CountingWorker(estimator)
    except OSError:
        return None


class CountingWorker:
    """A forked child counting texts sent to it, in order (see the module docs).

    Use :meth:`submit` for each text (its ticket is its position), then :meth:`counts` once.
    """

    def __init__(self, estimator: Estimator) -> None:
        texts_read, texts_write = os.pipe()
        counts_read, counts_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: count until the texts end, answer, leave without cleanup
            os.close(texts_write)
            os.close(counts_read)
            status = 1
            try:
                with open(texts_read, "rb", buffering=PIPE_BUFFER) as texts:
                    counted = _count_all(texts, estimator)
                with open(counts_write, "wb") as out:
                    out.write(counted.tobytes())
                status = 0
            finally:
                os._exit(status)
        os.close(texts_read)
        os.close(counts_write)
        self.pid = pid
        self.submitted = 0
        self.reaped = False
        """The child was waited for (by :meth:`counts` or :meth:`close`)."""
        self._texts: BinaryIO = open(texts_write, "wb", buffering=PIPE_BUFFER)  # noqa: SIM115
        self._counts = counts_read

    def submit(self, text: str) -> int:
        """Send a text to be counted; its ticket (an index into :meth:`counts`).

        Raises:
            CountingFailed: The child is gone (its end of the pipe closed).
        """
        data = text.encode("utf-8", "surrogatepass")
        try:
            self._texts.write(FRAME.pack(len(data)))
            self._texts.write(data)
        except BrokenPipeError:
            raise CountingFailed("the counting process is gone") from None
        ticket = self.submitted
        self.submitted += 1
        return ticket

    def counts(self) -> array[int]:
        """Every submitted text's count, by ticket (waits for the child to finish them).

        Raises:
            CountingFailed: The child died or answered short.
        """
        with contextlib.suppress(BrokenPipeError):  # the child is gone: its status says so
            self._texts.close()
        with open(self._counts, "rb") as answers:
            data = answers.read()
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        counted = array("q")
        if status == 0 and len(data) == self.submitted * counted.itemsize:
            counted.frombytes(data)
            return counted
        raise CountingFailed(f"the counting process answered {len(data)} bytes (status {status})")

    def close(self) -> None:
        """Stop the child without taking its counts (after a failed read); nothing once reaped."""
        if self.reaped:
            return
        with contextlib.suppress(BrokenPipeError):  # the child is gone: its status says so
            self._texts.close()
        os.close(self._counts)  # the child's answer then breaks its pipe: it exits
        os.waitpid(self.pid, 0)
        self.reaped = True


def _count_all(texts: BinaryIO, estimator: Estimator) -> array[int]:
    counted = array("q")
    read, count, size = texts.read, estimator.count, FRAME.size
    while header := read(size):
        (length,) = FRAME.unpack(header)
        counted.append(count(read(length).decode("utf-8", "surrogatepass")))
    return counted
