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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ctxscope.core.model import Message
from ctxscope.core.pipeline import SAFETY_NET_INSTRUCTION, PipelineConfig

from . import text_sources
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
class Compare:
    """One configuration of a side-by-side what-if (``ctxscope demo``'s ``w`` view).

    Attributes:
        label: What the column is called.
        config: The configuration; the first of a scenario's is the recorded one (calibration
            comes from it), the others are replayed over it (:class:`ctxscope.core.replay.WhatIf`).
    """

    label: str
    config: PipelineConfig


@dataclass(frozen=True, slots=True)
class Scenario:
    """A registered scenario.

    Attributes:
        name: Its name (``ctxscope demo NAME``).
        title: One line.
        summary: What it shows and which figure to look at.
        build: The script.
        number: Its position in the registry, from 1 (``ctxscope demo 3``).
        pace: Seconds between two model calls when ``ctxscope demo`` plays it at speed 1.
        compare: The configurations of its side-by-side what-if (empty: none).
        intro: One or two sentences: what to watch (the demo's first caption).
    """

    name: str
    title: str
    summary: str
    build: ScenarioFunction
    number: int = 0
    pace: float = 1.0
    compare: tuple[Compare, ...] = ()
    intro: str = ""


SCENARIOS: dict[str, Scenario] = {}
"""Every registered scenario by name, in registration order."""


def scenario(
    name: str,
    title: str,
    summary: str,
    *,
    pace: float = 1.0,
    compare: tuple[Compare, ...] = (),
    intro: str = "",
) -> Callable[[ScenarioFunction], ScenarioFunction]:
    """Register a scenario function under ``name``.

    Args:
        name: The scenario's name.
        title: One line.
        summary: What it shows, in plain words (the demo's opening caption).
        pace: Seconds between model calls at speed 1 in ``ctxscope demo``.
        compare: Configurations shown side by side in the demo's what-if view.
        intro: What to watch, in one or two sentences (the demo's first caption).
    """

    def register(build: ScenarioFunction) -> ScenarioFunction:
        if name in SCENARIOS:
            raise ValueError(f"scenario {name!r} is already registered")
        SCENARIOS[name] = Scenario(
            name, title, summary, build, len(SCENARIOS) + 1, pace, compare, intro or title
        )
        return build

    return register


def find(name_or_number: str) -> Scenario | None:
    """A scenario by name or by its number (``"1"`` is the first registered)."""
    if name_or_number.isdigit():
        number = int(name_or_number)
        return next((s for s in SCENARIOS.values() if s.number == number), None)
    return SCENARIOS.get(name_or_number)


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
    pace=0.2,
    compare=(
        Compare("pipeline", PipelineConfig()),
        Compare("legacy: trim at user turns only", PipelineConfig(strategy="legacy")),
    ),
    intro="Eight sub-agents read long files until each has stored over a million tokens, past the "
    "hard limit. Watch stage 2 keep every request under the 400k budget; w shows legacy trimming "
    "sending 8 of 8 over the limit.",
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
    pace=1.5,
    intro="A sub-agent told about its safety net reads all 40 long chapters. Watch stage 2 clear the "
    "oldest reads in batches of 4 while the stored history grows far past the 400k budget.",
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


# -- russian chapters ------------------------------------------------------------------------------

RUSSIAN_CHAPTERS: Final = 40


@scenario(
    "russian-chapters",
    "Forty Russian chapters: chars/4 says it fits, its real size is far over",
    "The seed's third failure: a sub-agent reading Russian chapters sent about 640,000 tokens while "
    "the chars/4 estimate said it was under the 400,000 budget. Russian runs about two characters "
    "per token, not four. Here a sub-agent reads 40 chapters of a Russian character reference: by "
    "chars/4 its whole history stays under the budget, its real size grows far past it. The "
    "pipeline counts by script, so stage 2 clears in time; the per-script breakdown (pane 3) "
    "shows why chars/4 under-counts.",
    pace=1.5,
    intro="A sub-agent reads 40 Russian chapters. By chars/4 its whole history stays under the 400k "
    "budget; counted by script it is far over. Watch stage 2 clear in time; press 3 for the "
    "per-script breakdown.",
)
def russian_chapters(ctx: ScenarioContext) -> None:
    config = PipelineConfig(hard_limit=SEED_LIMIT, budget=SEED_BUDGET)
    chapters = text_sources.russian_chapters(RUSSIAN_CHAPTERS)
    main = ctx.agent("main", config, label="main agent")
    main.user("Пусть субагент прочитает все сорок глав справочника и отметит по одному наблюдению на главу.")
    main.call_model()
    (call_id,) = main.assistant(
        "Передаю сорок глав субагенту.", [("Task", {"chapters": RUSSIAN_CHAPTERS, "language": "ru"})]
    )
    sub = ctx.agent("chapters-ru", config, parent="main", label="прочитать сорок глав")
    listing = ", ".join(path for path, _ in chapters)
    sub.user(f"Прочитай по порядку все {RUSSIAN_CHAPTERS} глав и отметь по одному наблюдению на главу: "
             f"{listing}. {SAFETY_NET_INSTRUCTION}")
    sub.call_model()
    for k, (path, text) in enumerate(chapters):
        lead = ctx.rng.choice(("Читаю", "Открываю", "Перехожу к", "Дальше —"))
        sub.tool_round(f"{lead} {path} ({k + 1} из {RUSSIAN_CHAPTERS}).", "Read", {"path": path}, text)
    sub.say(f"Все {RUSSIAN_CHAPTERS} глав прочитаны; по каждой отмечено одно наблюдение.")
    main.results([(call_id, "Task", f"Прочитаны все {RUSSIAN_CHAPTERS} глав.")])
    main.call_model()
    main.say("Субагент прочитал все сорок глав.")


# -- browser investigation -------------------------------------------------------------------------

BROWSER_LIMIT: Final = 64_000
BROWSER_BUDGET: Final = 16_000
BROWSER_MODULES: Final = (
    "csv", "json", "codecs", "unicodedata", "string", "textwrap", "html", "html.parser", "urllib.parse",
    "email.message", "http.client", "http.server", "logging", "argparse", "pathlib", "shutil", "zipfile",
    "tarfile", "gzip", "sqlite3", "datetime", "calendar", "decimal", "fractions", "statistics",
    "random", "itertools", "functools", "collections", "heapq", "bisect", "array", "struct", "base64",
    "hashlib", "hmac", "secrets", "difflib", "pprint", "reprlib",
)
"""Module pages the browser agent visits, in order (pydoc renders each as HTML, in a fresh
interpreter: see :func:`.text_sources.pydoc_pages`)."""


def _doc_excerpt(module: str, limit: int = 4_000) -> str:
    """The first paragraphs of a module's documentation (real text: its docstring)."""
    import importlib
    import pydoc

    try:
        doc = pydoc.getdoc(importlib.import_module(module))
    except Exception:  # a module that does not import here: say so rather than invent text
        return f"(the documentation of {module} could not be read here)"
    return doc[:limit].rsplit("\n", 1)[0] if len(doc) > limit else doc


@scenario(
    "browser-investigation",
    "A browser agent: DOM snapshots, screenshots, CSV and JSON, a summary and the guard",
    "A browser agent works through pydoc's documentation pages. Every page comes back as a DOM "
    "snapshot and a screenshot, which stage 1 trims at every call (the newest two snapshots keep "
    "their links, forms and buttons, older ones a one-line trace; older screenshots are dropped). "
    "It also pulls CSV and JSON data. The model behind it counts tokens with another tokenizer, so "
    "the pipeline calibrates its estimate from the usage the provider reports. Its own notes pile up "
    "until clearing old tool results is not enough and stage 3 writes a summary; and when a tool "
    "returns a table larger than the model's whole window, the guard refuses the request instead "
    "of sending it (budget 16,000, limit 64,000).",
    pace=0.8,
    intro="A browser agent reads documentation pages: stage 1 trims every DOM snapshot and screenshot, "
    "calibration follows the provider's count, a summary comes when clearing is not enough, and the "
    "guard refuses a table larger than the window.",
)
def browser_investigation(ctx: ScenarioContext) -> None:
    from ctxscope.core.model import ArtifactKind, Block, BlockKind

    config = PipelineConfig(hard_limit=BROWSER_LIMIT, budget=BROWSER_BUDGET)
    # The provider's tokenizer is not the estimator's: usage is counted with the openai profile.
    agent = ctx.agent("main", config, label="browser agent", model="gpt-4o", usage_estimator="openai")
    agent.system(
        "You are a browser agent. You can navigate to pages (you get the page's DOM and a screenshot), "
        "download CSV files and query JSON endpoints. " + SAFETY_NET_INSTRUCTION
    )
    agent.user(
        "Our documentation server runs on localhost:8000. Go through the module pages one by one and "
        "note, for each, what it is for and which functions read or write text or data files. Pull the "
        "Unicode tables and the codec alias list when you need them."
    )
    agent.call_model()
    csv_start = 0x0400
    follow_ups = (
        "Also note which of these modules accept an encoding argument.",
        "Please keep a running list of modules that deal with dates.",
        "When you reach the hashing modules, note which algorithms they guarantee.",
        "Keep the notes short; I will read them at the end.",
        "Check whether the compression modules share one interface.",
        "Note anything that looks deprecated.",
    )
    pages = text_sources.pydoc_pages(BROWSER_MODULES)
    for k, module in enumerate(BROWSER_MODULES):
        url = f"http://localhost:8000/{module}.html"
        html = pages[module]
        dom = Block(BlockKind.ARTIFACT, html, artifact=ArtifactKind.DOM_SNAPSHOT)
        shot = Block(BlockKind.ARTIFACT, artifact=ArtifactKind.SCREENSHOT, width=1280, height=800,
                     size_bytes=ctx.rng.randrange(150_000, 260_000))
        title = html.split("<title>", 1)[1].split("</title>", 1)[0] if "<title>" in html else module
        agent.tool_round(
            f"Opening the {module} page.", "browser_navigate", {"url": url},
            f"Navigated to {url} (200 OK). Title: {title}", [dom, shot],
        )
        agent.say(f"Notes on {module}:\n{_doc_excerpt(module)}")
        if k % 6 == 5:
            agent.user(follow_ups[(k // 6) % len(follow_ups)])
            agent.call_model()
        if k % 5 == 2:
            rows = 120 + ctx.rng.randrange(0, 80)
            agent.tool_round(
                "I need the Unicode table for the characters that page mentions.", "download_csv",
                {"url": f"http://localhost:8000/data/unicode.csv?from=U+{csv_start:04X}&rows={rows}"},
                text_sources.unicode_csv(csv_start, rows),
            )
            csv_start += 0x80
        if k % 8 == 4:
            agent.tool_round(
                "Checking the codec aliases the page refers to.", "query_json",
                {"url": "http://localhost:8000/data/codec-aliases.json"}, text_sources.codec_aliases_json(),
            )
        if k == 37:
            # A table larger than the model's whole window: the guard refuses the request.
            prepared = agent.tool_round(
                "Downloading the whole Unicode table to cross-check the notes.", "download_csv",
                {"url": "http://localhost:8000/data/unicode.csv?rows=all"},
                text_sources.unicode_csv(0x20, 3_000),
            )
            if prepared.refused:
                agent.say("That table is too large to read in one go; I will fetch only the rows I need.")
                agent.tool_round(
                    "Fetching just the Cyrillic rows.", "download_csv",
                    {"url": "http://localhost:8000/data/unicode.csv?from=U+0400&rows=160"},
                    text_sources.unicode_csv(0x0400, 160),
                )
    agent.say("I went through every page; the notes above list each module's purpose and file functions.")
    agent.user("Thanks. Which of the modules you read handle CSV, and which handle JSON?")
    agent.call_model()
    agent.say("csv reads and writes CSV; json encodes and decodes JSON; the rest handle neither directly.")


# -- long planning ---------------------------------------------------------------------------------

PLANNING_TURNS: Final = 330
PLANNING_LIMIT: Final = 8_000
PLANNING_BUDGET: Final = 4_000


@scenario(
    "long-planning",
    "A planning assistant over hundreds of turns: vegetarian → vegan, Atlas Wednesday → Friday",
    "SPEC §4's worked example as a live session: at turn 18 the user's offsite lunch is vegetarian, "
    "at 142 it becomes vegan, at 260 Project Atlas's launch moves from Wednesday to Friday, and at "
    "310 the user asks to plan the Atlas launch lunch on Friday. The assistant runs on a small "
    "window (limit 8,000, budget 4,000), so over hundreds of turns stage 3 summarises again and "
    "again; open a summary (pane 4, Enter) to see which facts it kept.",
    pace=0.4,
    intro="A planning assistant on a small window over 300+ turns: lunch vegetarian (turn 18) then "
    "vegan (142), Atlas launch Wednesday then Friday (260), and the question at 310. Watch the "
    "summaries; pane 4 and Enter show what each kept.",
)
def long_planning(ctx: ScenarioContext) -> None:
    import calendar

    from ctxscope.core.policies.generator import generate as generate_conversation

    config = PipelineConfig(hard_limit=PLANNING_LIMIT, budget=PLANNING_BUDGET)
    agent = ctx.agent("main", config, label="planning assistant")
    # The memory-policy benchmark's seeded conversation (it carries SPEC §4's example from 400
    # turns on); the session stops after the assistant has answered the turn-310 question.
    conversation = generate_conversation(400, seed=7).messages
    months = calendar.TextCalendar(calendar.MONDAY)
    answered = 0
    prepared = None
    for message in conversation:
        if message.turn > PLANNING_LAST_TURN:
            break
        if message.role == "system":
            agent.system(message.content + " " + SAFETY_NET_INSTRUCTION)
        elif message.role == "user":
            agent.user(message.content)
            answered += 1
            if answered % 9 == 0:
                # Now and then the assistant looks at the calendar before it answers.
                month = 1 + (answered // 9) % 12
                agent.call_model()
                prepared = agent.tool_round(
                    "Let me look at the calendar.", "calendar", {"year": 2026, "month": month},
                    months.formatmonth(2026, month),
                )
            else:
                prepared = agent.call_model()
        elif message.role == "assistant":
            if message.turn == PLANNING_QUERY_TURN + 1 and prepared is not None:
                agent.say(_plan_from(prepared.messages))
            else:
                agent.say(message.content)


PLANNING_QUERY_TURN: Final = 310
PLANNING_LAST_TURN: Final = 316


def _plan_from(sent: Sequence[Message]) -> str:
    """The scripted answer to the lunch question, from what the request really carried.

    The agent has no model: it answers with the newest statements about the lunch diet and the Atlas
    launch day found in the messages it sent (the summary included), so the answer shows what the
    pipeline kept — a fact it dropped cannot appear.
    """
    diet = day = ""
    for message in sent:
        for sentence in message.text.replace("\n", ". ").split(". "):
            lowered = sentence.lower()
            if "vegan" in lowered or "vegetarian" in lowered:
                diet = "vegan" if "vegan" in lowered.replace("vegetarian", "") else "vegetarian"
            if "atlas" in lowered and "launch" in lowered:
                for candidate in ("Friday", "Wednesday"):
                    if candidate in sentence:
                        day = candidate
                        if "from wednesday to friday" in lowered:
                            day = "Friday"
    diet_text = f"a {diet} menu" if diet else "a menu (I see no lunch preference in what I was sent)"
    day_text = f"on {day}" if day else "(I see no launch day in what I was sent)"
    return f"Planning the Atlas launch lunch {day_text}: {diet_text}."


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
    pace=1.2,
    compare=(
        Compare("batches of 4", PipelineConfig()),
        Compare("batches of 1", PipelineConfig(clear_batch=1)),
    ),
    intro="A reader of 48 files at a 100k budget. Stage 2 clears four results at a time, so the "
    "request's prefix stays cacheable between clearings; w compares batches of 1.",
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
