"""The ``blind10`` wording generates a consistent session and answer key.

Only the generator runs here (``blind10`` was held out until branch policies11 and is a development
set since; its policy figures are pinned in tests/core/test_policies_benchmark.py). These tests
check the wording module's templates and
the key the generator builds from them: every label has its message, every statement carries a
value of its kind, every supersession points forward to an update, every checkpoint's needs are in
force when it is asked; and its words are its own, down to the chatter and the assistant's replies.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies import blind10
from ctxscope.core.policies.generator import FAMILIES, SHARED

from tests.core.wording_checks import (
    check_in_routine_runs,
    check_own_session,
    check_shared,
    check_vocabulary,
    check_vocabulary_is_new,
    check_words_are_its_own,
    template_fields,
)


def test_blind10_is_a_known_wording_with_every_family() -> None:
    check_vocabulary("blind10", blind10, facts_at_least=5, updates_at_least=6)
    for family in FAMILIES:
        _facts, updates, _echoes = blind10.TEMPLATES[family.name]
        # some updates name the old value, the others only imply it; the last reads like a fact
        assert sum(1 for t in updates if "old" in template_fields(t)) == 2, family.name
        assert "old" not in template_fields(updates[-1]), family.name
    for template, families in blind10.QUERIES:
        assert all(f.subject in ("project", "user") for f in FAMILIES if f.name in families), template
    check_shared(blind10, SHARED)


def test_blind10_vocabulary_is_new() -> None:
    """No name, city or value of ``blind10`` is one of the generator's or an earlier set's."""
    check_vocabulary_is_new(blind10, range(2, 10))


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11)])
def test_blind10_key_matches_its_messages(turns: int, seed: int) -> None:
    check_own_session("blind10", blind10, turns, seed, updates=244)


def test_blind10_words_are_its_own() -> None:
    """Its statements are in no earlier wording's session, nor its chatter and replies."""
    check_words_are_its_own("blind10", SHARED)


def test_blind10_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies11, a development set since."""
    check_in_routine_runs("blind10")
