"""The demo's temporary folder: removed on quit, on SIGTERM/SIGHUP (its terminal closed), and — after
a SIGKILL, which nothing can catch — by the next ``ctxscope demo``.

Each folder is named ``ctxscope-demo-<pid>-<random>`` in the system's temporary folder; a start
sweeps away the folders of processes that no longer run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Iterator
from types import FrameType
from typing import Final

PREFIX: Final = "ctxscope-demo-"
_OWNED: Final = re.compile(re.escape(PREFIX) + r"(\d+)-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def sweep_stale(parent: str | None = None) -> list[str]:
    """Remove demo folders left by processes that are gone; the paths removed."""
    parent = parent or tempfile.gettempdir()
    removed = []
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    for name in names:
        match = _OWNED.match(name)
        if match and int(match.group(1)) != os.getpid() and not _alive(int(match.group(1))):
            path = os.path.join(parent, name)
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds the ``with`` below, which removes the folder


@contextlib.contextmanager
def demo_folder(parent: str | None = None) -> Iterator[str]:
    """A fresh temporary folder for one demo run (see the module docs for its cleanup)."""
    sweep_stale(parent)
    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(ValueError):  # not the main thread: leave the handlers
                previous[number] = signal.signal(number, _exit_on_signal)
    try:
        with tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-", dir=parent) as folder:
            yield folder
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
