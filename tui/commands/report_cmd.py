"""``ctxscope report PATH``: summarise each scope of a finished log in one lens.

The recorded lens (the default) reports what the agent sent and did: the reported prompt of
every call (reconstructed where the call has no usage) and the agent's own compactions. The
pipeline lens (``--lens pipeline``; also with ``--budget``, ``--limit``, ``--strategy``…) reports
what ctxscope's pipeline would send for the same history: a what-if.

Without ``--json`` it prints Rich tables (every string from the log is shown literally, never read
as markup). With ``--json`` it prints :meth:`~ctxscope.core.analysis.SessionSummary.to_json`,
documented field by field in ``docs/report-json.md``.

Exit codes: 0 on success; 2 on bad usage or unreadable input (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..cli import UsageError, log_path

if TYPE_CHECKING:
    from collections.abc import Callable

    from ctxscope.core.analysis import ScopeSummary, SessionSummary
    from ctxscope.core.session import Session
    from ctxscope.core.snapshot import Lens, StoredVolume
    from rich.table import Table
    from rich.text import Text

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


def _trigger(text: str) -> float | int:
    """``--trigger``: a fraction of the budget (the pipeline's, up to 1) or tokens (the agent's)."""
    try:
        value = float(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be above zero")
    return value if value <= 1 else int(value)


def register(subparsers: Any) -> None:
    from .watch_cmd import add_lens_arguments

    parser = subparsers.add_parser(
        "report",
        help="summarise a session log: what the agent sent and did, or the pipeline's what-if",
        description="Summarise each scope of a finished session log: requests, context sizes, the "
        "agent's own compactions, reported usage (recorded lens), or what ctxscope's pipeline would "
        "have sent (pipeline lens).",
    )
    parser.add_argument("path", metavar="PATH", help="a session log (ctxscope format or a known agent log; "
                        "OpenCode's opencode.db: its most recently updated session, "
                        "opencode.db#SESSION_ID: the one named)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--per-request", action="store_true",
                        help="with --json: add each request's figure and its source")
    add_lens_arguments(
        parser,
        lens_help="recorded: what the agent sent and did (the default); pipeline: what ctxscope's pipeline "
        "would send for the same history (a what-if; the default with --budget, --limit, --strategy, "
        "--clear-batch, --target, --no-summary or a fractional --trigger). Either lens for any log, "
        "ctxscope's own too",
    )
    parser.add_argument("--budget", type=_positive, help="working budget in tokens (overrides the log)")
    parser.add_argument("--limit", type=_positive, help="hard limit in tokens (overrides the log)")
    parser.add_argument("--strategy", choices=("pipeline", "legacy"), default="pipeline",
                        help="pipeline (default) or legacy (trim only at user messages)")
    parser.add_argument("--clear-batch", type=_positive, help="tool results cleared per batch (default 4)")
    parser.add_argument("--trigger", type=_trigger,
                        help="up to 1: the pipeline's trigger as a fraction of the budget (1.0); "
                        "above 1: the agent's auto-compaction trigger in tokens")
    parser.add_argument("--target", type=_fraction, help="compaction target, fraction of the budget (0.9)")
    parser.add_argument("--no-summary", action="store_true", help="no summaries: fit turns instead")
    parser.add_argument("--format", dest="log_format", metavar="NAME", help="force the log format")
    parser.set_defaults(handler=run)


def build_summary(args: argparse.Namespace) -> SessionSummary:
    """Read and analyse; the summary in the lens asked for.

    Options that change the pipeline (``--budget``, ``--limit``, ``--strategy``…) select the
    pipeline lens unless ``--lens`` says otherwise.

    Raises:
        UsageError: The file is missing, unreadable or in no known format.
    """
    from ctxscope.core.analysis import AnalysisOptions, analyse
    from ctxscope.core.pipeline import PipelineConfig

    path = log_path(args.path, folder=True)  # a folder: its newest log, as ``open`` does
    trigger = args.trigger
    try:
        config = PipelineConfig(strategy=args.strategy).replace(
            budget=args.budget, hard_limit=args.limit, clear_batch=args.clear_batch,
            trigger_fraction=trigger if isinstance(trigger, float) else None,
            target_fraction=args.target, summarise=False if args.no_summary else None,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    lens: Lens = args.lens or ("pipeline" if config != PipelineConfig() else "recorded")
    session = _read(path, args.log_format, args.estimator, whole_text=lens == "pipeline")
    options = AnalysisOptions(
        lens=lens, config=config, window=args.window,
        trigger=trigger if isinstance(trigger, int) else None, estimator=args.estimator,
        breakdowns=False,  # the report prints no request's breakdown
    )
    return analyse(session, options).summary(strategy=config.strategy)


def _read(path: str, log_format: str | None, estimator: str | None, *, whole_text: bool) -> Session:
    """Read the log. The recorded lens of another agent's log needs each message's count, not its
    text: messages are counted as they are read, by the estimator the analysis will use, and their
    text is let go (:func:`~ctxscope.core.reader.open_log_counted`). The pipeline lens, and the
    recorded lens of ctxscope's own logs (the pipeline's own replay), read every text whole.

    Raises:
        UsageError: The file is missing, unreadable, empty or in no known format.
    """
    from ctxscope.core.analysis import session_model_estimator
    from ctxscope.core.logformat import FORMAT_NAME
    from ctxscope.core.reader import UnknownFormatError, open_log, open_log_counted
    from ctxscope.core.tokens import get_estimator

    try:
        if whole_text:
            chosen = get_estimator(estimator) if estimator else None
            session = open_log(path, log_format, text_cap=None, estimator=chosen)
        else:
            session = open_log_counted(
                path, log_format,
                estimator_for=lambda s: get_estimator(estimator or session_model_estimator(s)),
                whole_text_formats=(FORMAT_NAME,),  # its recorded lens replays the pipeline over the text
            )
    except UnknownFormatError as exc:
        raise UsageError(str(exc).splitlines()[0] if str(exc) else "unknown log format") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: {exc}") from None
    if not session.scopes:
        if session.problems.bad_lines:
            raise UsageError(f"{path}: no valid events ({session.problems.bad_lines} bad lines)")
        raise UsageError(f"{path}: the log is empty")
    for notice in session.problems.notices:
        if notice.kind == "chosen":  # which session of an OpenCode database was read
            print(f"{path}: {notice.reason}", file=sys.stderr)
    return session


def run(args: argparse.Namespace) -> int:
    summary = build_summary(args)
    if args.json:
        import orjson

        report = summary.to_json(per_request=args.per_request)
        sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    render_tables(summary)
    return 0


def _assumed_note(scopes: list[ScopeSummary]) -> str:
    """What a ``?`` in the recorded lens's sizes means: a window or trigger the log does not give."""
    from ..widgets.text import clean

    names = ", ".join(clean(scope.scope_id) for scope in scopes[:3]) + (" …" if len(scopes) > 3 else "")
    parts = []
    if any(not scope.window_known for scope in scopes):
        parts.append(
            "the window is ctxscope's default: the log names no model of a known window (--window N sets it)"
        )
    if any(not scope.trigger_known for scope in scopes):
        parts.append(
            "no auto-compaction trigger is known for this agent, so the window stands in for it: 'over "
            "trigger' counts calls over the window and no next compaction is forecast (--trigger N sets it)"
        )
    return f"? ({names}): " + "; ".join(parts) + "."


def _agent_errors_note(scope: ScopeSummary, recorded: bool) -> Text:
    """``main: 2 API errors the agent got in place of a response, 1 of them 'prompt too long' …``."""
    from rich.text import Text

    from ..widgets.text import clean

    errors = scope.agent_errors
    plural = "s" if errors.count != 1 else ""
    note = f"{clean(scope.scope_id)}: {errors.count:,} API error{plural} the agent got in place of a response"
    if errors.context_length:
        note += f", {errors.context_length:,} of them 'prompt too long'"
        note += " (counted as refused)" if recorded else " (refused calls of the agent, not of the what-if)"
    return Text.assemble((note + "; latest: ", "yellow"), (clean(errors.latest, 160), "dim"))


def _no_call_note(scope_id: str, volume: StoredVolume) -> str:
    """``main: no model call in the log (it records no per-call usage); 123 messages stored …``."""
    from ..widgets.text import clean

    note = (f"{clean(scope_id)}: no model call in the log (it records no per-call usage); "
            f"{volume.messages:,} messages stored ({volume.tool_calls:,} tool calls), "
            f"≈{_tokens(volume.estimated_tokens)} tokens estimated")
    usage = volume.turn_usage
    if usage is not None:
        turns = f"{volume.turns:,} turn{'s' if volume.turns != 1 else ''}"
        note += (f"; reported for {turns}, its calls summed: {usage.prompt_tokens:,} input "
                 f"({usage.cached_prompt_tokens:,} cached), {usage.output_tokens:,} output"
                 " — not a context size")
    return note + "."


def _tokens(value: int) -> str:
    """A token count in at most six characters: 8,120, 45.2k, 165k, 1.05M — from 10,000 on, the
    dashboard's short form (:func:`ctxscope.core.short_form.tokens`: rounded, so 164,831 reads
    165k in both)."""
    from ctxscope.core.short_form import tokens

    return f"{value:,}" if value < 10_000 else tokens(value)


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


def render_tables(summary: SessionSummary) -> None:
    """Print the summary as Rich tables (legible at 80 columns and when piped); log text is
    passed as ``Text`` (never parsed as markup)."""
    from ctxscope.core.logformat import FORMAT_NAME
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..widgets.text import clean

    console = Console(highlight=False)
    recorded = summary.lens == "recorded"
    lens_note = "recorded lens: what the agent sent" if recorded else "pipeline lens: a what-if"
    console.print(
        Text.assemble(
            ("ctxscope report ", "bold"), (clean(str(summary.source)), ""),
            (f"  format {summary.format}  estimator {summary.estimator}", "dim"),
        )
    )
    if recorded and summary.format == FORMAT_NAME:
        lens_note += " (ctxscope's own log: the recorded and pipeline lenses coincide)"
    console.print(Text(f"{lens_note}" + ("" if recorded else f", strategy {summary.strategy}"), "bold"))

    def table(title: str) -> Table:
        out = Table(title=title, box=box.SIMPLE_HEAD, header_style="bold", title_justify="left",
                    collapse_padding=True, pad_edge=False)
        out.add_column("scope", overflow="ellipsis", no_wrap=True, min_width=6, max_width=12)
        return out

    sizes = table("requests and context (tokens)")
    for column in ("calls", "msgs", "window" if recorded else "limit",
                   "trigger" if recorded else "budget", "peak",
                   "over\ntrigger" if recorded else "over\nbudget",
                   "refused", "max\nreported"):
        sizes.add_column(column, justify="right", no_wrap=True)
    for scope in summary.scopes:
        sizes.add_row(
            Text(clean(scope.scope_id)),
            f"{scope.requests:,}",
            f"{scope.messages:,}",
            _tokens(scope.limit) + ("" if scope.window_known else "?"),
            _tokens(scope.trigger if recorded else scope.budget) + ("" if scope.trigger_known else "?"),
            _tokens(scope.peak),
            Text(f"{scope.over_budget_requests:,}", "bold red" if scope.over_budget_requests else ""),
            Text(f"{scope.refused_requests:,}", "bold red" if scope.refused_requests else ""),
            _tokens(scope.max_prompt_tokens) if scope.requests_with_usage else "—",
        )
    console.print(sizes)
    assumed = [scope for scope in summary.scopes if not (scope.window_known and scope.trigger_known)]
    if recorded and assumed:
        console.print(Text(_assumed_note(assumed), "dim"))
    for scope in summary.scopes:
        if scope.agent_errors.count:
            console.print(_agent_errors_note(scope, recorded))
        if not scope.requests and scope.stored_volume is not None:
            console.print(Text(_no_call_note(scope.scope_id, scope.stored_volume), "dim"))
    if recorded:
        did = table("what the agent did")
        for column in ("compactions", "micro-\ncompacts", "freed", "next compaction"):
            did.add_column(column, justify="right", no_wrap=True)
        for scope in summary.scopes:
            left = scope.forecast_requests_left
            did.add_row(
                Text(clean(scope.scope_id)),
                f"{scope.stage_runs.get('summarize', 0):,}",
                f"{scope.stage_runs.get('clear_tool_results', 0):,}",
                _tokens(sum(scope.tokens_freed.values())),
                "unknown" if not scope.trigger_known
                else "now" if left == 0 else "—" if left is None else f"in ≈{left:,} calls",
            )
    else:
        did = table("what the pipeline would do (what-if)")
        for column in ("1 arti-\nfacts", "2 clear", "3 sum-\nmarise", "4 guard", "fit\nturns",
                       "cached\nprefix"):
            did.add_column(column, justify="right", no_wrap=True)
        for scope in summary.scopes:
            did.add_row(
                Text(clean(scope.scope_id)),
                *(f"{scope.stage_runs.get(k, 0):,}" for k in STAGE_KEYS),
                f"{scope.cached_prefix_ratio:.1%}",
            )
    console.print(did)
    checked = [scope for scope in summary.scopes if scope.estimate_raw is not None]
    if checked:
        ratios = table("estimate ÷ reported prompt (recorded lens)")
        for column in ("calls", "raw\nmedian", "raw\nworst", "calibrated\nmedian", "calibrated\nworst",
                       "within\n5%"):
            ratios.add_column(column, justify="right", no_wrap=True)
        for scope in checked:
            raw, cal = scope.estimate_raw, scope.estimate_calibrated
            ratios.add_row(
                Text(clean(scope.scope_id)), f"{scope.estimate_calls:,}",
                *(f"{getattr(stats, key):.3f}" if stats else "—"
                  for stats in (raw, cal) for key in ("median", "worst")),
                f"{cal.within_5pct:.0%}" if cal else "—",
            )
        console.print(ratios)
    console.print(_cost_table(summary, table))
    console.print(
        Text(
            "Peak: largest context of a call (reported where the call has usage, else the calibrated "
            "estimate). Calibrated: the previous reported prompt plus the estimate of what was "
            "added since (docs/report-json.md)." if recorded else
            "Peak: largest calibrated request the pipeline would send. Stage columns count the "
            "calls at which a stage ran. Cached prefix: share of the sent tokens that repeat the "
            "previous call's prefix.",
            "dim",
        )
    )
    compactions = [(scope.scope_id, c) for scope in summary.scopes for c in scope.agent_compactions]
    if compactions:
        marks = table("the agent's compactions")
        for column in ("call", "kind", "trigger", "before", "after", "freed", "summary", "kept"):
            marks.add_column(column, justify="right", no_wrap=True)
        for scope_id, c in compactions:
            marks.add_row(
                Text(clean(scope_id)), f"#{c.request}", c.kind, Text(clean(c.trigger or "—")),
                _maybe(c.tokens_before), _maybe(c.tokens_after), _maybe(c.tokens_freed),
                _tokens(c.summary_tokens), _tokens(c.kept_tokens),
            )
        console.print(marks)
    summaries = [(scope.scope_id, s) for scope in summary.scopes for s in scope.summaries]
    if summaries and not recorded:
        marks = table("summaries the pipeline would make (stage 3, what-if)")
        for column in ("call", "freed", "summarised", "summary", "recent kept"):
            marks.add_column(column, justify="right", no_wrap=True)
        for scope_id, s in summaries:
            marks.add_row(
                Text(clean(scope_id)), f"#{s.request_index}", _tokens(s.tokens_freed),
                _tokens(s.tokens_summarised), _tokens(s.summary_tokens),
                f"{_tokens(s.recent_kept_tokens)} in {s.recent_kept_messages} msgs",
            )
        console.print(marks)
    if summary.bad_lines:
        console.print(Text(bad_lines_note(dict(summary.bad_lines)), "yellow"))


def _cost_table(summary: SessionSummary, table: Callable[[str], Table]) -> Table:
    """Cost per scope and for the session: ctxscope's estimate beside the agent's own figure."""
    from ctxscope.core.pricing import PRICES_TAKEN, format_dollars
    from rich.text import Text

    from ..widgets.text import clean

    costs = table(f"cost, US dollars (estimate at list prices of {PRICES_TAKEN}; recorded lens)")
    for column in ("priced\ncalls", "un-\npriced", "estimate", "agent\nrecorded"):
        costs.add_column(column, justify="right", no_wrap=True)
    rows = [(scope.scope_id, scope.cost) for scope in summary.scopes]
    if len(rows) > 1:
        rows.append(("session", summary.cost))
    for name, cost in rows:
        costs.add_row(
            Text(clean(name), "bold" if name == "session" and cost is summary.cost else ""),
            f"{cost.priced_requests:,}",
            Text(f"{cost.unpriced_requests:,}", "yellow" if cost.unpriced_requests else ""),
            f"≈{format_dollars(cost.dollars)}" if cost.priced_requests else "—",
            "—" if cost.recorded_dollars is None else format_dollars(cost.recorded_dollars),
        )
    unpriced = summary.cost.unpriced_models
    if unpriced:
        costs.caption = Text("no price for: " + ", ".join(clean(m, 60) for m in unpriced), "yellow")
        costs.caption_justify = "left"
    return costs


def _maybe(value: int | None) -> str:
    return "—" if value is None else _tokens(value)
