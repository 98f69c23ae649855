"""Claude Agent SDK / ``claude -p --output-format stream-json --verbose`` streams.

The same message payloads as a Claude Code transcript in another envelope (no ``parentUuid``,
``timestamp`` or ``cwd``; ``session_id`` in snake case), read by the same rules
(:class:`~ctxscope.core.adapters.claude_code.TranscriptAdapter`): responses split one block per
line are deduplicated by ``message.id``, a call's prompt is input + cache creation + cache read
tokens.

* ``system``/``init`` gives the session id and model; ``system``/``compact_boundary`` with
  ``compact_metadata{trigger, pre_tokens, post_tokens?, duration_ms?}`` (snake case here) is an
  observed compaction, read like Claude Code's.
* Lines with a ``parent_tool_use_id`` belong to the sub-agent started by that ``Task`` tool call:
  each becomes a scope ``task-<tool_use_id>`` whose first message is the Task's prompt (the
  stream does not repeat it).
* The final ``result`` line (cumulative totals) and ``stream_event`` partials are not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..model import MAIN_SCOPE, Block, BlockKind, ScopeHeader
from ..session import Session
from ._common import get_dict, opt_int, opt_str, text_of
from .base import Source
from .claude_code import TranscriptAdapter, _PendingCompaction

FORMAT: Final = "claude-sdk"

SDK_TYPES: Final = frozenset({"system", "assistant", "user", "result", "stream_event"})
TASK_TOOLS: Final = frozenset({"Task", "Agent"})


def detect(obj: Mapping[str, Any]) -> bool:
    return obj.get("type") in SDK_TYPES and "session_id" in obj and "sessionId" not in obj


class ClaudeSdkAdapter(TranscriptAdapter):
    format_name = FORMAT

    def __init__(self, session: Session, source: Source) -> None:
        super().__init__(session, source)
        self.tasks: dict[str, tuple[str, str]] = {}
        """Task tool calls of the main agent: call id → (description, prompt)."""

    def route(self, obj: Mapping[str, Any]) -> str:
        parent = obj.get("parent_tool_use_id")
        if not isinstance(parent, str) or not parent:
            return self.source.default_scope
        scope_id = f"task-{parent}"
        if scope_id not in self.states:
            description, prompt = self.tasks.get(parent, ("", ""))
            self.open_scope(scope_id, parent_id=self.source.default_scope, label=description[:80])
            if prompt:
                self.session.add_message("user", [Block(BlockKind.TEXT, prompt)], scope_id=scope_id)
        return scope_id

    def assistant(self, scope_id: str, obj: Mapping[str, Any], message: Mapping[str, Any], line: int) -> None:
        super().assistant(scope_id, obj, message, line)
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if (
                    isinstance(block, dict)
                    and block.get("type") == "tool_use"
                    and block.get("name") in TASK_TOOLS
                ):
                    tool_input = block.get("input")
                    call_id = block.get("id")
                    if isinstance(tool_input, dict) and isinstance(call_id, str):
                        self.tasks[call_id] = (
                            opt_str(tool_input, "description"),
                            text_of(tool_input.get("prompt")),
                        )

    def system(self, obj: Mapping[str, Any], line: int) -> None:
        if obj.get("subtype") == "init":
            session_id = opt_str(obj, "session_id")
            self.note_session(session_id, MAIN_SCOPE)
            header = self.session.scope(self.source.default_scope).header
            self.session.set_header(
                ScopeHeader(
                    header.scope_id,
                    session_id or header.session_id,
                    header.parent_id,
                    opt_str(obj, "model") or header.model,
                    header.context_limit,
                    header.working_budget,
                    header.label,
                    line,
                )
            )
            self.session.scope(self.source.default_scope).source = self.source.path
            return
        super().system(obj, line)

    def compaction_of(self, obj: Mapping[str, Any]) -> _PendingCompaction | None:
        if obj.get("subtype") != "compact_boundary":
            return None
        meta = get_dict(obj, "compact_metadata")
        return _PendingCompaction(
            opt_str(meta, "trigger"),
            opt_int(meta, "pre_tokens"),
            0,
            tokens_after=opt_int(meta, "post_tokens"),
            duration_ms=opt_int(meta, "duration_ms"),
        )

    def feed(self, obj: dict[str, Any], line: int) -> None:
        kind = obj.get("type")
        if kind in ("result", "stream_event"):
            self.session.ignored[str(kind)] += 1
            return
        super().feed(obj, line)


def make_adapter(session: Session, source: Source) -> ClaudeSdkAdapter:
    return ClaudeSdkAdapter(session, source)
