"""File-system faults while watching, against a real file and the real tailer: live reading recovers
by itself once the log is readable again, and the status says what state it is in meanwhile.

Waits are on posted messages with an upper bound (:class:`Inbox`), never on sleeps.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import select
import shutil
import signal
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
from ctxscope.tui.messages import Mode, SnapshotUpdated, TailerFailed
from ctxscope.tui.tailer import CoreSource, Tailer
from ctxscope.tui.widgets.header import header_text

from . import fakes
from .test_tailer import TIMEOUT, Inbox, append_turns, requests_in


def last(inbox: Inbox) -> SnapshotUpdated:
    return inbox.snapshots[-1]


def faulty(inbox: Inbox, words: str) -> Callable[[], bool]:
    return lambda: bool(inbox.snapshots) and words in last(inbox).status.fault


def recovered(inbox: Inbox, requests: int) -> Callable[[], bool]:
    return lambda: (
        bool(inbox.snapshots) and not last(inbox).status.fault and requests_in(last(inbox)) == requests
    )


def header_of(message: SnapshotUpdated) -> str:
    scope = next(iter(message.snapshot.scopes.values()), None)
    return header_text(message.snapshot, scope, message.status, paused=False, follow=True, width=200).plain


async def start(
    log: Path, target: Path | None = None, poll: bool = False
) -> tuple[Inbox, Tailer, asyncio.Task[None]]:
    inbox = Inbox()
    tailer = Tailer(inbox.post, lambda: CoreSource(str(target or log)), Mode.LIVE, force_polling=poll)
    task = asyncio.create_task(tailer.run())
    await inbox.wait_for(lambda: bool(inbox.snapshots) and requests_in(last(inbox)) == 3)
    await asyncio.wait_for(tailer.watching.wait(), TIMEOUT)
    return inbox, tailer, task


async def stop(tailer: Tailer, task: asyncio.Task[None], inbox: Inbox) -> None:
    tailer.stop()
    await asyncio.wait_for(task, 5)
    assert not any(isinstance(m, TailerFailed) for m in inbox.messages)


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "polling"])
async def test_deleted_then_recreated(tmp_path: Path, poll: bool) -> None:
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log, poll=poll)
    try:
        assert "up to date" in header_of(last(inbox))
        log.unlink()
        await inbox.wait_for(faulty(inbox, "missing"))
        shown = header_of(last(inbox))
        assert "missing" in shown and "up to date" not in shown and "LIVE" not in shown
        fakes.write_session(log, turns=5)
        await inbox.wait_for(recovered(inbox, 5))
        assert "up to date" in header_of(last(inbox))
    finally:
        await stop(tailer, task, inbox)


async def test_rotation_with_a_gap_and_replaced_by_a_folder(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log)
    try:
        log.rename(tmp_path / "run.jsonl.1")
        await inbox.wait_for(faulty(inbox, "missing"))
        log.mkdir()
        await inbox.wait_for(faulty(inbox, "folder"))
        log.rmdir()
        fakes.write_session(log, turns=4)
        await inbox.wait_for(recovered(inbox, 4))
        append_turns(log, 4, 2)
        await inbox.wait_for(recovered(inbox, 6))
    finally:
        await stop(tailer, task, inbox)


async def test_replaced_by_a_fifo_is_refused_then_recovers(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log)
    try:
        log.unlink()
        os.mkfifo(log)
        await inbox.wait_for(faulty(inbox, "FIFO"))
        log.unlink()
        fakes.write_session(log, turns=2)
        await inbox.wait_for(recovered(inbox, 2))
    finally:
        await stop(tailer, task, inbox)


def log_and_turn(folder: Path) -> tuple[Path, bytes]:
    """A log of three turns, and the bytes of a fourth to append."""
    log = folder / "run.jsonl"
    fakes.write_session(log, turns=3)
    grown = folder / "grown.jsonl"
    shutil.copy(log, grown)
    append_turns(grown, 3, 1)
    turn = grown.read_bytes()[log.stat().st_size :]
    grown.unlink()
    return log, turn


async def unreadable_then_readable(log: Path, turn: bytes) -> None:
    """chmod 000 while a turn is appended (through a descriptor opened before), then 644: the
    header says the log cannot be read (no "up to date", no LIVE) until live reading recovers
    by itself and reads the turn."""
    assert os.geteuid() != 0, "root reads files whatever their mode"
    inbox, tailer, task = await start(log)
    try:
        with open(log, "ab") as handle:
            log.chmod(0)
            handle.write(turn)
        await inbox.wait_for(faulty(inbox, "permission"))
        shown = header_of(last(inbox))
        assert "permission denied" in shown and "up to date" not in shown and "LIVE" not in shown
        log.chmod(0o644)
        await inbox.wait_for(recovered(inbox, 4))
        assert "up to date" in header_of(last(inbox))
    finally:
        await stop(tailer, task, inbox)


def unprivileged_user() -> tuple[int, int] | None:
    """(uid, gid) of ``nobody``, the unprivileged user the scenario drops to under root."""
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return (entry.pw_uid, entry.pw_gid) if entry.pw_uid != 0 else None


def run_unprivileged(uid: int, gid: int) -> None:
    """Run :func:`unreadable_then_readable` in a forked child that drops to ``uid``/``gid`` (root
    reads files whatever their mode), on a log that user owns. The interpreter may live where
    that user cannot read (under /root), so the log is written and every module the scenario
    needs is imported here first (a warm-up run as root); the child reports through a pipe,
    waited on with a bound."""
    folder = Path(tempfile.mkdtemp(prefix="ctxscope-unprivileged-"))
    try:
        warm = folder / "warm"
        warm.mkdir()
        asyncio.run(_warm_up(warm))
        shutil.rmtree(warm)
        log, turn = log_and_turn(folder)
        for path in (folder, log):
            os.chown(path, uid, gid)
        read_end, write_end = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe
            os.close(read_end)
            outcome = b"ok"
            try:
                os.setgroups([])
                os.setresgid(gid, gid, gid)
                os.setresuid(uid, uid, uid)
                asyncio.run(unreadable_then_readable(log, turn))
            except BaseException:
                outcome = traceback.format_exc().encode()
            os.write(write_end, outcome[-8000:])
            os._exit(0)
        os.close(write_end)
        try:
            ready, _, _ = select.select([read_end], [], [], 2 * TIMEOUT)
            if not ready:
                os.kill(child, signal.SIGKILL)
            report = os.read(read_end, 16_000) if ready else b"timed out"
        finally:
            os.close(read_end)
            os.waitpid(child, 0)
        assert report == b"ok", report.decode(errors="replace")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _warm_up(folder: Path) -> None:
    """Follow a log through a fault and back (imports what the tailer's paths import)."""
    log = folder / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log)
    try:
        log.unlink()
        await inbox.wait_for(faulty(inbox, "missing"))
        fakes.write_session(log, turns=3)
        append_turns(log, 3, 1)
        await inbox.wait_for(recovered(inbox, 4))
        header_of(last(inbox))
    finally:
        await stop(tailer, task, inbox)


def test_chmod_000_then_644(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        asyncio.run(unreadable_then_readable(*log_and_turn(tmp_path)))
        return
    user = unprivileged_user()
    if user is None:
        pytest.skip("root reads files whatever their mode, and there is no unprivileged user to drop to")
    run_unprivileged(*user)


async def test_rewritten_in_place_larger(tmp_path: Path) -> None:
    """``> log`` then more content than before: the old events go, every new one is read."""
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log)
    try:
        size = log.stat().st_size
        fresh = tmp_path / "fresh.jsonl"
        fakes.write_session(fresh, turns=7, budget=23_000)  # another header
        assert fresh.stat().st_size > size
        with open(log, "r+b") as handle:  # same inode, rewritten from byte 0
            handle.write(fresh.read_bytes())
        await inbox.wait_for(lambda: last(inbox).generation >= 1 and requests_in(last(inbox)) == 7)
    finally:
        await stop(tailer, task, inbox)


async def test_folder_mode_log_gone_and_back(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    log = folder / "a.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log, target=folder)
    try:
        log.unlink()
        await inbox.wait_for(faulty(inbox, "missing"))
        fakes.write_session(log, turns=2)
        await inbox.wait_for(recovered(inbox, 2))
        folder.chmod(0)
        if os.geteuid() != 0:
            await inbox.wait_for(faulty(inbox, "cannot list"))
        folder.chmod(0o755)
        shutil.copy(log, folder / "b.jsonl")
        await inbox.wait_for(recovered(inbox, 2))
    finally:
        await stop(tailer, task, inbox)


async def test_a_line_of_many_megabytes_written_at_once_is_read(tmp_path: Path) -> None:
    """With inotify, one long line written in one go is read without waiting for another write."""
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log)
    try:
        line = (
            b'{"t": "message", "scope": "main", "role": "user", "content": "'
            + b"x" * (9 << 20)
            + b'"}\n{"t": "request", "scope": "main"}\n'
        )
        with open(log, "ab") as handle:
            handle.write(line)
        await inbox.wait_for(recovered(inbox, 4))
    finally:
        await stop(tailer, task, inbox)
