"""``ctxscope estimate [PATH|-]``: the token estimate of a text, split by writing script.

Reads PATH (or standard input for ``-`` or no PATH) as UTF-8, replacing undecodable bytes; at most
:data:`MAX_TEXT_BYTES`, and never a binary file (NUL bytes), UTF-16 text, a FIFO or a device. Without
``--json`` it prints a Rich table: characters, estimated tokens and what ``chars / 4`` would say per
script class, then the totals; with the exact extra installed, the real tokenizers' counts follow
(``exact-o200k``, ``exact-cl100k``, and ``exact-claude`` on Python >= 3.12). With ``--json`` it
prints one object (``exact_counts`` only has the exact estimators installed here)::

    {"estimator", "exact", "tokens", "chars", "chars4",
     "by_script": {class: {"chars", "tokens"}}, "exact_counts": {name: tokens}}

Exit codes: 0 on success; 2 on bad usage or unreadable input (one line on stderr).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from typing import Any

from ..cli import UsageError

MAX_TEXT_BYTES = 64 << 20
"""The most text ``estimate`` reads (``cat /dev/zero | ctxscope estimate -`` must not fill memory)."""

PATH_SHOWN = 80
"""The most characters of PATH an error message quotes (text passed as PATH can be any length)."""


def register(subparsers: Any) -> None:
    from ctxscope.core.tokens import DEFAULT_ESTIMATOR, ESTIMATOR_NAMES, EXACT_ESTIMATOR_NAMES

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "estimate",
        help="token estimate of a text, by writing script",
        description="Estimate the tokens of a text file (or standard input) and show how they split "
        "by writing script, next to what chars/4 would say.",
    )
    parser.add_argument("path", metavar="PATH", nargs="?", default="-",
                        help="a text file, or - (the default) for standard input")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument(
        "--estimator", default=DEFAULT_ESTIMATOR, metavar="NAME",
        help=f"one of {', '.join(ESTIMATOR_NAMES + EXACT_ESTIMATOR_NAMES)} "
        f"(default {DEFAULT_ESTIMATOR}; exact-* need pip install 'ctxscope[exact]')",
    )
    parser.set_defaults(handler=run)


def read_text(path: str) -> str:
    """The text to estimate: a file, or standard input for ``-``.

    Raises:
        UsageError: The file cannot be read.
    """
    from ctxscope.core.files import NotARegularFileError, looks_utf16, open_regular

    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
            data = stream.read(MAX_TEXT_BYTES + 1) if stream else sys.stdin.read(MAX_TEXT_BYTES + 1).encode()
        else:
            with open_regular(path) as handle:
                data = handle.read(MAX_TEXT_BYTES + 1)
    except NotARegularFileError as exc:
        raise UsageError(f"{path}: {exc.args[0].replace('a log file', 'a text file')}") from None
    except OSError as exc:
        raise UsageError(_unreadable(path, exc)) from None
    if len(data) > MAX_TEXT_BYTES:
        raise UsageError(f"{name}: more than {MAX_TEXT_BYTES >> 20} MB; estimate reads at most that")
    if looks_utf16(data):
        raise UsageError(f"{name}: UTF-16 text; estimate reads UTF-8 (convert: iconv -f UTF-16 -t UTF-8)")
    if b"\x00" in data[:65536]:
        raise UsageError(f"{name}: binary data (NUL bytes), not text")
    return data.decode("utf-8", errors="replace")


def _unreadable(path: str, exc: OSError) -> str:
    """Why PATH cannot be read, naming it in at most :data:`PATH_SHOWN` characters (its start and
    its end); what looks like text given in place of a file name gets a hint."""
    half = PATH_SHOWN // 2
    shown = path if len(path) <= PATH_SHOWN else f"{path[:half]}…{path[-(PATH_SHOWN - half - 1):]}"
    message = f"{shown}: {exc.strerror or exc}"
    looks_like_text = exc.errno == errno.ENAMETOOLONG or (
        exc.errno == errno.ENOENT and any(ch.isspace() for ch in path) and os.sep not in path
    )
    if looks_like_text:
        message += " (PATH names a file; to estimate text itself, pipe it: echo TEXT | ctxscope estimate)"
    return message


def run(args: argparse.Namespace) -> int:
    from ctxscope.core.exact import with_exact_counts
    from ctxscope.core.tokens import get_estimator

    try:
        estimator = get_estimator(args.estimator)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    text = read_text(args.path)
    result = with_exact_counts(estimator.breakdown(text), text)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    _print_table(result, args.path)
    return 0


def _print_table(result: Any, path: str) -> None:
    from ctxscope.core.exact import CLAUDE_HINT, claude_available
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..widgets.text import clean

    source = "standard input" if path == "-" else path
    what = "exact count" if result.exact else "estimated"
    table = Table(title=Text(f"{clean(source)} ({result.estimator}, {what})"), title_justify="left")
    table.add_column("script")
    table.add_column("chars", justify="right")
    table.add_column("tokens" if result.exact else "estimated tokens", justify="right")
    table.add_column("chars/4 would say", justify="right")
    table.add_column("chars/token", justify="right")
    for name, count in result.by_script.items():
        if not count.chars and not count.tokens:
            continue
        table.add_row(
            name, f"{count.chars:,}", f"{count.tokens:,}", f"{-(-count.chars // 4):,}",
            f"{count.chars / count.tokens:.2f}" if count.tokens else "—",
        )
    table.add_section()
    ratio = f"{result.tokens / result.chars4:.2f}× chars/4" if result.chars4 else "—"
    table.add_row(
        Text("total", style="bold"), f"{result.chars:,}", Text(f"{result.tokens:,}", style="bold"),
        f"{result.chars4:,}", f"{result.chars / result.tokens:.2f}" if result.tokens else "—",
    )
    console = Console()
    console.print(table)
    console.print(Text(f"{'count' if result.exact else 'estimate'} is {ratio}", style="dim"))
    for name, tokens in result.exact_counts.items():
        console.print(Text(f"{name}: {tokens:,} tokens (the real tokenizer)", style="dim"))
    if result.estimator == "claude" and not claude_available():
        console.print(Text(CLAUDE_HINT, style="dim"))
