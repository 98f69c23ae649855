"""Where the tokens of the selected request come from: per category, per tool and per writing script.

Per category and per tool come with every request record; the per-script table (characters and
tokens per script class, and what the ``chars/4`` rule would have said) comes with the request's
on-demand detail. Everything here is rendered from what core computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ctxscope.core.model import Category
from ctxscope.core.snapshot import (
    NOT_IN_LOG,
    SOURCE_REPORTED,
    RequestDetail,
    RequestRecord,
    ScriptFigures,
    script_figures,
)
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from . import text as fmt

CATEGORY_LABELS: Final = {
    Category.SYSTEM: "system",
    Category.TOOL_DEFINITIONS: "tool definitions",
    Category.USER: "user",
    Category.ASSISTANT: "assistant",
    Category.TOOL_RESULTS: "tool results",
    Category.ARTIFACTS: "artifacts",
    Category.SUMMARY: "summary",
}
RELEASED_NOTE: Final = "not kept while watching live (recent requests only) · ctxscope open shows all"
"""Shown instead of the breakdowns and messages of a request whose detail a live view released."""

BAR_WIDTH: Final = 12
TOOLS_SHOWN: Final = 12


def share_bar(part: int, whole: int, width: int = BAR_WIDTH) -> Text:
    """A small horizontal bar of ``part / whole`` in eighths of a cell."""
    if whole <= 0 or part <= 0:
        return Text("")
    eighths = round(part / whole * width * 8)
    full, rest = divmod(eighths, 8)
    return Text("█" * full + (" ▏▎▍▌▋▊▉"[rest] if rest else ""), style="cyan", no_wrap=True, end="")


def _table(title: str, *columns: tuple[str, str], header: bool = False) -> Table:
    table = Table(
        title=title,
        title_justify="left",
        title_style="bold",
        box=None,
        padding=(0, 1),
        pad_edge=False,
        expand=False,
        show_edge=False,
        show_header=header,
    )
    for name, justify in columns:
        table.add_column(name, justify=justify, no_wrap=True, header_style="dim")  # type: ignore[arg-type]
    return table


def category_table(record: RequestRecord) -> Table:
    """The request by category, in the lens's unit, adding up to the meter's figure (core's
    :meth:`~ctxscope.core.snapshot.RequestRecord.category_figures`)."""
    rows = dict(record.category_figures())
    total = record.context_tokens
    unit = "reported" if record.source == SOURCE_REPORTED else "calibrated"
    table = _table(
        f"By category ({unit}, adds up to {fmt.tokens(total)})",
        ("", "left"), ("tokens", "right"), ("share", "right"), ("", "left"),
    )
    labels = {category.value: label for category, label in CATEGORY_LABELS.items()}
    unseen = record.unseen_tokens > 0
    if unseen:
        labels[NOT_IN_LOG] = "not in the log"
    for key, label in labels.items():
        value = rows.get(key, 0)
        table.add_row(
            label,
            fmt.tokens(value),
            fmt.percent(value, total) if value else "",
            share_bar(value, total),
            style="" if value else "dim",
        )
    if unseen:
        table.caption = "not in the log: system prompt, tool definitions, MCP tools the log never shows"
        table.caption_style = "dim"
        table.caption_justify = "left"
    return table


def tool_table(by_tool: Mapping[str, int]) -> Table:
    total = sum(by_tool.values())
    table = _table(
        "By tool (raw estimate)", ("", "left"), ("tokens", "right"), ("share", "right"), ("", "left")
    )
    ranked = sorted(by_tool.items(), key=lambda item: (-item[1], item[0]))
    for name, value in ranked[:TOOLS_SHOWN]:
        table.add_row(
            fmt.literal(name or "(unnamed)", limit=24), fmt.tokens(value), fmt.percent(value, total),
            share_bar(value, total),
        )
    if len(ranked) > TOOLS_SHOWN:
        rest = sum(v for _, v in ranked[TOOLS_SHOWN:])
        table.add_row(Text(f"{len(ranked) - TOOLS_SHOWN} more", style="dim"), fmt.tokens(rest), "", "")
    if not ranked:
        table.add_row(Text("no tool output in this request", style="dim"), "", "", "")
    return table


SCRIPT_LABELS: Final = {
    "ascii": "ASCII",
    "latin_accented": "Latin accented",
    "cyrillic": "Cyrillic",
    "greek": "Greek",
    "arabic_hebrew": "Arabic/Hebrew",
    "indic": "Indic",
    "cjk": "CJK",
    "hangul": "Hangul",
    "emoji_symbols": "emoji/symbols",
    "other": "other",
}


def script_table(detail: RequestDetail, note: str = "") -> Table:
    """Characters and tokens per script class of ``detail``'s sent text, and what ``chars / 4``
    says for each (figures from core: :func:`~ctxscope.core.snapshot.script_figures`)."""
    by_script = detail.by_script
    table = _table(
        f"By script (raw estimate of the text, estimator {by_script.estimator}){note}",
        ("", "left"), ("chars", "right"),
        ("tokens", "right"), ("chars/4", "right"), ("chars/tok", "right"), header=True,
    )
    *rows, whole = script_figures(by_script)
    for row in rows:
        table.add_row(
            fmt.literal(SCRIPT_LABELS.get(row.name, row.name), limit=20), fmt.tokens(row.chars),
            fmt.tokens(row.tokens), fmt.tokens(row.chars4), _per_token(row),
        )
    table.add_row(
        Text("all", style="bold"), fmt.tokens(whole.chars), fmt.tokens(whole.tokens),
        fmt.tokens(whole.chars4), _per_token(whole), style="bold",
    )
    if detail.chars4_undercounts:
        table.caption = f"chars/4 says {fmt.share(detail.chars4_share)} of the estimate: it under-counts"
        table.caption_style = "yellow"
        table.caption_justify = "left"
    return table


def _per_token(row: ScriptFigures) -> str:
    return "—" if row.chars_per_token is None else f"{row.chars_per_token:.1f}"


class BreakdownPanel(VerticalScroll):
    """Per-category, per-tool and per-script breakdowns of the selected request."""

    DEFAULT_CSS = """
    BreakdownPanel > Static {
        width: 1fr;
    }
    """

    record: reactive[RequestRecord | None] = reactive(None, init=False)
    """The selected request; bound to the dashboard's."""
    detail: reactive[RequestDetail | None] = reactive(None, init=False)
    """The newest detail of the scope (another request's while the selected one's loads)."""

    def compose(self) -> ComposeResult:
        yield Static(Text("no request selected", style="dim"), id="breakdown-body")

    def watch_record(self) -> None:
        self._update()

    def watch_detail(self) -> None:
        self._update()

    def _update(self) -> None:
        """Render the breakdowns of :attr:`record`, and the per-script table of :attr:`detail`."""
        record, detail = self.record, self.detail
        body = self.query_one("#breakdown-body", Static)
        if record is None:
            body.update(Text("no request selected", style="dim"))
            return
        if record.detail_released:
            body.update(Text(f"Request #{record.index}: {RELEASED_NOTE}", style="dim"))
            return
        parts: list[RenderableType] = [category_table(record), Text("")]
        if not record.source:  # the recorded lens has no per-tool figures of its own
            parts += [tool_table(record.by_tool), Text("")]
        if detail is None:
            parts.append(Text("By script: computing…", style="dim"))
        elif detail.record.index != record.index:
            # The previous request's table stays, labelled, until this one's arrives.
            parts.append(script_table(detail, f" · request #{detail.record.index}, #{record.index} loading…"))
        else:
            parts.append(script_table(detail))
        body.update(Group(*parts))
