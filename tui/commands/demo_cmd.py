"""``ctxscope demo [SCENARIO] [--speed X] [--list]``: play a bundled scenario live.

The scenario's scripted agents (``ctxscope.demo_sessions``) run the real pipeline at every model
call and write a ctxscope-format log, regenerated at each start (deterministic, a second or two);
the log is appended to a temporary file at the scenario's pace and the live dashboard follows it.
Textual is imported inside the handler so that other sub-commands start fast.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..cli import UsageError
from .watch_cmd import add_redact_argument

DEFAULT_SCENARIO = "eight-subagents"


def _speed(text: str) -> float:
    try:
        value = float(text.rstrip("xX×"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 1000:
        raise argparse.ArgumentTypeError("must be above 0 (1 is the scenario's own pace)")
    return value


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo",
        help="play a bundled scenario as if an agent were writing it live",
        description="Play a bundled scenario: scripted agents run the real compaction pipeline and "
        "write their log at a realistic pace while the live dashboard follows it; a caption explains "
        "each stage the first time it fires. Keys: space pause, n step, + and - speed, r restart, "
        "w side by side (scenarios 1 and 6), ? help, q quit.",
    )
    parser.add_argument("scenario", nargs="?", default=DEFAULT_SCENARIO, metavar="SCENARIO",
                        help=f"a scenario's name or number (default: {DEFAULT_SCENARIO}; see --list)")
    parser.add_argument("--speed", type=_speed, default=1.0, metavar="X",
                        help="playback speed: 2 is twice the scenario's pace, 0.5 half (default 1)")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    add_redact_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ctxscope.demo_sessions.scenarios import SCENARIOS, find

    from ..demo import scenario_list

    if args.list:
        sys.stdout.write(scenario_list(list(SCENARIOS.values())) + "\n")
        return 0
    scenario = find(args.scenario)
    if scenario is None:
        known = ", ".join(SCENARIOS)
        raise UsageError(f"no scenario {args.scenario!r}; known: {known} (or 1-{len(SCENARIOS)})")
    from ..demo import run_demo

    return run_demo(scenario, speed=args.speed, redact=args.redact)
