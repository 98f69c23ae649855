"""A seeded synthetic long session for the memory-policy benchmark, with its answer key apart.

The session is a planning assistant's conversation: a system message at turn 1, then user messages
on even turns and assistant replies on odd turns. It mixes

* durable facts about projects (launch day, venue, budget, owner, status), people (office city,
  role) and the user (diet, seat, contact channel, meeting hours, report format);
* updates that supersede an earlier fact about the same subject — several phrasings each, some
  naming the old value, many without the words "update", "preference" or "constraint";
* entity changes (people relocating, changing role; projects changing hands);
* episodic events, routine chatter, and distractors that reuse the real subjects and values:
  questions, hypotheticals, rumours, denials, other people's habits, outdated notes, and keyword
  collisions ("the Atlas mountains");
* assistant acknowledgements that echo facts (they become stale evidence once the fact is
  superseded) and checkpoint queries that need an old-but-valid fact, a superseding update and the
  current state.

SPEC §4's worked example is always included when the session is long enough (turn 18 vegetarian,
142 vegan, 260 Atlas moves from Wednesday to Friday, 310 the lunch question).

:func:`generate` returns the messages (what policies see) and the :class:`~.answer_key.AnswerKey`
(what the scorer reads) as two separate values. Nothing in the messages encodes the key.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Final

from .answer_key import AnswerKey, Checkpoint, Label, TurnLabel
from .records import PolicyMessage

DEFAULT_TURNS: Final = 10_000
DEFAULT_SEED: Final = 7
CHECKPOINTS: Final = 8
"""Checkpoints spread over the last fifth of the session (plus the worked example's)."""

EXAMPLE_TURNS: Final = (18, 60, 142, 260, 310)
"""Turns of the worked example: vegetarian, Atlas on Wednesday, vegan, Atlas moves, the query."""

PROJECTS: Final = (
    "Atlas", "Borealis", "Cobalt", "Dynamo", "Ember", "Falcon", "Granite", "Helios", "Indigo",
    "Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Orion", "Pioneer", "Quartz", "Sequoia",
    "Tundra", "Vertex", "Willow", "Zephyr", "Aurora", "Beacon", "Cascade",
)
PEOPLE: Final = (
    "Priya", "Marcus", "Chen", "Fatima", "Diego", "Aisha", "Tomas", "Yuki", "Olga", "Kwame",
    "Lena", "Rahul", "Sofia", "Jonas", "Mei", "Omar", "Ines", "Arjun", "Hana", "Felix", "Nadia",
    "Pablo", "Greta", "Ravi",
)
CITIES: Final = (
    "Berlin", "Lisbon", "Toronto", "Austin", "Singapore", "Nairobi", "Madrid", "Seoul", "Denver",
    "Dublin", "Oslo", "Lagos",
)


@dataclass(frozen=True, slots=True)
class Family:
    """A kind of fact: its values and the ways people state and change it.

    Attributes:
        name: Family name (for reports).
        subject: ``project``, ``person`` or ``user``.
        values: Possible values.
        facts: Templates for a first statement ({s} subject, {v} value).
        updates: Templates for a superseding statement ({s}, {v}, {old}).
        echoes: Assistant acknowledgements ({s}, {v}).
    """

    name: str
    subject: str
    values: tuple[str, ...]
    facts: tuple[str, ...]
    updates: tuple[str, ...]
    echoes: tuple[str, ...]


DAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "May 6", "June 12", "the 21st")

FAMILIES: Final[tuple[Family, ...]] = (
    Family(
        "launch_day", "project", DAYS,
        (
            "Project {s} launches on {v}.",
            "{s} goes live {v}.",
            "We're shipping {s} on {v}.",
            "Launch day for {s} is {v}.",
            "{s} release is pencilled in for {v}.",
            "Mark the calendar: {s} ships {v}.",
            "The plan is to put {s} out on {v}.",
        ),
        (
            "Project {s} launch moves from {old} to {v}.",
            "Update: {s} now launches {v}, not {old}.",
            "Heads up, {s} slipped to {v}.",
            "{s} is going out {v} instead.",
            "Change of plans: {s} ships on {v}.",
            "Legal needs more time, so {s} lands {v} now.",
            "Scratch {old} for {s}; we're launching {v}.",
            "New date for {s}: {v}.",
        ),
        ("Noted: {s} launches {v}.", "Got it, {s} on {v}.", "Okay, I'll plan around {s} going live {v}."),
    ),
    Family(
        "venue", "project",
        ("the Harbor Room", "Pier 9", "the rooftop terrace", "the Oak Hall", "the Building C atrium",
         "the Riverside loft", "the main auditorium"),
        (
            "The {s} launch event is at {v}.",
            "We booked {v} for the {s} launch.",
            "The {s} launch party will be held at {v}.",
            "{v} is where the {s} kickoff happens.",
        ),
        (
            "The {s} launch venue changed to {v}.",
            "We lost the booking, so the {s} launch is now at {v}.",
            "Moving the {s} event over to {v}.",
            "{s} launch: {v} instead of {old}.",
        ),
        ("Noted, the {s} event is at {v}.", "Got it: {v} for {s}."),
    ),
    Family(
        "budget", "project",
        ("$20k", "$35k", "$40k", "$55k", "$60k", "$75k", "$90k", "$120k"),
        (
            "{s} has a budget of {v}.",
            "We can spend {v} on {s} this quarter.",
            "{s} is capped at {v}.",
            "Finance approved {v} for {s}.",
        ),
        (
            "{s} budget was cut to {v}.",
            "Finance bumped {s} to {v}.",
            "We now have {v} for {s}, down from {old}.",
            "Revised number for {s}: {v}.",
        ),
        ("Noted, {v} for {s}.", "Okay, {s} has {v} to work with."),
    ),
    Family(
        "owner", "project", PEOPLE,
        (
            "{v} leads {s}.",
            "{s} is owned by {v}.",
            "The point person for {s} is {v}.",
            "{v} runs the {s} workstream.",
        ),
        (
            "{v} is taking over {s} from {old}.",
            "{s} now reports to {v}.",
            "Handing {s} to {v} going forward.",
            "{old} stepped back; {v} owns {s} now.",
        ),
        ("Got it, {v} is the contact for {s}.", "Noted: {s} is with {v}."),
    ),
    Family(
        "status", "project",
        ("on track", "blocked on legal review", "at risk", "paused", "in beta", "code complete"),
        (
            "{s} is {v}.",
            "Status for {s}: {v}.",
            "Right now {s} is {v}.",
        ),
        (
            "{s} is {v} now.",
            "Status change: {s} went from {old} to {v}.",
            "As of today {s} is {v}.",
        ),
        ("Noted, {s} is {v}.",),
    ),
    Family(
        "office", "person", CITIES,
        (
            "{s} works out of {v}.",
            "{s} is based in {v}.",
            "{s}'s desk is in the {v} office.",
            "{s} sits in {v}.",
        ),
        (
            "{s} relocated to {v}.",
            "{s} moved from {old} to {v}.",
            "{s} is in {v} now.",
            "{s} transferred to the {v} office.",
        ),
        ("Noted, {s} is in {v}.",),
    ),
    Family(
        "role", "person",
        ("staff engineer", "product manager", "designer", "engineering manager", "data scientist",
         "tech lead", "QA lead"),
        (
            "{s} is our {v}.",
            "{s} joined as {v}.",
            "{s} works as a {v}.",
        ),
        (
            "{s} got promoted to {v}.",
            "{s} switched roles and is now {v}.",
            "{s} is the new {v}.",
        ),
        ("Noted, {s} is {v}.",),
    ),
    Family(
        "diet", "user",
        ("vegetarian", "vegan", "pescatarian", "gluten-free", "halal", "kosher", "dairy-free"),
        (
            "My lunch preference for offsites is {v}.",
            "I'm {v}, so keep that in mind for team lunches.",
            "Put me down as {v} for catered meals.",
            "For food, I eat {v} only.",
            "I keep a {v} diet.",
        ),
        (
            "Update: I'm {v} now, not {old}.",
            "I've gone {v}.",
            "Switching to {v} from now on.",
            "Make that {v} for me going forward.",
            "Doctor's orders: {v} from here on.",
        ),
        ("Noted, {v} meals for you.", "Got it, I'll order {v} for you."),
    ),
    Family(
        "seat", "user",
        ("aisle", "window", "exit row"),
        (
            "I always book the {v} seat when flying.",
            "Book me an {v} seat on flights.",
            "On planes I want the {v} seat.",
        ),
        (
            "Actually book me {v} seats from now on.",
            "Changed my mind on flights: {v} seat.",
            "I'd rather sit by the {v} these days.",
        ),
        ("Noted, {v} seats for you.",),
    ),
    Family(
        "contact", "user",
        ("Slack", "email", "phone", "Signal", "Teams", "SMS"),
        (
            "Best way to reach me is {v}.",
            "Ping me on {v} for anything urgent.",
            "Use {v} if you need me.",
        ),
        (
            "Reach me on {v} from now on, not {old}.",
            "I'm off {old}; use {v}.",
            "Switch my contact channel to {v}.",
        ),
        ("Got it, {v} it is.",),
    ),
    Family(
        "meetings", "user",
        ("in the morning", "in the afternoon", "before 10am", "after 2pm", "late in the day"),
        (
            "I take meetings {v}.",
            "Put my calls {v}, please.",
            "My focus time means meetings only {v}.",
        ),
        (
            "Meetings {v} work better for me now.",
            "New rule for my calendar: meetings {v}.",
            "From now on, meetings {v} only.",
        ),
        ("Noted, meetings {v}.",),
    ),
    Family(
        "reports", "user",
        ("bullet points", "a short paragraph", "a table", "a one-line TL;DR"),
        (
            "Send me status reports as {v}.",
            "I like summaries as {v}.",
            "Format my reports as {v}.",
        ),
        (
            "Switch my reports to {v}.",
            "I'd prefer {v} for reports from now on.",
            "Reports as {v} from here on, please.",
        ),
        ("Noted, reports as {v}.",),
    ),
)

FAMILY_BY_NAME: Final = {family.name: family for family in FAMILIES}

HELDOUT: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    # Written after the first supersession policy's cue lists were frozen, without consulting them.
    # Since the policy's rework it is a development set, like the standard templates; the held-out
    # set is now blind2.py (docs/policies.md). (facts, updates) per family.
    "launch_day": (
        ("{s} hits the market {v}.", "Target date for {s} is {v}.", "{s} drops on {v}.",
         "We're going public with {s} on {v}.", "Customers get {s} {v}."),
        ("{s} got bumped to {v}.", "{s} won't make {old}; it's {v} now.", "Pushing {s} back to {v}.",
         "Plans changed, {s} will be out {v}.", "They delayed {s} until {v}."),
    ),
    "venue": (
        ("For the {s} launch we've reserved {v}.", "The {s} celebration takes place at {v}.",
         "The {s} unveiling happens at {v}."),
        ("The {s} celebration is relocating to {v}.", "{v} replaces {old} for the {s} unveiling.",
         "We switched the {s} launch location to {v}."),
    ),
    "budget": (
        ("{s} gets {v} to spend.", "The {s} spend limit is {v}.", "{v} is what {s} has been allocated."),
        ("{s} allocation is now {v}.", "They trimmed {s} down to {v}.", "{s} got an extra bump, total {v}."),
    ),
    "owner": (
        ("{v} is in charge of {s}.", "{s} belongs to {v}'s team.", "Ask {v} about anything {s}."),
        ("{v} inherited {s}.", "{s} changed hands; {v} has it.", "From today {v} is responsible for {s}."),
    ),
    "status": (
        ("{s}: currently {v}.", "Where {s} stands: {v}.", "{s} is {v} at the moment."),
        ("{s} has become {v}.", "{s} flipped to {v}.", "Now {s} is officially {v}."),
    ),
    "office": (
        ("{s} lives in {v}.", "{s} is out of our {v} hub.", "You'll find {s} in {v}."),
        ("{s} packed up and left for {v}.", "{s} now calls {v} home.", "{s} went over to {v} for good."),
    ),
    "role": (
        ("{s} is the team's {v}.", "{s} was hired as {v}.", "{s} holds the {v} title."),
        ("{s} stepped up to {v}.", "{s} is {v} as of this sprint.", "{s} took on the {v} job."),
    ),
    "diet": (
        ("No meat for me, I'm {v}.", "Catering note: {v} please, for me.", "Just so you know, {v} here.",
         "I follow a {v} way of eating."),
        ("Heads up, {v} these days.", "I'm trying {v} now.", "Going {v}; please adjust my orders.",
         "Count me as {v}, not {old}."),
    ),
    "seat": (
        ("Stick me in the {v} seat whenever I fly.", "My spot on planes is the {v}.", "I fly {v} if I can."),
        ("Swap my flight seating to {v}.", "Prefer the {v} now, please.", "These days I go for {v}."),
    ),
    "contact": (
        ("{v} is the fastest way to get me.", "I check {v} the most.", "Get hold of me via {v}."),
        ("I'm only on {v} now.", "Stopped checking {old}, use {v}.", "{v} from here on if you want me."),
    ),
    "meetings": (
        ("I'm sharpest {v}, so book me then.", "My calendar is open {v}.", "Block meetings {v} for me."),
        ("I've moved my meeting window to {v}.", "Only schedule me {v} now.",
         "Calendar change: I'm free {v} instead."),
    ),
    "reports": (
        ("I read updates best as {v}.", "When you report to me, use {v}.", "Give me {v} for status."),
        ("I'm happier with {v} for updates now.", "Please move to {v} for my updates.",
         "Going forward, {v} is how I want updates."),
    ),
}
"""Held-out phrasings per family: (facts, updates)."""

WORDINGS: Final = (
    "standard", "heldout", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8",
    "blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15",
)
"""``standard``: the templates above; ``heldout``: :data:`HELDOUT`; ``blind2`` … ``blind15``:
:mod:`.blind2`, :mod:`.blind3`, :mod:`.blind4`, :mod:`.blind5`, :mod:`.blind6`, :mod:`.blind7`,
:mod:`.blind8`, :mod:`.blind9`, :mod:`.blind10`, :mod:`.blind11`, :mod:`.blind12`, :mod:`.blind13`,
:mod:`.blind14`, :mod:`.blind15`
(new templates *and* vocabularies, distractors and queries; docs/policies.md says which were seen
while building the policy and which are held out)."""

DISTRACTORS: Final = (
    # questions
    ("question", "Is {p} still going live {day}?"),
    ("question", "Did {p} move to {day}?"),
    ("question", "What's the budget for {p} again?"),
    ("question", "Where is the {p} launch happening?"),
    ("question", "Who owns {p} these days?"),
    ("question", "Is {n} still in {city}?"),
    ("question", "What do I usually eat at offsites?"),
    # hypotheticals and rumours
    ("hypothetical", "What if we moved {p} to {day}? Just thinking out loud."),
    ("hypothetical", "Maybe {p} could ship {day}, no idea honestly."),
    ("hypothetical", "If {p} had {money} we could hire another contractor."),
    ("hypothetical", "Imagine {n} in {city}, they'd love it."),
    ("rumour", "Someone said {p} might slip to {day}, nothing confirmed."),
    ("rumour", "Hearing rumours that {n} may move to {city}."),
    # denials
    ("denial", "We are not moving {p} to {day}, ignore that thread."),
    ("denial", "No, {p} is not changing venue to {venue}."),
    # other people's habits
    ("third_party", "My sister went {diet} last year."),
    ("third_party", "My neighbour swears by {seat} seats."),
    ("third_party", "{n}'s partner is {diet}, funny coincidence."),
    # keyword collisions
    ("collision", "The {p} mountains hike is on {day}."),
    ("collision", "Read an article about {diet} leather."),
    ("collision", "{weekday} is pizza day in the office."),
    ("collision", "The weather in {city} looks rough."),
    ("collision", "The {channel} outage yesterday was annoying."),
    ("collision", "Aisle 5 at the grocery store was closed."),
    ("collision", "Found an old {p} sticker in my drawer."),
    # outdated notes
    ("outdated", "Old notes say {p} launches {day}, those are outdated."),
)
EPISODES: Final = (
    "We had the {p} design review yesterday; it went fine.",
    "Lunch with {n} was fun today.",
    "Spent the morning debugging the {p} build.",
    "The {p} demo crashed once but recovered.",
    "Met {n} at the coffee machine, we chatted about {p}.",
    "Got through forty emails this morning.",
    "The {p} retro ran long but was useful.",
    "{n} and I paired on the {p} migration for an hour.",
)
USER_CHATTER: Final = (
    "thanks!", "ok", "sounds good", "lol", "brb", "let me check", "good morning", "one sec",
    "cool, thanks", "perfect", "haha yes", "makes sense", "great", "noted", "back now",
)
TASKS: Final = (
    "Can you tidy up the notes from the {p} sync?",
    "Draft a short reply to {n} about the {p} timeline.",
    "Summarise the open questions for {p}.",
    "List what's left before the {p} launch.",
)
ASSISTANT_CHATTER: Final = (
    "You're welcome!", "Anytime.", "Sure.", "Okay.", "Take your time.", "Glad to hear it.",
)
ASSISTANT_HEDGE: Final = (
    "Understood, I'll treat that as unconfirmed.",
    "Okay, I won't change anything based on that.",
    "Let me know if that becomes the plan.",
)
ASSISTANT_ANSWER: Final = (
    "Let me check the latest notes on {p}.",
    "I'll pull up what we have on {p}.",
    "Here's what I have so far on {p}.",
)
ASSISTANT_TASK: Final = ("Done, here's a draft.", "Here you go.", "I've put that together below.")
SYSTEM_PROMPT: Final = (
    "You are a planning assistant for a product team. Keep track of projects, people and the "
    "user's own preferences across the whole conversation."
)

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (SYSTEM_PROMPT,), USER_CHATTER, EPISODES, TASKS, ASSISTANT_CHATTER, ASSISTANT_HEDGE,
    ASSISTANT_ANSWER, ASSISTANT_TASK,
)
"""The system prompt, chatter, episodes ({p}, {n}), tasks ({p}, {n}) and the assistant's chatter,
hedges, answers ({p}) and task replies that every wording up to ``blind9`` shares; from ``blind10``
on a wording module may bring its own (``SHARED``, in this order)."""

QUERIES: Final = (
    ("Can you plan the {p} launch lunch on {day}?", ("launch_day", "diet", "venue")),
    (
        "Draft the invite for the {p} launch: where, when, and what food for me?",
        ("launch_day", "venue", "diet"),
    ),
    ("Book my flight for the {p} launch.", ("launch_day", "seat", "venue")),
    ("Who should I ping about the {p} launch budget, and how much do we have?", ("owner", "budget")),
    ("Send the {p} status to whoever owns it, in my usual report format.", ("status", "owner", "reports")),
)


@dataclass(slots=True)
class _Slot:
    family: Family
    subject: str
    history: list[tuple[int, str, bool]] = field(default_factory=list)
    """(turn, value, refines) statements so far."""

    def current_turns(self, before: int) -> list[int]:
        """Turns of the statements that are current just before ``before``."""
        current: list[int] = []
        for turn, _value, refines in self.history:
            if turn >= before:
                break
            current = [*current, turn] if refines else [turn]
        return current

    def value_at(self, before: int) -> str | None:
        value = None
        for turn, v, _ in self.history:
            if turn >= before:
                break
            value = v
        return value


@dataclass(frozen=True, slots=True)
class _Vocabulary:
    """Everything a wording draws its text from."""

    projects: tuple[str, ...]
    people: tuple[str, ...]
    cities: tuple[str, ...]
    families: tuple[Family, ...]
    distractors: tuple[tuple[str, str], ...]
    queries: tuple[tuple[str, tuple[str, ...]], ...]
    days: tuple[str, ...]
    weekdays: tuple[str, ...]
    channels: tuple[str, ...]
    subject_forms: tuple[str, ...] = ("{n}", "{n}", "Project {n}", "the {n} project")
    casual: str = ""
    """The wording module whose chat filler wraps some user statements and types some in lower
    case (``blind2`` … ``blind15``); empty for none."""
    shared: tuple[tuple[str, ...], ...] = SHARED
    """The system prompt, chatter, episodes, tasks and the assistant's replies: the generator's own,
    or a wording module's (``blind10`` on), in this order."""


def _vocabulary(wording: str) -> _Vocabulary:
    if wording in WORDINGS[2:]:
        module = _wording_module(wording)
        families = tuple(
            Family(f.name, f.subject, module.VALUES[f.name], *module.TEMPLATES[f.name]) for f in FAMILIES
        )
        return _Vocabulary(
            module.PROJECTS, module.PEOPLE, module.CITIES, families, module.DISTRACTORS, module.QUERIES,
            module.VALUES["launch_day"], module.WEEKDAYS, module.CHANNELS, module.SUBJECT_FORMS, wording,
            getattr(module, "SHARED", SHARED),
        )
    families = FAMILIES
    if wording == "heldout":
        families = tuple(
            Family(f.name, f.subject, f.values, *HELDOUT[f.name], f.echoes) for f in FAMILIES
        )
    return _Vocabulary(
        PROJECTS, PEOPLE, CITIES, families, DISTRACTORS, QUERIES, DAYS, DAYS[:5], ("Slack", "Teams", "email")
    )


def _wording_module(wording: str) -> ModuleType:
    """The module holding a frozen wording set's vocabularies."""
    from . import (
        blind2,
        blind3,
        blind4,
        blind5,
        blind6,
        blind7,
        blind8,
        blind9,
        blind10,
        blind11,
        blind12,
        blind13,
        blind14,
        blind15,
    )

    modules = {
        "blind3": blind3, "blind4": blind4, "blind5": blind5, "blind6": blind6, "blind7": blind7,
        "blind8": blind8, "blind9": blind9, "blind10": blind10, "blind11": blind11,
        "blind12": blind12, "blind13": blind13, "blind14": blind14, "blind15": blind15,
    }
    return modules.get(wording, blind2)


def _casual(rng: random.Random, text: str, wording: str) -> str:
    """Chat filler and lower case, as people type (``blind2`` … ``blind15`` only)."""
    module = _wording_module(wording)
    roll = rng.random()
    prefixes: tuple[str, ...] = module.PREFIXES
    suffixes: tuple[str, ...] = module.SUFFIXES
    if roll < module.WRAP_RATE / 2:
        return rng.choice(prefixes) + text
    if roll < module.WRAP_RATE:
        return text + rng.choice(suffixes)
    if roll < module.WRAP_RATE + module.LOWER_RATE:
        return text.lower().rstrip(".")
    return text


@dataclass(frozen=True, slots=True)
class GeneratedBenchmark:
    """A generated session and its key, kept as separate values.

    Attributes:
        messages: What the policies see.
        key: What the scorer reads.
    """

    messages: tuple[PolicyMessage, ...]
    key: AnswerKey


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _subject_text(rng: random.Random, slot: _Slot, forms: tuple[str, ...]) -> str:
    if slot.family.subject != "project":
        return slot.subject
    return rng.choice(forms).format(n=slot.subject)


def _render(
    template: str, rng: random.Random, slot: _Slot, value: str, old: str | None, forms: tuple[str, ...]
) -> str:
    subject = _subject_text(rng, slot, forms)
    article_fix = template.replace("an {v}", "an {v}" if value[:1].lower() in "aeiou" else "a {v}")
    text = article_fix.format(s=subject, v=value, old=old or "the old plan")
    for clumsy, plain in (
        (f"Project Project {slot.subject}", f"Project {slot.subject}"),
        (f"Project the {slot.subject} project", f"Project {slot.subject}"),
        (f"the the {slot.subject} project", f"the {slot.subject} project"),
        (f"The the {slot.subject} project", f"The {slot.subject} project"),
    ):
        text = text.replace(clumsy, plain)
    return _cap(text)


def generate(
    turns: int = DEFAULT_TURNS, seed: int = DEFAULT_SEED, wording: str = "standard"
) -> GeneratedBenchmark:
    """Generate a session of ``turns`` messages and its answer key.

    Args:
        turns: Messages in the session (at least 40).
        seed: Random seed; the same (turns, seed, wording) always gives the same session.
        wording: ``standard``; ``heldout`` to state facts and updates only with the held-out
            phrasings (:data:`HELDOUT`); or ``blind2`` for the third set (:mod:`.blind2`: new
            phrasings, names, values, distractors and queries, written blind).

    Returns:
        The messages and the key.

    Raises:
        ValueError: When ``turns`` is below 40 or ``wording`` is unknown.
    """
    if turns < 40:
        raise ValueError("the benchmark needs at least 40 turns")
    if wording not in WORDINGS:
        raise ValueError(f"unknown wording {wording!r}; known: {', '.join(WORDINGS)}")
    vocab = _vocabulary(wording)
    family_by_name = {family.name: family for family in vocab.families}
    rng = random.Random(seed)
    user_turns = list(range(2, turns + 1, 2))
    free = set(user_turns)
    with_example = turns >= 400
    events: dict[int, tuple[_Slot, str, bool]] = {}
    """User turn → (slot, value, refines) for fact statements."""

    n_projects = max(3, min(len(vocab.projects), turns // 400))
    n_people = max(3, min(len(vocab.people), turns // 500))
    projects = list(vocab.projects[:n_projects])
    people = list(vocab.people[:n_people])
    slots: list[_Slot] = []
    for project in projects:
        slots.extend(_Slot(f, project) for f in vocab.families if f.subject == "project")
    for person in people:
        slots.extend(_Slot(f, person) for f in vocab.families if f.subject == "person")
    slots.extend(_Slot(f, "user") for f in vocab.families if f.subject == "user")
    by_key = {(s.family.name, s.subject): s for s in slots}

    # -- the worked example ------------------------------------------------------------------------
    example_needs: tuple[int, ...] = ()
    fixed_text: dict[int, str] = {}
    if with_example:
        diet, atlas = by_key[("diet", "user")], by_key[("launch_day", "Atlas")]
        t_veg, t_wed, t_vegan, t_fri, t_query = EXAMPLE_TURNS
        diet.history += [(t_veg, "vegetarian", False), (t_vegan, "vegan", True)]
        atlas.history += [(t_wed, "Wednesday", False), (t_fri, "Friday", False)]
        fixed_text[t_veg] = "My lunch preference for offsites is vegetarian."
        fixed_text[t_wed] = "Project Atlas launches on Wednesday."
        fixed_text[t_vegan] = "Update: I'm vegan now, not just vegetarian."
        fixed_text[t_fri] = "Project Atlas launch moves from Wednesday to Friday."
        fixed_text[t_query] = "Can you plan the Atlas launch lunch on Friday?"
        events[t_veg] = (diet, "vegetarian", False)
        events[t_wed] = (atlas, "Wednesday", False)
        events[t_vegan] = (diet, "vegan", True)
        events[t_fri] = (atlas, "Friday", False)
        example_needs = (t_veg, t_vegan, t_fri)
        free -= set(EXAMPLE_TURNS)

    # -- checkpoints -------------------------------------------------------------------------------
    last = user_turns[-1]
    n_cp = CHECKPOINTS if turns >= 2000 else 3
    start = max(2, int(turns * 0.8))
    cp_turns: list[int] = []
    for i in range(n_cp):
        t = start + (last - start) * i // max(1, n_cp - 1)
        t -= t % 2
        while t not in free and t > 2:
            t -= 2
        if t in free:
            cp_turns.append(t)
            free.discard(t)
    cp_turns = sorted(set(cp_turns))

    def take_free(near: int) -> int | None:
        if not free:
            return None
        near = max(2, min(last, near - near % 2))
        for delta in range(0, turns, 2):
            for candidate in (near + delta, near - delta):
                if candidate in free:
                    free.discard(candidate)
                    return candidate
        return None

    # -- fact statements ---------------------------------------------------------------------------
    horizon = int(turns * 0.75)
    for slot in slots:
        if slot.history:
            later = [rng.randint(EXAMPLE_TURNS[-1] + 50, last) for _ in range(rng.choice((0, 1, 1, 2)))]
            first = None
        else:
            first = rng.randint(2, horizon)
            n_updates = rng.choices((0, 1, 2, 3, 4), weights=(25, 30, 25, 12, 8))[0]
            later = [rng.randint(first + 2, last) for _ in range(n_updates)]
        planned = ([first] if first is not None else []) + sorted(later)
        value = slot.history[-1][1] if slot.history else None
        for desired in planned:
            turn = take_free(desired)
            if turn is None:
                continue
            choices = [v for v in slot.family.values if v != value]
            value = rng.choice(choices)
            slot.history.append((turn, value, False))
            events[turn] = (slot, value, False)
    for slot in slots:
        slot.history.sort()

    # -- rendering ---------------------------------------------------------------------------------
    (system_prompt,), user_chatter, episodes, tasks, *replies = vocab.shared
    assistant_chatter, assistant_hedge, assistant_answer, assistant_task = replies
    messages: list[PolicyMessage] = [PolicyMessage(1, "system", system_prompt)]
    labels: dict[int, TurnLabel] = {1: TurnLabel(1, Label.OTHER, kind="system")}
    echoes: list[tuple[int, _Slot]] = []
    checkpoints: list[Checkpoint] = []
    next_statement: dict[int, int | None] = {}
    for slot in slots:
        for i, (turn, _value, _refines) in enumerate(slot.history):
            later_replacing = [t for t, _v, refines in slot.history[i + 1 :] if not refines]
            # a refinement keeps the statements before it valid; the next replacement ends them all
            next_statement[turn] = later_replacing[0] if later_replacing else None

    def pick_values() -> dict[str, str]:
        return {
            "p": rng.choice(projects),
            "n": rng.choice(people),
            "city": rng.choice(vocab.cities),
            "day": rng.choice(vocab.days),
            "weekday": rng.choice(vocab.weekdays),
            "money": rng.choice(family_by_name["budget"].values),
            "venue": rng.choice(family_by_name["venue"].values),
            "diet": rng.choice(family_by_name["diet"].values),
            "seat": rng.choice(family_by_name["seat"].values),
            "channel": rng.choice(vocab.channels),
        }

    def updated(family: str, project: str, before: int) -> bool:
        """Whether the project's (or the user's) attribute was superseded before ``before``."""
        subject = "user" if family_by_name[family].subject == "user" else project
        return sum(1 for h in by_key[(family, subject)].history if h[0] < before) > 1

    def old_valid(family: str, project: str, before: int) -> bool:
        """Whether the attribute's statement in force was made 1,000 or more turns before."""
        subject = "user" if family_by_name[family].subject == "user" else project
        current = by_key[(family, subject)].current_turns(before)
        return bool(current) and min(current) < before - 1000

    query_plan = list(vocab.queries)
    rng.shuffle(query_plan)
    previous_kind = "system"
    previous_slot: _Slot | None = None
    previous_value = ""
    previous_project = projects[0]
    for turn in range(2, turns + 1):
        if turn % 2 == 0:
            previous_slot = None
            styled = False
            if turn in events:
                slot, value, _refines = events[turn]
                index = next(i for i, h in enumerate(slot.history) if h[0] == turn)
                old = slot.history[index - 1][1] if index > 0 else None
                if turn in fixed_text:
                    text = fixed_text[turn]
                else:
                    templates = slot.family.updates if old is not None else slot.family.facts
                    text = _render(rng.choice(templates), rng, slot, value, old, vocab.subject_forms)
                    styled = True
                kind = "update" if old is not None else "fact"
                labels[turn] = TurnLabel(turn, Label.CRITICAL, next_statement[turn], kind)
                previous_kind, previous_slot, previous_value = kind, slot, value
            elif turn in cp_turns or (with_example and turn == EXAMPLE_TURNS[-1]):
                if turn in fixed_text:
                    text, needs = fixed_text[turn], example_needs
                else:
                    template, families = query_plan[len(checkpoints) % len(query_plan)]
                    # the answer must need a superseding update: pick a project where one happened
                    # and an old-but-valid fact: one whose statement in force is 1,000+ turns old
                    moved = [p for p in projects if any(updated(f, p, turn) for f in families)]
                    both = [p for p in moved if any(old_valid(f, p, turn) for f in families)]
                    project = rng.choice(both or moved or projects)
                    day = by_key[("launch_day", project)].value_at(turn) or "Friday"
                    text = template.format(p=project, day=day)
                    need_list: list[int] = []
                    for family in families:
                        subject = "user" if family_by_name[family].subject == "user" else project
                        need_list += by_key[(family, subject)].current_turns(turn)
                    needs = tuple(sorted(set(need_list)))
                    previous_project = project
                checkpoints.append(Checkpoint(turn, text, needs))
                labels[turn] = TurnLabel(turn, Label.OTHER, kind="query")
                previous_kind = "query"
            else:
                values = pick_values()
                previous_project = values["p"]
                roll = rng.random()
                styled = roll >= 0.40
                if roll < 0.40:
                    text, kind, label = rng.choice(user_chatter), "chatter", Label.NOISE
                elif roll < 0.58:
                    text, kind, label = _cap(rng.choice(episodes).format(**values)), "episode", Label.OTHER
                elif roll < 0.90:
                    kind, template = rng.choice(vocab.distractors)
                    text, label = _cap(template.format(**values)), Label.NOISE
                else:
                    text, kind, label = _cap(rng.choice(tasks).format(**values)), "task", Label.OTHER
                labels[turn] = TurnLabel(turn, label, kind=kind)
                previous_kind = kind
            if vocab.casual and styled:
                text = _casual(rng, text, vocab.casual)
            messages.append(PolicyMessage(turn, "user", text))
            continue
        # assistant turn
        if previous_kind in ("fact", "update") and previous_slot is not None and rng.random() < 0.7:
            text = _render(
                rng.choice(previous_slot.family.echoes), rng, previous_slot, previous_value, None,
                vocab.subject_forms,
            )
            echoes.append((turn, previous_slot))
            labels[turn] = TurnLabel(turn, Label.OTHER, kind="echo")
        elif previous_kind in ("question", "query"):
            text = rng.choice(assistant_answer).format(p=previous_project)
            labels[turn] = TurnLabel(turn, Label.OTHER, kind="answer")
        elif previous_kind in ("hypothetical", "rumour", "denial", "outdated"):
            text = rng.choice(assistant_hedge)
            labels[turn] = TurnLabel(turn, Label.OTHER, kind="hedge")
        elif previous_kind == "task":
            text = rng.choice(assistant_task)
            labels[turn] = TurnLabel(turn, Label.OTHER, kind="task_reply")
        else:
            text = rng.choice(assistant_chatter)
            labels[turn] = TurnLabel(turn, Label.NOISE, kind="chatter")
        messages.append(PolicyMessage(turn, "assistant", text))

    # an echo is stale evidence once the fact it repeats is replaced
    for turn, slot in echoes:
        stated = [t for t, _v, _r in slot.history if t < turn]
        source = stated[-1] if stated else None
        stale_from = next_statement.get(source) if source is not None else None
        labels[turn] = TurnLabel(turn, Label.OTHER, stale_from, "echo")

    key = AnswerKey(
        labels=labels,
        checkpoints=tuple(sorted(checkpoints, key=lambda c: c.turn)),
        meta={"generator": "ctxscope", "turns": str(turns), "seed": str(seed), "wording": wording},
    )
    return GeneratedBenchmark(tuple(messages), key)


def kinds(key: AnswerKey) -> dict[str, int]:
    """How many turns of each kind a key has (for reports)."""
    counts: dict[str, int] = {}
    for row in key.labels.values():
        counts[row.kind] = counts.get(row.kind, 0) + 1
    return dict(sorted(counts.items()))
