"""The ``ctxscope`` console script: argument parsing and dispatch to :mod:`ctxscope.tui.commands`.

Exit codes: 0 on success, 2 on usage errors or unreadable input (argparse's own convention).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Sub-command modules under ``ctxscope.tui.commands``, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "sessions", "watch", "open", "demo", "report", "estimate", "bench", "statusline"
)


class UsageError(Exception):
    """Raised by a handler for bad input it finds after parsing; printed as one line, exit 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ctxscope",
        description="See what fills an LLM agent's context window.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"ctxscope.tui.commands.{name}_cmd")
        except ModuleNotFoundError as exc:
            if exc.name != f"ctxscope.tui.commands.{name}_cmd":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv or ["sessions"])  # no command: the session browser
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
