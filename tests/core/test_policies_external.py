"""External datasets (issue 8): loaders, label checks, the same numbers back, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from ctxscope.core.policies import (
    Budget,
    DatasetError,
    evaluate,
    export_dataset,
    generate,
    load_labels,
    load_session,
)
from ctxscope.tui.cli import main


def _write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, Path]:
    bench = generate(1200, seed=9)
    session, labels = tmp_path / "session.jsonl", tmp_path / "labels.jsonl"
    export_dataset(bench.messages, bench.key, session, labels)
    return session, labels


def test_external_path_gives_the_same_numbers(exported: tuple[Path, Path]) -> None:
    bench = generate(1200, seed=9)
    direct = evaluate(bench.messages, bench.key, Budget(100))
    session, labels = exported
    messages = load_session(session)
    key = load_labels(labels, messages)
    assert tuple(messages) == bench.messages
    assert key.checkpoints == bench.key.checkpoints
    again = evaluate(messages, key, Budget(100))
    for name, metrics in direct.policies.items():
        a, b = metrics.as_dict(), again.policies[name].as_dict()
        a.pop("ms_per_query")
        b.pop("ms_per_query")
        assert a == b, name


def test_openai_message_list(tmp_path: Path) -> None:
    listing = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "I keep a vegan diet."}]},
        {"role": "assistant", "content": "Noted."},
    ]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(listing))
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"messages": listing}))
    for path in (plain, wrapped):
        messages = load_session(path)
        assert [(m.turn, m.role) for m in messages] == [(1, "system"), (2, "user"), (3, "assistant")]
        assert messages[1].content == "I keep a vegan diet."


def test_ctxscope_log_format(tmp_path: Path) -> None:
    from ctxscope.core.logformat import SessionLogWriter
    from ctxscope.core.model import text_block

    path = tmp_path / "session.ctxscope.jsonl"
    with SessionLogWriter.create(path) as writer:
        writer.session(session_id="s1")
        writer.message("user", [text_block("Project Atlas launches on Friday.")])
        writer.message("assistant", [text_block("Noted.")])
    messages = load_session(path)
    first = (messages[0].turn, messages[0].role, messages[0].content)
    assert first == (1, "user", "Project Atlas launches on Friday.")


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        ([{"turn": 99, "label": "critical"}], "turn 99 is not in the session"),
        ([{"turn": 1, "label": "critical"}, {"turn": 1, "label": "noise"}], "duplicate turn 1"),
        ([{"turn": 1, "label": "important"}], "label must be one of"),
        ([{"turn": 1, "label": "critical", "stale_from": 1}], "stale_from 1 is not after turn 1"),
        ([{"turn": 1, "label": "critical"}, {"turn": 3, "query": "q", "needs": [7]}], "needs turn 7"),
        ([{"turn": 2, "query": "q"}, {"turn": 2, "query": "q"}], "duplicate checkpoint at turn 2"),
    ],
)
def test_label_errors_are_one_line(tmp_path: Path, rows: list[dict[str, object]], reason: str) -> None:
    session = _write_jsonl(tmp_path / "s.jsonl", [
        {"turn": 1, "role": "user", "content": "hello there"},
        {"turn": 2, "role": "assistant", "content": "hi"},
    ])
    labels = _write_jsonl(tmp_path / "l.jsonl", rows)
    with pytest.raises(DatasetError, match=reason) as info:
        load_labels(labels, load_session(session))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (b"not json at all", "not JSON"),
        (b'{"turn": 1, "role": "user", "content": "a"}\n{"turn": 1, "role": "user", "content": "b"}\n',
         "duplicate turn 1"),
        (b'[{"role": "wizard", "content": "x"}]', "unknown role"),
    ],
)
def test_session_errors(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(DatasetError, match=reason):
        load_session(path)
    with pytest.raises(DatasetError, match="cannot read session"):
        load_session(tmp_path / "missing.jsonl")


def test_default_checkpoint_is_the_last_user_message(tmp_path: Path) -> None:
    session = _write_jsonl(tmp_path / "s.jsonl", [
        {"turn": 1, "role": "user", "content": "I keep a vegan diet."},
        {"turn": 2, "role": "user", "content": "Plan lunch?"},
    ])
    labels = _write_jsonl(tmp_path / "l.jsonl", [{"turn": 1, "label": "critical"}])
    key = load_labels(labels, load_session(session))
    assert [(c.turn, c.query) for c in key.checkpoints] == [(3, "Plan lunch?")]


# -- the CLI -------------------------------------------------------------------------------------


def test_cli_json_generated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "policies", "--turns", "400", "--budget", "50", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recommended"] == "focus"
    assert data["budget"] == {"messages": 50, "tokens": None}  # --budget alone: messages only
    assert set(data["policies"]) >= {"importance-seed", "focus", "sliding-window"}
    assert {"critical_recall", "stale_retention", "noise_retention", "precision", "tokens"} <= set(
        data["policies"]["focus"]
    )


def test_cli_budgets_in_tokens_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "policies", "--turns", "400", "--policies", "focus", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["budget"] == {"messages": None, "tokens": 16_000}
    assert main(["bench", "policies", "--turns", "400", "--policies", "focus", "--token-budget", "900",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["budget"] == {"messages": None, "tokens": 900}


def test_cli_table_and_dataset(exported: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    session, labels = exported
    args = ["bench", "policies", "--dataset", str(session), "--labels", str(labels), "--budget", "100"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "focus" in out and "importance-seed" in out


def test_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "policies", "--dataset", str(tmp_path / "x.jsonl")]) == 2
    assert "--dataset and --labels go together" in capsys.readouterr().err
    labels = _write_jsonl(tmp_path / "l.jsonl", [{"turn": 1, "label": "critical"}])
    assert main(["bench", "policies", "--dataset", str(tmp_path / "x.jsonl"), "--labels", str(labels)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ctxscope bench: cannot read session") and err.count("\n") == 1
    assert main(["bench", "policies", "--turns", "10"]) == 2
    assert main(["bench", "policies", "--policies", "nope"]) == 2
    assert main(["bench", "policies", "--budget", "0"]) == 2
    assert "--budget must be at least 1" in capsys.readouterr().err


# -- the seed-harness converter (bench/convert_seed_harness.py) ------------------------------------


def test_converter_on_a_harness_shaped_sqlite(tmp_path: Path) -> None:
    """A stand-in for the seed harness's data: our generated session in a guessed SQLite layout."""
    import sqlite3
    import subprocess
    import sys

    bench = generate(800, seed=4)
    db = tmp_path / "harness.db"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE messages (id INTEGER, speaker TEXT, text TEXT, is_important INTEGER, "
        "is_stale INTEGER, is_noise INTEGER, superseded_at INTEGER, retrieval_count INTEGER)"
    )
    for m in bench.messages:
        row = bench.key.labels[m.turn]
        con.execute(
            "INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (m.turn, m.role, m.content, row.label.value == "critical", row.label.value == "stale",
             row.label.value == "noise", row.stale_from if row.label.value == "critical" else None, 99),
        )
    con.commit()
    con.close()
    script = Path(__file__).resolve().parents[2] / "bench" / "convert_seed_harness.py"
    session, labels = tmp_path / "s.jsonl", tmp_path / "l.jsonl"
    done = subprocess.run(
        [sys.executable, str(script), str(db), "--out-session", str(session), "--out-labels", str(labels),
         "--query", "Plan the Atlas launch lunch."],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    mapping = json.loads(done.stdout)
    assert (mapping["turn"], mapping["role"], mapping["content"]) == ("id", "speaker", "text")
    assert "retrieval_count" in mapping["ignored_columns"]
    messages = load_session(session)
    assert tuple(messages) == bench.messages
    key = load_labels(labels, messages)
    assert key.checkpoints[-1].turn == bench.messages[-1].turn + 1
    result = evaluate(messages, key, Budget(100))
    assert result.policies["focus"].critical_recall > 0.9


def test_cli_db_keeps_messages_scores_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    db = tmp_path / "bench.db"
    assert main(["bench", "policies", "--turns", "400", "--budget", "40", "--db", str(db), "--json"]) == 0
    capsys.readouterr()
    con = sqlite3.connect(db)
    counts = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for t in ("messages", "postings", "scores", "retrieval_counts")}
    assert counts["messages"] == 400 and all(counts.values())


def test_session_messages_from_a_loaded_session(tmp_path: Path) -> None:
    from ctxscope.core.logformat import SessionLogWriter
    from ctxscope.core.model import text_block
    from ctxscope.core.policies import run_policies, session_messages
    from ctxscope.core.reader import open_log

    path = tmp_path / "s.jsonl"
    with SessionLogWriter.create(path) as writer:
        writer.session(session_id="s1")
        writer.message("user", [text_block("I keep a vegetarian diet.")])
        writer.message("user", [text_block("Switching to vegan from now on, no more vegetarian.")])
    messages = session_messages(open_log(path))
    picks = run_policies(messages, "Order lunch for me", Budget(10))
    assert picks["focus"].turns == (2,)
