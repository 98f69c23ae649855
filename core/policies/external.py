"""External datasets: anyone's session plus a separate LABELS file, graded like the generated one.

SESSION is read into :class:`~.records.PolicyMessage` s — all the policies ever see. Formats:

* JSONL of ``{"turn": int, "role": str, "content": str}`` (turns strictly increasing);
* an OpenAI-style message list: a JSON array of ``{"role", "content"}`` or ``{"messages": [...]}``
  (``content`` a string or a list of ``{"type": "text", "text": ...}`` parts); turn = position, from 1;
* any log :func:`ctxscope.core.reader.open_log` reads (ctxscope's own format, and the real-agent
  formats as readers for them land): the main scope's messages, turn = position, from 1.

LABELS is JSONL read by the scorer alone (:func:`load_labels`), one object per line:

* ``{"turn": int, "label": "critical" | "stale" | "noise" | "other"}``, optionally with
  ``"stale_from": int`` (the turn that supersedes it: critical before, stale from then on);
* ``{"turn": int, "query": str}``, optionally with ``"needs": [int, ...]`` — a checkpoint: the
  policies build a context for ``query`` from the messages before ``turn``.

Without checkpoint rows there is one checkpoint after the last message, whose query is the last
user message. Errors are :class:`DatasetError` with a one-line reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import orjson

from .answer_key import AnswerKey, Checkpoint, Label, TurnLabel
from .records import ROLES, PolicyMessage

if TYPE_CHECKING:
    from ..session import Session

ROLE_ALIASES: Final = {
    "developer": "system", "human": "user", "ai": "assistant", "model": "assistant", "function": "tool",
}


class DatasetError(ValueError):
    """A session or labels file that cannot be used; the message is one line."""


def _role(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise DatasetError(f"{where}: role must be a string")
    role = ROLE_ALIASES.get(value, value)
    if role not in ROLES:
        raise DatasetError(f"{where}: unknown role {value!r}")
    return role


def _content(value: Any, where: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts: list[str] = []
        for part in value:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                text = part.get("text", part.get("content", ""))
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(p for p in parts if p)
    raise DatasetError(f"{where}: content must be a string or a list of parts")


def _speaker(item: dict[str, Any], where: str) -> str:
    """The optional ``speaker`` (or OpenAI ``name``) of a message."""
    value = item.get("speaker", item.get("name", ""))
    if not isinstance(value, str):
        raise DatasetError(f"{where}: speaker must be a string")
    return value


def _from_message_list(items: Any, name: str) -> list[PolicyMessage]:
    if not isinstance(items, list):
        raise DatasetError(f"{name}: expected a JSON array of messages or {{\"messages\": [...]}}")
    messages: list[PolicyMessage] = []
    for i, item in enumerate(items):
        where = f"{name}: message {i + 1}"
        if not isinstance(item, dict):
            raise DatasetError(f"{where}: not an object")
        role = _role(item.get("role"), where)
        content = _content(item.get("content"), where)
        messages.append(PolicyMessage(i + 1, role, content, _speaker(item, where)))
    return messages


def _json_objects(lines: Sequence[bytes], name: str) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Each non-blank JSONL line as (line number, "NAME line N", object); DatasetError otherwise."""
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        where = f"{name} line {number}"
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise DatasetError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise DatasetError(f"{where}: not an object")
        yield number, where, obj


def _from_turn_jsonl(lines: Sequence[bytes], name: str) -> list[PolicyMessage]:
    messages: list[PolicyMessage] = []
    seen: dict[int, int] = {}
    for number, where, obj in _json_objects(lines, name):
        turn = obj.get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
            raise DatasetError(f"{where}: turn must be a non-negative integer")
        if turn in seen:
            raise DatasetError(f"{where}: duplicate turn {turn} (first on line {seen[turn]})")
        if messages and turn < messages[-1].turn:
            raise DatasetError(f"{where}: turn {turn} comes after turn {messages[-1].turn}")
        seen[turn] = number
        role = _role(obj.get("role"), where)
        messages.append(PolicyMessage(turn, role, _content(obj.get("content"), where), _speaker(obj, where)))
    return messages


def session_messages(session: Session, scope_id: str | None = None) -> list[PolicyMessage]:
    """A loaded session's messages of one scope as policy messages (turn = position, from 1; role
    = :attr:`~ctxscope.core.model.Message.author_role`: tool output is the tool's, not the user's).

    This is how a dashboard view turns the session it shows into the input of
    :func:`~.runner.run_policies`.

    Args:
        session: A session read by :mod:`ctxscope.core.reader`.
        scope_id: The scope to take (default: the main agent's).

    Returns:
        The messages (empty when the session has none).
    """
    scope = session.scope_or_main(scope_id)
    if scope is None:
        return []
    # A live view may have released old messages (index -1, no content): they are not history.
    return [PolicyMessage(m.index + 1, m.author_role, m.text) for m in scope.messages if m.index >= 0]


def _from_log(path: Path) -> list[PolicyMessage]:
    from ..reader import UnknownFormatError, open_log

    try:
        session = open_log(path)
    except (UnknownFormatError, OSError, ValueError) as exc:
        raise DatasetError(f"cannot read session {path.name}: {exc}") from None
    messages = session_messages(session)
    if not messages:
        raise DatasetError(f"cannot read session {path.name}: no messages in a known format")
    return messages


def load_session(path: str | os.PathLike[str]) -> list[PolicyMessage]:
    """Read a SESSION file into policy messages.

    Args:
        path: The session file.

    Returns:
        Its messages in turn order.

    Raises:
        DatasetError: When the file is missing, unreadable, empty or of no known format.
    """
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise DatasetError(f"cannot read session {file}: {exc.strerror or exc}") from None
    stripped = data.strip()
    if not stripped:
        raise DatasetError(f"cannot read session {file.name}: the file is empty")
    if stripped[:1] in (b"[", b"{"):
        try:
            whole = orjson.loads(stripped)
        except orjson.JSONDecodeError:
            whole = None
        if isinstance(whole, list):
            messages = _from_message_list(whole, file.name)
        elif isinstance(whole, dict) and "messages" in whole:
            messages = _from_message_list(whole["messages"], file.name)
        else:
            lines = data.splitlines()
            first = next((ln for ln in lines if ln.strip()), b"")
            try:
                head = orjson.loads(first)
            except orjson.JSONDecodeError:
                raise DatasetError(f"cannot read session {file.name}: first line is not JSON") from None
            if isinstance(head, dict) and "turn" in head and "role" in head:
                messages = _from_turn_jsonl(lines, file.name)
            else:
                messages = _from_log(file)
    else:
        raise DatasetError(f"cannot read session {file.name}: not JSON or JSONL")
    if not messages:
        raise DatasetError(f"cannot read session {file.name}: no messages")
    return messages


def load_labels(path: str | os.PathLike[str], messages: Sequence[PolicyMessage]) -> AnswerKey:
    """Read a LABELS file against the session it labels.

    Args:
        path: The labels JSONL file.
        messages: The session's messages (only their turns are used, to check references).

    Returns:
        The answer key.

    Raises:
        DatasetError: For an unreadable file, bad JSON, an unknown label, a turn that is not in the
            session, or a turn labelled (or queried) twice.
    """
    file = Path(path)
    try:
        lines = file.read_bytes().splitlines()
    except OSError as exc:
        raise DatasetError(f"cannot read labels {file}: {exc.strerror or exc}") from None
    turns = {m.turn for m in messages}
    labels: dict[int, TurnLabel] = {}
    label_line: dict[int, int] = {}
    checkpoints: dict[tuple[int, str], Checkpoint] = {}
    checkpoint_line: dict[tuple[int, str], int] = {}
    for number, where, obj in _json_objects(lines, file.name):
        turn = obj.get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise DatasetError(f"{where}: turn must be an integer")
        if "query" in obj:
            query = obj["query"]
            if not isinstance(query, str) or not query.strip():
                raise DatasetError(f"{where}: query must be a non-empty string")
            if (turn, query) in checkpoints:
                first = checkpoint_line[turn, query]
                raise DatasetError(f"{where}: duplicate checkpoint at turn {turn} (first on line {first})")
            needs = _turn_list(obj.get("needs", []), where, "needs", turns)
            checkpoints[turn, query] = Checkpoint(turn, query, needs)
            checkpoint_line[turn, query] = number
            continue
        if turn not in turns:
            raise DatasetError(f"{where}: turn {turn} is not in the session")
        if turn in labels:
            raise DatasetError(f"{where}: duplicate turn {turn} (first labelled on line {label_line[turn]})")
        try:
            label = Label(str(obj.get("label")))
        except ValueError:
            known = ", ".join(x.value for x in Label)
            raise DatasetError(f"{where}: label must be one of {known}, got {obj.get('label')!r}") from None
        stale_from = obj.get("stale_from")
        if stale_from is not None and (isinstance(stale_from, bool) or not isinstance(stale_from, int)):
            raise DatasetError(f"{where}: stale_from must be an integer")
        if stale_from is not None and stale_from <= turn:
            raise DatasetError(f"{where}: stale_from {stale_from} is not after turn {turn}")
        kind = obj.get("kind", "")
        labels[turn] = TurnLabel(turn, label, stale_from, kind if isinstance(kind, str) else "")
        label_line[turn] = number
    if not labels:
        raise DatasetError(f"{file.name}: no label rows")
    if not checkpoints:
        last_user = next((m for m in reversed(messages) if m.role == "user" and m.content.strip()), None)
        if last_user is None:
            raise DatasetError(f"{file.name}: no checkpoint rows and no user message to use as the query")
        end = messages[-1].turn + 1
        checkpoints[end, last_user.content] = Checkpoint(end, last_user.content)
    ordered = sorted(checkpoints.values(), key=lambda c: c.turn)  # stable: file order within a turn
    return AnswerKey(labels, tuple(ordered), {"labels": str(file)})


def _turn_list(value: Any, where: str, field: str, turns: set[int]) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in value):
        raise DatasetError(f"{where}: {field} must be a list of turns")
    for t in value:
        if t not in turns:
            raise DatasetError(f"{where}: {field} turn {t} is not in the session")
    return tuple(value)


def export_dataset(
    messages: Iterable[PolicyMessage],
    key: AnswerKey,
    session_path: str | os.PathLike[str],
    labels_path: str | os.PathLike[str],
) -> None:
    """Write a session and its key in the external format (turn JSONL + labels JSONL).

    Args:
        messages: The session.
        key: Its answer key.
        session_path: Where to write the session.
        labels_path: Where to write the labels.
    """
    with open(session_path, "wb") as out:
        for m in messages:
            record: dict[str, Any] = {"turn": m.turn, "role": m.role, "content": m.content}
            if m.speaker:
                record["speaker"] = m.speaker
            out.write(orjson.dumps(record) + b"\n")
    with open(labels_path, "wb") as out:
        for turn in sorted(key.labels):
            row = key.labels[turn]
            obj: dict[str, Any] = {"turn": turn, "label": row.label.value}
            if row.stale_from is not None:
                obj["stale_from"] = row.stale_from
            if row.kind:
                obj["kind"] = row.kind
            out.write(orjson.dumps(obj) + b"\n")
        for checkpoint in key.checkpoints:
            cp: dict[str, Any] = {"turn": checkpoint.turn, "query": checkpoint.query}
            if checkpoint.needs:
                cp["needs"] = list(checkpoint.needs)
            out.write(orjson.dumps(cp) + b"\n")
