"""``blind15``, held out: the session and answer key the generator builds from it, and its freeze.

No memory policy runs in this file. ``blind15`` stays held out until the lead's one run that
reports it (docs/policies.md), so what is checked here is the generator's side alone: the wording
module's templates and vocabularies (every family, new names and values, the writer's German habits
in nearly every statement, two updates per family naming the old value first), the key against
the messages at four lengths, the generator's plan kept, the old values named being the superseded
ones, texts found in no earlier wording, and the digests of the module and of its 10,000-turn
seed-7 session as committed before any policy first ran on it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from ctxscope.core.policies import blind10, blind11, blind12, blind13, blind14, blind15, generate
from ctxscope.core.policies.generator import FAMILIES, SHARED, WORDINGS
from ctxscope.tui.cli import build_parser

from tests.core import wording_checks as checks

BLIND15_SHA256 = "5e98cf597aba32c5ed4318eb3361710be4b14c3449d8089012d3672d862212cc"
"""blind15.py's digest at its freeze commit, before any policy's first run (held out, not yet run)."""
BLIND15_SESSION_SHA256 = "97ae4fbcd32ec01a70db7904087fdb9ca9ff6cc4df470aa1fe16c3a086c8c936"
"""The digest of generate(10_000, 7, "blind15") at the same commit: the session, beside its module."""
UPDATES_AT_10K = 240
"""How many updates that session holds (beside its 170 facts and 9 checkpoints, the generator's)."""

GERMAN = re.compile(
    r"\b(?:genau|na ja|doch|halt|also|since (?:two years|last week|yesterday|this|the|Monday|Friday|"
    r"my|I)|not anymore|that has changed|ah no|no wait|chef|becomes?|actual|eventually|so that you it "
    r"know|I tell you it)\b",
    re.IGNORECASE,
)
"""The writer's habits: fillers, German durations, false friends and the change and repair phrases."""
VERB_FINAL = re.compile(r"\b(?:that|because|who|if|since|when) [^,.:]*\b(?:is|are|have|has|eat|read|works?|"
                        r"starts?|goes|leads|takes place|must|make|am|sitting want|want|have)\b[,.]")
"""A subordinate clause with its verb last ("because I the emails only in the evening read,")."""


def test_blind15_is_a_known_wording_with_every_family() -> None:
    """Every kind of fact in the writer's register; names, cities, values, chatter and replies new."""
    checks.check_vocabulary("blind15", blind15, facts_at_least=6, updates_at_least=6)
    checks.check_vocabulary_is_new(blind15, range(2, 15))
    checks.check_shared(
        blind15, SHARED, blind10.SHARED, blind11.SHARED, blind12.SHARED, blind13.SHARED, blind14.SHARED
    )
    for template, families in blind15.QUERIES:
        assert all(f.subject in ("project", "user") for f in FAMILIES if f.name in families), template
    for family in FAMILIES:
        facts, updates, echoes = blind15.TEMPLATES[family.name]
        # two updates name the old value before the new one; the others do not name it
        naming = [t for t in updates if "old" in checks.template_fields(t)]
        assert naming == list(updates[:2]), family.name
        assert all(t.index("{old}") < t.index("{v}") for t in naming), family.name
        # one register: nearly every statement carries a German habit of speech
        assert sum(1 for t in facts + updates if GERMAN.search(t)) >= 9, family.name
        assert len(echoes) == 2, family.name
    statements = [t for family in FAMILIES for t in blind15.TEMPLATES[family.name][0] + blind15.TEMPLATES[
        family.name][1]]
    assert sum(1 for t in statements if VERB_FINAL.search(t)) >= 20


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11), (400, 3)])
def test_blind15_key_matches_its_messages(turns: int, seed: int) -> None:
    checks.check_own_session("blind15", blind15, turns, seed, updates=UPDATES_AT_10K)


def test_blind15_keeps_the_generators_plan() -> None:
    """Only the words change: the checkpoints, the first statements and the worked example's labels
    are the standard wording's."""
    checks.check_keeps_the_generators_plan("blind15")


def test_blind15_old_values_named_are_the_superseded_ones() -> None:
    """An update that names the old value ("Not anymore {old} for {s}, since last week it is {v}")
    names the value of the statement the key says it supersedes; about a third of the updates do."""
    checks.check_old_values_named("blind15", blind15)


def test_blind15_words_are_its_own() -> None:
    """Its statements are in no earlier wording's session, nor its chatter and replies."""
    checks.check_words_are_its_own(
        "blind15",
        (*SHARED, *blind10.SHARED, *blind11.SHARED, *blind12.SHARED, *blind13.SHARED, *blind14.SHARED),
    )


def test_blind15_is_in_no_routine_policy_run() -> None:
    """Held out: the bench script's default wordings and the pinned-figure tests leave it out."""
    checks.check_in_no_routine_run("blind15")


def test_blind15_is_a_wording_of_the_cli() -> None:
    """``ctxscope bench policies --wording`` takes ``blind15`` (the arguments are parsed here, not run)."""
    parser = build_parser("bench")
    assert "blind15" in WORDINGS
    assert parser.parse_args(["bench", "policies", "--wording", "blind15"]).wording == "blind15"


def test_blind15_is_frozen() -> None:
    """blind15 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    module = Path(blind15.__file__).read_bytes()
    assert hashlib.sha256(module).hexdigest() == BLIND15_SHA256, (
        "blind15.py changed: write a new held-out set instead (docs/policies.md)"
    )
    bench = generate(10_000, 7, "blind15")
    text = "\n".join(f"{m.turn}\t{m.role}\t{m.content}" for m in bench.messages)
    assert hashlib.sha256(text.encode()).hexdigest() == BLIND15_SESSION_SHA256, (
        "the generator changed blind15's session"
    )
