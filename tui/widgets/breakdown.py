"""Where the tokens of the selected request come from: per category, per tool and per writing script.

Per category and per tool come with every request record; the per-script table (characters and
tokens per script class, and what the ``chars/4`` rule would have said) comes with the request's
on-demand detail, with the real tokenizers' counts of the same text beside the estimate when the
exact extra is installed. Everything here is rendered from what core computed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Final

from ctxscope.core.model import Category
from ctxscope.core.snapshot import (
    NOT_IN_LOG,
    SOURCE_REPORTED,
    RequestDetail,
    RequestRecord,
    ScriptFigures,
    StoredVolume,
    script_figures,
)
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip

from . import text as fmt
from .paging import PagedView

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


def _table(*columns: tuple[str, str], header: bool = False) -> Table:
    table = Table(
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


def _titled(title: str, table: Table, note: str = "", note_style: str = "dim") -> Group:
    """``table`` under its title and over its note, each a line of its own that wraps at the
    pane's width (a table's own title and caption wrap at the table's, a few cells narrower: "By
    category (reported, adds up to" broke before its figure)."""
    parts: list[RenderableType] = [Text(title, style="bold"), table]
    if note:
        parts.append(Text(note, style=note_style))
    return Group(*parts)


def category_table(record: RequestRecord) -> Group:
    """The request by category, in the lens's unit, adding up to the meter's figure (core's
    :meth:`~ctxscope.core.snapshot.RequestRecord.category_figures`)."""
    rows = dict(record.category_figures())
    total = record.context_tokens
    unit = "reported" if record.source == SOURCE_REPORTED else "calibrated"
    table = _table(("", "left"), ("tokens", "right"), ("share", "right"), ("", "left"))
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
    note = "not in the log: system prompt, tool definitions, MCP tools the log never shows" if unseen else ""
    return _titled(f"By category ({unit}, adds up to {fmt.tokens(total)})", table, note)


def tool_table(by_tool: Mapping[str, int]) -> Group:
    total = sum(by_tool.values())
    table = _table(("", "left"), ("tokens", "right"), ("share", "right"), ("", "left"))
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
    return _titled("By tool (raw estimate)", table)


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


def script_table(detail: RequestDetail) -> Group:
    """Characters and tokens per script class of ``detail``'s sent text, and what ``chars / 4``
    says for each (figures from core: :func:`~ctxscope.core.snapshot.script_figures`); then what
    the raw estimate counts beyond the text (message and tool-call overheads, images) and the raw
    estimate itself, the meter's figure."""
    by_script = detail.by_script
    table = _table(
        ("", "left"), ("chars", "right"), ("tokens", "right"), ("chars/4", "right"), ("chars/tok", "right"),
        header=True,
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
    if detail.framing_tokens:  # what the raw estimate counts beyond the text: the meter's figure
        framing = Text(fmt.tokens(detail.framing_tokens), style="dim")
        table.add_row(Text("+ no text", style="dim"), "", framing, "", "")
        if detail.unread_tokens:  # elided text the log no longer gives: estimated, never shown above
            unread = Text(fmt.tokens(detail.unread_tokens), style="yellow")
            table.add_row(Text("+ not read back", style="yellow"), "", unread, "", "")
        table.add_row(Text("raw estimate"), "", fmt.tokens(detail.record.sent_tokens), "", "")
    for name, tokens in by_script.exact_counts.items():  # the real tokenizers, beside the estimate
        table.add_row(Text(name, style="dim"), "", Text(fmt.tokens(tokens), style="dim"), "", "")
    note = (f"chars/4 says {fmt.share(detail.chars4_share)} of the estimate: it under-counts"
            if detail.chars4_undercounts else "")
    if detail.unread_tokens:
        note = ("not read back: long texts this log does not give again; their tokens are scaled "
                "from the part that was held, and the rows above (and exact counts) cover only that part"
                + (f"; {note}" if note else ""))
    return _titled(f"By script (raw estimate of the text, estimator {by_script.estimator})", table, note,
                   "yellow")


def stored_tables(volume: StoredVolume) -> RenderableType:
    """A scope whose log records no model call (``codex exec --json``): why there is no request to
    break down, what its messages hold (raw estimate, by category) and each turn's usage as the log
    reports it (core's :class:`~ctxscope.core.snapshot.StoredVolume`)."""
    why = Text("No request to break down: this log records no model call (no per-call usage, no "
               "prompt text). What it stored:", style="dim")
    total = volume.estimated_tokens
    table = _table(("", "left"), ("tokens", "right"), ("share", "right"), ("", "left"))
    for category, label in CATEGORY_LABELS.items():
        value = volume.by_category.get(category, 0)
        if value:
            table.add_row(label, fmt.tokens(value), fmt.percent(value, total), share_bar(value, total))
    counts = (f"{volume.messages:,} messages: {volume.tool_calls:,} tool calls, "
              f"{volume.tool_results:,} tool results")
    parts: list[RenderableType] = [
        why, Text(""), _titled(f"By category (raw estimate, adds up to {fmt.tokens(total)})", table, counts),
    ]
    usage = volume.turn_usage
    if usage is not None:
        turns = f"{volume.turns:,} turn{'s' if volume.turns != 1 else ''}"
        reported = _table(("", "left"), ("tokens", "right"))
        reported.add_row("input", fmt.exact(usage.prompt_tokens))
        reported.add_row("  cached", fmt.exact(usage.cached_prompt_tokens))
        reported.add_row("output", fmt.exact(usage.output_tokens))
        parts += [Text(""), _titled(
            f"Reported by the log ({turns}, summed)", reported,
            "each turn's usage sums every model call of it: the prompts added up, not a context size")]
    return Group(*parts)


def _record_tables(record: RequestRecord) -> RenderableType:
    """The request's tables: by category, and (pipeline lens) by tool."""
    parts: list[RenderableType] = [category_table(record), Text("")]
    if not record.source:  # the recorded lens has no per-tool figures of its own
        parts += [tool_table(record.by_tool), Text("")]
    return Group(*parts)


def _per_token(row: ScriptFigures) -> str:
    return "—" if row.chars_per_token is None else f"{row.chars_per_token:.1f}"


class BreakdownPanel(PagedView, can_focus=True):
    """Per-category, per-tool and per-script breakdowns of the selected request.

    A Line-API widget: the tables are rendered to lines once per change of :attr:`record` or
    :attr:`detail` (and of the width), and each frame only copies the visible lines; its size
    never depends on its content, so a new request does not lay the screen out again unless the
    number of lines changed.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", "Up", show=False),
        Binding("down", "scroll_down", "Down", show=False),
    ]

    DEFAULT_CSS = """
    BreakdownPanel {
        height: 1fr;
        overflow-x: hidden;
    }
    """

    record: reactive[RequestRecord | None] = reactive(None, init=False, repaint=False)
    """The selected request; bound to the dashboard's."""
    detail: reactive[RequestDetail | None] = reactive(None, init=False, repaint=False)
    """The newest detail of the scope (another request's while the selected one's loads)."""
    volume: reactive[StoredVolume | None] = reactive(None, init=False, repaint=False)
    """What the scope stored when its log records no model call; bound to the dashboard's."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Strip] = []
        self._width = 0
        self._parts: dict[str, tuple[object, int, Style, list[Strip]]] = {}
        """Rendered lines of each part (``record``, ``script``) by what it was rendered from and
        the width: a new request renders its category and tool tables, its detail only the
        per-script table."""

    def watch_record(self) -> None:
        self._update()

    def watch_detail(self) -> None:
        self._update()

    def watch_volume(self) -> None:
        self._update()

    def _update(self) -> None:
        self._width = 0  # lay the lines out again, now if the size is known, else at the first frame
        if self.is_mounted:
            self._layout_lines()
        self.refresh()

    def _part(self, name: str, key: object, width: int, render: Callable[[], RenderableType]) -> list[Strip]:
        """The lines of one part at ``width``, rendered again only when ``key`` changed."""
        cached = self._parts.get(name)
        base = self.rich_style  # the theme's background and text colour
        if cached is not None and cached[0] is key and cached[1] == width and cached[2] == base:
            return cached[3]
        console = self.app.console
        options = console.options.update(width=width, min_width=width, max_width=width, highlight=False)
        lines = [
            Strip(line, width).apply_style(base) for line in console.render_lines(render(), options, pad=True)
        ]
        self._parts[name] = (key, width, base, lines)
        return lines

    def _layout_lines(self) -> None:
        """The breakdowns of :attr:`record` and the per-script table of :attr:`detail`, as lines at
        the widget's width (laid out once per change or resize)."""
        width = self.size.width
        if width <= 0 or width == self._width:
            return
        record, detail, volume = self.record, self.detail, self.volume
        if record is None and volume is not None:
            lines = self._part("record", volume, width, lambda: stored_tables(volume))
        elif record is None or record.detail_released:
            words = "no request selected" if record is None else f"Request #{record.index}: {RELEASED_NOTE}"
            lines = self._part("record", words, width, lambda: Text(words, style="dim"))
        else:
            lines = list(self._part("record", record, width, lambda: _record_tables(record)))
            if detail is None:
                lines += self._part("script", None, width, lambda: Text("By script: computing…", style="dim"))
            else:
                if detail.record.index != record.index:
                    # The previous request's table stays, labelled, until this one's arrives.
                    note = f"(request #{detail.record.index}; #{record.index} is loading…)"
                    lines += self._part("note", note, width, lambda: Text(note, style="dim"))
                lines += self._part("script", detail, width, lambda: script_table(detail))
        self._lines = lines
        self._width = width
        self.set_virtual_size(Size(width, len(lines)))

    @property
    def plain(self) -> str:
        """The rendered breakdowns as plain text (one line per row)."""
        self._layout_lines()
        return "\n".join(strip.text.rstrip() for strip in self._lines)

    def on_resize(self) -> None:
        self._layout_lines()

    def render_line(self, y: int) -> Strip:
        self._layout_lines()
        row = self.scroll_offset.y + y
        width = self.size.width
        base = self.rich_style
        if row >= len(self._lines):
            return Strip.blank(width, base)
        return self._lines[row].crop_extend(0, width, base)
