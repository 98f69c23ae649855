"""The recommended policy reads incrementally and decides exactly as a full re-reading would.

The supersession tracker keeps each message's reading with what it asked of the session's knowledge
and reads again only the messages whose answers may have changed; ``focus`` keeps what a message's
text alone says about looking factual. Both are speed only: these tests compare them, step by step,
with a tracker made to read everything again and a policy with its caches emptied.
"""

from __future__ import annotations

import copy

import pytest
from ctxscope.core.policies import Budget, MemoryStore, PolicyMessage, SupersessionTracker, generate
from ctxscope.core.policies import ledger as ledger_module
from ctxscope.core.policies.lexical import LexicalIndex
from ctxscope.core.policies.policies import Focus, PolicyContext
from ctxscope.core.policies.seedshape import generate_seed_shape


def _read_everything_again(tracker: SupersessionTracker) -> SupersessionTracker:
    """A copy of ``tracker`` with its kept readings dropped: its ledger reads every message anew."""
    fresh = copy.deepcopy(tracker)
    fresh._analyses = []
    fresh._asked_word = {}
    fresh._asked_filler = {}
    fresh._ledger = None
    return fresh


@pytest.mark.parametrize("wording", ["standard", "blind2", "seed-shape"])
def test_incremental_ledger_is_the_full_rereading(wording: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = generate_seed_shape(1_500, 3) if wording == "seed-shape" else generate(1_500, 3, wording)
    counted = ledger_module.analyse
    calls = [0]

    def counting(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return counted(*args, **kwargs)  # type: ignore[arg-type]

    tracker = SupersessionTracker()
    messages = bench.messages
    for start in range(0, len(messages), 97):
        tracker.read_many(messages[start : start + 97])
        monkeypatch.setattr(ledger_module, "analyse", counting)
        incremental = tracker.ledger
        monkeypatch.setattr(ledger_module, "analyse", counted)
        full = _read_everything_again(tracker).ledger
        assert incremental == full, f"after turn {tracker.read_through}"
    # each message is read about once, not once per question (16 questions here: 16 readings each)
    assert calls[0] < 1.5 * len(messages)


def test_focus_selections_do_not_depend_on_its_caches() -> None:
    bench = generate(2_000, 4, "heldout")
    store = MemoryStore()
    focus = Focus()
    budget = Budget(messages=None, tokens=4_000)
    position = 0
    try:
        for checkpoint in bench.key.checkpoints:
            while position < len(bench.messages) and bench.messages[position].turn < checkpoint.turn:
                store.add(bench.messages[position])
                position += 1
            context = PolicyContext(store, checkpoint.turn, checkpoint.query, budget)
            kept = focus.select(context)
            focus._shape = {}
            focus._named = set()
            assert focus.select(context) == kept
    finally:
        store.close()


def test_a_name_learnt_late_changes_the_reading_of_an_early_message() -> None:
    tracker = SupersessionTracker()
    tracker.read_many([PolicyMessage(1, "user", "Orla runs the Kestrel launch.")])
    assert "orla" not in tracker.ledger.claims[1].subject  # a sentence's first word: not yet a name
    tracker.read_many([PolicyMessage(2, "user", "I had lunch with Orla today.")])
    assert tracker.ledger == _read_everything_again(tracker).ledger
    assert tracker.ledger.claims[1].subject == "orla"  # read again: Orla is now a name


def test_rare_terms_count_what_the_conversation_seldom_says() -> None:
    index = LexicalIndex()
    index.add(1, "lunch at noon again")
    index.add(2, "lunch at noon again")
    index.add(3, "lunch at the lighthouse museum")
    assert index.rare_terms(3, before=4, at_most=1) == 2  # lighthouse, museum
    assert index.rare_terms(3, before=4, at_most=3) == 3
    assert index.rare_terms(9, before=4, at_most=3) == 0
