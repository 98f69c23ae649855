"""The ``blind10`` wording generates a consistent session and answer key.

Only the generator runs here (``blind10`` was held out until branch policies11 and is a development
set since; its policy figures are pinned in tests/core/test_policies_benchmark.py). These tests
check the wording module's templates and
the key the generator builds from them: every label has its message, every statement carries a
value of its kind, every supersession points forward to an update, every checkpoint's needs are in
force when it is asked; and its words are its own, down to the chatter and the assistant's replies.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from ctxscope.core.policies import blind10, generate
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES, SHARED, WORDINGS

from tests.core.wording_checks import (
    STATEMENT_KINDS,
    check_key_matches_messages,
    check_vocabulary,
    template_fields,
)

ROOT = Path(__file__).resolve().parents[2]
EARLIER = tuple(w for w in WORDINGS if w != "blind10")
SHARED_FIELDS: tuple[set[str], ...] = (set(), set(), {"p", "n"}, {"p", "n"}, set(), set(), {"p"}, set())
"""The fields each part of ``SHARED`` may use: system prompt, user chatter, episodes, tasks,
assistant chatter, hedges, answers, task replies."""



def test_blind10_is_a_known_wording_with_every_family() -> None:
    check_vocabulary("blind10", blind10, facts_at_least=5, updates_at_least=6)
    for family in FAMILIES:
        _facts, updates, _echoes = blind10.TEMPLATES[family.name]
        # some updates name the old value, the others only imply it; the last reads like a fact
        assert sum(1 for t in updates if "old" in template_fields(t)) == 2, family.name
        assert "old" not in template_fields(updates[-1]), family.name
    for template, families in blind10.QUERIES:
        assert all(f.subject in ("project", "user") for f in FAMILIES if f.name in families), template
    assert len(blind10.SHARED) == len(SHARED) == len(SHARED_FIELDS)
    for ours, theirs, allowed in zip(blind10.SHARED, SHARED, SHARED_FIELDS, strict=True):
        assert ours and not set(ours) & set(theirs)
        assert all(template_fields(t) <= allowed for t in ours), ours


def test_blind10_vocabulary_is_new() -> None:
    """No name, city or value of ``blind10`` is one of the generator's or an earlier set's."""
    from ctxscope.core.policies import generator

    earlier: set[str] = {*generator.PROJECTS, *generator.PEOPLE, *generator.CITIES, *generator.DAYS}
    for family in FAMILIES:
        earlier.update(family.values)
    for number in range(2, 10):
        module = importlib.import_module(f"ctxscope.core.policies.blind{number}")
        earlier.update(module.PROJECTS, module.PEOPLE, module.CITIES, module.CHANNELS)
        for values in module.VALUES.values():
            earlier.update(values)
    ours = {*blind10.PROJECTS[1:], *blind10.PEOPLE, *blind10.CITIES}
    for values in blind10.VALUES.values():
        ours.update(values)
    assert not {v.casefold() for v in ours} & {v.casefold() for v in earlier}


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11)])
def test_blind10_key_matches_its_messages(turns: int, seed: int) -> None:
    bench = check_key_matches_messages("blind10", blind10, turns, seed)
    key, by_turn = bench.key, {m.turn: m for m in bench.messages}
    assert by_turn[1].content == blind10.SHARED[0][0]
    if turns >= 400:  # SPEC §4's worked example, as every wording keeps it
        assert by_turn[18].content == "My lunch preference for offsites is vegetarian."
        assert by_turn[260].content == "Project Atlas launch moves from Wednesday to Friday."
        example = next(c for c in key.checkpoints if c.turn == EXAMPLE_TURNS[-1])
        assert example.needs == (18, 142, 260)
    if turns >= 10_000:
        counts = {kind: sum(1 for row in key.labels.values() if row.kind == kind) for kind in STATEMENT_KINDS}
        assert counts == {"fact": 170, "update": 244} and len(key.checkpoints) == 9


def test_blind10_words_are_its_own() -> None:
    """Its statements are in no earlier wording's session, nor its chatter and replies."""
    benches = {w: generate(3_000, 5, w) for w in (*EARLIER, "blind10")}

    def texts(wording: str, statements: bool) -> set[str]:
        b = benches[wording]
        return {
            m.content for m in b.messages
            if (b.key.labels[m.turn].kind in STATEMENT_KINDS) == statements and m.turn not in EXAMPLE_TURNS
        }

    ours = texts("blind10", True)
    assert len(ours) > 100
    assert not ours & set().union(*(texts(w, True) for w in EARLIER))
    shared = {t for part in SHARED for t in part}
    assert not texts("blind10", False) & shared


def test_blind10_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies11, a development set since: the bench script's default
    wordings and the pinned-figure tests include it."""
    tree = ast.parse((ROOT / "bench" / "bench_policies.py").read_text())
    generated = next(
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GENERATED" for t in node.targets)
    )
    assert "blind10" in ast.literal_eval(generated)
    source = (ROOT / "tests" / "core" / "test_policies_benchmark.py").read_text()
    pinned = source.split("PINNED_16K = {", 1)[1].split("}", 1)[0]
    assert re.search(r"blind10", pinned)
