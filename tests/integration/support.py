"""Processes and ports for the integration tests: everything on 127.0.0.1, started and stopped by
the test, every wait bounded."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

CTXSCOPE = str(Path(sys.executable).with_name("ctxscope"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(probe: Callable[[], T | None], *, timeout: float, what: str, step: float = 0.1) -> T:
    """Call ``probe`` until it returns something other than None, for at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError):
            found = probe()
            if found is not None:
                return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


@contextlib.contextmanager
def running(argv: Sequence[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``argv`` with its output in ``log``; stopped (SIGTERM, then SIGKILL) on exit."""
    with open(log, "wb") as out:
        process = subprocess.Popen(list(argv), stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "NO_COLOR": "1"})
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
