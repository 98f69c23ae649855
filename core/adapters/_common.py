"""Helpers shared by the format adapters: typed field access that fails with one safe line.

Every adapter reads hostile input. Field access goes through these helpers, which raise
:class:`~ctxscope.core.logformat.FormatError` (counted by the reader as ``wrong_type``) instead of
``TypeError``/``KeyError``, and never put more than a short, sanitised excerpt of log text into
the message.
"""

from __future__ import annotations

import base64
import binascii
import sys
from collections.abc import Mapping
from typing import Any, Final

import orjson

from ..logformat import FormatError, clamp_count
from ..model import ArtifactKind, Block, BlockKind, Usage

NAME_CHARS: Final = 40
"""How much of a field name or value is quoted in a problem reason."""


def short(value: object, limit: int = NAME_CHARS) -> str:
    """A short printable rendering of a value for a problem reason."""
    text = str(value)[:limit]
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def get_dict(obj: Mapping[str, Any], key: str, *, required: bool = False) -> dict[str, Any]:
    """``obj[key]`` as an object; ``{}`` when absent or null (unless required)."""
    value = obj.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise FormatError(f"field {key!r} must be an object, got {type(value).__name__}")
    return value


def get_list(obj: Mapping[str, Any], key: str) -> list[Any]:
    """``obj[key]`` as a list; ``[]`` when absent or null."""
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatError(f"field {key!r} must be a list, got {type(value).__name__}")
    return value


def get_str(obj: Mapping[str, Any], key: str, default: str = "") -> str:
    """``obj[key]`` as a string; ``default`` when absent or null."""
    value = obj.get(key)
    if type(value) is str:
        return value
    if value is None:
        return default
    raise FormatError(f"field {key!r} must be a string, got {type(value).__name__}")


def opt_str(obj: Mapping[str, Any], key: str) -> str:
    """``obj[key]`` when it is a string, else ``''`` (for fields that are only informative)."""
    value = obj.get(key)
    return value if isinstance(value, str) else ""


def get_int(obj: Mapping[str, Any], key: str, default: int = 0) -> int:
    """``obj[key]`` as a non-negative integer; ``default`` when absent or null."""
    value = obj.get(key)
    if type(value) is int and value >= 0:
        return clamp_count(value)
    if value is None:
        return default
    raise FormatError(f"field {key!r} must be a non-negative integer, got {short(value, 20)!r}")


def opt_int(obj: Mapping[str, Any], key: str) -> int | None:
    """``obj[key]`` when it is a non-negative integer, else None."""
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return clamp_count(value)


def json_text(value: Any) -> str:
    """A JSON value as compact text (a string is kept as it is)."""
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return str(value)


def text_of(content: Any) -> str:
    """The text of a content value: a string, or the ``text`` parts of a list of parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                text = part.get("text")
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(parts)
    if isinstance(content, dict):
        text = content.get("text")
        return text if isinstance(text, str) else json_text(content)
    return json_text(content)


PNG_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"


def image_block(data: Any, media_type: str = "") -> Block:
    """An image artifact from its base64 payload: pixel size from a PNG header, else byte size.

    Only the first few dozen characters are decoded; the payload itself is never kept.
    """
    if not isinstance(data, str):
        return Block(BlockKind.ARTIFACT, artifact=ArtifactKind.IMAGE)
    size = len(data) * 3 // 4
    width = height = 0
    if media_type in ("", "image/png"):
        try:
            head = base64.b64decode(data[:32], validate=False)
        except (binascii.Error, ValueError):
            head = b""
        if head.startswith(PNG_SIGNATURE) and len(head) >= 24:
            width = int.from_bytes(head[16:20], "big")
            height = int.from_bytes(head[20:24], "big")
            if width > 100_000 or height > 100_000:
                width = height = 0
    return Block(BlockKind.ARTIFACT, artifact=ArtifactKind.IMAGE, size_bytes=size, width=width, height=height)


def data_url_image(url: str) -> Block:
    """An image block from an OpenAI ``image_url`` (a ``data:`` URL, or a remote URL we never open)."""
    if url.startswith("data:") and "," in url:
        meta, _, payload = url.partition(",")
        media = meta[5:].split(";", 1)[0]
        return image_block(payload, media)
    return Block(BlockKind.ARTIFACT, artifact=ArtifactKind.IMAGE)


# -- Anthropic Messages content ----------------------------------------------------------------------

ANTHROPIC_ONLY_BLOCKS: Final = frozenset(
    {"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document"}
)
"""Block types that only the Anthropic Messages shape uses (for telling it from OpenAI's)."""


def anthropic_blocks(content: Any) -> list[Block]:
    """Blocks of an Anthropic Messages ``content`` (a string or a list of content blocks).

    Raises:
        FormatError: ``content`` is neither a string nor a list, or a block is not an object.
    """
    if type(content) is list:
        if len(content) == 1 and type(content[0]) is dict:
            return anthropic_block(content[0])  # Claude Code writes one block per line
        blocks: list[Block] = []
        for raw in content:
            if type(raw) is dict:
                blocks.extend(anthropic_block(raw))
            elif type(raw) is str:
                blocks.append(Block(BlockKind.TEXT, raw))
            else:
                raise FormatError(f"a content block must be an object, got {type(raw).__name__}")
        return blocks
    if type(content) is str:
        return [Block(BlockKind.TEXT, content)]
    if content is None:
        return []
    raise FormatError(f"content must be a string or a list, got {type(content).__name__}")


def anthropic_block(raw: Mapping[str, Any]) -> list[Block]:
    """One Anthropic content block (a tool result with images gives the result and its images)."""
    kind = raw.get("type")
    if kind == "text":
        text = raw.get("text")
        return [Block(BlockKind.TEXT, text if type(text) is str else get_str(raw, "text"))]
    if kind == "thinking":
        return [Block(BlockKind.REASONING, get_str(raw, "thinking"))]
    if kind == "redacted_thinking":
        return [Block(BlockKind.REASONING, "")]
    if kind == "tool_use" or kind == "server_tool_use" or kind == "mcp_tool_use":
        tool_input = raw.get("input", {})
        return [
            Block(
                BlockKind.TOOL_CALL,
                tool_input if type(tool_input) is str else json_text(tool_input),
                get_str(raw, "id"),
                sys.intern(get_str(raw, "name")),  # a few names, repeated on every call
            )
        ]
    if type(kind) is str and kind.endswith("tool_result"):
        content = raw.get("content")
        call_id = raw.get("tool_use_id")
        result = Block(
            BlockKind.TOOL_RESULT,
            content if type(content) is str else text_of(content),
            call_id if type(call_id) is str else get_str(raw, "tool_use_id"),
            "",
            None,
            0,
            0,
            0,
            raw.get("is_error") is True,
        )
        if type(content) is list:
            images = [image_of(p) for p in content if type(p) is dict and p.get("type") == "image"]
            if images:
                return [result, *images]
        return [result]
    if kind == "image":
        return [image_of(raw)]
    if kind == "document":
        source = get_dict(raw, "source")
        data = source.get("data")
        if source.get("type") == "text" and isinstance(data, str):
            return [Block(BlockKind.TEXT, data)]
        return [image_block(data, opt_str(source, "media_type"))]
    # An unknown block still occupies the context: keep its JSON text so it is counted.
    return [Block(BlockKind.TEXT, json_text(raw))]


def image_of(raw: Mapping[str, Any]) -> Block:
    """An Anthropic ``image`` block (base64 source, or a URL that is never opened)."""
    source = raw.get("source")
    if isinstance(source, dict) and source.get("type") == "base64":
        return image_block(source.get("data"), opt_str(source, "media_type"))
    return Block(BlockKind.ARTIFACT, artifact=ArtifactKind.IMAGE)


# -- usage -------------------------------------------------------------------------------------------


def anthropic_usage(raw: Any) -> Usage | None:
    """Usage of an Anthropic response: the prompt is input + cache creation + cache read tokens.

    Usage that is all zeros is no usage (None): models behind Claude Code that report none
    (``glm-4.7``) write zeros.

    Raises:
        FormatError: ``usage`` is present but not an object, or a count is not an integer.
    """
    if raw is None:
        return None
    if type(raw) is not dict:
        raise FormatError(f"field 'usage' must be an object, got {type(raw).__name__}")
    uncached = raw.get("input_tokens", 0)
    written = raw.get("cache_creation_input_tokens", 0)
    read = raw.get("cache_read_input_tokens", 0)
    output = raw.get("output_tokens", 0)
    if not (
        type(uncached) is int
        and type(written) is int
        and type(read) is int
        and type(output) is int
        and uncached >= 0
        and written >= 0
        and read >= 0
        and output >= 0
    ):  # the exact rule and its error, field by field
        uncached = get_int(raw, "input_tokens")
        written = get_int(raw, "cache_creation_input_tokens")
        read = get_int(raw, "cache_read_input_tokens")
        output = get_int(raw, "output_tokens")
    uncached, written, read, output = map(clamp_count, (uncached, written, read, output))
    if not (uncached or written or read or output):
        return None  # all zeros: a provider that reports no usage, not a call of zero tokens
    return Usage(uncached + written + read, read, written, output)


def openai_usage(raw: Any) -> Usage | None:
    """Usage of an OpenAI chat-completions or Responses call (``prompt_tokens`` or ``input_tokens``)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise FormatError(f"field 'usage' must be an object, got {type(raw).__name__}")
    if "prompt_tokens" in raw:
        details = get_dict(raw, "prompt_tokens_details")
        usage = Usage(
            get_int(raw, "prompt_tokens"),
            get_int(details, "cached_tokens"),
            0,
            get_int(raw, "completion_tokens"),
        )
    elif "input_tokens" in raw:
        details = get_dict(raw, "input_tokens_details")
        usage = Usage(
            get_int(raw, "input_tokens"), get_int(details, "cached_tokens"), 0, get_int(raw, "output_tokens")
        )
    else:
        return None
    return usage if usage.prompt_tokens or usage.output_tokens else None  # all zeros: no usage
