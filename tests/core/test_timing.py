"""core.timing: the shapes agents write times in, and a session's span over its scopes."""

from __future__ import annotations

from datetime import UTC, datetime

from ctxscope.core.timing import duration_text, parse_time, session_times


def test_iso_with_z_or_offset_epoch_seconds_and_milliseconds() -> None:
    want = datetime(2026, 2, 12, 16, 2, 3, tzinfo=UTC)
    assert parse_time("2026-02-12T16:02:03Z") == want
    assert parse_time("2026-02-12T17:02:03+01:00") == want
    assert parse_time(str(int(want.timestamp()))) == want
    assert parse_time(str(int(want.timestamp()) * 1000)) == want
    assert parse_time("") is None and parse_time("yesterday") is None and parse_time("9" * 40) is None


def test_span_and_since_last() -> None:
    times = session_times(["2026-02-12T16:00:00Z", "", "bad", "2026-02-12T21:01:00Z", "2026-02-12T18:00:00Z"])
    assert times.known and times.ran_seconds == 5 * 3600 + 60
    assert times.since_last_seconds(datetime(2026, 2, 12, 21, 4, tzinfo=UTC)) == 180
    assert not session_times(["", "nope"]).known
    spans = (45, 720, 5 * 3600 + 60, 2 * 86400 + 4 * 3600)
    assert [duration_text(s) for s in spans] == ["45s", "12m", "5h01m", "2d04h"]
