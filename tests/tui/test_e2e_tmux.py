"""End to end: the real ``ctxscope watch`` in a real terminal (tmux), a log appended to, the new
figures read back from ``tmux capture-pane``.

tmux is an external process, so this test polls its screen (with a deadline); everything inside the
app is event-driven. Skips with a reason when tmux is not installed (CI: ``apt-get install tmux``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from ctxscope.core.logformat import SessionLogWriter

from . import fakes

TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="needs tmux (apt-get install tmux) to drive a real terminal"),
    pytest.mark.slow,
]


def ctxscope_command() -> list[str]:
    script = Path(sys.executable).with_name("ctxscope")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "ctxscope.tui.cli"]


class Tmux:
    def __init__(self, tmp_path: Path) -> None:
        self.socket = str(tmp_path / "tmux.sock")
        self.name = f"ctxscope-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-S", self.socket, *args], capture_output=True, text=True, timeout=20)
        return done.stdout

    def start(self, command: list[str], width: int, height: int) -> None:
        env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8"}
        # COLUMNS/LINES from the test runner would override the pane's real size.
        shell = "env -u COLUMNS -u LINES " + " ".join(f"{k}={v}" for k, v in env.items())
        shell += " " + " ".join(map(_quote, command))
        self.run("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), shell)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def wait_for(self, condition: Callable[[str], bool], timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"screen never matched; last screen:\n{screen}")

    def alive(self) -> bool:
        assert TMUX is not None
        return subprocess.run([TMUX, "-S", self.socket, "has-session", "-t", self.name],
                              capture_output=True, timeout=20).returncode == 0

    def kill(self) -> None:
        subprocess.run([TMUX, "-S", self.socket, "kill-server"], capture_output=True, timeout=20)


def _quote(part: str) -> str:
    return "'" + part.replace("'", "'\\''") + "'"


def test_watch_follows_appends_in_a_real_terminal(tmp_path: Path) -> None:
    log = tmp_path / "live.jsonl"
    fakes.write_session(log, turns=3)
    tmux = Tmux(tmp_path)
    tmux.start([*ctxscope_command(), "watch", str(log)], 120, 40)
    try:
        screen = tmux.wait_for(lambda s: "request #2 of 3" in s)
        assert "LIVE" in screen and "up to date" in screen
        with SessionLogWriter.create(log, append=True) as writer:
            fakes.write_turns(writer, 3, 4)
        screen = tmux.wait_for(lambda s: "request #6 of 7" in s)
        assert "Timeline · recorded · 7 requests" in screen
        figures = re.search(r"context ([\d,]+) (reported|estimated)", screen)
        assert figures is not None, screen
        tmux.run("send-keys", "-t", tmux.name, "Left")
        tmux.wait_for(lambda s: "request #5 of 7" in s and "follow off" in s)
        tmux.run("send-keys", "-t", tmux.name, "q")
        deadline = time.monotonic() + 10
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not tmux.alive(), "ctxscope did not exit on q"
    finally:
        tmux.kill()


def test_watch_rejects_a_missing_path(tmp_path: Path) -> None:
    done = subprocess.run([*ctxscope_command(), "watch", str(tmp_path / "nope.jsonl")],
                          capture_output=True, text=True, timeout=60, env={**os.environ})
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "no such file" in done.stderr
