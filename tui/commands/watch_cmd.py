"""``ctxscope watch PATH``: the live dashboard of a log being written (or the newest log in a folder).

Textual is imported inside the handler so that other sub-commands start fast.
"""

from __future__ import annotations

import argparse
from typing import Any


def positive_int(value: str) -> int:
    try:
        number = int(value.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of tokens: {value!r}") from None
    if number <= 0:
        raise argparse.ArgumentTypeError(f"must be above zero: {value!r}")
    return number


def add_dashboard_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments shared by ``watch`` and ``open``."""
    parser.add_argument(
        "path", metavar="PATH",
        help="a session log, or a folder such as a Claude Code project folder or ~/.codex/sessions "
        "(its newest log is shown); OpenCode's opencode.db shows its most recently updated session, "
        "opencode.db#SESSION_ID the one named",
    )
    parser.add_argument(
        "--format", metavar="NAME", default=None, help="force the log format (default: detect)"
    )
    parser.add_argument("--budget", metavar="N", type=positive_int, default=None,
                        help="working budget in tokens (default: from the log, else the pipeline's default)")
    parser.add_argument("--limit", metavar="N", type=positive_int, default=None,
                        help="hard context limit in tokens (default: from the log or the model)")
    add_lens_arguments(parser)
    parser.add_argument("--trigger", metavar="N", type=positive_int, default=None,
                        help="the agent's auto-compaction trigger in tokens (default: the agent's, "
                        "refined by the compactions seen)")
    add_redact_argument(parser)


LENS_HELP = ("recorded: what the agent sent and did (the default); pipeline: what ctxscope's pipeline "
             "would send for the same history (a what-if; the key l switches)")


def add_lens_arguments(parser: argparse.ArgumentParser, *, lens_help: str = LENS_HELP) -> None:
    """``--lens``, ``--window`` and ``--estimator``, shared by ``watch``, ``open`` and ``report``
    (``lens_help``: the command's own wording of ``--lens``)."""
    from ctxscope.core.lenses import LENSES
    from ctxscope.core.tokens import ESTIMATOR_NAMES

    parser.add_argument("--lens", choices=LENSES, default=None, help=lens_help)
    parser.add_argument("--window", metavar="N", type=positive_int, default=None,
                        help="the agent's context window in tokens (default: the log, else the model)")
    parser.add_argument("--estimator", choices=ESTIMATOR_NAMES, default=None,
                        help="token estimator (default: by the model family: claude or openai)")


def add_redact_argument(parser: argparse.ArgumentParser) -> None:
    """``--redact``, shared by ``watch``, ``open`` and ``demo``."""
    parser.add_argument(
        "--redact",
        action="store_true",
        help="show the shape of log text (kind and size) instead of its content: message previews, "
        "summary texts, sub-agent labels (for screen-sharing and screenshots); an export also "
        "hashes session ids and project paths",
    )


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "watch",
        help="live dashboard of an agent's session log (a file, or a folder: follows its newest log)",
        description="Follow an agent's session log as it is written and show how full the context "
        "window is and what compaction does at every model call. Keys: ? for help, q to quit.",
    )
    add_dashboard_arguments(parser)
    parser.add_argument(
        "--poll",
        action="store_true",
        help="poll the file instead of relying on file-system events (network, Docker and WSL mounts)",
    )
    from ..export_arguments import add_export_arguments

    add_export_arguments(parser)
    parser.add_argument("--headless", action="store_true",
                        help="no dashboard: follow the log and export only (with --otlp-endpoint and/or "
                        "--metrics-port; for CI runners and servers)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..app import run_dashboard
    from ..cli import UsageError
    from ..export import run_headless, start_export

    exporter = start_export(args)
    if exporter is None:
        if getattr(args, "headless", False):
            raise UsageError("--headless needs --otlp-endpoint URL and/or --metrics-port N")
        return run_dashboard(args, live=True)
    try:
        if getattr(args, "headless", False):
            return run_headless(args, exporter)
        return run_dashboard(args, live=True, export=exporter)
    finally:
        exporter.close()
