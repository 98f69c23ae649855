"""Claims: what one message asserts, about whom, and which values it sets — from its own structure.

:func:`extract_claim` reads a message against what the session has taught so far
(:class:`Knowledge`: its names and :class:`~.paradigms.Paradigms`) in four steps, with no list of
attributes or of their values:

1. **Is it an assertion?** (:func:`~.lexicon.assertive_part`) Questions, hedges, hearsay,
   retractions, outdated material and past episodes assert nothing current; neither does a
   one-off instruction about a named thing ("Summarise the open questions for Kelp"), someone
   else's habit ("my sister went vegan"), a past state ("Tom was in Lagos"), or a denied change
   ("We are not moving Kelp to Monday").
2. **What values does it set?** The asserted words (negated and old-value spans set aside: "not
   Lisbon", "instead of Slack", "from Wednesday to" name the value being *replaced*) are read as
   tokens. A value is a typed span (a date, an amount, a time of day, a number), a name, or a run
   of words the session showed to be of one kind with others (:mod:`.paradigms`: "vegan" ~
   "halal", "on track" ~ "at risk"). Its *kind* is the typed value's type, the name's kind, or the
   paradigm.
3. **Who is it about?** The names in it, the speaker ("I"; for the assistant, "you" is the user;
   with :attr:`~.records.PolicyMessage.speaker` set, each speaker alike), or nobody. Of several, the
   subject is the one the session says the most kinds of thing about — the topic; the other names
   are values.
4. **Which statements does it answer?** Its *keys*: ``(subject, kind)`` with the value it sets. A
   later statement with the same key and another value replaces it (:mod:`.ledger`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from .lexicon import (
    CHANGE_VERB,
    DATE_VALUE,
    DECISION,
    FIRST_PERSON,
    FROM_VALUE,
    GENERIC,
    HEADING,
    INDIRECT_QUESTION,
    MONEY_VALUE,
    NAME_WORD,
    NEGATOR,
    NEVER_SUBJECT,
    NUMBER_VALUE,
    OLD_VALUE,
    OWN_EARLIER_MESSAGE,
    PAST_EVALUATION,
    PAST_NARRATIVE,
    PAST_STATE,
    PRESENT_STATE,
    PRESENT_VERB,
    REFINES,
    SECOND_PERSON,
    SETTLED,
    STANDING,
    TASK_VERB,
    THIRD_PARTY,
    TIME_VALUE,
    UPDATE_MARKER,
    assertive_part,
    mask,
    negated_spans,
    reported_present,
    split_sentences,
    update_marker_span,
    value_words,
    withdrawn_spans,
)
from .paradigms import MAX_FILLER, NAME, Paradigms, wording_around
from .records import PolicyMessage
from .text import STOP_WORDS, stem

AUTHORITATIVE_ROLES: Final = frozenset({"user", "system", "tool"})
"""Roles whose claims supersede earlier ones."""

TYPED_VALUES: Final = (("<date>", DATE_VALUE), ("<money>", MONEY_VALUE), ("<time>", TIME_VALUE),
                       ("<num>", NUMBER_VALUE))
"""General value types, tried in this order (a date before the number inside it)."""

MAX_KINDS: Final = 3
"""Most kinds of value one statement of an attribute sets (a launch day and its venue, say)."""

TYPED_TOKEN: Final = {pattern: token for token, pattern in TYPED_VALUES}

UNTIL_KIND: Final = "<until>"
"""The kind of a date that bounds a state ("X covers the desk until Friday", "till end of year"):
how long something holds, not the day something happens."""
_UNTIL: Final = re.compile(
    r"\b(?:until|till|til|through|thru|starting|beginning|effective|as of)\s+$", re.IGNORECASE
)
"""A date bounding a state at either end: "until Friday", and "starting tomorrow", "as of Monday"
(the day a change takes effect, not a day something happens)."""
_DEFERRED: Final = re.compile(
    r"\b(?:delay|postpon|defer|push|put(?:ting)? off|hold|held|mov|shift|resched|slip|extend|bump)\w*",
    re.IGNORECASE,
)
"""A verb of deferring: "delayed until June 12" names the new day, not how long a state lasts."""

_HEAD_AFTER: Final = re.compile(r" [a-z]")
"""A word in lower case next: the head noun a possessive comes before."""

NAME_KIND: Final = "<name>"
"""The prefix of the kind of a name the session has not yet shown beside others of its kind."""

_TOKEN: Final = re.compile(r"[\w$€£][\w'’$€£.,/-]*[\w$€£%]|[\w$€£]|[,:;()\n]")
PUNCTUATION: Final = {",": "<,>", ":": "<:>", ";": "<;>", "(": "<(>", ")": "<)>", "\n": "<,>"}
"""Punctuation as tokens; a line break, where one text ends and the next begins, reads as a comma."""
"""Clause punctuation, kept as tokens so that a value after a colon is not read as next to a name."""
_VOCATIVE_BEFORE: Final = re.compile(
    r"(?:^|[.!?]\s+|,\s*|\b(?:[Hh]ey|[Hh]i|[Hh]ello|[Tt]hanks|[Tt]hank you|[Dd]ear|[Oo]h|[Ww]ow|[Yy]o"
    r"|[Cc]ongrats|[Cc]ongratulations|[Ss]orry|[Ww]elcome|[Mm]orning|[Bb]ye)\s+)$"
)
"""What comes before a name someone is addressed by: a sentence start, a comma or a greeting."""
_VOCATIVE_AFTER: Final = re.compile(r"\s*(?:[,!?.…]|$)")


@dataclass(frozen=True, slots=True)
class Claim:
    """What one message asserts.

    Attributes:
        turn: The message's turn.
        subject: ``user`` for the speaker (``user:<name>`` when messages name their speaker), a name
            (lower-case), or empty when the statement is about nobody the session names.
        values: Per kind, the value set (lower-case text).
        replaced: Words the statement names as the value being replaced ("not X", "instead of X").
        change: True when it is worded as a change ("now", "instead", "moved", "from X to Y").
        refines: True when it adds to an earlier statement instead of replacing it ("not just").
        authoritative: False for assistant messages (they echo; they do not decide).
        frame: The content words around the values: what is said about the subject.
        words: How many words the assertive part has (a short turn can be a correction; a long
            one is narrative).
    """

    turn: int
    subject: str
    values: dict[str, str]
    replaced: frozenset[str] = frozenset()
    change: bool = False
    refines: bool = False
    authoritative: bool = True
    frame: frozenset[str] = frozenset()
    words: int = 0
    closing: frozenset[str] = frozenset()
    """The kinds whose value is the whole last line of the message (a sign-off's place)."""

    @property
    def keys(self) -> list[tuple[str, str]]:
        """The ``(subject, kind)`` pairs the claim sets a value for."""
        return [(self.subject, kind) for kind in self.values]


@dataclass
class Knowledge:
    """What the tracker has learnt from the session (never from any answer key).

    Attributes:
        names: Capitalised words seen mid-sentence.
        tentative: Capitalised words seen only starting a sentence, never in lower case: maybe names.
        lower_seen: Words seen in lower case.
        paradigms: Kinds of words and names (:mod:`.paradigms`).
        topics: Per subject kind, the kinds of value said about it: how much of a topic it is.
    """

    names: set[str] = field(default_factory=set)
    tentative: set[str] = field(default_factory=set)
    lower_seen: set[str] = field(default_factory=set)
    paradigms: Paradigms = field(default_factory=Paradigms)
    topics: dict[str, set[str]] = field(default_factory=dict)


@dataclass(slots=True)
class Lookups:
    """What reading a message asked of the session's knowledge, so that it is read again only when
    one of the answers may have changed.

    Attributes:
        words: The words looked up as names (lower-case, possessive stripped).
        fillers: The runs of words looked up as values of a learnt kind.
    """

    words: set[str] = field(default_factory=set)
    fillers: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Reading:
    """A sentence read as tokens: lower-case words, ``<n>`` per name run, typed-value tokens.

    Attributes:
        tokens: The tokens.
        texts: Each token's text (the name, the typed value's words, the word itself).
        vocative: Indexes of the name tokens that address someone ("Thanks, Gina!").
    """

    tokens: list[str]
    texts: list[str]
    vocative: frozenset[int]

    def names(self) -> list[str]:
        """The name runs, lower-case, in order (as :meth:`.paradigms.Paradigms.learn` wants them)."""
        return [self.texts[i] for i, t in enumerate(self.tokens) if t == NAME]


def read_sentence(sentence: str, knowledge: Knowledge, lookups: Lookups | None = None) -> Reading:
    """Tokens of one sentence, names and typed values folded into one token each (the words looked
    up as names noted in ``lookups``)."""
    typed: list[tuple[int, int, str]] = []
    for token, pattern in TYPED_VALUES:
        for match in pattern.finditer(sentence):
            if not any(a < match.end() and match.start() < b for a, b, _t in typed):
                bounded = _UNTIL.search(sentence, max(0, match.start() - 12), match.start()) is not None
                if token == "<date>" and bounded and not _DEFERRED.search(sentence, 0, match.start()):
                    token = UNTIL_KIND  # how long a state lasts ("takes over till end of year")
                typed.append((match.start(), match.end(), token))
                token = TYPED_TOKEN[pattern]
    lowered = sentence == sentence.lower()
    by_lower = {n.lower(): n for n in knowledge.names} if lowered else {}
    tokens: list[str] = []
    texts: list[str] = []
    vocative: set[int] = set()
    previous_end = -2
    typed_at = -1
    for match in _TOKEN.finditer(sentence):
        start = match.start()
        span = next(((a, b, t) for a, b, t in typed if a <= start < b), None)
        if span is not None:
            if span[2] == "<num>" and tokens and tokens[-1] == NAME and sentence[previous_end:start] == " ":
                texts[-1] += " " + match.group(0).lower()  # "Hangar 2", "Pier 9": one name
                previous_end = match.end()
                continue
            if typed_at != span[0]:
                typed_at = span[0]
                tokens.append(span[2])
                texts.append(" ".join(value_words(sentence[span[0] : span[1]])))
            previous_end = -2
            continue
        if match.group(0) in PUNCTUATION:
            tokens.append(PUNCTUATION[match.group(0)])
            texts.append(match.group(0))
            previous_end = -2
            continue
        word = match.group(0).rstrip(".,").replace("’", "'")
        base = word[:-2] if word.endswith("'s") else word
        if lookups is not None:
            lookups.words.add(base.lower())
        name = by_lower.get(base.lower()) if lowered else (base if base in knowledge.names else None)
        if name is None and word == base and len(base) > 3 and base.endswith("s") and _HEAD_AFTER.match(
            sentence, match.end()
        ):
            # a possessive typed without its apostrophe, before its head noun ("Rosas desk"): the
            # name before the "s"
            if lookups is not None:
                lookups.words.add(base[:-1].lower())
            name = by_lower.get(base[:-1].lower()) if lowered else (
                base[:-1] if base[:-1] in knowledge.names else None
            )
        if name is None and len(base) == 1 and base.isupper() and tokens and tokens[-1] == NAME:
            name = base  # "Building C": a letter continues the name before it
        if name is not None:
            if tokens and tokens[-1] == NAME and sentence[previous_end:start] == " ":
                texts[-1] += " " + name.lower()
            else:
                before = sentence[max(0, start - 30) : start]
                if _VOCATIVE_BEFORE.search(before) and _VOCATIVE_AFTER.match(sentence, match.end()):
                    vocative.add(len(tokens))
                tokens.append(NAME)
                texts.append(name.lower())
            previous_end = match.end()
            continue
        previous_end = -2
        tokens.append(word.lower())
        texts.append(word.lower())
    return Reading(tokens, texts, frozenset(vocative))


def personal_subject(message: PolicyMessage) -> str:
    """Who "I" is in a message: ``user`` (for the assistant, "you" is the user), or the speaker's
    own key when the conversation names several speakers in one role (both speakers of a chat alike).
    """
    if message.speaker and message.role in AUTHORITATIVE_ROLES:
        return f"user:{message.speaker.lower()}"
    return "user"


PERSONAL_KIND: Final = "<speaker>"
"""The subject kind of every speaker's own statements (for :attr:`Knowledge.topics`)."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """A message's assertive part read for claims (before the ledger is consulted)."""

    names: list[str]
    """Name runs that could be subjects, in order."""
    heads: dict[str, str]
    """Per name, the word after it when that is a content word (a head noun: "the Riverside loft")."""
    values: list[tuple[str, str]]
    """``(kind, value)`` pairs found, names excluded."""
    personal: bool
    """Whether the speaker's own attributes may be meant."""
    replaced: frozenset[str]
    frame: frozenset[str]
    change: bool
    refines: bool
    words: int
    last_line: str = ""
    """The value words of the message's last line, when it has several lines."""
    answered: bool = False
    """Whether it answers a question the speaker put in the same message ("Where is Ana? Oslo.")."""


def _change_denied(body: str, negations: list[tuple[int, int]]) -> bool:
    """Whether a negation's span (``negations``: :func:`negated_spans` of ``body`` for
    :data:`NEGATOR`) holds a verb of change ("We are not moving Kelp to Monday").

    Each negation's span runs to its clause end, so the spans of one clause share their end and
    each lies inside the one before it: when the first holds no verb of change, none of the later
    ones does, and only the first is read (linear work on a clause of many negators). A search
    inside ``body`` bounded by the span is the search of the span's slice, but for a match at the
    span's start (its lookbehind sees the character before): the span opens with a negator, and
    no verb of change opens with one.
    """
    read_to = -1
    for start, end in negations:
        if end == read_to:
            continue
        read_to = end
        if CHANGE_VERB.search(body, start, end):
            return True
    return False


def analyse(message: PolicyMessage, knowledge: Knowledge, lookups: Lookups | None = None) -> Analysis | None:
    """What a message asserts, or None when it asserts nothing current.

    Args:
        message: The message.
        knowledge: What the session has taught so far.
        lookups: Where to note what was asked of ``knowledge`` (names and learnt kinds).
    """
    body = assertive_part(message.content)
    if not body.strip():
        return None
    assistant = message.role not in AUTHORITATIVE_ROLES
    own = SECOND_PERSON if assistant else FIRST_PERSON
    if THIRD_PARTY.search(body):
        # someone else's attribute ("my sister went vegan", "Priya's partner is…"), unless another
        # clause states something of a name of its own ("Ana and her deputy swapped desks, so Ana
        # is now in Brno"): the relative's clause is then the circumstance, left out
        apart = [c for c in CLAUSES.split(body) if c and not THIRD_PARTY.search(c)]
        if not any(NAMED_STATEMENT.match(c) for c in apart):
            return None
        body = " ".join(apart)
    withdrawn = withdrawn_spans(body)
    marked = update_marker_span(body) is not None
    change = marked or bool(withdrawn)
    # a heading ("Update: …") says the message is news; what the rest narrates, and whose
    # attribute it is, the rest alone says
    heading = HEADING.match(body)
    content_change = change and (
        update_marker_span(body[heading.end() :]) is not None or CORRECTION_HEADING.match(body) is not None
        if heading else marked
    )  # a correction heading ("Correction: not X, Y owns it, I mixed them up") says what holds now
    # "from X" names the old value in a change ("taking over Kelp from Tom"), not in "works from Oslo"
    negated = negated_spans(body, (NEGATOR, OLD_VALUE, FROM_VALUE) if change else (NEGATOR, OLD_VALUE))
    negated += [m.span(1) for m in NEVER_SUBJECT.finditer(body)]
    negations = negated_spans(body, (NEGATOR,))
    if _change_denied(body, negations):
        return None  # a change denied ("We are not moving Kelp to Monday")
    # what a correction or a cancellation withdraws is replaced; of it, only the values are set
    # aside (the subject may be named there: "Monday for Kelp fell through"), or all of a parenthesis
    negated += [(a, b) for a, b, whole in withdrawn if whole]
    # a parenthesis narrating a reason ("(Tom went to another team)") explains; it sets nothing
    negated += [m.span() for m in REASON_ASIDE.finditer(body) if PAST_NARRATIVE_CLAUSE.search(m.group(0))]
    parts = [(a, b) for a, b, whole in withdrawn if not whole]
    negated += [
        (a + m.start(), a + m.end()) for a, b in parts for _t, pattern in TYPED_VALUES
        for m in pattern.finditer(body[a:b])
    ]
    asserted = mask(body, negated)
    unwithdrawn = mask(body, [(a, b) for a, b, _whole in withdrawn])
    # the answer of a relayed question is read in the tense its source used ("asked how X stood,
    # the office replied that it was at the draft stage": "it is")
    tensed = reported_present(asserted) if INDIRECT_QUESTION.search(asserted) else asserted
    if PAST_STATE.search(tensed) and not PRESENT_STATE.search(body):
        return None  # "Amara was in Lagos for a conference": a past state, not the current one
    if PAST_EVALUATION.search(tensed) and not PRESENT_VERB.search(tensed) and not (
        PRESENT_STATE.search(body) or marked
    ):
        return None  # "The Kelp retro ran long but was useful": an episode told in the past
    readings = [read_sentence(s, knowledge, lookups) for s in split_sentences(asserted)]
    names: list[str] = []
    heads: dict[str, str] = {}
    for reading in readings:
        for i, token in enumerate(reading.tokens[:-1]):
            following = reading.tokens[i + 1]
            if token == NAME and not following.startswith("<") and following not in STOP_WORDS:
                heads.setdefault(reading.texts[i], following)
        names += [
            t for i, t in enumerate(reading.texts) if reading.tokens[i] == NAME and i not in reading.vocative
        ]
    if not names:
        # nothing named outside the negation: a name it governs through a preposition of
        # aboutness is what the sentence is about ("that date didn't hold for Atlas, we're looking
        # at the 19th instead"), not a negated value
        for a, b in negations:
            about = _about_name(read_sentence(body[a:b], knowledge, lookups))
            if about:
                names.append(about)
                break
    # a lead-in's "I" ("before I forget: …") is the speaker's aside, not whose attribute it is
    # so is a reference to the speaker's own earlier message ("further to my previous message")
    own_text = unwithdrawn[heading.end() :] if heading else unwithdrawn
    if not assistant:
        own_text = OWN_EARLIER_MESSAGE.sub(" ", own_text)
    # the speaker denied ("ask Ana, not me") is not whose attribute it is
    first_person = own.search(mask(own_text, negations)) is not None
    # an imperative opening a sentence, or after a lead-in ("FYI: Draft a reply to…")
    # (a verb with nothing after it, "Note: …", "Please remember.", points at the statement instead)
    # (the answer to a question the speaker asked, "What's Mbali doing now: research lead", is not
    # an imperative)
    # (a label before a colon, its verb followed by a preposition, "Fix in the Kelp ticket: …",
    # heads the statement after it; it asks for nothing)
    clauses = [
        c for parts in (s.split(":") for s in split_sentences(unwithdrawn)) for i, c in enumerate(parts)
        if not (i and _ASKED.match(parts[i - 1]))
        and not (i + 1 < len(parts) and parts[i + 1].strip() and _LABEL.match(c))
    ]
    tasks = [
        c for c in clauses
        # a request closing on "please" about a named thing ("Two-line note to Ana re Kelp,
        # please.") asks for a thing done, unless it asks for a change ("Bump Kelp to Friday,
        # please"); one naming nothing ("…, so mind the timezone please") is a courtesy
        if REQUEST.search(c) and update_marker_span(c) is None
        and any(n in _COORDINATED.split(c)[-1].lower() for n in names)
    ] + [
        c for c in clauses
        if (m := TASK_VERB.search(c)) is not None and re.search(r"\w", c[m.end() :])
        # "note (for later) X …" asks the hearer to keep a statement, not to do a task
        and not (m.group(0).lower().endswith("note") and not re.match(r"\s+to\b", c[m.end() :]))
    ]
    if names and tasks and not first_person:
        return None  # a one-off task about a named thing
    standing = STANDING.search(body) is not None or DECISION.search(body) is not None
    # "the date I gave you" refers to the speaker's earlier words; it narrates nothing
    if PAST_NARRATIVE.search(OWN_EARLIER_MESSAGE.sub(" ", body)) is not None and not (
        content_change or standing or PRESENT_STATE.search(body) or SETTLED.search(body)
    ):
        return None  # "Omar and I paired on the Nimbus migration": the speaker's own past episode
    personal = first_person or ((standing or content_change or assistant) and not names)
    values: list[tuple[str, str]] = []
    for reading in readings:
        values += _values(reading, knowledge.paradigms, lookups)
    replaced: set[str] = set()
    for start, end in [*negated, *parts]:
        replaced |= {t for t in value_words(body[start:end]) if t not in STOP_WORDS}
        for _token, pattern in TYPED_VALUES[:2]:
            replaced |= {" ".join(value_words(m.group(0))) for m in pattern.finditer(body[start:end])}
    name_words = {w for n in names for w in n.split()}
    value_texts = {w for _k, v in values for w in v.split()}
    frame = frozenset(
        stem(t) for t in value_words(asserted)
        if t not in STOP_WORDS and t not in GENERIC and len(t) > 1 and t not in name_words
        and t not in value_texts and not UPDATE_MARKER.fullmatch(t)
    )
    lines = body.rstrip().rsplit("\n", 1)
    # the answer to a question the speaker put ("Which office is Ana in? Oslo."): what holds now, as
    # a change says it, whatever was answered before
    answered = "?" in message.content and any(
        ":" in s and _ASKED.match(s.split(":", 1)[0]) for s in split_sentences(asserted)
    )
    return Analysis(
        list(dict.fromkeys(names)), heads, values, personal, frozenset(replaced), frame, change,
        REFINES.search(body) is not None, len(body.split()),
        " ".join(value_words(lines[1])) if len(lines) > 1 else "", answered,
    )


_COORDINATED: Final = re.compile(r",\s+(?=(?:so|and|but)\b)")
"""Where a coordinated clause begins: the request is the last one ("X works from Y, so mind the
timezone please")."""
REQUEST: Final = re.compile(r"[,\s]please\W*$", re.IGNORECASE)
"""A clause closing on "please": a request."""
CLAUSES: Final = re.compile(r"(?<=[.;!?])\s+|,\s+(?=(?:so|and|but)\b)")
"""Where a clause ends: a sentence mark or a semicolon, or a comma before a coordinating conjunction."""
NAMED_STATEMENT: Final = re.compile(
    r"(?:(?:so|and|but)\s+)?(?:[A-Z][\w'’-]*\s+)+(?:is|are|has|have|will|now)\b"
)
"""A clause that opens with a name and a verb of the present ("so Ana is now in Brno")."""
_LABEL: Final = re.compile(r"^\W*[A-Za-z]+\s+(?:in|on|for|to|at|of|from|about|re)\b", re.IGNORECASE)
"""A label ("Fix in the ticket", "Note for later"): a verb and a preposition, no object."""
CORRECTION_HEADING: Final = re.compile(r"^\s*(?:correction|erratum|corrigendum)\s*:", re.IGNORECASE)
"""A heading that says the message corrects an earlier one."""
REASON_ASIDE: Final = re.compile(
    r"\((?!\s*(?:was|were|before|earlier|until now|not)\b)[^()]{3,80}\)", re.IGNORECASE
)
"""A parenthesis that is not an old value's."""
PAST_NARRATIVE_CLAUSE: Final = re.compile(
    r"\b(?:went|left|moved|quit|resigned|joined|retired|got|was|were|had)\b", re.IGNORECASE
)
"""A past verb: the parenthesis narrates (the reason for what the sentence states)."""

_ASKED: Final = re.compile(
    r"\s*(?:[\w'-]+\s+){0,3}?(?:what|what's|where|where's|who|who's|when|when's|how|how's|which)\b",
    re.IGNORECASE,
)
"""A clause opening with a question word (within its first four words)."""
_ABOUT: Final = frozenset({"for", "about", "regarding", "concerning"})


def _about_name(reading: Reading) -> str:
    """The first name in ``reading`` governed by a preposition of aboutness ("for Atlas", "for
    project Atlas"), or empty."""
    tokens = reading.tokens
    for i, token in enumerate(tokens):
        if token == NAME and i and (
            tokens[i - 1] in _ABOUT
            or (i > 1 and tokens[i - 2] in _ABOUT and tokens[i - 1] in ("project", "the"))
        ):
            return reading.texts[i]
    return ""


def _values(reading: Reading, paradigms: Paradigms, lookups: Lookups | None = None) -> list[tuple[str, str]]:
    """Typed values and learnt fillers of one sentence, longest first, not overlapping.

    A filler that opens the sentence ("Finance approved…", "As of today…") is its opening, not a
    value; one next to a name is part of the name's phrase.
    """
    tokens = reading.tokens
    found: list[tuple[str, str]] = []
    used: set[int] = set()
    for i, token in enumerate(tokens):
        if token.startswith("<") and token != NAME and token not in PUNCTUATION.values():
            found.append((token, reading.texts[i]))
            used.add(i)
    spans = []
    for i in range(1, len(tokens)):
        for j in range(i + 1, min(len(tokens), i + MAX_FILLER) + 1):
            words = tokens[i:j]
            if any(w.startswith("<") for w in words) or wording_around(words):
                continue
            if tokens[i - 1] == NAME or (j < len(tokens) and tokens[j] == NAME):
                continue  # a word next to a name is part of its phrase ("the Atlas project")
            filler = " ".join(words)
            if lookups is not None:
                lookups.fillers.add(filler)
            kind = paradigms.value_kind(filler)
            if kind is not None:
                spans.append((j - i, i, j, kind))
    for _length, i, j, kind in sorted(spans, key=lambda s: (-s[0], s[1])):
        if used.isdisjoint(range(i, j)):
            used.update(range(i, j))
            found.append((kind, " ".join(tokens[i:j])))
    return found


def name_kind(knowledge: Knowledge, name: str, head: str = "") -> str:
    """The kind of a name (with the head noun after it, if any); a name the session has shown
    beside no other is a kind of its own."""
    return knowledge.paradigms.name_kind(name, head) or f"{NAME_KIND}{name}"


def subject_kinds(analysis: Analysis, knowledge: Knowledge) -> list[str]:
    """The kinds of the subjects a statement could be about (for :attr:`Knowledge.topics`)."""
    kinds = [name_kind(knowledge, n, analysis.heads.get(n, "")) for n in analysis.names]
    return kinds + ([PERSONAL_KIND] if analysis.personal else [])


def note_topics(analysis: Analysis, knowledge: Knowledge) -> None:
    """Count which kinds of value are said about which kinds of subject."""
    kinds = subject_kinds(analysis, knowledge)
    said = {kind for kind, _v in analysis.values} | set(kinds)
    for kind in kinds:
        knowledge.topics.setdefault(kind, set()).update(said - {kind})


def extract_claim(
    message: PolicyMessage, knowledge: Knowledge, analysis: Analysis | None = None
) -> Claim | None:
    """The claim a message makes, if it makes one.

    Args:
        message: The message.
        knowledge: What the tracker has learnt from the session.
        analysis: The message's :func:`analyse` result, when already computed.

    Returns:
        The claim, or None when the message asserts nothing current.
    """
    if analysis is None:
        analysis = analyse(message, knowledge)
    if analysis is None:
        return None
    candidates: list[tuple[int, int, str]] = []
    for position, name in enumerate(analysis.names):
        kind = name_kind(knowledge, name, analysis.heads.get(name, ""))
        candidates.append((len(knowledge.topics.get(kind, ())), -position, name))
    if analysis.personal:
        candidates.append((len(knowledge.topics.get(PERSONAL_KIND, ())), 1, personal_subject(message)))
    if not candidates:
        return None
    subject = max(candidates)[2]
    # of two values of one kind, the later is the one set ("X stepped back; Y owns it now")
    values = dict(analysis.values)
    for name in analysis.names:
        if name != subject:
            values[name_kind(knowledge, name, analysis.heads.get(name, ""))] = name
    if len(values) > MAX_KINDS:
        values = {}  # a narrative about many things at once sets no one attribute
    return Claim(
        turn=message.turn,
        subject=subject,
        values=values,
        replaced=analysis.replaced,
        change=analysis.change or (analysis.answered and bool(values)),  # a value answered: what holds now
        refines=analysis.refines,
        authoritative=message.role in AUTHORITATIVE_ROLES,
        frame=analysis.frame,
        words=analysis.words,
        closing=frozenset(k for k, v in values.items() if analysis.last_line and v == analysis.last_line),
    )


def names_in(text: str, names: set[str]) -> list[str]:
    """Known names mentioned in ``text``, in order of first mention (possessive ``'s`` stripped).

    Args:
        text: A message.
        names: Names learnt so far.

    Returns:
        The names found, each once (case-insensitively in a message typed all in lower case).
    """
    lowered = text == text.lower()
    by_lower = {n.lower(): n for n in names}
    found: list[str] = []
    for word in name_words(text):
        name = by_lower.get(word.lower()) if lowered else (word if word in names else None)
        if name is not None and name not in found:
            found.append(name)
    return found


def name_words(text: str) -> list[str]:
    """The words of ``text`` that could be names, as :func:`names_in` matches them (possessive
    ``'s`` stripped)."""
    found = []
    for match in NAME_WORD.finditer(text):
        word = match.group(0).replace("’", "'")
        found.append(word[:-2] if word.endswith("'s") else word)
    return found
