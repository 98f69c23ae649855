#!/usr/bin/env python3
"""Convert LoCoMo (long two-person conversations with question evidence) into SESSION + LABELS files.

LoCoMo ("Evaluating Very Long-Term Conversational Memory of LLM Agents", Maharana et al., ACL 2024)
is ten conversations of 19-32 sessions between two people, with question-answer annotations that
name the dialogue turns holding each answer (``evidence``). It is published by snap-research at
https://github.com/snap-research/LoCoMo under CC BY-NC 4.0, so it is *not* copied into this
repository: download ``data/locomo10.json`` yourself (checked here: commit 3eb6f2c, sha256
``79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4``) and convert it:

    python bench/convert_locomo.py locomo10.json --out DIR            # every conversation
    python bench/convert_locomo.py locomo10.json --out DIR --part heldout
    ctxscope bench policies --dataset DIR/conv-44.session.jsonl --labels DIR/conv-44.labels.jsonl

Mapping (the policies see only the session file):

* every dialogue turn becomes one message, in session order: role ``user`` for *both* people (the
  two speakers of a chat are peers; neither is an assistant), ``speaker`` their name, content the
  text, plus ``[shares a photo: CAPTION]`` when the turn shared an image (the caption is the
  dataset's own). Session dates are not included;
* LABELS: every turn that is the evidence of some question is ``critical``; nothing is stale or
  noise (LoCoMo labels neither, so those measures print "–"); one checkpoint per question, asked
  after the last turn, its ``needs`` the question's evidence turns. Questions without evidence are
  skipped; a question asked twice has its evidence merged. The answers are never written.

Parts: ``dev`` is conv-26, conv-30, conv-41, conv-42, conv-43 (what the recommended policy was
looked at and adjusted on); ``heldout`` is conv-44, conv-47, conv-48, conv-49, conv-50 (run only to
report; see docs/policies.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any, Final

PARTS: Final = {
    "dev": ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43"),
    "heldout": ("conv-44", "conv-47", "conv-48", "conv-49", "conv-50"),
}
"""The split by conversation: tune on ``dev``, report on ``heldout``."""

SHA256: Final = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
"""sha256 of the ``data/locomo10.json`` the figures in docs/policies.md were measured on."""

_DIA_ID: Final = re.compile(r"D\d+:\d+")
_SESSION_KEY: Final = re.compile(r"session_(\d+)$")


def convert(sample: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One LoCoMo sample as (session rows, label rows) in the ``--dataset`` format.

    Args:
        sample: One element of ``locomo10.json``.

    Returns:
        The session's JSONL rows and the labels' JSONL rows.
    """
    conversation = sample["conversation"]
    sessions = sorted(
        (int(m.group(1)), key) for key in conversation if (m := _SESSION_KEY.match(key))
    )
    rows: list[dict[str, Any]] = []
    turn_of: dict[str, int] = {}
    for _number, key in sessions:
        for dialogue in conversation[key]:
            text = str(dialogue.get("text", ""))
            caption = dialogue.get("blip_caption")
            if caption:
                text = f"{text} [shares a photo: {caption}]"
            turn = len(rows) + 1
            rows.append({"turn": turn, "role": "user", "speaker": str(dialogue["speaker"]), "content": text})
            turn_of[str(dialogue["dia_id"])] = turn
    end = len(rows) + 1
    needs_by_question: dict[str, list[int]] = {}
    for qa in sample.get("qa", []):
        ids = [d for item in qa.get("evidence", []) for d in _DIA_ID.findall(str(item))]
        evidence = [turn_of[d] for d in ids if d in turn_of]
        question = str(qa.get("question", "")).strip()
        if evidence and question:
            merged = needs_by_question.setdefault(question, [])
            merged.extend(t for t in evidence if t not in merged)
    critical = sorted({t for needs in needs_by_question.values() for t in needs})
    labels: list[dict[str, Any]] = [{"turn": t, "label": "critical", "kind": "evidence"} for t in critical]
    labels += [{"turn": end, "query": q, "needs": sorted(n)} for q, n in needs_by_question.items()]
    return rows, labels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path, help="LoCoMo's data/locomo10.json")
    parser.add_argument("--out", type=Path, required=True, help="directory for the converted files")
    parser.add_argument("--part", choices=("all", *PARTS), default="all")
    args = parser.parse_args(argv)
    raw = args.locomo.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != SHA256:
        print(f"note: sha256 {digest} differs from the version measured in docs/policies.md", file=sys.stderr)
    wanted = set(PARTS[args.part]) if args.part != "all" else None
    args.out.mkdir(parents=True, exist_ok=True)
    for sample in json.loads(raw):
        name = str(sample["sample_id"])
        if wanted is not None and name not in wanted:
            continue
        rows, labels = convert(sample)
        for suffix, items in (("session", rows), ("labels", labels)):
            path = args.out / f"{name}.{suffix}.jsonl"
            path.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))
        print(f"{name}: {len(rows)} turns, {sum(1 for x in labels if 'query' in x)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
