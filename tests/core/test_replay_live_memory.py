"""Live replay under the live window: bounded memory without changing a single figure.

A live view keeps the detail of only its newest requests (:class:`LiveWindow`); older records lose
their breakdowns, and the stored messages no kept request shows in full are released from the
pipeline state and from the session. Every figure (sizes, stages, summaries, calibration) must stay
what a full replay computes, and the detail of every kept request must be the full replay's.
"""

from __future__ import annotations

import dataclasses

import pytest
from ctxscope.core.model import ArtifactKind, Usage, text_block, tool_call, tool_result
from ctxscope.core.pipeline import PipelineConfig
from ctxscope.core.records import RecordLog
from ctxscope.core.replay import SessionReplay
from ctxscope.core.retention import LiveWindow, ReleasedError
from ctxscope.core.session import Session
from ctxscope.core.snapshot import Fate, RequestRecord, Stage

from .pipeline_support import History, pydoc_html, text_of

KEEP = 12
WINDOW = LiveWindow(KEEP)


def live_update(session: Session, *replays: SessionReplay) -> None:
    """What a live analysis does after reading: update every replay, then apply the window."""
    for replay in replays:
        replay.update(session)
    WINDOW.apply(session.scopes.items(), replays)


def long_session(session: Session, rounds: int, *, scope: str = "main") -> History:
    """A scope that outgrows its budget again and again: clearing, then summaries."""
    history = History(session, scope, context_limit=30_000, working_budget=6_000)
    history.system("You are a careful agent.")
    history.user("Read every module and report.")
    return history


def grow(history: History, rounds: range) -> None:
    for k in rounds:
        history.round(text_of("code", 1_500, seed=k), path=f"m{k}.py")
        when = f"2026-12-02T06:{k // 60:02d}:{k % 60:02d}"
        history.request(usage=Usage(900 * (k % 7) + 3_000), timestamp=f"{when}Z")
        if k % 9 == 0:
            history.user(f"Also look at part {k}.")
            history.artifact(ArtifactKind.DOM_SNAPSHOT, pydoc_html("json"))
            history.request(timestamp=f"{when}.5Z")


def figures(record: RequestRecord) -> RequestRecord:
    """The record without what a live replay releases."""
    return dataclasses.replace(record, fate_counts={}, by_category={}, by_tool={}, detail_released=False)


def live_and_full(config: PipelineConfig, rounds: int) -> tuple[Session, SessionReplay, SessionReplay]:
    """Replay a growing session live (updating as it grows, releasing as it goes) and in full."""
    session = Session("live", "ctxscope")
    history = long_session(session, rounds)
    live = SessionReplay(config)
    for start in range(0, rounds, 7):
        grow(history, range(start, min(rounds, start + 7)))
        live_update(session, live)
    full_session = Session("full", "ctxscope")
    grow(long_session(full_session, rounds), range(rounds))
    full = SessionReplay(config)
    full.update(full_session)
    return session, live, full


@pytest.mark.parametrize(
    "config",
    [PipelineConfig(), PipelineConfig(summarise=False), PipelineConfig(strategy="legacy")],
    ids=["pipeline", "no-summaries", "legacy"],
)
def test_figures_are_unchanged_and_only_the_newest_requests_keep_their_detail(config: PipelineConfig) -> None:
    session, live, full = live_and_full(config, 160)
    live_records, full_records = live.records("main"), full.records("main")
    assert len(live_records) == len(full_records) > 10 * KEEP
    assert [figures(r) for r in live_records] == [figures(r) for r in full_records]
    released = [r.detail_released for r in live_records]
    assert released == [True] * (len(live_records) - KEEP) + [False] * KEEP
    assert all(r.timestamp and r.sent_at is not None for r in live_records)  # times stay when released
    assert list(live_records[-KEEP:]) == list(full_records[-KEEP:])  # breakdowns and all
    assert all(not r.by_category and not r.fate_counts for r in live_records[:-KEEP])
    with pytest.raises(KeyError, match="released"):
        live.detail("main", 0)
    # The session's requests behind the released records go too; the newest ones stay.
    requests = session.scopes["main"].requests
    assert requests.offset == len(requests) - KEEP
    with pytest.raises(ReleasedError):
        requests[requests.offset - 1]
    assert [r.index for r in requests] == list(range(len(requests) - KEEP, len(requests)))
    if config.strategy != "legacy":
        assert any(run.stage is Stage.CLEAR_TOOL_RESULTS for r in live_records for run in r.stages)


@pytest.mark.parametrize(
    "config", [PipelineConfig(), PipelineConfig(summarise=False)], ids=["pipeline", "no-summaries"]
)
def test_kept_details_match_the_full_replay_and_released_messages_say_so(config: PipelineConfig) -> None:
    session, live, full = live_and_full(config, 160)
    assert session.scopes["main"].messages.offset > 0
    count = len(live.records("main"))
    for index in (count - KEEP, count - 1):
        got, want = live.detail("main", index), full.detail("main", index)
        assert got.record == want.record
        assert got.by_script == want.by_script
        assert len(got.messages) == len(want.messages)
        for mine, theirs in zip(got.messages, want.messages, strict=True):
            assert (mine.index, mine.tokens, mine.fate) == (theirs.index, theirs.tokens, theirs.fate)
            if mine.kind == "released":  # nothing of its content is held, not even its size
                assert mine.fate in (Fate.SUMMARISED, Fate.DROPPED) and "ctxscope open" in mine.preview
                assert mine.tokens == mine.stored_tokens == 0
            else:
                assert mine == theirs
    assert any(view.kind == "released" for view in live.detail("main", count - 1).messages)


def test_memory_held_is_bounded_by_the_window_not_the_session() -> None:
    session = Session("live", "ctxscope")
    history = long_session(session, 0)
    live = SessionReplay()
    held_after: list[int] = []
    for start in range(0, 600, 50):
        grow(history, range(start, start + 50))
        live_update(session, live)
        scope = session.scopes["main"]
        held = len(list(scope.messages))
        assert scope.messages.offset - scope.messages.pinned + held == len(scope.messages)
        state = live._scopes["main"].run.state
        assert state.window.released_to > state.head_end
        assert len(list(state.messages)) == held
        # Every per-message part of the pipeline state holds the same positions.
        accounts, ledger = state.accounts, state.ledger
        expected = (scope.messages.pinned, scope.messages.offset, state.count)
        for part in (ledger.costs, ledger.cut_allowed, accounts.sent, accounts.fates, accounts.contributions):
            assert (part.pinned, part.offset, len(part)) == expected
        held_after.append(held)
    total = len(session.scopes["main"].messages)
    assert total > 1_300
    # What is held stops growing once summaries start: the last half never exceeds the first peak.
    assert max(held_after[6:]) <= max(held_after[:6]) + 60
    assert max(held_after) < total // 4
    # The tool rounds of released messages are forgotten too.
    assert len(session.scopes["main"].tool_rounds) <= max(held_after)


def test_several_replays_release_only_what_all_of_them_released() -> None:
    session = Session("live", "ctxscope")
    history = long_session(session, 0)
    grow(history, range(120))
    eager = SessionReplay()
    eager.update(session)
    stays = SessionReplay(PipelineConfig(budget=2_500))
    messages = session.scopes["main"].messages
    # A replay that has not read the scope yet needs all of it.
    WINDOW.apply(session.scopes.items(), [eager, SessionReplay()])
    assert messages.offset == 0
    stays.update(session)
    live_update(session, eager, stays)
    needs = [r.needs("main") for r in (eager, stays)]
    assert messages.offset == min(n.messages_from for n in needs) > 0
    assert messages.pinned == max(n.head for n in needs)
    # Releasing only moves forward.
    offset = messages.offset
    WINDOW.apply(session.scopes.items(), [eager])
    assert messages.offset >= offset
    session.scopes["main"].release(2, 0)
    assert messages.offset >= offset


def test_a_snapshot_view_does_not_change_as_the_log_grows_and_releases() -> None:
    session = Session("live", "ctxscope")
    history = long_session(session, 0)
    grow(history, range(60))
    live = SessionReplay()
    live_update(session, live)
    before = live.snapshot().scopes["main"].records
    frozen_copy = list(before)
    grow(history, range(60, 120))
    live_update(session, live)
    assert list(before) == frozen_copy and len(before) == len(frozen_copy)
    after = live.snapshot().scopes["main"].records
    assert len(after) > len(before)
    # Figures agree across views; the newer view holds more of them as figures only.
    assert [figures(r) for r in after[: len(before)]] == [figures(r) for r in frozen_copy]
    assert after[-1] == live.records("main")[-1] and after[-1] is live.records("main")[-1]
    assert after[0].detail_released and after[len(after) - 1].detail_released is False
    assert after[-3:] == list(after)[-3:] and after == list(after)


def test_a_call_answered_long_after_its_message_was_released_keeps_its_figures() -> None:
    """A tool call still waiting for its result is not forgotten when its message is released."""

    def build(session: Session, replay: SessionReplay | None) -> None:
        history = long_session(session, 0)
        history.add("assistant", [text_block("start a long job"), tool_call("slow-1", "Deploy", "{}")])
        history.request()
        for start in range(0, 120, 10):
            grow(history, range(start, start + 10))
            if replay is not None:
                live_update(session, replay)
        history.add("tool", [tool_result("slow-1", text_of("code", 1_500, seed=999))])  # no tool name
        history.request()

    live_session, full_session = Session("live", "ctxscope"), Session("full", "ctxscope")
    live = SessionReplay()
    build(live_session, live)
    live.update(live_session)
    build(full_session, None)
    full = SessionReplay()
    full.update(full_session)
    assert live._scopes["main"].run.state.window.released_to > 1  # the call's message was released
    assert live.records("main")[-1] == full.records("main")[-1]
    assert dict(live.records("main")[-1].by_tool).get("Deploy", 0) > 0


def test_a_released_record_keeps_every_figure() -> None:
    """Only the breakdowns go when a record is released: its cost, priced flag and time stay."""
    log = RecordLog("main")
    for i, (cost, recorded, priced) in enumerate([(0.25, None, True), (None, 0.5, False)]):
        log.append(RequestRecord(
            scope_id="main", index=i, message_count=3 + i, stored_tokens=900, sent_tokens=800,
            calibrated_tokens=820, reported_tokens=None if i else 810, reported_cached_tokens=None,
            cached_prefix_tokens=100, stages=(), summary=None, over_limit=False, refused=bool(i),
            fate_counts={}, by_category={}, by_tool={}, model="m", cost=cost, recorded_cost=recorded,
            priced=priced, timestamp=f"2026-12-02T06:00:0{i}Z",
        ))
    kept = list(log)
    log.release(2)
    assert [r.detail_released for r in log] == [True, True]
    assert [figures(r) for r in log] == [figures(r) for r in kept]
