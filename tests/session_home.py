"""Generated agent homes for the session-list tests and screenshots: small Claude Code and Codex
logs with known figures (no real log text)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

import orjson

_ids = itertools.count(1)


def claude_line(kind: str, session: str, cwd: str, stamp: str, **extra: Any) -> bytes:
    record = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": cwd,
        "sessionId": session,
        "version": "2.1.39",
        "type": kind,
        "uuid": f"u{next(_ids)}",
        "timestamp": stamp,
        **extra,
    }
    return orjson.dumps(record) + b"\n"


def claude_call(
    session: str, cwd: str, number: int, prompt: int, *, model: str = "claude-opus-4-6", pieces: int = 1
) -> list[bytes]:
    """One call written as Claude Code writes it: ``pieces`` lines with the same ids and usage,
    then the tool result. Its prompt is ``prompt`` tokens: 10 uncached, 100 written, the rest read."""
    stamp = f"2026-02-12T16:{number // 60 % 60:02d}:{number % 60:02d}.000Z"
    usage = {
        "input_tokens": 10,
        "cache_creation_input_tokens": 100,
        "cache_read_input_tokens": prompt - 110,
        "output_tokens": 50,
    }
    lines = []
    for piece in range(pieces):
        message = {
            "model": model,
            "id": f"msg_{session}_{number}",
            "type": "message",
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": f"t{number}_{piece}", "name": "Bash", "input": {"n": piece}}
            ],
            "usage": usage,
        }
        lines.append(
            claude_line(
                "assistant", session, cwd, stamp, message=message, requestId=f"req_{session}_{number}"
            )
        )
    results = [
        {"type": "tool_result", "tool_use_id": f"t{number}_{piece}", "content": "ok"}
        for piece in range(pieces)
    ]
    lines.append(claude_line("user", session, cwd, stamp, message={"role": "user", "content": results}))
    return lines


def claude_compaction(session: str, cwd: str, before: int) -> list[bytes]:
    stamp = "2026-02-12T17:00:00.000Z"
    return [
        claude_line(
            "system", session, cwd, stamp, subtype="compact_boundary", content="Conversation compacted",
            compactMetadata={"trigger": "auto", "preTokens": before},
        ),
        claude_line(
            "user", session, cwd, stamp, isCompactSummary=True,
            message={"role": "user", "content": "This session is being continued from a previous chat."},
        ),
    ]


def claude_session(
    folder: Path,
    session: str,
    prompts: list[int],
    *,
    cwd: str = "/home/dev/project",
    model: str = "claude-opus-4-6",
    compact_after: int | None = None,
    subagents: int = 0,
    mtime: float | None = None,
) -> Path:
    """A Claude Code session file ``<folder>/<session>.jsonl`` making one call per prompt size;
    after call ``compact_after`` (1-based) the agent compacts."""
    folder.mkdir(parents=True, exist_ok=True)
    start = "2026-02-12T16:00:00.000Z"
    lines = [claude_line("user", session, cwd, start, message={"role": "user", "content": "go"})]
    for number, prompt in enumerate(prompts, 1):
        lines += claude_call(session, cwd, number, prompt, model=model, pieces=2)
        if compact_after == number:
            lines += claude_compaction(session, cwd, prompt)
    path = folder / f"{session}.jsonl"
    path.write_bytes(b"".join(lines))
    for index in range(subagents):
        sub = folder / session / "subagents" / f"agent-a{index}.jsonl"
        sub.parent.mkdir(parents=True, exist_ok=True)
        sub_lines = [claude_line("user", session, cwd, "2026-02-12T16:00:01.000Z",
                                 message={"role": "user", "content": "sub task"}, isSidechain=True)]
        sub_lines += claude_call(f"{session}-a{index}", cwd, 1, 5_000, model=model)
        sub.write_bytes(b"".join(sub_lines))
        if mtime is not None:
            os.utime(sub, (mtime, mtime))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def codex_line(kind: str, payload: dict[str, Any], stamp: str = "2025-09-25T01:22:25.361Z") -> bytes:
    return orjson.dumps({"timestamp": stamp, "type": kind, "payload": payload}) + b"\n"


def codex_session(path: Path, prompts: list[int], *, cwd: str = "/srv/app", model: str = "gpt-5-codex",
                  mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        codex_line("session_meta", {"id": path.stem, "cwd": cwd, "originator": "codex_cli_rs"},
                   "2025-09-25T01:22:20.000Z"),
        codex_line("turn_context", {"cwd": cwd, "model": model}),
    ]
    total = 0
    for prompt in prompts:
        total += prompt + 10
        usage = {"input_tokens": prompt, "cached_input_tokens": prompt // 2, "output_tokens": 10,
                 "reasoning_output_tokens": 0, "total_tokens": prompt + 10}
        info = {"total_token_usage": {**usage, "total_tokens": total}, "last_token_usage": usage,
                "model_context_window": 272_000}
        lines.append(codex_line("event_msg", {"type": "token_count", "info": info, "rate_limits": {}}))
    path.write_bytes(b"".join(lines))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def make_home(root: Path, now: float) -> dict[str, str]:
    """A small home with both agents: three Claude Code sessions in two projects (one with two
    sub-agents and a compaction) and two Codex rollouts. Returns the environment pointing at it."""
    claude = root / "claude" / "projects"
    claude_session(claude / "-home-dev-shop", "s-alpha", [20_000, 45_000, 90_000, 40_000],
                   cwd="/home/dev/shop", compact_after=3, subagents=2, mtime=now - 30)
    claude_session(claude / "-home-dev-shop", "s-beta", [12_000, 15_000], cwd="/home/dev/shop",
                   model="claude-sonnet-4-5", mtime=now - 7200)
    claude_session(claude / "-home-dev-blog", "s-gamma", [8_000], cwd="/home/dev/blog",
                   model="claude-haiku-4-5", mtime=now - 86_400)
    codex = root / "codex" / "sessions" / "2025" / "09" / "25"
    codex_session(codex / "rollout-2025-09-25T01-22-20-one.jsonl", [3_000, 9_000, 27_000],
                  cwd="/srv/api", mtime=now - 600)
    codex_session(codex / "rollout-2025-09-25T02-00-00-two.jsonl", [5_000], cwd="/srv/web",
                  model="gpt-5.5", mtime=now - 3 * 86_400)
    return {"HOME": str(root), "CLAUDE_CONFIG_DIR": str(root / "claude"), "CODEX_HOME": str(root / "codex")}
