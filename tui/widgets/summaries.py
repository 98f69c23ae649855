"""Summary markers: the agent's own compactions, and (pipeline lens) the summaries of the what-if.

In the recorded lens each row is one compaction the agent made itself: the request it happened
before and that request's time, its trigger, tokens before → after, freed, the summary's size
and what was kept verbatim (a microcompact clears old tool results instead). In the pipeline lens
the summaries ctxscope's pipeline would make (stage 3, a what-if) are listed too, each labelled as
such. Every figure comes from core. Moving through the list moves the request cursor; Enter opens
the summary text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ctxscope.core.snapshot import AgentCompaction, ScopeSnapshot, SummaryMarker
from rich.text import Text
from textual import on
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..messages import RequestPicked, SummaryOpened
from . import text as fmt


@dataclass(frozen=True, slots=True)
class Entry:
    """One row: a what-if summary marker or an agent compaction, at a request index."""

    request_index: int
    marker: SummaryMarker | None = None
    compaction: AgentCompaction | None = None


def _when(out: Text, when: datetime | None) -> None:
    """The request's time (UTC), or a dash where the log has none."""
    out.append(("—" if when is None else when.strftime("%H:%M:%S")).ljust(9), "dim")


def marker_row(marker: SummaryMarker, what_if: bool = True, when: datetime | None = None) -> Text:
    """Two lines: where (request and its time) and how much the pipeline's summary freed; its size
    and what was kept (``what_if``: a summary the pipeline would make, not one the agent's
    pipeline made)."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append("◆ ", "magenta")
    out.append(f"#{marker.request_index}".ljust(7), "bold")
    _when(out, when)
    out.append("what-if summary " if what_if else "summary ", "magenta")
    out.append(f"freed {fmt.tokens(marker.tokens_freed)}", "bold")
    out.append(f"  {fmt.tokens(marker.tokens_before)} → {fmt.tokens(marker.tokens_after)}", "dim")
    out.append("\n         ")
    out.append(f"summarised {fmt.tokens(marker.tokens_summarised)} into {fmt.tokens(marker.summary_tokens)}")
    out.append(
        f" · kept {fmt.tokens(marker.recent_kept_tokens)} ({marker.recent_kept_messages} msgs)", "dim"
    )
    return out


def compaction_row(compaction: AgentCompaction, when: datetime | None = None) -> Text:
    """Two lines: where (the request after it and that request's time) the agent compacted itself
    and how; then before → after, freed, sizes."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append("◇ ", "cyan")
    out.append(f"#{compaction.request}".ljust(7), "bold")
    _when(out, when)
    out.append("agent summary" if compaction.kind == "summary" else "agent cleared old tool results", "cyan")
    if compaction.trigger:
        out.append(f" ({fmt.clean(compaction.trigger, 12)})", "dim")
    out.append("\n         ")
    before, after = compaction.tokens_before, compaction.tokens_after
    out.append(f"{'?' if before is None else fmt.tokens(before)} → ")
    out.append("?" if after is None else fmt.tokens(after))
    if compaction.tokens_freed is not None:
        out.append(f" · freed {fmt.tokens(compaction.tokens_freed)}", "bold")
    if compaction.kind == "summary":
        out.append(
            f" · summary {fmt.tokens(compaction.summary_tokens)} · kept {fmt.tokens(compaction.kept_tokens)}",
            "dim",
        )
    return out


STAGE_3_NOTE = "stage 3 runs only when clearing old tool results was not enough"


def empty_note(scope: ScopeSnapshot) -> str:
    """What the empty list says, in the scope's lens only (a lens never speaks for the other)."""
    if scope.agent_thresholds:
        return "No compaction yet: the agent has made none of its own."
    if scope.lens == "recorded":  # ctxscope's own log: the agent ran the pipeline
        return f"No summary yet: the agent's pipeline made none ({STAGE_3_NOTE})."
    return (
        "No summary yet: the what-if made none and the agent compacted nothing of its own "
        f"({STAGE_3_NOTE})."
    )


class SummaryList(OptionList):
    """The agent's compactions (and the what-if's summaries) of the current scope, oldest first."""

    scope: reactive[ScopeSnapshot | None] = reactive(None, always_update=True, init=False, repaint=False)
    """The scope shown; bound to the dashboard's."""
    generation: reactive[int] = reactive(0, init=False, repaint=False)
    """The session's generation (a new one starts the list over); bound to the dashboard's."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._scope_key: tuple[str, int, str] | None = None
        self._scanned = 0
        self._placed = 0
        self.entries: list[Entry] = []

    def watch_scope(self, scope: ScopeSnapshot | None) -> None:
        """Append the new entries of ``scope``; start over for another scope, lens or generation."""
        key = (scope.header.scope_id, self.generation, scope.lens) if scope is not None else None
        if key != self._scope_key:
            self._scope_key = key
            self._scanned = self._placed = 0
            self.entries = []
            self.clear_options()
        if scope is None:
            return
        if not self.entries and self.option_count == 0:
            self.add_option(Option(Text(empty_note(scope), style="dim"), disabled=True))
        new: list[Entry] = []
        records = scope.records
        if not scope.agent_thresholds:  # the pipeline's summaries (ctxscope's own logs: the agent's)
            new += [
                Entry(r.summary.request_index, marker=r.summary)
                for r in records[self._scanned :]
                if r.summary is not None
            ]
            self._scanned = len(records)
        compactions = scope.agent_compactions
        new += [Entry(c.request, compaction=c) for c in compactions[self._placed :]]
        self._placed = len(compactions)
        if not new:
            return
        what_if = scope.lens == "pipeline"
        if not self.entries:
            self.clear_options()  # the placeholder
        new.sort(key=lambda e: e.request_index)
        self.entries += new

        def when(entry: Entry) -> datetime | None:
            index = entry.request_index
            return records[index].sent_at if 0 <= index < len(records) else None

        self.add_options(
            [
                Option(compaction_row(e.compaction, when(e)) if e.compaction
                       else marker_row(e.marker, what_if, when(e)))  # type: ignore[arg-type]
                for e in new
            ]
        )

    def point_at(self, request_index: int) -> None:
        """Highlight the newest entry at or before ``request_index`` (the first when none is)."""
        if not self.entries:
            return
        best = 0
        for position, entry in enumerate(self.entries):
            if entry.request_index <= request_index:
                best = position
        with self.prevent(OptionList.OptionHighlighted):
            self.highlighted = best

    @on(OptionList.OptionHighlighted)
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.has_focus and 0 <= event.option_index < len(self.entries):
            self.post_message(RequestPicked(self.entries[event.option_index].request_index))

    @on(OptionList.OptionSelected)
    def _opened(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.entries):
            entry = self.entries[event.option_index]
            self.post_message(SummaryOpened(entry.marker, entry.compaction))
