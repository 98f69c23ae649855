"""ctxscope's own session log format (version 1): a writer for agents and a parser into a Session.

One JSON object per line; ``docs/session-log.md`` documents every field with a complete example.
Every line has ``"t"`` (the event type) and may have ``"scope"`` (default ``"main"``) and ``"ts"``
(ISO-8601). Event types:

* ``session`` — a scope header: ``session_id``, ``parent``, ``model``, ``context_limit``,
  ``budget``, ``label``; the first line of a log also carries ``"v": 1``.
* ``message`` — ``role`` and ``content`` (a string, or a list of blocks: ``text``, ``reasoning``,
  ``tool_call`` {id, name, input}, ``tool_result`` {id, content, name?, is_error?}, ``artifact``
  {kind, content?, bytes?, width?, height?}, ``summary`` {text}); optional ``meta``.
* ``request`` — a model call over every message of the scope so far: ``model``, ``usage``
  {prompt_tokens, cached_prompt_tokens, cache_write_tokens, output_tokens} and/or ``error``
  {kind, message}, ``id``.
* ``compaction`` — a compaction the agent reports about itself: ``stage``, ``trigger``,
  ``tokens_before``, ``tokens_after``, ``summary``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import IO, Any, Final

import orjson

from .model import (
    MAIN_SCOPE,
    ROLES,
    ArtifactKind,
    Block,
    BlockKind,
    ErrorKind,
    Message,
    ObservedCompaction,
    RequestError,
    Role,
    ScopeHeader,
    Usage,
)
from .session import Session

FORMAT_NAME: Final = "ctxscope"
FORMAT_VERSION: Final = 1
EVENT_TYPES: Final = frozenset({"session", "message", "request", "compaction"})


MAX_COUNT: Final = 10**12
"""A count read from a log (tokens, bytes, a context window) is clamped to this: a trillion is past
any real figure, and sums over a million requests still fit the 64-bit arrays that hold them
(a hostile ``prompt_tokens`` of ``2**64`` must not overflow them)."""


def clamp_count(value: int) -> int:
    """A non-negative count from a log, clamped to :data:`MAX_COUNT`."""
    return value if value <= MAX_COUNT else MAX_COUNT


class FormatError(ValueError):
    """A line that is JSON but not a valid ctxscope event; the reason is one safe line."""


def looks_like_ctxscope(obj: Mapping[str, Any]) -> bool:
    """True when a decoded line is a ctxscope event (used by format detection)."""
    return obj.get("t") in EVENT_TYPES


def is_request_line(line: bytes) -> bool:
    """True when one line of a log is a ctxscope ``request`` event (a model call)."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and obj.get("t") == "request"


def split_at_requests(log: bytes) -> list[bytes]:
    """Cut a ctxscope-format log into steps: every line up to and including each model call.

    Lines after the last model call (a closing message) join the last step, so that there is one
    step per model call; a log with no model call is one step. ``b"".join`` of the steps is ``log``.
    """
    steps: list[bytes] = []
    current: list[bytes] = []
    for line in log.splitlines(keepends=True):
        current.append(line)
        if is_request_line(line):
            steps.append(b"".join(current))
            current = []
    if current:
        if steps:
            steps[-1] += b"".join(current)
        else:
            steps.append(b"".join(current))
    return steps


# -- parsing ---------------------------------------------------------------------------------------


def _str(obj: Mapping[str, Any], key: str, default: str = "") -> str:
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise FormatError(f"field {key!r} must be a string, got {type(value).__name__}")
    return value


def _int(obj: Mapping[str, Any], key: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FormatError(f"field {key!r} must be a non-negative integer")
    return clamp_count(value)


def _json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError as exc:
        raise FormatError(f"unserialisable tool input: {exc}") from None


def parse_block(raw: Any) -> Block:
    """One content block from its JSON form."""
    if isinstance(raw, str):
        return Block(BlockKind.TEXT, raw)
    if not isinstance(raw, dict):
        raise FormatError("a content block must be an object or a string")
    kind = raw.get("type")
    if kind in ("text", "reasoning", "summary"):
        return Block(BlockKind(kind), _str(raw, "text"))
    if kind == "tool_call":
        return Block(
            BlockKind.TOOL_CALL, _json_text(raw.get("input", {})), call_id=_str(raw, "id"),
            name=_str(raw, "name"),
        )
    if kind == "tool_result":
        content = raw.get("content", "")
        return Block(
            BlockKind.TOOL_RESULT,
            content if isinstance(content, str) else _json_text(content),
            call_id=_str(raw, "id"),
            name=_str(raw, "name"),
            is_error=bool(raw.get("is_error", False)),
        )
    if kind == "artifact":
        try:
            artifact = ArtifactKind(_str(raw, "kind"))
        except ValueError:
            raise FormatError(f"unknown artifact kind {str(raw.get('kind'))[:40]!r}") from None
        return Block(
            BlockKind.ARTIFACT,
            _str(raw, "content"),
            artifact=artifact,
            size_bytes=_int(raw, "bytes") or 0,
            width=_int(raw, "width") or 0,
            height=_int(raw, "height") or 0,
        )
    raise FormatError(f"unknown block type {str(kind)[:40]!r}")


def apply_event(session: Session, obj: Mapping[str, Any], line: int = 0) -> None:
    """Apply one decoded ctxscope event to a session.

    Raises:
        FormatError: The object is not a valid event (the caller counts it and reads on).
    """
    kind = obj.get("t")
    scope_id = _str(obj, "scope", MAIN_SCOPE) or MAIN_SCOPE
    if kind == "message":
        role = obj.get("role")
        if role not in ROLES:
            raise FormatError(f"unknown role {str(role)[:20]!r}")
        content = obj.get("content", "")
        raw_blocks = [content] if isinstance(content, str) else content
        if not isinstance(raw_blocks, list):
            raise FormatError("content must be a string or a list of blocks")
        session.add_message(
            _role(role), [parse_block(b) for b in raw_blocks], scope_id=scope_id,
            meta=bool(obj.get("meta", False)), line=line,
        )
    elif kind == "request":
        session.add_request(
            scope_id=scope_id, model=_str(obj, "model"), usage=_usage(obj.get("usage")),
            error=_error(obj.get("error")), request_id=_str(obj, "id"), line=line,
            timestamp=_str(obj, "ts"),
        )
    elif kind == "session":
        parent = obj.get("parent")
        session.set_header(
            ScopeHeader(
                scope_id, _str(obj, "session_id"), parent if isinstance(parent, str) else None,
                _str(obj, "model"), _int(obj, "context_limit"), _int(obj, "budget"),
                _str(obj, "label"), line,
            )
        )
    elif kind == "compaction":
        session.add_compaction(
            ObservedCompaction(
                scope_id, len(session.scope(scope_id).messages), _str(obj, "stage", "summarize"),
                _str(obj, "trigger"), _int(obj, "tokens_before"), _int(obj, "tokens_after"),
                _str(obj, "summary"), line,
            )
        )
    else:
        raise FormatError(f"unknown event type {str(kind)[:40]!r}")


def _role(value: str) -> Role:
    for role in ROLES:
        if role == value:
            return role
    raise FormatError(f"unknown role {value[:20]!r}")


def _usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise FormatError("usage must be an object")
    prompt = _int(raw, "prompt_tokens")
    if prompt is None:
        raise FormatError("usage needs prompt_tokens")
    return Usage(
        prompt, _int(raw, "cached_prompt_tokens") or 0, _int(raw, "cache_write_tokens") or 0,
        _int(raw, "output_tokens") or 0,
    )


def _error(raw: Any) -> RequestError | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise FormatError("error must be an object")
    try:
        kind = ErrorKind(_str(raw, "kind", "other"))
    except ValueError:
        kind = ErrorKind.OTHER
    return RequestError(kind, _str(raw, "message"))


# -- writing ---------------------------------------------------------------------------------------


def block_json(block: Block) -> dict[str, Any]:
    """The JSON form of a block (the inverse of :func:`parse_block`)."""
    if block.kind in (BlockKind.TEXT, BlockKind.REASONING, BlockKind.SUMMARY):
        return {"type": block.kind.value, "text": block.text}
    if block.kind is BlockKind.TOOL_CALL:
        try:
            tool_input: Any = orjson.loads(block.text) if block.text else {}
        except orjson.JSONDecodeError:
            tool_input = block.text
        return {"type": "tool_call", "id": block.call_id, "name": block.name, "input": tool_input}
    if block.kind is BlockKind.TOOL_RESULT:
        out: dict[str, Any] = {"type": "tool_result", "id": block.call_id, "content": block.text}
        if block.name:
            out["name"] = block.name
        if block.is_error:
            out["is_error"] = True
        return out
    assert block.artifact is not None
    art: dict[str, Any] = {"type": "artifact", "kind": block.artifact.value}
    if block.text:
        art["content"] = block.text
    for key, value in (("bytes", block.size_bytes), ("width", block.width), ("height", block.height)):
        if value:
            art[key] = value
    return art


@dataclass
class SessionLogWriter:
    """Writes a ctxscope session log, one flushed line per event.

    An agent (or ctxscope's demo generator) uses it to record what it stores and sends::

        with SessionLogWriter.create("run.jsonl") as log:
            log.session(model="claude-opus-4-6", context_limit=1_000_000, budget=400_000)
            log.message("user", "Read the 40 chapters and summarise each.")
            log.request(usage=Usage(prompt_tokens=1_234))

    Args:
        stream: A binary file opened for writing or appending.
    """

    stream: IO[bytes]
    _first: bool = True

    @classmethod
    def create(cls, path: str | os.PathLike[str], append: bool = False) -> SessionLogWriter:
        return cls(open(path, "ab" if append else "wb"))

    def __enter__(self) -> SessionLogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.stream.close()

    def write(self, event: dict[str, Any]) -> None:
        """Write one raw event (already in the documented shape)."""
        if self._first:
            event = {"v": FORMAT_VERSION, **event}
            self._first = False
        self.stream.write(orjson.dumps(event) + b"\n")
        self.stream.flush()

    def session(
        self,
        *,
        scope: str = MAIN_SCOPE,
        session_id: str = "",
        parent: str | None = None,
        model: str = "",
        context_limit: int | None = None,
        budget: int | None = None,
        label: str = "",
    ) -> None:
        event: dict[str, Any] = {"t": "session", "scope": scope}
        for key, value in (
            ("session_id", session_id), ("parent", parent), ("model", model),
            ("context_limit", context_limit), ("budget", budget), ("label", label),
        ):
            if value:
                event[key] = value
        self.write(event)

    def message(
        self, role: Role, content: str | Iterable[Block], *, scope: str = MAIN_SCOPE, meta: bool = False
    ) -> None:
        event: dict[str, Any] = {"t": "message", "scope": scope, "role": role}
        event["content"] = content if isinstance(content, str) else [block_json(b) for b in content]
        if meta:
            event["meta"] = True
        self.write(event)

    def write_message(self, message: Message) -> None:
        self.message(message.role, message.blocks, scope=message.scope_id, meta=message.meta)

    def request(
        self,
        *,
        scope: str = MAIN_SCOPE,
        model: str = "",
        usage: Usage | None = None,
        error: RequestError | None = None,
        request_id: str = "",
    ) -> None:
        event: dict[str, Any] = {"t": "request", "scope": scope}
        if model:
            event["model"] = model
        if request_id:
            event["id"] = request_id
        if usage is not None:
            event["usage"] = {
                "prompt_tokens": usage.prompt_tokens,
                "cached_prompt_tokens": usage.cached_prompt_tokens,
                "cache_write_tokens": usage.cache_write_tokens,
                "output_tokens": usage.output_tokens,
            }
        if error is not None:
            event["error"] = {"kind": error.kind.value, "message": error.message}
        self.write(event)

    def compaction(
        self,
        *,
        scope: str = MAIN_SCOPE,
        stage: str = "summarize",
        trigger: str = "auto",
        tokens_before: int | None = None,
        tokens_after: int | None = None,
        summary: str = "",
    ) -> None:
        event: dict[str, Any] = {"t": "compaction", "scope": scope, "stage": stage, "trigger": trigger}
        if tokens_before is not None:
            event["tokens_before"] = tokens_before
        if tokens_after is not None:
            event["tokens_after"] = tokens_after
        if summary:
            event["summary"] = summary
        self.write(event)
