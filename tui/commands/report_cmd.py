"""``ctxscope report PATH``: replay a finished log through the pipeline and summarise each scope.

Without ``--json`` it prints Rich tables (every string from the log is shown literally, never read
as markup). With ``--json`` it prints one JSON object (documented in ``docs/pipeline.md``)::

    {"format", "source", "strategy",
     "scopes": [{"id", "parent", "label", "requests", "messages", "limit", "budget",
                 "max_sent_tokens", "max_calibrated_tokens", "over_limit_requests",
                 "refused_requests", "stage_runs": {"artifacts", "clear_tool_results", "summarize",
                 "guard", "trim_turns"}, "summaries": [{"request", "tokens_freed",
                 "summary_tokens", "recent_kept_tokens"}], "cached_prefix_ratio",
                 "reported": {"requests_with_usage", "max_prompt_tokens"},
                 "estimate_vs_reported": {"calls", "raw": {"median", "worst", …},
                                          "calibrated": {…}} | null}],
     "errors": {"bad_lines", "by_kind"}}

Exit codes: 0 on success; 2 on bad usage or unreadable input (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..cli import UsageError, log_path

STAGE_KEYS = ("artifacts", "clear_tool_results", "summarize", "guard", "trim_turns")


def _positive(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError("must be a fraction in (0, 1]")
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="replay a session log through the pipeline and summarise it",
        description="Replay a finished session log through the compaction pipeline and summarise "
        "each scope: requests, sizes, stage runs, summaries, cached prefix, reported usage.",
    )
    parser.add_argument("path", metavar="PATH", help="a session log (ctxscope format or a known agent log)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--budget", type=_positive, help="working budget in tokens (overrides the log)")
    parser.add_argument("--limit", type=_positive, help="hard limit in tokens (overrides the log)")
    parser.add_argument("--strategy", choices=("pipeline", "legacy"), default="pipeline",
                        help="pipeline (default) or legacy (trim only at user messages)")
    parser.add_argument("--clear-batch", type=_positive, help="tool results cleared per batch (default 4)")
    parser.add_argument("--trigger", type=_fraction, help="compaction trigger, fraction of the budget (1.0)")
    parser.add_argument("--target", type=_fraction, help="compaction target, fraction of the budget (0.9)")
    parser.add_argument("--no-summary", action="store_true", help="no summaries: fit turns instead")
    parser.add_argument("--format", dest="log_format", metavar="NAME", help="force the log format")
    parser.set_defaults(handler=run)


def build_report(args: argparse.Namespace) -> dict[str, Any]:
    """Read, replay and summarise; the JSON object ``--json`` prints.

    Raises:
        UsageError: The file is missing, unreadable or in no known format.
    """
    from ctxscope.core.logformat import FORMAT_NAME
    from ctxscope.core.pipeline import PipelineConfig
    from ctxscope.core.reader import UnknownFormatError, open_log
    from ctxscope.core.replay import SessionReplay, report_json
    from ctxscope.core.tokens import get_estimator
    from ctxscope.core.usage_check import check_usage

    path = log_path(args.path, folder=True)  # a folder: its newest log, as ``open`` does
    try:
        session = open_log(path, args.log_format, estimator=get_estimator(PipelineConfig().estimator))
    except UnknownFormatError as exc:
        raise UsageError(str(exc).splitlines()[0] if str(exc) else "unknown log format") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: {exc}") from None
    if not session.scopes:
        if session.problems.bad_lines:
            raise UsageError(f"{path}: no valid events ({session.problems.bad_lines} bad lines)")
        raise UsageError(f"{path}: the log is empty")
    try:
        config = PipelineConfig(strategy=args.strategy).replace(
            budget=args.budget, hard_limit=args.limit, clear_batch=args.clear_batch,
            trigger_fraction=args.trigger, target_fraction=args.target,
            summarise=False if args.no_summary else None,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    recorded = SessionReplay()
    recorded.update(session)
    replay = recorded
    if config != PipelineConfig():
        replay = SessionReplay(config, base=recorded)
        replay.update(session)
    # ctxscope's own logs are checked against the recorded replay's sent request (what the agent's
    # pipeline reported usage for); other agents' logs against their live context.
    usage = None if session.format == FORMAT_NAME else check_usage(session)
    recorded_snapshot = recorded.snapshot()
    snapshot = recorded_snapshot if replay is recorded else replay.snapshot()
    return report_json(
        snapshot, strategy=config.strategy, usage=usage, recorded=recorded_snapshot,
        estimator=config.estimator,
    )


def run(args: argparse.Namespace) -> int:
    report = build_report(args)
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    render_tables(report)
    return 0


def _tokens(value: int) -> str:
    """A token count in at most six characters: 812, 45.2k, 400k, 1.05M."""
    if value < 10_000:
        return f"{value:,}"
    if value < 1_000_000:
        return f"{value / 1000:.1f}k" if value < 100_000 else f"{value // 1000}k"
    return f"{value / 1_000_000:.2f}M"


def bad_lines_note(by_kind: dict[str, int]) -> str:
    """``1 bad line skipped (invalid_json 1); 1 line repaired and kept (repaired_utf8 1)``."""
    kept = {kind: n for kind, n in by_kind.items() if kind.startswith("repaired")}
    skipped = {kind: n for kind, n in by_kind.items() if kind not in kept}
    parts = []
    for counts, what in ((skipped, "bad {} skipped"), (kept, "{} repaired and kept")):
        if counts:
            total = sum(counts.values())
            detail = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
            parts.append(f"{total:,} " + what.format("line" if total == 1 else "lines") + f" ({detail})")
    return "; ".join(parts)


def render_tables(report: dict[str, Any]) -> None:
    """Print the report as Rich tables; log text is passed as ``Text`` (never parsed as markup)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..widgets.text import clean

    console = Console(highlight=False)
    errors = report["errors"]
    console.print(
        Text.assemble(
            ("ctxscope report ", "bold"), (clean(str(report["source"])), ""),
            (f"  format {report['format']}  strategy {report['strategy']}", "dim"),
        )
    )
    sizes = Table(title="requests and sizes (tokens)", box=box.SIMPLE_HEAD, header_style="bold",
                  title_justify="left", collapse_padding=True)
    stages = Table(title="what the pipeline did", box=box.SIMPLE_HEAD, header_style="bold",
                   title_justify="left", collapse_padding=True)
    for table in (sizes, stages):
        table.add_column("scope", overflow="ellipsis", no_wrap=True, min_width=7, max_width=16)
    for column in ("calls", "msgs", "budget", "limit", "max sent", "over limit", "refused", "reported"):
        sizes.add_column(column, justify="right", no_wrap=True)
    for column in ("1 artifacts", "2 clear", "3 summarise", "4 guard", "fit turns", "cached prefix"):
        stages.add_column(column, justify="right", no_wrap=True)
    for scope in report["scopes"]:
        runs = scope["stage_runs"]
        reported = scope["reported"]
        over, refused = scope["over_limit_requests"], scope["refused_requests"]
        sizes.add_row(
            Text(clean(str(scope["id"]))),
            f"{scope['requests']:,}",
            f"{scope['messages']:,}",
            _tokens(scope["budget"]),
            _tokens(scope["limit"]),
            _tokens(scope["max_sent_tokens"]),
            Text(f"{over:,}", "bold red" if over else ""),
            Text(f"{refused:,}", "bold red" if refused else ""),
            _tokens(reported["max_prompt_tokens"]) if reported["requests_with_usage"] else "—",
        )
        stages.add_row(
            Text(clean(str(scope["id"]))),
            *(f"{runs[k]:,}" for k in STAGE_KEYS),
            f"{scope['cached_prefix_ratio']:.1%}",
        )
    console.print(sizes)
    console.print(stages)
    checked = [(scope["id"], scope["estimate_vs_reported"]) for scope in report["scopes"]]
    checked = [(scope_id, usage) for scope_id, usage in checked if usage is not None]
    if checked:
        ratios = Table(
            title=f"estimate ÷ reported prompt tokens (estimator {report['estimator']})",
            box=box.SIMPLE_HEAD, header_style="bold", title_justify="left", collapse_padding=True,
        )
        ratios.add_column("scope", overflow="ellipsis", no_wrap=True, min_width=7, max_width=16)
        for column in ("calls", "raw median", "raw worst", "calibrated median", "calibrated worst",
                       "within 5%"):
            ratios.add_column(column, justify="right", no_wrap=True)
        for scope_id, usage in checked:
            raw, cal = usage["raw"], usage["calibrated"]
            ratios.add_row(
                Text(clean(str(scope_id))), f"{usage['calls']:,}",
                *(f"{stats[key]:.3f}" if stats else "—"
                  for stats in (raw, cal) for key in ("median", "worst")),
                f"{cal['within_5pct']:.0%}" if cal else "—",
            )
        console.print(ratios)
    console.print(
        Text(
            "Calls: model calls replayed. Reported: largest prompt the provider reported. Stage columns "
            "count the calls at which a stage ran. Cached prefix: share of the sent tokens that repeat "
            "the previous call's prefix (what a provider's prefix cache can reuse).",
            "dim",
        )
    )
    summaries = [(scope["id"], s) for scope in report["scopes"] for s in scope["summaries"]]
    if summaries:
        marks = Table(title="summaries (stage 3)", box=box.SIMPLE_HEAD, header_style="bold")
        marks.add_column("scope", overflow="ellipsis", no_wrap=True, max_width=18)
        for column in ("request", "freed", "summarised", "summary", "recent kept"):
            marks.add_column(column, justify="right", no_wrap=True)
        for scope_id, s in summaries:
            marks.add_row(
                Text(clean(str(scope_id))), f"#{s['request']}", _tokens(s["tokens_freed"]),
                _tokens(s["tokens_summarised"]), _tokens(s["summary_tokens"]),
                f"{_tokens(s['recent_kept_tokens'])} in {s['recent_kept_messages']} msgs",
            )
        console.print(marks)
    if errors["bad_lines"]:
        console.print(Text(bad_lines_note(errors["by_kind"]), "yellow"))
