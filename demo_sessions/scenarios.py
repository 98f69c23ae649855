"""The bundled scenarios: a registry of scenario functions, each a script for scripted agents.

Adding a scenario is one decorated function::

    @scenario("my-scenario", "One-line title", "What it shows and which figure to look at.")
    def my_scenario(ctx: ScenarioContext) -> None:
        agent = ctx.agent("main", PipelineConfig(hard_limit=200_000, budget=100_000))
        agent.user("…")
        agent.call_model()
        agent.tool_round("I will read x.py.", "Read", {"path": "x.py"}, source_text)

Every model call goes through the real pipeline (:class:`~ctxscope.core.pipeline.ContextManager`),
and every tool output is real text (:mod:`.text_sources`). ``ctx.rng`` is the only source of
randomness, seeded, so a scenario writes the same log every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ctxscope.core.pipeline import SAFETY_NET_INSTRUCTION, PipelineConfig

from .agent import ScriptedAgent, Transcript
from .text_sources import SourceFile, long_sources

SEED_LIMIT: Final = 1_000_000
"""The seed's hard limit (about a million tokens)."""

SEED_BUDGET: Final = 400_000
"""The seed's working budget."""


@dataclass
class ScenarioContext:
    """What a scenario function gets: the transcript being written and a seeded RNG."""

    transcript: Transcript
    rng: random.Random

    def agent(self, scope: str, config: PipelineConfig, **options: object) -> ScriptedAgent:
        """A scripted agent for a new scope (options as for :class:`ScriptedAgent`)."""
        return ScriptedAgent(self.transcript, scope, config, **options)  # type: ignore[arg-type]


ScenarioFunction = Callable[[ScenarioContext], None]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A registered scenario.

    Attributes:
        name: Its name (``ctxscope demo NAME``).
        title: One line.
        summary: What it shows and which figure to look at.
        build: The script.
    """

    name: str
    title: str
    summary: str
    build: ScenarioFunction


SCENARIOS: dict[str, Scenario] = {}
"""Every registered scenario by name, in registration order."""


def scenario(name: str, title: str, summary: str) -> Callable[[ScenarioFunction], ScenarioFunction]:
    """Register a scenario function under ``name``."""

    def register(build: ScenarioFunction) -> ScenarioFunction:
        if name in SCENARIOS:
            raise ValueError(f"scenario {name!r} is already registered")
        SCENARIOS[name] = Scenario(name, title, summary, build)
        return build

    return register


def _thought(rng: random.Random, path: str, step: int, total: int | None = None) -> str:
    lead = rng.choice(("Next I will read", "Reading", "Now I need", "Continuing with", "Opening"))
    where = f" ({step} of {total})" if total else ""
    return f"{lead} {path}{where} to check it against the notes."


# -- eight sub-agents ------------------------------------------------------------------------------

EIGHT_STORED_TARGET: Final = 1_050_000
"""Each sub-agent keeps reading until its stored history is past this many tokens."""


@scenario(
    "eight-subagents",
    "Eight sub-agents, each one brief and a growing run of long file reads",
    "The seed's failure and its fix. Eight sub-agents each read long standard-library files until "
    "their stored history is past 1,000,000 tokens (hard limit 1,000,000, budget 400,000). Replayed "
    "with `--strategy legacy` (trim only at user messages; a sub-agent has just one) 8 of 8 go over "
    "the limit; with the pipeline 0 of 8 do and every request is sent.",
)
def eight_subagents(ctx: ScenarioContext) -> None:
    config = PipelineConfig(hard_limit=SEED_LIMIT, budget=SEED_BUDGET)
    main = ctx.agent("main", config, label="main agent")
    main.system("You are a code-review agent. " + SAFETY_NET_INSTRUCTION)
    main.user(
        "Review the Python standard library in eight slices: start one sub-agent per slice, have each "
        "read its files in full and report anything inconsistent, then merge the eight reports."
    )
    main.call_model()
    files = long_sources(20_000, 200_000)
    slices = [files[k * len(files) // 8:] + files[: k * len(files) // 8] for k in range(8)]
    tasks: list[tuple[str, dict[str, object]]] = [
        ("Task", {"description": f"review slice {k + 1}", "first": s[0].path}) for k, s in enumerate(slices)
    ]
    call_ids = main.assistant("I will start eight sub-agents, one per slice.", tasks)
    subs = []
    for k in range(8):
        sub = ctx.agent(f"sub-{k + 1}", config, parent="main", label=f"review slice {k + 1}")
        sub.user(
            f"Read every file of slice {k + 1}, starting with {slices[k][0].path}, in full, and list "
            f"anything inconsistent between docstrings and code. {SAFETY_NET_INSTRUCTION}"
        )
        sub.call_model()
        subs.append(sub)
    position = [0] * 8
    done = [False] * 8
    while not all(done):
        for k, sub in enumerate(subs):
            if done[k]:
                continue
            source: SourceFile = slices[k][position[k] % len(slices[k])]
            position[k] += 1
            prepared = sub.tool_round(
                _thought(ctx.rng, source.path, position[k]), "Read", {"path": source.path}, source.read()
            )
            if prepared.record.stored_tokens >= EIGHT_STORED_TARGET:
                done[k] = True
                sub.say(f"Slice {k + 1} done: read {position[k]} files in full; notes are in the transcript.")
    main.results([(call_ids[k], "Task", f"Slice {k + 1}: read {position[k]} files.") for k in range(8)])
    main.call_model()
    main.say("All eight slices were reviewed; the reports are merged above.")


# -- forty chapters --------------------------------------------------------------------------------

CHAPTERS: Final = 40


@scenario(
    "forty-chapters",
    "One sub-agent reads forty long chapters at a 400,000-token budget",
    "The seed's second failure: a sub-agent asked to read 40 long chapters stopped after 2 'to save "
    "room'. Told about its safety net, it reads all 40; stage 2 clears the oldest results in batches "
    "of 4 and every request stays within the 400,000 budget.",
)
def forty_chapters(ctx: ScenarioContext) -> None:
    config = PipelineConfig(hard_limit=SEED_LIMIT, budget=SEED_BUDGET)
    chapters = long_sources(50_000, 140_000)[:CHAPTERS]
    if len(chapters) < CHAPTERS:
        chapters = sorted(long_sources(30_000, 300_000), key=lambda f: -f.size)[:CHAPTERS]
    main = ctx.agent("main", config, label="main agent")
    main.user("Have a sub-agent read the forty chapters and note one finding per chapter.")
    main.call_model()
    (call_id,) = main.assistant(
        "I will hand the forty chapters to a sub-agent.", [("Task", {"chapters": CHAPTERS})]
    )
    sub = ctx.agent("chapters", config, parent="main", label="read forty chapters")
    listing = ", ".join(chapter.path for chapter in chapters)
    sub.user(f"Read these {CHAPTERS} chapters in order and note one finding per chapter: {listing}. "
             f"{SAFETY_NET_INSTRUCTION}")
    sub.call_model()
    for k, chapter in enumerate(chapters):
        thought = _thought(ctx.rng, chapter.path, k + 1, CHAPTERS)
        sub.tool_round(thought, "Read", {"path": chapter.path}, chapter.read())
    sub.say(f"All {CHAPTERS} chapters read; one finding noted per chapter.")
    main.results([(call_id, "Task", f"Read all {CHAPTERS} chapters.")])
    main.call_model()
    main.say("The sub-agent read all forty chapters.")


# -- cache batching --------------------------------------------------------------------------------

CACHE_LIMIT: Final = 200_000
CACHE_BUDGET: Final = 100_000
CACHE_READS: Final = 48


@scenario(
    "cache-batching",
    "Clearing in batches of 4 versus 1: the provider's prefix cache",
    "A sub-agent reads 48 medium files at a 100,000-token budget. Clearing the oldest tool results "
    "four at a time keeps the request's prefix identical across several calls, so the provider's "
    "prefix cache keeps working; clearing one at a time changes the prefix at almost every call. "
    "Compare `ctxscope report --clear-batch 1` with `--clear-batch 4` (cached-prefix ratio).",
)
def cache_batching(ctx: ScenarioContext) -> None:
    config = PipelineConfig(hard_limit=CACHE_LIMIT, budget=CACHE_BUDGET)
    files = long_sources(30_000, 70_000)
    picked = files[:: max(1, len(files) // CACHE_READS)][:CACHE_READS]
    agent = ctx.agent("main", config, label="file reader")
    agent.system("You are a careful code reader. " + SAFETY_NET_INSTRUCTION)
    agent.user(f"Read these {len(picked)} modules one by one; keep a running list of their public classes.")
    agent.call_model()
    for k, source in enumerate(picked):
        thought = _thought(ctx.rng, source.path, k + 1, len(picked))
        agent.tool_round(thought, "Read", {"path": source.path}, source.read())
    agent.say("Done: every module read.")
