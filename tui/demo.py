"""``ctxscope demo``: a bundled scenario played as if an agent were writing it live.

:class:`Playback` generates the scenario's log (the scripted agents of
:mod:`ctxscope.demo_sessions` run the real pipeline at every model call), then appends it to a
live log file one model call at a time at the scenario's pace — in a thread worker, so the UI never
waits. The dashboard tails that file exactly as ``ctxscope watch`` tails an agent's log.

:class:`DemoScreen` is the dashboard plus a caption bar: it explains each stage in plain words the
first time it fires (and calibration, the per-script gap, the end of the scenario), with keys to
pause, step, change the speed and restart; ``w`` opens the side-by-side what-if view of scenarios
that define one. Every figure in a caption is a field of a record core computed; this module only
words it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Final

from ctxscope.core.analysis import SessionSummary, SessionTally, session_tally, summarise_session
from ctxscope.core.logformat import split_at_requests
from ctxscope.core.pricing import format_dollars
from ctxscope.core.snapshot import (
    RequestDetail,
    RequestRecord,
    ScopeSnapshot,
    SessionSnapshot,
    Stage,
    script_figures,
)
from ctxscope.demo_sessions.scenarios import Scenario
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from .app import CtxscopeApp, DashboardOptions, DashboardScreen
from .demo_temp import demo_folder
from .messages import DetailLoaded, Mode, SnapshotUpdated
from .tailer import SessionSource
from .widgets import text as fmt
from .widgets.header import scope_name

SPEEDS: Final = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0)
"""Speeds the + and - keys step through (``--speed`` may give any value in between)."""

CAPTION_SECONDS: Final = 7.0
"""How long a caption stays before the next queued one replaces it (at speed 1; shorter when faster)."""


@dataclass(frozen=True, slots=True)
class PlaybackState:
    """Where the playback is.

    Attributes:
        position: Steps (model calls) written so far.
        total: Steps in the scenario.
        speed: The speed multiplier.
        paused: Waiting for a key.
        run: Bumped by every restart.
    """

    position: int
    total: int
    speed: float
    paused: bool
    run: int

    @property
    def finished(self) -> bool:
        return self.position >= self.total


class Playback:
    """Writes a scenario's generated log to a live log file, one model call at a time.

    Control methods (:meth:`toggle`, :meth:`step`, :meth:`faster`, …) may be called from any thread;
    :meth:`run` runs in a worker thread and calls ``notify`` after every write.

    Args:
        scenario: The scenario.
        folder: Where to write (the generated log and the live one).
        speed: Speed multiplier (1: the scenario's own pace).
        seed: The generator's seed.
    """

    def __init__(self, scenario: Scenario, folder: str | os.PathLike[str], *, speed: float = 1.0,
                 seed: int = 0) -> None:
        from ctxscope.demo_sessions.generate import generate

        if speed <= 0:
            raise ValueError("speed must be above zero")
        self.scenario = scenario
        folder = Path(folder)
        full = folder / f"{scenario.name}.generated.jsonl"
        generate(scenario.name, full, seed=seed)
        self.steps = split_at_requests(full.read_bytes())
        full.unlink()
        self.path = folder / f"{scenario.name}.jsonl"
        self.path.write_bytes(b"")
        self._cond = threading.Condition()
        self._speed = speed
        self._paused = False
        self._position = 0
        self._step_requests = 0
        self._restart = False
        self._stopped = False
        self._run = 0

    # -- controls (any thread) -----------------------------------------------------------------

    def state(self) -> PlaybackState:
        with self._cond:
            return PlaybackState(self._position, len(self.steps), self._speed, self._paused, self._run)

    def _change(self, **changes: object) -> PlaybackState:
        with self._cond:
            for name, value in changes.items():
                setattr(self, f"_{name}", value)
            self._cond.notify_all()
        return self.state()

    def toggle(self) -> PlaybackState:
        """Pause, or resume playing."""
        with self._cond:
            paused = not self._paused
        return self._change(paused=paused)

    def step(self) -> PlaybackState:
        """Pause (if playing) and write the next model call."""
        with self._cond:
            self._step_requests += 1
        return self._change(paused=True)

    def set_speed(self, speed: float) -> PlaybackState:
        return self._change(speed=min(SPEEDS[-1], max(SPEEDS[0], speed)))

    def faster(self) -> PlaybackState:
        current = self.state().speed
        return self.set_speed(next((s for s in SPEEDS if s > current * 1.001), SPEEDS[-1]))

    def slower(self) -> PlaybackState:
        current = self.state().speed
        return self.set_speed(next((s for s in reversed(SPEEDS) if s < current * 0.999), SPEEDS[0]))

    def restart(self) -> PlaybackState:
        """Start the scenario over: the live log is replaced by an empty one (the tailer sees a rotation)."""
        return self._change(restart=True, paused=False)

    def stop(self) -> None:
        self._change(stopped=True)

    # -- the writer (a worker thread) ----------------------------------------------------------

    def interval(self) -> float:
        """Seconds between two model calls at the current speed."""
        return self.scenario.pace / self._speed

    def run(self, notify: Callable[[PlaybackState], object]) -> None:
        """Append the steps at the scenario's pace until stopped (runs in a worker thread)."""
        out = open(self.path, "ab")  # noqa: SIM115 - reopened on restart
        try:
            next_due = time.monotonic()
            while True:
                with self._cond:
                    data = None
                    while not self._stopped:
                        if self._restart:
                            break
                        if self._step_requests and self._position < len(self.steps):
                            self._step_requests -= 1
                            break
                        self._step_requests = 0 if self._position >= len(self.steps) else self._step_requests
                        if not self._paused and self._position < len(self.steps):
                            remaining = next_due - time.monotonic()
                            if remaining <= 0:
                                break
                            self._cond.wait(remaining)
                        else:
                            self._cond.wait()
                    if self._stopped:
                        return
                    if self._restart:
                        self._restart = False
                        self._position = 0
                        self._step_requests = 0
                        self._run += 1
                    else:
                        data = self.steps[self._position]
                        self._position += 1
                    next_due = time.monotonic() + self.interval()
                if data is None:
                    out.close()
                    fresh = self.path.with_suffix(".restart")
                    fresh.write_bytes(b"")
                    os.replace(fresh, self.path)  # a new file: the reader notices the rotation
                    out = open(self.path, "ab")  # noqa: SIM115
                else:
                    out.write(data)
                    out.flush()
                notify(self.state())
        finally:
            out.close()


class PlaybackChanged(Message):
    """The playback wrote a step, or was paused, sped up or restarted (posted from its thread)."""

    def __init__(self, state: PlaybackState) -> None:
        super().__init__()
        self.state = state

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, PlaybackChanged)


# -- captions --------------------------------------------------------------------------------------


def _items(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def stage_caption(stage: Stage, record: RequestRecord, scope: ScopeSnapshot, where: str) -> str:
    """Plain words for the first time ``stage`` runs: what it did at ``record`` and why.

    Args:
        stage: The stage.
        record: The request it ran at.
        scope: The request's scope (thresholds).
        where: How to name the request (``request #12 of review slice 1``).
    """
    run = next(r for r in record.stages if r.stage is stage)
    t = scope.thresholds
    tk = fmt.tokens
    if stage is Stage.ARTIFACTS:
        return (
            f"Stage 1 trimmed {_items(run.items, 'heavy artifact', 'heavy artifacts')} at {where}: "
            f"the newest DOM snapshots keep only their links, buttons and forms, older ones a one-line "
            f"trace; screenshots are capped, older ones dropped. {tk(run.tokens_freed)} tokens freed. "
            "It runs before every call, before any budget check."
        )
    if stage is Stage.CLEAR_TOOL_RESULTS:
        return (
            f"Stage 2 cleared the {_items(run.items, 'oldest tool result', 'oldest tool results')} at "
            f"{where}: the request was {tk(run.tokens_before)}, over the {tk(t.trigger)} trigger. Their "
            f"content became a one-line note ({tk(run.tokens_freed)} tokens freed, now "
            f"{tk(run.tokens_after)}); "
            "the calls stay, and the agent can run a tool again. Clearing in batches keeps the "
            "request's prefix the same for the provider's cache."
        )
    if stage is Stage.SUMMARIZE:
        marker = record.summary
        detail = ""
        if marker is not None:
            detail = (
                f" A {tk(marker.summary_tokens)}-token summary now stands for "
                f"{_items(run.items, 'older message', 'older messages')}; "
                f"{_items(marker.recent_kept_messages, 'recent message is', 'recent messages are')} kept "
                "verbatim."
            )
        return (
            f"Stage 3 summarised at {where}: clearing old tool results was not enough "
            f"(the request was {tk(run.tokens_before)}, trigger {tk(t.trigger)}).{detail} "
            f"{tk(run.tokens_freed)} tokens freed. Press 4, then Enter, to read the summary."
        )
    if stage is Stage.TRIM_TURNS:
        return (
            f"Turn fitting left out the {_items(run.items, 'oldest message', 'oldest messages')} at "
            f"{where}: the first message, a note and the newest complete turns are sent "
            f"({tk(run.tokens_freed)} tokens freed)."
        )
    if record.refused:
        return (
            f"Stage 4, the hard-limit guard, refused {where}: even the newest turns come to "
            f"{tk(run.tokens_after)}, over the {tk(t.limit)} hard limit, so nothing is sent. The user "
            "sees: \"This conversation has grown too long for the model to read in one go. Start a new "
            "chat for the next step — everything built so far is kept.\" No retry, no alert."
        )
    return (
        f"Stage 4, the hard-limit guard, left out the "
        f"{_items(run.items, 'oldest message', 'oldest messages')} at {where} so the request fits the "
        f"{tk(t.limit)} hard limit ({tk(run.tokens_freed)} tokens freed)."
    )


def calibration_caption(record: RequestRecord, where: str) -> str:
    """Plain words for calibration, the first time the factor moves away from 1."""
    reported = ""
    if record.reported_tokens:
        reported = f" (the provider reported {fmt.tokens(record.reported_tokens)})"
    return (
        f"Calibration at {where}: the provider counts differently from the estimate, so the pipeline "
        f"multiplies its raw estimate by {record.calibration_factor:.2f} — raw "
        f"{fmt.tokens(record.sent_tokens)}, calibrated {fmt.tokens(record.calibrated_tokens)}{reported}. "
        "The trigger compares the calibrated figure."
    )


def script_caption(detail: RequestDetail) -> str:
    """Plain words for a request whose text chars/4 badly under-counts (the per-script breakdown)."""
    scripts = script_figures(detail.by_script)
    top = max(scripts[:-1], key=lambda row: row.tokens, default=scripts[-1])  # scripts[-1] is "all"
    label = SCRIPT_NAMES.get(top.name, top.name.replace("_", " "))
    return (
        f"chars/4 would count request #{detail.record.index} at {detail.chars4_share or 0.0:.0%} "
        f"of its estimated size: most of its text is {label}, estimated at {top.chars_per_token or 0.0:.1f} "
        "characters per token (the estimate leans high so as not to under-count), where chars/4 assumes 4. "
        "Press 3 for the per-script breakdown."
    )


SCRIPT_NAMES: Final = {
    "ascii": "ASCII (code, markup, data)", "cyrillic": "Cyrillic", "cjk": "Chinese/Japanese",
    "latin_accented": "accented Latin", "arabic_hebrew": "Arabic/Hebrew",
}


def closing_caption(tally: SessionTally, scenario: Scenario, compare: Sequence[SessionSummary] = ()) -> str:
    """The scenario is over: what happened, in core's tally of the session (and, for a side-by-side
    what-if, what the reference configuration's prompts cost against the other's, from core's
    summaries)."""
    runs = tally.stage_runs
    parts = [
        f"{_items(tally.requests, 'model call', 'model calls')} in {_items(tally.scopes, 'scope', 'scopes')}",
        f"stage 2 ran at {runs[Stage.CLEAR_TOOL_RESULTS.value]:,}",
        f"stage 3 at {runs[Stage.SUMMARIZE.value]:,}",
        f"the guard at {runs[Stage.GUARD.value]:,} ({tally.refused_requests:,} refused)",
        f"{tally.over_budget_requests:,} requests over budget",
    ]
    tail = " · w: side by side" if scenario.compare else ""
    money = _compare_cost(scenario, compare)
    return f"Scenario over: {'; '.join(parts)}.{money} r: play again{tail} · q: quit."


def _compare_cost(scenario: Scenario, compare: Sequence[SessionSummary]) -> str:
    """`` Prompts at M's list prices (estimate): A ≈$x, B ≈$y; A saved ≈$d (p%).`` ('' without two)."""
    costs = [summary.prompt_cost for summary in compare]
    if len(costs) < 2 or len(scenario.compare) < 2 or costs[0] is None or costs[1] is None:
        return ""
    first, second = scenario.compare[0].label, scenario.compare[1].label
    saved, share = costs[0].saved_against(costs[1])
    verdict = (f"{first} saved ≈{format_dollars(saved)} ({share:.0%})" if saved > 0
               else f"{first} cost ≈{format_dollars(-saved)} more")
    return (f" Prompts at {costs[0].model} list prices (estimate): "
            f"{first} ≈{format_dollars(costs[0].dollars)}, {second} ≈{format_dollars(costs[1].dollars)}; "
            f"{verdict}.")


@dataclass
class Captions:
    """What has been explained so far, and the queue of ``(text, scope id)`` captions still to show."""

    explained: set[str]
    queue: list[tuple[str, str]]
    shown: list[str]
    seen: dict[str, int]

    @classmethod
    def fresh(cls, shown: list[str] | None = None) -> Captions:
        """Nothing explained yet (``shown``, the history of captions, may carry over)."""
        return cls(set(), [], shown if shown is not None else [], {})

    def add(self, key: str, text: str, scope_id: str = "") -> None:
        if key not in self.explained:
            self.explained.add(key)
            self.queue.append((text, scope_id))


def where(scope: ScopeSnapshot, record: RequestRecord, snapshot: SessionSnapshot, redact: bool) -> str:
    name = fmt.clean(scope_name(scope, redact), 30)
    if len(snapshot.scopes) > 1:
        return f"request #{record.index} of {name}"
    return f"request #{record.index}"


def explain(captions: Captions, snapshot: SessionSnapshot, *, redact: bool = False) -> None:
    """Queue a caption for every stage (and calibration) seen for the first time in new records."""
    for scope_id, scope in snapshot.scopes.items():
        records = scope.records
        start = captions.seen.get(scope_id, 0)
        if start > len(records):
            start = 0
        for record in records[start:]:
            for run in record.stages:
                if run.stage.value not in captions.explained:
                    text = stage_caption(run.stage, record, scope, where(scope, record, snapshot, redact))
                    captions.add(run.stage.value, text, scope_id)
            if abs(record.calibration_factor - 1.0) > 0.1 and "calibration" not in captions.explained:
                text = calibration_caption(record, where(scope, record, snapshot, redact))
                captions.add("calibration", text, scope_id)
        captions.seen[scope_id] = len(records)


# -- widgets ----------------------------------------------------------------------------------------


class DemoBar(Widget):
    """The playback's state on one line, and the current caption beneath it."""

    DEFAULT_CSS = """
    DemoBar {
        height: auto;
        max-height: 5;
        padding: 0 1;
        background: $boost;
        border-left: thick $accent;
    }
    """

    def __init__(self, scenario: Scenario, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.scenario = scenario
        self.state: PlaybackState | None = None
        self.caption = ""

    def show(self, state: PlaybackState | None, caption: str) -> None:
        self.state, self.caption = state, caption
        self.refresh(layout=True)

    def render(self) -> Text:
        out = Text(end="")
        state = self.state
        out.append(f"DEMO {self.scenario.number} ", "bold reverse")
        out.append(f" {self.scenario.name} ", "bold")
        if state is not None:
            if state.finished:
                out.append(" ■ finished ", "bold black on grey70")
            elif state.paused:
                out.append(" ❚❚ paused ", "bold black on yellow")
            else:
                out.append(" ▶ playing ", "bold white on dark_green")
            speed = f"{state.speed:g}"
            out.append(f" ×{speed}  call {state.position:,} of {state.total:,} (all agents)", "")
        out.append("\n")
        out.append(self.caption or self.scenario.title, "italic" if not self.caption else "")
        return out


SPEED_KEYS: Final = Binding.Group("Speed")


class DemoScreen(DashboardScreen):
    """The dashboard with the demo's caption bar and playback keys."""

    FOOTER_HIDDEN: ClassVar[frozenset[str]] = frozenset(
        {"request-prev", "request-next", "follow-tail", "scope-pick", "problems"}
    )
    """The dashboard's keys that stay off the footer here (they work; the demo's keys need the room)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,p", "toggle_pause", "Pause", id="demo-pause",
                tooltip="Pause or resume the scenario (the agent stops writing)"),
        Binding("n", "step_call", "Step", id="demo-step",
                tooltip="Pause and write the next model call"),
        Binding("plus,equals_sign", "faster", "Faster", id="demo-faster", key_display="+",
                tooltip="Play faster (double the speed)", group=SPEED_KEYS),
        Binding("minus", "slower", "Slower", id="demo-slower", key_display="-",
                tooltip="Play slower (half the speed)", group=SPEED_KEYS),
        Binding("r", "restart", "Restart", id="demo-restart",
                tooltip="Play the scenario again from the start"),
        Binding("w", "whatif", "What-if", id="demo-whatif",
                tooltip="Two configurations side by side on the same session"),
    ]

    def __init__(self, playback: Playback, *, redact: bool = False) -> None:
        super().__init__(redact=redact)
        self.playback = playback
        self.scenario = playback.scenario
        self.captions = Captions.fresh()
        self.caption = ""
        self.compare: tuple[SessionSnapshot, ...] = ()
        self.compare_summaries: tuple[SessionSummary, ...] = ()
        self.run_seen = 0
        self.caption_seconds = CAPTION_SECONDS
        """Least time a caption stays before a queued one replaces it (at speed 1)."""
        self._caption_timer: Timer | None = None
        self._caption_since = 0.0
        self._caption_generation = 0
        self._closing_shown = False
        self.scope_chosen = False
        """The viewer picked a scope: stop following the scope where things happen."""

    def top_widgets(self) -> ComposeResult:
        yield DemoBar(self.scenario, id="demo-bar")

    def on_mount(self) -> None:
        super().on_mount()
        self._show_caption(self.scenario.intro)

    # -- captions -------------------------------------------------------------------------------

    def _show_caption(self, text: str) -> None:
        self.caption = text
        self._caption_since = time.monotonic()
        self.captions.shown.append(text)
        self.query_one(DemoBar).show(self.playback.state(), text)
        self._queue_changed()

    def _min_seconds(self) -> float:
        root: float = self.playback.state().speed ** 0.5
        return self.caption_seconds / max(1.0, root)

    def _next_caption(self) -> None:
        self._caption_timer = None
        if self.captions.queue:
            text, scope_id = self.captions.queue.pop(0)
            known = self.snapshot is not None and scope_id in self.snapshot.scopes
            if scope_id and known and not self.scope_chosen:
                self.scope_id = scope_id  # show the scope the caption talks about
            self._show_caption(text)

    def _queue_changed(self) -> None:
        """Show the next queued caption once the current one has been up long enough."""
        if not self.captions.queue or self._caption_timer is not None:
            return
        wait = self._min_seconds() - (time.monotonic() - self._caption_since)
        if wait <= 0:
            self._next_caption()
        else:
            self._caption_timer = self.set_timer(wait, self._next_caption)

    def apply_snapshot(self, message: SnapshotUpdated) -> None:
        super().apply_snapshot(message)
        if message.compare:
            self.compare = message.compare
            self.compare_summaries = message.compare_summaries
            from .screens.whatif import WhatIfScreen

            if isinstance(self.app.screen, WhatIfScreen):
                self.app.screen.update(self.compare, self.compare_summaries)
        if message.generation != self._caption_generation:
            self._caption_generation = message.generation
            self.captions = Captions.fresh(self.captions.shown)
            self._closing_shown = False
        if not self.scope_chosen:
            self._follow_busiest_scope()
        explain(self.captions, message.snapshot, redact=self.redact)
        state = self.playback.state()
        calls = sum(len(scope.records) for scope in message.snapshot.scopes.values())
        if state.finished and not self._closing_shown and calls >= state.total:
            self._closing_shown = True
            tally = session_tally(summarise_session(message.snapshot))
            self.captions.queue.append((closing_caption(tally, self.scenario, self.compare_summaries), ""))
        self._queue_changed()

    def _follow_busiest_scope(self) -> None:
        """Show the scope with the most model calls (a sub-agent doing the work, not a waiting main)."""
        snapshot = self.snapshot
        if snapshot is None or not snapshot.scopes:
            return
        current = snapshot.scopes.get(self.scope_id)
        busiest = max(snapshot.scopes.values(), key=lambda scope: len(scope.records))
        if current is None or len(busiest.records) >= len(current.records) + 2:
            self.scope_id = busiest.header.scope_id

    def action_cycle_scope(self, delta: int) -> None:
        self.scope_chosen = True
        super().action_cycle_scope(delta)

    def action_pick_scope(self) -> None:
        self.scope_chosen = True
        super().action_pick_scope()

    def apply_detail(self, message: DetailLoaded) -> None:
        super().apply_detail(message)
        detail = message.detail
        if detail is None or "scripts" in self.captions.explained:
            return
        scope = self.scope
        large = scope is not None and detail.record.calibrated_tokens >= scope.thresholds.budget // 2
        if large and detail.chars4_undercounts:  # core's one threshold (CHARS4_UNDERCOUNT)
            self.captions.add("scripts", script_caption(detail), message.scope_id)
            self._queue_changed()

    def playback_changed(self, state: PlaybackState) -> None:
        if state.run != self.run_seen:
            self.run_seen = state.run
            self.captions = Captions.fresh(self.captions.shown)
            self._closing_shown = False
            self._show_caption(f"Playing {self.scenario.name} again from the start.")
        self.query_one(DemoBar).show(state, self.caption)
        self.refresh_bindings()

    # -- actions --------------------------------------------------------------------------------

    def action_toggle_pause(self) -> None:
        self.playback_changed(self.playback.toggle())

    def action_step_call(self) -> None:
        self.playback_changed(self.playback.step())

    def action_faster(self) -> None:
        self.playback_changed(self.playback.faster())

    def action_slower(self) -> None:
        self.playback_changed(self.playback.slower())

    def action_restart(self) -> None:
        self.follow = True
        self.playback_changed(self.playback.restart())

    def action_whatif(self) -> None:
        from .screens.whatif import WhatIfScreen

        if not self.scenario.compare:
            self.notify(f"{self.scenario.name} has no side-by-side view; scenarios "
                        "eight-subagents and cache-batching do.", timeout=4)
            return
        labels = tuple(c.label for c in self.scenario.compare)
        self.app.push_screen(
            WhatIfScreen(labels, self.compare, self.compare_summaries, self.scope_id, redact=self.redact)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "whatif":
            return bool(self.scenario.compare)
        return super().check_action(action, parameters)


DEMO_HELP = """\
# ctxscope demo

A scripted agent runs the real compaction pipeline at every model call and writes its log at the
scenario's pace; the dashboard below follows that log live. The bar under the header says where
the playback is, and explains each stage in plain words the first time it runs.

| key | action |
|---|---|
| space, p | pause / resume the scenario (the agent stops writing) |
| n | pause and write the next model call |
| + - | play faster / slower (×2 / ÷2) |
| r | play the scenario again from the start |
| w | side by side: the same session under two configurations (scenarios 1 and 6) |
| [ ] S | another scope (the demo shows the busiest one until you pick) |

"""


class DemoApp(CtxscopeApp):
    """``ctxscope demo``: the live dashboard on a scenario being written, with captions.

    Args:
        playback: The scenario's playback (its live log is what the dashboard tails).
        redact: ``--redact``.
        start: Start the writer at once (tests may drive it by steps only).
    """

    HELP_EXTRA = DEMO_HELP

    def __init__(self, playback: Playback, *, redact: bool = False, start: bool = True) -> None:
        scenario = playback.scenario
        options = DashboardOptions(str(playback.path), mode=Mode.LIVE, redact=redact)
        self.playback = playback
        self._start_writer = start
        super().__init__(options, open_source=self._source)
        self.title = f"ctxscope demo · {scenario.name}"

    def make_dashboard(self) -> DemoScreen:
        return DemoScreen(self.playback, redact=self.options.redact)

    def _source(self) -> SessionSource:
        from .tailer import CoreSource

        compare = [c.config for c in self.playback.scenario.compare]
        return CoreSource(self.options.path, compare=compare, text_cap=None)

    def on_mount(self) -> None:
        super().on_mount()
        if not self._start_writer:
            self.playback.toggle()
        self._write()

    @work(thread=True, exclusive=True, group="demo-writer", exit_on_error=False,
          description="write the scenario's log")
    def _write(self) -> None:
        self.playback.run(lambda state: self.post_message(PlaybackChanged(state)))

    def on_unmount(self) -> None:
        self.playback.stop()
        super().on_unmount()

    @on(PlaybackChanged)
    def _playback(self, message: PlaybackChanged) -> None:
        screen = self.dashboard
        assert isinstance(screen, DemoScreen)
        screen.playback_changed(message.state)


def run_demo(scenario: Scenario, *, speed: float = 1.0, redact: bool = False) -> int:
    """Generate ``scenario`` into a temporary folder and play it in the dashboard."""
    with demo_folder() as folder:  # removed on quit, kill or hang-up (or by the next demo)
        playback = Playback(scenario, folder, speed=speed)
        DemoApp(playback, redact=redact).run()
    return 0


def scenario_list(scenarios: Sequence[Scenario]) -> str:
    """``ctxscope demo --list``: number, name, title and pace of every scenario."""
    lines = []
    for s in scenarios:
        marks = " (side by side: w)" if s.compare else ""
        lines.append(f"{s.number}  {s.name:<22} {s.title}{marks}")
    return "\n".join(lines)
