"""The held-out ``blind14`` wording generates a consistent session and answer key, frozen as committed.

Only the generator runs here: ``blind14`` is held out, so no memory policy may run on it until the
one run that reports it (docs/policies.md). These tests check the wording module's templates and
the key the generator builds from them: every label has its message, every statement carries a
value of its kind, every supersession points forward to an update, every checkpoint's needs are in
force when it is asked, two updates of each kind name the old value, and the plan (the checkpoints
and the worked example) is the generator's; its words are its own, down to the chatter and the
assistant's replies; and the module and its 10,000-turn seed-7 session are the ones frozen before
any policy ran on it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from ctxscope.core.policies import blind10, blind11, blind12, blind13, blind14, generate
from ctxscope.core.policies.generator import FAMILIES, SHARED, WORDINGS
from ctxscope.tui.cli import build_parser

from tests.core import wording_checks as checks

BLIND14_SHA256 = "e07a672dd3aa48d76f301f313d328874a28c41f20544174800a4cd19f9992c50"
"""The fifteenth wording set as committed before any policy first ran on it (held out, not yet run)."""
BLIND14_SESSION_SHA256 = "b39df109c8173df11d7c19e3beeb06e4af06500adb2d36489b48f79132eddae2"
"""generate(10_000, 7, "blind14") as frozen with it: the session itself, not only its module."""
UPDATES_AT_10K = 240
"""Updates in the 10,000-turn seed-7 session (with the generator's 170 facts and 9 checkpoints)."""

PAST = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening|week)|yesterday|last night|at (?:lunch|supper|"
    r"noon|dinner|teatime|four)|after (?:lunch|tea|work)|over (?:dinner|soup|coffee|supper)|by (?:the )?"
    r"(?:evening|afternoon|teatime|end of the day)|before bed|at bedtime|at dusk|all (?:week|month|"
    r"spring|year)|for years|since the winter|on the way back|during supper|in the afternoon)\b",
    re.IGNORECASE,
)
"""The diarist's words for when, in the day, a thing happened."""


def test_blind14_is_a_known_wording_with_every_family() -> None:
    """Every kind of fact in the diary register; names, cities, values, chatter and replies new."""
    checks.check_vocabulary("blind14", blind14, facts_at_least=5, updates_at_least=6)
    checks.check_vocabulary_is_new(blind14, range(2, 14))
    checks.check_shared(blind14, SHARED, blind10.SHARED, blind11.SHARED, blind12.SHARED, blind13.SHARED)
    for template, families in blind14.QUERIES:
        assert all(f.subject in ("project", "user") for f in FAMILIES if f.name in families), template
    for family in FAMILIES:
        facts, updates, echoes = blind14.TEMPLATES[family.name]
        # two updates name the old value before the new one; the others do not name it
        naming = [t for t in updates if "old" in checks.template_fields(t)]
        assert naming == list(updates[:2]), family.name
        assert all(t.index("{old}") < t.index("{v}") for t in naming), family.name
        # one register: most statements say when in the day they happened
        assert sum(1 for t in facts + updates if PAST.search(t)) >= 6, family.name
        assert len(echoes) == 2, family.name


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11), (400, 3)])
def test_blind14_key_matches_its_messages(turns: int, seed: int) -> None:
    checks.check_own_session("blind14", blind14, turns, seed, updates=UPDATES_AT_10K)


def test_blind14_keeps_the_generators_plan() -> None:
    """Only the words change: the checkpoints, the first statements and the worked example's labels
    are the standard wording's."""
    checks.check_keeps_the_generators_plan("blind14")


def test_blind14_old_values_named_are_the_superseded_ones() -> None:
    """An update that names the old value ("I'd written {old} in my notebook …, but … {v}") names
    the value of the statement the key says it supersedes; about a third of the updates do."""
    checks.check_old_values_named("blind14", blind14)


def test_blind14_words_are_its_own() -> None:
    """Its statements are in no earlier wording's session, nor its chatter and replies."""
    checks.check_words_are_its_own(
        "blind14", (*SHARED, *blind10.SHARED, *blind11.SHARED, *blind12.SHARED, *blind13.SHARED)
    )


def test_blind14_is_in_no_routine_policy_run() -> None:
    """Held out: the bench script's default wordings and the pinned-figure tests leave it out."""
    checks.check_in_no_routine_run("blind14")


def test_blind14_is_a_wording_of_the_cli() -> None:
    """``ctxscope bench policies --wording`` takes ``blind14`` (the arguments are parsed here, not run)."""
    parser = build_parser("bench")
    assert "blind14" in WORDINGS
    assert parser.parse_args(["bench", "policies", "--wording", "blind14"]).wording == "blind14"


def test_blind14_is_frozen() -> None:
    """blind14 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    module = Path(blind14.__file__).read_bytes()
    assert hashlib.sha256(module).hexdigest() == BLIND14_SHA256, (
        "blind14.py changed: write a new held-out set instead (docs/policies.md)"
    )
    bench = generate(10_000, 7, "blind14")
    text = "\n".join(f"{m.turn}\t{m.role}\t{m.content}" for m in bench.messages)
    assert hashlib.sha256(text.encode()).hexdigest() == BLIND14_SESSION_SHA256, (
        "the generator changed blind14's session"
    )
