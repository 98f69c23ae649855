"""Anthropic Messages lists: ``tool_use``/``tool_result`` content blocks, system as a string or blocks.

``anthropic-messages`` reads:

* a request body ``{"model"?, "system"?, "tools"?, "messages": [...]}`` (``system`` a string or a
  list of text blocks; the tool definitions count as a system message of tool definitions);
* a bare JSON array of messages whose content uses Anthropic-only blocks;
* a list of such conversations (each its own scope);
* JSONL with one message per line (tailable).

Each assistant message is a model call over everything before it; an assistant message that
carries a ``usage`` object (a saved API response) gives that call its provider usage, with the
prompt counted as input + cache creation + cache read tokens.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..model import MAIN_SCOPE
from ..session import Session
from ._chat import (
    is_conversation_list,
    is_message,
    is_message_document,
    looks_anthropic,
    read_conversations,
    read_message_document,
    sample_messages,
)
from .base import Source
from .openai_chat import ChatLinesAdapter

FORMAT: Final = "anthropic-messages"


def detect_line(obj: Mapping[str, Any]) -> bool:
    return is_message(obj) and looks_anthropic([obj])


def detect_document(doc: Any) -> bool:
    if not is_message_document(doc):
        return False
    if isinstance(doc, dict) and "system" in doc:
        return True
    return looks_anthropic(sample_messages(doc))


def read_document(session: Session, doc: Any) -> None:
    if is_conversation_list(doc):
        read_conversations(session, doc)
    else:
        read_message_document(session, doc, MAIN_SCOPE)


def make_adapter(session: Session, source: Source) -> ChatLinesAdapter:
    """JSONL of Anthropic messages reads like JSONL of chat messages (the parser takes both shapes)."""
    return ChatLinesAdapter(session, source)
