"""The generated benchmark, its answer key's isolation from the policies, and the targets."""

from __future__ import annotations

import ast
import hashlib
import re
from pathlib import Path

import pytest
from ctxscope.core.policies import (
    AnswerKey,
    Budget,
    Label,
    Selection,
    TurnLabel,
    evaluate,
    generate,
    run_generated,
)
from ctxscope.core.policies.benchmark import carried_share, fits_at_most
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES, HELDOUT, WORDINGS

POLICIES_DIR = Path(__file__).resolve().parents[2] / "core" / "policies"
POLICY_SIDE = (
    "records", "text", "lexical", "store", "scoring", "summary", "tracker_notation", "markdown",
    "coreference", "chat", "texting", "reported",
    "speech",
    "letters", "lexicon",
    "paradigms", "claims", "ledger", "policies", "runner",
)
KEY_SIDE = {
    "answer_key", "generator", "benchmark", "external", "blind2", "blind3", "blind4", "blind5", "blind6",
    "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15",
    "seedshape",
}


# -- the answer key stays apart ------------------------------------------------------------------


@pytest.mark.parametrize("module", POLICY_SIDE)
def test_policy_modules_never_import_the_key_side(module: str) -> None:
    tree = ast.parse((POLICIES_DIR / f"{module}.py").read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").rsplit(".", 1)[-1])
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name.rsplit(".", 1)[-1] for alias in node.names)
    assert not (imported & KEY_SIDE), f"{module} imports {imported & KEY_SIDE}"


def test_policies_choose_the_same_whatever_the_key_says() -> None:
    bench = generate(600, seed=3)
    scrambled = AnswerKey(
        {t: TurnLabel(t, Label.NOISE) for t in bench.key.labels}, bench.key.checkpoints
    )
    real = evaluate(bench.messages, bench.key, Budget(60))
    fake = evaluate(bench.messages, scrambled, Budget(60))
    for name, metrics in real.policies.items():
        assert metrics.tokens == fake.policies[name].tokens, name
        assert metrics.messages == fake.policies[name].messages, name
    assert fake.policies["focus"].precision is None  # only the grades change: no critical labels, "–"
    assert real.policies["focus"].precision > 0.0


def test_generated_messages_hold_no_labels() -> None:
    bench = generate(400, seed=1)
    assert all(set(m.__slots__) == {"turn", "role", "content", "speaker"} for m in bench.messages[:1])
    text = "\n".join(m.content for m in bench.messages).lower()
    for word in ("critical", "stale_from", "distractor", "noise"):
        assert word not in text


# -- the generator -------------------------------------------------------------------------------


def test_generator_is_seeded() -> None:
    assert generate(500, seed=5) == generate(500, seed=5)
    assert generate(500, seed=5).messages != generate(500, seed=6).messages


def test_generator_contains_the_worked_example() -> None:
    bench = generate(1000, seed=2)
    text = {m.turn: m.content for m in bench.messages}
    assert text[18] == "My lunch preference for offsites is vegetarian."
    assert text[142] == "Update: I'm vegan now, not just vegetarian."
    assert text[260] == "Project Atlas launch moves from Wednesday to Friday."
    assert text[310] == "Can you plan the Atlas launch lunch on Friday?"
    example = next(c for c in bench.key.checkpoints if c.turn == EXAMPLE_TURNS[-1])
    assert example.needs == (18, 142, 260)
    assert bench.key.status_at(60, 310) is Label.STALE  # Wednesday is superseded
    assert bench.key.status_at(18, 310) is Label.CRITICAL  # old but valid


def test_generator_mixes_kinds_and_wording() -> None:
    bench = generate(10_000)
    kinds = {row.kind for row in bench.key.labels.values()}
    assert {"fact", "update", "episode", "chatter", "question", "hypothetical", "collision", "echo"} <= kinds
    statements = [m.content for m in bench.messages if bench.key.labels[m.turn].kind in ("fact", "update")]
    keyworded = [s for s in statements if re.search(r"preference|constraint|update", s, re.IGNORECASE)]
    assert len(keyworded) / len(statements) < 0.2
    assert len(set(statements)) > 0.8 * len(statements)
    assert sum(len(f.facts) + len(f.updates) for f in FAMILIES) >= 80
    assert set(HELDOUT) == {f.name for f in FAMILIES}


BLIND2_SHA256 = "bb95b69dbb50c728d9b24b4e15d54ac94fb9006d2ee64cfb587ed50dd2afeba3"
"""The third wording set as frozen before the supersession rework (docs/policies.md)."""
BLIND4_SHA256 = "132bf9d00448c5bea8b7ea8c879907fc7c27d520941a7bccdf110a4e958f7faa"
"""The fifth wording set as committed (5220b38) before the recommended policy first ran on it."""
BLIND5_SHA256 = "54891f6b7b8f2f006b8320283bb77baf9a11d7bb570c1ead42ec45ea02c639a8"
"""The sixth wording set as committed before the recommended policy first ran on it."""
BLIND6_SHA256 = "1abb1a583e530aa99c3de0a4697b96590d93c363e05c1fe6f7bad9c15f2313b2"
"""The seventh wording set as committed before any policy first ran on it (development since policies7)."""
BLIND7_SHA256 = "0ef14bc904e42e40606b85f193a8226d150740a52ecd96fe6199cda64c238dac"
"""The eighth wording set as committed before any policy first ran on it (development since policies7)."""
BLIND8_SHA256 = "6ae14cde08af2b6266db9ab29ed276d94a159bee7253b72e181acb338059e2f4"
"""The ninth wording set as committed before any policy first ran on it (held out: run once, 73411a9)."""
BLIND9_SHA256 = "06bc33a0ec5daf542cc40923459e22334cc1460627f8634b75ddf52c3c1d0a5a"
"""The tenth wording set as committed before any policy first ran on it (held out, not yet run)."""
BLIND10_SHA256 = "9aa4b783b022ca8b06b41f470bf4d8e53d52b38abdce4f73a460c263e4f6a873"
"""The eleventh wording set as committed before any policy first ran on it (held out, not yet run)."""
BLIND10_SESSION_SHA256 = "6323a260c7aca1ed3de21a8787a07b2af57a91c9bb8178de403170968a7fd011"
"""generate(10_000, 7, "blind10") as frozen with it: the session itself, not only its module."""
BLIND11_SHA256 = "c73e1a8776b749ae3634c52bd1fa39b4ef19769140a8b0a802279a016644606b"
"""The twelfth wording set as committed before any policy first ran on it (held out until policies12)."""
BLIND11_SESSION_SHA256 = "b53b4276d154d231dcda101b4d66c43172d034e5370213d4da89599d6cad164c"
"""generate(10_000, 7, "blind11") as frozen with it: the session itself, not only its module."""
BLIND12_SHA256 = "abecc72a5d3acef90263482dc20d0d00cad420f251d2721edd1cfbca97c5e189"
"""The thirteenth wording set as committed (b7a2108) before any policy first ran on it (held out, not yet
run)."""
BLIND12_SESSION_SHA256 = "dec21de8d12f94bc757aa6947d952ffb63184bb825a1bca83254bb20ae14da0e"
"""generate(10_000, 7, "blind12") as frozen with it: the session itself, not only its module."""
STANDARD_SESSION_SHA256 = "1bf08f821a92b9e78b6fc08087695c40e498837f0d0f06421d9e93222560fb96"
"""generate(10_000, 7) as it was before the third wording set was added: adding it changed nothing."""


def _session_digest(wording: str) -> str:
    bench = generate(10_000, 7, wording)
    text = "\n".join(f"{m.turn}\t{m.role}\t{m.content}" for m in bench.messages)
    return hashlib.sha256(text.encode()).hexdigest()


def test_blind2_is_frozen() -> None:
    """blind2 is the honest held-out set only while nobody edits it after seeing results."""
    digest = hashlib.sha256((POLICIES_DIR / "blind2.py").read_bytes()).hexdigest()
    assert digest == BLIND2_SHA256, "blind2.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind4_is_frozen() -> None:
    """blind4 was committed before its first run; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind4.py").read_bytes()).hexdigest()
    assert digest == BLIND4_SHA256, "blind4.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind5_is_frozen() -> None:
    """blind5 was committed before its first run; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind5.py").read_bytes()).hexdigest()
    assert digest == BLIND5_SHA256, "blind5.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind6_is_frozen() -> None:
    """blind6 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind6.py").read_bytes()).hexdigest()
    assert digest == BLIND6_SHA256, "blind6.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind7_is_frozen() -> None:
    """blind7 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind7.py").read_bytes()).hexdigest()
    assert digest == BLIND7_SHA256, "blind7.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind8_is_frozen() -> None:
    """blind8 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind8.py").read_bytes()).hexdigest()
    assert digest == BLIND8_SHA256, "blind8.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind9_is_frozen() -> None:
    """blind9 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind9.py").read_bytes()).hexdigest()
    assert digest == BLIND9_SHA256, "blind9.py changed: write a new held-out set instead (docs/policies.md)"


def test_blind10_is_frozen() -> None:
    """blind10 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind10.py").read_bytes()).hexdigest()
    assert digest == BLIND10_SHA256, "blind10.py changed: write a new held-out set instead (docs/policies.md)"
    assert _session_digest("blind10") == BLIND10_SESSION_SHA256, "the generator changed blind10's session"


def test_blind11_is_frozen() -> None:
    """blind11 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind11.py").read_bytes()).hexdigest()
    assert digest == BLIND11_SHA256, "blind11.py changed: write a new held-out set instead (docs/policies.md)"
    assert _session_digest("blind11") == BLIND11_SESSION_SHA256, "the generator changed blind11's session"


def test_blind12_is_frozen() -> None:
    """blind12 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    digest = hashlib.sha256((POLICIES_DIR / "blind12.py").read_bytes()).hexdigest()
    assert digest == BLIND12_SHA256, "blind12.py changed: write a new held-out set instead (docs/policies.md)"
    assert _session_digest("blind12") == BLIND12_SESSION_SHA256, "the generator changed blind12's session"


def test_standard_session_is_unchanged() -> None:
    assert _session_digest("standard") == STANDARD_SESSION_SHA256


def test_wordings_share_one_plan_but_no_wording() -> None:
    benches = {w: generate(3000, 5, w) for w in WORDINGS}
    plans = {
        w: sorted((t, row.stale_from) for t, row in b.key.labels.items() if row.kind in ("fact", "update"))
        for w, b in benches.items()
    }
    assert plans["standard"] == plans["heldout"]  # same values, so the same random plan
    # blind2 draws from other vocabularies, so its plan differs, but it is made the same way
    firsts = {w: sum(1 for _t, _s in plans[w]) for w in WORDINGS}
    assert abs(firsts["blind2"] - firsts["standard"]) < 0.2 * firsts["standard"]

    def statements(w: str) -> set[str]:
        b = benches[w]
        return {
            m.content for m in b.messages
            if b.key.labels[m.turn].kind in ("fact", "update") and m.turn not in EXAMPLE_TURNS
        }

    assert not statements("blind2") & (statements("standard") | statements("heldout"))
    text = {m.turn: m.content for m in benches["blind2"].messages}
    assert text[18] == "My lunch preference for offsites is vegetarian."  # SPEC's example stays
    kinds = {row.kind for row in benches["blind2"].key.labels.values()}
    assert {"question", "hypothetical", "rumour", "denial", "third_party", "collision", "outdated"} <= kinds


def test_checkpoints_need_old_valid_facts_and_superseding_updates() -> None:
    bench = generate(10_000)
    assert len(bench.key.checkpoints) >= 8
    for checkpoint in bench.key.checkpoints:
        kinds = [bench.key.labels[t].kind for t in checkpoint.needs]
        assert "update" in kinds, checkpoint
        assert min(checkpoint.needs) < checkpoint.turn - 1000 or checkpoint.turn < 1000, checkpoint
        assert all(bench.key.status_at(t, checkpoint.turn) is Label.CRITICAL for t in checkpoint.needs)


# -- the benchmark -------------------------------------------------------------------------------


def test_small_benchmark_runs_all_policies() -> None:
    result = run_generated(400, 11, Budget(40))
    assert len(result.policies) == 8
    data = result.as_json()
    for metrics in data["policies"].values():
        wanted = {"critical_recall", "stale_retention", "noise_retention", "precision", "tokens"}
        assert wanted <= set(metrics)
    assert data["policies"]["full-history"]["critical_recall"] == 1.0


def test_token_budget_is_respected() -> None:
    result = run_generated(1000, 4, Budget(messages=None, tokens=3000))
    for name, metrics in result.policies.items():
        if name != "full-history":
            assert metrics.tokens <= 3000, name


# -- the ceiling: what whole messages within the budget could carry ------------------------------


def test_fits_at_most_takes_the_cheapest_first() -> None:
    assert fits_at_most([50, 10, 30, 20], Budget(messages=None, tokens=60)) == 3  # 10 + 20 + 30
    assert fits_at_most([50, 10, 30, 20], Budget(messages=2, tokens=60)) == 2
    assert fits_at_most([50, 10, 30, 20], Budget(messages=None, tokens=9)) == 0
    assert fits_at_most([50, 10], Budget(messages=600)) == 2
    assert fits_at_most([], Budget(messages=None, tokens=100)) == 0


def test_ceiling_bounds_every_policy_on_a_small_session() -> None:
    for tokens in (300, 600, 1500):
        result = run_generated(1200, 7, Budget(messages=None, tokens=tokens))
        ceiling = result.ceiling
        assert ceiling is not None
        assert ceiling.critical_recall is not None and ceiling.query_recall is not None
        assert ceiling.critical_recall < 1.0 or tokens > 600  # the small budgets bind
        for name, metrics in result.policies.items():
            if metrics.over_budget:
                continue
            assert metrics.critical_recall is not None and metrics.query_recall is not None
            assert metrics.critical_recall <= ceiling.critical_recall + 1e-9, (name, tokens)
            assert metrics.query_recall <= ceiling.query_recall + 1e-9, (name, tokens)
        assert result.as_json()["ceiling"] == ceiling.as_dict()


def test_ceiling_is_one_under_a_huge_budget() -> None:
    result = run_generated(1200, 7, Budget(messages=None, tokens=10_000_000))
    assert result.ceiling is not None
    assert result.ceiling.as_dict() == {"critical_recall": 1.0, "query_recall": 1.0}


def test_ceiling_comes_from_the_key_and_the_budget_alone() -> None:
    """Whichever policies run, the ceiling is the same; with a key of no critical turns it has none."""
    bench = generate(1200, seed=7)
    budget = Budget(messages=None, tokens=1500)
    every = evaluate(bench.messages, bench.key, budget)
    one = evaluate(bench.messages, bench.key, budget, policies=["sliding-window"])
    assert every.ceiling == one.ceiling
    scrambled = AnswerKey({t: TurnLabel(t, Label.NOISE) for t in bench.key.labels}, ())
    assert evaluate(bench.messages, scrambled, budget).as_json()["ceiling"] == {
        "critical_recall": None, "query_recall": None,
    }


# The honest figures (docs/policies.md): 10,000 turns, seed 7, 16,000 tokens, critical recall and
# stale retention of the recommended policy, re-measured on branch policies9 (blind8 studied: a
# development set now, like blind6 and blind7 since policies7). The targets are >= 0.95 / <= 0.05:
# met on every set the policy was built on; each figure is pinned as it is so that a regression or
# an improvement shows.
# (blind9 was held out until policies10, which studied it: a development set now.)
# (blind10 was held out until policies11, which studied it: a development set now, its figure below
# the target.)
# (blind11 was held out until policies12, which studied it: a development set now.)
# (blind12 was held out until policies13, which studied it: a development set now.)
# (blind13 was held out until policies14, which studied it: a development set now.)
# (blind14 and blind15 are held out: no routine run touches them.)
PINNED_16K = {
    "standard": (0.9957, 0.0058),
    "heldout": (0.9884, 0.0081),
    "blind2": (0.9891, 0.0159),  # its failures were looked at while building: a development set; 0.0328
    # stale before policies9, 0.0273 before policies13
    "blind3": (0.9956, 0.0334),  # development since policies4; 0.996 / 0.0370 before policies7, 0.9898
    # / 0.0334 before policies9
    "blind4": (0.9723, 0.0354),  # development since policies4; 0.958 / 0.0347 before policies7
    "blind5": (0.9913, 0.0295),  # development since policies5; held out it was 0.821 / 0.1190;
    # 0.9905 before the refit (tokens5)
    "blind6": (0.9840, 0.0427),  # development since policies7; held out it was 0.850 / 0.1709
    "blind7": (0.9746, 0.0341),  # development since policies7; its first run (held out) 0.619 / 0.0960;
    # 0.9644 / 0.0397 before policies10
    "blind8": (0.9884, 0.0183),  # development since policies9; held out (main 73411a9) 0.816 / 0.1099
    "blind9": (0.9557, 0.0438),  # development since policies10; held out (main aa12032) 0.423 / 0.137
    "blind10": (0.8497, 0.0621),  # development since policies11; held out (main aa12032) 0.569 / 0.124,
    # (main 2aa58af) 0.586 / 0.126: short of the 0.95 / 0.05 target even after it was studied;
    # 0.8359 / 0.0684 before policies14
    "blind11": (0.9462, 0.0695),  # development since policies12; held out (main fe0e774) 0.723 / 0.124,
    # (main 9a29d7a) 0.722 / 0.127; 0.0698 stale before policies13
    "blind12": (0.9339, 0.0771),  # development since policies13; held out (main 16e8fd8) 0.685 / 0.146,
    # (main 32dc5c0) 0.682 / 0.143
    "blind13": (0.9571, 0.0565),  # development since policies14; held out (main a4fce25) 0.812 / 0.129,
    # (main e71daa1) 0.815 / 0.129
    "seed-shape": (1.000, 0.0011),
}


@pytest.mark.parametrize("wording", sorted(PINNED_16K))
def test_recommended_policy_figures_at_16k_tokens(wording: str) -> None:
    budget = Budget(messages=None, tokens=16_000)
    result = run_generated(10_000, 7, budget, wording=wording, policies=["focus"])
    ours = result.policies["focus"]
    recall, stale = PINNED_16K[wording]
    assert ours.critical_recall == pytest.approx(recall, abs=0.0005)
    assert ours.stale_retention == pytest.approx(stale, abs=0.0005)
    assert ours.tokens <= 16_000


def test_recommended_policy_at_8k_tokens_on_standard() -> None:
    """Where not every statement in force fits: the particular ones go first (0.841 / 0.714 when
    they were sent newest key first; 0.911 before chat narration without a subject, "Spent the
    morning…", stopped counting as statements in force)."""
    result = run_generated(10_000, 7, Budget(messages=None, tokens=8_000), policies=["focus"])
    ours = result.policies["focus"]
    assert ours.critical_recall == pytest.approx(0.996, abs=0.0005)
    assert ours.stale_retention == pytest.approx(0.0058, abs=0.0005)
    assert ours.query_recall == pytest.approx(1.000, abs=0.0005)


def test_seed_shape_session_beside_the_seed_scorer() -> None:
    """On the seed harness's shape the seed's scorer does well; the recommended policy does better."""
    names = ["focus", "importance-seed", "sliding-window"]
    budget = Budget(messages=None, tokens=8_000)
    result = run_generated(10_000, 7, budget, wording="seed-shape", policies=names)
    recall = {n: m.critical_recall for n, m in result.policies.items()}
    pinned = {"focus": 1.000, "importance-seed": 0.588, "sliding-window": 0.432}  # 0.435 before the refit
    assert recall == pytest.approx(pinned, abs=0.0005)


# -- what a summary carries ----------------------------------------------------------------------


def test_a_summarised_turn_counts_only_the_words_its_line_sends() -> None:
    content = {
        3: "Mia adopted a puppy. She named it Biscuit and it sleeps all day.",  # 13 words
        4: "Untouched words.",
        5: "Verbatim turn.",
    }
    selection = Selection(
        "summary",
        (5,),
        summary_turns=(3, 4),
        summary="Summary of earlier conversation:\n[3] Mia adopted a puppy.\n[9] Untouched words.",
        tokens=20,
    )
    shares = carried_share(selection, content)
    assert shares[5] == 1.0
    assert shares[3] == pytest.approx(4 / 13)
    assert shares[4] == 0.0  # no line of its own in the text sent (another turn's line does not count)


def test_summary_recall_is_no_longer_credited_for_whole_turns() -> None:
    result = run_generated(600, 3, Budget(messages=None, tokens=1500), policies=["summary"])
    metrics = result.policies["summary"]
    assert metrics.critical_recall is not None and 0.0 < metrics.critical_recall < 1.0
