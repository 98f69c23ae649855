"""Counting a counted read's long texts in a second process that reads the file itself changes no
figure (:mod:`ctxscope.core.count_ahead`).

* The child's answers, taken in full (written to a file first, so no test waits on a process),
  give the same session, message by message and count by count, as a read that counts itself,
  on a constructed log with hostile lines (broken JSON, invalid UTF-8, lone surrogates, a line
  longer than the child's chunk, a last line without a newline) and on every Claude Code log of
  ``../shared/real-logs``; on the constructed log the child's count is taken for every long text
  but those of the lines the reader has to repair (which the child leaves alone).
* ``report --json``'s figures (the recorded lens's summary, per request) are byte-identical with
  the child forked (whatever it has reached when the reading takes its counts) and without it.
* No child is started for a small log, with one usable core or with other threads running.
* :meth:`CountedAhead.close` stops a running child and reaps it; it may be called again, after the
  child exited or was reaped elsewhere (then it signals nobody: the pid may be another process's),
  and from a process forked later (which leaves the child to the process that started it).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import orjson
import pytest
from ctxscope.core import count_ahead
from ctxscope.core import session as session_module
from ctxscope.core.analysis import AnalysisOptions, analyse, session_model_estimator
from ctxscope.core.count_ahead import CountedAhead
from ctxscope.core.reader import LARGE_LOG_TEXT_CAP, open_log, open_log_counted
from ctxscope.core.session import Session
from ctxscope.core.tokens import get_estimator

from ..conftest import SHARED
from .test_adapters_claude_code import assistant, tool_result, tool_use, usage, user
from .test_reader_perf_paths import lines_of, response_log, snapshot

CAP = 64


def hostile_log() -> bytes:
    """The two-call log, then broken lines, invalid UTF-8 in a long text, an escaped lone
    surrogate, non-ASCII text, a line longer than the child's chunk and a last line unended."""
    u3 = usage(3, 700, 22_000)
    tail = lines_of(
        [
            user(tool_result("toolu_3", "Привет → 你好 " * 300)),
            assistant("msg_3", {"type": "text", "text": "lone LONE surrogate " * 40}, u3),
            assistant("msg_3", tool_use("toolu_4", "Read"), u3),
            user(tool_result("toolu_4", "z" * 300_000)),
        ]
    )
    broken = [b'{"type": "user", "message": {"content": "' + b"cut " * 100 + b"\n", b"not json at all\n"]
    invalid = orjson.dumps(user(tool_result("toolu_x", "bad FF bytes " * 50))) + b"\n"
    invalid = invalid.replace(b"FF", b"\xff")  # raw invalid UTF-8 inside a long text
    last = orjson.dumps(user("the last line, without its newline " * 20))
    tail[1] = tail[1].replace(b"LONE", b"\\ud83d")  # an escaped lone surrogate
    return b"".join(response_log()) + b"".join(broken) + invalid + b"".join(tail) + last


def counted_by_file(path: Path, tmp_path: Path, cap: int) -> tuple[Session, CountedAhead]:
    """A read taking every long text's count from the child's answers, written in full first."""
    claude = get_estimator("claude")
    answers = tmp_path / "answers.bin"
    with open(answers, "wb") as out:
        count_ahead._count_file(str(path), path.stat().st_size, claude, cap, os.dup(out.fileno()))
    counter = CountedAhead(claude, cap, os.open(answers, os.O_RDONLY), None)
    try:
        return open_log(path, text_cap=cap, estimator=counter), counter
    finally:
        counter.close()


def long_texts(session: Session, cap: int) -> int:
    """Blocks whose text was cut (each counted over its full text as it was read)."""
    return sum(
        1 for scope in session.scopes.values() for m in scope.messages for b in m.blocks if b.elided_chars
    )


@pytest.mark.parametrize("chunk", [64, 1000, 1 << 20])
def test_the_childs_counts_are_the_readings_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    monkeypatch.setattr(count_ahead, "CHUNK_BYTES", chunk)
    path = tmp_path / "s.jsonl"
    path.write_bytes(hostile_log())
    session, counter = counted_by_file(path, tmp_path, CAP)
    expected = open_log(path, text_cap=CAP, estimator=get_estimator("claude"))
    assert snapshot(session) == snapshot(expected)
    assert session.problems.bad_lines == expected.problems.bad_lines > 0
    # Every long text's count is the child's but those of the two lines the reader repairs (the
    # raw invalid UTF-8 and the lone surrogate, which the child leaves to it).
    assert counter.taken == long_texts(session, CAP) - 2 >= 5


def test_the_reading_looks_for_answers_once_per_drain_chars(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the child answers, a long text is looked up in the pipe only once per
    :data:`~ctxscope.core.count_ahead.DRAIN_CHARS` characters the reading counts itself (a look
    is a system call); the counts are the estimator's all the same."""
    claude = get_estimator("claude")
    answers, silent = os.pipe()  # a child that has said nothing yet
    counter = CountedAhead(claude, CAP, answers, None)
    looks = 0
    drain = CountedAhead._drain

    def counted_drain(self: CountedAhead) -> None:
        nonlocal looks
        looks += 1
        drain(self)

    monkeypatch.setattr(CountedAhead, "_drain", counted_drain)
    texts = [f"text {i} " * 5_000 for i in range(200)]  # 40,000 characters or so each
    try:
        assert [counter.count(t) for t in texts] == [claude.count(t) for t in texts]
    finally:
        counter.close()
        os.close(silent)
    chars = sum(map(len, texts))
    assert 1 < looks <= 1 + chars // count_ahead.DRAIN_CHARS < len(texts) // 4
    assert counter.taken == 0


@pytest.mark.parametrize("answered", [0, 3, 7])
@pytest.mark.parametrize("room", [1, 4_000, 1 << 24])
def test_deferred_counts_come_out_as_counting_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answered: int, room: int
) -> None:
    """A reading whose child answers only some texts (the first ``answered`` of its answers, then
    nothing) defers the others, takes the answers as they are looked for, and counts what never
    came itself at the end: the session is the one a read counting everything at once makes.
    With little room to hold deferred texts (``room`` characters) it counts the rest at once."""
    monkeypatch.setattr(session_module, "DEFERRED_CHARS", room)
    monkeypatch.setattr(session_module, "RESOLVE_CHARS", 2_000)  # looks while reading, too
    monkeypatch.setattr(session_module, "RESOLVE_MISSES", 2)
    path = tmp_path / "s.jsonl"
    path.write_bytes(hostile_log())
    claude = get_estimator("claude")
    every = tmp_path / "answers.bin"
    with open(every, "wb") as out:
        count_ahead._count_file(str(path), path.stat().st_size, claude, CAP, os.dup(out.fileno()))
    answers, writer = os.pipe()
    os.write(writer, every.read_bytes()[: answered * 24])  # the child is still on the rest
    counter = CountedAhead(claude, CAP, answers, None)
    try:
        session = open_log(path, text_cap=CAP, estimator=counter)
    finally:
        counter.close()
        os.close(writer)
    expected = open_log(path, text_cap=CAP, estimator=claude)
    assert snapshot(session) == snapshot(expected)
    assert counter.taken <= answered
    assert not session._deferred


def report_json(session: Session) -> bytes:
    summary = analyse(session, AnalysisOptions(lens="recorded")).summary(strategy="pipeline")
    return orjson.dumps(summary.to_json(per_request=True), option=orjson.OPT_INDENT_2)


def claude_code_logs() -> list[Path]:
    root = SHARED / "real-logs" / "claude-code"
    return sorted(root.rglob("*.jsonl")) if root.is_dir() else []


@pytest.mark.shared
@pytest.mark.parametrize("path", claude_code_logs() or [None], ids=lambda p: p.name if p else "absent")
def test_real_logs_read_the_same_with_the_child(path: Path | None, tmp_path: Path) -> None:
    if path is None:
        pytest.skip("needs ../shared/real-logs (absent here)")
    claude = get_estimator("claude")
    session, _ = counted_by_file(path, tmp_path, LARGE_LOG_TEXT_CAP)
    expected = open_log(path, text_cap=LARGE_LOG_TEXT_CAP, estimator=claude)
    assert snapshot(session) == snapshot(expected)


@pytest.mark.parametrize("source", ["hostile", *(p.name for p in claude_code_logs()[:3])])
def test_the_report_is_byte_identical_with_the_child_forked(tmp_path: Path, source: str) -> None:
    if source == "hostile":
        path = tmp_path / "s.jsonl"
        path.write_bytes(hostile_log())
    else:
        path = next(p for p in claude_code_logs() if p.name == source)

    def read(ahead: bool) -> bytes:
        session = open_log_counted(
            path,
            estimator_for=lambda s: get_estimator(session_model_estimator(s)),
            count_ahead=ahead,
            siblings=False,
        )
        return report_json(session)

    assert read(True) == read(False)


def test_no_child_where_it_cannot_help(monkeypatch: pytest.MonkeyPatch) -> None:
    big = count_ahead.MIN_BYTES
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(count_ahead, "usable_cores", lambda: 2)
    assert count_ahead.worth_it(big) and not count_ahead.worth_it(big - 1)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 0.0, 0.0))
    assert not count_ahead.worth_it(big)  # no core free
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(count_ahead, "usable_cores", lambda: 1)
    assert not count_ahead.worth_it(big)
    monkeypatch.setattr(count_ahead, "usable_cores", lambda: 2)
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not count_ahead.worth_it(big)


# -- closing: idempotent, after the child exited, from a forked process ----------------------------
# A real child each (count_ahead.start); what the tests wait for are process events (exit, end of
# a pipe), never a time.


def many_texts(path: Path, texts: int = 20_000) -> Path:
    """A log whose answers (24 bytes a text) are many times a pipe's buffer: a child nobody reads
    from blocks on its answer and runs until the pipe is read, closed or it is stopped."""
    lines = (orjson.dumps(user(f"text number {k} of the log")) + b"\n" for k in range(texts))
    path.write_bytes(b"".join(lines))
    return path


def started(path: Path) -> CountedAhead:
    counter = count_ahead.start(str(path), get_estimator("claude"), 8, path.stat().st_size)
    assert counter is not None and counter.pid is not None
    return counter


def running(pid: int) -> bool:
    """Whether our child ``pid`` has not exited (it is not reaped by asking)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


def reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_close_stops_a_running_child_and_a_second_close_does_nothing(tmp_path: Path) -> None:
    counter = started(many_texts(tmp_path / "s.jsonl"))
    pid = counter.pid
    assert pid is not None and running(pid)  # blocked on its answer: nobody reads
    counter.close()
    assert reaped(pid) and counter.pid is None and counter.answers is None
    counter.close()  # again: nothing left to do, nothing raised
    assert counter.count("a long text to count here") > 0  # still an estimator: counts itself


def test_close_after_the_child_exited(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(orjson.dumps(user("one long text " * 20)) + b"\n")
    counter = started(path)
    pid = counter.pid
    assert pid is not None
    exited = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # its exit, left for close to reap
    assert exited is not None and (exited.si_code, exited.si_status) == (os.CLD_EXITED, 0)
    counter.close()
    assert reaped(pid)


def test_close_after_the_child_was_waited_for_elsewhere_signals_nobody(tmp_path: Path) -> None:
    """Once the child is reaped its pid may be another process's: close must not signal it. The
    other process here is a real one that is not our child (a grandchild, orphaned), standing for
    a process that was given the child's pid again."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(orjson.dumps(user("one long text " * 20)) + b"\n")
    counter = started(path)
    assert counter.pid is not None
    os.waitpid(counter.pid, 0)  # reaped elsewhere
    hold_r, hold_w = os.pipe()  # the stranger runs until this pipe's write end is closed
    said_r, said_w = os.pipe()  # then says it is alive
    pid_r, pid_w = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            stranger = os.fork()
            if stranger == 0:
                try:
                    os.close(hold_w)
                    os.read(hold_r, 1)  # end of the pipe: the test is done with us
                    os.write(said_w, b"alive")
                finally:
                    os._exit(0)
            os.write(pid_w, str(stranger).encode())
        finally:
            os._exit(0)
    os.waitpid(middle, 0)
    for fd in (hold_r, said_w, pid_w):
        os.close(fd)
    stranger = int(os.read(pid_r, 32))
    os.close(pid_r)
    counter.pid = stranger  # the reaped child's pid, now naming a process that is not ours
    counter.close()
    assert counter.pid is None
    os.close(hold_w)
    assert os.read(said_r, 5) == b"alive"  # not signalled (a killed stranger would say nothing)
    os.close(said_r)


def test_close_in_a_forked_process_leaves_the_child_to_its_parent(tmp_path: Path) -> None:
    counter = started(many_texts(tmp_path / "s.jsonl"))
    pid = counter.pid
    assert pid is not None
    told_r, told_w = os.pipe()
    forked = os.fork()
    if forked == 0:  # a process forked after the start: its close lets its copy of the pipe go
        said = b"ok"
        try:
            counter.close()
            counter.close()
        except BaseException as exc:  # reported to the test, which fails on it
            said = repr(exc).encode()
        finally:
            os.write(told_w, said)
            os._exit(0)
    os.close(told_w)
    said = os.read(told_r, 4096)
    os.close(told_r)
    os.waitpid(forked, 0)
    assert said == b"ok"
    assert running(pid)  # not stopped by the forked process: still blocked on its answer
    assert counter.pid == pid and counter.answers is not None
    counter.close()
    assert reaped(pid)
