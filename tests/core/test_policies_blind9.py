"""The ``blind9`` wording generates a consistent session and answer key.

Only the generator runs here. ``blind9`` was held out until branch ``policies10``, which studied its
failures (a development set since; its pinned figures are in test_policies_benchmark.py). These
tests check the wording module's templates and
the key the generator builds from them: every label has its message, every statement carries a
value of its kind, every supersession points forward to an update, every checkpoint's needs are in
force when it is asked.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from ctxscope.core.policies import blind9, generate
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES, WORDINGS

from tests.core.wording_checks import check_key_matches_messages

ROOT = Path(__file__).resolve().parents[2]
DISTRACTOR_FIELDS = {"p", "n", "city", "day", "weekday", "money", "venue", "diet", "seat", "channel"}
"""The fields the generator fills in a distractor (``pick_values``)."""
STATEMENT_KINDS = ("fact", "update")


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def test_blind9_is_a_known_wording_with_every_family() -> None:
    assert "blind9" in WORDINGS
    assert set(blind9.VALUES) == set(blind9.TEMPLATES) == {f.name for f in FAMILIES}
    for family in FAMILIES:
        values = blind9.VALUES[family.name]
        assert len(values) >= 4 and len(set(values)) == len(values), family.name
        facts, updates, echoes = blind9.TEMPLATES[family.name]
        assert len(facts) >= 6 and len(updates) >= 7 and len(echoes) >= 2, family.name
        assert len(set(facts + updates)) == len(facts) + len(updates), family.name
        for template in facts + echoes:
            assert "v" in _fields(template) and _fields(template) <= {"s", "v"}, template
        for template in updates:
            assert "v" in _fields(template) and _fields(template) <= {"s", "v", "old"}, template
        if family.subject != "user":
            assert all("s" in _fields(t) for t in facts + updates), family.name
    assert sum(1 for f in FAMILIES if any("old" in _fields(t) for t in blind9.TEMPLATES[f.name][1])) == 12
    kinds = {kind for kind, _template in blind9.DISTRACTORS}
    assert kinds == {"question", "hypothetical", "rumour", "denial", "third_party", "collision", "outdated"}
    assert all(_fields(t) <= DISTRACTOR_FIELDS for _kind, t in blind9.DISTRACTORS)
    names = {f.name for f in FAMILIES}
    for template, families in blind9.QUERIES:
        assert _fields(template) <= {"p", "day"} and set(families) <= names, template
    assert blind9.PROJECTS[0] == "Atlas" and set(blind9.CHANNELS) <= set(blind9.VALUES["contact"])


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11)])
def test_blind9_key_matches_its_messages(turns: int, seed: int) -> None:
    check_key_matches_messages("blind9", blind9, turns, seed)


def test_blind9_statements_are_its_own() -> None:
    benches = {w: generate(3_000, 5, w) for w in ("standard", "heldout", "blind7", "blind8", "blind9")}

    def statements(wording: str) -> set[str]:
        b = benches[wording]
        return {
            m.content for m in b.messages
            if b.key.labels[m.turn].kind in STATEMENT_KINDS and m.turn not in EXAMPLE_TURNS
        }

    ours = statements("blind9")
    assert len(ours) > 100
    others = statements("standard") | statements("heldout") | statements("blind7") | statements("blind8")
    assert not ours & others


def test_blind9_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies10, a development set since: the bench script's default
    wordings and the pinned-figure tests include it."""
    tree = ast.parse((ROOT / "bench" / "bench_policies.py").read_text())
    generated = next(
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GENERATED" for t in node.targets)
    )
    assert "blind9" in ast.literal_eval(generated)
    source = (ROOT / "tests" / "core" / "test_policies_benchmark.py").read_text()
    pinned = source.split("PINNED_16K = {", 1)[1].split("}", 1)[0]
    assert re.search(r"blind9", pinned)
