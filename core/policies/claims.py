"""Claims: what one message asserts about one attribute of one subject.

:func:`extract_claim` reads a message against what the session has taught so far
(:class:`Knowledge`) and the claims in force (:class:`~.ledger.Ledger`), in four steps:

3. **Who is it about?** Names are learnt from the session: a capitalised word seen mid-sentence is a
   name; one only ever seen starting a sentence, and never in lower case, is a tentative name (used
   when nothing surer is there); one seen next to "project" is a project; subjects of person
   attributes are people, values of office claims places. Names are matched case-insensitively in
   messages typed all in lower case, and a capitalised run ("the Harbor Room", "Pier 9") is one
   name, a thing rather than a person. The subject of a project attribute is the project named; of
   a person attribute the first person named (not "X's partner"); the speaker's own attributes need
   first-person, standing ("from now on", "always") or update wording, and no project, person or
   third party ("my sister") in the sentence. For the assistant, "you" is the user.
4. **Which attribute?** Each slot is scored from several kinds of evidence: its *semantic field*,
   general vocabulary for what the attribute is about (eating and food; flying and seats; reaching
   someone; meetings and calendars; reports and formats; launches, releases and deadlines; budgets
   and spending; leading and owning; venues and events; a project's state; offices and moving;
   jobs and titles); the *type or kind of value* (a date, an amount of money, a time of day, a
   second name in a locative position such as "in Lisbon" for a person's office, a diet, a seat, a
   channel, a report format, a project state, a job title, a kind of room); *values learnt from
   the session* (once "Signal" was a contact channel, a terse "Only on Signal now" is one too);
   and, strongest, *the replaced value*: when a negated or old-value span names the value of a
   claim in force about the same subject ("not Lisbon", "instead of Slack"), it is that claim's slot.
5. **How sure?** A claim backed by its slot's field vocabulary, or naming the value it replaces, or
   a value together with an update marker ("now", "instead", "changed", "switched", "new", "as of",
   "anymore"…), standing wording (for the speaker's own preferences) or a present-tense "is" (for
   states, titles, diets, seats: "Kelp is blocked", "I'm vegan"), is *strong* and supersedes. A
   claim backed only by its value ("Customers get Kelp May 6") is *weak*: it supersedes nothing but
   earlier weak claims worded the same way with another value ("The review is on June 3." → "The
   review is on June 10."), and it is superseded by the next strong claim about the same slot, as
   are assistant acknowledgements.
6. **Anything else?** A statement about a subject that fits no known kind opens an *open* attribute
   (``open:<turn>``). A later statement about the same subject that shares its wording (two content
   terms, or half of the smaller set) is about the same attribute, and supersedes it when it names
   the replaced value, states a different number ("Atlas headcount is 12." → "… is 15."), or carries
   an update marker and a new term.

One claim per message: a message that changes two things is tracked for one of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from .lexicon import (
    CHANGE_VERB,
    COPULA,
    DATE_VALUE,
    EXPLICIT_OLD_VALUE,
    FIRST_PERSON,
    GENERIC,
    LOWER_PLACE,
    NAME_WORD,
    NEGATOR,
    PAST_NARRATIVE,
    PAST_STATE,
    PREPOSITION_BEFORE,
    PRESENT_STATE,
    REFINES,
    SECOND_PERSON,
    SLOTS,
    STANDING,
    TASK_VERB,
    THIRD_PARTY,
    UPDATE_MARKER,
    SlotSpec,
    assertive_part,
    content_terms,
    mask,
    negated_spans,
    split_sentences,
    value_words,
)
from .records import PolicyMessage
from .text import STOP_WORDS, stem

if TYPE_CHECKING:
    from .ledger import Ledger

AUTHORITATIVE_ROLES: Final = frozenset({"user", "system", "tool"})
"""Roles whose claims supersede earlier ones."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A statement that sets one attribute of one subject.

    Attributes:
        turn: The message's turn.
        subject: ``user`` for the speaker (``user:<name>`` when messages name their speaker), otherwise
            a name (lower-case).
        slot: The attribute kind.
        refines: True when it adds to the earlier statement instead of replacing it.
        authoritative: False for assistant messages (they echo; they do not decide).
        strong: False for a claim backed only by the type of its value (it never supersedes).
        values: Terms naming the value it sets (to recognise it when a later statement replaces it).
        frame: The other content terms: what it says about the subject, minus the value.
    """

    turn: int
    subject: str
    slot: str
    refines: bool
    authoritative: bool
    strong: bool = True
    values: frozenset[str] = frozenset()
    frame: frozenset[str] = frozenset()

    @property
    def key(self) -> tuple[str, str]:
        """The ``(subject, slot)`` a claim is about."""
        return (self.subject, self.slot)


@dataclass
class Knowledge:
    """What the tracker has learnt from the session so far (never from any answer key)."""

    names: set[str] = field(default_factory=set)
    tentative: set[str] = field(default_factory=set)
    """Capitalised words seen only at the start of sentences and never in lower case: maybe names."""
    lower_seen: set[str] = field(default_factory=set)
    projects: set[str] = field(default_factory=set)
    people: set[str] = field(default_factory=set)
    places: set[str] = field(default_factory=set)
    slot_values: dict[str, Counter[str]] = field(default_factory=dict)




def same_frame(a: frozenset[str], b: frozenset[str]) -> bool:
    shared = len(a & b)
    return shared > 0 and 2 * shared >= min(len(a), len(b))


def name_in_values(name: str, values: frozenset[str]) -> bool:
    lower = name.lower()
    return lower in values or stem(lower) in values


VOCATIVE_BEFORE: Final = re.compile(
    r"(?:^|[.!?]\s+|,\s*|\b(?:[Hh]ey|[Hh]i|[Hh]ello|[Tt]hanks|[Tt]hank you|[Dd]ear|[Oo]h|[Ww]ow|[Yy]o"
    r"|[Cc]ongrats|[Cc]ongratulations|[Ss]orry|[Ww]elcome|[Mm]orning|[Bb]ye)\s+)$"
)
"""What comes before a name someone is addressed by: a sentence start, a comma or a greeting."""

VOCATIVE_AFTER: Final = re.compile(r"\s*(?:[,!?.…]|$)")
"""What comes after it: a comma, the end of the sentence or of the message."""


@dataclass(frozen=True, slots=True)
class Mention:
    name: str
    start: int
    after_preposition: bool
    definite: bool
    """Preceded by "the" ("the Riverside loft"): a thing or a place, not a person."""
    compound: bool
    """Followed by another capitalised word or a number ("Harbor Room", "Pier 9"): part of a longer name."""
    tentative: bool = False
    """Only ever seen starting a sentence (a likely name, but less sure than one seen mid-sentence)."""


def find_mentions(
    text: str, names: set[str], tentative: set[str] | None = None, projects: set[str] | None = None
) -> list[Mention]:
    """Known names in ``text`` in order, each once (case-insensitive when typed all in lower case).

    The words after a known name in one capitalised run ("Harbor Room") are part of it, not names.
    """
    lowered = text == text.lower()
    by_lower = {n.lower(): n for n in names} if lowered else {}
    maybe = tentative or set()
    projects = projects or set()
    found: list[Mention] = []
    seen: set[str] = set()
    previous_end = -2
    previous_name = False
    for match in NAME_WORD.finditer(text):
        word = match.group(0).replace("’", "'")
        if word.endswith("'s"):
            word = word[:-2]
        joined = previous_name and text[previous_end : match.start()] == " " and match.group(0)[:1].isupper()
        name = by_lower.get(word) if lowered else (word if word in names or word in maybe else None)
        if joined and name is not None and name in projects:
            joined = False  # "Handing Atlas to…": a known project starts its own name
        previous_end, previous_name = match.end(), name is not None and name in names and not joined
        if name is None or name in seen or joined:
            continue
        before = text[max(0, match.start() - 30) : match.start()]
        if VOCATIVE_BEFORE.search(before) and VOCATIVE_AFTER.match(text, match.end()):
            continue  # "Thanks, Gina!", "Hey Gina,": the person spoken to, not spoken about
        seen.add(name)
        after = text[match.end() : match.end() + 2]
        found.append(
            Mention(
                name,
                match.start(),
                PREPOSITION_BEFORE.search(before) is not None,
                before.lower().endswith("the "),
                re.match(r" [A-Z0-9]", after) is not None,
                name not in names,
            )
        )
    return found


def names_in(text: str, names: set[str]) -> list[str]:
    """Known names mentioned in ``text``, in order of first mention.

    Args:
        text: A message.
        names: Names learnt so far.

    Returns:
        The names found (possessive ``'s`` stripped), each once.
    """
    return [m.name for m in find_mentions(text, names)]


def _value_terms(
    text: str, spec: SlotSpec, exclude: set[str], names: Sequence[str] = ()
) -> frozenset[str]:
    """Terms of ``text`` that name the value it sets for ``spec``'s slot."""
    if spec.second_name and names:
        return frozenset(n.lower() for n in names)
    if spec.value is not None:
        typed = {" ".join(value_words(m.group(0))) for m in spec.value.finditer(text)}
        typed.discard("")
        if typed:
            return frozenset(typed)
    out = set()
    for term in value_words(text):
        if term in STOP_WORDS or term in GENERIC or len(term) < 2 or term in exclude:
            continue
        if any(other.field.fullmatch(term) for other in SLOTS) or UPDATE_MARKER.fullmatch(term):
            continue
        out.add(stem(term))
    return frozenset(out)


def personal_subject(message: PolicyMessage) -> str:
    """Who "I" is in a message: ``user`` (for the assistant, "you" is the user), or the speaker's
    own key when the conversation names several speakers in one role (both speakers of a chat alike).
    """
    if message.speaker and message.role in AUTHORITATIVE_ROLES:
        return f"user:{message.speaker.lower()}"
    return "user"


def extract_claim(message: PolicyMessage, knowledge: Knowledge, ledger: Ledger) -> Claim | None:
    """The claim a message makes, if it makes one.

    Args:
        message: The message.
        knowledge: What the tracker has learnt (or, for a one-off call, a set of known names).
        ledger: The claims so far (or, for a one-off call, a set of known project names).

    Returns:
        The claim, or None when the message asserts no tracked attribute.
    """
    body = assertive_part(message.content)
    if not body.strip():
        return None
    assistant = message.role not in AUTHORITATIVE_ROLES
    me = personal_subject(message)
    mentions = find_mentions(body, knowledge.names, knowledge.tentative, knowledge.projects)
    projects = [m for m in mentions if m.name in knowledge.projects]
    # a one-off task about a named thing ("Summarise the open questions for Kelp") asserts nothing
    named = [m for m in mentions if m.name in knowledge.projects or m.name in knowledge.people]
    personal_instruction = FIRST_PERSON.search(body) is not None and not named
    if mentions and not personal_instruction and any(TASK_VERB.search(s) for s in split_sentences(body)):
        task_sentences = [s for s in split_sentences(body) if TASK_VERB.search(s)]
        if all(find_mentions(s, knowledge.names) for s in task_sentences):
            return None
    negated = negated_spans(body)
    asserted = mask(body, negated)
    negations = negated_spans(body, (NEGATOR,))
    denies_change = any(CHANGE_VERB.search(body[a:b]) for a, b in negations)
    # a negated state ("I don't eat pork", "no meetings before 10") still says something
    said = {t for a, b in negations for t in value_words(body[a:b]) if t not in STOP_WORDS}
    old_terms = set()
    for start, end in negated:
        old_terms |= {t for t in value_words(body[start:end]) if t not in STOP_WORDS}
    for start, end in negated:
        old_terms |= {" ".join(value_words(m.group(0))) for m in DATE_VALUE.finditer(body[start:end])}
    if PAST_STATE.search(asserted) and not PRESENT_STATE.search(body):
        return None  # "Amara was in Lagos for a conference": a past state, not the current one
    update = UPDATE_MARKER.search(body) is not None
    standing = STANDING.search(body) is not None
    own = SECOND_PERSON if assistant else FIRST_PERSON
    third_party = THIRD_PARTY.search(body) is not None
    # "I went to a pottery class": a past episode of the speaker's, not a standing preference
    present = update or standing or PRESENT_STATE.search(body) is not None
    narrated = PAST_NARRATIVE.search(body) is not None and not present
    personal_ok = (
        not projects
        and not narrated
        and not any(m.name in knowledge.people for m in mentions)
        and not third_party
        and (
            own.search(body) is not None
            or STANDING.search(body) is not None
            or (not mentions and (assistant or update))
        )
    )
    refines = REFINES.search(body) is not None
    asserted_terms = content_terms(asserted)

    sure_names = [m.name.lower() for m in mentions if not m.tentative]
    mention_names = set(sure_names) | {stem(n) for n in sure_names}
    best: tuple[float, SlotSpec, str, bool] | None = None
    for spec in SLOTS:
        subject = _subject_for(spec, mentions, knowledge, personal_ok, third_party, me)
        if subject is None:
            continue
        field_hit = spec.field.search(body) is not None
        score = 2.0 if field_hit else 0.0
        has_value = spec.value is not None and spec.value.search(asserted) is not None
        if spec.value is not None:
            if (spec.required or spec.holder == "user") and not has_value:
                # a date or an amount is what these attributes are; and the speaker's own
                # preference is stated with its value ("vegan", "aisle"), not with the words of chat
                continue
            if has_value:
                score += 1.5
        if spec.second_name:
            first = _first_start(mentions, subject)
            others = [
                m for m in mentions
                if m.name.lower() != subject and m.name not in knowledge.projects
                and (spec.second_name == "any" or m.after_preposition or m.start > first)
            ]
            if not others and spec.second_name == "locative" and body == body.lower():
                # typed in lower case: no capitals to show the place, so trust the structure
                place = LOWER_PLACE.search(asserted)
                if place is not None and place.group(1) not in STOP_WORDS and place.group(1) not in GENERIC:
                    others = [Mention(place.group(1), place.start(1), True, False, False)]
            if not others:
                continue
            if spec.second_name == "locative" and any(m.after_preposition for m in others):
                has_value = True
                score += 1.5
            else:
                score += 1.0
        # the value it replaces: a negated or old-value term that a claim in force about it carried
        replaced = _replaced(ledger, subject, spec.slot, old_terms)
        if replaced:
            score += 3.0
        learnt_hits = _learnt_hits(knowledge, spec.slot, asserted_terms - mention_names)
        score += min(2, learnt_hits)
        if score <= 1.0 and not has_value:
            continue
        if not (asserted_terms - mention_names - {subject, stem(subject)}) and not has_value and (
            denies_change or not (said - mention_names - {subject})
        ):
            continue  # nothing asserted beyond the subject, or a change denied ("not moving X to Y")
        marked = update or (spec.holder == "user" and standing) or (
            spec.stative and has_value and COPULA.search(asserted) is not None
        )
        # the field alone ("meet", "free") is common in chat: with a typed value to expect, want it too
        field_sure = field_hit and (has_value or spec.value is None or spec.required)
        if spec.holder == "user":
            # the speaker's own standing attribute changes only when said to: a replaced value, or
            # a value with update or standing wording ("vegan now", "from now on, aisle")
            field_sure = False
        strong = field_sure or replaced or (marked and (learnt_hits > 0 or has_value))
        if spec.slot == "budget" and has_value:
            strong = True  # an amount of money stated for a project is what it has to spend
        if best is None or score > best[0]:
            best = (score, spec, subject, strong)
    if best is None:
        personal = personal_ok and own.search(body) is not None
        old_values = _old_value_terms(body)
        return _open_claim(
            message, asserted, old_values, mentions, knowledge, ledger, personal, update, refines, me
        )
    _score, spec, subject, strong = best
    exclude = {m.name.lower() for m in mentions if m.name.lower() == subject}
    value_names = [
        m.name for m in mentions
        if m.name.lower() != subject and m.name not in knowledge.projects and not m.tentative
        and m.start < len(asserted) and asserted[m.start : m.start + len(m.name)] == m.name
    ]
    values = _value_terms(asserted, spec, exclude, value_names)
    return Claim(
        turn=message.turn,
        subject=subject,
        slot=spec.slot,
        refines=refines,
        authoritative=not assistant,
        strong=bool(strong),
        values=values,
        frame=frozenset(asserted_terms - mention_names - values - {subject, stem(subject)}),
    )


OPEN_PREFIX: Final = "open:"
"""Slots of attributes outside the known kinds are named ``open:<turn of their first statement>``."""
_NUMBER: Final = re.compile(r"\d[\d,.:/]*")
OPEN_SCAN: Final = 200
"""Open attributes of one subject compared with a new statement (the most recent ones)."""


def _open_claim(
    message: PolicyMessage,
    asserted: str,
    old_terms: set[str],
    mentions: list[Mention],
    knowledge: Knowledge,
    ledger: Ledger,
    personal: bool,
    update: bool,
    refines: bool,
    me: str,
) -> Claim | None:
    """A claim about an attribute none of the known kinds covers, matched by lexical overlap.

    A statement about a subject that shares at least two content terms (or half of the smaller set)
    with the latest statement of one of that subject's open attributes is about that attribute; it
    supersedes it when it names the replaced value, carries an update marker and a new term, or
    states a different number for the same thing ("Atlas headcount is 12." → "Atlas headcount is
    15."). Otherwise it opens a new attribute.
    """
    if THIRD_PARTY.search(asserted):
        return None  # about someone else ("Priya's partner is…")
    candidates = [
        m for m in mentions if not m.after_preposition and not m.compound and m.name not in knowledge.places
    ]
    sure = [m for m in candidates if not m.tentative]
    if candidates:
        subject = (sure or candidates)[0].name.lower()
    elif personal:
        subject = me
    else:
        return None
    terms = {
        t for t in content_terms(asserted)
        if t not in (subject, stem(subject)) and not UPDATE_MARKER.fullmatch(t) and not t[:1].isdigit()
    }
    numbers = {"#" + n.rstrip(".,") for n in _NUMBER.findall(asserted)}
    if len(terms) < (1 if numbers else 2):
        return None
    values = frozenset(terms | numbers)
    best: tuple[int, str, Claim] | None = None
    for slot in ledger.open_slots.get(subject, [])[-OPEN_SCAN:]:
        turns = ledger.current.get((subject, slot), []) + ledger.weak.get((subject, slot), [])
        if not turns:
            continue
        last = ledger.claims[max(turns)]
        last_terms = {v for v in last.values if not v.startswith("#")}
        shared = len(terms & last_terms)
        overlapping = shared >= 2 or (shared and 2 * shared >= min(len(terms), len(last_terms)))
        if overlapping and (best is None or shared > best[0]):
            best = (shared, slot, last)
    frame = frozenset(terms)
    if best is None:
        return Claim(message.turn, subject, f"{OPEN_PREFIX}{message.turn}", refines,
                     message.role in AUTHORITATIVE_ROLES, True, values, frame)
    _shared, slot, last = best
    last_numbers = {v for v in last.values if v.startswith("#")}
    replaced = bool({stem(t) for t in old_terms} & last.values)
    changed_number = bool(numbers) and bool(last_numbers) and numbers != last_numbers
    strong = replaced or changed_number
    authoritative = message.role in AUTHORITATIVE_ROLES
    return Claim(message.turn, subject, slot, refines, authoritative, strong, values, frame)


def _first_start(mentions: list[Mention], subject: str) -> int:
    return next((m.start for m in mentions if m.name.lower() == subject), -1)


def _subject_for(
    spec: SlotSpec,
    mentions: list[Mention],
    knowledge: Knowledge,
    personal_ok: bool,
    third_party: bool,
    me: str,
) -> str | None:
    if spec.holder == "user":
        return me if personal_ok else None
    if not mentions or (spec.holder == "person" and third_party):
        return None
    if spec.holder == "project":
        projects = [m for m in mentions if m.name in knowledge.projects]
        if projects:
            return projects[0].name.lower()
        things = [
            m for m in mentions
            if m.name not in knowledge.people and m.name not in knowledge.places and not m.compound
        ]
        sure_things = [m for m in things if not m.tentative]
        chosen = sure_things or things
        return chosen[0].name.lower() if chosen else None
    people = [
        m for m in mentions
        if m.name not in knowledge.projects and m.name not in knowledge.places and not m.after_preposition
        and not m.definite and not m.compound
    ]
    if not people:
        return None
    sure = [m for m in people if not m.tentative]
    return (sure or people)[0].name.lower()


def _learnt_hits(knowledge: Knowledge, slot: str, terms: set[str]) -> int:
    """How many of ``terms`` were values of ``slot`` (and of no other slot) in earlier claims."""
    learnt = knowledge.slot_values.get(slot)
    if not learnt:
        return 0
    hits = 0
    for term in terms:
        if learnt[term] > 0 and not any(
            counter[term] > 0 for other, counter in knowledge.slot_values.items() if other != slot
        ):
            hits += 1
    return hits


def _old_value_terms(body: str) -> set[str]:
    """Terms named as the value being replaced ("from X to", "instead of X"), plain negation aside.

    Open attributes are matched by shared wording only, and chat repeats its negations ("I won't
    quit", "not giving up"): there, only an explicit old-value marker says what is replaced.
    """
    return {
        t for start, end in negated_spans(body, (EXPLICIT_OLD_VALUE,)) for t in value_words(body[start:end])
        if t not in STOP_WORDS
    }


def _replaced(ledger: Ledger, subject: str, slot: str, old_terms: set[str]) -> bool:
    if not old_terms:
        return False
    key = (subject, slot)
    turns = ledger.current.get(key, []) + ledger.weak.get(key, [])
    stems = {stem(t) for t in old_terms} | old_terms
    return any(ledger.claims[t].values & stems for t in turns)
