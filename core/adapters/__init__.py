"""Format adapters: every log format ctxscope reads, and how a log's format is recognised.

:data:`LINE_FORMATS` (JSONL, tailable), :data:`DOCUMENT_FORMATS` (one JSON document per file)
and :data:`TEXT_FORMATS` (Markdown, read whole) are tried in order; the first whose ``detect``
accepts the log wins. ``--format NAME`` forces one (:func:`get_format`). ``docs/formats.md``
describes what each adapter reads.
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
        FORMAT_NAME, "ctxscope's own session log", ctxscope.CtxscopeAdapter.detect, ctxscope.make_adapter
    ),
    LineFormat(
        claude_code.FORMAT,
        "Claude Code session transcript (~/.claude/projects/…/<session>.jsonl)",
        claude_code.detect,
        claude_code.make_adapter,
        claude_code.find_siblings,
    ),
    LineFormat(
        claude_sdk.FORMAT,
        "Claude Agent SDK / claude -p --output-format stream-json",
        claude_sdk.detect,
        claude_sdk.make_adapter,
    ),
    LineFormat(
        codex.ROLLOUT_FORMAT,
        "Codex CLI session rollout (~/.codex/sessions/…/rollout-*.jsonl)",
        codex.detect_rollout,
        codex.make_rollout_adapter,
    ),
    LineFormat(
        codex.EXEC_FORMAT, "codex exec --json event stream", codex.detect_exec, codex.make_exec_adapter
    ),
    LineFormat(
        openhands.FORMAT,
        "OpenHands evaluation output (one instance per line)",
        openhands.detect_line,
        openhands.make_adapter,
    ),
    LineFormat(
        anthropic_messages.FORMAT,
        "Anthropic Messages, one message per line",
        anthropic_messages.detect_line,
        anthropic_messages.make_adapter,
    ),
    LineFormat(
        openai_chat.FORMAT,
        "OpenAI chat-completions messages, one per line",
        openai_chat.detect_line,
        openai_chat.make_adapter,
    ),
)
"""JSONL formats, in detection order."""

DOCUMENT_FORMATS: Final[tuple[DocumentFormat, ...]] = (
    DocumentFormat(
        gemini_cli.FORMAT,
        "Gemini CLI chat (~/.gemini/tmp/<project>/chats/session-*.json)",
        gemini_cli.detect_document,
        gemini_cli.read_document,
    ),
    DocumentFormat(
        opencode.FORMAT,
        "OpenCode session: opencode export, or storage/session/<project>/<session>.json",
        opencode.detect_document,
        opencode.read_document,
    ),
    DocumentFormat(
        cline.FORMAT,
        "Cline / Roo Code task folder (ui_messages.json beside api_conversation_history.json)",
        cline.detect_document,
        cline.read_document,
    ),
    DocumentFormat(
        openai_chat.SWE_AGENT_FORMAT,
        "SWE-agent trajectory (.traj)",
        openai_chat.detect_swe_agent,
        openai_chat.read_swe_agent,
    ),
    DocumentFormat(
        openhands.FORMAT,
        "OpenHands instance or event list",
        openhands.detect_document,
        openhands.read_document,
    ),
    DocumentFormat(
        anthropic_messages.FORMAT,
        "Anthropic Messages list or request body",
        anthropic_messages.detect_document,
        anthropic_messages.read_document,
    ),
    DocumentFormat(
        openai_chat.FORMAT,
        "OpenAI chat messages: a list, {messages: [...]}, or a list of conversations",
        openai_chat.detect_document,
        openai_chat.read_document,
    ),
)
"""Whole-document JSON formats, in detection order."""

TEXT_FORMATS: Final[tuple[TextFormat, ...]] = (
    TextFormat(
        aider.FORMAT, "Aider chat history (.aider.chat.history.md)", aider.detect_text, aider.read_text
    ),
    TextFormat(
        specstory.FORMAT,
        "SpecStory Markdown export (.specstory/history/*.md: Cursor and other editors)",
        specstory.detect_text,
        specstory.read_text,
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
