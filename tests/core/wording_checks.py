"""Generator-only checks shared by the tests of the held-out wordings (``blind8`` on).

They read a wording module's vocabulary and the session and key the generator builds from it: every
label has its message, every statement carries a value of its kind, every supersession points
forward to an update, every checkpoint's needs are in force when it is asked. No policy runs here.
"""

from __future__ import annotations

import ast
import importlib
import re
import string
from pathlib import Path
from types import ModuleType

from ctxscope.core.policies import Label, generate, generator
from ctxscope.core.policies.generator import EXAMPLE_TURNS, FAMILIES, WORDINGS, GeneratedBenchmark

ROOT = Path(__file__).resolve().parents[2]

STATEMENT_KINDS = ("fact", "update")
DISTRACTOR_KINDS = {"question", "hypothetical", "rumour", "denial", "third_party", "collision", "outdated"}
DISTRACTOR_FIELDS = {"p", "n", "city", "day", "weekday", "money", "venue", "diet", "seat", "channel"}
"""The fields the generator fills in a distractor (``pick_values``)."""
SHARED_FIELDS: tuple[set[str], ...] = (set(), set(), {"p", "n"}, {"p", "n"}, set(), set(), {"p"}, set())
"""The fields each part of ``SHARED`` may use: system prompt, user chatter, episodes, tasks,
assistant chatter, hedges, answers, task replies."""


def template_fields(template: str) -> set[str]:
    """The names of a template's ``{fields}``."""
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def check_vocabulary(wording: str, module: ModuleType, *, facts_at_least: int, updates_at_least: int) -> None:
    """A wording module's vocabulary has every family, enough distinct templates of the right
    fields, every kind of distractor with the generator's fields, queries about known families,
    Atlas first and the contact channels among the contact values."""
    assert wording in WORDINGS
    assert set(module.VALUES) == set(module.TEMPLATES) == {f.name for f in FAMILIES}
    for family in FAMILIES:
        values = module.VALUES[family.name]
        assert len(values) >= 4 and len(set(values)) == len(values), family.name
        facts, updates, echoes = module.TEMPLATES[family.name]
        assert len(facts) >= facts_at_least and len(updates) >= updates_at_least, family.name
        assert len(echoes) >= 2 and len(set(facts + updates)) == len(facts) + len(updates), family.name
        for template in facts + echoes:
            assert "v" in template_fields(template) <= {"s", "v"}, template
        for template in updates:
            assert "v" in template_fields(template) <= {"s", "v", "old"}, template
        if family.subject != "user":
            assert all("s" in template_fields(t) for t in facts + updates), family.name
    assert {kind for kind, _template in module.DISTRACTORS} == DISTRACTOR_KINDS
    assert all(template_fields(t) <= DISTRACTOR_FIELDS for _kind, t in module.DISTRACTORS)
    names = {f.name for f in FAMILIES}
    for template, families in module.QUERIES:
        assert template_fields(template) <= {"p", "day"} and set(families) <= names, template
    assert module.PROJECTS[0] == "Atlas" and set(module.CHANNELS) <= set(module.VALUES["contact"])


def check_key_matches_messages(wording: str, module: ModuleType, turns: int, seed: int) -> GeneratedBenchmark:
    """Generate ``wording`` and check its key against its messages; return the session for more checks."""
    bench = generate(turns, seed, wording)
    key = bench.key
    by_turn = {m.turn: m for m in bench.messages}
    assert [m.turn for m in bench.messages] == list(range(1, turns + 1))
    assert set(key.labels) == set(by_turn)  # every label maps to a message and back
    assert key.meta["wording"] == wording
    for m in bench.messages[1:]:
        assert m.role == ("user" if m.turn % 2 == 0 else "assistant"), m.turn
        assert "{" not in m.content and "}" not in m.content and "the old plan" not in m.content, m
    values = {name: [v.casefold() for v in vs] for name, vs in module.VALUES.items()}

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
    queries = {template.split("{", 1)[0] for template, _families in module.QUERIES}
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
        assert {row.kind for row in key.labels.values()} >= DISTRACTOR_KINDS
        assert all(
            "update" in [key.labels[t].kind for t in c.needs] for c in key.checkpoints
        ), "a checkpoint needs a superseding update"
    return bench


def check_vocabulary_is_new(module: ModuleType, earlier_sets: range) -> None:
    """No name, city or value of ``module`` is one of the generator's or of the ``blindN`` sets'
    (N in ``earlier_sets``)."""
    earlier: set[str] = {*generator.PROJECTS, *generator.PEOPLE, *generator.CITIES, *generator.DAYS}
    for family in FAMILIES:
        earlier.update(family.values)
    for number in earlier_sets:
        other = importlib.import_module(f"ctxscope.core.policies.blind{number}")
        earlier.update(other.PROJECTS, other.PEOPLE, other.CITIES, other.CHANNELS)
        for values in other.VALUES.values():
            earlier.update(values)
    ours = {*module.PROJECTS[1:], *module.PEOPLE, *module.CITIES}
    for values in module.VALUES.values():
        ours.update(values)
    assert not {v.casefold() for v in ours} & {v.casefold() for v in earlier}


def check_words_are_its_own(wording: str, shared: tuple[tuple[str, ...], ...]) -> None:
    """Its statements are in no earlier wording's session (3,000 turns, seed 5), and its other
    messages are none of ``shared`` (the chatter and replies of the sets before it)."""
    earlier_wordings = WORDINGS[: WORDINGS.index(wording)]
    benches = {w: generate(3_000, 5, w) for w in (*earlier_wordings, wording)}

    def texts(w: str, statements: bool) -> set[str]:
        b = benches[w]
        return {
            m.content for m in b.messages
            if (b.key.labels[m.turn].kind in STATEMENT_KINDS) == statements and m.turn not in EXAMPLE_TURNS
        }

    ours = texts(wording, True)
    assert len(ours) > 100
    assert not ours & set().union(*(texts(w, True) for w in earlier_wordings))
    assert not texts(wording, False) & {t for part in shared for t in part}


def _routine_runs() -> tuple[tuple[str, ...], str]:
    """The bench script's default wordings, and the text of the pinned-figure table."""
    tree = ast.parse((ROOT / "bench" / "bench_policies.py").read_text())
    generated = next(
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GENERATED" for t in node.targets)
    )
    source = (ROOT / "tests" / "core" / "test_policies_benchmark.py").read_text()
    return ast.literal_eval(generated), source.split("PINNED_16K = {", 1)[1].split("}", 1)[0]


def check_in_no_routine_run(wording: str) -> None:
    """Held out: the bench script's default wordings and the pinned-figure tests leave it out."""
    generated, pinned = _routine_runs()
    assert wording not in generated
    assert not re.search(rf"\b{wording}\b", pinned)


def check_in_routine_runs(wording: str) -> None:
    """A development set (once held out, since studied): the bench script's default wordings and
    the pinned-figure tests include it."""
    generated, pinned = _routine_runs()
    assert wording in generated
    assert re.search(rf"\b{wording}\b", pinned)


def check_shared(module: ModuleType, *earlier: tuple[tuple[str, ...], ...]) -> None:
    """A wording's own ``SHARED`` has every part, each with the fields the generator fills and none
    of the texts of the same part in ``earlier`` (the generator's and earlier sets' ``SHARED``)."""
    assert len(module.SHARED) == len(SHARED_FIELDS) and all(len(e) == len(SHARED_FIELDS) for e in earlier)
    for part, (ours, allowed) in enumerate(zip(module.SHARED, SHARED_FIELDS, strict=True)):
        assert ours and not set(ours) & {t for e in earlier for t in e[part]}
        assert all(template_fields(t) <= allowed for t in ours), ours


def check_own_session(wording: str, module: ModuleType, turns: int, seed: int, updates: int) -> None:
    """:func:`check_key_matches_messages` for a wording with its own ``SHARED``: its system prompt
    opens the session, SPEC §4's worked example is kept, and at 10,000 turns it has the generator's
    170 facts and 9 checkpoints and ``updates`` updates."""
    bench = check_key_matches_messages(wording, module, turns, seed)
    key, by_turn = bench.key, {m.turn: m for m in bench.messages}
    assert by_turn[1].content == module.SHARED[0][0]
    if turns >= 400:  # SPEC §4's worked example, as every wording keeps it
        assert by_turn[18].content == "My lunch preference for offsites is vegetarian."
        assert by_turn[260].content == "Project Atlas launch moves from Wednesday to Friday."
        example = next(c for c in key.checkpoints if c.turn == EXAMPLE_TURNS[-1])
        assert example.needs == (18, 142, 260)
    if turns >= 10_000:
        counts = {kind: sum(1 for row in key.labels.values() if row.kind == kind) for kind in STATEMENT_KINDS}
        assert counts == {"fact": 170, "update": updates} and len(key.checkpoints) == 9


def check_keeps_the_generators_plan(wording: str) -> None:
    """Only the words change: the checkpoints' turns, one first statement per attribute and the
    worked example's labels are the standard wording's (the updates are drawn from its values)."""
    ours, standard = generate(3_000, 5, wording).key, generate(3_000, 5).key
    assert [c.turn for c in ours.checkpoints] == [c.turn for c in standard.checkpoints]
    assert sum(1 for r in ours.labels.values() if r.kind == "fact") == sum(
        1 for r in standard.labels.values() if r.kind == "fact"
    )
    for turn in EXAMPLE_TURNS:  # the later updates differ, so the example's stale_from may too
        assert (ours.labels[turn].label, ours.labels[turn].kind) == (
            standard.labels[turn].label, standard.labels[turn].kind
        ), turn
    assert {k: v for k, v in ours.meta.items() if k != "wording"} == {
        k: v for k, v in standard.meta.items() if k != "wording"
    }


def check_old_values_named(wording: str, module: ModuleType) -> None:
    """An update that names the old value names the value of the statement the key says it
    supersedes, and states a different value of that kind after it; about a third of the updates do
    (two of six templates per kind), at 10,000 turns, seed 7."""
    bench = generate(10_000, 7, wording)
    key, by_turn = bench.key, {m.turn: m.content.casefold() for m in bench.messages}
    values = {name: [v.casefold() for v in vs] for name, vs in module.VALUES.items()}
    naming = updates = 0
    for turn, row in key.labels.items():
        if row.kind != "update" or turn in EXAMPLE_TURNS:
            continue
        replaced = max(t for t, r in key.labels.items() if r.kind in STATEMENT_KINDS and r.stale_from == turn)
        if replaced in EXAMPLE_TURNS:
            continue  # the worked example's values are the generator's
        updates += 1
        text, before = by_turn[turn], by_turn[replaced]
        naming += any(
            v in text and v in before and any(w != v and w in text.split(v, 1)[1] for w in vs)
            for vs in values.values() for v in vs
        )
    assert 0.25 * updates < naming < 0.45 * updates, (naming, updates)
