"""``ctxscope statusline``: the line Claude Code shows under its prompt, from its status-line JSON.

Install it with two lines in ``~/.claude/settings.json``::

    "statusLine": {"type": "command", "command": "ctxscope statusline"}

Claude Code pipes a JSON object to it (``transcript_path``, ``model``, ``context_window``); it
prints one line and exits 0 whatever happens (a failing status-line command blanks the line).
Only the transcript's end is read (:mod:`ctxscope.core.statusline`), never the whole of it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

MAX_STDIN: int = 1 << 20
"""Bytes of stdin read at most (Claude Code sends a few hundred)."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "statusline",
        help="one-line context summary for Claude Code's status line (reads its JSON on stdin)",
        description="Read Claude Code's status-line JSON on stdin and print one line: context used "
        "against the window, about how many calls until Claude Code compacts on its own, and the "
        "last compaction's size before and after. Install: \"statusLine\": {\"type\": \"command\", "
        "\"command\": \"ctxscope statusline\"} in ~/.claude/settings.json.",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ctxscope.core.statusline import TranscriptTail, parse_status_input, read_tail, status_line

    status = parse_status_input(sys.stdin.buffer.read(MAX_STDIN))
    tail = TranscriptTail()
    if status.transcript_path:
        with contextlib.suppress(OSError):  # a missing transcript still gets a line
            tail = read_tail(status.transcript_path)
    print(status_line(status, tail))
    return 0
