"""The context meter: how full the selected request is, against the thresholds of its lens.

One bar, scaled to the hard limit (the window), filled to the lens's figure of the request
(:attr:`~ctxscope.core.snapshot.RequestRecord.context_tokens`), coloured by zone (under the
trigger, between trigger and budget, over the budget). Beneath it, marks for trigger, budget and
limit; then the figures and an outlook line:

* **recorded lens** (what the agent sent): the context (reported, or reconstructed), how close the
  calibrated estimate came to the reported figure, what of it the log shows and what it never
  shows; the provider's cached share, the requests until the agent's own compaction and the
  call's estimated cost at list prices (with the agent's own recorded cost beside it when its
  log has one) and the scope's total;
* **pipeline lens** (a what-if): the raw and calibrated estimate of what ctxscope's pipeline would
  send, the agent's reported figure (another request) beside it, the stored history against the
  request, and the requests until the pipeline's next compaction.

Every figure comes from core (the forecast and the divergence flag included); this widget only
formats them, and names the unit of each (raw or calibrated).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final

from ctxscope.core.pricing import format_dollars
from ctxscope.core.snapshot import SOURCE_REPORTED, RequestRecord, ScopeSnapshot, Thresholds
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from . import text as fmt

LABEL_WIDTH: Final = 16
"""Cells right of the bar for its figure (`` 312k / 1.00M``)."""


SHORT_BELOW: Final = 110
"""Below this many columns the meter's figures always have their short labels."""


def bar_width(width: int) -> int:
    """Cells of the bar itself in a meter ``width`` cells wide."""
    return max(10, width - LABEL_WIDTH - 1)


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

    scope: reactive[ScopeSnapshot | None] = reactive(None, always_update=True)
    """The scope shown (its thresholds, forecast and totals); bound to the dashboard's."""
    record: reactive[RequestRecord | None] = reactive(None)
    """The selected request; bound to the dashboard's."""

    # -- rendering ---------------------------------------------------------------------------------

    def _style(self, name: str) -> str:
        return str(self.get_component_rich_style(f"meter--{name}", partial=True))

    @staticmethod
    def _no_call(scope: ScopeSnapshot | None) -> Text:
        """No request to show: what the scope stored, if anything (``codex exec --json`` logs
        record tool work but no model call), else that the first request has not come yet."""
        volume = scope.stored_volume if scope is not None else None
        errors = scope.agent_errors if scope is not None else None
        if errors is not None and errors.count:  # it called, and got an error instead of a response
            plural = "s" if errors.count != 1 else ""
            why = Text.assemble(
                (f"No model call answered so far: the agent got {errors.count:,} API error{plural} in "
                 "place of a response — latest: ", "dim"),
                fmt.literal(errors.latest, "yellow", limit=160),
            )
        elif volume is None or not volume.messages:
            return Text("No model call yet — waiting for the first request in the log.", style="dim")
        else:
            why = Text("No model call in the log so far (it records no per-call usage).", style="dim")
        if volume is None or not volume.messages:
            return why
        stored = Text.assemble(
            why, (" Stored: ", "dim"),
            f"{volume.messages:,} messages, {volume.tool_calls:,} tool calls, "
            f"{volume.tool_results:,} tool results, ≈{fmt.tokens(volume.estimated_tokens)} tokens ",
            ("(estimated)", "dim"),
        )
        usage = volume.turn_usage
        if usage is None:
            return stored
        turns = f"{volume.turns:,} turn{'s' if volume.turns != 1 else ''}"
        return Text.assemble(
            stored, (f"\nReported for {turns} (its calls summed): ", "dim"),
            f"{fmt.tokens(usage.prompt_tokens)} input ({fmt.tokens(usage.cached_prompt_tokens)} cached), "
            f"{fmt.tokens(usage.output_tokens)} output",
            (" — not a context size", "dim"),
        )

    def render(self) -> Text:
        width = max(20, self.size.width)
        scope, record = self.scope, self.record
        if scope is None or record is None:
            return self._no_call(scope)
        t = scope.thresholds
        lines = [
            self._bar(record, t, width),
            self._marks(t, record, width, scope.agent_thresholds, scope.window_known),
            self._fitted(lambda short: self._figures(record, short), width),
            self._fitted(lambda short: self._outlook(scope, record, short), width),
        ]
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return Text("\n", no_wrap=True).join(lines)

    def _scale(self, t: Thresholds, record: RequestRecord) -> int:
        return max(t.limit, record.context_tokens, 1)

    def _bar(self, record: RequestRecord, t: Thresholds, width: int) -> Text:
        label = f" {fmt.tokens(record.context_tokens)} / {fmt.tokens(t.limit)}"
        cells = bar_width(width)
        scale = self._scale(t, record)
        sent = record.context_tokens
        # The stored history the pipeline held back shows as a tail in the pipeline lens only, in
        # the bar's unit (calibrated, as the request is: core's held_back_tokens), never the raw
        # stored figure drawn on from the calibrated request.
        stored = sent + record.held_back_tokens
        bar = Text(no_wrap=True, end="")
        ok, warn, over = self._style("ok"), self._style("warn"), self._style("over")
        held, empty = self._style("held"), self._style("empty")
        run, run_style = "", ""
        for cell in range(cells):
            lo = cell * scale / cells
            hi = (cell + 1) * scale / cells
            if lo < sent:
                # A partly filled last cell shows as a half block, so small requests still show.
                char = "█" if hi <= sent or (sent - lo) * 2 >= hi - lo else "▌"
                style = ok if lo < t.trigger else warn if lo < t.budget else over
            elif lo < stored:
                char, style = "░", held
            else:
                char, style = "·", empty
            if style != run_style and run:  # one span per run of a style, not one per cell
                bar.append(run, run_style)
                run = ""
            run, run_style = run + char, style
        if run:
            bar.append(run, run_style)
        if stored > scale:
            bar.append("▸", held)
        else:
            bar.append("▏", self._style("mark"))
        bar.append(label, self._style("label"))
        return bar

    def _marks(
        self, t: Thresholds, record: RequestRecord, width: int, recorded: bool, window_known: bool
    ) -> Text:
        """▲ marks under the bar at trigger, budget and limit, with as much label as fits (a
        window that is only ctxscope's default says so)."""
        cells = bar_width(width)
        scale = self._scale(t, record)
        marks: dict[int, list[str]] = {}
        for name, value in (("trigger", t.trigger), ("budget", t.budget)):
            if 0 < value < t.limit and not (recorded and name == "budget"):
                marks.setdefault(value, []).append("auto-compact" if recorded else name)
        ordered = [
            (min(cells - 1, int(value * cells / scale)), names, value)
            for value, names in sorted(marks.items())
        ]
        limit_pos = min(cells, round(t.limit * cells / scale))
        limit = fmt.tokens(t.limit)
        best: list[tuple[int, str]] = []
        name = ("window" if window_known else "default window") if recorded else "limit"
        full_limit, short_limit = f"{name} {limit}", f"{limit}{'' if window_known else '?'}"
        # The limit's label ends at its mark, else starts at it (into the cells right of the bar,
        # free on this line) when a mark close before it leaves no room: never a bare ▲ while a
        # label fits.
        candidates = [
            (start, words)
            for start, words in (
                (limit_pos - len(full_limit) - 1, f"{full_limit} ▲"), (limit_pos, f"▲ {full_limit}"),
                (limit_pos - len(short_limit) - 1, f"{short_limit} ▲"), (limit_pos, f"▲ {short_limit}"),
            )
            if start >= 0 and start + len(words) <= width
        ] + [(limit_pos, "▲")]
        for limit_start, limit_words in candidates:
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

    @staticmethod
    def _fitted(line: Callable[[bool], Text], width: int) -> Text:
        """A line of figures with whole labels where they fit in ``width`` cells, else with the
        short ones (below 110 columns, always): a figure is never cut for a label's sake."""
        if width >= SHORT_BELOW:
            whole = line(False)
            if whole.cell_len <= width:
                return whole
        return line(True)

    def _figures(self, record: RequestRecord, short: bool) -> Text:
        """The lens's figures for the request, each named with its unit."""
        number = fmt.tokens if short else fmt.exact
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        label = self._style("label")
        if record.source:
            reported = record.source == SOURCE_REPORTED
            out.append("context ", label)
            out.append(number(record.context_tokens), "bold")
            out.append(" reported" if reported else " estimated", label)
            if reported:
                out.append("  estimate ", label)
                out.append(number(record.calibrated_tokens))
                drift = record.drift
                if drift is not None and record.diverges:
                    out.append(f" ⚠ {drift:+.0%}", self._style("flag"))
                elif drift is not None:
                    out.append(f" ✓ {abs(drift):.0%}", self._style("good"))
            if record.unseen_tokens:
                out.append("  in the log " if not short else "  log ", label)
                out.append(number(record.in_log_tokens))
                out.append(" + not in the log " if not short else " + unseen ", label)
                out.append(number(record.unseen_tokens))
            out.append("  raw " if short else "  raw estimate ", label)
            out.append(number(record.sent_tokens))
        else:
            out.append("what-if ", self._style("warn"))
            out.append("raw ", label)
            out.append(number(record.sent_tokens))
            out.append("  cal " if short else "  calibrated ", label)
            out.append(number(record.calibrated_tokens), "bold")
            if record.reported_tokens:
                out.append("  agent sent " if short else "  the agent's own request ", label)
                out.append(number(record.reported_tokens))
                if not short:
                    out.append(" (reported)", label)
        if record.refused:
            out.append("  REFUSED" if short else "  REFUSED: too long for the model", self._style("over"))
        elif record.over_limit:
            out.append("  OVER LIMIT" if short else "  OVER THE HARD LIMIT", self._style("over"))
        if record.error:
            out.append("  error: ", self._style("over"))
            out.append(fmt.clean(record.error, 60), self._style("over"))
        return out

    def _cost(self, scope: ScopeSnapshot, record: RequestRecord, short: bool) -> Text:
        """The call's estimated cost (and the agent's own figure), and the scope's so far."""
        label = self._style("label")
        out = Text(no_wrap=True, end="")
        out.append("cost " if short else "cost (estimate) ", label)
        out.append("no price" if not record.priced else f"≈{format_dollars(record.cost)}")
        if record.recorded_cost is not None:
            out.append(" agent " if short else "  agent recorded ", label)
            out.append(format_dollars(record.recorded_cost))
        totals, calls = scope.totals, len(scope.records)
        out.append(" · scope " if short else "  · scope total ", label)
        if not totals.priced:  # no call priced: no total either (not "≈$0.00")
            out.append("no price" if totals.unpriced else "—")
        else:
            out.append(f"≈{format_dollars(totals.cost)}")
            if totals.priced < calls:  # the others had no usage, or a model without a price
                out.append(f" ({totals.priced:,}/{calls:,} calls)" if short
                           else f" for {totals.priced:,} of {calls:,} calls", label)
        if totals.recorded_calls and not short:
            out.append(" (agent ", label)
            out.append(format_dollars(totals.recorded_cost))
            out.append(")", label)
        return out

    def _outlook(self, scope: ScopeSnapshot, record: RequestRecord, short: bool) -> Text:
        """Cached prefix, the compaction at this request, and the requests left before the next."""
        label = self._style("label")
        parts: list[Text] = []
        cached = Text(no_wrap=True, end="")
        if record.source:
            share = record.provider_cached_share
            if share is not None:
                cached.append("cached " if short else "provider cache ", label)
                cached.append(fmt.share(share))
                parts.append(cached)
        else:
            cached.append("cached " if short else "cached prefix ", label)
            cached.append(fmt.share(record.prefix_share))
            parts.append(cached)
            if record.held_back_tokens:  # the bar's ░ tail, in its unit
                tail = Text(no_wrap=True, end="")
                tail.append("░ held " if short else "░ held back ", self._style("held"))
                tail.append(fmt.tokens(record.held_back_tokens))
                if not short:
                    tail.append(" calibrated", label)
                parts.append(tail)
            raw_sizes = Text(no_wrap=True, end="")
            raw_sizes.append("raw: stored ", label)
            raw_sizes.append(fmt.tokens(record.stored_tokens))
            raw_sizes.append(" → sent ", label)
            raw_sizes.append(fmt.tokens(record.sent_tokens))
            parts.append(raw_sizes)
        compaction = scope.compaction_at(record.index) if record.source else None
        if compaction is not None:
            here = Text(no_wrap=True, end="")
            here.append("◆ agent compacted: " if not short else "◆ ", self._style("warn"))
            before, after = compaction.tokens_before or 0, compaction.tokens_after or 0
            here.append(f"{fmt.tokens(before)} → {fmt.tokens(after)}")
            parts.append(here)
        forecast = scope.forecast(record.index)
        outlook = Text(no_wrap=True, end="")
        who = "agent compaction " if scope.agent_thresholds else "next compaction "
        outlook.append(who if not short else "compaction ", label)
        left = forecast.requests_left
        if not forecast.trigger_known:
            outlook.append("—" if short else "— (no trigger known for this agent)")
        elif left == 0:
            outlook.append("now" if short else "now (over the trigger)", self._style("warn"))
        elif left is None:
            outlook.append("—" if short else "— (not growing)")
        else:
            outlook.append(f"in ≈{left:,} request{'s' if left != 1 else ''}")
            if not short:
                outlook.append(f" (+{fmt.tokens(round(forecast.growth or 0))}/request)", label)
        parts.append(outlook)
        priced_or_recorded = record.cost is not None or record.recorded_cost is not None
        if record.source and (priced_or_recorded or not record.priced):
            parts.append(self._cost(scope, record, short))
        return Text("   " if not short else "  ", no_wrap=True, overflow="ellipsis", end="").join(parts)
