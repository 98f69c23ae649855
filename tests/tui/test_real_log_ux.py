"""What a demanding user saw wrong on real logs (Gemini CLI, Claude Code, Codex, SpecStory), each
fixed in the dashboard: hand-built snapshots of the same shape, so no shared data is needed."""

from __future__ import annotations

import dataclasses

from ctxscope.core.model import Category, Usage
from ctxscope.core.snapshot import (
    SOURCE_REPORTED,
    ScopeSnapshot,
    ScopeTotals,
    SessionSnapshot,
    StoredVolume,
    Thresholds,
)
from ctxscope.tui.app import DashboardScreen
from ctxscope.tui.screens.modals import HelpScreen, ScopeScreen
from ctxscope.tui.widgets import text as fmt
from ctxscope.tui.widgets.breakdown import BreakdownPanel
from ctxscope.tui.widgets.header import StatusHeader
from ctxscope.tui.widgets.messages_view import MessagesView
from ctxscope.tui.widgets.meter import ContextMeter, bar_width
from ctxscope.tui.widgets.summaries import SummaryList
from textual.widgets import Footer, Markdown, OptionList

from . import fakes
from .conftest import MockApp, detail_shown, until


def recorded(scope: ScopeSnapshot, **record_fields: object) -> ScopeSnapshot:
    """``scope`` in the recorded lens, every call reported (and ``record_fields`` set on each)."""
    records = tuple(
        dataclasses.replace(r, stages=(), summary=None, source=SOURCE_REPORTED,
                            reported_tokens=r.calibrated_tokens, **record_fields)  # type: ignore[arg-type]
        for r in scope.records
    )
    totals = ScopeTotals().extended(records)
    return dataclasses.replace(scope, lens="recorded", records=records, totals=totals)


async def test_a_scope_with_no_priced_call_has_no_total_cost() -> None:
    """Gemini CLI (gemini-3-pro-preview, not in the price table): every call says "no price", and so
    does the scope's total, as ``ctxscope report`` does ("—"), never a made-up "≈$0.00+"."""
    scope = recorded(fakes.scope(12), priced=False, cost=None)
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        meter = str(app.query_one(ContextMeter).render())
        assert "cost (estimate) no price" in meter
        assert "scope total no price" in meter and "$0.00" not in meter
    async with MockApp(fakes.session(scope)).run_test(size=(100, 30)) as pilot:
        await detail_shown(pilot)
        meter = str(pilot.app.query_one(ContextMeter).render())
        assert "cost no price · scope no price" in meter


async def test_a_scope_total_over_some_calls_says_how_many() -> None:
    """A session whose later calls went to a model without a price (or logged no usage): the total
    said "≈$4.50+", a sum of an unknown share of the calls. It says which share now, from core's
    count of priced calls (``ScopeTotals.priced``); a total over every call says nothing more."""
    scope = recorded(fakes.scope(12))
    records = tuple(
        dataclasses.replace(r, cost=0.5) if r.index < 9
        else dataclasses.replace(r, cost=None, priced=r.index == 11)  # 2 unpriced, then no usage
        for r in scope.records
    )
    some = dataclasses.replace(scope, records=records, totals=ScopeTotals().extended(records))
    assert (some.totals.priced, some.totals.unpriced) == (9, 2)
    every = dataclasses.replace(scope, records=records[:9], totals=ScopeTotals().extended(records[:9]))
    for snapshot, full, short in (
        (some, "scope total ≈$4.50 for 9 of 12 calls", "scope ≈$4.50 (9/12 calls)"),
        (every, "scope total ≈$4.50", "scope ≈$4.50"),
    ):
        for size, words in (((160, 48), full), ((100, 30), short)):
            app = MockApp(fakes.session(snapshot))
            async with app.run_test(size=size) as pilot:
                await detail_shown(pilot)
                app.dashboard.cursor = 8  # a priced call: the cost part shows
                await pilot.pause()
                meter = str(app.query_one(ContextMeter).render())
                assert meter.rstrip().endswith(words) and "≈$4.50+" not in meter, meter


async def test_a_log_without_model_calls_says_why_its_panes_have_no_request() -> None:
    """``codex exec --json``: the meter counted what was stored, but the breakdown said "no request
    selected" and the messages "no model call selected", as if one could be. The breakdown now says
    why there is none and shows what the log gives: its messages by category (estimated) and the
    turns' usage as reported; the messages pane says the log has no call to list them under."""
    volume = StoredVolume(messages=123, tool_calls=61, tool_results=61, estimated_tokens=136_463,
                          by_category={Category.ASSISTANT: 3_987, Category.TOOL_RESULTS: 132_476},
                          turns=1, turn_usage=Usage(2_795_973, cached_prompt_tokens=2_597_760,
                                                    output_tokens=15_308))
    scope = dataclasses.replace(recorded(fakes.scope(0)), records=(), stored_volume=volume)
    for size in ((160, 48), (80, 24)):
        app = MockApp(dataclasses.replace(fakes.session(scope), lens="recorded"))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda a=app: a.dashboard.volume is not None)  # type: ignore[misc]
            await pilot.press("3")
            await pilot.pause()
            lines = [line.strip() for line in app.query_one(BreakdownPanel).plain.splitlines()]
            text = " ".join(lines)
            assert text.startswith("No request to break down: this log records no model call")
            assert "By category (raw estimate, adds up to 136k)" in lines
            assert any(line.startswith("tool results  132k  97%") for line in lines), lines
            assert "input 2,795,973" in " ".join(text.split()) and "not a context size" in text
            assert app.dashboard.placeholder == "no model call in this log: 123 messages, in no request"


async def test_the_meter_keeps_every_figure_at_120_columns() -> None:
    """Codex rollout (raze, gpt-5.4) at 120×40: the meter's last line ended "· scope total ≈$0.…",
    the scope's cost cut for the sake of its labels. A line too long with whole labels takes the
    short ones; at 160 columns the whole labels stay."""
    scope = recorded(fakes.scope(12), cost=0.198, reported_cached_tokens=90_000)
    for width, words in ((120, "scope ≈$2.38"), (160, "scope total ≈$2.38")):
        app = MockApp(fakes.session(scope))
        async with app.run_test(size=(width, 40)) as pilot:
            await detail_shown(pilot)
            inside = app.query_one(ContextMeter).size.width
            lines = str(app.query_one(ContextMeter).render()).splitlines()
            assert all(len(line) <= inside and not line.endswith("…") for line in lines), lines
            assert lines[3].endswith(words), lines[3]


async def test_a_forecast_of_thousands_of_requests_has_its_separator() -> None:
    """Codex rollout (neurodata, 18.0k of 272k, growing slowly): "compaction in ≈1377 requests",
    where every other count on the screen reads 1,377."""
    t = Thresholds(budget=245_000, trigger=245_000, target=120_000, limit=272_000)
    base = recorded(fakes.scope(12))
    slow = tuple(dataclasses.replace(r, reported_tokens=18_000 + 10 * r.index) for r in base.records)
    scope = dataclasses.replace(base, thresholds=t, records=slow, totals=ScopeTotals().extended(slow))
    left = scope.forecast(11).requests_left
    assert left is not None and left >= 1000
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert f"in ≈{left:,} requests" in str(app.query_one(ContextMeter).render())


async def test_the_scope_picker_names_the_lens_of_its_figures() -> None:
    """Claude Code session with sub-agents, ``l`` then ``S``: the picker's peaks and summary counts
    are the pipeline's what-if (155k for main where the agent really sent 165k); its title says
    so, and says recorded in the recorded lens — never one lens's figures shown as the other's."""
    main, agent = fakes.scope(20), fakes.scope(7, scope_id="agent-a1", parent="main", label="tests")
    for lens, title in (("recorded", "Scopes · recorded"), ("pipeline", "Scopes · pipeline what-if")):
        rows = await picker(dataclasses.replace(fakes.session(main, agent), lens=lens), title)
        assert len(rows) == 2 and all(" peak " in row for row in rows)


async def picker(snapshot: SessionSnapshot, title: str) -> list[str]:
    """The scope picker's rows (``S``), once it shows ``title``."""
    app = MockApp(snapshot)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, ScopeScreen))
        assert str(app.screen.query_one("#scope-box").border_title) == title
        return [str(option.prompt) for option in app.screen.query_one(OptionList).options]


async def test_an_empty_summaries_pane_speaks_for_its_own_lens_only() -> None:
    """A Claude Code session without a compaction: the recorded lens's empty summaries pane said
    "(and, in the pipeline lens, the what-if made no summary …)" — a claim about the other lens,
    made whether or not the what-if summarised. Each lens now says what holds in it."""
    agent = recorded(fakes.scope(12))
    what_if = dataclasses.replace(fakes.scope(12), lens="pipeline")
    own = dataclasses.replace(agent, own_pipeline=True)  # ctxscope's own log: the agent's pipeline
    for scope, words in ((agent, "No compaction yet: the agent has made none of its own."),
                         (what_if, "No summary yet: the what-if made none and the agent compacted "),
                         (own, "No summary yet: the agent's pipeline made none (stage 3 ")):
        app = MockApp(dataclasses.replace(fakes.session(scope), lens=scope.lens))
        async with app.run_test(size=(160, 48)) as pilot:
            await detail_shown(pilot)
            shown = str(app.query_one(SummaryList).get_option_at_index(0).prompt)
            assert shown.startswith(words)
            assert "pipeline lens" not in shown


async def test_the_header_says_no_timestamps_only_of_a_log_with_calls_and_no_times() -> None:
    """A Claude Code log whose one call failed (authentication_failed, no usage) has timestamps on
    every line but no model call: the header said "no timestamps in the log". It says nothing of
    times until there is a call; a log of calls without times still says so."""
    empty = dataclasses.replace(recorded(fakes.scope(0)), records=())
    app = MockApp(dataclasses.replace(fakes.session(empty), lens="recorded"))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.dashboard.scope is not None)
        header = str(app.query_one(StatusHeader).render())
        assert "recorded" in header and "no timestamps" not in header and "no times" not in header
    app = MockApp(dataclasses.replace(fakes.session(recorded(fakes.scope(5))), lens="recorded"))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        assert "no timestamps in the log" in str(app.query_one(StatusHeader).render())


async def test_the_window_mark_keeps_its_label_next_to_a_close_trigger() -> None:
    """Codex rollout (gpt-5.4: window 258k, auto-compact 245k) at 100 columns: the window's ▲ had
    no label ("auto-compact 245k ▲   ▲") for want of room left of it. Its label now starts at the
    mark, in the free cells right of the bar; the ▲ stays under the bar's end."""
    t = Thresholds(budget=245_000, trigger=245_000, target=120_000, limit=258_000)
    scope = dataclasses.replace(recorded(fakes.scope(12)), thresholds=t)
    for width in (80, 100, 160):
        app = MockApp(dataclasses.replace(fakes.session(scope), lens="recorded"))
        async with app.run_test(size=(width, 40)) as pilot:
            await detail_shown(pilot)
            bar, marks = str(app.query_one(ContextMeter).render()).splitlines()[:2]
            assert "auto-compact 245k ▲" in marks and "window 258k" in marks
            assert marks.rindex("▲") == bar.index("▏")  # the window's mark, at the bar's end


async def test_every_footer_key_is_whole_at_100_columns() -> None:
    """100×30 with the messages pane (2): the footer gains "⏎ Whole message" and its last key was
    cut under the palette key ("? Hel▏^p palette"). Every key shown is whole, in every pane."""
    app = MockApp(fakes.session(recorded(fakes.scope(12))))
    async with app.run_test(size=(100, 30)) as pilot:
        await detail_shown(pilot)
        for pane in "1234":
            await pilot.press(pane)
            await pilot.pause()
            footer = app.screen.query_one(Footer)
            await until(pilot, lambda f=footer: bool(f.query("FooterKey")))  # type: ignore[misc]
            keys = list(footer.query("FooterKey"))
            palette = [key for key in keys if key.has_class("-command-palette")]
            right = palette[0].region.x if palette else footer.region.right
            assert all(key.region.right <= right for key in keys if key not in palette), pane


async def test_the_breakdown_and_the_messages_name_the_what_if() -> None:
    """Claude Code session, ``l``: the breakdown ("By category (calibrated …)", as an estimated
    call's is in the recorded lens) and the messages' sent/fate columns (cleared …) are the
    pipeline's what-if, but their panes were titled as in the recorded lens. They say so now."""
    for lens in ("recorded", "pipeline"):
        scope = recorded(fakes.scope(12)) if lens == "recorded" else fakes.scope(12)
        app = MockApp(dataclasses.replace(fakes.session(scope), lens=lens))
        async with app.run_test(size=(160, 48)) as pilot:
            await detail_shown(pilot)
            titles = [str(app.query_one(f"#{pane}-pane").border_title) for pane in ("breakdown", "messages")]
            assert titles[1].startswith("Messages of request #11")
            assert all(("pipeline what-if" in title) == (lens == "pipeline") for title in titles), titles


async def test_the_messages_pane_names_the_unit_of_its_tokens() -> None:
    """OpenHands (llama-4, reported 33.5k): the system prompt's row said 1.7k while the breakdown's
    system line said 1.3k — the rows are raw estimates, the breakdown is scaled to the reported
    figure, and only the breakdown said which. The messages pane's title says so too."""
    app = MockApp(dataclasses.replace(fakes.session(recorded(fakes.scope(12))), lens="recorded"))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        title = str(app.query_one("#messages-pane").border_title)
        assert title.startswith("Messages of request #11 · ") and "stored, raw tokens" in title
        breakdown = app.query_one(BreakdownPanel).plain
        assert "By category (reported, adds up to" in breakdown


async def test_a_cut_preview_shows_its_ellipsis_beside_the_scrollbar() -> None:
    """Claude Code session, 279 messages (the list scrolls): a preview cut to the pane ended with
    "…" in the column under the scrollbar, so it read "Let me start by checking t" as if whole.
    Rows are laid out in the cells left of the scrollbar."""
    app = MockApp(fakes.session(recorded(fakes.scope(12))), detail_messages=200, preview="word " * 60)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        view = app.query_one(MessagesView)
        assert view.show_vertical_scrollbar
        visible = view.scrollable_content_region.width
        line = view.render_line(0).text
        assert len(line) == visible and line.rstrip().endswith("…"), line


HELP_KEYS = {"left": "←", "right": "→", "home": "Home", "end": "End", "enter": "Enter",
             "left_square_bracket": "[", "right_square_bracket": "]", "slash": "/"}
"""How the help's key column writes a binding's key."""


async def test_the_help_lists_every_dashboard_key() -> None:
    """``?`` listed no search: ``/`` (search the scope's messages) and ``n`` / ``N`` (step through
    the hits) are kept off the footer, so the help was the only place a user could learn them."""
    app = MockApp(fakes.session(recorded(fakes.scope(12))))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        source = app.screen.query_one(Markdown).source
        rows = [line.split("|")[1] for line in source.splitlines() if line.startswith("| ")]
        listed = {word for row in rows for word in row.replace(",", " ").split()}
        for binding in DashboardScreen.BINDINGS:
            for key in binding.key.split(","):  # type: ignore[union-attr]
                assert HELP_KEYS.get(key, key) in listed, key


async def test_the_pipeline_bar_has_no_held_back_tail_when_nothing_was_held_back() -> None:
    """Codex rollout (gpt-5.4), ``l``: "raw: stored 125k → sent 125k" — the pipeline sent the whole
    history — but the bar drew a ░ tail from the calibrated request (99.0k) to the raw stored
    figure (125k), as if 26k had been held back. No tail where stored and sent are equal."""
    whole = tuple(
        dataclasses.replace(r, stored_tokens=r.sent_tokens, calibrated_tokens=r.sent_tokens * 4 // 5)
        for r in fakes.scope(12).records
    )
    scope = dataclasses.replace(fakes.scope(12), records=whole, totals=ScopeTotals().extended(whole))
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        meter = str(app.query_one(ContextMeter).render())
        bar, figures = meter.splitlines()[0], meter.splitlines()[3]
        assert "░" not in bar
        stored = fakes.scope(12).records[-1].sent_tokens
        assert f"stored {fmt.tokens(stored)} → sent {fmt.tokens(stored)}" in figures


async def test_the_pipeline_bar_tail_is_in_the_unit_of_the_bar() -> None:
    """Claude Code session, ``l``, request #138: the bar filled to the calibrated request (141k,
    calibration 0.85) and drew its ░ tail on to the raw stored history (300k): two units in one
    bar, and the tail unlabelled. The tail is the held-back history calibrated as the request is
    (core's ``held_back_tokens``: (300k − 167k) × 0.85 ≈ 113k), and the meter names it."""
    factor = 0.8
    held = tuple(
        dataclasses.replace(r, sent_tokens=100_000, stored_tokens=150_000, calibrated_tokens=80_000,
                            calibration_factor=factor)
        for r in fakes.scope(12).records
    )
    scope = dataclasses.replace(fakes.scope(12), records=held, totals=ScopeTotals().extended(held))
    assert held[-1].held_back_tokens == 40_000
    limit = scope.thresholds.limit
    for width, words in ((160, "░ held back 40.0k calibrated"), (100, "░ held 40.0k")):
        app = MockApp(fakes.session(scope))
        async with app.run_test(size=(width, 48)) as pilot:
            await detail_shown(pilot)
            lines = str(app.query_one(ContextMeter).render()).splitlines()
            cells = bar_width(app.query_one(ContextMeter).size.width)
            bar = lines[0].strip()[:cells]
            assert abs(len(bar.rstrip("·")) - 120_000 * cells / limit) <= 1, bar  # 80k sent + 40k held
            assert abs(bar.count("░") - 40_000 * cells / limit) <= 1, bar
            assert words in lines[3] and "raw: stored 150k → sent 100k" in lines[3]


async def test_breakdown_titles_keep_their_figure_on_their_line() -> None:
    """160×48, every real log: the breakdown pane (56 cells inside) broke "By category (reported,
    adds up to" before its figure ("106k)" alone on the next line), and its note over three lines,
    because a table's title wraps at the table's width. They wrap at the pane's now."""
    scope = recorded(fakes.scope(12))
    app = MockApp(dataclasses.replace(fakes.session(scope), lens="recorded"))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        lines = app.query_one(BreakdownPanel).plain.splitlines()
        total = fmt.tokens(scope.records[-1].context_tokens)
        assert f"By category (reported, adds up to {total})" in [line.strip() for line in lines]
        script = "By script (raw estimate of the text, estimator"
        assert any(line.strip().startswith(script) for line in lines)
