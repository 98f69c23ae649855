"""Summary markers: every point where a summary replaced older history, and the agent's own compactions.

Each row of the list is one summarisation (stage 3 of the pipeline): the request it happened at,
tokens freed, tokens summarised, the summary's size and the recent history kept verbatim; or one
compaction the agent reported about itself (``observed``), with its before and after. Moving through
the list moves the request cursor; Enter opens the summary text.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxscope.core.model import ObservedCompaction
from ctxscope.core.snapshot import ScopeSnapshot, SummaryMarker
from rich.text import Text
from textual import on
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..messages import RequestPicked, SummaryOpened
from . import text as fmt
from .timeline import compaction_requests


@dataclass(frozen=True, slots=True)
class Entry:
    """One row: a summary marker or an observed compaction, at a request index."""

    request_index: int
    marker: SummaryMarker | None = None
    observed: ObservedCompaction | None = None


def marker_row(marker: SummaryMarker) -> Text:
    """Two lines: where and how much it freed; then the summary's size and what was kept."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append("◆ ", "magenta")
    out.append(f"#{marker.request_index}".ljust(7), "bold")
    out.append(f"freed {fmt.tokens(marker.tokens_freed)}", "bold")
    out.append(f"  {fmt.tokens(marker.tokens_before)} → {fmt.tokens(marker.tokens_after)}", "dim")
    out.append("\n         ")
    out.append(f"summarised {fmt.tokens(marker.tokens_summarised)} into {fmt.tokens(marker.summary_tokens)}")
    out.append(
        f" · kept {fmt.tokens(marker.recent_kept_tokens)} ({marker.recent_kept_messages} msgs)", "dim"
    )
    return out


def observed_row(index: int, compaction: ObservedCompaction) -> Text:
    """Two lines: where the agent compacted itself; then before → after."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append("◇ ", "cyan")
    out.append(f"#{index}".ljust(7), "bold")
    out.append("agent compacted", "cyan")
    if compaction.trigger:
        out.append(f" ({fmt.clean(compaction.trigger, 12)})", "dim")
    out.append("\n         ")
    out.append(f"{fmt.tokens(compaction.tokens_before)} → {fmt.tokens(compaction.tokens_after)}")
    if compaction.tokens_freed is not None:
        out.append(f" · freed {fmt.tokens(compaction.tokens_freed)}", "dim")
    return out


EMPTY = (
    "No summary yet: stage 3 runs only when clearing old tool results was not enough, "
    "and the agent has reported no compaction of its own."
)


class SummaryList(OptionList):
    """The summary markers and observed compactions of the current scope, oldest first."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._scope_key: tuple[str, int] | None = None
        self._scanned = 0
        self._observed = 0
        self.entries: list[Entry] = []

    def show(self, scope: ScopeSnapshot | None, generation: int) -> None:
        """Append new markers of ``scope``; start over for another scope or session generation."""
        key = (scope.header.scope_id, generation) if scope is not None else None
        if key != self._scope_key:
            self._scope_key = key
            self._scanned = self._observed = 0
            self.entries = []
            self.clear_options()
        if scope is None:
            return
        if not self.entries and self.option_count == 0:
            self.add_option(Option(Text(EMPTY, style="dim"), disabled=True))
        records = scope.records
        new: list[Entry] = [
            Entry(r.summary.request_index, marker=r.summary)
            for r in records[self._scanned :]
            if r.summary is not None
        ]
        self._scanned = len(records)
        if len(scope.observed) > self._observed:
            indexes = compaction_requests(scope)
            new += [
                Entry(indexes[i] if i < len(indexes) else 0, observed=scope.observed[i])
                for i in range(self._observed, len(scope.observed))
            ]
        if not new:
            return
        self._observed = len(scope.observed)
        if not self.entries:
            self.clear_options()  # the placeholder
        new.sort(key=lambda e: e.request_index)
        self.entries += new
        self.add_options(
            [
                Option(
                    marker_row(e.marker) if e.marker else observed_row(e.request_index, e.observed),  # type: ignore[arg-type]
                )
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
            self.post_message(SummaryOpened(entry.marker, entry.observed))
