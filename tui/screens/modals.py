"""Modal screens over the dashboard. Log text is shown literally (cleaned, never parsed as markup)."""

from __future__ import annotations

from typing import ClassVar

from ctxscope.core.session import Problem
from ctxscope.core.snapshot import AgentCompaction, SessionSnapshot, SummaryMarker
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets import text as fmt
from ..widgets.header import scope_name

HELP = """\
# ctxscope dashboard

Every number here is computed by ctxscope.core; the dashboard only draws it. Two **lenses** (`l`
switches, `--lens` chooses on open; the header names the one shown):

* **recorded** — what the agent really sent and did. The bar is the call's context: the prompt the
  provider *reported*, or where the call has no usage an *estimate* of the agent's live context
  since its last compaction, calibrated on the reported calls before it. *in the log* + *not in the
  log* split it (the system prompt and tool definitions never appear in a log). The marks are the
  agent's own *auto-compact* trigger and its model's *window*; *agent compaction in ≈N requests* is
  the forecast from the reported growth. Cyan lines and ◇ rows are the agent's own compactions
  (Enter opens the summary); the lanes show what the agent did: 2 cleared old tool results
  (microcompact), 3 summary.
* **pipeline** — a what-if: what ctxscope's pipeline would send for the same history (raw estimate,
  calibrated, against its trigger, budget and hard limit; stage lanes 1 artifacts, 2 clear, 3
  summarise / fit turns, 4 guard; ◆ the summaries it would make). The agent's reported figure is
  shown beside it: it belongs to another request.

Figures are calibrated unless labelled *raw*. **Messages**: every stored message of the selected
request with its fate (kept, cleared, trimmed, summarised, dropped). **Breakdown**: per category
(adding up to the meter's figure), per tool and per writing script (raw, every character).

| key | action |
|---|---|
| ← → | previous / next request (moving back turns follow off) |
| Home End | first / newest request (End turns follow on) |
| f | follow the newest request |
| space, p | pause / resume the screen |
| [ ] | previous / next scope (sub-agents) |
| S | pick a scope |
| 1 2 3 4 | timeline, messages, breakdown, summaries pane |
| t | timeline focused: x axis by request number ↔ wall-clock time (UTC) |
| ↑ ↓ PgUp PgDn g G | scroll the focused list |
| Enter | open the summary at the cursor (or the highlighted one); messages pane: the whole message |
| / | search this scope's messages (text and tool names) |
| n / N | next / previous search hit (its request and message selected) |
| l | switch the lens: recorded ↔ pipeline (what-if) |
| e | skipped lines and file notices |
| m | memory-policy lab: what each policy would keep of this scope |
| ctrl+p | command palette |
| ? | this help · q quits |
"""


class HelpScreen(ModalScreen[None]):
    """What every number means, and the keys.

    Args:
        extra: Markdown shown before the dashboard's help (``ctxscope demo``'s keys).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="close-help"),
    ]

    def __init__(self, extra: str = "") -> None:
        super().__init__()
        self.extra = extra

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="modal-box"):
            yield Markdown(self.extra + HELP if self.extra else HELP)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)


def summary_body(
    marker: SummaryMarker | None, compaction: AgentCompaction | None, *, redact: bool = False
) -> tuple[str, Text]:
    """Title and literal body of a summary: the agent's own compaction (``compaction``, preferred)
    or a summary the pipeline would make (``marker``, a what-if).

    With ``redact`` the body is the text's shape (tokens, characters, lines), never its content.
    """
    tokens: int | None
    if compaction is not None:
        title = (
            f"The agent's {compaction.kind} at request #{compaction.request}"
            f"{f' ({compaction.trigger})' if compaction.trigger else ''}: "
            f"{_maybe(compaction.tokens_before)} → {_maybe(compaction.tokens_after)}, "
            f"freed {_maybe(compaction.tokens_freed)}, summary {fmt.tokens(compaction.summary_tokens)}, "
            f"kept verbatim {fmt.tokens(compaction.kept_tokens)}"
        )
        text, tokens = compaction.summary_text, compaction.summary_tokens
    elif marker is not None:
        title = (
            f"What-if summary at request #{marker.request_index}: freed {fmt.tokens(marker.tokens_freed)}, "
            f"summarised {fmt.tokens(marker.tokens_summarised)}, "
            f"summary {fmt.tokens(marker.summary_tokens)}, "
            f"kept {fmt.tokens(marker.recent_kept_tokens)} ({marker.recent_kept_messages} messages)"
        )
        text, tokens = marker.summary_text, marker.summary_tokens
    else:
        return "No summary", Text("")
    if not text:
        return title, Text("(the log does not carry the summary text)", style="dim")
    if redact:
        shape = fmt.redacted_block("summary", text, token_count=tokens)
        return title, Text(f"{shape}\n\n(--redact: the summary's text is not shown)", style="dim")
    return title, Text(fmt.clean_block(text))


def _maybe(value: int | None) -> str:
    return "?" if value is None else fmt.tokens(value)


class TextScreen(ModalScreen[None]):
    """A summary's text, shown literally."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter", "close", "Close", id="close-text")]

    def __init__(self, title: str, body: Text) -> None:
        super().__init__()
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="text-box", classes="modal-box") as box:
            box.border_title = fmt.literal(self._title, limit=200)  # a Text: never parsed as markup
            box.border_subtitle = "esc closes"
            yield Static(self._body, id="text-body")

    def action_close(self) -> None:
        self.dismiss(None)


class ScopeScreen(ModalScreen[str | None]):
    """Pick the scope (main agent or a sub-agent) to show."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close", id="close-scopes")]

    def __init__(self, snapshot: SessionSnapshot, current: str, *, redact: bool = False) -> None:
        super().__init__()
        self._snapshot = snapshot
        self._current = current
        self._redact = redact

    def compose(self) -> ComposeResult:
        options = []
        for scope_id, scope in self._snapshot.scopes.items():
            row = Text(no_wrap=True, overflow="ellipsis", end="")
            row.append("● " if scope_id == self._current else "  ", "green")
            row.append(fmt.clean(scope_name(scope, self._redact), 23).ljust(24), "bold")  # fits 80 columns
            totals = scope.totals  # computed in core as the records arrived
            peak, over, summaries = totals.peak, totals.over_limit, scope.summary_count
            calls = "call " if len(scope.records) == 1 else "calls"
            row.append(f" {len(scope.records):>5} {calls}  peak {fmt.tokens(peak):>6}")
            noun = "summary" if summaries == 1 else "summaries"
            row.append(f"  {summaries} {noun}", "magenta" if summaries else "dim")
            if over:
                row.append(f"  {over} over limit", "red")
            options.append(Option(row, id=scope_id))
        with Vertical(id="scope-box", classes="modal-box") as box:
            # The peaks and summaries are the lens's: the title says which (the rows fit 80 columns).
            box.border_title = (
                "Scopes · pipeline what-if" if self._snapshot.lens == "pipeline" else "Scopes · recorded"
            )
            box.border_subtitle = "enter picks · esc closes"
            option_list = OptionList(*options, id="scope-list")
            yield option_list

    def on_mount(self) -> None:
        option_list = self.query_one(OptionList)
        ids = list(self._snapshot.scopes)
        if self._current in ids:
            option_list.highlighted = ids.index(self._current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)


class ProblemsScreen(ModalScreen[None]):
    """Lines skipped while reading (the first few with line and reason), and file notices."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,e", "close", "Close", id="close-problems")]

    def __init__(self, snapshot: SessionSnapshot | None, *, redact: bool = False) -> None:
        super().__init__()
        self._snapshot = snapshot
        self._redact = redact

    def compose(self) -> ComposeResult:
        text = Text()
        snapshot = self._snapshot
        if snapshot is None or not (snapshot.bad_lines or snapshot.notices):
            text.append("Nothing skipped: every line was read.", "green")
        else:
            for kind, count in sorted(snapshot.bad_lines.items()):
                text.append(f"{count:>8,}  ", "bold yellow")
                text.append(fmt.clean(kind, 30) + "\n")
            if snapshot.problems:
                text.append("\nFirst skipped lines\n", "bold")
                for problem in snapshot.problems:
                    _problem_line(text, problem, redact=self._redact)
            if snapshot.notices:
                text.append("\nFile notices\n", "bold")
                for problem in snapshot.notices:
                    _problem_line(text, problem)
        with VerticalScroll(id="problems-box", classes="modal-box") as box:
            box.border_title = "Skipped lines and file notices"
            box.border_subtitle = "esc closes"
            yield Static(text)

    def action_close(self) -> None:
        self.dismiss(None)


def _problem_line(text: Text, problem: Problem, *, redact: bool = False) -> None:
    text.append(f"  line {problem.line:>7}  " if problem.line else "  ", "dim")
    text.append(fmt.clean(problem.kind, 20).ljust(14), "yellow")
    reason = fmt.shape("reason", chars=len(problem.reason)) if redact else fmt.clean(problem.reason, 300)
    text.append(reason + "\n")
