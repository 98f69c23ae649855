"""The ledger: which claims are in force and which a later claim superseded.

The tracker reads each message once, in order, and extracts at most one *claim*: a statement that
sets an attribute (a *slot*) of a *subject*. A later claim about the same ``(subject, slot)``
supersedes the earlier ones unless it is worded as a refinement ("not just", "as well as"). It works
only from the text it is given: :mod:`.lexicon` decides what a message asserts and what it negates,
:mod:`.claims` which subject and attribute that is about and how sure it is.

:class:`SupersessionTracker` reads messages in turn order, learns names from them, asks
:mod:`.claims` for each message's claim and records it: a strong authoritative claim retires the
earlier claims, weak claims and echoes of its ``(subject, slot)``; a weak one retires only earlier
weak claims worded the same way with another value; assistant claims are echoes and never retire
anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .claims import Claim, Knowledge, extract_claim, name_in_values, same_frame
from .lexicon import (
    CALENDAR_WORDS,
    GENERIC,
    NAME_WORD,
    NOT_NAMES,
    PROJECT_NEAR,
    PRONOUN_AFTER,
    SENTENCE_START,
    SLOT_BY_NAME,
    TASK_VERB,
)
from .records import PolicyMessage
from .text import STOP_WORDS


@dataclass
class Ledger:
    """What the tracker knows after reading a prefix of the session.

    Attributes:
        current: Per ``(subject, slot)``, the turns of the strong authoritative claims in force.
        weak: Per ``(subject, slot)``, weak authoritative claims not yet superseded.
        superseded: Turns of claims (of any kind) replaced by a later strong authoritative claim.
        claims: Every claim by turn.
        echoes: Non-authoritative claims per key not yet superseded.
    """

    current: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    weak: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    superseded: set[int] = field(default_factory=set)
    claims: dict[int, Claim] = field(default_factory=dict)
    echoes: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    open_slots: dict[str, list[str]] = field(default_factory=dict)
    """Per subject, its attributes outside the known kinds (``open:<turn>``)."""


class SupersessionTracker:
    """Reads messages in order and keeps the :class:`Ledger` up to date."""

    def __init__(self) -> None:
        self.knowledge = Knowledge()
        self.ledger = Ledger()
        self.read_through = -1
        """The last turn read (-1 before any)."""

    @property
    def names(self) -> set[str]:
        """Names learnt so far."""
        return self.knowledge.names

    @property
    def projects(self) -> set[str]:
        """Names known to be projects."""
        return self.knowledge.projects

    def read(self, message: PolicyMessage) -> Claim | None:
        """Read the next message (turn order) and update the ledger.

        Args:
            message: The message.

        Returns:
            The claim it makes, if any.
        """
        if message.turn <= self.read_through:
            return self.ledger.claims.get(message.turn)
        self._learn_names(message.content)
        return self._extract(message)

    def _extract(self, message: PolicyMessage) -> Claim | None:
        self.read_through = message.turn
        claim = extract_claim(message, self.knowledge, self.ledger)
        if claim is None:
            return None
        self._record(claim)
        return claim

    def read_many(self, messages: Sequence[PolicyMessage]) -> None:
        """Read a batch of new messages: learn the names in all of them, then extract in order.

        Learning first means a name that only ever starts a sentence in one message ("Chen works as
        ...") is still recognised when another message of the batch uses it mid-sentence.

        Args:
            messages: Messages after :attr:`read_through`, in turn order.
        """
        fresh = [m for m in messages if m.turn > self.read_through]
        for message in fresh:
            self._learn_names(message.content)
        for message in fresh:
            if message.turn > self.read_through:
                self._extract(message)

    def _record(self, claim: Claim) -> None:
        ledger, knowledge = self.ledger, self.knowledge
        ledger.claims[claim.turn] = claim
        spec = SLOT_BY_NAME.get(claim.slot)
        if spec is None:  # an open attribute
            slots = ledger.open_slots.setdefault(claim.subject, [])
            if claim.slot not in slots:
                slots.append(claim.slot)
        elif claim.subject != "user" and not claim.subject.startswith("user:"):
            name = next((n for n in knowledge.names if n.lower() == claim.subject), None)
            if name is not None and claim.strong and claim.slot in ("schedule", "budget"):
                knowledge.projects.add(name)
            if name is not None and claim.strong and spec.holder == "person":
                knowledge.people.add(name)
            if claim.slot == "office" and claim.strong:
                knowledge.places.update(n for n in knowledge.names if name_in_values(n, claim.values))
            if claim.slot == "owner" and claim.strong:
                knowledge.people.update(n for n in knowledge.names if name_in_values(n, claim.values))
        if claim.strong and spec is not None:
            counter = knowledge.slot_values.setdefault(claim.slot, Counter())
            counter.update(claim.values)
        if not claim.authoritative:
            ledger.echoes.setdefault(claim.key, []).append(claim.turn)
            return
        if not claim.strong:
            # a weak claim retires only earlier weak ones worded the same way with another value
            # ("The review is on June 3." → "The review is on June 10."), and only for a known kind
            # of attribute: two chat lines sharing words do not make one replace the other
            kept = []
            known_kind = spec is not None and spec.holder != "user"
            for turn in ledger.weak.get(claim.key, []):
                old = ledger.claims[turn]
                same = same_frame(old.frame, claim.frame) or not (old.frame or claim.frame)
                if known_kind and not claim.refines and old.values and old.values != claim.values and same:
                    ledger.superseded.add(turn)
                else:
                    kept.append(turn)
            ledger.weak[claim.key] = [*kept, claim.turn]
            return
        previous = ledger.current.get(claim.key, [])
        if claim.refines:
            ledger.current[claim.key] = [*previous, claim.turn]
            return
        # a statement of the same value confirms what is in force; it replaces only other values
        confirmed = [t for t in previous if _confirms(claim, ledger.claims[t])]
        ledger.superseded.update(t for t in previous if t not in confirmed)
        ledger.current[claim.key] = [*confirmed, claim.turn]
        for pool in (ledger.weak, ledger.echoes):
            turns = pool.pop(claim.key, [])
            kept = [t for t in turns if _confirms(claim, ledger.claims[t])]
            ledger.superseded.update(t for t in turns if t not in kept)
            if kept:
                pool[claim.key] = kept

    def _learn_names(self, text: str) -> None:
        knowledge = self.knowledge
        for match in NAME_WORD.finditer(text):
            word = match.group(0).replace("’", "'")
            if word.endswith("'s"):
                word = word[:-2]
            if word[:1].islower():
                if word not in knowledge.lower_seen:
                    knowledge.lower_seen.add(word)
                    knowledge.tentative.discard(word.capitalize())
                continue
            if len(word) < 2 or not word[1:].islower():
                continue
            lower = word.lower()
            if lower in CALENDAR_WORDS or lower in NOT_NAMES or lower in STOP_WORDS or lower in GENERIC:
                continue
            if SENTENCE_START.search(text[: match.start()]):
                imperative = TASK_VERB.match(text[match.start() :]) is not None or PRONOUN_AFTER.match(
                    text, match.end()
                ) is not None
                if word not in knowledge.names and lower not in knowledge.lower_seen and not imperative:
                    knowledge.tentative.add(word)
                continue
            knowledge.names.add(word)
            knowledge.tentative.discard(word)
        for match in PROJECT_NEAR.finditer(text):
            name = match.group(1) or match.group(2)
            if name[:1].islower():
                name = next((n for n in knowledge.names if n.lower() == name), "")
            if name and name.lower() not in NOT_NAMES and name.lower() not in CALENDAR_WORDS:
                knowledge.projects.add(name)
                knowledge.names.add(name)
                knowledge.tentative.discard(name)


def _confirms(new: Claim, old: Claim) -> bool:
    """Whether ``new`` restates the value ``old`` set (so it does not replace it)."""
    return bool(new.values) and new.values == old.values
