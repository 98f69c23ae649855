"""OpenAI chat-completions message lists and SWE-agent trajectories.

``openai-chat`` reads:

* a JSON array of messages, or a request body ``{"model"?, "tools"?, "messages": [...]}``;
* JSONL with one message per line (tailable);
* a list of conversations, each its own scope: records with their messages under ``messages``,
  ``traj`` (tau-bench results: the scope is ``task-<id>-trial-<n>``), ``conversation`` or
  ``history``, or a list of message lists.

``swe-agent`` reads a SWE-agent ``.traj`` file: its ``history`` (the messages the model saw, with
``role: "tool"`` results pointing back through ``tool_call_ids``), or, for trajectories without
one, the steps of ``trajectory`` as assistant responses and observations.

Neither format carries token counts per call (SWE-agent's ``model_stats`` are totals), so their
calls have no provider usage. Each assistant message is a model call over everything before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..logformat import FormatError
from ..model import MAIN_SCOPE, ScopeHeader
from ..session import Session
from ._chat import (
    MessageList,
    first_user_text,
    is_conversation_list,
    is_message,
    is_message_document,
    looks_anthropic,
    read_conversations,
    read_message_document,
    sample_messages,
)
from ._common import get_dict, opt_str
from .base import Source

FORMAT: Final = "openai-chat"
SWE_AGENT_FORMAT: Final = "swe-agent"


def detect_line(obj: Mapping[str, Any]) -> bool:
    """A JSONL line that is one chat message (and not in Anthropic's block shape)."""
    return is_message(obj) and not looks_anthropic([obj])


def detect_document(doc: Any) -> bool:
    return is_message_document(doc) and not looks_anthropic(sample_messages(doc))


def read_document(session: Session, doc: Any) -> None:
    if is_conversation_list(doc):
        read_conversations(session, doc)
    else:
        read_message_document(session, doc, MAIN_SCOPE)


class ChatLinesAdapter:
    """JSONL of chat messages, one per line."""

    def __init__(self, session: Session, source: Source) -> None:
        self.session = session
        self.messages = MessageList(session, source.default_scope)

    def feed(self, obj: dict[str, Any], line: int) -> None:
        if not is_message(obj):
            raise FormatError("not a chat message (no known 'role')")
        self.messages.add(obj, line)

    def finish(self) -> None:
        return None


def make_adapter(session: Session, source: Source) -> ChatLinesAdapter:
    return ChatLinesAdapter(session, source)


# -- SWE-agent ---------------------------------------------------------------------------------------


def detect_swe_agent(doc: Any) -> bool:
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("trajectory"), list)
        and ("history" in doc or "info" in doc or "environment" in doc)
    )


def read_swe_agent(session: Session, doc: Any) -> None:
    if not isinstance(doc, dict):
        raise FormatError("a SWE-agent trajectory is a JSON object")
    info = get_dict(doc, "info")
    history = doc.get("history")
    if not isinstance(history, list) or not history:
        steps = doc.get("trajectory")
        last = steps[-1] if isinstance(steps, list) and steps else None
        history = last.get("messages") if isinstance(last, dict) else None
    label = opt_str(info, "exit_status")
    if isinstance(history, list) and history:
        session.set_header(ScopeHeader(MAIN_SCOPE, label=first_user_text(history) or label))
        builder = MessageList(session, MAIN_SCOPE)
        for message in history:
            builder.add(message)
        return
    # An old trajectory without messages: each step is a response and its observation.
    session.set_header(ScopeHeader(MAIN_SCOPE, label=label))
    builder = MessageList(session, MAIN_SCOPE)
    for step in doc.get("trajectory") or []:
        if not isinstance(step, dict):
            continue
        builder.add({"role": "assistant", "content": opt_str(step, "response")})
        builder.add({"role": "user", "content": opt_str(step, "observation")})
