"""Texts typed on a phone and the readings of branch policies13, one by one.

A star correction on the next line; a short first text as a lead-in; a line break ending a clause
(a negation, a withdrawal answered by the next text); a bare "never mind"; repeated exclamation
marks as emphasis; weekday abbreviations placed as dates; "grand" as money; "starting X" bounding
a state; "was X, not now" as outdated and "was X, now Y" naming X as the old value; the speaker
denied ("not me"); "or …" and an apology after a question; a possessive typed without its
apostrophe; a sign-off standing as a message's last line; "fixed" as a repair. The vocabulary
(Quill, Heron, Lune, Odile, Pavel, Ghent, Turku…) is of no benchmark wording.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies import Claim
from ctxscope.core.policies.ledger import _without_relations
from ctxscope.core.policies.lexicon import DATE_VALUE, MONEY_VALUE, assertive_part
from ctxscope.core.policies.texting import read_texts

from tests.core.test_policies_markdown import _run  # the same opening: Quill, Heron, Odile, Pavel


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Quill relese is Friday\n*release", "Quill release is Friday"),
        ("Odiles desk: Ghent\n*Odile's", "Odile's desk: Ghent"),
        ("Pavel sits in Turku\n*Turku, the right one", "Pavel sits in Turku"),  # a repeat confirms
        ("so anyway\nHeron is paused", "so anyway: Heron is paused"),
        ("Lune\nowner\nOdile", "Lune: owner\nOdile"),
        ("Ask Pavel about Heron\nthanks", "Ask Pavel about Heron\nthanks"),  # a name: no lead-in
        ("one line only", "one line only"),
        ("* a bullet\n* another", "* a bullet\n* another"),  # a star and a blank is a bullet
    ],
)
def test_texts_read_as_prose(text: str, read: str) -> None:
    assert read_texts(text) == read


def test_dates_and_money_as_texted() -> None:
    assert DATE_VALUE.search("Quill is fri the 9th")
    assert DATE_VALUE.search("Quill moves to thurs 3/14").group(0) == "thurs 3/14"  # type: ignore[union-attr]
    assert DATE_VALUE.search("Heron is next weds")
    assert not DATE_VALUE.search("Pavel sat with us")  # alone, "sat" is a verb
    assert MONEY_VALUE.search("Lune gets 40 grand")


def test_emphasis_and_outdated_figures() -> None:
    assert assertive_part("Heron opens in Ghent!!")
    assert not assertive_part("What a day!")
    assert not assertive_part("$12k for Heron was the figure back in spring, not now")


def test_a_negation_ends_with_its_text() -> None:
    tracker = _run("Quill ships on Friday.", "wait no not Friday\nQuill ships on Monday")
    assert tracker.ledger.claims[11].values.get("<date>") == "monday"
    assert 10 in tracker.ledger.superseded


@pytest.mark.parametrize(
    "correction",
    # the next text says what holds; a bare "never mind" before a clause
    ["scratch that about Quill\nMonday", "never mind Quill ships on Monday"],
)
def test_a_withdrawal_with_what_holds_instead_corrects(correction: str) -> None:
    assert 10 in _run("Quill ships on Friday.", correction).ledger.superseded
    assert not assertive_part("never mind, ignore me")


def test_a_date_a_change_starts_on_is_no_launch_day() -> None:
    tracker = _run("Quill ships on Friday.", "ok Pavel takes over Quill starting tomorrow")
    assert 10 not in tracker.ledger.superseded


def test_a_past_value_contrasted_with_now_is_the_old_one() -> None:
    tracker = _run("Heron is on Friday.", "Heron was Friday, now Monday")
    assert "friday" in tracker.ledger.claims[11].replaced
    assert tracker.ledger.claims[11].values.get("<date>") == "monday"


def test_the_speaker_denied_is_no_subject() -> None:
    said = ("I'm vegan now.", "My seat is the aisle.", "I take calls after 3pm.", "I earn $5k.")
    tracker = _run(*said, "Odile has Quill, ask her not me.", "Odile has Heron, ask her or me.")
    assert tracker.ledger.claims[15].subject == "user"  # the speaker is the topic the session says most of
    assert tracker.ledger.claims[14].subject != "user"


def test_an_alternative_or_an_apology_answers_no_question() -> None:
    assert "Quill" not in assertive_part("Monday still the Quill day?? or not")
    assert "Quill" not in assertive_part("Quill on Monday?\nsorry typos")
    assert "Quill" in assertive_part("Who has Quill? Odile now.")  # a question answered at once


def test_a_possessive_without_its_apostrophe() -> None:
    tracker = _run("Pavels office is Ghent")
    assert tracker.ledger.claims[10].subject == "pavel"


def test_a_repair_is_an_episode() -> None:
    tracker = _run("Odile owns Quill.", "Pavel and I fixed the Quill bug on a call.")
    assert 11 not in tracker.ledger.claims and 10 not in tracker.ledger.superseded


def test_a_sign_off_line_is_no_value() -> None:
    """A kind whose words stand as the whole last line of almost all its statements is a sign-off,
    not a kind of value (the same claims with the words elsewhere keep it)."""
    said = [("quill", "talk later"), ("heron", "back to it"), ("lune", "gotta run")] * 2

    def claims(closing: bool) -> list[Claim | None]:
        return [
            Claim(turn, subject, {"later": words}, closing=frozenset({"later"} if closing else ()))
            for turn, (subject, words) in enumerate(said, start=10)
        ]

    assert all(c is not None and not c.values for c in _without_relations(claims(True)))
    assert all(c is not None and c.values for c in _without_relations(claims(False)))


def test_emphasis_inside_a_sentence_and_informal_cancellation() -> None:
    assert read_texts("Pavel promoted!!! sales lead now") == "Pavel promoted, sales lead now"
    assert read_texts("Great!! See you") == "Great!! See you"  # a capital starts a new sentence
    tracker = _run("Heron is at the Boathouse.", "the Boathouse bailed so Heron is at the Mill")
    assert 10 in tracker.ledger.superseded
    tracker = _run("Quill ships sat the 9th.", "sat the 9th is out, Quill ships fri the 15th")
    assert 11 in tracker.ledger.claims and 10 in tracker.ledger.superseded
