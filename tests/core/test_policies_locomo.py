"""LoCoMo: the converter on a tiny sample, and the held-out figures when the real file is there.

The dataset (CC BY-NC 4.0) is never in this repository: set ``CTXSCOPE_LOCOMO`` to the path of
LoCoMo's ``data/locomo10.json`` to run the pinned figures; without it they are skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest
from ctxscope.core.policies import Budget, evaluate_sessions, load_labels, load_session

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
from convert_locomo import PARTS, SHA256, convert  # noqa: E402

SAMPLE = {
    "sample_id": "conv-x",
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_2": [{"speaker": "Ana", "dia_id": "D2:1", "text": "Back from Lisbon!"}],
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben!"},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "I adopted a cat.", "blip_caption": "a grey cat"},
        ],
        "session_1_date_time": "1 May 2023",
    },
    "qa": [
        {"question": "What pet does Ben have?", "answer": "a cat", "evidence": ["D1:2"], "category": 1},
        {"question": "What pet does Ben have?", "answer": "a cat", "evidence": ["D2:1; D1:1"], "category": 1},
        {"question": "Unanswerable?", "answer": "x", "evidence": [], "category": 5},
    ],
}


def _write(tmp_path: Path, sample: dict[str, object]) -> tuple[Path, Path]:
    rows, labels = convert(sample)
    session, labels_file = tmp_path / "s.jsonl", tmp_path / "l.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in rows))
    labels_file.write_text("".join(json.dumps(r) + "\n" for r in labels))
    return session, labels_file


def test_converter_keeps_both_speakers_alike_and_the_answers_out(tmp_path: Path) -> None:
    session, labels_file = _write(tmp_path, SAMPLE)
    messages = load_session(session)
    assert [(m.turn, m.role, m.speaker) for m in messages] == [
        (1, "user", "Ana"), (2, "user", "Ben"), (3, "user", "Ana"),  # sessions in order, peers alike
    ]
    assert messages[1].content == "I adopted a cat. [shares a photo: a grey cat]"
    key = load_labels(labels_file, messages)
    checkpoints = [(c.turn, c.query, c.needs) for c in key.checkpoints]
    assert checkpoints == [(4, "What pet does Ben have?", (1, 2, 3))]  # merged, evidence lists split
    assert {t: row.label.value for t, row in key.labels.items()} == dict.fromkeys((1, 2, 3), "critical")
    assert "a cat" not in labels_file.read_text()  # the answers are never written


def test_parts_split_the_ten_conversations() -> None:
    assert not set(PARTS["dev"]) & set(PARTS["heldout"])
    assert len(PARTS["dev"]) == len(PARTS["heldout"]) == 5


def test_heldout_figures(tmp_path: Path) -> None:
    """The held-out part at 4,000 and 8,000 tokens, as in docs/policies.md, re-measured on branch
    policies7 (dictation and formal mail read as typed English): focus evidence 0.116 -> 0.117 at
    4,000 tokens and 0.216 -> 0.213 at 8,000 (per-question 0.534 unchanged at 4,000). Before,
    on the refit estimator (85f2f0c); first run, old estimator: focus per-question 0.533 and
    evidence 0.117 at 4,000 tokens, importance-seed 0.213 at 8,000. Then on main 73411a9, the
    token estimator's refit on the status-line corpus (tokens5) merged: per-question 0.534 ->
    0.5325, evidence 0.117 -> 0.116 at 4,000 and 0.2127 -> 0.2103 at 8,000 (importance-seed 0.115
    -> 0.113 and 0.2124 -> 0.2097). On branch policies11 (coreference, narrated clauses, messages
    that only ask left out of the question's retrieval share; the held-out part run once, at the
    end, to report): focus per-question 0.5325 -> 0.527 and evidence 0.116 -> 0.1151 at 4,000
    tokens, evidence 0.2094 -> 0.2100 at 8,000. On branch policies12 (Markdown, signatures,
    requests; run at the end, to report, on dc4bb76 and ee8de63: the same): per-question 0.527 ->
    0.5277 at 4,000 tokens, evidence 0.1151 -> 0.1152 and 0.2100 -> 0.2102 at 8,000."""
    path = os.environ.get("CTXSCOPE_LOCOMO")
    if not path or not Path(path).is_file():
        pytest.skip("set CTXSCOPE_LOCOMO to LoCoMo's data/locomo10.json (not in the repository: CC BY-NC)")
    raw = Path(path).read_bytes()
    if hashlib.sha256(raw).hexdigest() != SHA256:
        pytest.skip("a different version of locomo10.json than the one the figures were measured on")
    sessions = []
    for sample in json.loads(raw):
        if sample["sample_id"] in PARTS["heldout"]:
            directory = tmp_path / sample["sample_id"]
            directory.mkdir()
            session, labels_file = _write(directory, sample)
            messages = load_session(session)
            sessions.append((messages, load_labels(labels_file, messages)))
    names = ["focus", "retrieval", "summary", "importance-seed"]
    result = evaluate_sessions(sessions, Budget(messages=None, tokens=4_000), policies=names)
    focus, retrieval = result.policies["focus"], result.policies["retrieval"]
    assert focus.query_recall == pytest.approx(0.5277, abs=0.0005)
    assert retrieval.query_recall == pytest.approx(0.387, abs=0.0005)
    # all questions' evidence: ahead of importance-seed (0.115; 0.114 before policies5); the
    # summary is credited only with the words its lines send (0.188 when whole turns were credited)
    assert focus.critical_recall == pytest.approx(0.1161, abs=0.0005)  # 0.1151 before policies13,
    # 0.1165 before policies14
    assert result.policies["importance-seed"].critical_recall == pytest.approx(0.113, abs=0.0005)
    assert result.policies["summary"].critical_recall == pytest.approx(0.0794, abs=0.0005)
    # at 8,000 tokens (where an earlier focus trailed importance-seed by 0.022, then by 0.005): ahead
    # by 0.0003 since policies7 (0.004 before), by 0.0006 on the refit estimator; behind by 0.0003
    # since policies10 (reported speech read as statements: 0.2103 -> 0.2094, its one run to report);
    # ahead by 0.0003 again since policies11 (0.2094 -> 0.2100, its one run to report); by 0.0014
    # since policies13 (texting read as prose: 0.2100 -> 0.2111, its one run to report); by 0.0013
    # since policies14 (question-and-answer talk: 0.2111 -> 0.2110, its one run to report)
    wide = evaluate_sessions(
        sessions, Budget(messages=None, tokens=8_000), policies=["focus", "importance-seed"]
    )
    assert wide.policies["focus"].critical_recall == pytest.approx(0.2110, abs=0.0005)
    assert wide.policies["importance-seed"].critical_recall == pytest.approx(0.2097, abs=0.0005)
    assert focus.stale_retention is None  # LoCoMo labels nothing stale: "–", not 0.000
