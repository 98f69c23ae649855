"""Stage 3: summarise older turns — only when still over budget; always visible.

The older part of the conversation is folded into a compact record of what happened and what was
decided, merged with the previous summary; the request continues from it. Every summary leaves a
:class:`~ctxscope.core.snapshot.SummaryMarker` (tokens before and after, freed, summarised, summary
size, recent history kept).

The summariser is pluggable: any callable taking a :class:`SummaryRequest` and returning text.

* :class:`ExtractiveSummariser` (the default) is deterministic and needs no model: it keeps user
  instructions, decisions, file paths, commands, errors and numbers, merges the previous summary,
  and caps the result at ``max_tokens`` (2,000 by default).
* :class:`OpenAICompatibleSummariser` asks any OpenAI-compatible chat endpoint (base URL + model).
  It is never required; when it fails, the pipeline falls back to turn fitting.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

import orjson

from ..model import MESSAGE_OVERHEAD_TOKENS, BlockKind, Message
from ..snapshot import Stage, StageRun, SummaryMarker
from ..tokens import Estimator
from .notes import SUMMARY_HEADER
from .state import ScopeState, SummaryState, summary_message_text


class SummariserError(RuntimeError):
    """The summariser could not produce a summary (the pipeline falls back to turn fitting)."""


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    """What a summariser is asked to do.

    Attributes:
        previous: The previous summary's text ('' when there is none); merge it in.
        messages: The stored messages being folded in, oldest first (full, uncleared content).
        first_index: Stored index of ``messages[0]``.
        max_tokens: The summary must not be longer than this.
        estimator: The estimator that measures ``max_tokens``.
    """

    previous: str
    messages: Sequence[Message]
    first_index: int
    max_tokens: int
    estimator: Estimator


Summariser = Callable[[SummaryRequest], str]
"""A summariser: any callable from a :class:`SummaryRequest` to the summary text."""


# -- the extractive default ------------------------------------------------------------------------

SECTIONS: Final[tuple[str, ...]] = ("Instructions", "Decisions", "Files", "Commands", "Errors", "Numbers")
"""Sections of an extractive summary, most important first (the cap drops from the last first)."""

SECTION_WEIGHTS: Final[dict[str, float]] = {
    "Instructions": 4.0, "Decisions": 3.0, "Errors": 2.0, "Numbers": 1.5, "Files": 1.0, "Commands": 1.0,
}
"""How strongly each section resists the cap: a section gives up items when it is large for its weight."""

_PATH_RE: Final = re.compile(
    r"(?<![\w/.-])(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]+"
    r"|\b[\w-]+\.(?:py|pyi|md|rst|txt|json|jsonl|csv|tsv|js|ts|tsx|html|css|yaml|yml|toml|ini|cfg|rs|go"
    r"|java|c|h|cpp|sh|sql|log|xml)\b"
)
_SENTENCE_RE: Final = re.compile(r"[^.!?\n。！？]+[.!?。！？]?")
_DECISION_RE: Final = re.compile(
    r"\b(decid\w*|will|plan\w*|chose|choose|going to|next|conclu\w*|agreed?|must|should|instead|"
    r"switch\w*|use|using|keep|fix\w*|found|result\w*|done|finished|summary)\b",
    re.IGNORECASE,
)
ERROR_WORDS: Final[tuple[str, ...]] = (
    "error", "exception", "failed", "failure", "fatal", "denied", "not found",
)
"""A tool-result line with one of these (any case) is an error line worth keeping."""
_EXCEPTION_RE: Final = re.compile(r"^\s*[\w.]*(Error|Exception|Exit|Interrupt)\b")
_DIGIT_RE: Final = re.compile(r"\d")
_SPACE_RE: Final = re.compile(r"\s+")
_ITEM_CHARS: Final = 240
_SCAN_CHARS: Final = 20_000
"""How much of a long tool result is scanned for error lines (its head and its end)."""


_SMALL_TALK: Final = frozenset(
    {
        "ok", "okay", "k", "kk", "thanks", "thank", "you", "thx", "ty", "cool", "great", "perfect", "nice",
        "noted", "sure", "yes", "yep", "yeah", "lol", "lmao", "haha", "hahaha", "hmm", "wow", "brb",
        "back", "now", "one", "sec", "let", "me", "check", "good", "morning", "afternoon", "evening",
        "night", "sounds", "makes", "sense", "hi", "hello", "hey", "bye",
    }
)
"""Words of a user message that carries no instruction ("lol", "haha yes", "cool, thanks", "brb")."""


def _small_talk(text: str) -> bool:
    """A short user message made only of small-talk words (not worth a line under Instructions)."""
    if len(text) > 40:
        return False
    words = re.findall(r"[a-z']+", text.lower())
    return bool(words) and all(word in _SMALL_TALK for word in words)

def _clip(text: str, limit: int = _ITEM_CHARS) -> str:
    text = _SPACE_RE.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _error_lines(text: str, limit: int = 40) -> list[str]:
    """Lines of ``text`` that mention an error word, in order (``str.find`` on the lower-cased
    text: far faster than a case-insensitive regex over long tool output)."""
    low = text.lower()
    if len(low) != len(text):  # a few characters change length when lower-cased
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    positions: list[int] = []
    for word in ERROR_WORDS:
        at = low.find(word)
        while at >= 0 and len(positions) < 4 * limit:
            positions.append(at)
            at = low.find(word, at + len(word))
    lines: list[str] = []
    last_start = -1
    for at in sorted(positions):
        start = text.rfind("\n", 0, at) + 1
        if start == last_start:
            continue
        end = text.find("\n", at)
        lines.append(text[start : end if end >= 0 else len(text)])
        last_start = start
        if len(lines) >= limit:
            break
    return lines


def _tool_input_text(name: str, raw: str) -> str:
    try:
        data = orjson.loads(raw) if raw else {}
    except orjson.JSONDecodeError:
        return _clip(f"{name} {raw}", 160)
    if isinstance(data, dict):
        for key in ("command", "cmd", "path", "file_path", "file", "url", "query", "pattern"):
            value = data.get(key)
            if isinstance(value, str) and value:
                return _clip(f"{name} {value}", 160)
    return _clip(f"{name} {raw}", 160)


@dataclass
class _Sections:
    items: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in SECTIONS})
    seen: set[tuple[str, str]] = field(default_factory=set)

    def add(self, section: str, item: str) -> None:
        item = item.strip()
        if item and (section, item) not in self.seen:
            self.seen.add((section, item))
            self.items[section].append(item)


def _parse_previous(previous: str, out: _Sections) -> None:
    """Merge a previous summary: its sections if it is one of ours, else the text as one item."""
    current: str | None = None
    recognised = False
    for line in previous.splitlines():
        if line.startswith("## ") and line[3:].strip() in SECTIONS:
            current = line[3:].strip()
            recognised = True
        elif line.startswith("- ") and current is not None:
            out.add(current, line[2:])
    if not recognised and previous.strip() and not previous.startswith(SUMMARY_HEADER):
        out.add("Decisions", _clip("Earlier summary: " + previous, 2000))


def _extract(message: Message, out: _Sections) -> None:
    ref = f"(#{message.index}) " if message.index >= 0 else ""
    if message.is_summary:
        for block in message.blocks:
            if block.kind is BlockKind.SUMMARY:
                _parse_previous(block.text, out)
        return
    for block in message.blocks:
        if block.kind is BlockKind.TOOL_CALL:
            out.add("Commands", _tool_input_text(block.name or "tool", block.text))
            for path in _PATH_RE.findall(block.text):
                out.add("Files", path)
        elif block.kind is BlockKind.TOOL_RESULT:
            text = block.text
            scan = text if len(text) <= 2 * _SCAN_CHARS else text[:_SCAN_CHARS] + "\n" + text[-_SCAN_CHARS:]
            found = _error_lines(scan)
            # An exception line ("ValueError: …") says more than the rest of a traceback.
            found.sort(key=lambda line: 0 if _EXCEPTION_RE.match(line) else 1)
            lines = found[:2]
            if block.is_error:
                lines = lines or scan.strip().splitlines()[:1]
            for line in lines:
                out.add("Errors", ref + _clip(line, 200))
        elif block.kind is BlockKind.TEXT and block.text:
            text = block.text
            for path in _PATH_RE.findall(text[:_SCAN_CHARS]):
                out.add("Files", path)
            if message.role == "user" and not message.has_tool_results:
                if not _small_talk(text):
                    out.add("Instructions", ref + _clip(text))
                continue
            if message.role != "assistant":
                continue
            sentences = [s.strip() for s in _SENTENCE_RE.findall(text[:_SCAN_CHARS]) if s.strip()]
            decisions = [s for s in sentences if _DECISION_RE.search(s)][:2]
            for sentence in decisions or sentences[:1]:
                out.add("Decisions", ref + _clip(sentence, 200))
            for sentence in [s for s in sentences if _DIGIT_RE.search(s) and s not in decisions][:2]:
                out.add("Numbers", ref + _clip(sentence, 200))


def _render(items: dict[str, list[str]], span: str) -> str:
    lines = [span]
    for name in SECTIONS:
        if items[name]:
            lines.append(f"## {name}")
            lines.extend(f"- {item}" for item in items[name])
    return "\n".join(lines)


def cap_text(text: str, max_tokens: int, estimator: Estimator) -> str:
    """Cut ``text`` (at a line break where possible) and mark the cut with ``…`` so that it counts
    at most ``max_tokens``. Each candidate is counted as it will be sent: an estimate need not add
    up over a text's parts, so a prefix that fits does not prove the prefix and its mark fit."""
    if estimator.count(text) <= max_tokens:
        return text

    def fits(end: int) -> bool:
        return estimator.count(text[:end] + "…") <= max_tokens

    # Invariant: ``low == 0 or fits(low)``. ``low`` only moves to a ``mid`` that fitted (counts are
    # deterministic, as the Estimator protocol promises), so the kept prefix fits with its mark
    # whatever the counts do; when they rise with length it is also the longest one that does. A
    # non-monotone estimator can only make it shorter, never wrong; the search costs O(log n) counts.
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    newline = text.rfind("\n", 0, low)
    if newline > low // 2 and fits(newline):  # keeps the invariant: newline > 0 and it fits
        low = newline
    if low == 0 and not fits(0):  # not even the mark fits
        return ""
    return text[:low] + "…"


@dataclass(frozen=True, slots=True)
class ExtractiveSummariser:
    """The default summariser: deterministic, extractive, no model.

    It keeps, from the folded messages: user instructions (what a person typed), decisions (the
    assistant's sentences that say what it will do or concluded), file paths, commands (tool calls
    with their key argument), errors (error lines of tool results) and numbers (sentences with
    figures); merges the previous summary section by section; and drops the oldest items of the
    least important sections until the text fits ``max_tokens``. Instructions go last.
    """

    def __call__(self, request: SummaryRequest) -> str:
        out = _Sections()
        _parse_previous(request.previous, out)
        for message in request.messages:
            _extract(message, out)
        last = request.first_index + len(request.messages) - 1
        span = f"Covers stored messages up to #{last}."
        est = request.estimator
        budget = request.max_tokens
        # A cheap, generous size per item (UTF-8 bytes / 3: over the estimate for ASCII, Cyrillic,
        # CJK and code alike); the rendered text is measured exactly at the end.
        sizes = {name: [len(item.encode()) // 3 + 3 for item in out.items[name]] for name in SECTIONS}
        section_tokens = {name: sum(sizes[name]) for name in SECTIONS}
        total = est.count(span) + sum(section_tokens.values()) + 4 * len(SECTIONS)
        while total > budget:
            # Drop the oldest item of the section that is largest for its weight; every section
            # keeps its newest item (instructions: their newest three).
            candidates = [
                name for name in SECTIONS if len(out.items[name]) > (3 if name == "Instructions" else 1)
            ]
            if not candidates:
                break
            name = max(candidates, key=lambda n: section_tokens[n] / SECTION_WEIGHTS[n])
            out.items[name].pop(0)
            dropped = sizes[name].pop(0)
            section_tokens[name] -= dropped
            total -= dropped
        return cap_text(_render(out.items, span), budget, est)


# -- an optional model-backed summariser -----------------------------------------------------------

SYSTEM_PROMPT: Final = (
    "You compact an AI agent's conversation so it can continue in a smaller context. Write a "
    "compact record of what happened and what was decided: the user's instructions and constraints "
    "(verbatim where short), decisions and their reasons, files touched, commands run, errors seen, "
    "and key numbers. Merge the previous summary in; drop nothing that still applies, drop what was "
    "superseded. Plain text, no preamble."
)


def render_transcript(messages: Iterable[Message], max_chars: int) -> str:
    """A plain-text transcript of messages for a model to summarise (long results are cut)."""
    parts: list[str] = []
    used = 0
    for message in messages:
        for block in message.blocks:
            if block.kind is BlockKind.TOOL_CALL:
                line = f"[{message.role} #{message.index} called {block.name}] {_clip(block.text, 400)}"
            elif block.kind is BlockKind.TOOL_RESULT:
                line = f"[tool result #{message.index}] {_clip(block.text, 1200)}"
            elif block.kind is BlockKind.ARTIFACT:
                line = f"[{block.artifact.value if block.artifact else 'artifact'} #{message.index}]"
            elif block.text:
                line = f"[{message.role} #{message.index}] {_clip(block.text, 4000)}"
            else:
                continue
            if used + len(line) > max_chars:
                parts.append("[… transcript cut to fit the summariser's input …]")
                return "\n".join(parts)
            parts.append(line)
            used += len(line) + 1
    return "\n".join(parts)


@dataclass(frozen=True, slots=True)
class OpenAICompatibleSummariser:
    """Summarises through any OpenAI-compatible ``/chat/completions`` endpoint (stdlib urllib).

    Args:
        base_url: The API's base URL, e.g. ``http://127.0.0.1:8000/v1``.
        model: The model name to ask for.
        api_key: Sent as a bearer token when set.
        timeout: Seconds to wait for an answer.
        max_input_chars: The transcript sent is cut to this many characters.

    Raises:
        SummariserError: On any network, HTTP or format failure (the pipeline then falls back to
            turn fitting; nothing is retried).
    """

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0
    max_input_chars: int = 200_000

    def __call__(self, request: SummaryRequest) -> str:
        import urllib.request  # here, not at import: importing the pipeline opens no network stack

        transcript = render_transcript(request.messages, self.max_input_chars)
        user = f"Previous summary:\n{request.previous or '(none)'}\n\nConversation to fold in:\n{transcript}"
        body = {
            "model": self.model,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}],
            "max_tokens": request.max_tokens,
            "temperature": 0,
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = self.base_url.rstrip("/") + "/chat/completions"
        http = urllib.request.Request(url, data=orjson.dumps(body), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(http, timeout=self.timeout) as response:
                data = orjson.loads(response.read())
            text = data["choices"][0]["message"]["content"]
        except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:  # URLError is an OSError
            raise SummariserError(f"summariser at {self.base_url} failed: {exc}") from None
        if not isinstance(text, str) or not text.strip():
            raise SummariserError(f"summariser at {self.base_url} returned no text")
        return cap_text(text.strip(), request.max_tokens, request.estimator)


DEFAULT_SUMMARISER: Final = ExtractiveSummariser()


# -- the stage -------------------------------------------------------------------------------------


def run_summarise(
    state: ScopeState,
    *,
    request_index: int,
    over: float,
    down_to: float,
    min_units: int,
    summariser: Summariser,
    max_tokens: int,
    keep_recent: float,
) -> tuple[StageRun, SummaryMarker] | None:
    """Fold the older part of the tail into a summary so the request fits ``down_to``.

    The recent tail kept verbatim is set by a token budget, not a message count: the newest
    complete units that fit both ``down_to`` and ``keep_recent`` tokens, never fewer than
    ``min_units`` units; tool calls stay with their results.

    Returns:
        The stage run and its marker, or None when it was not needed, could not help, or the
        summariser failed (the caller then falls back to turn fitting).
    """
    before = state.size()
    if before <= over:
        return None
    high = state.min_start(min_units)
    if high <= state.start:
        return None
    reserve = max_tokens + MESSAGE_OVERHEAD_TOKENS + state.estimator.count(SUMMARY_HEADER) + 2
    allowed = min(down_to, state.head_tokens + reserve + keep_recent)
    cut = state.first_fit(high, allowed, header=reserve) or high
    fold_from = state.summary.upto if state.summary is not None else state.head_end
    previous = state.summary.text.split("\n", 1)[1] if state.summary is not None else ""
    request = SummaryRequest(
        previous, state.messages[fold_from:cut], fold_from, max_tokens, state.estimator
    )
    try:
        body = summariser(request)
    except Exception:
        return None
    text = summary_message_text(cap_text(body, max_tokens, state.estimator))
    tokens = MESSAGE_OVERHEAD_TOKENS + state.estimator.count(text)
    tail_after = state.tail_from(cut)
    if state.head_tokens + tokens + tail_after >= before:
        return None
    summarised = state.ledger.stored_between(fold_from, cut)
    if state.summary is not None:
        summarised += state.summary.tokens
    folded = cut - state.start
    state.set_summary(SummaryState(text, cut, tokens, request_index))
    after = state.size()
    marker = SummaryMarker(
        request_index=request_index,
        tokens_before=before,
        tokens_after=after,
        tokens_freed=before - after,
        tokens_summarised=summarised,
        summary_tokens=tokens,
        recent_kept_tokens=state.tail_tokens,
        recent_kept_messages=state.count - state.start,
        summary_text=text,
    )
    return StageRun(Stage.SUMMARIZE, folded, before - after, before, after), marker
