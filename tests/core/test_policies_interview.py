"""Question-and-answer talk and the readings of branch policies14, one by one.

A sentence that only holds the floor ("Hmm, let me see."); a self-posed question answered at once
by a figure, by an apology that gives the value, by a first clause with a comment after it, or by
"no longer"; "if all goes well" as an expectation, not a condition; the speaker owning up to an
earlier answer ("I misspoke", "I said X …, didn't I?", "I told you X, but …"); "was X, yes, but Y
these days"; a counterfactual offered unasked ("what I'd do"); an intention denied ("has no plans
for"); an earlier record that "lists" something and "that's from before …" as outdated; hyphenated
number words and amounts in euro. The vocabulary (Quill, Heron, Odile, Pavel, Ghent, Turku…) is of
no benchmark wording.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies.lexicon import MONEY_VALUE, assertive_part, normalise

from tests.core.test_policies_markdown import _run  # the same opening: Quill, Heron, Odile, Pavel


def test_holding_the_floor_says_nothing() -> None:
    assert assertive_part("Hmm, let me see. Heron opens in Ghent.") == "Heron opens in Ghent."
    assert assertive_part("Let me think. Odile leads Quill.") == "Odile leads Quill."
    tracker = _run("Heron's venue is the Turku hall.", "Hmm, let me see. Venue for Heron? The Ghent hall.")
    assert tracker.ledger.claims[11].subject == "heron"  # "me" in "let me see" is no attribute of the speaker


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Quill's budget? $12,000, all told.", "<money>"),  # a figure answers, though no word does
        ("Quill? The 9th of May, if all goes well.", "<date>"),  # an expectation, no condition
        ("Where is Heron held? The Ghent hall, and the room is paid for.", None),  # a comment after it
    ],
)
def test_a_question_answered_at_once(text: str, kind: str | None) -> None:
    assert "?" not in assertive_part(text)
    if kind is not None:
        assert kind in _run(text).ledger.claims[10].values


def test_a_condition_still_leaves_the_question_asked() -> None:
    assert "Quill" not in assertive_part("Quill? The 9th of May, if Odile agrees.")


def test_owning_up_to_an_earlier_answer() -> None:
    tracker = _run(
        "Quill's budget is $9,000.", "I said $9,000 for Quill before, didn't I? Sorry — it's $14,000."
    )
    assert 10 in tracker.ledger.superseded
    assert tracker.ledger.claims[11].subject == "quill"
    tracker = _run("Odile leads Heron.", "Sorry, I misspoke earlier — Pavel leads Heron.")
    assert tracker.ledger.claims[11].subject != "user"  # "I misspoke" is about the talk, not the speaker
    tracker = _run("I told you Ghent for Odile, but that's out of date: Turku.")
    assert "ghent" in tracker.ledger.claims[10].replaced


def test_no_longer_negates_what_the_question_put() -> None:
    tracker = _run("Ghent? No longer — Odile moved to Turku.")
    assert tracker.ledger.claims[10].subject == "odile"
    assert "ghent" in tracker.ledger.claims[10].replaced
    assert 3 in tracker.ledger.superseded  # "Odile is based in Ghent." of the opening


def test_a_past_role_conceded() -> None:
    tracker = _run("Was a designer, yes, but Odile's the Quill lead these days.")
    assert {"designer"} <= tracker.ledger.claims[10].replaced


@pytest.mark.parametrize(
    "text",
    [
        "If you're asking what I'd do: move Quill to Friday.",  # a counterfactual, offered unasked
        "Odile has no plans for Turku.",  # an intention denied
        "The previous roster lists Pavel as leading Heron.",  # a record of what held once
        "Pavel ran Heron — that's from before the merger.",
    ],
)
def test_what_commits_to_nothing_current(text: str) -> None:
    assert not assertive_part(text)


def test_number_words_with_a_hyphen_and_amounts_in_euro() -> None:
    assert normalise("Heron gets twenty-six thousand pounds") == "Heron gets 26,000 pounds"
    assert normalise("twenty - six") == "twenty - six"  # spaced apart, two words
    assert MONEY_VALUE.search("Heron gets 40,000 euro")


def test_a_read_back_rejected_names_the_old_value() -> None:
    tracker = _run("Quill is on Friday.", "You have Friday for Quill? That's gone, it's the 9th of May.")
    assert 10 in tracker.ledger.superseded
    assert tracker.ledger.claims[11].values.get("<date>") == "the 9th of may"
    assert "Quill" not in assertive_part("You have Friday down for Quill? That's right.")  # confirmed


def test_a_bare_re_answer_updates_the_same_attribute() -> None:
    """No word of change: the speaker's answer to the question of where Odile is says where she is
    now, so it retires the opening's "Odile is based in Ghent."."""
    tracker = _run("Which office is Odile in? Turku.")
    assert 3 in tracker.ledger.superseded
    assert 3 not in _run("Odile also has a desk in Turku.").ledger.superseded  # said as an addition
