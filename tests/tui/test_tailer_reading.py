"""Reading a file from its start: the reads between two progress snapshots run in one thread
hand-off (:meth:`Tailer._read_until`), which stops where the tailer must look (caught up, a
half-written line, a restart, a detail asked for, the byte mark of the next progress snapshot)."""

from __future__ import annotations

import asyncio

from ctxscope.core.snapshot import Lens, RequestDetail, SessionSnapshot
from ctxscope.tui.messages import Mode, SnapshotUpdated
from ctxscope.tui.tailer import PROGRESS_BYTES, Step, Tailer
from textual.message import Message


class ScriptedSource:
    """A source whose reads return the given steps in turn (then the last one again)."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.reads = 0

    def read(self, max_bytes: int | None) -> Step:
        step = self.steps[min(self.reads, len(self.steps) - 1)]
        self.reads += 1
        return step

    def finish(self) -> None:
        pass

    def snapshot(self) -> SessionSnapshot:
        return SessionSnapshot(source=self.path, format="", session_id="", scopes={})

    def compare(self) -> tuple[tuple[SessionSnapshot, ...], tuple[object, ...]]:
        return (), ()

    def set_lens(self, lens: Lens) -> None:
        pass

    def detail(self, scope_id: str, index: int) -> RequestDetail | None:
        return None

    def watch_paths(self) -> list[str]:
        return []

    @property
    def path(self) -> str:
        return "scripted.jsonl"

    @property
    def recursive(self) -> bool:
        return False

    def is_relevant(self, path: str) -> bool:
        return False


def _steps(*read: int, size: int = 100, restarted_at: int = -1) -> list[Step]:
    return [Step(n, size, i == restarted_at, "scripted.jsonl") for i, n in enumerate(read)]


def _tailer(source: ScriptedSource) -> Tailer:
    tailer = Tailer(lambda message: None, lambda: source, Mode.OFFLINE)
    tailer.source = source  # type: ignore[assignment]
    return tailer


FAR = 1 << 40


def test_reads_until_caught_up_in_one_hand_off() -> None:
    source = ScriptedSource(_steps(10, 40, 70, 100))
    step = _tailer(source)._read_until(10, FAR)
    assert (step.bytes_read, source.reads) == (100, 4) and step.caught_up


def test_a_passed_mark_reads_once() -> None:
    source = ScriptedSource(_steps(10, 40, 70, 100))
    step = _tailer(source)._read_until(10, 0)
    assert (step.bytes_read, source.reads) == (10, 1)


def test_reads_stop_at_the_progress_mark() -> None:
    source = ScriptedSource(_steps(10, 40, 70, 100))
    step = _tailer(source)._read_until(10, 50)
    assert (step.bytes_read, source.reads) == (70, 3)


def test_stops_at_a_half_written_line_and_at_a_restart() -> None:
    stuck = ScriptedSource(_steps(10, 40, 40, 40))
    assert _tailer(stuck)._read_until(10, FAR).bytes_read == 40 and stuck.reads == 3
    restarted = ScriptedSource(_steps(10, 40, 5, 50, restarted_at=2))
    step = _tailer(restarted)._read_until(10, FAR)
    assert step.restarted and step.bytes_read == 5 and restarted.reads == 3


def test_a_wanted_detail_ends_the_hand_off() -> None:
    source = ScriptedSource(_steps(10, 40, 70, 100))
    tailer = _tailer(source)
    tailer.request_detail("main", 3)
    assert tailer._read_until(10, FAR).bytes_read == 10 and source.reads == 1


def test_progress_snapshots_are_paced_by_bytes_read() -> None:
    """Reading a file from its start posts the first screen, then one snapshot per
    ``PROGRESS_BYTES`` read (whatever the clock says), then the finished one."""
    chunk = PROGRESS_BYTES // 4
    size = 10 * PROGRESS_BYTES + chunk
    source = ScriptedSource(_steps(*range(chunk, size + 1, chunk), size=size))
    posted: list[Message] = []

    def post(message: Message) -> None:
        posted.append(message)
        if isinstance(message, SnapshotUpdated) and message.status.done:
            tailer.stop()  # an offline tailer waits for detail requests once it is done

    tailer = Tailer(post, lambda: source, Mode.OFFLINE)
    asyncio.run(asyncio.wait_for(tailer.run(), 30))
    read_at = [m.status.bytes_read for m in posted if isinstance(m, SnapshotUpdated)]
    assert read_at[0] == chunk and read_at[-1] == size  # the first screen, then the end
    progress = read_at[1:-1]
    assert len(progress) == 10
    assert all(b - a >= PROGRESS_BYTES for a, b in zip([chunk, *progress], progress, strict=False))
