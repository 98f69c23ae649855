"""The ``ctxscope`` console script: argument parsing and dispatch to :mod:`ctxscope.tui.commands`.

Exit codes: 0 on success, 2 on usage errors or unreadable input (argparse's own convention), 1 when
the dashboard stopped on an internal error.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import stat
import sys
from collections.abc import Sequence
from typing import Final, NoReturn

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


QUICK_EXIT_COMMANDS: Final = frozenset({"report"})
"""Commands whose console-script process ends without the interpreter's teardown (see
:func:`quick_exit`): they start no thread and leave nothing to clean up once their output is out."""


def quick_exit(code: int) -> NoReturn:
    """End the process now, its output flushed, skipping the interpreter's teardown.

    After ``report`` has read a large log, freeing every object it still holds at exit costs about
    a tenth of the process's CPU (0.2 s at 200 MB) and changes nothing. Only the console script,
    which owns its process, ends this way (as only it tunes the collector). A reader that closed
    the pipe is not an error (as in :func:`main`); any other failure to flush is left to the
    interpreter's own exit, which reports it.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        os._exit(0)
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


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
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        try:
            module = importlib.import_module(f"ctxscope.tui.commands.{name}_cmd")
        except ModuleNotFoundError as exc:
            if exc.name != f"ctxscope.tui.commands.{name}_cmd":
                raise
            continue
        module.register(subparsers)
    return parser


class _VersionAction(argparse.Action):
    """``--version``, with the installed version looked up only when it is asked for
    (``importlib.metadata`` costs about 20 ms, paid otherwise by every command at start-up)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the installed version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"ctxscope {_version()}")  # on stdout, as argparse's own version action prints
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ctxscope")
    except PackageNotFoundError:
        return "(not installed)"


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the command line; an unknown option is reported by the command it was given to, with
    that command's usage (argparse would blame the top level, or ask for a COMMAND that is there).

    Raises:
        SystemExit: Bad usage (status 2, after a message on stderr), or ``--help``/``--version``.
    """
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        if extra:
            parser.error(f"unknown option {extra[0]!r}; give a command first (ctxscope COMMAND --help)")
        parser.error(f"give a command: {', '.join(COMMAND_MODULES)} (ctxscope --help says what each does)")
    if extra:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognised arguments: {' '.join(extra)}")
    return args


def log_path(path: str, *, folder: bool) -> str:
    """Check a log path from the command line and say precisely what is wrong with it.

    Args:
        path: A log file, or (``folder``) a folder whose newest log is meant.
        folder: Resolve a folder to its newest log (``open``, ``report``); otherwise a folder is
            returned as it is once it can be listed (``watch`` follows it).

    Raises:
        UsageError: Missing; inside a folder that cannot be looked into; a folder that cannot be
            listed or holds no log; a FIFO, socket or device; a file that cannot be read.
    """
    from ctxscope.core.adapters.opencode_db import database_file
    from ctxscope.core.follow import newest_log

    file = database_file(path)  # OpenCode's ``opencode.db#SESSION_ID`` names a session of the file
    try:
        mode = os.stat(file).st_mode
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file or folder") from None
    except PermissionError:
        raise UsageError(f"{path}: permission denied (its folder cannot be looked into)") from None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        if not os.access(path, os.R_OK | os.X_OK):
            raise UsageError(f"{path}: cannot read the folder (permission denied)")
        if not folder:
            return path
        newest = newest_log(path)
        if newest is None:
            raise UsageError(f"{path}: is a folder with no session log in it")
        return newest
    if not stat.S_ISREG(mode):
        from ctxscope.core.files import NotARegularFileError, open_regular

        try:
            open_regular(file).close()
        except NotARegularFileError as exc:
            raise UsageError(f"{path}: {exc}") from None
    if not os.access(file, os.R_OK):
        raise UsageError(f"{path}: cannot read the file (permission denied)")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Run a sub-command; ``argv`` None (the console script) also tunes the process's collector."""
    console_script = argv is None
    argv = sys.argv[1:] if argv is None else argv
    first = argv[0] if argv else "sessions"  # no command: the session browser
    parser = build_parser(first if first in COMMAND_MODULES else None)
    args = parse(parser, argv or ["sessions"])
    if console_script:
        tune_collector()  # the process is ctxscope's own; a caller passing argv keeps its settings
    try:
        code: int = args.handler(args)
    except UsageError as exc:
        from .widgets.text import clean  # the message may quote a file name or log text

        print(f"ctxscope {args.command}: {clean(str(exc), 2000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    if console_script and args.command in QUICK_EXIT_COMMANDS:
        quick_exit(code)
    return code


if __name__ == "__main__":
    sys.exit(main())
