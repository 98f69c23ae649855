"""The demo cleans up after itself however it ends, and says what it counts; its summaries file no
small talk under Instructions."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from ctxscope.core.model import Block, BlockKind, Message
from ctxscope.core.pipeline import ExtractiveSummariser, SummaryRequest
from ctxscope.core.tokens import get_estimator
from ctxscope.tui.demo import DemoBar, PlaybackState
from ctxscope.tui.demo_temp import PREFIX, sweep_stale

CHILD = """
import sys, time
from ctxscope.tui import demo
from demo_sessions.scenarios import find

def run(app):  # instead of the terminal UI: say where the log is, then wait to be killed
    print(app.playback.path.parent, flush=True)
    time.sleep(60)

demo.DemoApp.run = run
demo.run_demo(find("eight-subagents"))
"""


def start_demo(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    """``ctxscope demo`` in a child process (temporary folders under ``tmp_path``)."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    folder = Path(child.stdout.readline().strip())
    assert folder.is_dir() and folder.parent == tmp_path
    return child, folder


def test_killed_by_sigterm_or_sighup_removes_the_folder(tmp_path: Path) -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        child, folder = start_demo(tmp_path)
        child.send_signal(sig)
        assert child.wait(30) == 128 + sig
        assert not folder.exists()


def test_a_sigkilled_demo_is_swept_by_the_next(tmp_path: Path) -> None:
    child, folder = start_demo(tmp_path)
    child.kill()
    child.wait(30)
    assert folder.exists()  # nothing can catch SIGKILL
    mine = tmp_path / f"{PREFIX}{os.getpid()}-running"
    mine.mkdir()
    assert sweep_stale(str(tmp_path)) == [str(folder)]
    assert not folder.exists() and mine.exists()  # a live demo's folder stays


def test_the_bar_says_its_count_is_over_all_agents() -> None:
    from demo_sessions.scenarios import find

    found = find("eight-subagents")
    assert found is not None
    bar = DemoBar(found)
    bar.state = PlaybackState(17, 367, 1.0, False, 0)
    assert "call 17 of 367 (all agents)" in bar.render().plain


def test_small_talk_is_not_an_instruction() -> None:
    chatter = ["lol", "haha yes", "cool, thanks", "brb", "ok", "back now", "sounds good"]
    messages = [Message(i, "user", [Block(BlockKind.TEXT, t)]) for i, t in enumerate(chatter, 1)]
    messages.append(Message(len(chatter) + 1, "user", [Block(BlockKind.TEXT, "Make the lunch vegan.")]))
    summary = ExtractiveSummariser()(SummaryRequest("", messages, 1, 2000, get_estimator("claude")))
    assert "Make the lunch vegan." in summary
    for text in chatter:
        assert f") {text}\n" not in summary + "\n", summary
