"""The ``blind9`` wording generates a consistent session and answer key.

Only the generator runs here. ``blind9`` was held out until branch ``policies10``, which studied its
failures (a development set since; its pinned figures are in test_policies_benchmark.py). These
tests check the wording module's templates and
the key the generator builds from them: every label has its message, every statement carries a
value of its kind, every supersession points forward to an update, every checkpoint's needs are in
force when it is asked.
"""

from __future__ import annotations

import pytest
from ctxscope.core.policies import blind9, generate
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES

from tests.core.wording_checks import (
    check_in_routine_runs,
    check_key_matches_messages,
    check_vocabulary,
    template_fields,
)

STATEMENT_KINDS = ("fact", "update")


def test_blind9_is_a_known_wording_with_every_family() -> None:
    check_vocabulary("blind9", blind9, facts_at_least=6, updates_at_least=7)
    updates = {f.name: blind9.TEMPLATES[f.name][1] for f in FAMILIES}
    naming_old = [name for name, ts in updates.items() if any("old" in template_fields(t) for t in ts)]
    assert len(naming_old) == 12


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11)])
def test_blind9_key_matches_its_messages(turns: int, seed: int) -> None:
    check_key_matches_messages("blind9", blind9, turns, seed)


def test_blind9_statements_are_its_own() -> None:
    benches = {w: generate(3_000, 5, w) for w in ("standard", "heldout", "blind7", "blind8", "blind9")}

    def statements(wording: str) -> set[str]:
        b = benches[wording]
        return {
            m.content
            for m in b.messages
            if b.key.labels[m.turn].kind in STATEMENT_KINDS and m.turn not in EXAMPLE_TURNS
        }

    ours = statements("blind9")
    assert len(ours) > 100
    others = statements("standard") | statements("heldout") | statements("blind7") | statements("blind8")
    assert not ours & others


def test_blind9_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies10, a development set since."""
    check_in_routine_runs("blind9")
