"""Estimate against reported: live context after compaction, calibration on previous calls only."""

from __future__ import annotations

import pytest
from ctxscope.core.model import Block, BlockKind, ObservedCompaction, Usage, text_block
from ctxscope.core.reader import open_log
from ctxscope.core.session import Session
from ctxscope.core.tokens import get_estimator
from ctxscope.core.usage_check import check_usage, ratio_stats

from tests.conftest import shared_path

EST = get_estimator()


def tokens_of(session: Session, scope: str, start: int, end: int) -> int:
    return sum(m.tokens(EST) for m in session.scopes[scope].messages[start:end])


def build(hidden: int = 20_000, bias: float = 1.0) -> Session:
    """A scope whose provider counts ``hidden`` unseen tokens plus ``bias`` × our estimate."""
    session = Session()

    def call() -> None:
        scope = session.scope("main")
        start = scope.context_start(len(scope.requests))
        estimate = tokens_of(session, "main", start, len(scope.messages))
        session.add_request(usage=Usage(hidden + round(bias * estimate)))

    session.add_message("user", [text_block("Please read the files.")])
    call()
    for n in range(6):
        session.add_message("assistant", [Block(BlockKind.TOOL_CALL, f'{{"path": "f{n}"}}', f"c{n}", "Read")])
        session.add_message(
            "user", [Block(BlockKind.TOOL_RESULT, "line of text\n" * (200 * (n + 1)), f"c{n}")]
        )
        call()
    summary = "Summary: read six files."
    session.add_compaction(
        ObservedCompaction("main", len(session.scope("main").messages), trigger="auto", tokens_before=99_999)
    )
    session.add_message("user", [Block(BlockKind.SUMMARY, summary)])
    call()
    session.add_message("user", [text_block("Next step.")])
    call()
    return session


def test_live_context_restarts_after_a_compaction() -> None:
    session = build()
    scope = session.scopes["main"]
    (check,) = check_usage(session).scopes
    after = check.calls[-2]
    assert after.context_start == scope.compactions[0].message_count == 13
    assert after.estimate == tokens_of(session, "main", 13, 14)
    assert check.calls[-1].estimate == tokens_of(session, "main", 13, 15)
    # The compaction's tokens after were filled in by the next call.
    assert scope.compactions[0].tokens_after == after.reported


def test_calibrated_figure_is_exact_when_the_bias_is_constant() -> None:
    session = build(hidden=20_000, bias=0.5)
    (check,) = check_usage(session).scopes
    first, *rest = check.calls
    assert first.calibrated == first.estimate and first.calibrated_on == 0
    assert check.unseen_prefix == first.reported - first.estimate
    assert all(c.calibrated_on == i for i, c in enumerate(check.calls))
    # Raw: the estimator doubles the content and misses the 20 K prefix entirely.
    assert check.raw is not None and check.raw.worst < 0.1
    # Calibrated: anchored on the previous report plus the calibrated growth, the error is
    # only what rounding and the two-call warm-up leave.
    assert check.calibrated is not None
    assert check.calibrated.median == pytest.approx(1.0, abs=0.01)
    assert all(abs(c.calibrated_ratio - 1) < 0.2 for c in rest)
    assert [c.anchored for c in rest] == [True] * 6 + [False, True]


def test_calls_without_usage_are_not_checked() -> None:
    session = Session()
    session.add_message("user", [text_block("hi")])
    session.add_request()
    session.add_message("assistant", [text_block("hello")])
    result = check_usage(session)
    assert result.scopes == () and result.raw is None and result.calls == 0


def test_ratio_stats_worst_is_farthest_in_log_terms() -> None:
    stats = ratio_stats([1.0, 0.5, 1.9, 1.02])
    assert stats is not None
    assert stats.worst == 0.5 and stats.median == pytest.approx(1.01)  # 1/2 is further than 1.9
    assert stats.within_5pct == 0.5
    further = ratio_stats([1.0, 0.5, 2.1])
    assert further is not None and further.worst == 2.1
    assert ratio_stats([]) is None


CALIBRATED_LOGS = [
    "claude-code/spotter-4d5611e5-autocompact/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
    "claude-code/agentcmd/full-session-four.jsonl",
    "claude-code/agentcmd/full-session-five.jsonl",
    "claude-code/claude-code-viewer/fe5e1c67-v1.0.98-inline-sidechains.jsonl",
    "claude-code/claude-code-viewer/5c0375b4-v1.0.108-japanese.jsonl",
    "claude-agent-sdk-stream/tielec-issue-10-06_testing-revise-ja.jsonl",
    "codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    "codex-rollout/rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl",
    "openhands/multi_swe_bench_output.jsonl",
    "claude-code/bhavana-v2.1.177-mode-records.jsonl",
    "claude-code/soltax-glm5-split-usage.jsonl",
    "codex-rollout/neurodata-0.40-31-turn-contexts.jsonl",
    "codex-rollout/raze-0.114.jsonl",
    "codex-rollout/subly-0.101.jsonl",
]


@pytest.mark.shared
@pytest.mark.parametrize("path", CALIBRATED_LOGS, ids=lambda p: p.rsplit("/", 1)[-1][:32])
def test_real_logs_median_call_within_five_percent(path: str) -> None:
    session = open_log(shared_path("real-logs", *path.split("/")))
    result = check_usage(session)
    assert result.calibrated is not None
    assert abs(result.calibrated.median - 1) <= 0.05, result.calibrated
    assert result.calls == sum(1 for s in session.scopes.values() for r in s.requests if r.usage)


@pytest.mark.shared
def test_every_real_log_with_usage_is_checked() -> None:
    """The list above is every real log whose calls carry provider usage (sub-agent files are
    read with their session)."""
    root = shared_path("real-logs")
    with_usage = set()
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".jsonl", ".json", ".traj") or "subagents" in path.parts:
            continue
        if path.name == "SOURCES.json":
            continue
        session = open_log(path)
        if any(r.usage for s in session.scopes.values() for r in s.requests):
            with_usage.add(path.relative_to(root).as_posix())
    assert with_usage == set(CALIBRATED_LOGS)


def test_a_large_first_increment_calibrates_more_than_a_small_one() -> None:
    """The warm-up weighs increments by their size: after one large increment that the
    estimator over-counted twofold, the next increment is calibrated most of the way."""

    def second_ratio(first_size: int) -> float:
        session = Session()
        session.add_message("user", [text_block("start")])
        reported = 20_000
        session.add_request(usage=Usage(reported))
        for n, size in enumerate((first_size, 3000)):
            before = len(session.scopes["main"].messages)
            session.add_message("user", [Block(BlockKind.TOOL_RESULT, "x1 " * size, f"c{n}")])
            reported += tokens_of(session, "main", before, before + 1) // 2
            session.add_request(usage=Usage(reported))
        (check,) = check_usage(session).scopes
        return check.calls[-1].calibrated_ratio

    large, small = second_ratio(3000), second_ratio(20)
    assert large < small
    assert abs(large - 1) < 0.05 < abs(small - 1)


@pytest.mark.shared
def test_real_log_compaction_call_is_estimated_over_the_summary() -> None:
    session = open_log(shared_path("real-logs", *CALIBRATED_LOGS[0].split("/")))
    main = next(s for s in check_usage(session).scopes if s.scope_id == "main")
    compaction = session.scopes["main"].compactions[0]
    after = next(c for c in main.calls if c.message_count > compaction.message_count)
    assert after.reported == 36_081 and after.context_start == compaction.message_count
    assert not after.anchored
    summary_tokens = session.scopes["main"].messages[compaction.message_count].tokens(EST)
    assert after.estimate >= summary_tokens
    assert after.estimate < 0.2 * main.calls[after.calibrated_on - 1].estimate
