"""The ``blind8`` wording generates a consistent session and answer key.

Only the generator runs here. ``blind8`` was held out until branch ``policies9``, which studied its
failures (a development set since; its pinned figures are in test_policies_benchmark.py). These
tests check the wording module's templates and the key the generator builds from them: every label
has its message, every statement carries a value of its kind, every supersession points forward to
an update, every checkpoint's needs are in force when it is asked.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from ctxscope.core.policies import Label, blind8, generate
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES, WORDINGS

ROOT = Path(__file__).resolve().parents[2]
DISTRACTOR_FIELDS = {"p", "n", "city", "day", "weekday", "money", "venue", "diet", "seat", "channel"}
"""The fields the generator fills in a distractor (``pick_values``)."""
STATEMENT_KINDS = ("fact", "update")


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def test_blind8_is_a_known_wording_with_every_family() -> None:
    assert "blind8" in WORDINGS
    assert set(blind8.VALUES) == set(blind8.TEMPLATES) == {f.name for f in FAMILIES}
    for family in FAMILIES:
        values = blind8.VALUES[family.name]
        assert len(values) >= 4 and len(set(values)) == len(values), family.name
        facts, updates, echoes = blind8.TEMPLATES[family.name]
        assert len(facts) >= 6 and len(updates) >= 7 and len(echoes) >= 2, family.name
        assert len(set(facts + updates)) == len(facts) + len(updates), family.name
        for template in facts + echoes:
            assert "v" in _fields(template) and _fields(template) <= {"s", "v"}, template
        for template in updates:
            assert "v" in _fields(template) and _fields(template) <= {"s", "v", "old"}, template
        if family.subject != "user":
            assert all("s" in _fields(t) for t in facts + updates), family.name
    assert sum(1 for f in FAMILIES if any("old" in _fields(t) for t in blind8.TEMPLATES[f.name][1])) == 12
    kinds = {kind for kind, _template in blind8.DISTRACTORS}
    assert kinds == {"question", "hypothetical", "rumour", "denial", "third_party", "collision", "outdated"}
    assert all(_fields(t) <= DISTRACTOR_FIELDS for _kind, t in blind8.DISTRACTORS)
    names = {f.name for f in FAMILIES}
    for template, families in blind8.QUERIES:
        assert _fields(template) <= {"p", "day"} and set(families) <= names, template
    assert blind8.PROJECTS[0] == "Atlas" and set(blind8.CHANNELS) <= set(blind8.VALUES["contact"])


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11)])
def test_blind8_key_matches_its_messages(turns: int, seed: int) -> None:
    bench = generate(turns, seed, "blind8")
    key = bench.key
    by_turn = {m.turn: m for m in bench.messages}
    assert [m.turn for m in bench.messages] == list(range(1, turns + 1))
    assert set(key.labels) == set(by_turn)  # every label maps to a message and back
    assert key.meta["wording"] == "blind8"
    for m in bench.messages[1:]:
        assert m.role == ("user" if m.turn % 2 == 0 else "assistant"), m.turn
        assert "{" not in m.content and "}" not in m.content and "the old plan" not in m.content, m
    values = {name: [v.casefold() for v in vs] for name, vs in blind8.VALUES.items()}

    def families(turn: int) -> set[str]:
        text = by_turn[turn].content.casefold()
        return {name for name, vs in values.items() if any(v in text for v in vs)}

    statements = [t for t, row in key.labels.items() if row.kind in STATEMENT_KINDS]
    assert statements and all(key.labels[t].label is Label.CRITICAL for t in statements)
    assert all(by_turn[t].role == "user" for t in statements)
    for turn in statements:
        if turn not in EXAMPLE_TURNS:
            assert families(turn), by_turn[turn].content  # the value is in the text, as written
    for turn, row in key.labels.items():
        if row.stale_from is None:
            continue
        # a supersession points forward, to a later update of the same kind of fact
        assert row.kind in (*STATEMENT_KINDS, "echo"), row
        assert row.stale_from > turn, row
        later = key.labels[row.stale_from]
        assert later.kind == "update" and later.label is Label.CRITICAL, (row, later)
        assert key.status_at(turn, row.stale_from + 1) is Label.STALE
        assert key.status_at(turn, row.stale_from) is row.label  # still in force when it is made
        if row.kind in STATEMENT_KINDS and turn not in EXAMPLE_TURNS and row.stale_from not in EXAMPLE_TURNS:
            assert families(turn) & families(row.stale_from), (by_turn[turn], by_turn[row.stale_from])
    queries = {template.split("{", 1)[0] for template, _families in blind8.QUERIES}
    assert len(key.checkpoints) >= 3
    for checkpoint in key.checkpoints:
        assert key.labels[checkpoint.turn].kind == "query"
        assert by_turn[checkpoint.turn].content == checkpoint.query
        if checkpoint.turn != EXAMPLE_TURNS[-1]:
            assert any(checkpoint.query.startswith(q) for q in queries), checkpoint.query
        assert checkpoint.needs and max(checkpoint.needs) < checkpoint.turn
        assert all(key.labels[t].kind in STATEMENT_KINDS for t in checkpoint.needs)
        assert all(key.status_at(t, checkpoint.turn) is Label.CRITICAL for t in checkpoint.needs)
    if turns >= 10_000:
        kinds = {row.kind for row in key.labels.values()}
        distractors = {"question", "hypothetical", "rumour", "denial", "third_party", "collision", "outdated"}
        assert distractors <= kinds
        assert all(
            "update" in [key.labels[t].kind for t in c.needs] for c in key.checkpoints
        ), "a checkpoint needs a superseding update"


def test_blind8_statements_are_its_own() -> None:
    benches = {w: generate(3_000, 5, w) for w in ("standard", "heldout", "blind7", "blind8")}

    def statements(wording: str) -> set[str]:
        b = benches[wording]
        return {
            m.content for m in b.messages
            if b.key.labels[m.turn].kind in STATEMENT_KINDS and m.turn not in EXAMPLE_TURNS
        }

    ours = statements("blind8")
    assert len(ours) > 100
    assert not ours & (statements("standard") | statements("heldout") | statements("blind7"))


def test_blind8_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies9, a development set since: the bench script's default
    wordings and the pinned-figure tests include it."""
    tree = ast.parse((ROOT / "bench" / "bench_policies.py").read_text())
    generated = next(
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GENERATED" for t in node.targets)
    )
    assert "blind8" in ast.literal_eval(generated)
    source = (ROOT / "tests" / "core" / "test_policies_benchmark.py").read_text()
    pinned = source.split("PINNED_16K = {", 1)[1].split("}", 1)[0]
    assert re.search(r"blind8", pinned)
