"""``ctxscope open PATH``: the dashboard of a finished session, read once.

Textual is imported inside the handler so that other sub-commands start fast.
"""

from __future__ import annotations

import argparse
from typing import Any

from .watch_cmd import add_dashboard_arguments


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "open",
        help="offline dashboard of a finished session",
        description="Open a finished agent session log and step through its model calls: how full "
        "the context window was and what compaction did at each. Keys: ? for help, q to quit.",
    )
    add_dashboard_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..app import run_dashboard

    return run_dashboard(args, live=False)
