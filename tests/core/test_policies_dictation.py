"""Dictated and formal English read as typed English (speech.py, letters.py), and the cost of the
patterns that do it on hostile input.

The readings are checked on neutral vocabulary (no wording set's names or values). The cost checks
count work instead of timing it: every pattern of speech.py, letters.py, chat.py and lexicon.py
(lexicon's few exceptions named, with why) is parsed with the standard library's regular-expression
parser and its backtracking hazards are counted (a repeat inside a repeat, two unbounded repeats
over overlapping characters with only optional items between them and something after them that
can fail, an unanchored pattern opening with an unbounded repeat that can start anywhere inside a
run, a repeat of a negated class that can read what follows it, so that a search reads to a far
boundary from every match: ``[^.;!?]*\btoday``); each family is also run on a 250 KB adversarial
message, and the pure-Python scan of chat.py's sentence openings counts the characters it reads.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # the standard library's own parser (Python 3.11+)
from typing import Any

import pytest
from ctxscope.core.policies import chat, letters, lexicon, reported, speech, texting, tracker_notation
from ctxscope.core.policies.chat import normalise
from ctxscope.core.policies.claims import Knowledge, analyse
from ctxscope.core.policies.letters import letter_body
from ctxscope.core.policies.lexicon import assertive_part, is_assertion
from ctxscope.core.policies.records import PolicyMessage
from ctxscope.core.policies.speech import read_dictation

# -- readings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spoken", "typed"),
    [
        ("so um the Kelp demo is on monday uh you know", "so the Kelp demo is on monday"),
        ("the the budget for Kelp is set period", "the budget for Kelp is set."),
        ("Kelp has twenty five grand now", "Kelp has $25,000 now"),
        ("we got a hundred and ten thousand dollars for Kelp", "we got 110,000 dollars for Kelp"),
        ("Kelp has sixty k", "Kelp has 60k"),
        ("Kelp ships march ninth", "Kelp ships march 9th"),
        ("Kelp ships on the fourteenth of may", "Kelp ships on the 14th of may"),
        ("meetings at half past one please", "meetings at 1:30 please"),
        ("calls between eleven and one", "calls between 11 and 1"),
        ("I have two kids", "I have two kids"),  # a lone number word is left as written
        ("the report four the board", "the report for the board"),  # "four" that counts nothing
        ("the launch four Kelp", "the launch for Kelp"),
        ("Kelp ships on Tuesday no wait Thursday", "Kelp ships on Thursday"),
        ("Kelp ships on uh sorry on Friday", "Kelp ships on Friday"),
        ("i'm sorry to hear that", "i'm sorry to hear that"),  # no restarted phrase: no repair
        ("Kelp is like sixty k now", "Kelp is 60k now"),
        ("I like the new room", "I like the new room"),  # the verb, not the filler
        ("just so you know Kelp is live", "just so you know Kelp is live"),
        (
            "how much does Kelp have now uh $9,000 after the review",
            "how much does Kelp have now? $9,000 after the review",
        ),
        ("is Kelp still on monday or did that change", "is Kelp still on monday or did that change?"),
        ("[inaudible] Kelp is live so yeah", "Kelp is live"),
        ("the Kelp phase is over", "the Kelp phase is over"),
    ],
)
def test_dictation_reads_as_typed(spoken: str, typed: str) -> None:
    assert read_dictation(spoken) == typed


@pytest.mark.parametrize(
    ("mail", "body"),
    [
        ("Dear colleagues, Correction: the venue is the Mill.", "Correction: the venue is the Mill."),
        ("Good afternoon. The venue is the Mill.", "The venue is the Mill."),
        ("The venue is the Mill. Kind regards.", "The venue is the Mill."),
        ("The venue is the Mill.\nKind regards,\nIlse Brandt", "The venue is the Mill."),
        ("Value: the Mill Please acknowledge receipt.", "Value: the Mill"),
        ("Many thanks for the update, it is the Mill.", "Many thanks for the update, it is the Mill."),
        ("The venue is the Mill.\n> The venue is the Barn.\n> Thanks", "The venue is the Mill.\n"),
        ("The venue is the Mill.\n-----Original Message-----\nIt is the Barn.", "The venue is the Mill.\n"),
        ("The venue is the Mill.\nOn Monday, Ilse wrote:\nIt is the Barn.", "The venue is the Mill.\n"),
    ],
)
def test_letter_frame_is_set_aside(mail: str, body: str) -> None:
    assert letter_body(mail) == body


def _claim_subject(text: str, names: set[str]) -> str | None:
    knowledge = Knowledge(names=set(names))
    analysis = analyse(PolicyMessage(2, "user", text), knowledge)
    return None if analysis is None else ",".join(analysis.names) + ("|personal" if analysis.personal else "")


def test_formal_statements_are_asserted() -> None:
    # certainty and impossibility are not hedges; "as at" is the present; a correction that calls
    # the earlier statement obsolete says what holds instead
    assert is_assertion("It is hereby confirmed, for the avoidance of doubt, that 4 May is the date of Kelp.")
    assert is_assertion("The earlier date could not be kept, and 4 May has been substituted for Kelp.")
    assert is_assertion("In response to the enquiry: Kelp is concluded, as at close of business yesterday.")
    assert is_assertion("Correction: the title in my last note is obsolete; Ilse now serves as counsel.")
    assert not is_assertion("The old notes are obsolete.")
    # a denied proposition is not asserted
    assert not is_assertion("It is categorically denied that Ilse is to be relocated to Quito.")
    assert not is_assertion("Please disregard the circular saying Kelp moved; it is unfounded.")


def test_reference_to_own_earlier_message_is_not_first_person() -> None:
    names = {"Kelp", "Ilse"}
    assert _claim_subject("Further to my previous message, Kelp has been moved to 4 May.", names) == "kelp"
    assert _claim_subject("Further to my previous message, my seat has changed to the aisle.", names) == (
        "|personal"
    )
    undersigned = "Action item: catering to note that meals for the undersigned must be vegan."
    assert _claim_subject(undersigned, names) == "|personal"


def test_recorded_value_in_an_erratum_is_the_old_value() -> None:
    knowledge = Knowledge(names={"Kelp"})
    text = "Erratum: Kelp was recorded as paused; it should read live."
    analysis = analyse(PolicyMessage(2, "user", text), knowledge)
    assert analysis is not None and "paused" in analysis.replaced and analysis.change


def test_past_evaluation_is_an_episode_but_a_passive_change_is_not() -> None:
    knowledge = Knowledge(names={"Kelp"})
    assert analyse(PolicyMessage(2, "user", "The Kelp retro ran long but was useful."), knowledge) is None
    assert analyse(PolicyMessage(2, "user", "Kelp was brought forward to 4 May."), knowledge) is not None


def test_subject_governed_inside_a_negation() -> None:
    # "that date didn't hold for Kelp": Kelp is what the sentence is about, not a negated value
    text = "that date didn't hold for Kelp we're looking at the 19th instead"
    assert _claim_subject(text, {"Kelp"}) == "kelp"


def test_answer_to_a_self_asked_question_is_not_a_task() -> None:
    assert assertive_part("What's Ilse doing now uh research lead since the reorg") == (
        "What's Ilse doing now: research lead since the reorg"
    )
    assert _claim_subject("What's Ilse doing now uh research lead since the reorg", {"Ilse"}) == "ilse"


# -- cost on hostile input ------------------------------------------------------------------------

_MAXREPEAT = sre_parse.MAXREPEAT
_PROBE = [chr(c) for c in range(9, 127)]


def _chars(item: tuple[Any, Any]) -> set[str]:
    """The probe characters one parsed item can start with (an over-approximation)."""
    op, av = item
    name = str(op)
    if name == "LITERAL":
        return {chr(av)}
    if name == "NOT_LITERAL":
        return {c for c in _PROBE if c != chr(av)}
    if name == "ANY":
        return set(_PROBE) - {"\n"}
    if name == "IN":
        pattern = re.compile("[" + "".join(_set_text(av)) + "]")
        return {c for c in _PROBE if pattern.match(c)}
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _seq_first(av[2])
    if name == "SUBPATTERN":
        return _seq_first(av[3])
    if name == "BRANCH":
        return set().union(*(_seq_first(b) for b in av[1]))
    return set()


def _set_text(items: Any) -> list[str]:
    out = []
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            out.insert(0, "^")
        elif name == "LITERAL":
            out.append(re.escape(chr(av)))
        elif name == "RANGE":
            out.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
        elif name == "CATEGORY":
            out.append(_CATEGORIES[str(av)])
    return out


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W",
}


def _seq_first(seq: Any) -> set[str]:
    first: set[str] = set()
    for item in seq:
        first |= _chars(item)
        if not _optional(item):
            break
    return first


def _optional(item: tuple[Any, Any]) -> bool:
    op, av = item
    name = str(op)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return av[0] == 0 or all(_optional(i) for i in av[2])
    if name in ("AT", "ASSERT", "ASSERT_NOT"):
        return True
    if name == "SUBPATTERN":
        return all(_optional(i) for i in av[3])
    if name == "BRANCH":
        return any(all(_optional(i) for i in b) for b in av[1])
    return False


def _unbounded(item: tuple[Any, Any]) -> bool:
    return str(item[0]) in ("MAX_REPEAT", "MIN_REPEAT") and item[1][1] == _MAXREPEAT


def _contains_unbounded(seq: Any) -> bool:
    for op, av in seq:
        name = str(op)
        if _unbounded((op, av)) or (name in ("MAX_REPEAT", "MIN_REPEAT") and _contains_unbounded(av[2])):
            return True
        if name == "SUBPATTERN" and _contains_unbounded(av[3]):
            return True
        if name == "BRANCH" and any(_contains_unbounded(b) for b in av[1]):
            return True
    return False


def hazards(pattern: re.Pattern[str]) -> list[str]:
    """Backtracking hazards in a compiled pattern, counted (an empty list: none found)."""
    found: list[str] = []
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    lead = next(iter(parsed), None)
    anchored = lead is not None and str(lead[0]) == "AT" and str(lead[1]) == "AT_BEGINNING"

    def walk(seq: Any, top: bool) -> None:
        items = list(seq)
        for index, (op, av) in enumerate(items):
            if _unbounded((op, av)) and _contains_unbounded(av[2]):
                found.append(f"nested repeat at item {index}")
            if _unbounded((op, av)):
                mine = _chars((op, av))
                for later in range(index + 1, len(items)):
                    other = items[later]
                    if _unbounded(other) and mine & _chars(other):
                        tail = items[later + 1 :]
                        if not all(_optional(i) for i in tail):
                            found.append(f"adjacent overlapping repeats at items {index}, {later}")
                        break
                    if not _optional(other):
                        break
            if _unbounded((op, av)) and not (top and anchored) and _far_reaching(av[2]):
                follow = next((i for i in items[index + 1 :] if not _optional(i)), None)
                if follow is not None and _chars(follow) and _chars(follow) <= _chars((op, av)):
                    found.append(f"repeat reads to a far boundary at item {index}")
            for child in _children(op, av):
                walk(child, False)
        if top:
            lead = next((i for i in items if str(i[0]) not in ("AT",)), None)
            if lead is not None and _unbounded(lead) and not any(str(i[0]) == "AT" for i in items[:1]):
                found.append("unanchored leading repeat")

    walk(parsed, True)
    return found


def _far_reaching(body: Any) -> bool:
    """A repeat of one negated class or of any character (``[^.;!?]*``, ``.*``): it stops only at
    a far boundary, so a search that tries it from every match reads to that boundary each time
    when what follows it can also be read by it (``[^.;!?]*\\btoday``)."""
    items = list(body)
    if len(items) != 1:
        return False
    op, av = items[0]
    name = str(op)
    return name in ("NOT_LITERAL", "ANY") or (name == "IN" and any(str(o) == "NEGATE" for o, _ in av))


def _children(op: Any, av: Any) -> list[Any]:
    name = str(op)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return [av[2]]
    if name == "SUBPATTERN":
        return [av[3]]
    if name == "BRANCH":
        return list(av[1])
    if name in ("ASSERT", "ASSERT_NOT"):
        return [av[1]]
    return []


def _module_patterns(module: object) -> dict[str, re.Pattern[str]]:
    return {name: value for name, value in vars(module).items() if isinstance(value, re.Pattern)}


LEXICON_EXEMPT = {
    # searched only through lexicon.old_value_matches, which tests the "from X to" lookahead against
    # positions found once (tests/core/test_policies_lexicon_linear.py)
    "OLD_VALUE": "far boundary", "EXPLICIT_OLD_VALUE": "far boundary",
    # searched only through lexicon.update_marker_span (the same test file); fullmatch reads from one
    # position
    "UPDATE_MARKER": "far boundary",
    # the discourse opener's words end each repetition (no two ways to split a run), and the
    # pattern starts only at the message's or a sentence's start
    "PAST_NARRATIVE": "nested repeat", "TASK_VERB": "nested repeat",
    # matched at one position (ledger.py), never searched
    "PRONOUN_AFTER": "unanchored leading repeat",
    # nothing after the repeat can fail: each match reads one run of non-blanks
    "_NON_SPACE": "unanchored leading repeat",
    # matched at one position (lexicon.update_marker_span), never searched
    "_CLAUSE_END_AFTER": "unanchored leading repeat", "_HEARER_AFTER": "unanchored leading repeat",
}
"""Lexicon patterns whose counted hazard is not one in the way they are used, with why."""


@pytest.mark.parametrize(
    "name",
    [f"speech.{n}" for n in _module_patterns(speech)]
    + [f"letters.{n}" for n in _module_patterns(letters)]
    + [f"chat.{n}" for n in _module_patterns(chat)]
    + [f"tracker_notation.{n}" for n in _module_patterns(tracker_notation)]
    + [f"reported.{n}" for n in _module_patterns(reported)]
    + [f"texting.{n}" for n in _module_patterns(texting)]
    + [f"lexicon.{n}" for n in _module_patterns(lexicon) if n not in LEXICON_EXEMPT],
)
def test_pattern_has_no_backtracking_hazard(name: str) -> None:
    module_name, attr = name.split(".")
    module = {
        "speech": speech, "letters": letters, "chat": chat, "lexicon": lexicon,
        "tracker_notation": tracker_notation, "reported": reported, "texting": texting,
    }[module_name]
    assert hazards(getattr(module, attr)) == []


@pytest.mark.parametrize("name", sorted(LEXICON_EXEMPT))
def test_exempt_lexicon_pattern_has_only_its_known_hazard(name: str) -> None:
    found = hazards(getattr(lexicon, name))
    assert found and all(LEXICON_EXEMPT[name] in h for h in found)


def test_hazard_counter_finds_the_known_shapes() -> None:
    """The counter is not vacuous: the classic shapes, and chat.py's old aside pattern, count."""
    assert hazards(re.compile(r"(a+)+b"))
    assert hazards(re.compile(r"x[ \t]*,?[ \t]*y"))
    assert hazards(re.compile(r"[ \t]*,?[ \t]*\x00"))  # chat._ASIDE_INSIDE before this round
    assert hazards(re.compile(r"\s+x"))
    assert not hazards(re.compile(r"(?<![ \t])[ \t]*(?:,[ \t]*)?\x00"))
    # lexicon's quadratic searches before branch lexlinear: a read to the clause end from every match
    assert hazards(re.compile(r"\b(?:was|were)\b[^.;!?]*\b(?:today|tonight)\b", re.I))
    assert hazards(re.compile(r"from(?=\s[^.;,!?]*\bto\b)", re.I))
    assert not hazards(re.compile(r"\b(?:was|were)(?=\s[^.;!?]{0,80}\bbut\b)", re.I))
    assert not hazards(re.compile(r"^.*?\b(?:anyway)\b"))


BIG = 250_000


@pytest.mark.parametrize(
    "hostile",
    [
        " " * BIG + "x",  # a run of blanks with nothing after it
        "um " * (BIG // 3),  # fillers
        "pls" + " " * BIG + "y",  # an aside marker's blanks (chat._ASIDE_INSIDE)
        "Aa " * (BIG // 3),  # capitalised words (chat._opens_sentence)
        ("twenty " * (BIG // 7)),  # a run of number words
        "no wait " * (BIG // 8),  # edit terms
        "regards" + " " * BIG + "x",  # a valediction followed by blanks and more text
        "Dear" + " a" * (BIG // 2),  # a salutation that never ends
        "> q\n" * (BIG // 4),  # quoted lines
        "was nice " * (BIG // 9),  # past evaluations
        "it is denied that " * (BIG // 18),  # denials
        "further to my previous message " * (BIG // 31),
        "s/a" * (BIG // 3),  # substitutions that never close
        "~~" + "a " * (BIG // 2),  # a strike-through that never closes
        "x: a -" * (BIG // 6),  # field lines whose arrow never comes
        "A" + " A" * (BIG // 2),  # a run of capitals
        "(cc a " * (BIG // 6),  # asides that never close
    ],
    ids=["blanks", "fillers", "aside", "capitals", "numbers", "edits", "valediction", "salutation",
         "quoted", "evaluations", "denials", "earlier-message", "substitutions", "strikes", "arrows",
         "capitals-run", "cc-asides"],
)
def test_hostile_message_is_read(hostile: str) -> None:
    text = normalise(hostile)
    assert len(text) <= len(hostile) + 16
    assert isinstance(assertive_part(hostile[:20_000]), str)


class _CountingStr(str):
    """A string that counts how many characters are read from it by index."""

    reads = 0

    def __getitem__(self, key: Any) -> str:  # type: ignore[override]
        _CountingStr.reads += 1
        return str.__getitem__(self, key)


def test_sentence_opening_scan_reads_only_the_blanks_before_the_word() -> None:
    text = _CountingStr("x" * BIG + "   Aa")
    _CountingStr.reads = 0
    chat._opens_sentence(text, len(text) - 2)
    assert _CountingStr.reads <= 3 + 2  # the three blanks, the character before them (and slack)
