"""The ``blind11`` wording generates a consistent session and answer key.

``blind11`` was held out until branch ``policies12``, which studied its failures: a development set
since (its pinned figure is in tests/core/test_policies_benchmark.py). These tests check the
wording module's templates and the key the generator builds from them: every label has its message,
every statement carries a value of its kind, every supersession points forward to an update, every
checkpoint's needs are in force when it is asked, an update that quotes the old value quotes the
statement it supersedes, and the plan (the checkpoints and the worked example) is the generator's;
and its words are its own, down to the chatter and the assistant's replies.
"""

from __future__ import annotations

import re

import pytest
from ctxscope.core.policies import blind10, blind11, generate
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES, SHARED, WORDINGS
from ctxscope.tui.cli import build_parser

from tests.core import wording_checks as checks

MARKDOWN = re.compile(r"^\|.*\|$|^- \[[x ]\] |\*\*|`|^> ", re.MULTILINE)
"""A table row, a checklist item, bold, a code span or fence, or a block quote."""


def test_blind11_is_a_known_wording_with_every_family() -> None:
    """Every kind of fact in the Markdown register; names, cities, values, chatter and replies new."""
    checks.check_vocabulary("blind11", blind11, facts_at_least=5, updates_at_least=6)
    checks.check_vocabulary_is_new(blind11, range(2, 11))
    checks.check_shared(blind11, SHARED, blind10.SHARED)
    for template, families in blind11.QUERIES:
        assert all(f.subject in ("project", "user") for f in FAMILIES if f.name in families), template
    for family in FAMILIES:
        facts, updates, echoes = blind11.TEMPLATES[family.name]
        # two updates name the old value, the first quoting it; the others imply it; the last reads
        # like a fact
        assert sum(1 for t in updates if "old" in checks.template_fields(t)) == 2, family.name
        assert updates[0].startswith("> ") and "{old}" in updates[0].split("\n", 1)[0], family.name
        assert "old" not in checks.template_fields(updates[-1]), family.name
        # one register: five or more of the eleven statements and an acknowledgement carry Markdown
        assert sum(1 for t in facts + updates if MARKDOWN.search(t)) >= 5, family.name
        assert any(MARKDOWN.search(t) for t in echoes), family.name


@pytest.mark.parametrize(("turns", "seed"), [(10_000, 7), (3_000, 5), (1_200, 11)])
def test_blind11_key_matches_its_messages(turns: int, seed: int) -> None:
    checks.check_own_session("blind11", blind11, turns, seed, updates=253)


def test_blind11_keeps_the_generators_plan() -> None:
    """Only the words change: the checkpoints, the first statements and the worked example's labels
    are the standard wording's."""
    checks.check_keeps_the_generators_plan("blind11")


def test_blind11_quoted_old_values_are_the_superseded_ones() -> None:
    """An update that quotes an earlier message ("> {s} launches {old}") quotes the value of the
    statement the key says it supersedes, and states a different value of that kind below it."""
    bench = generate(10_000, 7, "blind11")
    key, by_turn = bench.key, {m.turn: m.content.casefold() for m in bench.messages}
    values = {name: [v.casefold() for v in vs] for name, vs in blind11.VALUES.items()}
    quoting = 0
    for turn, row in key.labels.items():
        text = by_turn[turn]
        quote = next((line for line in text.split("\n") if line.startswith("> ")), None)
        if row.kind != "update" or quote is None:
            continue
        replaced = max(
            t for t, r in key.labels.items() if r.kind in checks.STATEMENT_KINDS and r.stale_from == turn
        )
        if replaced in EXAMPLE_TURNS:
            continue  # the worked example's values are the generator's
        rest = text.split(quote, 1)[1]
        assert any(
            v in quote and v in by_turn[replaced] and any(w in rest and w != v for w in vs)
            for vs in values.values() for v in vs
        ), (by_turn[replaced], text)
        quoting += 1
    assert quoting > 20


def test_blind11_words_are_its_own() -> None:
    """Its statements are in no earlier wording's session, nor its chatter and replies."""
    checks.check_words_are_its_own("blind11", (*SHARED, *blind10.SHARED))


def test_blind11_is_a_development_set_in_routine_runs() -> None:
    """Held out until branch policies12, a development set since."""
    checks.check_in_routine_runs("blind11")


def test_blind11_is_a_wording_of_the_cli() -> None:
    """``ctxscope bench policies --wording`` takes every generator wording, ``blind11`` among them
    (the arguments are parsed here, not run)."""
    parser = build_parser("bench")
    for wording in WORDINGS:
        assert parser.parse_args(["bench", "policies", "--wording", wording]).wording == wording
