"""The ``blind13`` wording generates a consistent session and answer key, frozen as committed.

``blind13`` was held out until branch ``policies14``, which studied its failures: a development set
now (its figures are pinned with the others in test_policies_benchmark.py). These tests check the
wording module's templates and the key the generator builds from them: every label has its
message, every statement carries a value of its kind, every supersession points forward to an
update, every checkpoint's needs are in force when it is asked, two updates of each kind name the
old value and the last is a question and its answer, and the plan (the checkpoints and the worked
example) is the generator's; its words are its own, down to the chatter and the assistant's
replies; and the module and its 10,000-turn seed-7 session are the ones frozen before any policy
ran on it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from ctxscope.core.policies import blind10, blind11, blind12, blind13, generate
from ctxscope.core.policies.generator import FAMILIES, SHARED, WORDINGS
from ctxscope.tui.cli import build_parser

from tests.core import wording_checks as checks

BLIND13_SHA256 = "1f51972ed7c6ccf184b114ab1e03a679fa08a8179a55d81491a3729a908baa30"
"""The fourteenth wording set as committed before any policy first ran on it (held out until policies14)."""
BLIND13_SESSION_SHA256 = "eade2e754f6738e650f4da87fd33f237a284bee84680fc26ae4df56f5d1dfc4e"
"""generate(10_000, 7, "blind13") as frozen with it: the session itself, not only its module."""
UPDATES_AT_10K = 240
"""Updates in the 10,000-turn seed-7 session (with the generator's 170 facts and 9 checkpoints)."""

ANSWER = re.compile(r"\?|\banswer|\byou (?:last )?asked\b|\bquestion\b|^\{v\}(?:,| —)", re.IGNORECASE)
"""A question and its answer in one message, an answer that says it answers one, or a fragment that
leads with the value ("{v}, finally — …")."""
CHANGE = re.compile(
    r"\b(?:since (?:last|we|you|my)|correction|actually|misspoke|changed?|different|had that wrong"
    r"|shifted)\b",
    re.IGNORECASE,
)
"""The interviewee's words for an answer that has changed since it was given."""


def test_blind13_is_a_known_wording_with_every_family() -> None:
    """Every kind of fact in the interview register; names, cities, values, chatter and replies new."""
    checks.check_vocabulary("blind13", blind13, facts_at_least=5, updates_at_least=6)
    checks.check_vocabulary_is_new(blind13, range(2, 13))
    checks.check_shared(blind13, SHARED, blind10.SHARED, blind11.SHARED, blind12.SHARED)
    for template, families in blind13.QUERIES:
        assert all(f.subject in ("project", "user") for f in FAMILIES if f.name in families), template
    for family in FAMILIES:
        facts, updates, echoes = blind13.TEMPLATES[family.name]
        # two updates name the old value before the new one; the three after them say the answer
        # has changed without naming it; the last is a question and its answer, no word of change
        naming = [t for t in updates if "old" in checks.template_fields(t)]
        assert naming == list(updates[:2]), family.name
        assert all(t.index("{old}") < t.index("{v}") for t in naming), family.name
        assert all(CHANGE.search(t) for t in updates[2:-1]), family.name
        assert re.search(r"\? \{v\}", updates[-1]) and not CHANGE.search(updates[-1]), family.name
        # one register: most first statements answer a question, every read-back asks for one
        assert sum(1 for t in facts if ANSWER.search(t)) >= 3, family.name
        assert all(t.endswith("?") for t in echoes), family.name
    # the assistant's own chatter is its interview questions; the user's confirms read-backs
    questions = [t for t in blind13.SHARED[4] if t.endswith("?")]
    assert len(questions) >= 4 and "Anything changed since last time?" in questions
    assert {"Yep, that's right.", "Correct."} <= set(blind13.SHARED[1])


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11), (400, 3)])
def test_blind13_key_matches_its_messages(turns: int, seed: int) -> None:
    checks.check_own_session("blind13", blind13, turns, seed, updates=UPDATES_AT_10K)


def test_blind13_keeps_the_generators_plan() -> None:
    """Only the words change: the checkpoints, the first statements and the worked example's labels
    are the standard wording's."""
    checks.check_keeps_the_generators_plan("blind13")


def test_blind13_old_values_named_are_the_superseded_ones() -> None:
    """An update that names the old value ("Sorry, I misspoke earlier — not {old}; …") names the value of the
    statement the key says it supersedes; about a third of the updates do."""
    checks.check_old_values_named("blind13", blind13)


def test_blind13_words_are_its_own() -> None:
    """Its statements are in no earlier wording's session, nor its chatter and replies."""
    checks.check_words_are_its_own("blind13", (*SHARED, *blind10.SHARED, *blind11.SHARED, *blind12.SHARED))


def test_blind13_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies14, a development set since."""
    checks.check_in_routine_runs("blind13")


def test_blind13_is_a_wording_of_the_cli() -> None:
    """``ctxscope bench policies --wording`` takes every generator wording, ``blind13`` among them
    (the arguments are parsed here, not run)."""
    parser = build_parser("bench")
    assert "blind13" in WORDINGS
    for wording in WORDINGS:
        assert parser.parse_args(["bench", "policies", "--wording", wording]).wording == wording


def test_blind13_is_frozen() -> None:
    """blind13 was committed before any policy ran on it; editing it after seeing results unblinds it."""
    module = Path(blind13.__file__).read_bytes()
    assert hashlib.sha256(module).hexdigest() == BLIND13_SHA256, (
        "blind13.py changed: write a new held-out set instead (docs/policies.md)"
    )
    bench = generate(10_000, 7, "blind13")
    text = "\n".join(f"{m.turn}\t{m.role}\t{m.content}" for m in bench.messages)
    assert hashlib.sha256(text.encode()).hexdigest() == BLIND13_SESSION_SHA256, (
        "the generator changed blind13's session"
    )
