"""Reported speech and minutes read as statements: the rules of branch policies10, one by one.

The speaker relays what others said or decided: indirect speech with its tenses shifted back
("the coordinator said the fair would open on Friday"), a source naming the speaker as hearer
("Legal told us…"), a relayed question with its answer, a nominalised decision ("Transfer of X to
Y was approved"), an attribution aside ("(as relayed to me)", "…, I gather."), an amended entry of
a record ("Point 3 of the March notes is amended to read: …"), an out-of-date record still quoted
("the old roster still has…"), and a subject denied with "never" ("the annex had never been
considered"). The vocabulary (Orchid, Kestrel, Brno, Selma…) is of no benchmark wording.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies import PolicyMessage, SupersessionTracker
from ctxscope.core.policies.chat import normalise
from ctxscope.core.policies.lexicon import assertive_part, reported_present
from ctxscope.core.policies.reported import read_reported

ASSERTS = [
    # backshifted "would" / "could" after a verb of saying is the source's "will" / "can"
    "The coordinator said the Orchid fair would open on Friday.",
    "According to the finance desk, Orchid could spend €40,000.",
    "Word from the board was that Orchid would launch on the 3rd of June.",
    # a definite or named source telling the speaker: relayed, not hearsay
    "Legal told us Selma now signs the Kestrel contracts.",
    "The registrar told me Kestrel had moved to Brno.",
    # "reportedly" names its source as a report
    "Reportedly Kestrel has moved to the east wing.",
    # a relayed question with its answer
    "Asked whether Orchid still kept its slot, the clerk answered that it was now Thursday.",
    # "pending" before its noun bounds a state
    "Orchid is on hold pending the audit.",
]

NOT_ASSERTS = [
    "A little bird told me Orchid slips to Friday.",  # an indefinite source: hearsay
    "Someone told me Orchid slips to Friday.",
    "Orchid would be nicer on Friday.",  # no verb of saying: the modal hedges
    "It was floated that €5,000 more would let Orchid hire.",  # floated: not a verb of saying
    "The approval is still pending.",  # "pending" as a predicate: undecided
    "Overheard at lunch: Orchid might slide to Friday.",
    "The grapevine has Selma heading for Brno.",
    "The old roster still has Selma over Kestrel.",  # an out-of-date record still quoted
    "An archived plan still lists Orchid against Friday; it was withdrawn.",
    "Allegedly Kestrel has moved to the east wing.",
]


@pytest.mark.parametrize("text", ASSERTS)
def test_reported_statement_asserts(text: str) -> None:
    assert assertive_part(text).strip()


@pytest.mark.parametrize("text", NOT_ASSERTS)
def test_hearsay_and_old_records_assert_nothing(text: str) -> None:
    assert not assertive_part(text).strip()


def test_backshift_read_forward_only_after_a_verb_of_saying() -> None:
    assert reported_present("The clerk replied that it was at the draft stage") == (
        "The clerk replied that it is at the draft stage"
    )
    assert reported_present("Orchid was at the draft stage") == "Orchid was at the draft stage"


@pytest.mark.parametrize(
    ("framed", "statement"),
    [
        ("Orchid opens on Friday (as relayed to me).", "Orchid opens on Friday."),
        ("Orchid opens on Friday. (second-hand)", "Orchid opens on Friday."),
        ("Orchid opens on Friday — so I was told.", "Orchid opens on Friday."),
        ("Orchid opens on Friday, I gather.", "Orchid opens on Friday."),
        ("Orchid opens on Friday, as I understand it.", "Orchid opens on Friday."),
        ("Orchid opens on Friday. Source: the clerk.", "Orchid opens on Friday."),
        ("From the ledger — Orchid opens on Friday.", "From the ledger: Orchid opens on Friday."),
        (
            "Point 3 of the March notes is amended to read: Orchid, Friday (formerly Monday).",
            "Correction: Orchid, Friday (formerly Monday).",
        ),
    ],
)
def test_the_frame_of_a_report_is_left_out(framed: str, statement: str) -> None:
    assert read_reported(framed) == statement


def test_acronym_in_capitals_is_no_chat_abbreviation() -> None:
    assert normalise("HR told us Selma moved.").startswith("HR ")
    assert normalise("back in 2 hr") == "back in 2 hour"


INTRO = [
    PolicyMessage(1, "user", "Context: I run the Orchid fair and the Kestrel office with Selma and Ivo."),
    PolicyMessage(2, "assistant", "Noted: Orchid, Kestrel, Selma and Ivo."),
]


def _run(*texts: str) -> SupersessionTracker:
    tracker = SupersessionTracker()
    tracker.read_many([*INTRO, *(PolicyMessage(10 + i, "user", t) for i, t in enumerate(texts))])
    return tracker


@pytest.mark.parametrize(
    ("first", "update"),
    [
        # indirect speech naming the old value, its tenses shifted back
        (
            "Orchid opens on Friday.",
            "The coordinator told us Orchid would no longer open on Friday but on Monday.",
        ),
        # an amended entry of a record naming what it read before
        (
            "Orchid opens on Friday.",
            "Point 3 of the March notes is amended to read: Orchid opens on Monday (formerly Friday).",
        ),
    ],
)
def test_relayed_update_retires_the_first_statement(first: str, update: str) -> None:
    tracker = _run(first, update)
    assert 10 in tracker.ledger.superseded


def test_a_decision_in_the_passive_is_a_statement() -> None:
    """ "was approved" is a passive, not the past state "was a…" (the pattern once read "was a" in
    "was approved")."""
    tracker = _run("Transfer of Kestrel to Brno was approved.")
    assert tracker.ledger.claims.get(10) is not None


def test_a_subject_denied_with_never_sets_nothing() -> None:
    tracker = _run(
        "The Orchid fair will be held in the south hall.",
        "The planners said the east annex had never been in the running for Orchid.",
    )
    assert 10 not in tracker.ledger.superseded


def test_the_speaker_as_hearer_is_not_the_subject() -> None:
    tracker = _run("Legal told me Selma was now based in Brno.")
    claim = tracker.ledger.claims.get(10)
    assert claim is not None and claim.subject != "user"
