"""Format adapters: every log format ctxscope reads, and how a log's format is recognised.

:data:`LINE_FORMATS` (JSONL, tailable), :data:`DOCUMENT_FORMATS` (one JSON document per file)
and :data:`TEXT_FORMATS` (Markdown, read whole) are tried in order; the first whose ``detect``
accepts the log wins. ``--format NAME`` forces one (:func:`get_format`). ``docs/formats.md``
describes what each adapter reads.

A new format registers here: a :class:`LineFormat`, :class:`DocumentFormat` or
:class:`TextFormat` with its detector and a ``requires`` text, which the reader quotes when it
refuses a log that no format accepts (:class:`~ctxscope.core.reader.UnknownFormatError`).
Detectors must be specific: a log that is not of the format must be refused, not read as
something it is not.
"""

from __future__ import annotations

from typing import Final

from ..logformat import FORMAT_NAME
from . import (
    aider,
    anthropic_messages,
    claude_code,
    claude_sdk,
    cline,
    codex,
    ctxscope,
    gemini_cli,
    openai_chat,
    opencode,
    openhands,
    specstory,
)
from .base import DocumentFormat, LineFormat, LogAdapter, Source, TextFormat

LINE_FORMATS: Final[tuple[LineFormat, ...]] = (
    LineFormat(
        FORMAT_NAME,
        "ctxscope's own session log",
        ctxscope.CtxscopeAdapter.detect,
        ctxscope.make_adapter,
        requires="a 't' naming a ctxscope event",
    ),
    LineFormat(
        claude_code.FORMAT,
        "Claude Code session transcript (~/.claude/projects/…/<session>.jsonl)",
        claude_code.detect,
        claude_code.make_adapter,
        claude_code.find_siblings,
        requires=claude_code.REQUIRES,
    ),
    LineFormat(
        claude_sdk.FORMAT,
        "Claude Agent SDK / claude -p --output-format stream-json",
        claude_sdk.detect,
        claude_sdk.make_adapter,
        requires="a 'type' of system/assistant/user/result with a snake_case 'session_id'",
    ),
    LineFormat(
        codex.ROLLOUT_FORMAT,
        "Codex CLI session rollout (~/.codex/sessions/…/rollout-*.jsonl)",
        codex.detect_rollout,
        codex.make_rollout_adapter,
        requires="a 'payload' and a 'type' of session_meta/turn_context/response_item/event_msg/compacted",
    ),
    LineFormat(
        codex.EXEC_FORMAT,
        "codex exec --json event stream",
        codex.detect_exec,
        codex.make_exec_adapter,
        requires="a 'type' such as thread.started, turn.completed or item.completed",
    ),
    LineFormat(
        openhands.FORMAT,
        "OpenHands evaluation output (one instance per line)",
        openhands.detect_line,
        openhands.make_adapter,
        requires="a 'history' list with an 'instance_id' or 'metrics'",
    ),
    LineFormat(
        anthropic_messages.FORMAT,
        "Anthropic Messages, one message per line",
        anthropic_messages.detect_line,
        anthropic_messages.make_adapter,
        requires="a chat 'role' and Anthropic content blocks (tool_use, tool_result, thinking…)",
    ),
    LineFormat(
        openai_chat.FORMAT,
        "OpenAI chat-completions messages, one per line",
        openai_chat.detect_line,
        openai_chat.make_adapter,
        requires="a chat 'role' (system/user/assistant/tool) on every message line",
    ),
)
"""JSONL formats, in detection order."""

DOCUMENT_FORMATS: Final[tuple[DocumentFormat, ...]] = (
    DocumentFormat(
        gemini_cli.FORMAT,
        "Gemini CLI chat (~/.gemini/tmp/<project>/chats/session-*.json)",
        gemini_cli.detect_document,
        gemini_cli.read_document,
        requires="an object with 'sessionId', 'projectHash' and a 'messages' list",
    ),
    DocumentFormat(
        opencode.FORMAT,
        "OpenCode session: opencode export, or storage/session/<project>/<session>.json",
        opencode.detect_document,
        opencode.read_document,
        requires="{info: a session whose 'id' starts ses, messages: [{info, parts}]}, or that session",
    ),
    DocumentFormat(
        cline.FORMAT,
        "Cline / Roo Code task folder (ui_messages.json beside api_conversation_history.json)",
        cline.detect_document,
        cline.read_document,
        requires="a list of events whose first has an integer 'ts' and a 'type' of say or ask",
    ),
    DocumentFormat(
        openai_chat.SWE_AGENT_FORMAT,
        "SWE-agent trajectory (.traj)",
        openai_chat.detect_swe_agent,
        openai_chat.read_swe_agent,
        requires="an object with a 'trajectory' list and 'history', 'info' or 'environment'",
    ),
    DocumentFormat(
        openhands.FORMAT,
        "OpenHands instance or event list",
        openhands.detect_document,
        openhands.read_document,
        requires="an instance with a 'history' list, or a list of events with 'source' and an action",
    ),
    DocumentFormat(
        anthropic_messages.FORMAT,
        "Anthropic Messages list or request body",
        anthropic_messages.detect_document,
        anthropic_messages.read_document,
        requires="a list of messages with a 'role' (or {messages, system}) using Anthropic content blocks",
    ),
    DocumentFormat(
        openai_chat.FORMAT,
        "OpenAI chat messages: a list, {messages: [...]}, or a list of conversations",
        openai_chat.detect_document,
        openai_chat.read_document,
        requires="a list of messages whose first has a chat 'role', {messages: [...]}, or conversations",
    ),
)
"""Whole-document JSON formats, in detection order."""

TEXT_FORMATS: Final[tuple[TextFormat, ...]] = (
    TextFormat(
        aider.FORMAT,
        "Aider chat history (.aider.chat.history.md)",
        aider.detect_text,
        aider.read_text,
        requires="a '# aider chat started at' line near the top",
    ),
    TextFormat(
        specstory.FORMAT,
        "SpecStory Markdown export (.specstory/history/*.md: Cursor and other editors)",
        specstory.detect_text,
        specstory.read_text,
        requires="a 'Generated by SpecStory' comment at the top, or _**User**_ and _**Assistant**_ headings",
    ),
)
"""Markdown formats (read whole), in detection order."""

ALIASES: Final[dict[str, str]] = {
    "claude-code-jsonl": claude_code.FORMAT,
    "claude-sdk-stream-json": claude_sdk.FORMAT,
    "claude-agent-sdk": claude_sdk.FORMAT,
    "codex": codex.ROLLOUT_FORMAT,
    "codex-exec-json": codex.EXEC_FORMAT,
    "tau-bench": openai_chat.FORMAT,
    "tau-bench-results": openai_chat.FORMAT,
    "swe-agent-traj": openai_chat.SWE_AGENT_FORMAT,
    "openhands-eval-output": openhands.FORMAT,
    "anthropic": anthropic_messages.FORMAT,
    "openai": openai_chat.FORMAT,
    "gemini-cli-chat": gemini_cli.FORMAT,
    "gemini": gemini_cli.FORMAT,
    "cursor-specstory-md": specstory.FORMAT,
    "roo-code": cline.FORMAT,
    "aider-chat-history": aider.FORMAT,
}
"""Other names ``--format`` accepts (the names ``../shared/real-logs/SOURCES.json`` uses)."""


def known_formats() -> tuple[str, ...]:
    """Every format name, in detection order, without repeats."""
    names: list[str] = []
    specs: list[LineFormat | DocumentFormat | TextFormat] = [*LINE_FORMATS, *DOCUMENT_FORMATS, *TEXT_FORMATS]
    for name in [spec.name for spec in specs]:
        if name not in names:
            names.append(name)
    return tuple(names)


def canonical_name(name: str) -> str | None:
    """The format a ``--format`` value names (case-insensitive, aliases allowed), or None."""
    key = name.strip().lower().replace("_", "-")
    key = ALIASES.get(key, key)
    return key if key in known_formats() else None


def line_format(name: str) -> LineFormat | None:
    return next((spec for spec in LINE_FORMATS if spec.name == name), None)


def document_format(name: str) -> DocumentFormat | None:
    return next((spec for spec in DOCUMENT_FORMATS if spec.name == name), None)


def text_format(name: str) -> TextFormat | None:
    return next((spec for spec in TEXT_FORMATS if spec.name == name), None)


__all__ = [
    "DOCUMENT_FORMATS",
    "LINE_FORMATS",
    "TEXT_FORMATS",
    "DocumentFormat",
    "LineFormat",
    "LogAdapter",
    "Source",
    "TextFormat",
    "canonical_name",
    "document_format",
    "known_formats",
    "line_format",
    "text_format",
]
