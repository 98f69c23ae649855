"""Supersession from wording: which statements a later statement about the same subject replaces.

The tracker reads each message once, in order, and extracts at most one *claim*: a statement that
sets an attribute (a *slot*) of a *subject*. A later claim about the same ``(subject, slot)``
supersedes the earlier ones, unless it is worded as a refinement ("not just", "as well as"). It works
only from the text it is given:

* **Not a claim**: questions; requests to the assistant ("Send the status to ..."); hedged or
  hypothetical wording ("what if", "maybe", "might", "rumours"); denials of a change ("not moving
  ... ignore that"); outdated notes; past episodes ("yesterday", "last year"); other people's
  habits ("my sister", "X's partner").
* **Subject**: the speaker for personal attributes worded in the first person or as a standing
  instruction ("from now on", "always") and not about a project; otherwise a named entity. Names
  are learnt from the session itself: a capitalised word seen mid-sentence is a name from then on
  (so "Priya leads Atlas." is understood once Priya was seen mid-sentence), and a name seen next to
  "project" is a project.
* **Slot**: one of a small, fixed set of attribute kinds, each recognised by generic cue words and,
  where it has one, the type of its value (a day or date for a schedule, an amount for a budget, a
  place for an office). The cue lists are below in :data:`SLOT_CUES`; this is the policy's domain
  knowledge, and what it does not list it cannot track (such statements still reach the prompt
  through retrieval and the recent window, just without supersession).

Assistant messages are read too but are not authoritative: their claims (acknowledgements such as
"Noted: Atlas launches Friday") never supersede anything, and are themselves superseded by the next
authoritative claim about the same slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from .records import PolicyMessage

AUTHORITATIVE_ROLES: Final = frozenset({"user", "system", "tool"})
"""Roles whose claims supersede earlier ones."""


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


NOT_A_CLAIM: Final = _rx(
    r"\?|\bwhat if\b|\bmaybe\b|\bperhaps\b|\bmight\b|\bcould\b|\bwould\b|\bimagine\b|\bsuppose\b"
    r"|\bthinking out loud\b|\bno idea\b|\bnot sure\b|\bconsidering\b|\brumou?rs?\b|\bsomeone said\b"
    r"|\bhearing\b|\bapparently\b|\bunconfirmed\b|\bnothing confirmed\b|\bnot confirmed\b|\bif we\b"
    r"|\bin theory\b|\bwish\b|\bhopefully\b"
    r"|\b(?:not|never|n't)\s+(?:moving|changing|going to|shipping|launching|switching|happening)\b"
    r"|\bignore that\b|\bnever mind\b|\boutdated\b|\bout of date\b|\bold notes\b|\bused to\b"
    r"|\byesterday\b|\blast (?:week|year|night|month)\b|\bthis morning\b"
    r"|\bmy (?:sister|brother|mom|mum|dad|mother|father|partner|wife|husband|kids?|son|daughter"
    r"|friends?|neighbou?rs?|cousins?|roommates?)\b|'s (?:partner|kids?|wife|husband|mom|dad|friends?)\b"
)
"""Wording that does not assert a current fact."""

REQUEST: Final = _rx(
    r"^\s*(?:can you|could you|would you|will you|please|send|draft|list|summari[sz]e|plan|write|find"
    r"|prepare|tidy|check|remind|book my|schedule my|show)\b"
)
"""A request to the assistant ("Send the Kestrel status to ..."), which asserts nothing."""

REFINES: Final = _rx(r"\bnot just\b|\bas well as\b|\bin addition to\b|\bon top of\b")
"""Wording that adds to an earlier statement instead of replacing it."""

FIRST_PERSON: Final = _rx(r"\b(?:i|me|my|mine|i'm|i've|i'd|i'll)\b")

STANDING: Final = _rx(
    r"\bfrom now on\b|\bgoing forward\b|\bfrom here on\b|\balways\b|\bnever\b|\bonly\b"
    r"|\bthese days\b|\banymore\b|\bfor good\b"
)
"""Standing wording: an elliptical statement with it ("Switching to vegan from now on") is the
speaker's own, like first-person wording."""

DAY_VALUE: Final = _rx(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week)\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\bthe \d{1,2}(?:st|nd|rd|th)\b|\b\d{4}-\d{2}-\d{2}\b"
)
MONEY_VALUE: Final = _rx(r"[$€£]\s?\d[\d,.]*\s?[km]?\b|\b\d[\d,.]*\s?(?:k|dollars|euros|usd|eur)\b")

def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


CALENDAR_WORDS: Final = _word_set(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
    "july august september october november december"
)

NOT_NAMES: Final = _word_set(
    "i i'm i've i'd i'll ok okay tl;dr tl dr qa update heads change legal finance status new scratch "
    "mark the launch we project reports switch actually make doctor's doctor put best use ping reach "
    "meetings from right as noted got on for my"
)
"""Capitalised words that are not names even when seen mid-sentence."""


@dataclass(frozen=True, slots=True)
class SlotCue:
    """How one kind of attribute is recognised.

    Attributes:
        slot: The attribute kind.
        personal: True for the speaker's own attributes (needs first-person wording).
        cue: Words that signal the attribute.
        value: A value pattern the statement must also contain, if any.
        project: True when the subject should be a project (preferred over other names).
        needs_second_name: True when the value is itself a name (an owner, a city).
    """

    slot: str
    personal: bool
    cue: re.Pattern[str]
    value: re.Pattern[str] | None = None
    project: bool = False
    needs_second_name: bool = False


SLOT_CUES: Final[tuple[SlotCue, ...]] = (
    SlotCue(
        "schedule", False,
        _rx(r"\blaunch|\bship|\bgo(?:es|ing)? live\b|\brelease|\blands?\b|\bgoing out\b|\bput\b.*\bout\b"
            r"|\bdate\b|\bslipped\b|\bpushed\b|\bresched|\bmoves?\b|\bmoved\b|\bdeadline\b|\bdue\b"),
        DAY_VALUE, project=True,
    ),
    SlotCue("budget", False, _rx(r"."), MONEY_VALUE, project=True),
    SlotCue(
        "owner", False,
        _rx(r"\bleads\b|\bowned by\b|\bowns\b|\bowner\b|\bpoint person\b|\bruns\b|\breports to\b"
            r"|\btaking over\b|\bhanding\b|\bstepped back\b|\bin charge\b"),
        project=True, needs_second_name=True,
    ),
    SlotCue(
        "venue", False,
        _rx(r"\bvenue\b|\bbook(?:ed|ing)\b|\bheld at\b|\bevent\b|\bparty\b|\bkickoff\b|\bwhere\b"
            r"|\broom\b|\bhall\b|\bterrace\b|\batrium\b|\bloft\b|\bauditorium\b|\bpier\b|\blobby\b"),
        project=True,
    ),
    SlotCue(
        "status", False,
        _rx(r"\bon track\b|\boff track\b|\bblocked\b|\bat risk\b|\bpaused\b|\bon hold\b"
            r"|\bin beta\b|\bcode complete\b|\bdelayed\b|\bcancell?ed\b|\bfeature complete\b"),
        project=True,
    ),
    SlotCue(
        "office", False,
        _rx(r"\bbased in\b|\bworks out of\b|\boffice\b|\bsits in\b|\brelocated\b|\bmoved (?:from|to)\b"
            r"|\btransferred\b|\bis in\b|\blives in\b"),
        needs_second_name=True,
    ),
    SlotCue(
        "role", False,
        _rx(r"\bpromoted\b|\bjoined as\b|\bworks as\b|\brole\b|\bis our\b|\bis the new\b|\btitle\b"
            r"|\bengineer\b|\bmanager\b|\bdesigner\b|\bscientist\b|\blead\b|\banalyst\b|\bdirector\b"),
    ),
    SlotCue(
        "diet", True,
        _rx(r"\bvegetarian\b|\bvegan\b|\bpescatarian\b|\bgluten|\bhalal\b|\bkosher\b|\bdairy|\bdiet\b"
            r"|\beat\b|\bmeals?\b|\blunch\b|\bfood\b|\bmeat\b|\bcatered\b|\ballerg"),
    ),
    SlotCue(
        "seat", True, _rx(r"\bseats?\b|\baisle\b|\bwindow\b|\bexit row\b|\bflying\b|\bflights?\b|\bplanes?\b")
    ),
    SlotCue(
        "contact", True,
        _rx(r"\breach me\b|\bping me\b|\bcontact\b|\bneed me\b|\bi'm off\b|\btext me\b|\bcall me\b"),
    ),
    SlotCue("meetings", True, _rx(r"\bmeetings?\b|\bcalls\b|\bcalendar\b|\bfocus time\b")),
    SlotCue("reports", True, _rx(r"\breports?\b|\bsummar(?:y|ies)\b|\bformat\b|\btl;dr\b")),
)

_WORD: Final = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE_START: Final = re.compile(r"(?:^|[.!?:;]\s+|\n)\s*$")
_PROJECT_NEAR: Final = re.compile(r"\b[Pp]roject ([A-Z][a-z]+)|\b([A-Z][a-z]+) project\b")


@dataclass(frozen=True, slots=True)
class Claim:
    """A statement that sets one attribute of one subject.

    Attributes:
        turn: The message's turn.
        subject: ``user`` for the speaker, otherwise a name (lower-case).
        slot: The attribute kind.
        refines: True when it adds to the earlier statement instead of replacing it.
        authoritative: False for assistant messages (they echo; they do not decide).
    """

    turn: int
    subject: str
    slot: str
    refines: bool
    authoritative: bool

    @property
    def key(self) -> tuple[str, str]:
        """The ``(subject, slot)`` a claim is about."""
        return (self.subject, self.slot)


@dataclass
class Ledger:
    """What the tracker knows after reading a prefix of the session.

    Attributes:
        current: Per ``(subject, slot)``, the turns of the authoritative claims in force.
        superseded: Turns of claims (authoritative or not) replaced by a later authoritative claim.
        claims: Every claim by turn.
    """

    current: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    superseded: set[int] = field(default_factory=set)
    claims: dict[int, Claim] = field(default_factory=dict)
    echoes: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """Non-authoritative claims per key not yet superseded."""


class SupersessionTracker:
    """Reads messages in order and keeps the :class:`Ledger` up to date."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.projects: set[str] = set()
        self.ledger = Ledger()
        self.read_through = -1
        """The last turn read (-1 before any)."""

    def read(self, message: PolicyMessage) -> Claim | None:
        """Read the next message (turn order) and update the ledger.

        Args:
            message: The message.

        Returns:
            The claim it makes, if any.
        """
        if message.turn <= self.read_through:
            return self.ledger.claims.get(message.turn)
        self.read_through = message.turn
        self._learn_names(message.content)
        claim = extract_claim(message, self.names, self.projects)
        if claim is None:
            return None
        ledger = self.ledger
        ledger.claims[message.turn] = claim
        if not claim.authoritative:
            ledger.echoes.setdefault(claim.key, []).append(message.turn)
            return claim
        previous = ledger.current.get(claim.key, [])
        if claim.refines:
            ledger.current[claim.key] = [*previous, message.turn]
        else:
            ledger.superseded.update(previous)
            ledger.current[claim.key] = [message.turn]
        ledger.superseded.update(ledger.echoes.pop(claim.key, []))
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
            self.read(message)

    def _learn_names(self, text: str) -> None:
        for match in _WORD.finditer(text):
            word = match.group(0)
            if word.endswith(("'s", "’s")):
                word = word[:-2]
            if not word[:1].isupper() or len(word) < 2 or not word[1:].islower():
                continue
            if word.lower() in CALENDAR_WORDS or word.lower() in NOT_NAMES:
                continue
            if _SENTENCE_START.search(text[: match.start()]):
                continue
            self.names.add(word)
        for match in _PROJECT_NEAR.finditer(text):
            name = match.group(1) or match.group(2)
            if name.lower() not in NOT_NAMES and name.lower() not in CALENDAR_WORDS:
                self.projects.add(name)
                self.names.add(name)


def names_in(text: str, names: set[str]) -> list[str]:
    """Known names mentioned in ``text``, in order of first mention.

    Args:
        text: A message.
        names: Names learnt so far.

    Returns:
        The names found (possessive ``'s`` stripped), each once.
    """
    found: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group(0)
        if word.endswith(("'s", "’s")):
            word = word[:-2]
        if word in names and word not in found:
            found.append(word)
    return found


def extract_claim(message: PolicyMessage, names: set[str], projects: set[str]) -> Claim | None:
    """The claim a message makes, if it makes one.

    Args:
        message: The message.
        names: Names learnt from the session so far.
        projects: Names seen next to the word "project".

    Returns:
        The claim, or None when the message asserts no tracked attribute.
    """
    text = message.content
    if not text or NOT_A_CLAIM.search(text) or REQUEST.search(text):
        return None
    mentioned = names_in(text, names)
    personal_ok = (FIRST_PERSON.search(text) is not None or STANDING.search(text) is not None) and not any(
        name in projects for name in mentioned
    )
    for cue in SLOT_CUES:
        if not cue.cue.search(text):
            continue
        if cue.value is not None and not cue.value.search(text):
            continue
        if cue.personal:
            # the speaker's own attribute: first-person or standing wording, not about a project
            if not personal_ok:
                continue
            subject = "user"
        else:
            if not mentioned:
                continue
            if cue.needs_second_name and len(mentioned) < 2:
                continue
            project_names = [n for n in mentioned if n in projects]
            subject = (project_names[0] if cue.project and project_names else mentioned[0]).lower()
        return Claim(
            turn=message.turn,
            subject=subject,
            slot=cue.slot,
            refines=REFINES.search(text) is not None,
            authoritative=message.role in AUTHORITATIVE_ROLES,
        )
    return None
