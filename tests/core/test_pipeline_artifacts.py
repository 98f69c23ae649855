"""Stage 1: DOM snapshots reduced to their actionable parts, screenshots capped or dropped.

The DOM tests run on real HTML: the pages pydoc's documentation server generates (a navigation bar
with links, a "get" form and a search form with their inputs and buttons, then the module's index).
"""

from __future__ import annotations

import pytest
from ctxscope.core.model import ArtifactKind, Block, BlockKind, image_tokens
from ctxscope.core.pipeline import ContextManager, PipelineConfig, reduce_dom
from ctxscope.core.pipeline.artifacts import artifact_forms, capped_image
from ctxscope.core.snapshot import Fate, Stage

from .pipeline_support import EST, History, frozen, pydoc_html


def test_reduce_real_pydoc_page_to_controls_and_links() -> None:
    html = pydoc_html("json")
    summary = reduce_dom(html)
    lines = summary.lines
    assert summary.title == "Pydoc: package json"
    assert 'link "Module Index" -> index.html' in lines
    assert 'link "decoder" -> json.decoder.html' in lines
    forms = [line for line in lines if line.startswith("form ")]
    assert forms == ['form method=get action="get"', 'form method=get action="search"']
    assert lines.count("input type=text name=key") == 1  # the same control twice is listed once
    assert 'button "Get"' in lines and 'button "Search"' in lines
    assert summary.counts["form"] == 2 and summary.counts["input"] == 2 and summary.counts["link"] > 50
    text = summary.text()
    assert "<td" not in text and "<script" not in text
    # The page's prose and markup are gone; what is left is a small fraction of it.
    assert EST.count(text) * 4 < EST.count(html)


def test_reduce_caps_items_and_keeps_headings_first() -> None:
    html = pydoc_html("collections")
    summary = reduce_dom(html, max_items=20)
    assert len(summary.lines) == 20
    assert summary.omitted > 0
    assert summary.text().endswith(f"… {summary.omitted} more controls omitted")


def test_labels_selects_textareas_and_headings() -> None:
    html = """<html><head><title>Checkout</title><style>.x{}</style>
    <script>var a = "<a href=x>";</script></head>
    <body><h1>Checkout</h1><h2>Shipping <a href="#help">help</a></h2>
    <form action="/pay" method="POST" aria-label="payment">
      <label for="email">E-mail address</label><input id="email" name="email" type="email">
      <label>Card <input name="card" placeholder="1234"></label>
      <input type="hidden" name="csrf" value="secret">
      <select name="country"><option>France</option><option>Japan</option></select>
      <textarea name="note" aria-label="Delivery note"></textarea>
      <button type="submit">Pay <b>now</b></button><input type="image" value="Go" alt="go">
    </form><p>Lots of prose that the model does not need.</p><a href="/terms">Terms</a></body></html>"""
    lines = reduce_dom(html).lines
    assert lines[0] == "h1 Checkout"
    assert lines[1] == "  h2 Shipping help"
    assert 'link "help" -> #help' in lines
    assert 'form "payment" method=post action="/pay"' in lines
    assert 'input type=email name=email label "E-mail address"' in lines
    assert 'input type=text name=card label "Card"' in lines
    assert not any("csrf" in line for line in lines)
    assert "select name=country options: France, Japan" in lines
    assert 'textarea name=note label "Delivery note"' in lines
    assert 'button "Pay now"' in lines
    assert 'link "Terms" -> /terms' in lines
    assert not any("prose" in line or "var a" in line for line in lines)


@pytest.mark.parametrize("html", ["", "<div><a href='x'>unclosed", "<<>>&&;<a href=>", "\x00\ufffd<b>"])
def test_malformed_html_is_tolerated(html: str) -> None:
    summary = reduce_dom(html)
    assert "\n" not in summary.trace()


def test_trace_is_one_line() -> None:
    trace = reduce_dom(pydoc_html("json")).trace()
    assert "\n" not in trace
    assert trace.startswith("[earlier DOM snapshot: Pydoc: package json (")


def test_screenshot_capped_and_traced() -> None:
    shot = Block(BlockKind.ARTIFACT, artifact=ArtifactKind.SCREENSHOT, width=1920, height=1080)
    assert image_tokens(1920, 1080, 0) > 800
    capped = capped_image(shot, 800)
    assert image_tokens(capped.width, capped.height, 0) <= 800
    assert abs(capped.width / capped.height - 1920 / 1080) < 0.05
    small = Block(BlockKind.ARTIFACT, artifact=ArtifactKind.SCREENSHOT, width=100, height=100)
    assert capped_image(small, 800) is small
    payload_only = Block(BlockKind.ARTIFACT, artifact=ArtifactKind.IMAGE, size_bytes=10_000_000)
    assert capped_image(payload_only, 500).tokens(EST) <= 500
    forms = artifact_forms(shot, screenshot_cap=800, dom_max_items=150)
    assert forms.trace.kind is BlockKind.TEXT
    assert "1920×1080" in forms.trace.text


def test_stage_one_runs_always_and_ages_older_artifacts() -> None:
    history = History()
    history.user("Investigate the documentation site.")
    for module in ("json", "csv", "string"):
        history.artifact(ArtifactKind.DOM_SNAPSHOT, pydoc_html(module))
    history.artifact(ArtifactKind.SCREENSHOT, width=1920, height=1080)
    history.artifact(ArtifactKind.SCREENSHOT, width=1280, height=800)
    before = frozen(history.messages)
    manager = ContextManager(PipelineConfig(hard_limit=1_000_000, budget=400_000))
    prepared = manager.prepare(history.messages)
    # Far under budget, yet stage 1 ran (and nothing else did).
    assert [run.stage for run in prepared.stages] == [Stage.ARTIFACTS]
    assert prepared.sent_tokens < prepared.record.stored_tokens
    artifacts = [b for m in prepared.messages for b in m.blocks if b.kind is BlockKind.ARTIFACT]
    texts = [b.text for m in prepared.messages for b in m.blocks if b.kind is BlockKind.TEXT]
    # Oldest DOM snapshot: a one-line trace; the two newest: reduced to actionable parts.
    assert any(t.startswith("[earlier DOM snapshot: Pydoc: package json") for t in texts)
    reduced = [b.text for b in artifacts if b.artifact is ArtifactKind.DOM_SNAPSHOT]
    assert len(reduced) == 2 and all(t.startswith("[page reduced to its actionable parts]") for t in reduced)
    # Older screenshot dropped to a trace, newest capped.
    shots = [b for b in artifacts if b.artifact is ArtifactKind.SCREENSHOT]
    assert len(shots) == 1 and shots[0].tokens(EST) <= 800
    assert any("1920×1080" in t for t in texts)
    trimmed = [i for i, fate in enumerate(prepared.fates) if fate is Fate.TRIMMED]
    assert len(trimmed) == 5
    assert frozen(history.messages) == before
    # The next call changes nothing more: no new stage-1 run.
    history.say("Noted.")
    assert manager.prepare(history.messages).stages == ()


def test_legacy_sends_artifacts_whole() -> None:
    history = History()
    history.user("look")
    history.artifact(ArtifactKind.DOM_SNAPSHOT, pydoc_html("json"))
    prepared = ContextManager(PipelineConfig(strategy="legacy", hard_limit=1_000_000)).prepare(
        history.messages
    )
    assert prepared.stages == ()
    assert prepared.sent_tokens == prepared.record.stored_tokens
