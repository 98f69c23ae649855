"""The ledger: which claims are in force and which a later claim superseded.

The tracker keeps every message it has read and learns names (from capitalisation) and paradigms
(:mod:`.paradigms`) from each batch of new ones. Whenever it is asked after reading new ones, every
message is read for its claim (:mod:`.claims`) under all it has learnt — the new messages, and the
earlier ones whose reading asked about a word or a run of words whose answer has since changed
(:class:`SupersessionTracker`) — and the claims are replayed in turn order:

* an authoritative claim (user, system or tool) with a key ``(subject, kind)`` and a value
  *supersedes* the claims in force under that key with another value when it is worded as a
  change ("now", "instead", "moved", "from X to Y"), names the value it replaces ("not Lisbon"),
  says it in the same frame of words as the earlier claim, was acknowledged by the other party
  (the next message restates its value: it became common ground), or uses wording in which this
  conversation's acknowledged statements of that kind were made. Otherwise both stay in force:
  a value of one kind said about a subject in wording never taken up ("The Atlas mountains hike is
  on Friday") does not retire its launch day;
* a claim naming a replaced value ("instead of Slack") supersedes the claim in force about the same
  subject that set it, whatever the kind;
* a claim of the same value confirms the one in force; a refinement ("not just", "as well as")
  adds to it;
* assistant claims are echoes: they never supersede, and are retired with the value they repeat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from .chat import normalise
from .claims import (
    NAME_KIND,
    Analysis,
    Claim,
    Knowledge,
    Lookups,
    analyse,
    extract_claim,
    note_topics,
    read_sentence,
)
from .lexicon import (
    CALENDAR_WORDS,
    GENERIC,
    NAME_WORD,
    NOT_NAMES,
    PRONOUN_AFTER,
    TASK_VERB,
    at_sentence_start,
    split_sentences,
)
from .records import PolicyMessage
from .text import STOP_WORDS, stem


@dataclass
class Ledger:
    """What the tracker concluded from a prefix of the session.

    Attributes:
        current: Per ``(subject, kind)``, the turns of the authoritative claims in force.
        superseded: Turns of claims (of any kind, echoes included) replaced by a later claim.
        claims: Every claim by turn.
        echoes: Per key, the assistant claims not yet retired.
    """

    current: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    superseded: set[int] = field(default_factory=set)
    claims: dict[int, Claim] = field(default_factory=dict)
    echoes: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    by_entity: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """Per subject or value, the keys of the claims that involve it."""
    replaced_by: dict[int, int] = field(default_factory=dict)
    """Per superseded turn, the turn of the claim that superseded it."""
    open_claims: dict[str, list[int]] = field(default_factory=dict)
    """Per subject, the authoritative claims in force that set no value of a known kind (and say
    at least :data:`OPEN_FRAME` content words)."""
    grounded_frames: dict[str, set[str]] = field(default_factory=dict)
    """Per kind of value, the words around the values of claims the other party acknowledged: the
    wording in which this conversation states that kind of thing."""

    def _retire(self, turn: int, by: int) -> None:
        self.superseded.add(turn)
        self.replaced_by[turn] = by

    def record(self, claim: Claim, grounded: bool = False) -> None:
        """Replay one claim (turn order).

        Args:
            claim: The claim.
            grounded: Whether the next speaker acknowledged it by restating its value.
        """
        self.claims[claim.turn] = claim
        keys = claim.keys
        for key in keys:
            for entity in (claim.subject, claim.values[key[1]]):
                self.by_entity.setdefault(entity, set()).add(key)
        if not claim.authoritative:
            for key in keys:
                self.echoes.setdefault(key, []).append(claim.turn)
            return
        if claim.replaced and not claim.refines and not _denial(claim):
            self._retire_named(claim)
        if not any(_known_kind(kind) for kind in claim.values):
            self._record_open(claim)
        for key in keys:
            value = claim.values[key[1]]
            previous = self.current.get(key, [])
            if claim.refines or claim.words > MAX_UPDATE_WORDS:
                self.current[key] = [*previous, claim.turn]
                continue
            kept = []
            for turn in previous:
                old = self.claims[turn]
                if turn in self.superseded:
                    continue
                if old.values.get(key[1]) != value and (grounded or self._decisive(claim, old, key[1])):
                    self._retire(turn, claim.turn)
                else:
                    kept.append(turn)
            self.current[key] = [*kept, claim.turn]
            self._retire_echoes(key, {self.claims[t].values[key[1]] for t in self.current[key]}, claim.turn)

    def _record_open(self, claim: Claim) -> None:
        """A claim of no known kind (a short session has taught none) replaces the open claims
        about its subject that it shares words with, or whose words it names as replaced, when it
        is worded as a change ("I'd rather have a window seat from now on")."""
        turns = self.open_claims.setdefault(claim.subject, [])
        replacing = claim.change or (claim.replaced and not _denial(claim))
        if replacing and not claim.refines and claim.words <= MAX_UPDATE_WORDS:
            kept = []
            for turn in turns:
                old = self.claims[turn]
                replaced = _same_wording(old.frame, claim.frame) or _says_replaced(old, claim)
                if turn not in self.superseded and replaced:
                    self._retire(turn, claim.turn)
                else:
                    kept.append(turn)
            turns[:] = kept
        if len(claim.frame) >= OPEN_FRAME:
            turns.append(claim.turn)

    def _decisive(self, new: Claim, old: Claim, kind: str) -> bool:
        """Whether ``new`` replaces ``old`` (same key, another value) rather than adding to it."""
        if new.change or new.replaced or new.frame & old.frame:
            return True
        return bool(new.frame & self.grounded_frames.get(kind, set()))

    def _retire_named(self, claim: Claim) -> None:
        """Retire the claims in force that involve the claim's subject (as their subject or as a
        value) and set a value it names as replaced ("Marcus is taking over Atlas from Priya")."""
        for key in list(self.by_entity.get(claim.subject, ())):
            turns = self.current.get(key)
            if not turns:
                continue
            kept = []
            for turn in turns:
                old = self.claims[turn]
                said = [v for v in (old.subject, old.values[key[1]]) if v != claim.subject]
                if any(_names_value(claim.replaced, v) for v in said):
                    self._retire(turn, claim.turn)
                else:
                    kept.append(turn)
            self.current[key] = kept
            in_force = {self.claims[t].values[key[1]] for t in kept} | {claim.values.get(key[1], "")}
            self._retire_echoes(key, in_force, claim.turn)
        # and a statement of the subject whose value had no learnt kind ("Helix is winding down" →
        # "Helix went from winding down to paused"): what it said is named as replaced
        turns = self.open_claims.get(claim.subject)
        if turns:
            kept_open = []
            for turn in turns:
                old = self.claims[turn]
                if turn != claim.turn and turn not in self.superseded and _says_replaced(old, claim):
                    self._retire(turn, claim.turn)
                else:
                    kept_open.append(turn)
            turns[:] = kept_open

    def _retire_echoes(self, key: tuple[str, str], in_force: set[str], by: int) -> None:
        turns = self.echoes.get(key)
        if not turns:
            return
        kept = []
        for turn in turns:
            if self.claims[turn].values[key[1]] in in_force:
                kept.append(turn)
            else:
                self._retire(turn, by)
        self.echoes[key] = kept


MAX_UPDATE_WORDS: Final = 24
"""Longest assertive part of a statement that replaces others by kind: a correction or an update
is a short turn; a long one narrates, and adds to what is in force."""

OPEN_FRAME: Final = 1
"""Content words an open claim needs to be kept ("ok, sure" states nothing)."""


def _denial(claim: Claim) -> bool:
    """A negation that sets no value and is not worded as a change ("Tom is not off to Oslo, that
    was a joke"): it denies what someone proposed, and replaces nothing."""
    return not claim.values and not claim.change


def _says_replaced(old: Claim, new: Claim) -> bool:
    """Whether ``new`` names as replaced a content word of what ``old`` said (its words around
    the values, stemmed, or its values)."""
    said = old.frame | {w for v in old.values.values() for w in v.split()}
    named = new.replaced | {stem(w) for w in new.replaced if w not in STOP_WORDS and w not in GENERIC}
    return not said.isdisjoint(named)


def _same_wording(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two content words in common: chat repeats single words ("the studio") without changing anything."""
    return len(a & b) >= 2


RELATION_SHARE: Final = 0.9
"""Share of its statements in which a kind of word comes with another value for it to name the
relation ("the *deadline* for Atlas is Friday") rather than be the value."""
RELATION_MIN: Final = 5
"""Statements a kind needs before it can be judged a relation."""


def _without_relations(claims: list[Claim | None]) -> list[Claim | None]:
    """Claims with the kinds that name a relation taken out of their values.

    A kind whose words almost always come with another value in the same statement ("the
    *deadline* for Atlas is Friday", "the *owner* for Atlas is Priya") is the relation head, not a
    value: kept as a value, "deadline" and "owner" would be two values of one attribute. So is a
    kind whose words almost always stand as a message's whole last line: the place of a sign-off
    ("… / talk later", "… / back to it"), a formula closing the message, not what it says.
    """
    seen: dict[str, int] = {}
    paired: dict[str, int] = {}
    closing: dict[str, int] = {}
    for claim in claims:
        if claim is None or not claim.authoritative:
            continue
        for kind in claim.values:
            seen[kind] = seen.get(kind, 0) + 1
            if len(claim.values) > 1:
                paired[kind] = paired.get(kind, 0) + 1
            if kind in claim.closing:
                closing[kind] = closing.get(kind, 0) + 1
    relations = {
        kind for kind, count in seen.items()
        if count >= RELATION_MIN and _known_kind(kind) and not kind.startswith("<")
        and RELATION_SHARE * count <= max(paired.get(kind, 0), closing.get(kind, 0))
    }
    if not relations:
        return claims
    return [
        c if c is None or relations.isdisjoint(c.values)
        else replace(c, values={k: v for k, v in c.values.items() if k not in relations})
        for c in claims
    ]


def _known_kind(kind: str) -> bool:
    """A type or a kind the session taught, not a name seen beside no other."""
    return not kind.startswith(NAME_KIND)


def _acknowledges(reply: Claim | None, claim: Claim) -> bool:
    """Whether ``reply``, the next message, is the other party restating ``claim``'s value about
    its subject ("Noted: Atlas ships Friday"): the claim was taken up as the new common ground."""
    if reply is None or reply.authoritative == claim.authoritative or reply.subject != claim.subject:
        return False
    return any(reply.values.get(kind) == value for kind, value in claim.values.items())


def _names_value(replaced: frozenset[str], value: str) -> bool:
    words = value.split()
    return value in replaced or (bool(words) and all(w in replaced or w in STOP_WORDS for w in words))


class SupersessionTracker:
    """Reads messages in order; :attr:`ledger` is what they say is in force.

    Every message is read against all that the session has taught so far, so a name or a kind
    learnt late changes how an early message reads. Re-reading the whole history at every question
    would cost its length each time; instead each message's reading (:func:`~.claims.analyse`)
    is kept with what it asked of the knowledge (:class:`~.claims.Lookups`), and only the messages
    that asked about a word which has since become a name, or a filler whose kind has since changed,
    are read again: exactly what reading everything again would give.
    """

    def __init__(self) -> None:
        self.knowledge = Knowledge()
        self.messages: list[PolicyMessage] = []
        self.read_through = -1
        """The last turn read (-1 before any)."""
        self._ledger: Ledger | None = None
        self._analyses: list[Analysis | None] = []
        """Per message read and analysed so far, its reading (None: it asserts nothing current)."""
        self._asked_word: dict[str, set[int]] = {}
        """Per word looked up as a name (lower-case), the indexes of the messages that asked."""
        self._asked_filler: dict[str, set[int]] = {}
        """Per filler looked up as a value, the indexes of the messages that asked."""
        self._new_names: set[str] = set()
        """Names learnt since the last replay."""

    @property
    def names(self) -> set[str]:
        """Names learnt so far."""
        return self.knowledge.names

    @property
    def ledger(self) -> Ledger:
        """The claims in force and those superseded, over every message read."""
        if self._ledger is None:
            self._ledger = self._replay()
        return self._ledger

    def read(self, message: PolicyMessage) -> Claim | None:
        """Read the next message (turn order).

        Args:
            message: The message.

        Returns:
            The claim it makes, if any.
        """
        self.read_many([message])
        return self.ledger.claims.get(message.turn)

    def read_many(self, messages: Sequence[PolicyMessage]) -> None:
        """Read a batch of new messages (those after :attr:`read_through`, in turn order).

        Names are learnt from the whole batch first, so that a name which only ever starts a sentence
        in one message ("Chen works as ...") is recognised when another uses it mid-sentence.

        Args:
            messages: Messages, in turn order.
        """
        fresh = [m for m in messages if m.turn > self.read_through]
        if not fresh:
            return
        for message in fresh:
            self._learn_names(normalise(message.content))
        for message in fresh:
            for sentence in split_sentences(normalise(message.content)):
                reading = read_sentence(sentence, self.knowledge)
                self.knowledge.paradigms.learn(reading.tokens, reading.names())
        self.messages += fresh
        self.read_through = fresh[-1].turn
        self._ledger = None

    def _analyse(self) -> list[Analysis | None]:
        """Every message's reading under the present knowledge, reading again only those whose
        lookups may now be answered differently."""
        dirty = set(range(len(self._analyses), len(self.messages)))
        self._analyses += [None] * len(dirty)
        for name in self._new_names:
            dirty |= self._asked_word.pop(name.lower(), set())
        self._new_names = set()
        for filler in self.knowledge.paradigms.take_changed():
            dirty |= self._asked_filler.pop(filler, set())
        for index in dirty:
            lookups = Lookups()
            self._analyses[index] = analyse(self.messages[index], self.knowledge, lookups)
            for word in lookups.words:
                self._asked_word.setdefault(word, set()).add(index)
            for filler in lookups.fillers:
                self._asked_filler.setdefault(filler, set()).add(index)
        return self._analyses

    def _replay(self) -> Ledger:
        knowledge = self.knowledge
        knowledge.topics = {}
        analyses = self._analyse()
        for analysis in analyses:
            if analysis is not None:
                note_topics(analysis, knowledge)
        claims = _without_relations([
            extract_claim(m, knowledge, a) if a is not None else None
            for m, a in zip(self.messages, analyses, strict=True)
        ])
        grounded = {
            index for index, claim in enumerate(claims[:-1])
            if claim is not None and _acknowledges(claims[index + 1], claim)
        }
        ledger = Ledger()
        for index in grounded:
            claim = claims[index]
            assert claim is not None
            for kind in claim.values:
                ledger.grounded_frames.setdefault(kind, set()).update(claim.frame)
        for index, claim in enumerate(claims):
            if claim is not None:
                ledger.record(claim, index in grounded)
        return ledger

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
            if lower in CALENDAR_WORDS or lower in NOT_NAMES or lower in STOP_WORDS:
                continue
            if at_sentence_start(text, match.start()):
                imperative = TASK_VERB.match(text[match.start() :]) is not None or PRONOUN_AFTER.match(
                    text, match.end()
                ) is not None
                if word not in knowledge.names and lower not in knowledge.lower_seen and not imperative:
                    knowledge.tentative.add(word)
                continue
            if word not in knowledge.names:
                knowledge.names.add(word)
                self._new_names.add(word)
            knowledge.tentative.discard(word)
