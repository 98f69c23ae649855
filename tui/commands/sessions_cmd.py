"""``ctxscope sessions [DIR…] [--json]``: every agent session found, newest first.

Without ``--json`` it opens the session browser (``ctxscope`` with no arguments does too); with
``--json`` it prints the rows as a JSON list, one object per session with the fields of
:class:`ctxscope.core.sessions_index.SessionRow` (``docs/sessions.md``). Sessions are found in
every agent's home (Claude Code's ``~/.claude/projects``, honouring ``CLAUDE_CONFIG_DIR``;
Codex's ``~/.codex/sessions``, honouring ``CODEX_HOME``; …) and under the folders given.

Exit codes: 0 on success; 2 when a folder given does not exist.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cli import UsageError

if TYPE_CHECKING:
    from ctxscope.core.sessions_index import SessionRow


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sessions",
        help="every agent session at a glance (the default when no command is given)",
        description="List every agent session in the agents' homes and the folders given, newest "
        "first: agent, project, model, calls, context against the window, compactions, sub-agents, "
        "estimated cost. Type to filter, Enter opens the dashboard, Escape comes back.",
    )
    parser.add_argument("folders", metavar="DIR", nargs="*", help="more folders (or logs) to look in")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead")
    parser.add_argument("--no-homes", action="store_true",
                        help="only the folders given, not the agents' homes")
    parser.add_argument("--cache", metavar="PATH", default=None,
                        help="the cache database (default: $CTXSCOPE_CACHE_DIR, $XDG_CACHE_HOME/ctxscope "
                        "or ~/.cache/ctxscope)")
    parser.add_argument("--poll", action="store_true",
                        help="poll the folders instead of relying on file-system events (network, Docker "
                        "and WSL mounts)")
    parser.add_argument("--prometheus", metavar="URL", default=None,
                        help="list every host's sessions from this Prometheus server instead of local files")
    parser.add_argument("--export", action="store_true",
                        help="publish every session's figures (with --otlp-endpoint and/or --metrics-port)")
    from ..export_arguments import add_export_arguments

    add_export_arguments(parser, redact=True)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "prometheus", None):
        from .. import prometheus_source

        if getattr(args, "json", False):
            return prometheus_source.print_json(args.prometheus)
        prometheus_source.FleetApp(args.prometheus).run()
        return 0
    if getattr(args, "export", False):
        from ..export_browser import run_exporting

        return run_exporting(args)
    folders = list(getattr(args, "folders", []) or [])
    for folder in folders:
        if not os.path.exists(os.path.expanduser(folder)):
            raise UsageError(f"{folder}: no such file or folder")
    homes = not getattr(args, "no_homes", False)
    cache = getattr(args, "cache", None)
    if getattr(args, "json", False):
        return print_json(folders, homes, cache)
    from ..screens.sessions import SessionsApp

    SessionsApp(folders, homes=homes, cache=cache, force_polling=getattr(args, "poll", False)).run()
    return 0


def print_json(
    folders: list[str],
    homes: bool,
    cache: str | None,
    publish: Callable[[list[SessionRow]], None] | None = None,
) -> int:
    import orjson
    from ctxscope.core.homes import discover
    from ctxscope.core.sessions_index import SessionIndex

    with SessionIndex(cache, export=publish is not None) as index:
        rows = index.rows(discover(folders, homes=homes))
    if publish is not None:
        publish(rows)
    sys.stdout.buffer.write(orjson.dumps([row.to_json() for row in rows], option=orjson.OPT_INDENT_2) + b"\n")
    return 0
