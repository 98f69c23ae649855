"""The context meter: how full the selected request is, against budget, trigger and hard limit.

One bar, scaled to the hard limit, filled to the calibrated size of the request sent (coloured by
zone: under the trigger, between trigger and budget, over the budget); the stored history that the
pipeline held back shows as a lighter tail. Beneath it, marks for trigger, budget and limit; then the
three figures side by side (raw estimate, calibrated estimate, provider-reported) with a divergence
flag; the cached-prefix share; stored against sent; and how many requests are left before the next
compaction at the current growth rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Final

from ctxscope.core.snapshot import RequestRecord, ScopeSnapshot, Stage, Thresholds
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from . import text as fmt

DIVERGENCE: Final = 0.10
"""Calibrated estimate and reported figure further apart than this (relative) are flagged."""

GROWTH_WINDOW: Final = 8
"""Requests looked back over to measure the current growth rate."""

LABEL_WIDTH: Final = 16
"""Cells right of the bar for its figure (`` 312k / 1.00M``)."""


def bar_width(width: int) -> int:
    """Cells of the bar itself in a meter ``width`` cells wide."""
    return max(10, width - LABEL_WIDTH - 1)


def growth_rate(records: Sequence[RequestRecord], index: int, window: int = GROWTH_WINDOW) -> float | None:
    """Average growth of the calibrated request size per request, up to ``index``.

    Only the run since the last request at which a stage freed tokens counts (a compaction resets
    the growth). None when fewer than two requests are in that run.
    """
    if index <= 0 or index >= len(records):
        return None
    start = max(0, index - window)
    for i in range(index, start, -1):
        if any(run.tokens_freed > 0 for run in records[i].stages if run.stage is not Stage.ARTIFACTS):
            start = i
            break
    if index - start < 1:
        return None
    return (records[index].calibrated_tokens - records[start].calibrated_tokens) / (index - start)


def requests_left(size: int, trigger: int, rate: float | None) -> int | None:
    """Requests until a request of ``size`` growing by ``rate`` per request passes ``trigger``.

    0 when it already has; None when the size is not growing.
    """
    if size > trigger:
        return 0
    if rate is None or rate <= 0:
        return None
    return max(1, math.ceil((trigger - size) / rate))


class ContextMeter(Widget):
    """Sent tokens of the selected request against the working budget, trigger and hard limit."""

    DEFAULT_CSS = """
    ContextMeter {
        height: 4;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "meter--ok",
        "meter--warn",
        "meter--over",
        "meter--held",
        "meter--empty",
        "meter--mark",
        "meter--label",
        "meter--flag",
        "meter--good",
    }

    record: reactive[RequestRecord | None] = reactive(None, layout=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._scope: ScopeSnapshot | None = None

    def show(self, scope: ScopeSnapshot | None, index: int) -> None:
        """Show request ``index`` of ``scope`` (refreshes only when something changed)."""
        record = scope.records[index] if scope is not None and 0 <= index < len(scope.records) else None
        changed = scope is not self._scope and (
            self._scope is None
            or scope is None
            or scope.thresholds != self._scope.thresholds
            or len(scope.records) != len(self._scope.records)
        )
        self._scope = scope
        if changed and record is self.record:
            self.refresh()
        self.record = record

    # -- rendering ---------------------------------------------------------------------------------

    def _style(self, name: str) -> str:
        return str(self.get_component_rich_style(f"meter--{name}", partial=True))

    def render(self) -> Text:
        width = max(20, self.size.width)
        scope, record = self._scope, self.record
        if scope is None or record is None:
            return Text("No model call yet — waiting for the first request in the log.", style="dim")
        t = scope.thresholds
        lines = [
            self._bar(record, t, width),
            self._marks(t, record, width),
            self._figures(record, width),
            self._outlook(scope, record, width),
        ]
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return Text("\n", no_wrap=True).join(lines)

    def _scale(self, t: Thresholds, record: RequestRecord) -> int:
        return max(t.limit, record.calibrated_tokens, 1)

    def _bar(self, record: RequestRecord, t: Thresholds, width: int) -> Text:
        label = f" {fmt.tokens(record.calibrated_tokens)} / {fmt.tokens(t.limit)}"
        cells = bar_width(width)
        scale = self._scale(t, record)
        sent, stored = record.calibrated_tokens, max(record.stored_tokens, record.calibrated_tokens)
        bar = Text(no_wrap=True, end="")
        ok, warn, over = self._style("ok"), self._style("warn"), self._style("over")
        held, empty = self._style("held"), self._style("empty")
        for cell in range(cells):
            lo = cell * scale / cells
            hi = (cell + 1) * scale / cells
            if lo < sent:
                # A partly filled last cell shows as a half block, so small requests still show.
                char = "█" if hi <= sent or (sent - lo) * 2 >= hi - lo else "▌"
                zone = ok if lo < t.trigger else warn if lo < t.budget else over
                bar.append(char, zone)
            elif lo < stored:
                bar.append("░", held)
            else:
                bar.append("·", empty)
        if stored > scale:
            bar.append("▸", held)
        else:
            bar.append("▏", self._style("mark"))
        bar.append(label, self._style("label"))
        return bar

    def _marks(self, t: Thresholds, record: RequestRecord, width: int) -> Text:
        """▲ marks under the bar at trigger, budget and limit, with as much label as fits."""
        cells = bar_width(width)
        scale = self._scale(t, record)
        marks: dict[int, list[str]] = {}
        for name, value in (("trigger", t.trigger), ("budget", t.budget)):
            if 0 < value < t.limit:
                marks.setdefault(value, []).append(name)
        ordered = [
            (min(cells - 1, int(value * cells / scale)), names, value)
            for value, names in sorted(marks.items())
        ]
        limit_pos = min(cells, round(t.limit * cells / scale))
        limit = fmt.tokens(t.limit)
        best: list[tuple[int, str]] = []
        for limit_words in (f"limit {limit} ▲", f"{limit} ▲", "▲"):
            limit_start = max(0, limit_pos - len(limit_words) + 1)
            placed: list[tuple[int, str]] = []
            taken = 0
            complete = True
            for i, (pos, names, value) in enumerate(ordered):
                if pos < taken:
                    complete = False
                    continue
                next_start = ordered[i + 1][0] if i + 1 < len(ordered) else limit_start
                full = f"{' = '.join(names)} {fmt.tokens(value)}"
                short = fmt.tokens(value)
                # Right of the mark, else left of it (ending at it), full label before short.
                choices = [
                    (pos, f"▲ {full}"), (pos - len(full) - 1, f"{full} ▲"),
                    (pos, f"▲ {short}"), (pos - len(short) - 1, f"{short} ▲"),
                ]
                start, words = next(
                    ((at, w) for at, w in choices if at >= taken and at + len(w) < next_start),
                    (pos, "▲"),
                )
                complete = complete and words != "▲"
                placed.append((start, words))
                taken = start + len(words) + 1
            placed.append((max(taken, limit_start), limit_words))
            best = placed
            if complete:
                break
        line = [" "] * width
        for start, words in best:
            for i, ch in enumerate(words[: max(0, width - start)]):
                line[start + i] = ch
        out = Text("".join(line).rstrip(), style=self._style("mark"), no_wrap=True, end="")
        return out

    def _figures(self, record: RequestRecord, width: int) -> Text:
        """Raw estimate, calibrated estimate and provider-reported figure, with a divergence flag."""
        short = width < 110
        number = fmt.tokens if short else fmt.exact
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        label = self._style("label")
        out.append("raw ", label)
        out.append(number(record.sent_tokens))
        out.append("  cal " if short else "  calibrated ", label)
        out.append(number(record.calibrated_tokens))
        out.append("  reported ", label)
        reported = record.reported_tokens
        out.append(number(reported))
        if reported:
            drift = record.calibrated_tokens / reported - 1
            raw_ratio = record.sent_tokens / reported
            if abs(drift) > DIVERGENCE:
                out.append(f"  ⚠ {drift:+.0%}" if short else f"  ⚠ {drift:+.0%} vs reported",
                           self._style("flag"))
            else:
                out.append(f"  ✓ {abs(drift):.0%}" if short else f"  ✓ within {abs(drift):.0%}",
                           self._style("good"))
            if abs(raw_ratio - 1) > DIVERGENCE:
                out.append(f" · raw ×{raw_ratio:.2f}", self._style("flag"))
        if record.refused:
            out.append("  REFUSED" if short else "  REFUSED: too long for the model", self._style("over"))
        elif record.over_limit:
            out.append("  OVER LIMIT" if short else "  OVER THE HARD LIMIT", self._style("over"))
        if record.error:
            out.append("  error: ", self._style("over"))
            out.append(fmt.clean(record.error, 60), self._style("over"))
        return out

    def _outlook(self, scope: ScopeSnapshot, record: RequestRecord, width: int) -> Text:
        """Cached prefix, stored against sent, and the requests left before the next compaction."""
        short = width < 110
        label = self._style("label")
        cached = Text(no_wrap=True, end="")
        cached.append("cached " if short else "cached prefix ", label)
        cached.append(fmt.percent(record.cached_prefix_tokens, record.sent_tokens))
        if not short and record.reported_tokens and record.reported_cached_tokens is not None:
            cached.append(" (provider ", label)
            cached.append(fmt.percent(record.reported_cached_tokens, record.reported_tokens))
            cached.append(")", label)
        held_back = Text(no_wrap=True, end="")
        held_back.append("stored ", label)
        held_back.append(fmt.tokens(record.stored_tokens))
        held_back.append(" → sent ", label)
        held_back.append(fmt.tokens(record.sent_tokens))
        held = record.stored_tokens - record.sent_tokens
        if held > 0 and not short:
            held_back.append(f" (holds back {fmt.tokens(held)})", label)
        rate = growth_rate(scope.records, record.index)
        left = requests_left(record.calibrated_tokens, scope.thresholds.trigger, rate)
        outlook = Text(no_wrap=True, end="")
        outlook.append("compaction " if short else "next compaction ", label)
        if left == 0:
            outlook.append("now" if short else "now (over the trigger)", self._style("warn"))
        elif left is None:
            outlook.append("—" if short else "— (not growing)")
        else:
            outlook.append(f"in ≈{left} request{'s' if left != 1 else ''}")
            if not short:
                outlook.append(f" (+{fmt.tokens(round(rate or 0))}/request)", label)
        out = Text("   " if not short else "  ", no_wrap=True, overflow="ellipsis", end="").join(
            [cached, held_back, outlook]
        )
        return out
