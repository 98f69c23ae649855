"""The ``ctxscope`` console script: argument parsing and dispatch to :mod:`ctxscope.tui.commands`.

Exit codes: 0 on success, 2 on usage errors or unreadable input (argparse's own convention).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Sequence
from typing import Final

#: Sub-command modules under ``ctxscope.tui.commands``, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "sessions", "watch", "open", "demo", "report", "estimate", "bench", "statusline"
)


COLLECTOR_THRESHOLDS: Final = (50_000, 20, 20)
"""The cyclic garbage collector's thresholds in a ``ctxscope`` process (Python's default: 700, 10, 10)."""


def tune_collector() -> None:
    """The ``ctxscope`` process's own collector setting (the library never touches the collector).

    Reading a log builds hundreds of thousands of long-lived records that hold no reference cycles;
    with the default thresholds the collector traverses the growing heap again and again. The
    console script, which owns its process, freezes what start-up made (modules, classes) and
    collects the young generation less often. ``bench/bench_reader.py --cli-collector`` measures it.
    """
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


class UsageError(Exception):
    """Raised by a handler for bad input it finds after parsing; printed as one line, exit 2."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every sub-command, or of ``only`` (a command name): registering a command
    imports its module, and some import parts of core, so ``ctxscope statusline`` (run by Claude
    Code after every message) registers only itself."""
    parser = argparse.ArgumentParser(
        prog="ctxscope",
        description="See what fills an LLM agent's context window.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES if only is None else (only,):
        try:
            module = importlib.import_module(f"ctxscope.tui.commands.{name}_cmd")
        except ModuleNotFoundError as exc:
            if exc.name != f"ctxscope.tui.commands.{name}_cmd":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a sub-command; ``argv`` None (the console script) also tunes the process's collector."""
    console_script = argv is None
    argv = sys.argv[1:] if argv is None else argv
    first = argv[0] if argv else ""
    parser = build_parser(first if first in COMMAND_MODULES else None)
    args = parser.parse_args(argv or ["sessions"])  # no command: the session browser
    if console_script:
        tune_collector()  # the process is ctxscope's own; a caller passing argv keeps its settings
    try:
        code: int = args.handler(args)
    except UsageError as exc:
        print(f"ctxscope {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
