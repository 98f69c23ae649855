#!/usr/bin/env python3
"""Reader benchmark: parse + estimate throughput against a bare ``orjson.loads`` loop, and peak RSS.

For each log it measures, in fresh subprocesses:

* **ceiling** — a bare loop of ``orjson.loads`` over the same lines (one call for a whole-document
  log), in the same process as the next measurement;
* **parse + estimate** — :func:`ctxscope.core.reader.open_log` (detect, decode, adapt, elide long
  text after counting it; sibling sub-agent logs left out so both read the same lines) followed by
  the estimate of every stored message and the estimate-vs-reported check of every call
  (:func:`ctxscope.core.usage_check.check_usage`);
* **peak RSS** — ``ru_maxrss`` of a process that only does parse + estimate, next to the RSS of a
  process that only imports ``ctxscope.core`` (the interpreter's own share).

Timings are the best of ``--repeat`` runs (default 3). The target is parse + estimate within 3×
of the ceiling. Logs: the largest real log in ``../shared/real-logs`` (and the largest JSONL
one), and synthetic Claude Code transcripts generated into /tmp (200 MB by default; never
committed):

* ``realistic`` — shaped like the real Claude Code 2.x logs: about 1.9 KB a line, two thirds of
  the lines progress records, tool results (with their ``toolUseResult`` copy) three fifths of
  the bytes, about 0.3 bytes of model-visible text per byte (the real logs: 0.19-0.63);
* ``dense`` — the first synthetic log, kept for comparison: 1 KB a line, every call a thinking,
  a text and a tool-use line, small results without ``toolUseResult``, half the text Russian or
  Chinese. Twice as dense in events as any real log, and far heavier in text to estimate.

::

    python bench/bench_reader.py                       # real logs + both 200 MB synthetic logs
    python bench/bench_reader.py --synthetic-style realistic --synthetic-mb 50
    python bench/bench_reader.py --mix                 # also bytes/line and event mix per log
    python bench/bench_reader.py --log some.jsonl      # one log of your own
    python bench/bench_reader.py --json                # machine-readable
    python bench/bench_reader.py --cli-collector       # with the console script's GC setting
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CTXSCOPE_SHARED", ROOT.parent / "shared"))
SYNTHETIC = Path("/tmp/ctxscope-bench-synthetic.jsonl")


# -- the measurements (run in a child process) -------------------------------------------------------


def _peak_rss_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1 << 20)


def installed_bytecode() -> None:
    """Compile ctxscope's modules to bytecode, as installing it does, before timing whole processes.

    An editable install run with ``PYTHONDONTWRITEBYTECODE`` set (as on this machine) compiles
    every ctxscope module from source at each start, which an installed ctxscope never does.
    """
    import compileall

    import ctxscope.core
    import ctxscope.tui

    for package in (ctxscope.core, ctxscope.tui):
        for folder in package.__path__:
            compileall.compile_dir(folder, quiet=1)


def ctxscope_command() -> str:
    """The ``ctxscope`` console script beside this Python (or on the PATH)."""
    found = Path(sys.executable).with_name("ctxscope")
    return str(found) if found.exists() else shutil.which("ctxscope") or "ctxscope"


def report_process(path: Path) -> tuple[float, float]:
    """(seconds, CPU seconds) of a whole ``ctxscope report --json`` process on ``path``; CPU is
    user + system of the process and of the children it waited for."""
    started = time.perf_counter()
    child = subprocess.Popen([ctxscope_command(), "report", "--json", str(path)], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"ctxscope report failed on {path} (status {status})")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def each_synthetic(sizes: list[int], prefix: str) -> Iterator[Path]:
    """A :func:`synthesize` log of each size in MB, in turn, in a temporary folder (each deleted
    once the next is asked for, the folder at the end)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        for size in sizes:
            path = synthesize(Path(folder) / f"synthetic-{size}mb.jsonl", size)
            yield path
            path.unlink()


def cpu_ceiling(path: str) -> tuple[float, float]:
    """(seconds, CPU seconds) of :func:`_ceiling`."""
    cpu = time.process_time()
    seconds = _ceiling(path)
    return seconds, time.process_time() - cpu


def _ceiling(path: str) -> float:
    """Seconds for a bare orjson.loads loop over the file's lines (or the whole document)."""
    started = time.perf_counter()
    with open(path, "rb") as handle:
        head = handle.read(1 << 16).lstrip()
        handle.seek(0)
        if head[:1] == b"[" or head.split(b"\n", 1)[0].strip() == b"{":
            orjson.loads(handle.read())
        else:
            loads = orjson.loads
            with contextlib.suppress(orjson.JSONDecodeError):
                for line in handle:
                    loads(line)
    return time.perf_counter() - started


def _parse_and_estimate(path: str) -> dict[str, Any]:
    from ctxscope.core.reader import open_log
    from ctxscope.core.usage_check import check_usage

    started = time.perf_counter()
    session = open_log(path, siblings=False)  # the same lines as the ceiling loop
    parsed = time.perf_counter()
    tokens = sum(m.tokens() for s in session.scopes.values() for m in s.messages)
    check = check_usage(session)
    done = time.perf_counter()
    return {
        "format": session.format,
        "scopes": len(session.scopes),
        "messages": sum(len(s.messages) for s in session.scopes.values()),
        "calls": sum(len(s.requests) for s in session.scopes.values()),
        "lines": session.lines_read,
        "tokens": tokens,
        "calibrated_median": check.calibrated.median if check.calibrated else None,
        "parse_s": parsed - started,
        "estimate_s": done - parsed,
        "total_s": done - started,
    }


def child(mode: str, path: str, cli_collector: bool = False) -> dict[str, Any]:
    if cli_collector:
        from ctxscope.tui.cli import tune_collector

        tune_collector()  # what the ctxscope console script does before any command
    if mode == "imports":
        import ctxscope.core.reader

        return {"rss_mb": _peak_rss_mb(), "module": ctxscope.core.reader.__name__}
    if mode == "throughput":
        import ctxscope.core.reader

        ceiling = _ceiling(path)
        result = _parse_and_estimate(path)
        return {"ceiling_s": ceiling, **result}
    if mode == "memory":
        result = _parse_and_estimate(path)
        return {"rss_mb": _peak_rss_mb(), **result}
    raise SystemExit(f"unknown mode {mode}")


def run_child(mode: str, path: str, cli_collector: bool = False) -> dict[str, Any]:
    flag = ["--cli-collector"] if cli_collector else []
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, path, *flag], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# -- the synthetic logs ------------------------------------------------------------------------------


_WORD_TEXT = (
    "the context window session agent token compaction summary budget request model tool result file "
    "read write edit search config value error warning test pass fail build deploy user assistant"
)
WORDS = _WORD_TEXT.split()
CODE = [
    "def handle(request, *, timeout=30):",
    "    return {'status': 200, 'items': [item.to_dict() for item in items]}",
    "for (let i = 0; i < rows.length; i++) { total += rows[i].amount; }",
    "SELECT id, name, created_at FROM sessions WHERE budget > 400000 ORDER BY id;",
    '{"id": 12345, "name": "report", "values": [0.125, 3.5, 42.0, -7.25], "ok": true}',
    "  -rw-r--r--  1 user staff  10240 Nov 17 15:30 rollout-2025-11-17.jsonl",
    "Привет, это строка на русском языке для проверки оценки токенов.",
    "这是用于测试分词器估计的中文句子。コンテキストウィンドウの確認。",
]


def _corpus(rng: random.Random, size: int = 1 << 20) -> str:
    parts: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.5:
            piece = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 30))) + ".\n"
        else:
            piece = "\n".join(rng.choice(CODE) for _ in range(rng.randint(1, 8))) + "\n"
        parts.append(piece)
        total += len(piece)
    return "".join(parts)


def synthesize_dense(path: Path, megabytes: int, seed: int = 7) -> Path:
    """The first synthetic transcript (kept for comparison): every call a thinking, a text and a
    tool-use line, one hook line, small tool results without ``toolUseResult``, and text half in
    Russian or Chinese lines. About 1 KB a line: twice as dense in events as the real Claude Code
    logs, with far more text to estimate per byte."""
    rng = random.Random(seed)
    corpus = _corpus(rng)
    target = megabytes << 20
    session = "00000000-bench-0000-0000-000000000000"
    written = 0
    calls = 0
    context = 20_000

    def text(lo: int, hi: int) -> str:
        size = min(int(rng.paretovariate(1.2) * lo), hi)
        start = rng.randrange(0, len(corpus) - size - 1)
        return corpus[start : start + size]

    def env(kind: str, **fields: Any) -> bytes:
        record = {
            "parentUuid": None,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/w",
            "sessionId": session,
            "version": "2.1.39",
            "type": kind,
            "uuid": f"u{written}",
            "timestamp": "2026-02-12T16:02:29.111Z",
            **fields,
        }
        return orjson.dumps(record) + b"\n"

    with open(path, "wb") as out:
        while written < target:
            lines = [env("user", message={"role": "user", "content": text(100, 2000)})]
            for _ in range(rng.randint(2, 12)):
                calls += 1
                msg_id = f"msg_{calls:08d}"
                usage = {
                    "input_tokens": 3,
                    "cache_creation_input_tokens": 500,
                    "cache_read_input_tokens": context,
                    "output_tokens": 1,
                }
                call_id = f"toolu_{calls:08d}"
                blocks = [
                    {"type": "thinking", "thinking": text(200, 4000), "signature": "sig"},
                    {"type": "text", "text": text(50, 1000)},
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": rng.choice(["Read", "Bash", "Grep", "Edit"]),
                        "input": {"command": text(20, 300)},
                    },
                ]
                for block in blocks:
                    message = {
                        "model": "claude-opus-4-6",
                        "id": msg_id,
                        "type": "message",
                        "role": "assistant",
                        "content": [block],
                        "stop_reason": None,
                        "usage": usage,
                    }
                    lines.append(env("assistant", message=message, requestId=f"req_{calls:08d}"))
                result = text(300, 200_000)
                lines.append(
                    env(
                        "progress",
                        data={
                            "type": "hook_progress",
                            "hookEvent": "PostToolUse",
                            "command": "hook.sh " + text(50, 400),
                        },
                    )
                )
                lines.append(
                    env(
                        "user",
                        message={
                            "role": "user",
                            "content": [
                                {
                                    "type": "tool_result",
                                    "tool_use_id": call_id,
                                    "content": result,
                                    "is_error": False,
                                }
                            ],
                        },
                    )
                )
                context += len(result) // 3 + 400
                if calls % 400 == 0:
                    lines.append(
                        env(
                            "system",
                            subtype="compact_boundary",
                            content="Conversation compacted",
                            compactMetadata={"trigger": "auto", "preTokens": context},
                        )
                    )
                    summary = "This session is being continued from a previous conversation. " + text(
                        5000, 15000
                    )
                    lines.append(
                        env("user", message={"role": "user", "content": summary}, isCompactSummary=True)
                    )
                    context = 25_000
            data = b"".join(lines)
            out.write(data)
            written += len(data)
    return path


_PROSE = [
    "I'll look at the session reader first, then check how the transcript is rendered",
    "The test fails because the fixture expects the old field name; the fix is to read both",
    "Let me run the suite again to confirm nothing else depends on it",
    "Done — all 214 tests pass now",
    "Next I will update the documentation and the changelog, and open a pull request",
]
_CODE_LINES = [
    "defmodule SpotterWeb.SessionLive do",
    "  use Phoenix.LiveView",
    "  alias Spotter.Services.{ReviewSessionRegistry, TranscriptRenderer}",
    '  def mount(%{"session_id" => session_id}, _session, socket) do',
    "    {cols, rows} = pane_dimensions(pane_id)",
    "    if connected?(socket), do: Phoenix.PubSub.subscribe(Spotter.PubSub, topic)",
    "def handle(request, *, timeout=30):",
    "    return {'status': 200, 'items': [item.to_dict() for item in items]}",
    "for (let i = 0; i < rows.length; i++) { total += rows[i].amount; }",
    "SELECT id, name, created_at FROM sessions WHERE budget > 400000 ORDER BY id;",
    "  end",
    "",
]
_SHELL_LINES = [
    "==> Compiling 3 files (.ex)",
    "Finished in 2.4 seconds (0.9s async, 1.5s sync)",
    "214 tests, 0 failures",
    "  -rw-r--r--  1 user staff  10240 Nov 17 15:30 rollout-2025-11-17.jsonl",
    'warning: variable "state" is unused (if the variable is not meant to be used, prefix it)',
    "│ 983 │   {:ok, {type, _, _, _}} when type in '-_' ->",
    "✓ spotter-dov [EPIC] · Unified transcript rendering",
    "M lib/spotter_web/live/session_live.ex",
]
_FOREIGN = [
    "レビュー結果を確認しました。3つのブロッカーが報告されています。",
    "Привет, это строка на русском языке для проверки оценки токенов.",
]


def synthesize(path: Path, megabytes: int, seed: int = 7) -> Path:
    """A Claude Code 2.1 transcript of about ``megabytes`` MB shaped like the real ones in
    ``../shared/real-logs/claude-code``: per call a tool use (thinking on one in ten, text on six
    in ten), about six hook-progress lines and a bash-progress line, now and then an
    agent-progress line embedding a sub-agent message, and a tool result of heavy-tailed size
    (median about 1.5 KB, some 100 KB+) whose structured copy (``toolUseResult``) repeats it, as
    Claude Code writes it; Read results number their lines with ``→``; a little Japanese and
    Russian; turn bookkeeping lines; an auto-compaction every 150 calls. About 2 KB a line, two
    thirds of the lines progress (see ``--mix``)."""
    rng = random.Random(seed)
    target = megabytes << 20
    session = "00000000-bench-0000-0000-000000000000"
    base = {
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/USER/projects/spotter-worktrees/spotter-dov",
        "sessionId": session,
        "version": "2.1.39",
        "gitBranch": "spotter-dov",
        "slug": "radiant-floating-music",
    }
    written = 0
    calls = 0
    lines_out = 0
    context = 21_500
    parent = None

    def env(kind: str, **fields: Any) -> bytes:
        nonlocal lines_out, parent
        lines_out += 1
        uuid = f"{lines_out:08x}-0000-4000-8000-{seed:012x}"
        record = {"parentUuid": parent, **base, "type": kind, **fields}
        record["uuid"] = uuid
        record["timestamp"] = "2026-02-12T16:02:29.111Z"
        parent = uuid
        return orjson.dumps(record) + b"\n"

    def size(median: int, cap: int) -> int:
        return min(cap, int(median * rng.lognormvariate(0, 1.1)))

    def prose(chars: int) -> str:
        out: list[str] = []
        total = 0
        while total < chars:
            piece = rng.choice(_FOREIGN) if rng.random() < 0.03 else rng.choice(_PROSE) + ". "
            out.append(piece)
            total += len(piece)
        return "".join(out)

    def numbered(chars: int) -> str:
        out: list[str] = []
        total = 0
        number = rng.randint(1, 400)
        while total < chars:
            line = f"{number:6d}→{rng.choice(_CODE_LINES)}\n"
            out.append(line)
            total += len(line)
            number += 1
        return "".join(out)

    def shell(chars: int) -> str:
        out: list[str] = []
        total = 0
        while total < chars:
            line = rng.choice(_SHELL_LINES) + "\n"
            out.append(line)
            total += len(line)
        return "".join(out)

    def hook(event: str, tool_id: str) -> bytes:
        command = rng.choice(
            [
                "/home/USER/.claude/hooks/tmux-waiting.sh clear",
                "bd prime",
                "${CLAUDE_PLUGIN_ROOT}/hooks/check.sh",
            ]
        )
        data = {"type": "hook_progress", "hookEvent": event, "hookName": f"{event}:Bash", "command": command}
        return env("progress", data=data, parentToolUseID=tool_id, toolUseID=tool_id)

    def assistant(msg_id: str, request_id: str, block: dict[str, Any], usage: dict[str, Any]) -> bytes:
        message = {
            "model": "claude-opus-4-6",
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "content": [block],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        return env("assistant", message=message, requestId=request_id)

    with open(path, "wb") as out:
        while written < target:
            lines = [
                env("user", message={"role": "user", "content": prose(size(600, 6000))}),
                orjson.dumps(
                    {
                        "type": "file-history-snapshot",
                        "messageId": f"m{lines_out}",
                        "snapshot": {
                            "messageId": f"m{lines_out}",
                            "trackedFileBackups": {},
                            "timestamp": "t",
                        },
                        "isSnapshotUpdate": False,
                    }
                )
                + b"\n",
            ]
            for _ in range(rng.randint(3, 40)):
                calls += 1
                msg_id, request_id, tool_id = f"msg_{calls:024d}", f"req_{calls:024d}", f"toolu_{calls:024d}"
                usage = {
                    "input_tokens": 3,
                    "cache_creation_input_tokens": 800,
                    "cache_read_input_tokens": context,
                    "cache_creation": {"ephemeral_5m_input_tokens": 800, "ephemeral_1h_input_tokens": 0},
                    "output_tokens": 9,
                    "service_tier": "standard",
                    "inference_geo": "global",
                }
                if rng.random() < 0.1:
                    block = {"type": "thinking", "thinking": prose(size(900, 8000)), "signature": "EqkC" * 40}
                    lines.append(assistant(msg_id, request_id, block, usage))
                if rng.random() < 0.6:
                    lines.append(
                        assistant(msg_id, request_id, {"type": "text", "text": prose(size(250, 4000))}, usage)
                    )
                tool = rng.choice(["Read", "Read", "Bash", "Bash", "Grep", "Edit"])
                if tool == "Read":
                    tool_input: dict[str, Any] = {
                        "file_path": "/home/USER/projects/spotter/lib/spotter_web/live/session_live.ex"
                    }
                elif tool == "Edit":
                    tool_input = {
                        "file_path": "/home/USER/projects/spotter/lib/x.ex",
                        "old_string": numbered(200),
                        "new_string": numbered(260),
                    }
                else:
                    tool_input = {
                        "command": "mix test test/spotter/services/transcript_renderer_test.exs",
                        "description": "Run the renderer tests",
                    }
                use = {
                    "type": "tool_use",
                    "id": tool_id,
                    "name": tool,
                    "input": tool_input,
                    "caller": {"type": "direct"},
                }
                lines.append(assistant(msg_id, request_id, use, usage))
                lines.extend(hook("PreToolUse", tool_id) for _ in range(rng.randint(2, 4)))
                if tool in ("Bash", "Grep"):
                    output = shell(size(600, 3000))
                    lines.append(
                        env(
                            "progress",
                            data={
                                "type": "bash_progress",
                                "output": output[-300:],
                                "fullOutput": output,
                                "elapsedTimeSeconds": 3,
                                "totalLines": 40,
                            },
                            parentToolUseID=tool_id,
                            toolUseID="bash-progress-0",
                        )
                    )
                if rng.random() < 0.05:
                    embedded = {
                        "type": "user",
                        "message": {
                            "role": "user",
                            "content": [{"type": "text", "text": prose(size(2000, 8000))}],
                        },
                        "uuid": "x",
                        "timestamp": "t",
                    }
                    lines.append(
                        env(
                            "progress",
                            data={
                                "message": embedded,
                                "normalizedMessages": [],
                                "type": "agent_progress",
                                "prompt": "",
                                "agentId": "a2898e3",
                            },
                            parentToolUseID=tool_id,
                            toolUseID="agent_msg",
                        )
                    )
                content = (numbered if tool == "Read" else shell)(size(2500, 250_000))
                structured: Any = (
                    {
                        "type": "text",
                        "file": {
                            "filePath": tool_input.get("file_path", ""),
                            "content": content,
                            "numLines": content.count("\n"),
                            "startLine": 1,
                            "totalLines": 400,
                        },
                    }
                    if tool == "Read"
                    else {"stdout": content, "stderr": "", "interrupted": False, "isImage": False}
                )
                result = {
                    "tool_use_id": tool_id,
                    "type": "tool_result",
                    "content": content,
                    "is_error": False,
                }
                lines.append(
                    env(
                        "user",
                        message={"role": "user", "content": [result]},
                        toolUseResult=structured,
                        sourceToolAssistantUUID=parent,
                    )
                )
                lines.extend(hook("PostToolUse", tool_id) for _ in range(rng.randint(2, 4)))
                context += len(content) // 3 + 300
                if calls % 150 == 0:
                    lines.append(
                        env(
                            "system",
                            subtype="compact_boundary",
                            content="Conversation compacted",
                            compactMetadata={"trigger": "auto", "preTokens": context},
                            level="info",
                        )
                    )
                    summary = (
                        "This session is being continued from a previous conversation that ran out "
                        "of context. " + prose(size(12000, 16000))
                    )
                    lines.append(
                        env(
                            "user",
                            message={"role": "user", "content": summary},
                            isCompactSummary=True,
                            isVisibleInTranscriptOnly=True,
                        )
                    )
                    context = 36_000
            lines.append(
                env(
                    "system",
                    subtype="stop_hook_summary",
                    hookCount=2,
                    hookInfos=[{"command": "stop-hook.sh"}],
                    hookErrors=[],
                    preventedContinuation=False,
                    stopReason="",
                    hasOutput=True,
                    level="suggestion",
                )
            )
            lines.append(env("system", subtype="turn_duration", durationMs=341765, isMeta=False))
            data = b"".join(lines)
            out.write(data)
            written += len(data)
    return path


SYNTHETIC_STYLES = {"realistic": synthesize, "dense": synthesize_dense}


def event_mix(path: Path) -> dict[str, Any]:
    """Bytes per line and the share of lines and bytes of each record kind of a Claude Code log."""
    lines: dict[str, int] = {}
    sizes: dict[str, int] = {}
    total = count = 0
    with open(path, "rb") as handle:
        for raw in handle:
            count += 1
            total += len(raw)
            try:
                obj = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            kind = str(obj.get("type"))
            message = obj.get("message")
            if kind in ("user", "assistant") and isinstance(message, dict):
                content = message.get("content")
                first = content[0] if isinstance(content, list) and content else None
                kind += ":" + (str(first.get("type")) if isinstance(first, dict) else "text")
            elif kind == "progress" and isinstance(obj.get("data"), dict):
                kind += ":" + str(obj["data"].get("type"))
            lines[kind] = lines.get(kind, 0) + 1
            sizes[kind] = sizes.get(kind, 0) + len(raw)
    return {
        "log": path.name,
        "bytes_per_line": round(total / max(1, count)),
        "lines": count,
        "mix": {
            k: (round(100 * lines[k] / count, 1), round(100 * sizes[k] / total, 1))
            for k in sorted(lines, key=lambda k: -sizes[k])
        },
    }


# -- driver ------------------------------------------------------------------------------------------


def measure(path: Path, label: str, repeat: int = 3, cli_collector: bool = False) -> dict[str, Any]:
    size_mb = path.stat().st_size / (1 << 20)
    runs = [run_child("throughput", str(path), cli_collector) for _ in range(max(1, repeat))]
    speed = dict(runs[0])
    for key in ("ceiling_s", "parse_s", "estimate_s", "total_s"):
        speed[key] = min(r[key] for r in runs)  # best of N: the machine may be busy
    memory = run_child("memory", str(path), cli_collector)
    base = run_child("imports", str(path))
    return {
        "log": label,
        "path": str(path),
        "size_mb": round(size_mb, 1),
        "format": speed["format"],
        "lines": speed["lines"],
        "messages": speed["messages"],
        "calls": speed["calls"],
        "ceiling_mb_s": round(size_mb / speed["ceiling_s"], 1),
        "parse_mb_s": round(size_mb / speed["parse_s"], 1),
        "parse_estimate_mb_s": round(size_mb / speed["total_s"], 1),
        "times_ceiling": round(speed["total_s"] / speed["ceiling_s"], 2),
        "parse_times_ceiling": round(speed["parse_s"] / speed["ceiling_s"], 2),
        "peak_rss_mb": round(memory["rss_mb"], 1),
        "import_rss_mb": round(base["rss_mb"], 1),
        "calibrated_median": speed["calibrated_median"],
    }


def largest_real_logs() -> list[tuple[Path, str]]:
    folder = SHARED / "real-logs"
    if not folder.is_dir():
        return []
    files = [p for p in folder.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json", ".traj")]
    if not files:
        return []
    largest = max(files, key=lambda p: p.stat().st_size)
    picks = [(largest, f"largest real log ({largest.name})")]
    jsonl = [p for p in files if p.suffix == ".jsonl"]
    if jsonl and (biggest_lines := max(jsonl, key=lambda p: p.stat().st_size)) != largest:
        picks.append((biggest_lines, f"largest real JSONL log ({biggest_lines.name})"))
    return picks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synthetic-mb", type=int, default=200, help="0 skips the synthetic log")
    parser.add_argument(
        "--synthetic-style",
        choices=[*SYNTHETIC_STYLES, "both"],
        default="both",
        help="realistic: shaped like the real Claude Code logs; dense: the first, event-dense one",
    )
    parser.add_argument("--synthetic-path", type=Path, default=SYNTHETIC)
    parser.add_argument("--mix", action="store_true", help="also print bytes per line and event mix")
    parser.add_argument("--keep", action="store_true", help="keep the synthetic log afterwards")
    parser.add_argument("--log", type=Path, action="append", default=[], help="also measure this log")
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per log (best is kept)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--cli-collector", action="store_true",
        help="measure with the ctxscope console script's collector setting (ctxscope.tui.cli.tune_collector)",
    )
    parser.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child, cli_collector=args.cli_collector)))
        return 0

    logs = largest_real_logs() + [(p, p.name) for p in args.log]
    styles = list(SYNTHETIC_STYLES) if args.synthetic_style == "both" else [args.synthetic_style]
    made: list[Path] = []
    if args.synthetic_mb:
        for style in styles:
            started = time.perf_counter()
            target = args.synthetic_path.with_name(f"{args.synthetic_path.stem}-{style}.jsonl")
            made.append(SYNTHETIC_STYLES[style](target, args.synthetic_mb))
            print(
                f"generated {target} ({target.stat().st_size >> 20} MB) "
                f"in {time.perf_counter() - started:.1f} s",
                file=sys.stderr,
            )
            logs.append((target, f"synthetic Claude Code transcript, {style} ({args.synthetic_mb} MB)"))
    try:
        if args.mix:
            real = sorted((SHARED / "real-logs" / "claude-code").rglob("*.jsonl"))
            mixes = [event_mix(path) for path in [*real, *made]]
        results = [measure(path, label, args.repeat, args.cli_collector) for path, label in logs]
    finally:
        if not args.keep:
            for path in made:
                path.unlink(missing_ok=True)
    if args.mix and not args.json:
        print("| Claude Code log | bytes/line | lines | top kinds: % lines / % bytes |")
        print("|---|---:|---:|---|")
        for m in mixes:
            top = ", ".join(f"{k} {a}/{b}" for k, (a, b) in list(m["mix"].items())[:6])
            print(f"| {m['log']} | {m['bytes_per_line']:,} | {m['lines']:,} | {top} |")
        print()
    if args.json:
        print(json.dumps({"results": results, "mix": mixes} if args.mix else results, indent=2))
        return 0
    print(
        "| log | MB | format | lines | ceiling MB/s | parse MB/s | parse+estimate MB/s | × ceiling "
        "| peak RSS MB (imports only) |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['log']} | {r['size_mb']} | {r['format']} | {r['lines']:,} | {r['ceiling_mb_s']} "
            f"| {r['parse_mb_s']} | {r['parse_estimate_mb_s']} | {r['times_ceiling']} "
            f"| {r['peak_rss_mb']} ({r['import_rss_mb']}) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
