"""Tracker and team-chat notation read as English (tracker_notation.py), and the assertion, value
and supersession rules it needs (lexicon.py, claims.py).

The cases are general English sentences in neutral vocabulary (projects Kelp, Marlin; people Tom,
Dana, Priya; cities Oslo, Lima), none of them a wording set's template.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies.chat import normalise
from ctxscope.core.policies.claims import UNTIL_KIND, Knowledge, analyse
from ctxscope.core.policies.ledger import SupersessionTracker
from ctxscope.core.policies.lexicon import DATE_VALUE, NUMBER_VALUE, assertive_part, is_assertion
from ctxscope.core.policies.records import PolicyMessage
from ctxscope.core.policies.tracker_notation import read_notation

# -- notation written out ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("Kelp deadline: s/Monday/Friday/", "Kelp deadline: Friday (was Monday)"),
        ("s/Tom/Dana/ for the Kelp review", "Dana (was Tom) for the Kelp review"),
        ("Kelp reviewer: s/@Tom/@Dana/", "Kelp reviewer: Dana (was Tom)"),
        ("~~Monday~~ Friday for the Kelp demo", "(was Monday) Friday for the Kelp demo"),
        ("Kelp owner: Tom -> Dana", "Kelp owner: (was Tom) Dana"),
        ("Kelp owner: Tom → Dana", "Kelp owner: (was Tom) Dana"),
        ("note: Tom got promoted -> lead", "note: Tom got promoted -> lead"),  # a clause, not a field
        ("when does Kelp ship? -> Friday", "when does Kelp ship? Friday"),
        ("Kelp owner = Dana", "Kelp owner is Dana"),
        ("@here the Kelp demo is on Friday", "the Kelp demo is on Friday"),
        ("@channel, lunch is at noon", "lunch is at noon"),
        ("ask @Dana about Kelp", "ask Dana about Kelp"),
        ("hi all, Kelp ships Friday", "Kelp ships Friday"),
        ("morning team ☕ Kelp ships Friday", "Kelp ships Friday"),
        ("Team, Kelp ships Friday", "Kelp ships Friday"),
        ("Kelp ships Friday (cc Dana)", "Kelp ships Friday"),
        ("Kelp lead is Dana (Priya told me)", "Kelp lead is Dana"),
        ("edit: Kelp ships Friday", "Correction: Kelp ships Friday"),
        ("heads-up: Edit: Kelp ships Friday", "heads-up: Correction: Kelp ships Friday"),
        ("Kelp is IN REVIEW now", "Kelp is in review now"),
        ("Kelp is BLOCKED", "Kelp is blocked"),
        ("ask the PO about the EUR budget", "ask the PO about the EUR budget"),  # acronyms
        ("Dana is Oslo-based", "Dana is based in Oslo"),
        ("[availability] mornings only", "availability: mornings only"),
        ("no notation here, Kelp ships Friday.", "no notation here, Kelp ships Friday."),
    ],
)
def test_notation_reads_as_english(typed: str, read: str) -> None:
    assert read_notation(typed) == read


def test_the_notation_runs_before_chat_abbreviations() -> None:
    assert normalise("pls note: Kelp budget s/$9k/$12k/") == "please note: Kelp budget $12k (was $9k)"


# -- what asserts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "If Kelp slips to Friday we lose the demo slot.",
        "re planning: If Marlin moves to Lima the team splits.",
        "Archived ticket still shows Tom owning Kelp, the archive is outdated.",
    ],
)
def test_not_an_assertion(text: str) -> None:
    assert not is_assertion(text)


@pytest.mark.parametrize(
    "text",
    [
        "If you need anything on Kelp, talk to Dana.",
        "If urgent, call me on the pager.",
        "Window seat for me if possible.",
        "We ship Kelp on Friday, as discussed in the retro.",
        "Edit: Kelp went live, previous status outdated.",
        "Kelp lead is Dana (Priya told me).",
    ],
)
def test_an_assertion(text: str) -> None:
    assert is_assertion(text)


@pytest.mark.parametrize(
    "text",
    [
        "Anyone knows the Kelp budget? cannot find it anywhere",
        "Is Tom still in Oslo or moved? (asking for the invite)",
    ],
)
def test_a_question_is_not_read_with_what_follows_it(text: str) -> None:
    """Put to anyone who knows, or followed by a parenthesis, the question waits for an answer."""
    assert "Kelp" not in assertive_part(text) and "Oslo" not in assertive_part(text)


def _analyse(text: str, names: set[str] | None = None):  # type: ignore[no-untyped-def]
    knowledge = Knowledge()
    knowledge.names |= names or {"Kelp", "Marlin", "Tom", "Dana", "Priya", "Oslo", "Lima"}
    return analyse(PolicyMessage(2, "user", text), knowledge)


def test_a_colon_label_with_a_preposition_heads_a_statement() -> None:
    analysis = _analyse("Fix in the Kelp ticket: s/@Tom/@Dana/")
    assert analysis is not None and "tom" in analysis.replaced


def test_an_imperative_before_a_colon_is_still_a_task() -> None:
    assert _analyse("Email Dana: the Kelp notes") is None


def test_a_correction_heading_states_what_holds_despite_an_apology() -> None:
    analysis = _analyse("Edit: not Tom, Dana owns Kelp, I mixed them up")
    assert analysis is not None and "tom" in analysis.replaced


def test_a_subjectless_episode_after_a_lead_in_narrates() -> None:
    assert _analyse("small thing: Spent the morning fixing the Kelp build.") is None


def test_a_parenthesis_narrating_the_reason_sets_no_value() -> None:
    analysis = _analyse("Reassigned Kelp to Dana (Tom went to another team)")
    assert analysis is not None and "tom" not in analysis.names


# -- values ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("the demo is on the 3rd floor", []),
        ("the 2nd round starts soon", []),
        ("the demo moved to the 21st.", ["the 21st"]),
        ("the demo is on the 21st, we think", ["the 21st"]),
        ("the 14th of May", ["the 14th of May"]),
    ],
)
def test_an_ordinal_before_a_noun_is_no_date(text: str, dates: list[str]) -> None:
    assert [m.group(0) for m in DATE_VALUE.finditer(text)] == dates
    if not dates:
        assert NUMBER_VALUE.search(text) is None


def test_until_a_date_bounds_a_state_but_delayed_until_names_the_day() -> None:
    bounded = _analyse("Dana covers Kelp until end of year.")
    assert bounded is not None and (UNTIL_KIND, "end of year") in bounded.values
    delayed = _analyse("They delayed Kelp until the 21st.")
    assert delayed is not None and ("<date>", "the 21st") in delayed.values


# -- supersession ------------------------------------------------------------------------------------


def _tracker(*texts: str) -> SupersessionTracker:
    tracker = SupersessionTracker()
    tracker.read_many([PolicyMessage(2 * i + 2, "user", t) for i, t in enumerate(texts)])
    return tracker


def test_a_substitution_retires_the_value_it_replaces() -> None:
    tracker = _tracker("Marlin ships on Thursday.", "The Kelp budget is $9k.", "Kelp budget: s/$9k/$12k/")
    assert 4 in tracker.ledger.superseded and 2 not in tracker.ledger.superseded


def test_a_strike_through_retires_the_value_struck_out() -> None:
    tracker = _tracker("The Kelp budget is $9k.", "~~$9k~~ $12k for Kelp")
    assert 2 in tracker.ledger.superseded


def test_a_field_arrow_retires_the_old_value() -> None:
    tracker = _tracker("The Kelp budget is $9k.", "Kelp budget: $9k -> $12k")
    assert 2 in tracker.ledger.superseded


def test_a_hypothetical_opening_with_if_retires_nothing() -> None:
    tracker = _tracker("Kelp ships on Thursday.", "If Kelp slips to Monday we lose the slot.")
    assert not tracker.ledger.superseded


def test_a_question_with_a_parenthesis_after_it_retires_nothing() -> None:
    tracker = _tracker("Tom works in Oslo.", "Tom still in Lima or moved? (cc Dana)")
    assert not tracker.ledger.superseded


def test_a_bound_on_a_handover_does_not_retire_the_launch_day() -> None:
    tracker = _tracker("Kelp launches on the 21st.", "Dana takes over Kelp till end of year.")
    assert 2 not in tracker.ledger.superseded


def test_the_assertive_part_keeps_a_field_line() -> None:
    assert assertive_part("Kelp owner: @Tom -> @Dana") == "Kelp owner: (was Tom) Dana"
