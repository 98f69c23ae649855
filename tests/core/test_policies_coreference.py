"""Reference and the readings of branch policies11, one by one.

A message names its subject in one clause and gives its value in the next through a word that
refers back ("the former", "They", "the same"); amounts come with any currency sign and in lakh or
crore; dates are written day.month; a clause narrating a past episode sets the scene for a
statement about the present; an answer may reject the question or know nothing; a word of change
may be a noun. The vocabulary (Orchid, Kestrel, Tarn, Selma, Ivo, Brno…) is of no benchmark
wording.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies import PolicyMessage, SupersessionTracker
from ctxscope.core.policies.coreference import resolve_references
from ctxscope.core.policies.lexicon import DATE_VALUE, MONEY_VALUE, assertive_part, update_marker_span
from ctxscope.core.policies.policies import _only_asks


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        # "the former" / "the latter": the first and second of the pair just named
        (
            "Orchid and the roof repair are both on the list; the former opens 9/04.",
            "Orchid and the roof repair are both on the list; Orchid opens 9/04.",
        ),
        (
            "Of the parking rota and Kestrel, only the latter's figure moved.",
            "Of the parking rota and Kestrel, only Kestrel's figure moved.",
        ),
        # a clause-opening pronoun after one name in the clause before
        (
            "Spoke to the desk about Selma. They're in Brno now.",
            "Spoke to the desk about Selma. Selma is in Brno now.",
        ),
        ("Checked on Orchid. It's on hold now.", "Checked on Orchid. Orchid is on hold now."),
        # "the same" as a pronoun: the nearest name before it
        ("Regarding Kestrel, the same opens on Friday.", "Regarding Kestrel, Kestrel opens on Friday."),
        ("About Orchid: the cap for the same is firm.", "About Orchid: the cap for Orchid is firm."),
    ],
)
def test_an_anaphor_reads_as_what_it_refers_to(text: str, resolved: str) -> None:
    assert resolve_references(text) == resolved


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, Selma! It's a lovely idea.",  # a name the speaker addresses is no referent
        "Hey Ivo! It was great to see you.",
        "Selma and Ivo came by. They are moving.",  # a pair: "They" is both, or unclear
        "Spoke to Selma about Orchid. It's on hold now.",  # two names: unclear
        "Met Selma. It seems Orchid is late.",  # "it seems": nothing to refer to
        "Met Selma. She is in Brno now.",  # "she" may not be the one named
        "The menu is the same as last year.",  # "the same as"
        "Ivo sits in Brno; the same goes for his team.",  # "the same goes for"
        "we met selma. they're in brno now.",  # lower case: no name to go by
    ],
)
def test_no_anaphor_is_resolved_without_one_clear_referent(text: str) -> None:
    assert resolve_references(text) == text


def test_typed_values_of_other_currencies_and_date_orders() -> None:
    assert MONEY_VALUE.search("Orchid has ₹12 lakh now").group(0) == "₹12 lakh"  # type: ignore[union-attr]
    assert MONEY_VALUE.search("a budget of ₩3.5 crore").group(0) == "₩3.5 crore"  # type: ignore[union-attr]
    assert MONEY_VALUE.search("It is C$9,000 now").group(0).strip() == "C$9,000"  # type: ignore[union-attr]
    assert MONEY_VALUE.search("about 40 lakh rupees") is not None
    assert DATE_VALUE.search("Orchid opens 14.03.") is not None  # day.month
    assert DATE_VALUE.search("moved to 3.11.2027, fine") is not None
    for not_a_date in ("it took 2.5 hours", "version 4.10", "costs 12.50", "up 3.07%"):
        assert DATE_VALUE.search(not_a_date) is None, not_a_date


def test_a_word_of_change_as_a_noun_or_addressed_to_the_hearer_is_no_change() -> None:
    assert update_marker_span("Sat with Ivo over the office move; it took all day.") is None
    assert update_marker_span("Just to update you: lunch was fine.") is None
    assert update_marker_span("Orchid moves to Friday.") is not None
    assert update_marker_span("The move to Friday is final.") is not None  # a noun with its goal
    assert update_marker_span("Is it still Friday or did that change") is not None


def test_a_narrated_clause_sets_the_scene_for_a_present_statement() -> None:
    assert assertive_part("Got a note about Selma. They've taken the lead post.") == (
        "Selma has taken the lead post."
    )
    # a message that only narrates is left whole (the claim reader sets it aside)
    assert assertive_part("Sat with Ivo over the office move; took all morning.") == (
        "Sat with Ivo over the office move; took all morning."
    )


def test_messages_that_only_ask_carry_no_state() -> None:
    assert _only_asks("Can you book the Orchid lunch? And the room?")
    assert not _only_asks("Orchid moved to Friday. Can you book lunch?")
    assert not _only_asks("")


INTRO = [
    PolicyMessage(1, "user", "Context: I run the Orchid fair and the Kestrel office with Selma and Ivo."),
    PolicyMessage(2, "assistant", "Noted: Orchid, Kestrel, Selma and Ivo."),
    PolicyMessage(3, "user", "Selma is based in Tarn."),
    PolicyMessage(4, "user", "Ivo is based in Brno."),
]


def _run(*texts: str) -> SupersessionTracker:
    tracker = SupersessionTracker()
    tracker.read_many([*INTRO, *(PolicyMessage(10 + i, "user", t) for i, t in enumerate(texts))])
    return tracker


def test_an_update_through_a_pronoun_after_a_narrated_clause_retires_the_old_value() -> None:
    """ "Got a note about Selma." narrates; "They've moved to Brno." is Selma's update (before
    this round the narrated clause set the whole message aside and "They" named nobody)."""
    tracker = _run("Selma is based in Tarn.", "Got a note about Selma. They've moved to Brno.")
    assert 10 in tracker.ledger.superseded


def test_a_rejected_proposal_retires_nothing() -> None:
    tracker = _run("Ivo is based in Brno.", "Ivo moving to Tarn? Nonsense; that was never on.")
    assert 10 not in tracker.ledger.superseded


def test_a_subject_denied_with_never_is_named_as_no_value() -> None:
    tracker = _run("Orchid will be held in the south hall.", "The east annex was never an option for Orchid.")
    claim = tracker.ledger.claims.get(11)
    assert claim is not None and not claim.values and {"east", "annex"} <= claim.replaced
    assert 10 not in tracker.ledger.superseded


def test_an_answer_that_knows_nothing_is_no_answer() -> None:
    tracker = _run("Selma runs Kestrel now.", "Who runs Kestrel these days? Can't remember who.")
    assert tracker.ledger.claims.get(11) is None
    assert 10 not in tracker.ledger.superseded


def test_an_epistemic_aside_does_not_make_the_speaker_the_subject() -> None:
    tracker = _run("Checked on Kestrel. It's on hold now, as far as I know.")
    claim = tracker.ledger.claims.get(10)
    assert claim is not None and claim.subject == "kestrel"


def test_a_relatives_clause_is_the_circumstance_of_a_named_statement() -> None:
    """ "Selma and her manager swapped desks, so Selma is now in Brno": the manager's clause is the
    circumstance; someone else's attribute alone still states nothing of the speaker's."""
    tracker = _run(
        "Selma is based in Tarn.", "Selma and her manager swapped desks, so the former is now in Brno."
    )
    assert 10 in tracker.ledger.superseded
    assert _run("My sister moved to Brno, so I'm visiting her.").ledger.claims.get(10) is None
