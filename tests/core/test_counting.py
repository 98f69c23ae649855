"""Counting a counted read's texts in a second process changes no figure.

* :class:`~ctxscope.core.counting.CountingWorker` answers each text's count, in order, as the
  estimator counts it in this process (non-ASCII and lone surrogates included).
* A counted read whose elided texts the worker counts holds the same messages, estimates,
  requests and compactions as one that counts as it reads (also when a response is amended
  across polls, its estimate waiting for the worker), on a constructed log and every Claude Code
  log of ``../shared/real-logs``.
* A worker that dies makes the read start again counting itself; none is started with one core,
  with no core free (by the load average) or with other threads running.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from ctxscope.core import counting, jsonl, reader
from ctxscope.core.counting import CountingFailed, CountingWorker, start_worker
from ctxscope.core.reader import open_log, open_log_counted
from ctxscope.core.tokens import Estimator, get_estimator

from tests.core.test_reader_perf_paths import response_log, snapshot

TEXTS = ["", "plain ascii words", "Привет, мир → 你好 " * 50, "lone \ud83d surrogate", "x" * 100_000]


def test_the_worker_counts_each_text_as_the_estimator_does() -> None:
    claude = get_estimator("claude")
    worker = CountingWorker(claude)
    tickets = [worker.submit(text) for text in TEXTS]
    assert tickets == list(range(len(TEXTS)))
    assert list(worker.counts()) == [claude.count(text) for text in TEXTS]
    assert worker.reaped


class _Failing:
    """An estimator whose count raises: the forked child dies on its first text."""

    name = "claude"

    def count(self, text: str) -> int:
        raise RuntimeError("no count")


def test_a_dead_worker_is_reported_not_waited_for() -> None:
    worker = CountingWorker(_Failing())  # type: ignore[arg-type]
    worker.submit("some text")
    with pytest.raises(CountingFailed):
        worker.counts()
    worker.close()  # already reaped: nothing to do
    assert worker.reaped


def counted(path: Path, estimator: Estimator, monkeypatch: pytest.MonkeyPatch, worker: bool) -> list[object]:
    """The snapshot of a counted read, its texts counted by a worker or as it reads."""
    started: list[CountingWorker] = []

    def start(chosen: Estimator) -> CountingWorker | None:
        if not worker:
            return None
        started.append(CountingWorker(chosen))  # forked directly: pytest may run threads
        return started[-1]

    monkeypatch.setattr(reader, "start_worker", start)
    session = open_log_counted(path, estimator_for=lambda _: estimator, text_cap=64)
    assert all(w.reaped and w.submitted for w in started) and len(started) == worker
    assert not session._pending and session.counter is None
    return snapshot(session)


@pytest.mark.parametrize("chunk", [64, 1 << 20], ids=["polls of a line", "one poll"])
def test_a_counted_read_counted_by_the_worker_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    monkeypatch.setattr(jsonl, "READ_CHUNK", chunk)  # small: responses are amended across polls
    claude = get_estimator("claude")
    assert counted(path, claude, monkeypatch, worker=True) == counted(path, claude, monkeypatch, worker=False)


def test_a_read_whose_worker_dies_counts_again_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    claude = get_estimator("claude")
    expected = snapshot(open_log(path, text_cap=64, estimator=claude))
    monkeypatch.setattr(reader, "start_worker", lambda _: CountingWorker(_Failing()))  # type: ignore[arg-type]
    assert snapshot(open_log_counted(path, estimator_for=lambda _: claude, text_cap=64)) == expected


def test_no_worker_with_one_core_no_core_free_or_other_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    claude = get_estimator("claude")
    monkeypatch.setattr(counting.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(counting, "usable_cores", lambda: 1)
    assert start_worker(claude) is None
    monkeypatch.setattr(counting, "usable_cores", lambda: 2)
    monkeypatch.setattr(counting.os, "getloadavg", lambda: (1.5, 1.0, 1.0))  # the other core busy
    assert start_worker(claude) is None
    monkeypatch.setattr(counting.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert start_worker(claude) is None
    finally:
        release.set()
        other.join()


def claude_code_logs() -> list[Path]:
    from ..conftest import SHARED

    root = SHARED / "real-logs" / "claude-code"
    return sorted(root.rglob("*.jsonl")) if root.is_dir() else []


@pytest.mark.shared
@pytest.mark.parametrize("path", claude_code_logs() or [None], ids=lambda p: p.name if p else "absent")
def test_real_logs_counted_by_the_worker_are_the_same(
    path: Path | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if path is None:
        pytest.skip("needs ../shared/real-logs (absent here)")
    claude = get_estimator("claude")
    assert counted(path, claude, monkeypatch, worker=True) == counted(path, claude, monkeypatch, worker=False)
