"""OpenAI Codex CLI logs: session rollouts and ``codex exec --json`` streams.

**Rollouts** (``~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl``, format ``codex-rollout``):
every line is ``{timestamp, type, payload}``.

* ``response_item`` payloads are what the model sees: ``message`` (user, assistant, developer),
  ``reasoning`` (its summary text), ``function_call``/``custom_tool_call``/``local_shell_call``/
  ``web_search_call`` and their outputs. The output items of one call (reasoning, message, tool
  calls) are stored as one assistant message; each tool output is a ``tool`` message.
  ``ghost_snapshot`` (a git snapshot) is not context.
* ``event_msg``/``token_count`` marks a model call over everything stored before it, with
  ``info.last_token_usage`` as its usage (``input_tokens`` already includes the cached part).
  Heartbeats (``info: null``) are skipped; a count repeating the previous one (0.58+ writes each
  twice) is a duplicate; the zeroed count written at a compaction is an artefact and skipped.
  ``model_context_window`` is the scope's context limit and each call's ``context_window``.
* ``compacted`` (``message`` = the summary, ``replacement_history`` = the items that replace the
  history) is an observed compaction; the replacement history becomes the live context (stored
  after the compaction point: the item holding the summary, or the opaque ``compaction`` item,
  is its ``summary_index``, the others are ``kept_indices``). Its tokens before are the last
  call's prompt, its tokens after the next call's. ``event_msg``/``context_compacted`` only
  confirms it.
* ``event_msg``/``thread_rolled_back`` (``num_turns``) takes the last user turns out of the live
  context (:class:`~ctxscope.core.model.ObservedRollback`).
* A forked or sub-agent rollout (``session_meta.forked_from_id``, or
  ``source.subagent.thread_spawn.parent_thread_id``) is a sub-agent scope whose parent is that
  thread. It starts by replaying the parent's history, every line stamped within
  :data:`FORK_REPLAY_SECONDS` of the fork (and the parent's own ``session_meta``): those
  messages are stored (they are the fork's context) but the replayed ``token_count`` events are
  the parent's calls, not the fork's (:attr:`Scope.replayed_calls`).
* ``turn_context`` gives the model of the next calls. Other ``event_msg`` payloads repeat
  response items for the UI and are not read (no double counting).

**exec --json** streams (format ``codex-exec``): items (``command_execution``, ``file_change``,
``todo_list``, ``mcp_tool_call``, ``web_search``, ``agent_message``, ``reasoning``) become tool
calls, tool results and assistant messages, deduplicated by item id (a command's call when it
starts, its result when it completes). ``turn.completed`` usage is cumulative over all calls of a
turn and no prompt text is logged, so these sessions have no per-call usage: they replay tool
volume only, and keep each turn's usage as reported (:attr:`Scope.turn_usage`, never a
request's figure).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..logformat import FormatError
from ..model import Block, BlockKind, ObservedCompaction, Role, Usage
from ..session import Session
from ._common import get_dict, get_int, get_list, get_str, json_text, opt_int, opt_str, text_of
from .base import Source, UnknownEventError

ROLLOUT_FORMAT: Final = "codex-rollout"
EXEC_FORMAT: Final = "codex-exec"

ROLLOUT_TYPES: Final = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
CONTEXT_TAGS: Final = ("<environment_context>", "<user_instructions>", "<permissions instructions>")
"""User messages Codex injects (not typed by a person): stored as meta messages."""

CALL_ITEMS: Final = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
OUTPUT_ITEMS: Final = frozenset(
    {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}
)
SUMMARY_ITEMS: Final = frozenset({"compaction", "compaction_summary"})
"""Replacement-history items that hold the summary itself (encrypted: opaque to ctxscope)."""

FORK_REPLAY_SECONDS: Final = 1.0
"""A forked rollout's lines stamped within this many seconds of its first ``session_meta`` are
the parent's history replayed (Codex writes them in one burst at the fork)."""

ROLES: Final[dict[str, Role]] = {
    "user": "user",
    "assistant": "assistant",
    "developer": "system",
    "system": "system",
}


def detect_rollout(obj: Mapping[str, Any]) -> bool:
    return obj.get("type") in ROLLOUT_TYPES and "payload" in obj


def detect_exec(obj: Mapping[str, Any]) -> bool:
    kind = obj.get("type")
    return isinstance(kind, str) and kind.partition(".")[0] in ("thread", "turn", "item") and "." in kind


class CodexRolloutAdapter:
    def __init__(self, session: Session, source: Source) -> None:
        self.session = session
        self.scope_id = source.default_scope
        self.model = ""
        self.last_key: tuple[Any, ...] | None = None
        self.output_open = False
        """The scope's last message holds the current call's output (later output items join it)."""
        self.compacted_pending = False
        self.metas = 0
        self.fork_instant: datetime | None = None
        """While a fork's replay of its parent is being read: when the fork was made."""

    def inherited(self, timestamp: str) -> bool:
        """The line is part of a fork's replay of its parent's history (see
        :data:`FORK_REPLAY_SECONDS`); the first line after the replay ends it for good."""
        if self.fork_instant is None:
            return False
        stamp = _parse_time(timestamp)
        if stamp is not None and abs((stamp - self.fork_instant).total_seconds()) <= FORK_REPLAY_SECONDS:
            return True
        self.fork_instant = None
        return False

    def feed(self, obj: dict[str, Any], line: int) -> None:
        kind = obj.get("type")
        payload = get_dict(obj, "payload", required=True)
        if kind == "response_item":
            self.item(payload, line)
        elif kind == "event_msg":
            self.event(payload, line, opt_str(obj, "timestamp"))
        elif kind == "turn_context":
            self.model = opt_str(payload, "model") or self.model
            self.set_header(model=self.model)
        elif kind == "session_meta":
            self.meta(payload, line, opt_str(obj, "timestamp"))
        elif kind == "compacted":
            self.compacted(payload, line, opt_str(obj, "timestamp"))
        else:
            raise UnknownEventError(kind)

    def set_header(self, *, model: str = "", limit: int | None = None, session_id: str = "") -> None:
        header = self.session.scope(self.scope_id).header
        changes: dict[str, Any] = {}
        if model and not header.model:
            changes["model"] = model
        if limit and header.context_limit is None:
            changes["context_limit"] = limit
        if session_id and not header.session_id:
            changes["session_id"] = session_id
        if changes:
            self.session.set_header(dataclasses.replace(header, **changes))

    def meta(self, payload: Mapping[str, Any], line: int, timestamp: str) -> None:
        self.metas += 1
        if self.metas > 1:
            # A fork's copy of its parent's header (or a resumed rollout's repeat): not context.
            self.session.ignored["session_meta(repeated)"] += 1
            return
        self.set_header(session_id=opt_str(payload, "id"))
        parent = fork_parent(payload)
        if parent:
            header = self.session.scope(self.scope_id).header
            self.session.set_header(
                dataclasses.replace(header, parent_id=parent, label=header.label or "forked sub-agent")
            )
            self.fork_instant = _parse_time(timestamp)
        for key in ("base_instructions", "instructions"):
            value = payload.get(key)
            text = value if isinstance(value, str) else text_of(value) if isinstance(value, dict) else ""
            if text:
                self.session.add_message(
                    "system", [Block(BlockKind.TEXT, text)], scope_id=self.scope_id, line=line
                )
                break

    # -- response items -----------------------------------------------------------------------------

    def item(self, payload: Mapping[str, Any], line: int, summary: str = "") -> None:
        kind = payload.get("type")
        if kind == "message":
            role = ROLES.get(get_str(payload, "role"))
            if role is None:
                raise FormatError(f"unknown message role {str(payload.get('role'))[:20]!r}")
            text = text_of(get_list(payload, "content"))
            if role == "assistant":
                self.output([Block(BlockKind.TEXT, text)], line)
                return
            if summary and summary in text:
                blocks = [Block(BlockKind.SUMMARY, text)]
            else:
                blocks = [Block(BlockKind.TEXT, text)]
            meta = role == "user" and text.lstrip().startswith(CONTEXT_TAGS)
            self.store(role, blocks, line, meta=meta)
        elif kind == "reasoning":
            parts = [text_of(get_list(payload, "summary"))]
            content = payload.get("content")
            if isinstance(content, list):
                parts.append(text_of(content))
            self.output([Block(BlockKind.REASONING, "\n".join(p for p in parts if p))], line)
        elif kind in CALL_ITEMS:
            self.output([self.call_block(payload, str(kind))], line)
        elif kind in OUTPUT_ITEMS:
            output = payload.get("output")
            text = output if isinstance(output, str) else text_of(output)
            block = Block(BlockKind.TOOL_RESULT, text, call_id=get_str(payload, "call_id"))
            self.store("tool", [block], line)
        elif kind in SUMMARY_ITEMS:
            self.store("user", [Block(BlockKind.SUMMARY, opt_str(payload, "summary"))], line)
        else:
            self.session.ignored[f"response_item:{str(kind)[:40]}"] += 1

    @staticmethod
    def call_block(payload: Mapping[str, Any], kind: str) -> Block:
        call_id = opt_str(payload, "call_id") or opt_str(payload, "id")
        if kind == "function_call":
            return Block(
                BlockKind.TOOL_CALL,
                json_text(payload.get("arguments", "")),
                call_id=call_id,
                name=get_str(payload, "name"),
            )
        if kind == "custom_tool_call":
            return Block(
                BlockKind.TOOL_CALL,
                json_text(payload.get("input", "")),
                call_id=call_id,
                name=get_str(payload, "name"),
            )
        if kind == "local_shell_call":
            return Block(
                BlockKind.TOOL_CALL, json_text(payload.get("action", {})), call_id=call_id, name="local_shell"
            )
        return Block(
            BlockKind.TOOL_CALL, json_text(payload.get("action", {})), call_id=call_id, name="web_search"
        )

    def output(self, blocks: list[Block], line: int) -> None:
        if self.output_open:
            self.session.amend_last_message(self.scope_id, blocks)
        else:
            self.session.add_message("assistant", blocks, scope_id=self.scope_id, line=line)
            self.output_open = True

    def store(self, role: Role, blocks: list[Block], line: int, *, meta: bool = False) -> None:
        self.session.add_message(role, blocks, scope_id=self.scope_id, line=line, meta=meta)
        self.output_open = False

    # -- events -------------------------------------------------------------------------------------

    def event(self, payload: Mapping[str, Any], line: int, timestamp: str) -> None:
        kind = payload.get("type")
        if kind == "token_count":
            self.token_count(payload, line, timestamp)
        elif kind == "thread_rolled_back":
            turns = get_int(payload, "num_turns")
            self.session.add_rollback(self.scope_id, turns, line=line, timestamp=timestamp)
            self.output_open = False
        elif kind == "context_compacted":
            if not self.compacted_pending:
                # A compaction without its ``compacted`` record (not seen in real logs so far).
                self.add_compaction("", line, timestamp)
            self.compacted_pending = False
        else:
            self.session.ignored[f"event_msg:{str(kind)[:40]}"] += 1

    def token_count(self, payload: Mapping[str, Any], line: int, timestamp: str) -> None:
        info = payload.get("info")
        if info is None:
            self.session.ignored["event_msg:token_count(no info)"] += 1
            return
        if not isinstance(info, dict):
            raise FormatError("token_count 'info' must be an object")
        last = get_dict(info, "last_token_usage")
        total = get_dict(info, "total_token_usage")
        prompt = get_int(last, "input_tokens")
        output = get_int(last, "output_tokens")
        window = opt_int(info, "model_context_window")
        self.set_header(limit=window)
        if prompt == 0:
            # The zeroed count written at a compaction (its total is meaningless): an artefact.
            self.session.ignored["event_msg:token_count(zeroed)"] += 1
            return
        key = (tuple(sorted(total.items())), tuple(sorted(last.items())))
        if key == self.last_key:
            self.session.ignored["event_msg:token_count(duplicate)"] += 1
            return
        self.last_key = key
        self.output_open = False
        if self.inherited(timestamp):
            self.session.scope(self.scope_id).replayed_calls += 1  # the parent's call, replayed
            return
        usage = Usage(prompt, get_int(last, "cached_input_tokens"), 0, output)
        self.session.add_request(
            scope_id=self.scope_id,
            model=self.model,
            usage=usage,
            line=line,
            timestamp=timestamp,
            context_window=window,
        )

    def compacted(self, payload: Mapping[str, Any], line: int, timestamp: str = "") -> None:
        summary = get_str(payload, "message")
        history = payload.get("replacement_history")
        compaction = self.add_compaction(summary, line, timestamp)
        self.compacted_pending = True
        self.output_open = False
        if isinstance(history, list) and history:
            for item in history:
                if isinstance(item, dict):
                    self.item(item, line, summary=summary)
            self.output_open = False
        elif summary:
            self.store("user", [Block(BlockKind.SUMMARY, summary)], line)
        messages = self.session.scope(self.scope_id).messages
        stored = range(compaction.message_count, len(messages))
        summary_index = next((i for i in stored if messages[i].is_summary), None)
        self.session.amend_compaction(
            self.scope_id,
            summary_index=summary_index,
            kept_indices=tuple(i for i in stored if i != summary_index),
        )

    def add_compaction(self, summary: str, line: int, timestamp: str = "") -> ObservedCompaction:
        """A compaction at this point; its tokens before are the last call's prompt (set by
        :meth:`Session.add_compaction`), its tokens after the next call's."""
        scope = self.session.scope(self.scope_id)
        return self.session.add_compaction(
            ObservedCompaction(
                self.scope_id, len(scope.messages), summary=summary, line=line, timestamp=timestamp
            )
        )

    def finish(self) -> None:
        return None


class CodexExecAdapter:
    def __init__(self, session: Session, source: Source) -> None:
        self.session = session
        self.scope_id = source.default_scope
        self.called: set[str] = set()
        self.done: set[str] = set()

    def feed(self, obj: dict[str, Any], line: int) -> None:
        kind = obj.get("type")
        if kind == "thread.started":
            thread = opt_str(obj, "thread_id")
            header = self.session.scope(self.scope_id).header
            if thread and not header.session_id:
                self.session.set_header(dataclasses.replace(header, session_id=thread))
                self.session.session_id = self.session.session_id or thread
        elif kind in ("item.started", "item.completed"):
            item = get_dict(obj, "item", required=True)
            self.item(item, line, completed=kind == "item.completed")
        elif kind == "turn.completed" and isinstance(obj.get("usage"), dict):
            usage = get_dict(obj, "usage", required=True)
            self.session.add_turn_usage(self.scope_id, Usage(
                prompt_tokens=opt_int(usage, "input_tokens") or 0,
                cached_prompt_tokens=opt_int(usage, "cached_input_tokens") or 0,
                output_tokens=opt_int(usage, "output_tokens") or 0,
            ))
        elif isinstance(kind, str) and detect_exec(obj):
            self.session.ignored[kind[:40]] += 1
        else:
            raise UnknownEventError(kind)

    def item(self, item: Mapping[str, Any], line: int, *, completed: bool) -> None:
        item_id = get_str(item, "id")
        kind = get_str(item, "type")
        if item_id in self.done:
            return
        if kind == "agent_message" or kind == "reasoning":
            if completed:
                block_kind = BlockKind.TEXT if kind == "agent_message" else BlockKind.REASONING
                self.session.add_message(
                    "assistant", [Block(block_kind, get_str(item, "text"))], scope_id=self.scope_id, line=line
                )
                self.done.add(item_id)
            return
        call = self.call_of(kind, item)
        if call is None:
            if completed:
                self.session.ignored[f"item:{kind[:40]}"] += 1
                self.done.add(item_id)
            return
        name, arguments, starts_early = call
        if item_id not in self.called and (starts_early or completed):
            self.called.add(item_id)
            self.session.add_message(
                "assistant",
                [Block(BlockKind.TOOL_CALL, arguments, call_id=item_id, name=name)],
                scope_id=self.scope_id,
                line=line,
            )
        if completed:
            self.done.add(item_id)
            self.called.discard(item_id)
            output, is_error = self.result_of(kind, item)
            self.session.add_message(
                "tool",
                [Block(BlockKind.TOOL_RESULT, output, call_id=item_id, name=name, is_error=is_error)],
                scope_id=self.scope_id,
                line=line,
            )

    @staticmethod
    def call_of(kind: str, item: Mapping[str, Any]) -> tuple[str, str, bool] | None:
        """(tool name, arguments, whether the call is stored when the item starts)."""
        if kind == "command_execution":
            return "shell", get_str(item, "command"), True
        if kind == "mcp_tool_call":
            name = f"{opt_str(item, 'server')}.{opt_str(item, 'tool')}".strip(".")
            return name or "mcp", json_text(item.get("arguments", {})), True
        if kind == "web_search":
            return "web_search", get_str(item, "query"), True
        if kind == "file_change":
            return "apply_patch", json_text(item.get("changes", [])), False
        if kind == "todo_list":
            return "update_plan", json_text(item.get("items", [])), False
        return None

    @staticmethod
    def result_of(kind: str, item: Mapping[str, Any]) -> tuple[str, bool]:
        if kind == "command_execution":
            code = item.get("exit_code")
            failed = isinstance(code, int) and not isinstance(code, bool) and code != 0
            return get_str(item, "aggregated_output"), failed
        if kind == "mcp_tool_call":
            return json_text(item.get("result") or item.get("error") or ""), item.get("error") is not None
        return opt_str(item, "status"), item.get("status") == "failed"

    def finish(self) -> None:
        return None


def fork_parent(payload: Mapping[str, Any]) -> str:
    """The thread a forked or sub-agent rollout came from ('' for a rollout of its own)."""
    forked = opt_str(payload, "forked_from_id")
    if forked:
        return forked
    source = payload.get("source")
    subagent = source.get("subagent") if isinstance(source, dict) else None
    spawn = subagent.get("thread_spawn") if isinstance(subagent, dict) else None
    return opt_str(spawn, "parent_thread_id") if isinstance(spawn, dict) else ""


def _parse_time(timestamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def make_rollout_adapter(session: Session, source: Source) -> CodexRolloutAdapter:
    return CodexRolloutAdapter(session, source)


def make_exec_adapter(session: Session, source: Source) -> CodexExecAdapter:
    return CodexExecAdapter(session, source)
