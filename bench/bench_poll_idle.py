"""Idle CPU of the real tailer following a folder of 5,000 logs with ``--poll`` (run by hand).

Builds the folder in a temporary directory, lets the tailer settle for 3 s, then reports the
process CPU time over 10 s as a share of one core.

    .venv/bin/python bench/bench_poll_idle.py
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ctxscope.tui.messages import Mode
from ctxscope.tui.tailer import CoreSource, Tailer

from tests.tui import fakes

FILES = 5_000


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(folder: str) -> float:
    posted: list[object] = []
    tailer = Tailer(posted.append, lambda: CoreSource(folder), Mode.LIVE, force_polling=True)
    task = asyncio.create_task(tailer.run())
    while not posted:
        await asyncio.sleep(0.1)
    await asyncio.sleep(3)
    cpu, wall = cpu_seconds(), time.monotonic()
    await asyncio.sleep(10)
    share = (cpu_seconds() - cpu) / (time.monotonic() - wall)
    tailer.stop()
    await task
    return share


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="ctxscope-poll-") as folder:
        newest = os.path.join(folder, "newest.jsonl")
        fakes.write_session(newest, turns=2)
        data = Path(newest).read_bytes()
        for i in range(FILES):
            Path(folder, f"s{i:05}.jsonl").write_bytes(data)
        os.utime(newest)
        share = asyncio.run(measure(folder))
    print(f"idle --poll tailer on a folder of {FILES + 1:,} logs: {share:.1%} of one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
