"""``ctxscope statusline``: one short line for Claude Code's status line, from the end of a transcript.

Claude Code runs a status-line command after each message (at most every 300 ms) with a JSON
object on stdin: ``transcript_path``, ``model`` (``id``, ``display_name``), and in recent versions
``context_window`` (``context_window_size``, ``current_usage`` with the last call's
``input_tokens`` / ``cache_creation_input_tokens`` / ``cache_read_input_tokens``). The line
printed says how full the context is against the window, about how many more calls fit before
the agent compacts on its own (Claude Code's trigger from :mod:`ctxscope.core.model_info`,
lowered to where its latest automatic compaction fired), and the last compaction's size
before → after.

It must answer fast however long the transcript is, so the transcript is never replayed:
:func:`read_tail` reads only its last :data:`TAIL_BYTES` for the recent calls' prompt sizes, and
finds the latest ``compact_boundary`` by searching the bytes backwards (a ``bytes.rfind`` per
chunk; only the lines found are decoded).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO, Final

import orjson

from . import short_form
from .fields import anthropic_usage
from .jsonl import split_lines, without_bom  # orjson refuses a byte-order mark (an editor may write one)
from .logformat import FormatError
from .model import MAIN_SCOPE, ObservedCompaction
from .model_info import AGENT_CLAUDE_CODE, compaction_trigger, context_window

TAIL_BYTES: Final = 512 << 10
"""How much of a transcript's end is read for the recent calls."""

MAX_TAIL_BYTES: Final = 32 << 20
"""The most of a transcript's end read for the recent calls."""

SEARCH_CHUNK: Final = 4 << 20
"""Bytes searched per step backwards for the latest compaction."""

RECENT_CALLS: Final = 8
"""How many recent calls the growth per call is averaged over."""

DEFAULT_WINDOW: Final = 200_000
"""The window assumed when neither the status JSON nor the model table says (Claude's standard)."""

_BOUNDARY: Final = b'"compact_boundary"'
_USAGE: Final = b'"usage"'
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class StatusInput:
    """What Claude Code says on stdin (every field optional; a bad one is ignored).

    Attributes:
        transcript_path: The session transcript.
        model: The model id.
        model_name: The model's display name.
        window: ``context_window.context_window_size``.
        used: The last call's prompt from ``context_window.current_usage``.
    """

    transcript_path: str = ""
    model: str = ""
    model_name: str = ""
    window: int | None = None
    used: int | None = None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def parse_status_input(data: bytes | str) -> StatusInput:
    """Read Claude Code's status-line JSON; anything missing or malformed is left out."""
    try:
        obj = orjson.loads(without_bom(data.encode() if isinstance(data, str) else data))
    except orjson.JSONDecodeError:
        return StatusInput()
    if not isinstance(obj, dict):
        return StatusInput()
    model = obj.get("model")
    model = model if isinstance(model, dict) else {}
    window = obj.get("context_window")
    window = window if isinstance(window, dict) else {}
    used: int | None = None
    current = window.get("current_usage")
    if isinstance(current, dict):
        try:
            usage = anthropic_usage(current)
        except FormatError:
            usage = None
        used = usage.prompt_tokens if usage is not None else None
    return StatusInput(
        transcript_path=_text(obj.get("transcript_path")),
        model=_text(model.get("id")),
        model_name=_text(model.get("display_name")),
        window=_count(window.get("context_window_size")) or None,
        used=used,
    )


@dataclass(frozen=True, slots=True)
class TranscriptTail:
    """What the end of a transcript says.

    Attributes:
        prompts: Prompt sizes of the most recent main-agent calls since the latest compaction,
            oldest first (at most :data:`RECENT_CALLS` + 1).
        compaction: (tokens before, tokens after) of the latest compaction, None when none
            was found; ``after`` is None until a call follows it.
        model: The model of the last call.
        compaction_trigger: What started the latest compaction (``auto``, ``manual``, '').
    """

    prompts: tuple[int, ...] = ()
    compaction: tuple[int | None, int | None] | None = None
    model: str = ""
    compaction_trigger: str = ""


def _decode(line: bytes) -> dict[str, Any] | None:
    try:
        obj = orjson.loads(without_bom(line))
    except orjson.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None


def _call(obj: Mapping[str, Any]) -> tuple[str, int, str] | None:
    """(message id, prompt tokens, model) of a main-agent assistant line with usage."""
    if obj.get("type") != "assistant" or obj.get("isSidechain") is True:
        return None
    message = obj.get("message")
    if not isinstance(message, dict) or message.get("model") == "<synthetic>":
        return None
    try:
        usage = anthropic_usage(message.get("usage"))
    except FormatError:
        return None
    if usage is None:
        return None
    ident, model = message.get("id"), message.get("model")
    return (_text(ident), usage.prompt_tokens, _text(model))


def _calls(lines: list[bytes]) -> list[tuple[str, int, str]]:
    calls: list[tuple[str, int, str]] = []
    for line in lines:
        if _USAGE not in line:
            continue
        obj = _decode(line)
        call = _call(obj) if obj is not None else None
        if call is not None and not (calls and call[0] and calls[-1][0] == call[0]):
            calls.append(call)
    return calls


def _line_start(handle: BinaryIO, position: int) -> int:
    """Offset of the start of the line holding byte ``position``."""
    while position > 0:
        back = max(0, position - SEARCH_CHUNK)
        handle.seek(back)
        newline = handle.read(position - back).rfind(b"\n")
        if newline >= 0:
            return back + newline + 1
        position = back
    return 0


def _latest_compaction(handle: BinaryIO, size: int) -> tuple[int | None, int, str] | None:
    """(tokens before, offset of the next line, trigger) of the last ``compact_boundary``
    system line, searched backwards (the text can also appear inside other lines, which are
    passed over)."""
    end = size
    while end > 0:
        start = max(0, end - SEARCH_CHUNK)
        handle.seek(start)
        chunk = handle.read(min(end + len(_BOUNDARY), size) - start)
        found = chunk.rfind(_BOUNDARY)
        while found >= 0:
            line_start = _line_start(handle, start + found)
            handle.seek(line_start)
            line = handle.readline()
            obj = _decode(line.rstrip(b"\r\n"))
            if obj is not None and obj.get("type") == "system" and obj.get("subtype") == "compact_boundary":
                meta = obj.get("compactMetadata")
                meta = meta if isinstance(meta, dict) else {}
                return _count(meta.get("preTokens")), line_start + len(line), _text(meta.get("trigger"))
            found = chunk.rfind(_BOUNDARY, 0, max(0, line_start - start))
        end = start
    return None


def _first_prompt_after(handle: BinaryIO, offset: int, end: int) -> int | None:
    """The prompt of the first main-agent call between ``offset`` and ``end`` (read forward in
    chunks; only lines mentioning usage are decoded)."""
    carry = b""
    handle.seek(offset)
    while offset < end:
        chunk = handle.read(min(SEARCH_CHUNK, end - offset))
        if not chunk:
            break
        offset += len(chunk)
        lines = split_lines(carry + chunk)
        carry = lines.pop()
        calls = _calls(lines)
        if calls:
            return calls[0][1]
    calls = _calls([carry])
    return calls[0][1] if calls else None


def read_tail(path: str, tail_bytes: int = TAIL_BYTES) -> TranscriptTail:
    """The recent calls and the latest compaction of a Claude Code transcript, from its end.

    The last ``tail_bytes`` are read for the recent calls (four times more, up to
    :data:`MAX_TAIL_BYTES`, while they hold none: the last lines can be huge tool results).

    Raises:
        OSError: The transcript cannot be read.
    """
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        found = _latest_compaction(handle, size)
        since = found[1] if found is not None else 0  # only the calls after it count
        window = tail_bytes
        while True:
            start = max(since, size - window)
            handle.seek(start)
            lines = split_lines(handle.read(size - start))
            if start > since:
                lines = lines[1:]  # the first is cut
            calls = _calls(lines)
            if calls or start == since or window >= MAX_TAIL_BYTES:
                break
            window *= 4
        compaction: tuple[int | None, int | None] | None = None
        if found is not None:
            first = _first_prompt_after(handle, since, start) if start > since else None
            if first is None and calls:
                first = calls[0][1]
            compaction = (found[0], first)
    recent = calls[-(RECENT_CALLS + 1) :]
    return TranscriptTail(
        tuple(c[1] for c in recent),
        compaction,
        recent[-1][2] if recent else "",
        found[2][:20] if found is not None else "",
    )


def calls_until(prompts: tuple[int, ...], trigger: int) -> int | None:
    """About how many more calls fit before the prompt reaches ``trigger``, from the average
    growth per call over ``prompts``; None when it is not growing."""
    if len(prompts) < 2:
        return None
    growth = (prompts[-1] - prompts[0]) / (len(prompts) - 1)
    if growth <= 0:
        return None
    return max(0, math.ceil((trigger - prompts[-1]) / growth))


def trigger_of(tail: TranscriptTail, window: int, model: str) -> int:
    """Where Claude Code will compact on its own: its default for the window, or lower where the
    latest automatic compaction shows it fired
    (:func:`~ctxscope.core.model_info.compaction_trigger`)."""
    seen: list[ObservedCompaction] = []
    if tail.compaction is not None:
        before = tail.compaction[0]
        seen.append(ObservedCompaction(MAIN_SCOPE, 0, trigger=tail.compaction_trigger, tokens_before=before))
    return compaction_trigger(AGENT_CLAUDE_CODE, window, seen, model=model) or window


def status_line(status: StatusInput, tail: TranscriptTail) -> str:
    """The line: ``ctx 112k/200k 56% · ~14 calls to auto-compact · last compact 167k→38k``.

    The window is the one Claude Code states, else the model's
    (:func:`~ctxscope.core.model_info.context_window`), else :data:`DEFAULT_WINDOW`.
    """
    used = status.used if status.used is not None else (tail.prompts[-1] if tail.prompts else None)
    model = status.model or tail.model
    largest = max((*tail.prompts, used or 0))
    size = status.window or context_window(model, largest_prompt=largest) or DEFAULT_WINDOW
    parts: list[str] = []
    if used is None:
        parts.append(f"ctx ?/{short_form.tokens(size)}")
    else:
        parts.append(f"ctx {short_form.tokens(used)}/{short_form.tokens(size)} {100 * used / size:.0f}%")
    trigger = trigger_of(tail, size, model)
    prompts = tail.prompts
    if used is not None and prompts and prompts[-1] != used:
        prompts = (*prompts, used)
    left = calls_until(prompts, trigger)
    if used is not None and used >= trigger:
        parts.append("auto-compact due")
    elif left is not None:
        parts.append(f"~{left} calls to auto-compact")
    if tail.compaction is not None:
        before, after = tail.compaction
        shown = [(short_form.tokens(x) if x is not None else "?") for x in (before, after)]
        parts.append(f"last compact {shown[0]}→{shown[1]}")
    name = _CONTROL.sub("", status.model_name)[:24]
    return " · ".join(([name] if name else []) + parts)
