"""Markdown notes and the readings of branch policies12, one by one.

Statements written in Markdown (emphasis, code spans, checklists, tables, fenced blocks, JSON
pairs); a signature on a line of its own; a reply under a quoted line; swaps, requests, narrated
episodes with the speaker as object, past times compared with, hyphenated ordinals, indefinite
sources, "not current" and answers that commit to nothing. The vocabulary (Quill, Heron, Lune,
Odile, Pavel, Ghent, Turku…) is of no benchmark wording.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies import PolicyMessage, SupersessionTracker
from ctxscope.core.policies.chat import normalise
from ctxscope.core.policies.letters import letter_body
from ctxscope.core.policies.lexicon import DATE_VALUE, assertive_part
from ctxscope.core.policies.markdown import read_markdown
from ctxscope.core.policies.tracker_notation import read_notation


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Quill ships on **Friday** from `Ghent`.", "Quill ships on Friday from Ghent."),
        ("_(copied to the wiki)_", "(copied to the wiki)"),
        ("- [x] Heron venue booked\n- [ ] move Heron to Monday", "Heron venue booked"),
        ("* Lune is paused", "Lune is paused"),
        ("| project | lead |\n|---|---|\n| Quill | Odile |", "Quill lead is Odile"),
        ("| Heron | lead | Pavel |", "Heron lead is Pavel"),
        ("```json\n{\"city\": \"Turku\"}\n```", "{city: Turku}"),
        ("No notation here: Quill is on Friday.", "No notation here: Quill is on Friday."),
    ],
)
def test_markdown_reads_as_prose(text: str, read: str) -> None:
    assert read_markdown(text) == read


def test_a_signature_and_a_quoted_line_are_the_frame() -> None:
    assert letter_body("Quill is on Friday.\n— typed on a train, excuse typos") == "Quill is on Friday."
    assert letter_body("Heron is paused.\nSent from my tablet") == "Heron is paused."
    assert letter_body("Quill is on Friday. -- not a signature") == "Quill is on Friday. -- not a signature"
    # the quoted statement's subject is the reply's topic; a quoted opener word is no subject
    assert letter_body("> Quill opens on Friday\n\nNo, it's Monday now.") == "Re Quill: No, it's Monday now."
    assert letter_body("> The room is booked.\n\nNot any more.").strip() == "Not any more."


def test_a_swap_names_the_old_value() -> None:
    swapped = read_notation("Heron tag: swap on hold out, put shipping in.")
    assert swapped == "Heron tag: (was on hold) shipping."
    put_in = read_notation("Put Odile in for Pavel as the Quill lead.")
    assert put_in == "Odile instead of Pavel as the Quill lead."
    # no "out": left as it is
    assert read_notation("We swapped Ghent for Turku.") == "We swapped Ghent for Turku."


def test_dates_sources_and_outdated_material() -> None:
    assert not DATE_VALUE.search("We meet in the 9th-floor kitchen.")
    assert DATE_VALUE.search("We meet on the 9th.")
    assert assertive_part("A neighbour of mine said Odile is leaving for Turku.")  # a named relation
    assert not assertive_part("Someone at the gym said Odile is leaving for Turku.")
    assert not assertive_part("budget: 40k\n\nThat figure is from an old draft; not current.")
    assert assertive_part("Lune is green, a different picture from last week.")


INTRO = (
    ("user", "Context: I run the Quill release and the Heron office with Odile and Pavel."),
    ("assistant", "Noted: Quill, Heron, Odile and Pavel."),
    ("user", "Odile is based in Ghent."),
    ("user", "Pavel is based in Turku."),
)
"""The session's opening (turns 1–4); each test's messages follow from turn 10."""


def _run(*texts: str) -> SupersessionTracker:
    tracker = SupersessionTracker()
    opening = [PolicyMessage(turn, role, text) for turn, (role, text) in enumerate(INTRO, start=1)]
    tracker.read_many(opening + [PolicyMessage(turn, "user", t) for turn, t in enumerate(texts, start=10)])
    return tracker


def test_a_request_closing_on_please_sets_no_value() -> None:
    tracker = _run("Odile leads Quill.", "Short summary for Pavel about Quill, please.")
    assert 11 not in tracker.ledger.claims and 10 not in tracker.ledger.superseded


def test_the_speaker_as_the_object_of_a_past_verb_narrates() -> None:
    tracker = _run("Odile leads Heron.", "Pavel showed me the Heron dashboard.")
    assert 11 not in tracker.ledger.claims and 10 not in tracker.ledger.superseded


def test_a_conditional_is_no_answer() -> None:
    """ "Shout if that's wrong." after a question answers nothing: the question stays a question."""
    tracker = _run("Odile is based in Ghent.", "Is Odile still in Turku?\n\nShout if that's wrong.")
    assert 10 not in tracker.ledger.superseded


def test_a_quoted_statement_and_its_correction() -> None:
    tracker = _run("Quill opens on Friday.", "> Quill opens on Friday\n\nScratch that — it's Monday now.")
    assert 10 in tracker.ledger.superseded
    assert normalise("> Quill opens on Friday\n\nScratch that — it's **Monday** now.").startswith("Re Quill:")
