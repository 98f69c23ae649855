"""Plain message lists (OpenAI chat completions and Anthropic Messages) into a session.

Both APIs describe a conversation as a list of ``{role, content}`` messages; they differ in how
tool calls and results are written (OpenAI: ``tool_calls`` on the assistant message and ``role:
"tool"`` results; Anthropic: ``tool_use``/``tool_result`` content blocks) and in where the system
prompt lives. :func:`chat_message` reads either shape, so a list that mixes them still reads;
the format name a log gets comes from detection.

In a plain message list each assistant message marks a model call over everything before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..logformat import FormatError
from ..model import Block, BlockKind, Category, Role, ScopeHeader, Usage
from ..session import Session
from ._common import (
    ANTHROPIC_ONLY_BLOCKS,
    anthropic_block,
    anthropic_usage,
    data_url_image,
    get_dict,
    get_list,
    get_str,
    json_text,
    openai_usage,
    opt_str,
    short,
    text_of,
)

ROLE_MAP: Final[dict[str, Role]] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "tool": "tool",
    "function": "tool",
}

CONVERSATION_KEYS: Final = ("messages", "traj", "conversation", "history")
"""Keys under which a conversation record keeps its messages (``traj``: tau-bench results)."""

DETECT_SAMPLE: Final = 200
"""How many messages detection looks at."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    blocks: tuple[Block, ...]
    usage: Usage | None = None
    model: str = ""
    request_id: str = ""


def is_message(obj: Any) -> bool:
    """A dict with a known chat ``role``."""
    return isinstance(obj, dict) and obj.get("role") in ROLE_MAP


def looks_anthropic(messages: Iterable[Any]) -> bool:
    """True when a message list uses Anthropic-only content blocks."""
    for count, message in enumerate(messages):
        if count >= DETECT_SAMPLE:
            break
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and (
                    block.get("type") in ANTHROPIC_ONLY_BLOCKS
                    or (block.get("type") == "image" and "source" in block)
                ):
                    return True
    return False


def chat_blocks(content: Any) -> list[Block]:
    """Blocks of a message's ``content`` in either API's shape."""
    if content is None:
        return []
    if isinstance(content, str):
        return [Block(BlockKind.TEXT, content)]
    if isinstance(content, dict):
        return [Block(BlockKind.TEXT, json_text(content))]
    if not isinstance(content, list):
        raise FormatError(f"content must be a string or a list, got {type(content).__name__}")
    blocks: list[Block] = []
    for part in content:
        if isinstance(part, str):
            blocks.append(Block(BlockKind.TEXT, part))
            continue
        if not isinstance(part, dict):
            raise FormatError(f"a content part must be an object, got {type(part).__name__}")
        kind = part.get("type")
        if kind in ("text", "input_text", "output_text"):
            blocks.append(Block(BlockKind.TEXT, get_str(part, "text")))
        elif kind == "refusal":
            blocks.append(Block(BlockKind.TEXT, get_str(part, "refusal")))
        elif kind == "image_url":
            image = part.get("image_url")
            url = image.get("url") if isinstance(image, dict) else image
            blocks.append(data_url_image(url if isinstance(url, str) else ""))
        elif kind == "input_image":
            url = part.get("image_url")
            blocks.append(data_url_image(url if isinstance(url, str) else ""))
        else:
            blocks.extend(anthropic_block(part))
    return blocks


def _usage(raw: Any) -> Usage | None:
    if isinstance(raw, dict) and ("cache_read_input_tokens" in raw or "cache_creation_input_tokens" in raw):
        return anthropic_usage(raw)
    return openai_usage(raw)


def chat_message(obj: Mapping[str, Any]) -> ChatMessage:
    """One message of either API.

    Raises:
        FormatError: Unknown role or wrongly typed fields.
    """
    return ChatMessage(*chat_fields(obj))


_REASONING_KEYS: Final = ("reasoning_content", "reasoning", "thinking")
_TEXT: Final = BlockKind.TEXT
_TOOL_CALL: Final = BlockKind.TOOL_CALL
_TOOL_RESULT: Final = BlockKind.TOOL_RESULT


def chat_fields(obj: Mapping[str, Any]) -> tuple[Role, tuple[Block, ...], Usage | None, str, str]:
    """(role, blocks, usage, model, request id) of one message of either API (what
    :func:`chat_message` returns, as a tuple: the reader's hot path).

    Raises:
        FormatError: Unknown role or wrongly typed fields.
    """
    raw_role = obj.get("role")
    role = ROLE_MAP.get(raw_role) if type(raw_role) is str else None
    if role is None:
        raise FormatError(f"unknown role {short(raw_role, 20)!r}")
    content = obj.get("content")
    if role == "tool":
        call_id = obj.get("tool_call_id")
        if type(call_id) is not str:
            call_id = get_str(obj, "tool_call_id")
        if not call_id:
            ids = get_list(obj, "tool_call_ids")
            call_id = ids[0] if ids and isinstance(ids[0], str) else ""
        name = obj.get("name")
        result = Block(
            _TOOL_RESULT,
            content if type(content) is str else text_of(content),
            call_id,
            name if type(name) is str else "",
            None,
            0,
            0,
            0,
            obj.get("is_error") is True,
        )
        if type(content) is list:
            images = [b for b in chat_blocks(content) if b.kind is BlockKind.ARTIFACT]
            if images:
                return role, (result, *images), None, "", ""
        return role, (result,), None, "", ""
    if role != "assistant":
        blocks = (Block(_TEXT, content),) if type(content) is str else tuple(chat_blocks(content))
        if "usage" in obj:
            _usage(obj["usage"])  # a malformed one makes the message unreadable, as for any role
        return role, blocks, None, "", ""
    parts: list[Block] = []
    for key in _REASONING_KEYS:
        if key in obj:
            value = obj[key]
            if value and type(value) is str:
                parts.append(Block(BlockKind.REASONING, value))
    if type(content) is str:
        parts.append(Block(_TEXT, content))
    elif content is not None:
        parts.extend(chat_blocks(content))
    calls = obj.get("tool_calls")
    if calls is not None:
        if type(calls) is not list:
            raise FormatError(f"field 'tool_calls' must be a list, got {type(calls).__name__}")
        for call in calls:
            if type(call) is not dict:
                raise FormatError("a tool call must be an object")
            function = call.get("function")
            if type(function) is not dict:
                function = get_dict(call, "function")
            arguments = function.get("arguments", "")
            call_id = call.get("id")
            name = function.get("name")
            parts.append(
                Block(
                    _TOOL_CALL,
                    arguments if type(arguments) is str else json_text(arguments),
                    call_id if type(call_id) is str else get_str(call, "id"),
                    name if type(name) is str else get_str(function, "name"),
                )
            )
    if "function_call" in obj:
        legacy = obj["function_call"]
        if isinstance(legacy, dict):
            parts.append(
                Block(
                    _TOOL_CALL,
                    json_text(legacy.get("arguments", "")),
                    name=get_str(legacy, "name"),
                )
            )
    usage = obj.get("usage")
    model = obj.get("model")
    request_id = obj.get("id")
    return (
        role,
        tuple(parts),
        None if usage is None else _usage(usage),
        model if type(model) is str else "",
        request_id if type(request_id) is str else "",
    )


class MessageList:
    """Appends chat messages to one scope; each assistant message is a model call over the ones before.

    A message that cannot be read is counted on the session (``wrong_type``) and skipped.

    Args:
        session: The session to build.
        scope_id: The scope the messages belong to.
        where: How problems name the list (e.g. ``conversation task-3``).
    """

    def __init__(self, session: Session, scope_id: str, where: str = "") -> None:
        self.session = session
        self.scope_id = scope_id
        self.where = where
        self.count = 0

    def add_system(self, system: Any) -> None:
        """A system prompt given beside the messages (Anthropic's top-level ``system``)."""
        text = text_of(system)
        if text:
            self.session.add_message("system", [Block(BlockKind.TEXT, text)], scope_id=self.scope_id)

    def add_tools(self, tools: Any) -> None:
        """Tool definitions sent with every call: counted as a system message of tool definitions."""
        if isinstance(tools, list) and tools:
            self.session.add_message(
                "system",
                [Block(BlockKind.TEXT, json_text(tools))],
                scope_id=self.scope_id,
                category_hint=Category.TOOL_DEFINITIONS,
            )

    def add(self, obj: Any, line: int = 0) -> None:
        self.count += 1
        try:
            if type(obj) is not dict:
                raise FormatError(f"a message must be an object, got {type(obj).__name__}")
            role, blocks, usage, model, request_id = chat_fields(obj)
        except FormatError as exc:
            where = f"{self.where} message {self.count}: " if self.where else ""
            self.session.problems.add("wrong_type", line, f"{where}{exc}")
            return
        session = self.session
        if role == "assistant":
            session.add_request(
                scope_id=self.scope_id, model=model, usage=usage, request_id=request_id, line=line
            )
        session.add_message(role, blocks, scope_id=self.scope_id, line=line)


def first_user_text(messages: list[Any], limit: int = 80) -> str:
    """A label for a conversation: the first line of its first user message, shortened."""
    for message in messages:
        if isinstance(message, dict) and message.get("role") in ("user", "human"):
            text = text_of(message.get("content")).strip()
            first = text.splitlines()[0] if text else ""
            return first[:limit]
    return ""


def conversation_messages(item: Any) -> list[Any] | None:
    """The message list of one conversation record (or None when it is not one)."""
    if isinstance(item, list):
        return item if item and is_message(item[0]) else None
    if isinstance(item, dict):
        for key in CONVERSATION_KEYS:
            value = item.get(key)
            if isinstance(value, list) and (not value or is_message(value[0])):
                return value
    return None


def conversation_id(item: Any, position: int) -> str:
    """A scope id for one conversation of a list: tau-bench's task and trial, an ``id``, or its position."""
    if isinstance(item, dict):
        task = item.get("task_id")
        if isinstance(task, (int, str)) and not isinstance(task, bool):
            trial = item.get("trial")
            if isinstance(trial, int) and not isinstance(trial, bool):
                return f"task-{task}-trial-{trial}"
            return f"task-{task}"
        for key in ("id", "conversation_id", "instance_id"):
            value = item.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                return str(value)[:80]
    return f"conversation-{position}"


def read_conversations(session: Session, items: list[Any]) -> None:
    """A list of conversations: each becomes its own top-level scope."""
    for position, item in enumerate(items, 1):
        messages = conversation_messages(item)
        if messages is None:
            session.problems.add("wrong_type", 0, f"item {position}: not a conversation")
            continue
        scope_id = conversation_id(item, position)
        while scope_id in session.scopes:
            scope_id += "'"
        model = opt_str(item, "model") if isinstance(item, dict) else ""
        session.set_header(ScopeHeader(scope_id, model=model, label=first_user_text(messages)))
        builder = MessageList(session, scope_id, f"conversation {scope_id}")
        if isinstance(item, dict):
            builder.add_system(item.get("system"))
            builder.add_tools(item.get("tools"))
        for message in messages:
            builder.add(message)


def read_message_document(session: Session, doc: Any, scope_id: str) -> None:
    """A message list, or an API request body ``{system?, tools?, messages}``, into one scope."""
    if isinstance(doc, dict):
        messages = doc.get("messages")
        if not isinstance(messages, list):
            raise FormatError("'messages' must be a list")
        model = opt_str(doc, "model")
        session.set_header(ScopeHeader(scope_id, model=model, label=first_user_text(messages)))
        builder = MessageList(session, scope_id)
        builder.add_system(doc.get("system"))
        builder.add_tools(doc.get("tools"))
    elif isinstance(doc, list):
        messages = doc
        session.set_header(ScopeHeader(scope_id, label=first_user_text(messages)))
        builder = MessageList(session, scope_id)
    else:
        raise FormatError("expected a list of messages or an object with 'messages'")
    for message in messages:
        builder.add(message)


def is_conversation_list(doc: Any) -> bool:
    return (
        isinstance(doc, list)
        and bool(doc)
        and not is_message(doc[0])
        and conversation_messages(doc[0]) is not None
    )


def sample_messages(doc: Any) -> list[Any]:
    """Messages to run format detection over, from any of the list shapes."""
    if isinstance(doc, dict):
        messages = doc.get("messages")
        return messages[:DETECT_SAMPLE] if isinstance(messages, list) else []
    if isinstance(doc, list):
        if doc and is_message(doc[0]):
            return doc[:DETECT_SAMPLE]
        sample: list[Any] = []
        for item in doc[:20]:
            sample.extend((conversation_messages(item) or [])[:DETECT_SAMPLE])
        return sample
    return []


def is_message_document(doc: Any) -> bool:
    """A message list, a request body with ``messages``, or a list of conversations."""
    if isinstance(doc, dict):
        messages = doc.get("messages")
        return isinstance(messages, list) and (not messages or is_message(messages[0]))
    if isinstance(doc, list):
        return bool(doc) and (is_message(doc[0]) or is_conversation_list(doc))
    return False
