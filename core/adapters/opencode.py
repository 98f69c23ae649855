"""OpenCode sessions: ``opencode export`` documents, the JSON session storage (and, through
:mod:`~ctxscope.core.adapters.opencode_db`, the SQLite store).

An export is one document ``{info, messages: [{info, parts}]}``: ``info`` is the session
(``id``, ``title``, ``directory``, ``parentID`` for a sub-agent's session), each message's
``info`` has its ``role``, ``modelID``/``providerID``, ``time`` and, on assistant messages,
``tokens`` and ``cost`` summed over the message; ``parts`` hold its content:

* ``text`` and ``reasoning`` parts; ``file`` parts (an attached file or image);
* ``tool`` parts: one tool call (``callID``, ``tool``, ``state.input``) with its result
  (``state.output``, or ``state.error`` when ``state.status`` is ``error``);
* ``step-start`` … ``step-finish``: one model call. An assistant message holds one step per call
  of its agent loop, and each ``step-finish`` carries that call's ``tokens`` (``input``,
  ``output``, ``reasoning``, ``cache {read, write}``) and ``cost``. OpenCode's ``input`` leaves
  out the cached part (it subtracts the cache read for providers that count it in), so the
  prompt is ``input + cache.read + cache.write``; the output is ``output + reasoning``.
  The recorded cost is kept per call (``ModelRequest.recorded_cost``, :func:`step_costs`);
* a ``compaction`` part on a user message asks for a summary, and the assistant message marked
  ``summary: true`` that answers it is the summary: an observed compaction, after which the
  live context restarts at the summary.

Each step is read as: a request over everything stored before it, the step's assistant message
(reasoning, text, tool calls), then a tool message with the results of its tool calls.

The session storage (``~/.local/share/opencode/storage/``) keeps the same records one file each:
``session/<projectID>/<sessionID>.json``, ``message/<sessionID>/<messageID>.json`` and
``part/<messageID>/<partID>.json`` (ids sort in creation order). Opening a session file reads its
messages and parts from there, and the sessions whose ``parentID`` is that session (the
sub-agents its ``task`` tool started) into their own scopes.

Current OpenCode releases keep every session in one SQLite database (``opencode.db`` beside
``storage/``): :mod:`~ctxscope.core.adapters.opencode_db` rebuilds a session's export-shaped
``{info, messages}`` from its rows and reads it with :func:`read_tree`, as the storage is read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from ..jsonl import without_bom
from ..logformat import FormatError
from ..model import MAIN_SCOPE, Block, BlockKind, ObservedCompaction, Role, ScopeHeader, Usage
from ..session import Session
from ._common import get_dict, get_list, image_block, json_text, opt_int, opt_str, short, text_of

FORMAT: Final = "opencode"

MAX_STORAGE_FILES: Final = 100_000
"""At most this many message and part files are read for one session tree."""

KEPT_UNREADABLE: Final = 20
"""How many unreadable storage files (or database rows) are named one by one among the session's
problems."""

MAX_CHILD_DEPTH: Final = 4
"""How deep sub-agent sessions of sub-agent sessions are followed."""


def is_session_info(obj: Any) -> bool:
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("id"), str)
        and obj["id"].startswith("ses")
        and isinstance(obj.get("time"), dict)
        and ("projectID" in obj or "directory" in obj)
    )


def is_export(doc: Any) -> bool:
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        return False
    messages = doc["messages"]
    return is_session_info(doc.get("info")) and (
        not messages or (isinstance(messages[0], dict) and "info" in messages[0] and "parts" in messages[0])
    )


def detect_document(doc: Any) -> bool:
    """An export, or one session file of the storage."""
    return is_export(doc) or (is_session_info(doc) and "messages" not in doc)


def step_usage(tokens: Any) -> Usage | None:
    """Usage of a ``step-finish`` (or message) ``tokens`` object; see the module docs."""
    if not isinstance(tokens, dict):
        return None
    uncached = opt_int(tokens, "input")
    if uncached is None:
        return None
    cache = tokens.get("cache")
    if not isinstance(cache, dict):
        cache = {}
    read = opt_int(cache, "read") or 0
    write = opt_int(cache, "write") or 0
    output = (opt_int(tokens, "output") or 0) + (opt_int(tokens, "reasoning") or 0)
    return Usage(uncached + read + write, read, write, output)


@dataclass
class Step:
    """The parts of one model call (``step-start`` … ``step-finish``)."""

    blocks: list[Block] = field(default_factory=list)
    results: list[Block] = field(default_factory=list)
    finish: dict[str, Any] | None = None


def tool_blocks(part: Mapping[str, Any]) -> tuple[Block, Block | None]:
    """A ``tool`` part's call and, once it finished, its result."""
    state = get_dict(part, "state")
    call_id = opt_str(part, "callID") or opt_str(part, "id")
    name = opt_str(part, "tool")
    call = Block(BlockKind.TOOL_CALL, json_text(state.get("input", {})), call_id, name)
    status = opt_str(state, "status")
    if status == "completed":
        return call, Block(BlockKind.TOOL_RESULT, text_of(state.get("output")), call_id, name)
    if status == "error":
        return call, Block(BlockKind.TOOL_RESULT, text_of(state.get("error")), call_id, name, is_error=True)
    return call, None


def content_block(part: Mapping[str, Any]) -> Block | None:
    """The block of a ``text``, ``reasoning`` or ``file`` part (None for bookkeeping parts)."""
    kind = part.get("type")
    if kind == "text":
        return Block(BlockKind.TEXT, opt_str(part, "text"))
    if kind == "reasoning":
        return Block(BlockKind.REASONING, opt_str(part, "text"))
    if kind == "file":
        mime = opt_str(part, "mime")
        url = opt_str(part, "url")
        if mime.startswith("image/"):
            payload = url.partition(",")[2] if url.startswith("data:") else None
            return image_block(payload, mime)
        return Block(BlockKind.TEXT, f"[file {opt_str(part, 'filename') or url[:200]}]")
    if kind == "subtask":
        return Block(BlockKind.TEXT, opt_str(part, "prompt"))
    return None


def split_steps(parts: list[Any]) -> tuple[Step, list[Step]]:
    """An assistant message's parts: what came before any step (or outside one), and its steps."""
    loose = Step()
    steps: list[Step] = []
    current: Step | None = None
    for part in parts:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "step-start":
            current = Step()
            steps.append(current)
            continue
        if kind == "step-finish":
            if current is None:
                current = Step()
                steps.append(current)
            current.finish = part
            current = None
            continue
        target = current if current is not None else loose
        if kind == "tool":
            call, result = tool_blocks(part)
            target.blocks.append(call)
            if result is not None:
                target.results.append(result)
        else:
            block = content_block(part)
            if block is not None:
                target.blocks.append(block)
    return loose, steps


def step_cost(finish: Mapping[str, Any]) -> float | None:
    """The cost OpenCode recorded on one ``step-finish`` part (None when it recorded none)."""
    cost = finish.get("cost")
    return float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None


def step_costs(doc: Any) -> list[float]:
    """The cost OpenCode recorded for each call (``step-finish.cost``) of an export, in order."""
    costs: list[float] = []
    for message in get_list(doc, "messages") if isinstance(doc, dict) else []:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and part.get("type") == "step-finish":
                cost = part.get("cost")
                costs.append(float(cost) if isinstance(cost, (int, float)) else 0.0)
    return costs


class MessagesReader:
    """Reads one OpenCode session's messages into one scope."""

    def __init__(self, session: Session, scope_id: str) -> None:
        self.session = session
        self.scope_id = scope_id

    def add(self, role: Role, blocks: list[Block], **kwargs: Any) -> None:
        if blocks:
            self.session.add_message(role, blocks, scope_id=self.scope_id, **kwargs)

    def read(self, messages: list[Any]) -> None:
        for position, message in enumerate(messages, 1):
            try:
                if not isinstance(message, dict):
                    raise FormatError(f"a message must be an object, got {type(message).__name__}")
                self.message(get_dict(message, "info", required=True), get_list(message, "parts"))
            except FormatError as exc:
                self.session.problems.add("wrong_type", 0, f"{self.scope_id} message {position}: {exc}")

    def message(self, info: Mapping[str, Any], parts: list[Any]) -> None:
        role = info.get("role")
        if role == "user":
            blocks: list[Block] = []
            for part in parts:
                if isinstance(part, dict):
                    if part.get("type") == "compaction":
                        self.session.ignored["part:compaction"] += 1
                    block = content_block(part)
                    if block is not None:
                        blocks.append(block)
            self.add("user", blocks)
            return
        if role != "assistant":
            raise FormatError(f"unknown role {str(role)[:20]!r}")
        model = opt_str(info, "modelID")
        created = get_dict(info, "time").get("created")
        timestamp = str(created) if isinstance(created, int) else ""
        loose, steps = split_steps(parts)
        if not steps:  # an older message without step parts: one call, the message's own tokens
            loose.finish = {"tokens": info.get("tokens"), "cost": info.get("cost")}
            steps = [loose]
        else:
            steps[0].blocks[:0] = loose.blocks
            steps[0].results[:0] = loose.results
        is_summary = info.get("summary") is True
        for step in steps:
            finish = step.finish or {}
            self.session.add_request(
                scope_id=self.scope_id,
                model=model,
                usage=step_usage(finish.get("tokens")),
                request_id=opt_str(info, "id"),
                timestamp=timestamp,
                recorded_cost=step_cost(finish),
            )
            if is_summary:
                self.summary(step.blocks)
            else:
                self.add("assistant", step.blocks)
            self.add("tool", step.results)

    def summary(self, blocks: list[Block]) -> None:
        """The assistant message that is a compaction summary: the live context restarts at it."""
        text = "\n".join(b.text for b in blocks if b.kind is BlockKind.TEXT)
        scope = self.session.scope(self.scope_id)
        self.session.add_compaction(
            ObservedCompaction(
                self.scope_id, len(scope.messages), summary=text, summary_index=len(scope.messages)
            )
        )
        self.session.add_message("user", [Block(BlockKind.SUMMARY, text)], scope_id=self.scope_id)


def set_session_header(session: Session, info: Mapping[str, Any], scope_id: str, parent: str | None) -> None:
    session.set_header(
        ScopeHeader(
            scope_id,
            session_id=opt_str(info, "id"),
            parent_id=parent,
            label=opt_str(info, "title")[:80],
        )
    )


def read_export(session: Session, doc: Mapping[str, Any]) -> None:
    info = get_dict(doc, "info", required=True)
    set_session_header(session, info, MAIN_SCOPE, None)
    MessagesReader(session, MAIN_SCOPE).read(get_list(doc, "messages"))


# -- the session storage -----------------------------------------------------------------------------


def _load(path: str) -> Any:
    try:
        with open(path, "rb") as handle:
            return orjson.loads(without_bom(handle.read()))
    except (OSError, orjson.JSONDecodeError):
        return None


def _listed(folder: str) -> list[str]:
    try:
        return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".json"))
    except OSError:
        return []


class Storage:
    """One OpenCode storage folder (the parent of ``session/``, ``message/``, ``part/``)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.files = 0
        self.unreadable: list[str] = []
        """Storage files that are not JSON objects (skipped)."""

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        """``{info, parts}`` records of a session, in id order (the shape of an export)."""
        records: list[dict[str, Any]] = []
        for path in _listed(os.path.join(self.root, "message", os.path.basename(session_id))):
            info = _load(path)
            self.files += 1
            if self.files > MAX_STORAGE_FILES:
                break
            if not isinstance(info, dict):
                self.unreadable.append(path)
                continue
            parts: list[Any] = []
            for part_path in _listed(os.path.join(self.root, "part", os.path.basename(opt_str(info, "id")))):
                self.files += 1
                if self.files > MAX_STORAGE_FILES:
                    break
                part = _load(part_path)
                if isinstance(part, dict):
                    parts.append(part)
                else:
                    self.unreadable.append(part_path)
            records.append({"info": info, "parts": parts})
        return records

    def children(self, project_folder: str, session_id: str) -> list[dict[str, Any]]:
        """The sessions of a project folder whose ``parentID`` is ``session_id``."""
        found = []
        for path in _listed(project_folder):
            info = _load(path)
            if is_session_info(info) and info.get("parentID") == session_id:
                found.append(info)
        return found


def storage_root(session_file: str) -> str | None:
    """The storage folder of a ``session/<projectID>/<sessionID>.json`` file (None when it is not one)."""
    project = os.path.dirname(os.path.abspath(session_file))
    session_dir = os.path.dirname(project)
    if os.path.basename(session_dir) != "session":
        return None
    return os.path.dirname(session_dir)


def add_skipped(session: Session, names: list[str], what: str) -> None:
    """The records that were not JSON objects among the session's problems: the first
    :data:`KEPT_UNREADABLE` by name, then how many more ``what`` were skipped."""
    for name in names[:KEPT_UNREADABLE]:
        session.problems.add("wrong_type", 0, f"{name} is not a JSON object; skipped")
    if len(names) > KEPT_UNREADABLE:
        more = len(names) - KEPT_UNREADABLE
        session.problems.add("wrong_type", 0, f"{more} more {what} that are not JSON objects skipped")


def read_tree(
    session: Session,
    info: Mapping[str, Any],
    messages_of: Callable[[str], list[Any]],
    children_of: Callable[[str], Sequence[Mapping[str, Any]]],
) -> None:
    """A session's messages into the main scope, and the sessions whose ``parentID`` is it (the
    sub-agents its ``task`` tool started; theirs too, :data:`MAX_CHILD_DEPTH` deep) into their
    own scopes: ``messages_of(id)`` gives a session's ``{info, parts}`` records (an export's
    shape), ``children_of(id)`` its child sessions' infos."""
    pending: list[tuple[Mapping[str, Any], str, str | None, int]] = [(info, MAIN_SCOPE, None, 0)]
    while pending:
        current, scope_id, parent, depth = pending.pop(0)
        set_session_header(session, current, scope_id, parent)
        session_id = opt_str(current, "id")
        MessagesReader(session, scope_id).read(messages_of(session_id))
        if depth < MAX_CHILD_DEPTH:
            for child in children_of(session_id):
                child_id = opt_str(child, "id")
                if child_id not in session.scopes:
                    pending.append((child, child_id, scope_id, depth + 1))


def read_stored_session(session: Session, info: Mapping[str, Any]) -> None:
    """A session file of the storage: its messages, and its sub-agent sessions as child scopes."""
    root = storage_root(session.source)
    if root is None:
        raise FormatError("an OpenCode session file outside storage/session/<project>/")
    storage = Storage(root)
    project_folder = os.path.dirname(os.path.abspath(session.source))
    read_tree(session, info, storage.messages, lambda parent: storage.children(project_folder, parent))
    names = [f"storage file {short(os.path.relpath(path, root), 120)}" for path in storage.unreadable]
    add_skipped(session, names, "storage files")
    if storage.files > MAX_STORAGE_FILES:
        session.problems.add("oversize", 0, f"more than {MAX_STORAGE_FILES} storage files; the rest skipped")


def read_document(session: Session, doc: Any) -> None:
    if is_export(doc):
        read_export(session, doc)
    elif is_session_info(doc):
        read_stored_session(session, doc)
    else:
        raise FormatError("expected an OpenCode export {info, messages} or a session file")
