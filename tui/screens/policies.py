"""The memory-policy lab over the loaded session: what each policy would keep for the next query.

Runs :func:`ctxscope.core.policies.run_policies` on the shown scope's messages in a thread worker
(reading the log again there, so the tailer is never blocked) and renders the selections: one row
per policy with what it keeps, and for the highlighted policy the turns it would send. Every
figure comes from core; log text is shown literally (cleaned, never parsed as markup).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from ctxscope.core.policies import RECOMMENDED, Budget, PolicyMessage, Selection
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from ..widgets import text as fmt

PREVIEW_CHARS = 90
"""Characters of a kept message's preview."""

KEPT_SHOWN = 1000
"""Kept messages listed at most (the newest); the count above the list is always complete."""

DEFAULT_BUDGET_TOKENS = 16_000
"""The lab's token budget until another is typed (the product budgets in tokens)."""

@dataclass(frozen=True, slots=True)
class PolicyLabRequest:
    """What to run: the log, its format, the scope, the budget, (optionally) the query, and the
    token estimator the budget is counted with (the dashboard's, so the lab's counts agree with the
    meter's; None: the default)."""

    path: str
    log_format: str | None
    scope_id: str | None
    budget_messages: int
    query: str | None = None
    budget_tokens: int = DEFAULT_BUDGET_TOKENS
    estimator: str | None = None


class PolicyResults(Message):
    """The worker's answer (posted from the thread worker; handled on the UI thread)."""

    def __init__(
        self, query: str, messages: dict[int, PolicyMessage], selections: dict[str, Selection]
    ) -> None:
        super().__init__()
        self.query = query
        self.messages = messages
        self.selections = selections


class PolicyFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def load_and_run(request: PolicyLabRequest) -> tuple[str, list[PolicyMessage], dict[str, Selection]]:
    """Read the log, take the scope's messages, and run every policy (runs in a worker thread).

    Returns:
        The query used, the messages, and each policy's selection.
    """
    from ctxscope.core.fulltext import policy_messages, policy_query
    from ctxscope.core.policies import run_policies
    from ctxscope.core.reader import open_log

    session = open_log(request.path, request.log_format)
    messages = policy_messages(session, request.scope_id)  # every character, read back by offset
    query = request.query or policy_query(session, request.scope_id)
    budget = Budget(messages=request.budget_messages, tokens=request.budget_tokens)
    selections = run_policies(messages, query, budget, estimator=request.estimator)
    return query, messages, selections


def _recommended_first(selections: dict[str, Selection]) -> list[tuple[str, Selection]]:
    """The selections with the recommended policy's first (the lab leads with it)."""
    return sorted(selections.items(), key=lambda item: item[0] != RECOMMENDED)


class PolicyLabScreen(ModalScreen[None]):
    """The recommended memory policy and seven others, run over the shown scope's messages (a what-if)."""

    DEFAULT_CSS = """
    PolicyLabScreen { align: center middle; }
    #policy-inputs { height: 3; }
    #policy-query { width: 1fr; }
    #policy-budget { width: 12; }
    #policy-status { height: 1; }
    #policy-table { height: 10; }
    #policy-kept { height: 1fr; overflow-y: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    AUTO_FOCUS = "#policy-table"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="close-policies"),
        Binding("r", "rerun", "Run again", id="rerun-policies",
                tooltip="Run the policies again with the query and budget typed above"),
    ]

    def __init__(self, request: PolicyLabRequest, *, redact: bool = False) -> None:
        super().__init__()
        self.request = request
        self.redact = redact
        self._messages: dict[int, PolicyMessage] = {}
        self._selections: dict[str, Selection] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="policy-box", classes="modal-box"):
            yield Static(Text("Memory policies · what each would keep for the next query", "bold"))
            with Horizontal(id="policy-inputs"):
                yield Input(placeholder="query (default: the last prompt)", id="policy-query")
                yield Input(str(self.request.budget_tokens), id="policy-budget", type="integer",
                            tooltip="Token budget")
            yield Static(Text("running the policies…", "dim"), id="policy-status")
            table: DataTable[str | Text] = DataTable(id="policy-table", cursor_type="row")
            yield table
            yield Static(id="policy-kept")

    def on_mount(self) -> None:
        table = self.query_one("#policy-table", DataTable)
        for label, key in (("policy", "policy"), ("msgs", "msgs"), ("tokens", "tokens"),
                           ("summarised", "summarised"), ("retrieval hits", "retrieved"),
                           ("stale dropped", "stale"), ("notes", "notes")):
            table.add_column(label, key=key)
        self.run_lab(self.request)

    @work(thread=True, exclusive=True, group="policy-lab", exit_on_error=False,
          description="memory-policy what-if")
    def run_lab(self, request: PolicyLabRequest) -> None:
        """Runs on a worker thread: talks to the UI only through post_message."""
        try:
            query, messages, selections = load_and_run(request)
        except Exception as exc:  # an unreadable log or a policy error: shown, never a crash
            self.post_message(PolicyFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(PolicyResults(query, {m.turn: m for m in messages}, selections))

    def on_policy_failed(self, message: PolicyFailed) -> None:
        self.query_one("#policy-status", Static).update(fmt.literal(message.reason, "red"))

    def on_policy_results(self, message: PolicyResults) -> None:
        self._messages = message.messages
        self._selections = message.selections
        status = Text.assemble(
            (
                f"{len(message.messages):,} messages · budget {self.request.budget_tokens:,} tokens "
                f"({self._estimator()}), {self.request.budget_messages:,} messages · query ",
                "dim",
            ),
            fmt.literal(self._shown(message.query), "italic", limit=120),
        )
        self.query_one("#policy-status", Static).update(status)
        table = self.query_one("#policy-table", DataTable)
        with self.app.batch_update():
            table.clear()
            for name, selection in _recommended_first(message.selections):
                table.add_row(
                    Text(f"{name} (recommended)", "bold") if name == RECOMMENDED else Text(name),
                    f"{selection.message_count:,}",
                    fmt.tokens(selection.tokens),
                    f"{len(selection.summary_turns):,}",
                    f"{len(selection.retrieved):,}",
                    f"{len(selection.dropped_stale):,}",
                    fmt.literal("; ".join(selection.notes), "dim", limit=80),
                    key=name,
                )
        if message.selections:
            self._show_kept(_recommended_first(message.selections)[0][0])

    @on(DataTable.RowHighlighted, "#policy-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self._show_kept(str(event.row_key.value))

    def _estimator(self) -> str:
        """The estimator the lab counts with, as the status line names it."""
        from ctxscope.core.tokens import DEFAULT_ESTIMATOR

        return f"estimator {self.request.estimator or DEFAULT_ESTIMATOR}"

    def _shown(self, content: str) -> str:
        return f"‹text · {len(content):,} chars›" if self.redact else content

    def _show_kept(self, name: str) -> None:
        selection = self._selections.get(name)
        if selection is None:
            return
        lines = Text(no_wrap=True, overflow="ellipsis")
        lines.append(f"{name} keeps {len(selection.kept):,} of {len(self._messages):,} messages", "bold")
        if selection.dropped_stale:
            lines.append(f" · left out as superseded: {len(selection.dropped_stale):,}", "yellow")
        kept = sorted(selection.kept)
        if len(kept) > KEPT_SHOWN:
            lines.append(f" · listing the newest {KEPT_SHOWN:,}", "dim")
        if selection.notes:  # in full here: the table's notes column is cut on a narrow screen
            lines.append("\nnotes  ", "dim")
            lines.append(fmt.literal("; ".join(selection.notes), "dim"))
        for turn in kept[-KEPT_SHOWN:]:
            message = self._messages.get(turn)
            if message is None:
                continue
            how = "summary " if turn in selection.summary_turns else ""
            lines.append(f"\n{turn:>6} {message.role:<9} {how}", "dim")
            if message.content.strip():
                lines.append(fmt.clean(self._shown(message.content), PREVIEW_CHARS))
            else:
                lines.append("‹no text›", "dim")
        self.query_one("#policy-kept", Static).update(lines)

    def action_rerun(self) -> None:
        query = self.query_one("#policy-query", Input).value.strip() or None
        budget_text = self.query_one("#policy-budget", Input).value.strip()
        tokens = int(budget_text) if budget_text.isdigit() and int(budget_text) > 0 else DEFAULT_BUDGET_TOKENS
        self.request = dataclasses.replace(self.request, query=query, budget_tokens=tokens)
        self.query_one("#policy-status", Static).update(Text("running the policies…", "dim"))
        self.run_lab(self.request)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_rerun()

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)
