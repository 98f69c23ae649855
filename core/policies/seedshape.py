"""A second generator, of the seed harness's shape: facts that announce themselves.

The "Sliding Windows Forget" document (SPEC §4) describes its own benchmark only in outline: a
10,000-turn synthetic session graded at a 600-message budget on *current important facts*, *stale
facts* and *noise*, where important facts carry recognisable preference, update and entity
patterns ("if a synthetic benchmark produces important facts with recognisable preference, update
and entity patterns, a rule-based scorer that looks for those signals will have an advantage"), and
routine traffic fills most of the session. Its data and code are not used here; this module is
written from that description alone, so that the policies can be compared on sessions of that
*structure*, whose wording differs from ctxscope's own generator (:mod:`.generator`):

* the user states preferences in the open ("User preference: …", "I prefer …", "Remember that I
  …"), and entity facts name their subject and attribute ("Project Atlas owner: Priya.");
* every change is an explicit update of the same subject and attribute ("Update: …",
  "Correction: … is now …, not …"), naming the old value about half of the time;
* the assistant acknowledges about half of the statements; the rest of the session is chatter
  ("ok thanks", "lol", "brb"), small episodes and questions;
* checkpoints (8, evenly over the last fifth) ask about one attribute and need its current fact.

Labels as in :mod:`.answer_key`: a fact is ``critical`` until its next update (``stale_from``),
chatter ``noise``, acknowledgements ``other`` (stale once their fact is replaced).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from .answer_key import AnswerKey, Checkpoint, Label, TurnLabel
from .generator import GeneratedBenchmark
from .records import PolicyMessage

SUBJECTS: Final = (
    "Atlas", "Beacon", "Comet", "Delta", "Ember", "Falcon", "Garnet", "Harbor", "Iris", "Juniper",
    "Kestrel", "Lumen", "Meridian", "Nimbus", "Onyx", "Pioneer", "Quartz", "Raven", "Sierra", "Tundra",
)
ATTRIBUTES: Final = {
    "owner": ("Priya", "Tomas", "Aiko", "Marcus", "Lena", "Diego", "Hana", "Omar", "Grace", "Felix"),
    "deadline": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "March 3", "April 14", "May 6"),
    "budget": ("$12,000", "$25,000", "$40,000", "$75,000", "$120,000", "$8,500"),
    "venue": ("the Harbor Room", "Pier 9", "the Glasshouse", "Hall B", "the rooftop terrace"),
}
PREFERENCES: Final = {
    "lunch": ("vegetarian", "vegan", "gluten-free", "pescatarian", "halal"),
    "seat": ("aisle", "window", "exit row"),
    "contact channel": ("Slack", "email", "phone", "Signal"),
    "meeting time": ("mornings", "afternoons", "after 3pm", "before noon"),
    "report format": ("bullet points", "a short table", "one paragraph"),
}
CHATTER: Final = (
    "ok thanks", "lol", "brb", "sounds good", "cool", "nice one", "haha ok", "good morning",
    "thanks!", "sure", "np", "ok", "great, thanks", "random thought, nothing important", "k",
)
EPISODES: Final = (
    "I had a long call this morning.", "The demo yesterday went fine.", "We met the vendor last week.",
    "Traffic was terrible today.", "I visited the office earlier.",
)
QUESTIONS: Final = (
    "What time is it in Tokyo?", "Can you explain what a p-value is?", "How do I rename a git branch?",
    "What's a good name for a team channel?",
)
STATE_SHARE: Final = 0.18
"""Share of turns that state or update a fact."""


@dataclass(frozen=True, slots=True)
class _Attribute:
    subject: str  # a project name, or "user"
    attribute: str
    values: tuple[str, ...]


def _statement(rng: random.Random, attr: _Attribute, value: str, old: str | None) -> str:
    if attr.subject == "user":
        if old is None:
            return rng.choice((
                f"User preference: my {attr.attribute} is {value}.",
                f"I prefer {value} for my {attr.attribute}.",
                f"Remember that my {attr.attribute} preference is {value}.",
            ))
        return rng.choice((
            f"Update: my {attr.attribute} preference is now {value}, not {old}.",
            f"Correction: I prefer {value} for my {attr.attribute} from now on.",
            f"Preference update: my {attr.attribute} changed from {old} to {value}.",
        ))
    if old is None:
        return rng.choice((
            f"Project {attr.subject} {attr.attribute}: {value}.",
            f"The {attr.attribute} for Project {attr.subject} is {value}.",
            f"Important: Project {attr.subject} has {value} as its {attr.attribute}.",
        ))
    return rng.choice((
        f"Update: Project {attr.subject} {attr.attribute} changed from {old} to {value}.",
        f"Correction: the {attr.attribute} for Project {attr.subject} is now {value}, not {old}.",
        f"Update: Project {attr.subject} {attr.attribute} is now {value}.",
    ))


def _query(attr: _Attribute) -> str:
    if attr.subject == "user":
        return f"Please plan around my {attr.attribute} for the next trip."
    return f"What is the current {attr.attribute} of Project {attr.subject}?"


def generate_seed_shape(turns: int = 10_000, seed: int = 7) -> GeneratedBenchmark:
    """A session of the seed harness's shape and its answer key.

    Args:
        turns: Messages in the session (at least 200).
        seed: Random seed.

    Returns:
        The messages (what the policies see) and the key (what the scorer reads).
    """
    if turns < 200:
        raise ValueError("a seed-shape session needs at least 200 turns")
    rng = random.Random(f"seed-shape:{seed}")
    n_subjects = max(3, min(len(SUBJECTS), turns // 500))
    attrs = [_Attribute(s, a, v) for s in SUBJECTS[:n_subjects] for a, v in ATTRIBUTES.items()]
    attrs += [_Attribute("user", a, v) for a, v in PREFERENCES.items()]
    first_checkpoint = int(turns * 0.8)
    cp_turns = [first_checkpoint + (turns - first_checkpoint) * i // 8 for i in range(1, 9)]
    user_turns = [t for t in range(2, turns + 1, 2) if t not in cp_turns]
    n_state = min(int(STATE_SHARE * len(user_turns)), len(user_turns) - 10)
    state_turns = sorted(rng.sample(user_turns, n_state))
    # every attribute is stated once in the first three quarters, then updated at random later turns
    early = [t for t in state_turns if t < turns * 0.75]
    firsts = dict(zip(rng.sample(early, len(attrs)), attrs, strict=True))
    rest = [t for t in state_turns if t not in firsts]
    plan: dict[int, tuple[_Attribute, bool]] = {t: (a, True) for t, a in firsts.items()}
    first_turn = {a: t for t, a in firsts.items()}
    for turn in rest:
        candidates = [a for a in attrs if first_turn[a] < turn]
        if candidates:
            plan[turn] = (rng.choice(candidates), False)

    system = "You are a planning assistant. Keep track of the user's projects."
    messages = [PolicyMessage(1, "system", system)]
    labels: dict[int, TurnLabel] = {1: TurnLabel(1, Label.OTHER, kind="system")}
    current: dict[_Attribute, tuple[str, list[int]]] = {}
    checkpoints: list[Checkpoint] = []
    last_user_text = ""
    for turn in range(2, turns + 1):
        if turn % 2 == 0:
            if turn in cp_turns:
                attr = rng.choice([a for a in attrs if a in current])
                text = _query(attr)
                checkpoints.append(Checkpoint(turn, text, (current[attr][1][0],)))
                labels[turn] = TurnLabel(turn, Label.OTHER, kind="query")
            elif turn in plan:
                attr, _first = plan[turn]
                old = current.get(attr)
                value = rng.choice([v for v in attr.values if old is None or v != old[0]])
                named_old = old[0] if old is not None and rng.random() < 0.5 else None
                text = _statement(rng, attr, value, named_old if old is not None else None)
                if old is not None and named_old is None and "now" not in text:
                    text = text.rstrip(".") + " now."
                if old is not None:
                    for stale_turn in old[1]:
                        row = labels[stale_turn]
                        labels[stale_turn] = TurnLabel(stale_turn, row.label, turn, row.kind)
                labels[turn] = TurnLabel(turn, Label.CRITICAL, kind="update" if old else "fact")
                current[attr] = (value, [turn])
            else:
                roll = rng.random()
                if roll < 0.75:
                    text = rng.choice(CHATTER)
                    labels[turn] = TurnLabel(turn, Label.NOISE, kind="chatter")
                elif roll < 0.9:
                    text = rng.choice(EPISODES)
                    labels[turn] = TurnLabel(turn, Label.OTHER, kind="episode")
                else:
                    text = rng.choice(QUESTIONS)
                    labels[turn] = TurnLabel(turn, Label.NOISE, kind="question")
            last_user_text = text
            messages.append(PolicyMessage(turn, "user", text))
            continue
        previous = labels.get(turn - 1)
        if previous is not None and previous.label is Label.CRITICAL and rng.random() < 0.5:
            text = f"Noted: {last_user_text.rstrip('.')}."
            labels[turn] = TurnLabel(turn, Label.OTHER, kind="echo")
            for _attr, (_value, turns_of) in current.items():
                if turns_of and turns_of[0] == turn - 1:
                    turns_of.append(turn)
        else:
            text = rng.choice(("Sure.", "Got it.", "Okay!", "Happy to help.", "Done."))
            labels[turn] = TurnLabel(turn, Label.NOISE, kind="ack")
        messages.append(PolicyMessage(turn, "assistant", text))
    meta = {"generator": "seed-shape", "turns": str(turns), "seed": str(seed)}
    key = AnswerKey(labels, tuple(checkpoints), meta)
    return GeneratedBenchmark(tuple(messages), key)
