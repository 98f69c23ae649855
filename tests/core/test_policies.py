"""The memory-policy lab: building blocks, each policy's contract, the worked example."""

from __future__ import annotations

import math

import pytest
from ctxscope.core.policies import (
    POLICY_NAMES,
    Budget,
    MemoryStore,
    PolicyMessage,
    SupersessionTracker,
    run_policies,
    seed_features,
    seed_score,
)
from ctxscope.core.policies.lexical import LexicalIndex
from ctxscope.core.policies.scoring import SeedFeatures
from ctxscope.core.policies.summary import IncrementalSummary
from hypothesis import given, settings
from hypothesis import strategies as st

WORKED_EXAMPLE = [
    PolicyMessage(1, "system", "You are a planning assistant."),
    PolicyMessage(18, "user", "My lunch preference for offsites is vegetarian."),
    PolicyMessage(60, "user", "Project Atlas launches on Wednesday."),
    PolicyMessage(61, "assistant", "Noted: Atlas launches Wednesday."),
    PolicyMessage(100, "user", "Did you see the Atlas mountains documentary?"),
    PolicyMessage(142, "user", "Update: I'm vegan now, not just vegetarian."),
    PolicyMessage(200, "user", "What if we moved Atlas to Monday? Just thinking out loud."),
    PolicyMessage(260, "user", "Project Atlas launch moves from Wednesday to Friday."),
    *[PolicyMessage(270 + i, "user" if i % 2 else "assistant", f"chatter number {i} ok") for i in range(30)],
]
QUERY = "Can you plan the Atlas launch lunch on Friday?"


# -- records ---------------------------------------------------------------------------------------


def test_message_and_budget_validate() -> None:
    with pytest.raises(ValueError):
        PolicyMessage(1, "robot", "x")
    with pytest.raises(ValueError):
        PolicyMessage(-1, "user", "x")
    with pytest.raises(ValueError):
        Budget(messages=0)
    assert Budget(600, 20_000).label() == "600 msgs / 20000 tok"


def test_policy_message_carries_only_turn_role_content_speaker() -> None:
    assert PolicyMessage.__slots__ == ("turn", "role", "content", "speaker")


# -- lexical index ---------------------------------------------------------------------------------


def test_lexical_search_ranks_and_thresholds() -> None:
    index = LexicalIndex()
    index.add(1, "Project Atlas launches on Wednesday")
    index.add(2, "the weather is nice today")
    index.add(3, "Atlas launch moved to Friday")
    hits = index.search("When does Atlas launch?", top_k=6, min_score=0.08)
    assert [h.turn for h in hits][:2] == [3, 1] or [h.turn for h in hits][:2] == [1, 3]
    assert all(0.08 <= h.score <= 1.0 for h in hits)
    assert 2 not in {h.turn for h in hits}
    same = index.search("the weather is nice today", top_k=1)
    assert same[0].turn == 2 and math.isclose(same[0].score, 1.0, rel_tol=1e-9)


def test_lexical_search_before_sees_only_the_past() -> None:
    index = LexicalIndex()
    index.add(1, "alpha beta")
    index.add(5, "alpha gamma")
    assert [h.turn for h in index.search("alpha", top_k=5, before=5)] == [1]
    with pytest.raises(ValueError):
        index.add(3, "out of order")


# -- store -----------------------------------------------------------------------------------------


def test_store_counts_each_query_once_and_persists(tmp_path: object) -> None:
    from pathlib import Path

    db = Path(str(tmp_path)) / "memory.db"
    with MemoryStore(db) as store:
        store.add_many(WORKED_EXAMPLE[:8])
        first = store.retrieve_for_query(300, QUERY)
        again = store.retrieve_for_query(300, QUERY)
        assert first == again and first
        assert all(store.retrieval_count(h.turn) == 1 for h in first)
        assert len(first) <= 6 and all(h.score >= 0.08 for h in first)
        store.flush()
        counts = store.db_counts()
        assert counts["messages"] == 8 and counts["retrieval_counts"] == len(first)
    assert db.exists()


# -- the seed's scorer -----------------------------------------------------------------------------


def test_seed_score_is_the_published_formula() -> None:
    f = SeedFeatures(
        role_signal=1.0, persistence=0.5, preference=1.0, entity_importance=2 / 3, contradiction_risk=0.5,
        episodic_event=0.0, length_signal=0.2, stale_marker=1.0, noise=0.5,
    )
    age, count = 250, 3
    recency = math.exp(-age / 500)
    rf = math.log1p(count) / math.log(10)
    expected = 1.0 * (
        0.13 * recency + 0.18 * 0.5 + 0.18 * 1.0 + 0.15 * (2 / 3) + 0.14 * rf + 0.12 * 0.5 + 0.06 * 0.0
        + 0.04 * 0.2
    )
    expected -= 0.22 * 0.5
    expected -= 0.32 * 1.0 * (1.0 - rf)
    assert math.isclose(seed_score(f, age, count), expected, rel_tol=1e-12)


def test_seed_features_read_wording() -> None:
    pref = seed_features(PolicyMessage(1, "user", "I always prefer the aisle seat, from now on."))
    chatter = seed_features(PolicyMessage(2, "user", "lol ok"))
    stale = seed_features(PolicyMessage(3, "user", "Old notes say Atlas launches Monday, outdated."))
    assert pref.preference > 0 and pref.persistence > 0
    assert chatter.noise == 1.0
    assert stale.stale_marker == 1.0


# -- summary ---------------------------------------------------------------------------------------


def test_summary_stays_under_cap_and_drops_oldest() -> None:
    summary = IncrementalSummary(cap_tokens=60)
    for turn in range(1, 40):
        summary.fold(PolicyMessage(turn, "user", f"Fact number {turn} is worth keeping around."))
    summary.fold(PolicyMessage(40, "user", "Is this a question?"))
    assert summary.tokens <= 60
    assert summary.turns() and summary.turns()[-1] == 39 and 1 not in summary.turns()
    assert "[39]" in summary.text()


# -- supersession ----------------------------------------------------------------------------------


def test_tracker_worked_example() -> None:
    tracker = SupersessionTracker()
    tracker.read_many(WORKED_EXAMPLE)
    ledger = tracker.ledger
    assert ledger.current[("atlas", "<date>")] == [260]
    assert ledger.superseded == {60, 61}  # the fact and its echo; "not just vegetarian" refines
    assert {18, 142} <= set(ledger.claims)
    assert 200 not in ledger.claims  # a hypothetical is not a claim
    assert 100 not in ledger.claims  # a question is not a claim


@pytest.mark.parametrize(
    "text",
    [
        "We are not moving Atlas to Monday, ignore that thread.",
        "Someone said Atlas might slip to Monday, nothing confirmed.",
        "Old notes say Atlas launches Monday, those are outdated.",
        "My sister went vegan last year.",
        "Book my flight for the Atlas launch.",
    ],
)
def test_non_claims_do_not_supersede(text: str) -> None:
    tracker = SupersessionTracker()
    tracker.read_many([
        PolicyMessage(1, "user", "Project Atlas launches on Friday."),
        PolicyMessage(2, "user", "I always book the aisle seat when flying."),
        PolicyMessage(3, "user", "I keep a vegetarian diet."),
        PolicyMessage(4, "user", text),
    ])
    assert tracker.ledger.superseded == set()


def test_names_learnt_from_the_session() -> None:
    tracker = SupersessionTracker()
    tracker.read_many([
        PolicyMessage(1, "user", "The point person for Atlas is Priya."),
        PolicyMessage(2, "user", "Marcus is taking over Atlas from Priya."),
        PolicyMessage(3, "user", "Priya works out of Lisbon."),
        PolicyMessage(4, "user", "Priya relocated to Berlin."),
    ])
    # the owner is named as replaced; Lisbon and Berlin are two names the session never showed
    # to be of one kind, so the office stays (a known miss of a short session)
    assert tracker.ledger.superseded == {1}


# -- policies --------------------------------------------------------------------------------------


def test_run_policies_worked_example() -> None:
    picks = run_policies(WORKED_EXAMPLE, QUERY, Budget(messages=12), at_turn=310)
    assert set(picks) == set(POLICY_NAMES)
    ours = picks["focus"]
    assert {18, 142, 260} <= set(ours.turns)
    assert 60 not in ours.turns and 61 not in ours.turns
    assert {60, 61} <= set(ours.dropped_stale)
    window = picks["sliding-window"]
    assert window.turns == tuple(m.turn for m in WORKED_EXAMPLE[-12:])
    full = picks["full-history"]
    assert full.over_budget and len(full.turns) == len(WORKED_EXAMPLE)
    retrieval = picks["retrieval"]
    assert 0 < len(retrieval.turns) <= 6
    hybrid = picks["hybrid"]
    assert 1 in hybrid.turns  # the pinned system prompt


def test_run_policies_on_empty_history() -> None:
    picks = run_policies([], "hello?", Budget(messages=5))
    assert all(sel.turns == () for sel in picks.values())


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        run_policies(WORKED_EXAMPLE, QUERY, Budget(5), policies=["nope"])


MESSAGE_TEXT = st.sampled_from([
    "ok", "thanks!", "Project Atlas launches on Friday.", "I keep a vegan diet.",
    "Priya works out of Lisbon and likes long walks near the river every single evening.",
    "What if we moved Atlas to Monday?", "Lunch with Priya was fun today.",
    "Finance approved $40k for Atlas.", "x " * 300,
])


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(MESSAGE_TEXT, min_size=0, max_size=60),
    messages=st.integers(min_value=1, max_value=40),
    tokens=st.one_of(st.none(), st.integers(min_value=50, max_value=3000)),
)
def test_every_budgeted_policy_stays_within_budget(
    texts: list[str], messages: int, tokens: int | None
) -> None:
    history = [PolicyMessage(i + 1, "user" if i % 2 else "assistant", t) for i, t in enumerate(texts)]
    budget = Budget(messages=messages, tokens=tokens)
    for name, selection in run_policies(history, "When does Atlas launch?", budget).items():
        if name == "full-history":
            continue
        assert selection.message_count <= messages, name
        if tokens is not None:
            assert selection.tokens <= tokens, name
        assert set(selection.turns) <= {m.turn for m in history}


def test_runner_can_go_back_to_an_earlier_point() -> None:
    from ctxscope.core.policies import PolicyRunner

    runner = PolicyRunner(["focus", "summary"])
    runner.feed_many(WORKED_EXAMPLE)
    late = runner.select(310, QUERY, Budget(12))["focus"].selection
    early = runner.select(200, QUERY, Budget(12))["focus"].selection
    again = runner.select(310, QUERY, Budget(12))["focus"].selection
    assert 260 in late.turns and 60 not in late.turns
    assert 60 in early.turns and all(t < 200 for t in early.turns)
    assert again == late
    runner.close()


def test_the_budget_is_counted_with_the_estimator_asked_for() -> None:
    """The policy lab counts with the log's estimator (the meter's): a Codex log's openai figures,
    not the default claude ones; the benchmarks keep the default."""
    from ctxscope.core.policies.store import MESSAGE_OVERHEAD_TOKENS
    from ctxscope.core.tokens import estimate_tokens

    messages = [*WORKED_EXAMPLE, PolicyMessage(400, "user", "Привет, как дела? " * 40)]
    budget = Budget(tokens=100_000)
    for name in ("claude", "openai"):
        full = run_policies(messages, QUERY, budget, estimator=name)["full-history"]
        each = [estimate_tokens(m.content, name) + MESSAGE_OVERHEAD_TOKENS for m in messages]
        assert full.tokens == sum(each)
    default = run_policies(messages, QUERY, budget)
    assert default["full-history"].tokens == run_policies(
        messages, QUERY, budget, estimator="claude")["full-history"].tokens
    openai = run_policies(messages, QUERY, budget, estimator="openai")
    assert openai["full-history"].tokens != default["full-history"].tokens
    summary = IncrementalSummary(estimator="openai")
    summary.fold(WORKED_EXAMPLE[1])
    assert summary.tokens == estimate_tokens(summary.lines[0].text, "openai") + 1
