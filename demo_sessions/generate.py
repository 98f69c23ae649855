"""Write a bundled scenario's session log: ``python -m ctxscope.demo_sessions.generate NAME [-o PATH]``.

:func:`generate` runs the scenario's scripted agents (each calling the real pipeline before every
model call) and writes a ctxscope-format log. The same name and seed always give the same bytes on
the same Python installation (the tool outputs are that installation's standard-library text).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ctxscope.core.logformat import SessionLogWriter
from ctxscope.core.session import Session

from .agent import Transcript
from .scenarios import SCENARIOS, ScenarioContext


@dataclass(frozen=True, slots=True)
class Generated:
    """A written scenario.

    Attributes:
        name: The scenario.
        path: The log written.
        session: The session as the scripted agents stored it (what a reader of the log rebuilds).
    """

    name: str
    path: Path
    session: Session


def generate(name: str, path: str | os.PathLike[str], *, seed: int = 0) -> Generated:
    """Run scenario ``name`` and write its log to ``path``.

    Raises:
        KeyError: No scenario has that name.
    """
    found = SCENARIOS.get(name)
    if found is None:
        raise KeyError(f"unknown scenario {name!r}; known: {', '.join(SCENARIOS)}")
    target = Path(path)
    with SessionLogWriter.create(target) as log:
        transcript = Transcript(log, Session(str(target), "ctxscope"), session_id=f"demo-{name}")
        found.build(ScenarioContext(transcript, random.Random(f"{name}:{seed}")))
    return Generated(name, target, transcript.session)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ctxscope.demo_sessions.generate", description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME", help="scenarios to write (default: all)")
    parser.add_argument("-o", "--out", default=".", help="output file (one scenario) or folder")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    args = parser.parse_args(argv)
    if args.list:
        for scenario in SCENARIOS.values():
            print(f"{scenario.name:20} {scenario.title}")
        return 0
    names = args.names or list(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        print(f"unknown scenario(s): {', '.join(unknown)}; known: {', '.join(SCENARIOS)}", file=sys.stderr)
        return 2
    out = Path(args.out)
    for name in names:
        target = out if len(names) == 1 and out.suffix == ".jsonl" else out / f"{name}.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        generate(name, target, seed=args.seed)
        print(f"{name}: {target} ({target.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
