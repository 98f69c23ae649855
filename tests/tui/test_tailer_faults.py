"""File-system faults while watching, against a real file and the real tailer: live reading recovers
by itself once the log is readable again, and the status says what state it is in meanwhile.

Waits are on posted messages with an upper bound (:class:`Inbox`), never on sleeps.
"""

from __future__ import annotations

import asyncio
import os
import shutil
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


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
async def test_chmod_000_then_644(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    fakes.write_session(log, turns=3)
    inbox, tailer, task = await start(log)
    try:
        log.chmod(0)
        append_turns(log, 3, 1)
        await inbox.wait_for(faulty(inbox, "permission"))
        log.chmod(0o644)
        await inbox.wait_for(recovered(inbox, 4))
    finally:
        await stop(tailer, task, inbox)


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
