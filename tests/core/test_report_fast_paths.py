"""The recorded lens's fast paths give the figures the plain code gave (issue 19).

``report --json`` (per request) is built twice on every log of ``../shared/real-logs`` and on a
2 MB ``bench_reader.synthesize`` log: with the engine as it is, and with the code it replaced
put back (below, verbatim): :class:`ContextSums` summing each message into every category column
as it is asked for, and :class:`Calibrator` sorting its window for every median. The two outputs
must be the same bytes. The sorted window is also checked against ``sorted()`` on its own, over
evictions and repeated ratios.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

import pytest
from ctxscope.core import lens
from ctxscope.core.analysis import session_model_estimator
from ctxscope.core.calibration import MAX_FACTOR, MIN_FACTOR, WARMUP, Calibrator
from ctxscope.core.model import Category, ModelRequest
from ctxscope.core.reader import open_log
from ctxscope.core.snapshot import RequestRecord
from ctxscope.core.tokens import get_estimator
from ctxscope.core.usage_check import ContextSums
from ctxscope.tui.cli import main

from ..conftest import SHARED

BENCH = Path(__file__).resolve().parents[2] / "bench"


class PlainContextSums(ContextSums):
    """:class:`ContextSums` as it was before the fast paths (``main`` at ec4d060)."""

    def prepare(self, end: int) -> None:
        pass  # each request extended the sums itself

    def _extend(self, end: int) -> None:
        done = len(self.prefix) - 1
        if done >= end:
            return
        prefix = self.prefix.raw
        system = self.system_prefix.raw
        counts = self.system_count.raw
        columns = [(cat, sums.raw) for cat, sums in self.by_category.items()]
        estimator = self.estimator
        total, system_total = prefix[-1], system[-1]
        for message in self.scope.messages[done:end]:
            tokens = message.tokens(estimator)
            total += tokens
            prefix.append(total)
            if message.role == "system":
                system_total += tokens
                counts.append(counts[-1] + 1)
            else:
                counts.append(counts[-1])
            system.append(system_total)
            category = message.category()
            for cat, column in columns:
                column.append(column[-1] + (tokens if cat is category else 0))

    def categories(self, request: ModelRequest, start: int) -> dict[Category, int]:
        end = request.message_count
        self._extend(end)
        out = {cat: column[end] - column[start] for cat, column in self.by_category.items()}
        out[Category.SYSTEM] += self.system_prefix[start]
        for lo, hi in self._dropped(request, start):
            for cat, column in self.by_category.items():
                out[cat] -= column[hi] - column[lo]
        return {cat: tokens for cat, tokens in out.items() if tokens}


def plain_factor(self: Calibrator) -> float:
    """:attr:`Calibrator.factor` as it was: the window sorted for every median."""
    if self._factor is not None:
        return self._factor
    if not self._ratios:
        return 1.0
    ordered = sorted(self._ratios)
    half = len(ordered) // 2
    middle = ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
    if len(self._ratios) < WARMUP:
        if self._prior_tokens is None:
            middle = 1.0 + (middle - 1.0) / 2
        else:
            evidence = sum(self._evidence)
            middle = 1.0 + (middle - 1.0) * evidence / (evidence + self._prior_tokens)
    self._factor = min(MAX_FACTOR, max(MIN_FACTOR, middle))
    return self._factor


def synthetic(folder: Path) -> Path:
    """A 2 MB ``bench_reader.synthesize`` Claude Code log in ``folder``."""
    sys.path.insert(0, str(BENCH))
    try:
        from bench_reader import synthesize
    finally:
        sys.path.remove(str(BENCH))
    path: Path = synthesize(folder / "synthetic.jsonl", 2)
    return path


def real_logs() -> list[Path]:
    root = SHARED / "real-logs"
    if not root.is_dir():
        return []
    kinds = (".jsonl", ".json", ".traj")
    found = (p for p in root.rglob("*") if p.suffix in kinds and p.is_file())
    return sorted(p for p in found if p.name != "SOURCES.json")


def report(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["report", "--json", "--per-request", str(path)]) == 0
    return capsys.readouterr().out


def same_as_plain(path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    fast = report(path, capsys)
    with monkeypatch.context() as patch:
        patch.setattr(lens, "ContextSums", PlainContextSums)
        patch.setattr(Calibrator, "factor", property(plain_factor))
        plain = report(path, capsys)
    assert fast == plain
    return fast


@pytest.mark.shared
@pytest.mark.parametrize("path", real_logs() or [None], ids=lambda p: p.name if p else "absent")
def test_real_logs_report_the_same_bytes(
    path: Path | None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if path is None:
        pytest.skip("needs ../shared/real-logs (absent here)")
    same_as_plain(path, capsys, monkeypatch)


def test_a_synthetic_log_reports_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = same_as_plain(synthetic(tmp_path), capsys, monkeypatch)
    assert out.count('"request": ') > 50  # per-request figures were compared


@pytest.mark.parametrize("source", ["synthetic", *(p.name for p in real_logs())])
def test_the_recorded_records_are_the_same(
    source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every field of every request record (per-category figures included, which the report's
    JSON does not show), with the fast paths and without."""
    path = synthetic(tmp_path) if source == "synthetic" else next(p for p in real_logs() if p.name == source)
    session = open_log(path)
    estimator = get_estimator(session_model_estimator(session))

    def records() -> list[list[RequestRecord]]:
        return [lens.RecordedScope(scope, estimator).advance(scope) for scope in session.scopes.values()]

    fast = records()
    with monkeypatch.context() as patch:
        patch.setattr(lens, "ContextSums", PlainContextSums)
        patch.setattr(Calibrator, "factor", property(plain_factor))
        plain = records()
    assert fast == plain
    if source == "synthetic":
        assert any(record.by_category for scope in fast for record in scope)


@pytest.mark.parametrize("source", ["synthetic", *(p.name for p in real_logs())])
def test_records_without_breakdowns_have_the_same_figures(source: str, tmp_path: Path) -> None:
    """``ctxscope report``'s records (``breakdowns=False``): every field but the breakdowns is what
    the full records hold, and the breakdowns are empty, as a released record's."""
    path = synthetic(tmp_path) if source == "synthetic" else next(p for p in real_logs() if p.name == source)
    session = open_log(path)
    estimator = get_estimator(session_model_estimator(session))
    for scope in session.scopes.values():
        full = lens.RecordedScope(scope, estimator).advance(scope)
        bare = lens.RecordedScope(scope, estimator, breakdowns=False).advance(scope)
        assert bare == [
            dataclasses.replace(r, fate_counts={}, by_category={}, detail_released=True) for r in full
        ]
        assert not any(r.by_category or r.fate_counts for r in bare)


def test_sums_without_categories_refuse_a_breakdown(tmp_path: Path) -> None:
    session = open_log(synthetic(tmp_path))
    scope = session.scopes["main"]
    sums = ContextSums(scope, get_estimator("claude"), per_category=False)
    full = ContextSums(scope, get_estimator("claude"))
    request = scope.requests[len(scope.requests) // 2]
    assert sums.request(request) == full.request(request)
    assert sums.by_category == {}
    with pytest.raises(ValueError, match="per-category"):
        sums.categories(request, 0)


def test_the_sorted_window_is_the_sorted_ratios() -> None:
    rng = random.Random(19)
    for window in (1, 2, 5, 16):
        calibrator = Calibrator(window, prior_tokens=600)
        for _ in range(300):
            estimate = rng.choice((100, 1_000, rng.randrange(1, 5_000)))
            reported = rng.choice((estimate, 2 * estimate, rng.randrange(1, 10_000), 100 * estimate))
            calibrator.observe(estimate, reported)  # some ratios repeat, some are out of range
            assert calibrator._ordered == sorted(calibrator._ratios)
            assert calibrator.factor == plain_factor(_fresh_copy(calibrator))


def _fresh_copy(calibrator: Calibrator) -> Calibrator:
    """The calibrator's state without its cached factor."""
    copy = Calibrator(calibrator._ratios.maxlen or 1, prior_tokens=calibrator._prior_tokens)
    copy._ratios.extend(calibrator._ratios)
    copy._evidence.extend(calibrator._evidence)
    copy._ordered = sorted(copy._ratios)
    return copy
