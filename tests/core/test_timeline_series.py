"""core.timeline_series: per-bucket maxima in bounded memory, marks, times, what changed."""

from __future__ import annotations

import dataclasses
import math

from ctxscope.core.snapshot import AgentCompaction, ScopeSnapshot, Stage
from ctxscope.core.timeline_series import MARK_COMPACTION, MARK_SUMMARY, NONE, TimelineSeries

from ..tui import fakes


def grown(scope: ScopeSnapshot, count: int) -> ScopeSnapshot:
    """The scope with only its first ``count`` records (a log being read)."""
    return dataclasses.replace(scope, records=tuple(scope.records[:count]))


def test_one_bucket_a_request_while_they_fit() -> None:
    scope = fakes.scope(40, summary_every=15)
    series = TimelineSeries(capacity=64)
    series.update(scope)
    assert series.count == 40 and series.step == 1 and len(series) == 40
    assert list(series.context) == [r.context_tokens for r in scope.records]
    assert list(series.reported) == [NONE if r.reported_tokens is None else r.reported_tokens
                                     for r in scope.records]
    summaries = [b for b, mark in enumerate(series.marks) if mark & MARK_SUMMARY]
    assert summaries == [r.index for r in scope.records if r.summary is not None] == [15, 30]
    artifacts = [r.freed_by(Stage.ARTIFACTS) if any(run.stage is Stage.ARTIFACTS for run in r.stages)
                 else NONE for r in scope.records]
    assert list(series.freed[Stage.ARTIFACTS]) == artifacts
    assert series.peak_freed[Stage.SUMMARIZE] == max(r.freed_by(Stage.SUMMARIZE) for r in scope.records)
    assert not series.timed and math.isnan(series.last_time)


def test_buckets_merge_and_keep_the_maxima() -> None:
    """Past the capacity, neighbours merge (step doubles): memory is bounded, peaks and marks stay."""
    scope = fakes.scope(1000, summary_every=97)
    series = TimelineSeries(capacity=64)
    series.update(scope)
    assert series.count == 1000 and series.step == 16 and len(series) <= 64
    for bucket in range(len(series)):
        span = series.span_of(bucket)
        assert series.context[bucket] == max(scope.records[i].context_tokens for i in span)
        assert series.stored[bucket] == max(
            scope.records[i].context_tokens + scope.records[i].held_back_tokens for i in span
        )
        has_summary = any(scope.records[i].summary is not None for i in span)
        assert bool(series.marks[bucket] & MARK_SUMMARY) == has_summary
    # The same figures arriving a few records at a time give the same buckets.
    piecewise = TimelineSeries(capacity=64)
    for count in range(0, 1001, 37):
        piecewise.update(grown(scope, count))
    piecewise.update(scope)
    assert piecewise.context == series.context and piecewise.marks == series.marks
    assert piecewise.step == series.step


def test_memory_stays_bounded_over_300k_requests() -> None:
    """300,000 requests: the buckets never pass the capacity (the live view's memory is flat)."""
    record = fakes.records(1)[0]
    series = TimelineSeries(capacity=256)
    batch = 5_000
    base = fakes.scope(0)
    records: list[object] = []
    for start in range(0, 300_000, batch):
        records.extend(dataclasses.replace(record, index=i, calibrated_tokens=i)
                       for i in range(start, start + batch))
        series.update(dataclasses.replace(base, records=tuple(records)))  # type: ignore[arg-type]
        assert len(series) <= 256
        assert all(len(column) == len(series) for column in series.freed.values())
    assert series.count == 300_000 and series.step == 2048
    assert series.context[-1] == 299_999  # the newest request's figure is in the last bucket


def test_hostile_figures_are_clamped() -> None:
    scope = fakes.scope(3)
    huge = [dataclasses.replace(r, calibrated_tokens=10**30, stored_tokens=-5, reported_tokens=2**70)
            for r in scope.records]
    series = TimelineSeries()
    series.update(dataclasses.replace(scope, records=tuple(huge)))
    assert max(series.context) <= 10**15 and max(series.reported) <= 10**15
    assert 0 <= min(series.stored) <= max(series.stored) <= 10**15


def test_compactions_mark_their_request_once_it_arrives() -> None:
    scope = fakes.scope(20)
    compaction = AgentCompaction(request=12, kind="summary", trigger="auto", tokens_before=1,
                                 tokens_after=0, summary_tokens=0, kept_tokens=0, summary_text="")
    series = TimelineSeries()
    series.update(dataclasses.replace(grown(scope, 10), agent_compactions=(compaction,)))
    assert not any(mark & MARK_COMPACTION for mark in series.marks)  # request 12 is not there yet
    series.update(dataclasses.replace(scope, agent_compactions=(compaction,)))
    assert [b for b, mark in enumerate(series.marks) if mark & MARK_COMPACTION] == [12]


def test_changed_since_names_the_first_changed_bucket() -> None:
    scope = fakes.scope(50)
    series = TimelineSeries(capacity=64)
    series.update(grown(scope, 30))
    seen = series.revision
    assert series.changed_since(seen) == len(series)  # nothing new
    series.update(grown(scope, 31))
    assert series.changed_since(seen) == 30
    series.update(grown(scope, 30))  # fewer records: another session, everything changed
    assert series.changed_since(seen) == 0


def test_times_per_bucket() -> None:
    scope = fakes.scope(6)
    timed = [dataclasses.replace(r, timestamp="" if r.index == 2 else f"2026-12-01T10:0{r.index}:00Z")
             for r in scope.records]
    series = TimelineSeries(capacity=4)
    series.update(dataclasses.replace(scope, records=tuple(timed)))
    assert series.timed and series.step == 2
    start = 1_796_119_200.0  # 2026-12-01T10:00:00Z
    assert list(series.times) == [start, start + 180, start + 240]  # bucket 1: #2 has no time, #3 has
    assert series.last_time == start + 300


def test_the_stored_line_is_in_the_unit_of_the_request() -> None:
    """Codex rollout, ``l``: the stored history was drawn raw (119k) above the calibrated request
    (91.0k) where the pipeline sent it whole, as if 28k were held back. The stored line is the
    request plus what it held back, calibrated as it is: it meets the request where nothing was."""
    records = tuple(
        dataclasses.replace(r, sent_tokens=119_000, stored_tokens=119_000 + 1000 * (r.index % 2),
                            calibrated_tokens=91_000, calibration_factor=91 / 119)
        for r in fakes.scope(8).records
    )
    scope = dataclasses.replace(fakes.scope(8), records=records)
    series = TimelineSeries()
    series.update(scope)
    assert list(series.stored) == [91_000 + round(1000 * 91 / 119) * (i % 2) for i in range(8)]
    assert list(series.context) == [91_000] * 8
