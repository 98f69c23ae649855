"""Aider chat histories (``.aider.chat.history.md`` in the project folder).

Aider appends everything it shows to one Markdown file, and writes its own lines so that Markdown
keeps their breaks (two trailing spaces):

* ``# aider chat started at 2025-06-02 12:55:22`` opens a session: each session is its own scope
  (``session-N`` for the Nth session of the file, labelled with its start time), the newest
  first (the dashboard opens on it). A session that made no model call (it only printed
  start-up notices, or only ran commands) is counted as ignored, unless it is the last one;
* ``#### …`` lines are what the user typed (consecutive ones are one prompt). A prompt that is an
  in-chat command (``/add``, ``/drop``, ``/run`` …) is not sent to the model and is counted as
  ignored; ``/ask``, ``/code`` and ``/architect`` send the rest of the line;
* ``> …`` lines are the tool's own output: ``Model:``/``Main model:`` names the model,
  ``Repo-map: using N tokens`` is the budget of the repository map Aider sends with each request
  (stored as a note, like an added file: the map itself is not in the history), ``Added X to
  the chat`` adds a file (its content is sent with every later call, but the history does not hold
  it: it is stored as a note naming the file), ``/clear`` (or ``/reset``) empties the chat history
  (an observed compaction without a summary), an answered ``Add file to the chat?`` adds the file
  named on the line before it, and ``Tokens: 4.2k sent, 310 received. Cost: …`` is
  the provider-reported usage of the call just made (``sent`` is the prompt; newer versions also
  print ``N cache write, M cache hit``). The ``$… message`` cost is kept per call
  (``ModelRequest.recorded_cost``);
* a ``> …`` line without the two trailing spaces opens a message of several lines that Aider
  sends back to the model (a failed edit, lint errors); it ends at the next line that has them,
  and is stored as a meta user message;
* everything else is the model's reply: one model call per reply, with the ``Tokens:`` line that
  follows it as its usage. A ``Tokens:`` line without a reply before it (an edit the model only
  confirmed) is a call with usage and no message. A ``litellm.…Error`` line is an error the
  provider returned instead of a response (an observed error, not a call).

Token figures are rounded by Aider (``9.7k``): a ``k`` figure is read as that many thousands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from ..model import Block, BlockKind, ErrorKind, ObservedCompaction, RequestError, ScopeHeader, Usage
from ..session import Session

FORMAT: Final = "aider"

SESSION_START: Final = re.compile(r"^# aider chat started at (.*)$")
TOKENS_LINE: Final = re.compile(
    r"Tokens:\s*(?P<sent>[\d.,]+[kKmM]?)\s*sent,"
    r"(?:\s*(?P<write>[\d.,]+[kKmM]?)\s*cache write,)?"
    r"(?:\s*(?P<hit>[\d.,]+[kKmM]?)\s*cache hit,)?"
    r"\s*(?P<received>[\d.,]+[kKmM]?)\s*received\."
    r"(?:\s*Cost:\s*\$(?P<cost>[\d.,]+)\s*message)?"
)
MODEL_LINE: Final = re.compile(r"^(?:Main model|Model):\s*(\S+)")
REPO_MAP_LINE: Final = re.compile(r"^Repo-map: using (\d+) tokens")
ADDED_LINE: Final = re.compile(r"^Added (.+?) to the chat")
DROPPED_LINE: Final = re.compile(r"^(?:Removed|Dropping) (.+?) from the chat")
CONFIRMATION: Final = re.compile(r"^(?P<question>.+?\?) \(Y\)es/\(N\)o.*\]: ?(?P<answer>\S*)$")
"""A question Aider asked and the answer typed (written as a ``>`` line, or as a ``####`` line)."""
ADD_FILE_QUESTION: Final = "Add file to the chat?"
YES: Final = frozenset({"y", "yes", "a", "all"})
QUESTION_CHARS: Final = 1000
"""A longer line is never matched against :data:`CONFIRMATION` (it is not one of Aider's questions)."""


def confirmation(text: str) -> re.Match[str] | None:
    """An answered question (``… (Y)es/(N)o … [Yes]: y``), or None."""
    if len(text) > QUESTION_CHARS or "(Y)es/(N)o" not in text:
        return None
    return CONFIRMATION.match(text)


THINKING: Final = re.compile(r"<thinking-content-[0-9a-f]+>(.*?)</thinking-content-[0-9a-f]+>", re.DOTALL)

PROVIDER_ERROR_PREFIX: Final = "litellm."
"""How Aider prints an error a model call got (``litellm.RateLimitError: …``), once per attempt."""

SENDING_COMMANDS: Final = ("/ask", "/code", "/architect", "/context")
"""In-chat commands whose argument is sent to the model as a prompt."""

CLEARING_COMMANDS: Final = ("/clear", "/reset")
"""In-chat commands that empty the chat history."""

DETECT_LINES: Final = 40
"""How many lines of a file's head detection looks at."""


def detect_text(head: str) -> bool:
    return any(SESSION_START.match(line) for line in head.splitlines()[:DETECT_LINES])


def count(figure: str) -> int:
    """A token figure as Aider prints it (``412``, ``1,234``, ``9.7k``, ``1.2M``)."""
    figure = figure.replace(",", "")
    scale = 1
    if figure[-1:] in "kK":
        scale, figure = 1000, figure[:-1]
    elif figure[-1:] in "mM":
        scale, figure = 1_000_000, figure[:-1]
    try:
        return round(float(figure) * scale)
    except ValueError:
        return 0


def tokens_usage(line: str) -> tuple[Usage, float | None] | None:
    """Usage and cost of a ``Tokens: …`` line (None for another line)."""
    match = TOKENS_LINE.search(line)
    if match is None:
        return None
    hit = count(match["hit"]) if match["hit"] else 0
    write = count(match["write"]) if match["write"] else 0
    cost = match["cost"]
    return (
        Usage(count(match["sent"]), hit, write, count(match["received"])),
        float(cost.replace(",", "")) if cost else None,
    )


@dataclass
class Event:
    """One thing an Aider session did, in order."""

    kind: str
    """``prompt``, ``reply``, ``reflected``, ``repo_map``, ``file``, ``usage``, ``error``, ``clear``
    or ``command``."""
    text: str = ""
    usage: Usage | None = None
    cost: float | None = None
    line: int = 0


@dataclass
class AiderSession:
    """One ``# aider chat started at`` section."""

    started: str
    line: int
    model: str = ""
    events: list[Event] = field(default_factory=list)


def _tool_line(line: str) -> str | None:
    """The text of one of Aider's own ``>`` lines (None for another line)."""
    if line.startswith(">") and (line.endswith("  ") or line.strip() == ">"):
        return line[1:].strip()
    return None


def _prompt_line(line: str) -> str | None:
    """The text of a ``####`` prompt line (None for another line)."""
    if line.startswith("####") and line.endswith("  "):
        return line[4:].strip()
    return None


class _Parser:
    def __init__(self) -> None:
        self.sessions: list[AiderSession] = []
        self.prompt: list[str] = []
        self.reply: list[str] = []
        self.prompt_line = 0
        self.reply_line = 0
        self.last_tool = ""
        """The previous ``>`` line (the file an "Add file to the chat?" question is about)."""
        self.block: list[str] | None = None
        """The lines of a multi-line ``>`` message being read (see :meth:`feed`)."""
        self.block_line = 0

    @property
    def current(self) -> AiderSession:
        if not self.sessions:
            self.sessions.append(AiderSession("", 1))
        return self.sessions[-1]

    def flush(self) -> None:
        if self.block is not None:  # cut short by the end of the file
            self.current.events.append(
                Event("reflected", "\n".join(self.block).strip(), line=self.block_line)
            )
            self.block = None
        if self.prompt:
            text = "\n".join(self.prompt).strip()
            self.prompt = []
            self.current.events.append(self._prompt_event(text))
        if self.reply:
            text = "\n".join(self.reply).strip()
            self.reply = []
            if text:
                self.current.events.append(Event("reply", text, line=self.reply_line))

    def _prompt_event(self, text: str) -> Event:
        if text.startswith("/"):
            command, _, rest = text.partition(" ")
            if command in SENDING_COMMANDS and rest.strip():
                return Event("prompt", rest.strip(), line=self.prompt_line)
            if command in CLEARING_COMMANDS:
                return Event("clear", command, line=self.prompt_line)
            return Event("command", command[:40], line=self.prompt_line)
        return Event("prompt", text, line=self.prompt_line)

    def feed(self, number: int, line: str) -> None:
        started = SESSION_START.match(line)
        if self.block is not None and not started:
            # A multi-line message Aider sends back to the model (a failed edit, a lint report):
            # its first line is ``> …`` without the two trailing spaces, its last one has them.
            self.block.append(line)
            if line.endswith("  "):
                self.current.events.append(
                    Event("reflected", "\n".join(self.block).strip(), line=self.block_line)
                )
                self.block = None
            return
        if started:
            self.block = None
            self.flush()
            self.sessions.append(AiderSession(started[1].strip(), number))
            return
        prompt = _prompt_line(line)
        if prompt is not None and confirmation(prompt):
            self.flush()
            self.confirmation(prompt, number)
            return
        if prompt is not None:
            if self.reply:
                self.flush()
            if not self.prompt:
                self.prompt_line = number
            self.prompt.append(prompt)
            return
        if line.startswith("> ") and not line.endswith("  "):
            self.flush()
            self.block, self.block_line = [line[2:]], number
            return
        tool = _tool_line(line)
        if tool is not None:
            self.flush()
            self.tool(tool, number)
            return
        if self.prompt:
            self.flush()
        if not self.reply:
            if not line.strip():
                return
            self.reply_line = number
        self.reply.append(line.rstrip("\n"))

    def confirmation(self, text: str, number: int) -> None:
        """An answered question: "Add file to the chat?" answered yes adds the file it was about."""
        found = confirmation(text)
        if found is None:
            return
        if found["question"] == ADD_FILE_QUESTION and found["answer"].lower() in YES and self.last_tool:
            self.current.events.append(Event("file", self.last_tool, line=number))
            self.last_tool = ""
        else:
            self.current.events.append(Event("command", "confirmation", line=number))

    def tool(self, text: str, number: int) -> None:
        session = self.current
        if confirmation(text):
            self.confirmation(text, number)
            return
        self.last_tool = text
        usage = tokens_usage(text)
        if usage is not None:
            session.events.append(Event("usage", usage=usage[0], cost=usage[1], line=number))
            return
        model = MODEL_LINE.match(text)
        if model and not session.model:
            session.model = model[1]
            return
        repo_map = REPO_MAP_LINE.match(text)
        if repo_map:
            session.events.append(Event("repo_map", repo_map[1], line=number))
            return
        added = ADDED_LINE.match(text)
        if added:
            session.events.append(Event("file", added[1], line=number))
            return
        if text.startswith(PROVIDER_ERROR_PREFIX):
            session.events.append(Event("error", text, line=number))
            return
        dropped = DROPPED_LINE.match(text)
        if dropped:
            session.events.append(Event("command", "drop", line=number))


def parse(text: str) -> list[AiderSession]:
    """The sessions of a chat history, each with its events in order."""
    parser = _Parser()
    for number, line in enumerate(text.splitlines(), 1):
        parser.feed(number, line)
    parser.flush()
    return parser.sessions


def reply_blocks(text: str) -> list[Block]:
    """A reply's blocks: any ``<thinking-content-…>`` section as reasoning, the rest as text."""
    blocks = [Block(BlockKind.REASONING, m.strip()) for m in THINKING.findall(text) if m.strip()]
    rest = THINKING.sub("", text).strip()
    if rest:
        blocks.append(Block(BlockKind.TEXT, rest))
    return blocks


def makes_calls(aider_session: AiderSession) -> bool:
    """The session called the model (a reply, a usage line, or an error the provider returned)."""
    return any(e.kind in ("reply", "usage", "error") for e in aider_session.events)


def read_text(session: Session, text: str) -> None:
    """Read a chat history into the session: one scope per session, the newest first.

    A session that never called the model is counted as ignored, except the last one (it may be
    the session running now, before its first call).
    """
    sessions = parse(text)
    for number in range(len(sessions), 0, -1):
        aider_session = sessions[number - 1]
        if not makes_calls(aider_session) and (number < len(sessions) or not aider_session.events):
            session.ignored["session without a model call"] += 1
            continue
        scope_id = f"session-{number}"
        session.set_header(
            ScopeHeader(
                scope_id,
                model=aider_session.model,
                label=f"aider chat started at {aider_session.started}"[:80],
                line=aider_session.line,
            )
        )
        emit_session(session, scope_id, aider_session.events)


def emit_session(session: Session, scope_id: str, events: list[Event]) -> None:
    """One Aider session's events into its scope: a call per reply, usage from the line after it."""
    position = 0
    while position < len(events):
        event = events[position]
        if event.kind == "prompt":
            session.add_message(
                "user", [Block(BlockKind.TEXT, event.text)], scope_id=scope_id, line=event.line
            )
        elif event.kind == "reflected":
            session.add_message(
                "user", [Block(BlockKind.TEXT, event.text)], scope_id=scope_id, meta=True, line=event.line
            )
        elif event.kind == "repo_map":
            note = f"[repo map: up to {event.text} tokens sent with each request; not in the chat history]"
            session.add_message(
                "user", [Block(BlockKind.TEXT, note)], scope_id=scope_id, meta=True, line=event.line
            )
        elif event.kind == "file":
            note = f"[file {event.text} added to the chat; its content is not in the chat history]"
            session.add_message(
                "user", [Block(BlockKind.TEXT, note)], scope_id=scope_id, meta=True, line=event.line
            )
        elif event.kind in ("reply", "usage"):
            usage, cost = event.usage, event.cost
            line = event.line
            if event.kind == "reply" and position + 1 < len(events) and events[position + 1].kind == "usage":
                position += 1
                usage, cost = events[position].usage, events[position].cost
            session.add_request(scope_id=scope_id, usage=usage, line=line, recorded_cost=cost)
            if event.kind == "reply":
                session.add_message("assistant", reply_blocks(event.text), scope_id=scope_id, line=event.line)
        elif event.kind == "error":
            kind = ErrorKind.CONTEXT_LENGTH if "ContextWindowExceeded" in event.text else ErrorKind.OTHER
            session.add_error(scope_id, RequestError(kind, event.text[:200]), line=event.line)
        elif event.kind == "clear":
            scope = session.scope(scope_id)
            session.add_compaction(
                ObservedCompaction(scope_id, len(scope.messages), trigger="manual", line=event.line)
            )
        else:
            session.ignored[f"command:{event.text}"] += 1
        position += 1
