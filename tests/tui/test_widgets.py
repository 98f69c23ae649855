"""Widget-level tests: hostile text, the Strip cache, 100k messages, meter arithmetic."""

from __future__ import annotations

import re

import pytest
from ctxscope.core.snapshot import growth_rate, requests_left
from ctxscope.tui.widgets import text as fmt
from ctxscope.tui.widgets.error_strip import strip_text
from ctxscope.tui.widgets.header import header_text
from ctxscope.tui.widgets.messages_view import MessagesView
from ctxscope.tui.widgets.summaries import marker_row
from ctxscope.tui.widgets.timeline_axes import XScale, nice_ceiling, nice_ticks
from rich.text import Text

from . import fakes
from .conftest import MockApp, detail_shown

UNSAFE = "\x1b\x07\x00\r\n\x9b\x9d\u202e\u202a\u2066\u200b\u200d\ufeff\x7f"


def assert_safe(text: str) -> None:
    bad = [hex(ord(ch)) for ch in text if ch in UNSAFE]
    assert not bad, f"unsafe characters reached the screen: {bad}"


def test_clean_makes_controls_visible_and_keeps_markup_literal() -> None:
    cleaned = fmt.clean(fakes.HOSTILE)
    assert_safe(cleaned)
    assert "[bold red]x[/]" in cleaned and "[/path]" in cleaned
    assert "␛[31mRED" in cleaned  # ESC shown as a control picture, the rest literal
    assert "␍" in cleaned and "␇" in cleaned and "␀" in cleaned
    assert "⍰" in cleaned  # zero-width and bidi overrides made visible
    assert fmt.literal(fakes.HOSTILE).plain == cleaned
    assert fmt.literal(fakes.HOSTILE).spans == []  # nothing interpreted as style


def test_clean_caps_before_scanning(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 5 MB string is cut to the display cap before any scan (no scan of the rest)."""
    scanned: list[int] = []
    pattern = fmt._UNSAFE

    class Recording:
        def search(self, text: str) -> re.Match[str] | None:
            scanned.append(len(text))
            return pattern.search(text)

    monkeypatch.setattr(fmt, "_UNSAFE", Recording())
    huge = "x" * 5_000_000 + "\x1b"
    out = fmt.clean(huge, 200)
    assert len(out) == 201 and out.endswith("…") and "␛" not in out
    assert scanned == [200]


def test_clean_block_keeps_lines() -> None:
    out = fmt.clean_block("line one\r\nline\ttwo\x1b[2J\n\u202eright")
    assert out.split("\n")[0] == "line one"
    assert_safe(out.replace("\n", ""))


def test_number_formats() -> None:
    assert fmt.tokens(812) == "812"
    assert fmt.tokens(12_400) == "12.4k"
    assert fmt.tokens(312_400) == "312k"
    assert fmt.tokens(1_210_000) == "1.21M"
    assert fmt.tokens(None) == "—"
    assert fmt.tokens(-5_000) == "-5.0k"
    assert fmt.size(3_158_801) == "3.0 MB"
    assert fmt.percent(1, 0) == "—"


def test_hostile_text_in_every_renderer() -> None:
    """Scope labels, models, formats, reasons, summary rows: shown literally, never as markup."""
    snap = fakes.session(fakes.scope(12, summary_every=5, label=fakes.HOSTILE, tool=fakes.HOSTILE))
    scope = snap.scopes["main"]
    marker = next(r.summary for r in scope.records if r.summary)
    assert marker is not None
    for rendered in (marker_row(marker), strip_text(snap, fakes.HOSTILE)):
        assert isinstance(rendered, Text)
        assert_safe(rendered.plain.replace("\n", ""))


def test_growth_and_requests_left() -> None:
    records = fakes.records(6, growth=10_000)
    rate = growth_rate(records, 5)
    assert rate is not None and 9_000 < rate < 13_000
    assert growth_rate(records, 0) is None
    assert requests_left(100_000, 150_000, 10_000.0) == 5
    assert requests_left(160_000, 150_000, 10_000.0) == 0
    assert requests_left(100_000, 150_000, None) is None
    assert requests_left(100_000, 150_000, -3.0) is None


def test_growth_restarts_after_a_compaction() -> None:
    records = fakes.records(40, growth=9_000)
    cleared = [r.index for r in records if any(run.stage == "clear_tool_results" for run in r.stages)]
    assert cleared
    after = cleared[0] + 1
    assert growth_rate(records, after) is not None


def test_axes_extents_and_ticks() -> None:
    assert [nice_ceiling(v) for v in (0, 1, 3, 11, 139, 10**12 + 1)] == [1, 1, 5, 20, 200, 2 * 10**12]
    assert nice_ceiling(139, (1, 1.5, 2)) == 150
    assert nice_ticks(1_100_000) == [0, 500_000, 1_000_000]
    assert nice_ticks(1_100_000, 8) == [0, 200_000, 400_000, 600_000, 800_000, 1_000_000]
    assert nice_ticks(0) == [0]
    # A request axis of 15 calls (tau-bench's task 0): whole steps, never #2 #5 #7 (a 2.5 step cut).
    assert nice_ticks(15, 6) == [0, 5, 10, 15]
    assert nice_ticks(150, 6) == [0, 25, 50, 75, 100, 125, 150]
    assert nice_ticks(1, 4) == [0, 1]
    scale = XScale(False, 0, 150, 100)
    assert scale.dot(0) == 0 and scale.dot(150) == 99 and scale.dot(10**9) == 99 and scale.dot(-5) == 0


def test_header_without_state() -> None:
    assert "starting" in header_text(None, None, None, paused=False, follow=True, width=80).plain


async def test_messages_view_strip_cache_hits() -> None:
    """Rendering the same rows twice is served from the LRU Strip cache (it really hits)."""
    snap = fakes.session(fakes.scope(3))
    app = MockApp(snap, detail_messages=500)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        view = app.query_one(MessagesView)
        assert view.row_count == 500
        view.cache.clear()
        hits, misses = view.cache.hits, view.cache.misses
        for y in range(10):
            view.render_line(y)
        assert view.cache.misses - misses == 10
        for y in range(10):
            view.render_line(y)
        assert view.cache.hits - hits == 10
        view.refresh()
        await pilot.pause()
        assert view.cache.hits - hits >= 10


async def test_100k_messages_scroll_smoothly() -> None:
    """100,000 messages: only visible rows are rendered; paging to the end stays fast."""
    snap = fakes.session(fakes.scope(2))
    app = MockApp(snap, detail_messages=100_000)
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        view = app.query_one(MessagesView)
        assert view.row_count == 100_000
        assert view.virtual_size.height == 100_000
        view.focus()
        await pilot.press(*["pagedown"] * 20)
        assert view.scroll_offset.y >= 20 * (view.size.height - 1)
        for step in range(1, 21):
            view.scroll_to(y=step * 4_999, animate=False)
            await pilot.pause()
        await pilot.press("G")
        assert view.scroll_offset.y > 99_000
        assert len(view.cache) <= view.cache.maxsize
        assert view.cache.misses < 2_000  # visible rows only, never the whole list


async def test_hostile_previews_render_safely() -> None:
    """Message previews with markup, escapes, controls and bidi characters: literal and safe."""
    snap = fakes.session(fakes.scope(3, label=fakes.HOSTILE))
    app = MockApp(snap, detail_messages=30, preview=fakes.HOSTILE)
    async with app.run_test(size=(200, 48)) as pilot:
        await detail_shown(pilot)
        view = app.query_one(MessagesView)
        line = "".join(segment.text for segment in view.render_line(0))
        assert "[bold red]x[/]" in line
        assert_safe(line)
        svg = app.export_screenshot()
        assert "[bold red]x[/]" in svg.replace("&#160;", " ")


async def test_every_stage_has_a_lane_label_and_a_caption() -> None:
    """Every Stage (trim_turns, the legacy strategy's only stage, included) is drawn without a KeyError:
    its lane, its shading, the selected request's caption, the meter and the timeline."""
    import dataclasses

    from ctxscope.core.snapshot import Stage, StageRun
    from ctxscope.tui.widgets.meter import ContextMeter
    from ctxscope.tui.widgets.timeline import STAGE_LABELS, StageLanes, TimelinePlot

    assert set(STAGE_LABELS) == set(Stage)
    base = fakes.scope(len(Stage) * 3)
    recs = list(base.records)
    stages = list(Stage)
    for i, record in enumerate(recs):
        stage = stages[i % len(stages)]
        recs[i] = dataclasses.replace(record, stages=(StageRun(stage, 3, 1_000 + 97 * i),))
    scope = dataclasses.replace(base, records=tuple(recs))
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        lanes = app.query_one(StageLanes)
        text = lanes.render().plain
        for label in STAGE_LABELS.values():
            assert label in text
        for index, stage in enumerate(stages):
            app.dashboard.cursor = index
            await pilot.pause()
            caption = lanes.render().plain.splitlines()[-1]
            assert caption.startswith(f"#{index} ") and f"({3} items)" in caption
            assert app.query_one(ContextMeter).render().plain
            assert scope.records[index].stages[0].stage is stage
        assert app.query_one(TimelinePlot).replots >= 1


async def test_redact_shows_shapes_never_content() -> None:
    """--redact: previews become ‹kind · size›, summary text becomes its shape, labels become ids."""
    from ctxscope.tui.app import DashboardOptions
    from ctxscope.tui.screens.modals import TextScreen, summary_body
    from ctxscope.tui.widgets.header import StatusHeader

    secret = "SECRET-LOG-TEXT"
    snap = fakes.session(
        fakes.scope(40, summary_every=30),
        fakes.scope(5, scope_id="agent-1", parent="main", label=f"task {secret}"),
        bad_lines={"invalid_json": 1},
    )
    app = MockApp(snap, preview=secret)
    app.options = DashboardOptions("/logs/session.jsonl", redact=True)
    app.dashboard.redact = True
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        view = app.query_one(MessagesView)
        rows = [view.render_line(y).text for y in range(5)]
        assert all(secret not in row for row in rows)
        assert any("‹" in row and "tokens›" in row for row in rows)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert "agent-1" in app.query_one(StatusHeader).render().plain
        assert secret not in app.query_one(StatusHeader).render().plain
        marker = snap.scopes["main"].records[30].summary
        title, body = summary_body(marker, None, redact=True)
        assert "SECRET" not in body.plain and "Summary at" not in body.plain
        assert body.plain.startswith("‹summary · ") and "chars" in body.plain
        app.push_screen(TextScreen(title, body))
        await pilot.pause()


def test_script_table_shows_the_real_tokenizers_beside_the_estimate() -> None:
    """With the exact extra, core puts the real tokenizers' counts in the breakdown; the per-script
    table shows each one under the estimated total, in the tokens column."""
    import dataclasses
    from types import MappingProxyType

    from ctxscope.tui.widgets.breakdown import script_table
    from rich.console import Console

    record = fakes.scope(1).records[0]
    by_script = dataclasses.replace(
        fakes.script_breakdown(), exact_counts=MappingProxyType({"exact-o200k": 1234, "exact-claude": 1301})
    )
    detail = fakes.detail(record, 1)
    console = Console(width=100, record=True)
    console.print(script_table(dataclasses.replace(detail, by_script=by_script)))
    text = console.export_text()
    assert "raw estimate" in text
    lines = text.splitlines()
    (total,) = [line for line in lines if line.startswith("all ")]
    estimate = fmt.tokens(by_script.tokens)
    for name, figure in (("exact-o200k", fmt.tokens(1234)), ("exact-claude", fmt.tokens(1301))):
        (row,) = [line for line in lines if line.startswith(name)]
        assert row.split() == [name, figure]
        assert row.index(figure) + len(figure) == total.index(estimate) + len(estimate)  # same column
    plain_table = Console(width=100, record=True)
    plain_table.print(script_table(detail))
    assert "exact-" not in plain_table.export_text()  # without the extra: the estimate alone


def test_script_table_adds_up_to_the_meters_raw_estimate() -> None:
    """Under the text's total, what the raw estimate counts beyond the text (core's framing
    figure) and the raw estimate itself: the meter's figure, so the two panes agree."""
    import dataclasses

    from ctxscope.tui.widgets.breakdown import script_table
    from rich.console import Console

    record = fakes.scope(1).records[0]
    detail = fakes.detail(record, 1)
    framed = dataclasses.replace(detail, framing_tokens=1_562)
    console = Console(width=100, record=True)
    console.print(script_table(framed))
    lines = console.export_text().splitlines()
    (extra,) = [line for line in lines if line.startswith("+ no text")]
    (raw,) = [line for line in lines if line.startswith("raw estimate")]
    assert extra.split()[-1] == fmt.tokens(1_562)
    assert raw.split()[-1] == fmt.tokens(record.sent_tokens)
    bare = Console(width=100, record=True)
    bare.print(script_table(detail))  # no framing figure (a fake without one): no rows for it
    assert "+ no text" not in bare.export_text()
