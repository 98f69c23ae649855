#!/usr/bin/env python3
"""Convert the "Sliding Windows Forget" harness's synthetic session into ctxscope's dataset format.

The seed document behind SPEC §4 published figures from its own prototype
(LLM-Context-Optimization-Engine): on a synthetic 10,000-turn session, importance-based selection
kept 90.7% of the current important facts within a 600-message budget; a sliding window kept
10.8%. To run ctxscope's policies on *that* data, side by side with those figures, export the
harness's session and convert it with this script into the two files ``ctxscope bench policies
--dataset SESSION --labels LABELS`` reads.

What this script knows, and what it does not
-------------------------------------------
The seed document says the harness keeps its benchmark in SQLite for reproducibility, stores and
indexes every message with a score and a retrieval count, and grades "current important facts",
stale facts and noise. It does **not** publish a schema, table or field names, or a file layout, and
the harness could not be downloaded where this script was written. So the script was written from
that description only (none of the harness's code is copied or was read) and it guesses:

* input: a SQLite database (a table of messages) or a JSON / JSONL export of message records;
* columns: turn (``turn``, ``turn_id``, ``idx``, ``position``, ``id``), role (``role``, ``speaker``,
  ``author``, ``sender``), text (``content``, ``text``, ``message``, ``body``), and the answer
  key as either one label column (``label``, ``kind``, ``category``, ``type``) or flag columns whose
  names contain ``critical`` / ``important``, ``stale`` / ``superseded`` / ``outdated``, and
  ``noise`` / ``distractor`` / ``chatter``.

Run with ``--dry-run`` first: it prints the mapping it chose. Every guess can be overridden
(``--table``, ``--turn``, ``--role``, ``--content``, ``--label``, ``--critical``, ``--stale``,
``--noise``, ``--label-map``). A flag marks the row's label at the end of the session; if the harness
records the turn that superseded a fact, pass it with ``--stale-from`` so that earlier checkpoints
see the fact as current. Rows with no flag set are ``other``.

Important: the harness derived its retrieval counts from its answer key. Such columns are never
copied: the session file holds only turn, role and content, and the labels file is read by
ctxscope's scorer alone.

Usage::

    python bench/convert_seed_harness.py HARNESS.db --out-session s.jsonl --out-labels l.jsonl \\
        [--query "What should the assistant know now?"] [--dry-run]
    ctxscope bench policies --dataset s.jsonl --labels l.jsonl --budget 600
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

TURN_NAMES = ("turn", "turn_id", "turn_index", "idx", "index", "position", "step", "id")
ROLE_NAMES = ("role", "speaker", "author", "sender")
CONTENT_NAMES = ("content", "text", "message", "body", "utterance")
LABEL_NAMES = ("label", "kind", "category", "type", "fact_type")
CRITICAL_HINTS = ("critical", "important", "current_fact", "key_fact")
STALE_HINTS = ("stale", "superseded", "outdated", "obsolete")
NOISE_HINTS = ("noise", "distractor", "chatter")
STALE_FROM_NAMES = ("stale_from", "superseded_at", "superseded_by", "invalidated_at")
LABEL_WORDS = {
    "critical": "critical", "important": "critical", "fact": "critical", "preference": "critical",
    "update": "critical", "stale": "stale", "superseded": "stale", "outdated": "stale",
    "noise": "noise", "distractor": "noise", "chatter": "noise", "filler": "noise",
}
ROLE_WORDS = {"human": "user", "ai": "assistant", "bot": "assistant", "model": "assistant"}


class ConvertError(Exception):
    """A one-line reason the input cannot be converted."""


def _records_from_sqlite(path: Path, table: str | None) -> tuple[str, list[dict[str, Any]]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    if not tables:
        raise ConvertError(f"{path.name}: no tables")
    if table is None:
        def fitness(name: str) -> int:
            cols = {c[1].lower() for c in db.execute(f'PRAGMA table_info("{name}")')}
            return (2 * bool(cols & set(CONTENT_NAMES)) + bool(cols & set(ROLE_NAMES))
                    + bool(cols & set(TURN_NAMES)) + ("message" in name.lower()))
        table = max(tables, key=fitness)
    if table not in tables:
        raise ConvertError(f"{path.name}: no table {table!r}; tables: {', '.join(tables)}")
    rows = [dict(r) for r in db.execute(f'SELECT * FROM "{table}"')]
    return table, rows


def _records_from_json(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ConvertError(f"{path.name}: expected a list of message records")
    return data


def _pick(columns: Iterable[str], names: Sequence[str], given: str | None, what: str) -> str | None:
    cols = list(columns)
    if given is not None:
        if given not in cols:
            raise ConvertError(f"no column {given!r} for {what}; columns: {', '.join(cols)}")
        return given
    lower = {c.lower(): c for c in cols}
    return next((lower[n] for n in names if n in lower), None)


def _hinted(columns: Iterable[str], hints: Sequence[str], given: str | None) -> str | None:
    if given is not None:
        return given
    return next((c for c in columns if any(h in c.lower() for h in hints)), None)


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "y", "t")
    return bool(value)


def convert(args: argparse.Namespace) -> dict[str, Any]:
    """Convert and write the two files; returns the mapping and counts (printed by --dry-run)."""
    source = Path(args.harness)
    if not source.exists():
        raise ConvertError(f"{source}: no such file")
    table = None
    if source.suffix.lower() in (".db", ".sqlite", ".sqlite3"):
        table, records = _records_from_sqlite(source, args.table)
    else:
        records = _records_from_json(source)
    if not records:
        raise ConvertError(f"{source.name}: no records")
    columns = list(records[0])
    turn_col = _pick(columns, TURN_NAMES, args.turn, "the turn")
    role_col = _pick(columns, ROLE_NAMES, args.role, "the role")
    content_col = _pick(columns, CONTENT_NAMES, args.content, "the text")
    if content_col is None:
        raise ConvertError(f"no text column found; columns: {', '.join(columns)} (use --content)")
    label_col = _pick(columns, LABEL_NAMES, args.label, "the label")
    critical_col = _hinted(columns, CRITICAL_HINTS, args.critical)
    stale_col = _hinted(columns, STALE_HINTS, args.stale)
    noise_col = _hinted(columns, NOISE_HINTS, args.noise)
    stale_from_col = _pick(columns, STALE_FROM_NAMES, args.stale_from, "the superseding turn")
    label_words = dict(LABEL_WORDS)
    for pair in args.label_map or []:
        raw, _, ours = pair.partition("=")
        if ours not in ("critical", "stale", "noise", "other"):
            raise ConvertError(f"--label-map {pair!r}: map to critical, stale, noise or other")
        label_words[raw.strip().lower()] = ours

    if turn_col is not None:
        records = sorted(records, key=lambda r: int(r[turn_col]))
    session: list[dict[str, Any]] = []
    labels: list[dict[str, Any]] = []
    seen: set[int] = set()
    for position, record in enumerate(records, 1):
        turn = int(record[turn_col]) if turn_col is not None else position
        if turn in seen:
            raise ConvertError(f"duplicate turn {turn}")
        seen.add(turn)
        role = str(record.get(role_col, "user")) if role_col else "user"
        role = ROLE_WORDS.get(role.lower(), role.lower())
        session.append({"turn": turn, "role": role, "content": str(record.get(content_col) or "")})
        label = "other"
        if critical_col and _truthy(record.get(critical_col)):
            label = "critical"
        if stale_col and _truthy(record.get(stale_col)):
            label = "stale"
        if noise_col and _truthy(record.get(noise_col)):
            label = "noise"
        if label == "other" and label_col and record.get(label_col) is not None:
            label = label_words.get(str(record[label_col]).strip().lower(), "other")
        row: dict[str, Any] = {"turn": turn, "label": label}
        if stale_from_col and record.get(stale_from_col) not in (None, ""):
            row = {"turn": turn, "label": "critical", "stale_from": int(record[stale_from_col])}
        labels.append(row)
    if args.query:
        labels.append({"turn": session[-1]["turn"] + 1, "query": args.query})

    mapping = {
        "source": str(source), "table": table, "turn": turn_col, "role": role_col, "content": content_col,
        "label": label_col, "critical": critical_col, "stale": stale_col, "noise": noise_col,
        "stale_from": stale_from_col, "messages": len(session),
        "labels": {k: sum(1 for r in labels if r.get("label") == k) for k in ("critical", "stale", "noise")},
        "ignored_columns": [c for c in columns if c not in {turn_col, role_col, content_col}],
    }
    if not args.dry_run:
        with open(args.out_session, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in session)
        with open(args.out_labels, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(r) + "\n" for r in labels)
    return mapping


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness", help="the harness's SQLite database or JSON/JSONL export")
    parser.add_argument("--out-session", default="seed_session.jsonl")
    parser.add_argument("--out-labels", default="seed_labels.jsonl")
    parser.add_argument("--table", help="SQLite table holding the messages")
    parser.add_argument("--turn", help="turn column")
    parser.add_argument("--role", help="role column")
    parser.add_argument("--content", help="text column")
    parser.add_argument("--label", help="label column (values mapped with --label-map)")
    parser.add_argument("--critical", help="flag column: a current important fact")
    parser.add_argument("--stale", help="flag column: stale / superseded")
    parser.add_argument("--noise", help="flag column: noise / distractor")
    parser.add_argument("--stale-from", help="column with the turn that superseded the fact")
    parser.add_argument("--label-map", action="append", metavar="VALUE=LABEL", help="map a label value")
    parser.add_argument("--query", help="checkpoint query asked after the last turn")
    parser.add_argument("--dry-run", action="store_true", help="print the mapping, write nothing")
    args = parser.parse_args(argv)
    try:
        mapping = convert(args)
    except (ConvertError, sqlite3.Error, OSError, ValueError, KeyError) as exc:
        print(f"convert_seed_harness: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(mapping, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
