"""OpenHands event histories with per-call usage.

Format ``openhands`` reads evaluation output (JSONL, one instance per line, each instance its own
scope named by ``instance_id``) and, as a document, one instance object or a bare list of events.

In a history:

* the ``system`` action is the system prompt; its ``tools`` are stored as a system message of tool
  definitions (they are sent with every call);
* a user ``message`` action is a user message; a ``recall`` observation (workspace context the
  agent injects) is a meta user message;
* an agent action with ``tool_call_metadata`` is a model call: the response (``model_response``,
  deduplicated by its id, so parallel tool calls of one response are one call) gives the
  assistant text, the tool calls and the usage (``prompt_tokens``, cached tokens from
  ``prompt_tokens_details``); an agent action without it (a plain message) is a call without
  usage;
* an observation answering a tool call is its tool result; other observations (errors without a
  call) are user messages; ``agent_state_changed`` and ``null`` observations are not context;
* a ``condensation`` action is an observed compaction with its summary.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..logformat import FormatError
from ..model import MAIN_SCOPE, Block, BlockKind, Category, ObservedCompaction, ScopeHeader
from ..session import Session
from ._common import get_dict, get_list, get_str, json_text, openai_usage, opt_str, text_of
from .base import Source

FORMAT: Final = "openhands"

NOT_CONTEXT: Final = frozenset({"agent_state_changed", "null", "change_agent_state", "recall"})
"""Actions and observations that never reach the model (recall actions: their observation does)."""


def detect_line(obj: Mapping[str, Any]) -> bool:
    return isinstance(obj.get("history"), list) and ("instance_id" in obj or "metrics" in obj)


def is_event(obj: Any) -> bool:
    return isinstance(obj, dict) and "source" in obj and ("action" in obj or "observation" in obj)


def detect_document(doc: Any) -> bool:
    if isinstance(doc, dict):
        return detect_line(doc)
    return isinstance(doc, list) and bool(doc) and is_event(doc[0])


def joined_text(event: Mapping[str, Any]) -> str | None:
    """The one text this adapter joins from several values of an event: a ``recall``
    observation's content and its extras (None for any other object). Read-back of elided text
    (:mod:`~ctxscope.core.fulltext`) joins them again to find the whole text."""
    if event.get("observation") != "recall":
        return None
    return text_of(event.get("content")) + "\n" + json_text(event.get("extras"))


class HistoryReader:
    """Reads one OpenHands event history into one scope."""

    def __init__(self, session: Session, scope_id: str, line: int = 0) -> None:
        self.session = session
        self.scope_id = scope_id
        self.line = line
        self.responses: set[str] = set()

    def read(self, events: list[Any]) -> None:
        for position, event in enumerate(events, 1):
            try:
                if not isinstance(event, dict):
                    raise FormatError(f"an event must be an object, got {type(event).__name__}")
                self.event(event)
            except FormatError as exc:
                self.session.problems.add("wrong_type", self.line, f"{self.scope_id} event {position}: {exc}")

    def add(self, role: Any, blocks: list[Block], **kwargs: Any) -> None:
        self.session.add_message(role, blocks, scope_id=self.scope_id, line=self.line, **kwargs)

    def event(self, event: Mapping[str, Any]) -> None:
        action = event.get("action")
        observation = event.get("observation")
        if isinstance(action, str):
            self.action(event, action)
        elif isinstance(observation, str):
            self.observation(event, observation)
        else:
            raise FormatError("event without an action or observation")

    def action(self, event: Mapping[str, Any], action: str) -> None:
        args = get_dict(event, "args")
        source = event.get("source")
        if action == "system":
            self.add("system", [Block(BlockKind.TEXT, text_of(args.get("content")))])
            tools = args.get("tools")
            if isinstance(tools, list) and tools:
                self.add(
                    "system",
                    [Block(BlockKind.TEXT, json_text(tools))],
                    category_hint=Category.TOOL_DEFINITIONS,
                )
            return
        if action in NOT_CONTEXT:
            self.session.ignored[f"action:{action}"] += 1
            return
        if action == "condensation":
            self.condensation(args)
            return
        metadata = event.get("tool_call_metadata")
        if source == "agent" and isinstance(metadata, dict):
            self.tool_action(event, args, metadata)
        elif source == "agent":
            self.session.add_request(
                scope_id=self.scope_id, line=self.line, timestamp=opt_str(event, "timestamp")
            )
            self.add(
                "assistant",
                [Block(BlockKind.TEXT, text_of(args.get("content")) or opt_str(event, "message"))],
            )
        elif action == "message":
            self.add(
                "user", [Block(BlockKind.TEXT, text_of(args.get("content")) or opt_str(event, "message"))]
            )
        else:
            self.session.ignored[f"action:{action[:40]}"] += 1

    def tool_action(
        self, event: Mapping[str, Any], args: Mapping[str, Any], metadata: Mapping[str, Any]
    ) -> None:
        response = get_dict(metadata, "model_response")
        response_id = opt_str(response, "id") or f"{self.line}:{opt_str(metadata, 'tool_call_id')}"
        if response_id in self.responses:
            return
        self.responses.add(response_id)
        choices = get_list(response, "choices")
        message = choices[0].get("message") if choices and isinstance(choices[0], dict) else None
        blocks: list[Block] = []
        if isinstance(message, dict):
            text = text_of(message.get("content"))
            if text:
                blocks.append(Block(BlockKind.TEXT, text))
            for call in get_list(message, "tool_calls"):
                if not isinstance(call, dict):
                    continue
                function = get_dict(call, "function")
                blocks.append(
                    Block(
                        BlockKind.TOOL_CALL,
                        json_text(function.get("arguments", "")),
                        call_id=opt_str(call, "id"),
                        name=opt_str(function, "name"),
                    )
                )
        if not any(b.kind is BlockKind.TOOL_CALL for b in blocks):
            thought = opt_str(args, "thought")
            if thought and not blocks:
                blocks.append(Block(BlockKind.TEXT, thought))
            plain = {k: v for k, v in args.items() if k != "thought"}
            blocks.append(
                Block(
                    BlockKind.TOOL_CALL,
                    json_text(plain),
                    call_id=get_str(metadata, "tool_call_id"),
                    name=get_str(metadata, "function_name"),
                )
            )
        self.session.add_request(
            scope_id=self.scope_id,
            model=opt_str(response, "model"),
            usage=openai_usage(response.get("usage")),
            request_id=opt_str(response, "id"),
            line=self.line,
            timestamp=opt_str(event, "timestamp"),
        )
        self.add("assistant", blocks)

    def observation(self, event: Mapping[str, Any], observation: str) -> None:
        if observation in NOT_CONTEXT - {"recall"}:
            self.session.ignored[f"observation:{observation}"] += 1
            return
        joined = joined_text(event)
        if joined is not None:
            self.add("user", [Block(BlockKind.TEXT, joined)], meta=True)
            return
        content = text_of(event.get("content"))
        metadata = event.get("tool_call_metadata")
        if isinstance(metadata, dict):
            block = Block(
                BlockKind.TOOL_RESULT,
                content,
                call_id=get_str(metadata, "tool_call_id"),
                name=opt_str(metadata, "function_name"),
                is_error=observation == "error",
            )
            self.add("tool", [block])
        else:
            self.add("user", [Block(BlockKind.TEXT, content)], meta=True)

    def condensation(self, args: Mapping[str, Any]) -> None:
        scope = self.session.scope(self.scope_id)
        before = next((r.usage.prompt_tokens for r in reversed(scope.requests) if r.usage), None)
        summary = opt_str(args, "summary")
        self.session.add_compaction(
            ObservedCompaction(
                self.scope_id, len(scope.messages), tokens_before=before, summary=summary, line=self.line
            )
        )
        if summary:
            self.add("user", [Block(BlockKind.SUMMARY, summary)])


def read_instance(session: Session, obj: Mapping[str, Any], line: int, scope_id: str | None = None) -> None:
    history = obj.get("history")
    if not isinstance(history, list):
        raise FormatError("field 'history' must be a list")
    instance = opt_str(obj, "instance_id") or str(obj.get("instance_id") or "")
    scope_id = scope_id or instance[:80] or f"instance-{line}"
    while scope_id in session.scopes and session.scopes[scope_id].messages:
        scope_id += "'"
    llm = get_dict(get_dict(obj, "metadata"), "llm_config")
    session.set_header(ScopeHeader(scope_id, model=opt_str(llm, "model"), label=instance, line=line))
    session.scope(scope_id).source = session.source
    HistoryReader(session, scope_id, line).read(history)


class OpenHandsLinesAdapter:
    """Evaluation output: one instance per line, each its own scope."""

    def __init__(self, session: Session, source: Source) -> None:
        self.session = session
        self.source = source

    def feed(self, obj: dict[str, Any], line: int) -> None:
        read_instance(self.session, obj, line)

    def finish(self) -> None:
        return None


def read_document(session: Session, doc: Any) -> None:
    if isinstance(doc, dict):
        read_instance(session, doc, 0)
    elif isinstance(doc, list):
        session.set_header(ScopeHeader(MAIN_SCOPE))
        HistoryReader(session, MAIN_SCOPE).read(doc)
    else:
        raise FormatError("expected an instance object or a list of events")


def make_adapter(session: Session, source: Source) -> OpenHandsLinesAdapter:
    return OpenHandsLinesAdapter(session, source)
