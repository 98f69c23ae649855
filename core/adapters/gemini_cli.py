"""Gemini CLI chats (``~/.gemini/tmp/<projectHash>/chats/session-*.json``).

A chat is one JSON document ``{sessionId, projectHash, startTime, lastUpdated, messages,
summary?}``, rewritten by the CLI as the chat grows. Each message has an ``id``, a ``timestamp``
and a ``type``:

* ``user`` — what the person typed (``content``: a string, or a list of ``{text}`` parts);
* ``gemini`` — one model response, so one model call over everything before it. ``thoughts``
  (``{subject, description}`` summaries) are its reasoning, ``content`` its text, ``toolCalls``
  the calls it made, each with its ``result`` (a list of ``functionResponse`` parts) stored as the
  tool message that follows; ``model`` names the model, ``tokens`` is the usage;
* ``info`` — the CLI's own notices (updates, "Request cancelled.", authentication): never sent to
  the model, counted as ignored;
* ``error`` — the CLI's error notices. ``[API Error: …]`` is an error written in place of a
  response (an observed error, not a call: nothing came back to count); other errors (a bad
  slash command) are counted as ignored.

Usage: the CLI copies the API's ``usageMetadata`` into ``tokens`` as ``input`` =
``promptTokenCount``, ``output`` = ``candidatesTokenCount``, ``cached`` =
``cachedContentTokenCount``, ``thoughts`` = ``thoughtsTokenCount``, ``tool`` =
``toolUsePromptTokenCount`` and ``total`` = ``totalTokenCount`` (``chatRecordingService.ts``,
``recordMessageTokens``). Gemini's ``promptTokenCount`` is the whole prompt, its cached part
included, so ``input`` is the prompt size and ``cached`` the part read from the cache; the output
is ``output + thoughts`` (thinking tokens are generated and billed as output).

The chat file records no compression: when the CLI compresses its history (``/compress`` or
automatically) the file keeps every message, so none is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..logformat import FormatError
from ..model import MAIN_SCOPE, Block, BlockKind, ErrorKind, RequestError, ScopeHeader, Usage
from ..session import Session
from ._common import get_list, json_text, opt_int, opt_str, text_of

FORMAT: Final = "gemini-cli"

API_ERROR_PREFIX: Final = "[API Error"
"""How the CLI writes an error a model call returned."""

CONTEXT_ERROR_WORDS: Final = ("token count", "exceeds the maximum", "context window", "too long")
"""Words of an API error saying the request was larger than the model reads."""


def detect_document(doc: Any) -> bool:
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("messages"), list)
        and "sessionId" in doc
        and "projectHash" in doc
    )


def gemini_usage(tokens: Any) -> Usage | None:
    """Usage of a ``gemini`` message's ``tokens`` (see the module docs for which figure is which)."""
    if not isinstance(tokens, dict):
        return None
    prompt = opt_int(tokens, "input")
    if prompt is None:
        return None
    output = (opt_int(tokens, "output") or 0) + (opt_int(tokens, "thoughts") or 0)
    return Usage(prompt, opt_int(tokens, "cached") or 0, 0, output)


def thought_blocks(thoughts: Any) -> list[Block]:
    """Reasoning blocks from a message's ``thoughts`` summaries."""
    blocks: list[Block] = []
    if isinstance(thoughts, list):
        for thought in thoughts:
            if isinstance(thought, dict):
                text = "\n".join(
                    t for t in (opt_str(thought, "subject"), opt_str(thought, "description")) if t
                )
                if text:
                    blocks.append(Block(BlockKind.REASONING, text))
    return blocks


def result_text(result: Any) -> str:
    """The text of a tool call's ``result``: each ``functionResponse``'s output or error."""
    if isinstance(result, str):
        return result
    if not isinstance(result, list):
        return json_text(result) if result is not None else ""
    parts: list[str] = []
    for part in result:
        if not isinstance(part, dict):
            continue
        response = part.get("functionResponse")
        if isinstance(response, dict):
            body = response.get("response")
            if isinstance(body, dict) and set(body) <= {"output", "error"}:
                parts.append("\n".join(text_of(v) for v in body.values()))
            else:
                parts.append(json_text(body))
        elif "text" in part:
            parts.append(text_of(part))
        else:
            parts.append(json_text(part))
    return "\n".join(parts)


class ChatReader:
    """Reads one chat's messages into one scope."""

    def __init__(self, session: Session, scope_id: str = MAIN_SCOPE) -> None:
        self.session = session
        self.scope_id = scope_id

    def read(self, messages: list[Any]) -> None:
        for position, message in enumerate(messages, 1):
            try:
                if not isinstance(message, dict):
                    raise FormatError(f"a message must be an object, got {type(message).__name__}")
                self.message(message)
            except FormatError as exc:
                self.session.problems.add("wrong_type", 0, f"message {position}: {exc}")

    def message(self, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        timestamp = opt_str(message, "timestamp")
        if kind == "user":
            self.session.add_message(
                "user", [Block(BlockKind.TEXT, text_of(message.get("content")))], scope_id=self.scope_id
            )
        elif kind == "gemini":
            self.response(message, timestamp)
        elif kind == "error" and text_of(message.get("content")).startswith(API_ERROR_PREFIX):
            text = text_of(message.get("content"))
            lowered = text.lower()
            error_kind = (
                ErrorKind.CONTEXT_LENGTH
                if any(w in lowered for w in CONTEXT_ERROR_WORDS)
                else ErrorKind.OTHER
            )
            self.session.add_error(self.scope_id, RequestError(error_kind, text[:200]), timestamp=timestamp)
        elif kind in ("info", "error", "warning"):
            self.session.ignored[f"message:{kind}"] += 1
        else:
            self.session.unknown_kinds[f"message:{str(kind)[:40]}"] += 1

    def response(self, message: Mapping[str, Any], timestamp: str) -> None:
        blocks = thought_blocks(message.get("thoughts"))
        content = text_of(message.get("content"))
        if content:
            blocks.append(Block(BlockKind.TEXT, content))
        results: list[Block] = []
        for call in get_list(message, "toolCalls"):
            if not isinstance(call, dict):
                continue
            call_id = opt_str(call, "id")
            name = opt_str(call, "name")
            blocks.append(Block(BlockKind.TOOL_CALL, json_text(call.get("args", {})), call_id, name))
            if "result" in call:
                results.append(
                    Block(
                        BlockKind.TOOL_RESULT,
                        result_text(call.get("result")),
                        call_id,
                        name,
                        is_error=call.get("status") == "error",
                    )
                )
        self.session.add_request(
            scope_id=self.scope_id,
            model=opt_str(message, "model"),
            usage=gemini_usage(message.get("tokens")),
            request_id=opt_str(message, "id"),
            timestamp=timestamp,
        )
        self.session.add_message("assistant", blocks, scope_id=self.scope_id)
        if results:
            self.session.add_message("tool", results, scope_id=self.scope_id)


def read_document(session: Session, doc: Any) -> None:
    if not detect_document(doc):
        raise FormatError("expected a Gemini CLI chat {sessionId, projectHash, messages}")
    messages = get_list(doc, "messages")
    model = next((opt_str(m, "model") for m in messages if isinstance(m, dict) and opt_str(m, "model")), "")
    label = opt_str(doc, "summary") or next(
        (text_of(m.get("content"))[:80] for m in messages if isinstance(m, dict) and m.get("type") == "user"),
        "",
    )
    session.set_header(
        ScopeHeader(MAIN_SCOPE, session_id=opt_str(doc, "sessionId"), model=model, label=label.strip())
    )
    ChatReader(session).read(messages)
