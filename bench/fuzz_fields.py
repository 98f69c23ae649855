"""A larger run of the hostile-field fuzz than the test suite's (run by hand, not by ``make test``).

Every case takes a seed session — the suite's small sessions in every line format, plus the first
lines of each real log under ../shared/real-logs when it is there — puts a hostile value (any JSON
value, integers of any size, markup, escapes) into one to three of its fields, and reads it offline
and live, replays it, builds the report (JSON and tables) and the timeline series, checking that
every figure fits 64 bits. Prints how many cases ran over how many distinct fields and any crash.

    .venv/bin/python bench/fuzz_fields.py [CASES] [SEED]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.tui.hostile_seeds import BIG_INTS, HOSTILE_STRINGS, SEEDS, dump_lines, field_paths, replaced  # noqa: E402
from tests.tui.test_hostile_fields import read_everything  # noqa: E402

REAL_LOGS = REPO.parent / "shared" / "real-logs"
REAL_LINES = 12
"""Lines taken from the start of each real log (their fields join the seeds')."""


def real_seeds() -> dict[str, list[Any]]:
    seeds: dict[str, list[Any]] = {}
    for path in sorted(REAL_LOGS.rglob("*.jsonl")) if REAL_LOGS.is_dir() else []:
        lines = []
        with path.open("rb") as handle:
            for raw in handle:
                if len(lines) == REAL_LINES:
                    break
                if len(raw) < 200_000:
                    try:
                        lines.append(orjson.loads(raw))
                    except orjson.JSONDecodeError:
                        continue
        if lines:
            seeds[f"real:{path.relative_to(REAL_LOGS)}"] = lines
    return seeds


def hostile(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        return [hostile(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 2 and roll < 0.3:
        return {
            rng.choice(["type", "text", "", "[/]", "usage", "id"]): hostile(rng, depth + 1)
            for _ in range(rng.randint(0, 3))
        }
    return rng.choice(
        [
            None,
            True,
            False,
            0,
            -1,
            rng.randint(-(2**70), 2**70),
            rng.choice(BIG_INTS),
            rng.random() * 1e300,
            rng.choice(HOSTILE_STRINGS),
            "".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(rng.randint(0, 8))),
        ]
    )


def main(argv: list[str]) -> int:
    cases = int(argv[1]) if len(argv) > 1 else 10_000
    rng = random.Random(int(argv[2]) if len(argv) > 2 else 18)
    seeds = {**SEEDS, **real_seeds()}
    fields = [
        (name, i, p)
        for name, lines in seeds.items()
        for i, line in enumerate(lines)
        for p in field_paths(line)
    ]
    touched: set[tuple[str, int, tuple[Any, ...]]] = set()
    crashes: Counter[str] = Counter()
    first: dict[str, str] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ctxscope-fuzz-") as folder:
        log = Path(folder) / "case.jsonl"
        for _ in range(cases):
            name = rng.choice(list(seeds))
            lines = list(seeds[name])
            own = [f for f in fields if f[0] == name]
            for _, index, path in rng.sample(own, min(len(own), rng.randint(1, 3))):
                if path in set(field_paths(lines[index])):
                    lines[index] = replaced(lines[index], path, hostile(rng))
                    touched.add((name, index, path))
            log.write_bytes(dump_lines(lines))
            try:
                read_everything(log)
            except Exception as exc:
                where = traceback.extract_tb(exc.__traceback__)[-1]
                key = f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}"
                crashes[key] += 1
                first.setdefault(key, f"{name}: {exc!s:.200}")
    elapsed = time.monotonic() - start
    formats = sorted({name.split(":")[0] if not name.startswith("real:") else "real" for name in seeds})
    print(
        f"{cases:,} cases in {elapsed:.0f} s over {len(touched):,} distinct fields "
        f"(of {len(fields):,}) in {len(seeds)} seed sessions: {', '.join(sorted(SEEDS))} "
        f"+ {len(seeds) - len(SEEDS)} real logs ({formats})"
    )
    print(f"crashes: {sum(crashes.values())}")
    for key, count in crashes.most_common():
        print(f"  {count:5} {key}  e.g. {first[key]}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
