#!/usr/bin/env python3
"""Fit the ``claude`` and ``openai`` token-estimation profiles and measure them held out.

Input: the corpus of ``bench/token_corpus.py`` (``$TMPDIR/ctxscope-token-corpus/corpus.jsonl``:
texts of many kinds and languages with their true counts, and 4 KB windows of them). Features are
:func:`ctxscope.core.tokens.features`, the very counts the runtime multiplies by its rates.

Each profile is one linear programme: minimise, over the rates, a piecewise-linear loss of every
text's ``estimate / truth``: a quantile (pinball) loss at level ``--tau`` around ``--target`` (an
estimate below the target costs ``tau / (1 - tau)`` times more than one above it) plus a steep
extra cost (``--floor-weight``) below ``--floor``. Texts are weighted so that every group
(prose, code, structured data, tool output) weighs the same and, within a group, every kind of
text. Rates stay in their table bytes, pairs within ``--pair-ceiling`` and ASCII characters
within ``--ascii-ceiling`` (a regularisation the held-out tables pay for); a rate seen in too few
languages or sources gets a conservative default (a lead byte: one token per UTF-8 byte of its
character, net of the continuation pairs fitted on other scripts). The defaults are the shipped
fit's parameters.

``cv`` (the headline): k-fold cross-validation where a fold is a set of *units* (a language for
prose in a language -- all its UDHR, gettext and man-page texts together -- or a source: a package,
a repository, a Rosetta program), so nothing of a held-out language or source is in its fit;
every text is held out exactly once, and its windows with it. ``fit --write`` fits on everything
and writes ``core/_token_profiles.py``. ``--kinds`` and ``--words`` measure features the runtime
does not have (:mod:`token_kinds`, :mod:`token_words`); with ``--words`` every common word is
held at a token or more (``WORD_FLOOR``), constraints added until the rounded rates keep it.

    .venv/bin/python bench/fit_tokens.py cv                 # held-out tables (5 folds)
    .venv/bin/python bench/fit_tokens.py fit --write        # in-sample fit -> core/_token_profiles.py
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
from ctxscope.core.tokens import PREV_KINDS, SCRIPT_CLASSES, SELF_KINDS, UNIT
from scipy import sparse
from scipy.optimize import linprog
from token_kinds import KINDS_CHOICES, SHIPPED_KINDS, kinds_named
from token_words import WORDS_CHOICES, Words, words_named

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("TMPDIR", "/tmp")) / "ctxscope-token-corpus" / "corpus.jsonl"
TARGETS = ("claude", "openai")
GROUPS = ("prose", "code", "structured", "tool_output")
DESCRIPTIONS = {
    "claude": "fitted to the current Claude tokenizer (Opus 4.7 and later), with a safety margin",
    "openai": "fitted to OpenAI's o200k_base encoding, with a safety margin",
}

Row = dict[str, Any]

KINDS = SHIPPED_KINDS
"""The byte kinds of the pair features (``--kinds``; :mod:`token_kinds`)."""


WORDS: Words | None = None
"""The common words of the word features (``--words``; :mod:`token_words`), or none."""


def use_kinds(name: str) -> None:
    global KINDS
    KINDS = kinds_named(name)


def use_words(name: str, count: int) -> None:
    global WORDS
    WORDS = words_named(name, count)


def features(text: str) -> dict[str, int]:
    """The pair, byte and script counts of ``KINDS``, and the word counts of ``WORDS``."""
    counts = KINDS.features(text)
    if WORDS is not None:
        counts.update(WORDS.counts(text))
    return counts


def load(path: Path) -> list[Row]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    for r in rows:
        r["features"] = features(r.pop("text"))
    return rows


def fold_of(unit: str, k: int, seed: int) -> int:
    return int(hashlib.sha256(f"{seed}:{unit}".encode()).hexdigest(), 16) % k


def all_names() -> list[str]:
    pairs = ["p" + s + p for s in KINDS.self_kinds for p in KINDS.prev_kinds]
    singles = [f"b{b:02x}" for b in range(256) if not 0x80 <= b < 0xC0]
    return pairs + singles + ["s" + c for c in SCRIPT_CLASSES] + list(WORDS.features if WORDS else ())


SCRIPT_DEFAULT = 192  # with its lead byte's rate, about 3 tokens a character (one per UTF-8 byte)
NEVER_FITTED = {"srare"}
# A byte never costs less than this (units): 1,000 "=" are 16 tokens in o200k, 64 for Claude.
MIN_BYTE_UNITS = {
    "claude": 5,
    "openai": 2,
}  # the catch-all of scripts with no class of their own: byte-level fallback
PAIR_FLOOR = -48  # no pair takes more than 3/4 token off

# A symbol of U+2000-2BFF costs at least this many units whatever precedes it (measured with ctok
# and o200k: 1,000 "→" are 1,000 tokens, "∑" 2,000, APL's "⍳" 3,000, while runs of "—" or "─" merge
# to 251 and 63): the Read tool's "→" comes after digits in every line, and without a floor the
# fit makes it nearly free there and so everywhere (0.22 tokens each in a run).
_FLOOR_O200K = {
    "gpunc": 16, "box": 16, "sym": 64, "arrow": 64, "math": 64, "tech": 64, "dingb": 64, "brai": 64,
}
# Claude's tokenizer has no merges for mathematical operators, technical/APL symbols and the
# U+2600-2BFF block (miscellaneous symbols, dingbats, Braille, supplemental arrows and maths): each
# is its three UTF-8 bytes (measured with ctok: every 3rd code point of U+2200-23FF and U+2600-2BFF
# in "- X done" lines costs at least 3 tokens, median 3-4; real checklists and status lines with
# 1,101 such characters, 3.15 tokens each), so there the floor is byte-level fallback.
SYMBOL_FLOOR = {
    "openai": _FLOOR_O200K,
    "claude": dict(_FLOOR_O200K, math=192, tech=192, dingb=192, brai=192),
}


# Claude's tokenizer spends up to one token per byte on a character beyond the BMP (measured with
# ctok: 100 rockets 301 tokens, after spaces 400; 100 smileys 201; 100 mathematical bold A 401):
# its lead byte is held to byte-level fallback (the UTF-8 cap bounds the rest).
ASTRAL_FLOOR = {"claude": 255, "openai": 0}


def bounds_of(name: str, target: str, args: argparse.Namespace) -> tuple[int, int]:
    """A rate's range. ``--pair-ceiling`` and ``--ascii-ceiling`` bound what a pair adds and what
    an ASCII character costs by itself: a byte-level BPE spends at most one token a byte, and the
    held-out tables say the tighter rates generalise better than the LP's free extremes (an
    ASCII letter at 4 tokens offset by negative pairs); low rates also keep ASCII sums fast."""
    if name.startswith("p"):
        return PAIR_FLOOR, args.pair_ceiling
    if name.startswith("c"):  # a common word, a letter of one: up to a token more or less
        return -UNIT, UNIT
    if name.startswith("bf"):
        return ASTRAL_FLOOR[target], 255
    if name.startswith("b") and int(name[1:], 16) < 0x80:
        return 0, args.ascii_ceiling
    return 0, 255


def default_units(name: str) -> int:
    """Rate of a feature no training text has: conservative (byte-level fallback for leads)."""
    if name.startswith("b"):
        byte = int(name[1:], 16)
        if byte < 0x80:
            return UNIT
        return min(255, UNIT * (2 if byte < 0xE0 else 3 if byte < 0xF0 else 4))
    if name.startswith("s"):  # a script barely in the training texts: byte-level fallback
        return SCRIPT_DEFAULT
    return 0


WORD_FLOOR = UNIT + 4  # a common word costs at least a token (o200k: one token with its space)
_PERIODS: list[dict[str, int]] = []


def word_periods() -> list[dict[str, int]]:
    """For every common word, the features one more repetition of a space and the word adds to a
    text (``features((" " + w) * 3) - features((" " + w) * 2)``: no start or end in it)."""
    if not _PERIODS and WORDS is not None:
        for word in sorted(WORDS.common):
            unit = " " + word.decode()
            three, two = features(unit * 3), features(unit * 2)
            _PERIODS.append({n: v - two.get(n, 0) for n, v in three.items() if v != two.get(n, 0)})
    return _PERIODS


def weights(rows: list[Row]) -> np.ndarray:
    kinds = collections.Counter((r["group"], r["kind"]) for r in rows)
    per_group = collections.Counter(r["group"] for r in rows)
    kinds_in_group = collections.Counter(g for g, _ in kinds)
    del per_group
    return np.array([1.0 / kinds_in_group[r["group"]] / kinds[(r["group"], r["kind"])] for r in rows])


def fit(rows: list[Row], target: str, args: argparse.Namespace) -> dict[str, int]:
    names = all_names()
    seen = collections.defaultdict(set)  # the units (languages, sources) each feature occurs in
    for r in rows:
        for n in r["features"]:
            seen[n].add(r["unit"])
    # A rate is fitted only where enough languages or sources show it; a pair seen in fewer than
    # --min-pair-units units keeps rate 0 (the byte rates carry it), anything else its default.
    free = [
        n
        for n in names
        if n not in NEVER_FITTED
        and not KINDS.edge(n)  # a text's estimate carries no constant for its start or end
        and (n[0] != "c" or target in args.words_for)  # word rates only where asked for
        and len(seen[n]) >= (args.min_pair_units if n[0] == "p" else args.min_count)
    ]
    fixed = {n: default_units(n) for n in names if n not in free}
    col = {n: j for j, n in enumerate(free)}
    m, k = len(rows), len(free)
    truth = np.array([max(1, r[target]) for r in rows], float)
    data, ri, ci = [], [], []
    shift = np.zeros(m)  # the fixed rates' part of each ratio
    for i, r in enumerate(rows):
        for n, v in r["features"].items():
            if n in col:
                ri.append(i)
                ci.append(col[n])
                data.append(v / truth[i] / UNIT)
            else:
                shift[i] += fixed.get(n, 0) * v / truth[i] / UNIT
    A = sparse.csr_matrix((data, (ri, ci)), shape=(m, k))
    w = weights(rows)
    w = w / w.sum() * m
    # variables: x (k), over (m), under (m), below-floor (m)
    eye = sparse.identity(m, format="csr")
    a_eq = sparse.hstack([A, -eye, eye, sparse.csr_matrix((m, m))], format="csr")
    b_eq = args.target - shift
    a_ub = sparse.hstack([-A, sparse.csr_matrix((m, m)), sparse.csr_matrix((m, m)), -eye], format="csr")
    b_ub = shift - args.floor
    c = np.concatenate([np.zeros(k), (1 - args.tau) * w, args.tau * w, args.floor_weight * w])
    bounds = [bounds_of(n, target, args) for n in free] + [(0, None)] * (3 * m)
    # No byte ever costs less than MIN_BYTE_UNITS, whatever comes before it: its pair rate plus its
    # byte rate (so no text estimates below zero, and a long run of one mark still costs something).
    cons_r, cons_c, cons_v, cons_rhs = [], [], [], []
    for b in [*range(0x80), *range(0xC0, 0x100)]:
        byte = f"b{b:02x}"
        for before in range(16):
            pair = "p" + KINDS.self_kinds[KINDS.self_of(b)] + KINDS.prev_kinds[before]
            if pair not in col:
                continue
            row = len(cons_rhs)
            cons_r.append(row)
            cons_c.append(col[pair])
            cons_v.append(-1.0)
            if byte in col:
                cons_r.append(row)
                cons_c.append(col[byte])
                cons_v.append(-1.0)
                cons_rhs.append(-float(MIN_BYTE_UNITS[target]))
            else:
                cons_rhs.append(float(fixed[byte] - MIN_BYTE_UNITS[target]))
    for cls, floor in SYMBOL_FLOOR[target].items():  # its lead byte 0xE2 after any kind, two continuations
        parts = [f"s{cls}", "be2", "pcx", "pcc"]
        for before in range(16):
            terms = [*parts, "ph" + KINDS.prev_kinds[before]]
            row = len(cons_rhs)
            rhs = -float(floor)
            for n in terms:
                if n in col:
                    cons_r.append(row)
                    cons_c.append(col[n])
                    cons_v.append(-1.0)
                else:
                    rhs += fixed.get(n, 0)
            cons_rhs.append(rhs)
    for before in "xc":  # a continuation byte follows a lead byte or a continuation byte
        pair = "pc" + before
        if pair in col:
            cons_r.append(len(cons_rhs))
            cons_c.append(col[pair])
            cons_v.append(-1.0)
            cons_rhs.append(0.0)
    # A common word costs at least WORD_FLOOR, whatever its rates take off (a long word made of
    # cheap letters could go below zero): the words whose rounded rates fall short are added as
    # constraints, or asked for their deficit more, and the programme solved again until none is.
    periods = word_periods() if target in args.words_for else []
    bound: dict[int, int] = {}  # word -> its row among the constraints
    while True:
        cons = sparse.csr_matrix((cons_v, (cons_r, cons_c)), shape=(len(cons_rhs), k + 3 * m))
        res = linprog(
            c,
            A_ub=sparse.vstack([a_ub, cons], format="csr"),
            b_ub=np.concatenate([b_ub, cons_rhs]),
            A_eq=a_eq,
            b_eq=b_eq,
            bounds=bounds,
            method="highs",
        )
        if res.status != 0:
            sys.exit(f"{target}: linear programme failed: {res.message}")
        rounded = {n: round(res.x[j]) for n, j in col.items()}
        short = {}
        for i, period in enumerate(periods):
            cost = sum((rounded[n] if n in col else fixed.get(n, 0)) * v for n, v in period.items())
            if cost < WORD_FLOOR:
                short[i] = WORD_FLOOR - cost
        if not short:
            break
        for i, deficit in short.items():
            if i in bound:
                cons_rhs[bound[i]] -= deficit
                continue
            bound[i] = row = len(cons_rhs)
            rhs = -float(WORD_FLOOR)
            for n, v in periods[i].items():
                if n in col:
                    cons_r.append(row)
                    cons_c.append(col[n])
                    cons_v.append(-float(v))
                else:
                    rhs += fixed.get(n, 0) * v
            cons_rhs.append(rhs)
    units = dict(fixed)
    for n, j in col.items():
        lo, hi = bounds_of(n, target, args)
        units[n] = int(min(hi, max(lo, round(res.x[j]))))
    for n in fixed:
        if n.startswith("b") and int(n[1:], 16) >= 0xC0:
            units[n] = fallback_lead(int(n[1:], 16), units)
    return units


def fallback_lead(lead: int, units: dict[str, int]) -> int:
    """Rate of a lead byte no training text showed enough of: its character costs one token per
    UTF-8 byte in all (byte-level fallback), whatever the continuation pairs fitted on other
    scripts take off (the prose of a script the fit never saw is not under-counted)."""
    size = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    after_lead, after_continuation = units.get("pcx", 0), units.get("pcc", 0)
    return int(min(255, max(0, UNIT * size - after_lead - (size - 2) * after_continuation)))


def estimate(r: Row, units: dict[str, int]) -> int:
    total = sum(units.get(n, 0) * v for n, v in r["features"].items())
    size = sum(v for n, v in r["features"].items() if n.startswith("p")) - 1  # pairs: bytes + 1
    return int(min(size, max(1, -(-total // UNIT))))


def summarise(pairs: list[tuple[float, Row]]) -> dict[str, Any]:
    ratios = [x for x, _ in pairs]
    return {
        "n": len(ratios),
        "pass": sum(x >= 0.95 for x in ratios) / len(ratios),
        "below_090": sum(x < 0.90 for x in ratios),
        "median": statistics.median(ratios),
        "p1": float(np.percentile(ratios, 1)),
        "p5": float(np.percentile(ratios, 5)),
        "min": min(ratios),
        "worst": sorted(((round(x, 3), r["id"][:60]) for x, r in pairs))[:3],
    }


def table(results: dict[str, list[tuple[float, Row]]], title: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    print(f"\n{title}")
    print(
        "| profile | group | texts | pass >= 0.95 | < 0.90 | p1 | median | min "
        "| 4 KB windows | pass | < 0.90 | p1 | median | min |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for target in TARGETS:
        for group in (*GROUPS, "all"):
            texts = [
                (x, r)
                for x, r in results[target]
                if (group == "all" or r["group"] == group) and r["window"] is None
            ]
            wins = [
                (x, r)
                for x, r in results[target]
                if (group == "all" or r["group"] == group) and r["window"] is not None
            ]
            s, sw = summarise(texts), summarise(wins)
            out[f"{target}/{group}"] = {"texts": s, "windows": sw}
            print(
                f"| {target} | {group} | {s['n']} | {s['pass']:.1%} | {s['below_090']} | {s['p1']:.2f} "
                f"| {s['median']:.2f} | {s['min']:.2f} | {sw['n']} | {sw['pass']:.1%} | {sw['below_090']} "
                f"| {sw['p1']:.2f} | {sw['median']:.2f} | {sw['min']:.2f} |"
            )
    for target in TARGETS:
        worst = sorted(results[target], key=lambda p: p[0])[:8]
        print(f"  {target} lowest: " + ", ".join(f"{r['id'][:40]}={x:.3f}" for x, r in worst))
        kinds = collections.defaultdict(list)
        for x, r in results[target]:
            if r["window"] is None:
                kinds[r["kind"]].append(x)
        print(
            f"  {target} kinds (min/median): "
            + " ".join(f"{k}={min(v):.2f}/{statistics.median(v):.2f}" for k, v in sorted(kinds.items()))
        )
    return out


def cv(args: argparse.Namespace) -> None:
    rows = load(Path(args.corpus))
    results: dict[str, list[tuple[float, Row]]] = {t: [] for t in TARGETS}
    for fold in range(args.folds):
        train = [r for r in rows if fold_of(r["unit"], args.folds, args.seed) != fold]
        test = [r for r in rows if fold_of(r["unit"], args.folds, args.seed) == fold]
        for target in TARGETS:
            units = fit(train, target, args)
            results[target] += [(estimate(r, units) / max(1, r[target]), r) for r in test]
        print(
            f"fold {fold + 1}/{args.folds}: {len(train)} rows fitted, {len(test)} held out", file=sys.stderr
        )
    out = table(results, f"held out ({args.folds} folds by language/source, seed {args.seed})")
    if args.json:
        out["rows"] = {
            t: [
                {
                    "id": r["id"],
                    "kind": r["kind"],
                    "group": r["group"],
                    "window": r["window"],
                    "ratio": round(x, 4),
                }
                for x, r in results[t]
            ]
            for t in TARGETS
        }
        Path(args.json).write_text(json.dumps(out, indent=1))


def write(args: argparse.Namespace) -> None:
    rows = load(Path(args.corpus))
    fitted = {}
    results = {}
    for target in TARGETS:
        units = fit(rows, target, args)
        fitted[target] = units
        results[target] = [(estimate(r, units) / max(1, r[target]), r) for r in rows]
    table(results, "IN-SAMPLE (fitted on every text; not a measure of generalisation)")
    if args.write:
        path = ROOT / "core" / "_token_profiles.py"
        path.write_text(render(fitted, args), encoding="utf-8")
        print(f"\nwrote {path}")


def _rows(values: list[int], per: int = 16, indent: int = 8) -> str:
    return "".join(
        " " * indent + ", ".join(f"{v:4d}" for v in values[i : i + per]) + ",\n"
        for i in range(0, len(values), per)
    )


def render(fitted: dict[str, dict[str, int]], args: argparse.Namespace) -> str:
    parts = [
        '"""Fitted token-estimation rates (generated by bench/fit_tokens.py; do not edit).\n\n'
        "Units of 1/64 token. ``pair``: 256 rates indexed by ``kind << 4 | prev kind`` (rows of 16 are\n"
        f"one kind of byte, ``{SELF_KINDS}``, columns the kind of the byte before,\n"
        f"``{PREV_KINDS}``; see ctxscope.core.tokens). ``byte``: 256 rates by byte value (ASCII\n"
        "characters and UTF-8 lead bytes). ``script``: rates of characters at U+0800 and above by\n"
        "fine class.\n\n"
        f"Fit: {CORPUS.name} of bench/token_corpus.py, tau={args.tau}, target={args.target}, "
        f"floor={args.floor}, floor_weight={args.floor_weight},\nmin_count={args.min_count}, "
        f"min_pair_units={args.min_pair_units}, pair_ceiling={args.pair_ceiling}, "
        f"ascii_ceiling={args.ascii_ceiling}.\n"
        '"""\n\nfrom typing import Final\n\n'
    ]
    tables: dict[str, list[str]] = {"PAIR_UNITS": [], "BYTE_UNITS": [], "SCRIPT_UNITS": []}
    for target, units in fitted.items():
        pair = [units.get("p" + pair_name(code), 0) for code in range(256)]
        byte = [units.get(f"b{b:02x}", 0) if not 0x80 <= b < 0xC0 else 0 for b in range(256)]
        script = {c: units.get("s" + c, 0) for c in SCRIPT_CLASSES}
        tables["PAIR_UNITS"].append(f'    "{target}": (\n{_rows(pair, indent=8)}    ),\n')
        tables["BYTE_UNITS"].append(f'    "{target}": (\n{_rows(byte, indent=8)}    ),\n')
        tables["SCRIPT_UNITS"].append(
            f'    "{target}": {{\n'
            + "".join(f'        "{c}": {u},\n' for c, u in script.items())
            + "    },\n"
        )
    for name, kind in (
        ("PAIR_UNITS", "tuple[int, ...]"),
        ("BYTE_UNITS", "tuple[int, ...]"),
        ("SCRIPT_UNITS", "dict[str, int]"),
    ):
        parts.append(f"{name}: Final[dict[str, {kind}]] = {{\n" + "".join(tables[name]) + "}\n\n")
    return "".join(parts).rstrip("\n") + "\n"


def pair_name(code: int) -> str:
    return SELF_KINDS[code >> 4] + PREV_KINDS[code & 15]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    for name, func in (("cv", cv), ("fit", write)):
        p = sub.add_parser(name)
        p.add_argument("--corpus", default=str(CORPUS))
        p.add_argument("--tau", type=float, default=0.98)
        p.add_argument("--target", type=float, default=1.1)
        p.add_argument("--floor", type=float, default=1.03)
        p.add_argument("--floor-weight", type=float, default=100.0)
        p.add_argument("--min-count", type=int, default=3, help="units a byte or script rate must be seen in")
        p.add_argument("--min-pair-units", type=int, default=5, help="units a pair rate must be seen in")
        p.add_argument("--folds", type=int, default=5)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--json", help="write the held-out table as JSON here")
        p.add_argument("--write", action="store_true", help="write core/_token_profiles.py")
        p.add_argument(
            "--kinds",
            choices=KINDS_CHOICES,
            default="shipped",
            help="byte kinds of the pair features: the runtime's, or an alternative to measure",
        )
        p.add_argument("--pair-ceiling", type=int, default=32, help="most a pair rate adds (units)")
        p.add_argument("--words", choices=WORDS_CHOICES, default="none", help="word features to measure")
        p.add_argument("--word-count", type=int, default=16384, help="common words, lowest rank first")
        p.add_argument("--words-for", nargs="*", choices=TARGETS, default=list(TARGETS), help="word-rated")
        p.add_argument("--ascii-ceiling", type=int, default=96, help="most an ASCII byte rate is (units)")
        p.set_defaults(func=func)
    args = parser.parse_args(argv)
    if args.write and args.kinds != "shipped":
        parser.error("--write needs --kinds shipped: the runtime computes only its own byte kinds")
    if args.write and args.words != "none":
        parser.error("--write needs --words none: the runtime has no word features")
    use_kinds(args.kinds)
    use_words(args.words, args.word_count)
    args.func(args)


if __name__ == "__main__":
    main()
