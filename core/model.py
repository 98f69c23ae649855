"""The session model: immutable records for everything ctxscope reads from an agent log.

A log is a stream of events. Each event is one of the records below, tagged with the *scope* it
belongs to (the main agent or one of its sub-agents):

* :class:`ScopeHeader` — who the scope is: session id, parent scope, model, context limit, budget.
* :class:`Message` — one stored message (system, user, assistant or tool) made of :class:`Block` s.
* :class:`ModelRequest` — a model call made over every message stored in the scope before it, with
  the usage the provider reported (or the error it got, such as a context-length refusal).
* :class:`ObservedCompaction` — a compaction the agent itself reported (Claude Code's
  ``compact_boundary`` and ``microcompact_boundary``, the Agent SDK's ``compact_boundary``,
  Codex's ``compacted``, or an agent writing ctxscope's own format).
* :class:`ObservedRollback` — turns the agent took back out of its live context (Codex
  ``thread_rolled_back``).

Records never change once made. A message's token estimate is computed once per estimator and
memoised on the message, by the message alone: :meth:`Message.tokens` and
:meth:`Message.block_tokens` fill the memo on first use, and a reader that elides text hands the
count over the full text to the constructor (see :meth:`~ctxscope.core.session.Session.add_message`).
Nothing else writes it.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .tokens import DEFAULT_ESTIMATOR, Estimator, get_estimator

MAIN_SCOPE: Final = "main"
"""Scope id of the main agent when a log does not name one."""

Role = Literal["system", "user", "assistant", "tool"]
ROLES: Final[tuple[Role, ...]] = ("system", "user", "assistant", "tool")

MESSAGE_OVERHEAD_TOKENS: Final = 4
"""Tokens a chat format spends per message on role markers and separators."""

TOOL_CALL_OVERHEAD_TOKENS: Final = 8
"""Tokens spent per tool call on its id, name and framing, besides the input itself."""

IMAGE_TOKENS_PER_PIXEL: Final = 1 / 750
"""Anthropic's documented image cost: about width × height / 750 tokens."""

IMAGE_TOKEN_CAP: Final = 1600
"""An image is resized by the provider so that it never costs more than about this many tokens."""

IMAGE_BYTES_PER_TOKEN: Final = 64
"""Fallback when only the payload size of an image is known (a compressed screenshot)."""


class BlockKind(enum.StrEnum):
    """What a content block is."""

    TEXT = "text"
    REASONING = "reasoning"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    ARTIFACT = "artifact"
    SUMMARY = "summary"


class ArtifactKind(enum.StrEnum):
    """Heavy artifacts that stage 1 of the pipeline trims."""

    DOM_SNAPSHOT = "dom_snapshot"
    SCREENSHOT = "screenshot"
    IMAGE = "image"


class Category(enum.StrEnum):
    """Where a token in a request comes from, for the per-category breakdown."""

    SYSTEM = "system"
    TOOL_DEFINITIONS = "tool_definitions"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL_RESULTS = "tool_results"
    ARTIFACTS = "artifacts"
    SUMMARY = "summary"


@dataclass(frozen=True, slots=True)
class Block:
    """One piece of a message's content.

    Attributes:
        kind: What the block is.
        text: The text: prose, reasoning, the tool call's input as JSON text, the tool result's
            content, the DOM snapshot's HTML, or the summary. Empty for binary images.
        call_id: Pairs a tool call with its result.
        name: The tool's name (tool calls; tool results when the log says it).
        artifact: The artifact's kind, for ``ARTIFACT`` blocks.
        size_bytes: Payload size of a binary artifact (screenshot or image).
        width: Image width in pixels, 0 when unknown.
        height: Image height in pixels, 0 when unknown.
        is_error: The tool result reports an error.
        elided_chars: Characters a reader dropped from the end of ``text`` to bound memory; the
            token estimate scales up for them.
    """

    kind: BlockKind
    text: str = ""
    call_id: str = ""
    name: str = ""
    artifact: ArtifactKind | None = None
    size_bytes: int = 0
    width: int = 0
    height: int = 0
    is_error: bool = False
    elided_chars: int = 0

    @property
    def chars(self) -> int:
        """Characters in the full text, including any the reader elided."""
        return len(self.text) + self.elided_chars

    @property
    def is_image(self) -> bool:
        return self.artifact in (ArtifactKind.SCREENSHOT, ArtifactKind.IMAGE)

    def tokens(self, estimator: Estimator) -> int:
        """This block's token estimate (not memoised; :meth:`Message.tokens` memoises)."""
        if self.artifact is not None and self.is_image:
            return image_tokens(self.width, self.height, self.size_bytes)
        text = self.text
        count = estimator.count(text)
        if self.elided_chars and text:
            count = math.ceil(count * (len(text) + self.elided_chars) / len(text))
        return count + self.call_tokens(estimator)

    def call_tokens(self, estimator: Estimator) -> int:
        """A tool call's tokens beside its input text (its name and framing); 0 for other blocks."""
        if self.kind is _TOOL_CALL:
            return estimator.count(self.name) + TOOL_CALL_OVERHEAD_TOKENS
        return 0


_TOOL_CALL: Final = BlockKind.TOOL_CALL


def default_estimator() -> Estimator:
    """The default estimator (looked up once: :meth:`Message.tokens` asks for it per message)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = get_estimator(DEFAULT_ESTIMATOR)
    return _DEFAULT


_DEFAULT: Estimator | None = None


def image_tokens(width: int, height: int, size_bytes: int) -> int:
    """Token cost of an image: from its pixel size when known, else from its payload size."""
    if width > 0 and height > 0:
        return min(IMAGE_TOKEN_CAP, math.ceil(width * height * IMAGE_TOKENS_PER_PIXEL))
    return min(IMAGE_TOKEN_CAP, max(1, math.ceil(size_bytes / IMAGE_BYTES_PER_TOKEN)))


def whitespace_only(text: str) -> bool:
    """``text`` is spaces and line breaks only, and not empty (Claude Code writes ``"\\n\\n"``
    text blocks before a tool call): nothing to read, though its characters count in a message's
    tokens and in a request's per-script figures like any other text."""
    return bool(text) and not text.strip()


def text_block(text: str) -> Block:
    return Block(BlockKind.TEXT, text)


def tool_call(call_id: str, name: str, input_json: str) -> Block:
    return Block(BlockKind.TOOL_CALL, input_json, call_id=call_id, name=name)


def tool_result(call_id: str, content: str, *, name: str = "", is_error: bool = False) -> Block:
    return Block(BlockKind.TOOL_RESULT, content, call_id=call_id, name=name, is_error=is_error)


@dataclass(frozen=True, slots=True, eq=False)
class Message:
    """One stored message of a scope's history.

    Attributes:
        index: Position in the scope's stored history (0-based, dense).
        role: ``system``, ``user``, ``assistant`` or ``tool``.
        blocks: The content, in order.
        scope_id: The scope the message belongs to.
        meta: An injected reminder or caveat: it counts toward the context but does not start a
            user turn.
        line: 1-based line number of the log line it came from (0 when not from a log).
        category_hint: Overrides the per-category attribution (e.g. ``tool_definitions`` for a
            system message that only lists tools).
    """

    index: int
    role: Role
    blocks: tuple[Block, ...]
    scope_id: str = MAIN_SCOPE
    meta: bool = False
    line: int = 0
    category_hint: Category | None = None
    _tokens: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def known_estimate(self, estimator_name: str) -> int | None:
        """The memoised estimate for an estimator (None until computed or handed over)."""
        return self._tokens.get(estimator_name)

    def _memoise(self, estimator_name: str, tokens: int) -> None:
        """The one place the memo is written (the constructor aside: a reader that elides text
        hands over the count taken over the full text)."""
        self._tokens[estimator_name] = tokens

    def tokens(self, estimator: Estimator | None = None) -> int:
        """Estimated tokens of this message in a request, memoised per estimator."""
        est = estimator or default_estimator()
        cached = self._tokens.get(est.name)
        if cached is None:
            cached = MESSAGE_OVERHEAD_TOKENS
            for block in self.blocks:
                cached += block.tokens(est)
            self._memoise(est.name, cached)
        return cached

    def block_tokens(self, estimator: Estimator) -> list[int]:
        """Each block's estimated tokens; with the overhead they add up to :meth:`tokens`.

        A reader that elides long text passes the message's count over the full text as its memo;
        a block's own count only scales its kept text up, so the difference goes to the elided
        blocks (in proportion to their counts). Without a memo the sum is memoised, as
        :meth:`tokens` would, so the blocks are counted once.
        """
        counts = [block.tokens(estimator) for block in self.blocks]
        name = estimator.name
        memo = self._tokens.get(name)
        if memo is None:
            self._memoise(name, MESSAGE_OVERHEAD_TOKENS + sum(counts))
            return counts
        delta = memo - MESSAGE_OVERHEAD_TOKENS - sum(counts)
        if delta == 0 or not counts:
            return counts
        targets = [k for k, block in enumerate(self.blocks) if block.elided_chars]
        if not targets:
            targets = [max(range(len(counts)), key=counts.__getitem__)]
        weight = sum(counts[k] for k in targets) or len(targets)
        remaining = delta
        for n, k in enumerate(targets):
            share = remaining if n == len(targets) - 1 else delta * (counts[k] or 1) // weight
            share = max(share, -counts[k])
            counts[k] += share
            remaining -= share
        return counts

    @property
    def text(self) -> str:
        """All text of the message joined by newlines (for previews and summaries)."""
        return "\n".join(block.text for block in self.blocks if block.text)

    @property
    def author_role(self) -> Role:
        """Who wrote the message: its role, except ``tool`` for a user-role message that holds
        only tool results (Claude Code and the Anthropic API send tool output as the user's)."""
        if self.role == "user" and self.blocks and all(b.kind is BlockKind.TOOL_RESULT for b in self.blocks):
            return "tool"
        return self.role

    @property
    def tool_calls(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind is BlockKind.TOOL_CALL)

    @property
    def tool_results(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind is BlockKind.TOOL_RESULT)

    @property
    def has_tool_results(self) -> bool:
        return any(b.kind is BlockKind.TOOL_RESULT for b in self.blocks)

    @property
    def is_user_turn_start(self) -> bool:
        """A message a person typed: a non-meta user message that is not only tool results."""
        return (
            self.role == "user"
            and not self.meta
            and any(b.kind in (BlockKind.TEXT, BlockKind.ARTIFACT) for b in self.blocks)
            and not self.has_tool_results
        )

    @property
    def is_summary(self) -> bool:
        return any(b.kind is BlockKind.SUMMARY for b in self.blocks)

    def category(self) -> Category:
        """The category a message's tokens count under when it is not split by block."""
        if self.category_hint is not None:
            return self.category_hint
        if self.is_summary:
            return Category.SUMMARY
        if self.role == "system":
            return Category.SYSTEM
        if self.role == "tool" or self.has_tool_results:
            return Category.TOOL_RESULTS
        return Category.USER if self.role == "user" else Category.ASSISTANT

    def replace_blocks(self, blocks: tuple[Block, ...]) -> Message:
        """A copy with other content (the pipeline reshapes copies; stored history is untouched)."""
        return Message(
            self.index, self.role, blocks, self.scope_id, self.meta, self.line, self.category_hint
        )


@dataclass(frozen=True, slots=True)
class ScopeHeader:
    """Who a scope is. One log may hold several scopes (a main agent and its sub-agents).

    Attributes:
        scope_id: Unique within the session; ``main`` for the main agent by default.
        session_id: The agent session the scope belongs to.
        parent_id: The scope that started this one (None for the main agent).
        model: Model name at the start; a request may name another.
        context_limit: The model's hard limit in tokens (the run's real tier limit), if known.
        working_budget: The working budget in tokens the agent compacts towards, if known.
        label: A human name for the scope (e.g. the sub-agent's task).
        line: Log line it came from.
    """

    scope_id: str
    session_id: str = ""
    parent_id: str | None = None
    model: str = ""
    context_limit: int | None = None
    working_budget: int | None = None
    label: str = ""
    line: int = 0


class ErrorKind(enum.StrEnum):
    """Why a model call failed."""

    CONTEXT_LENGTH = "context_length"
    """The request was larger than the model can read: the user must start over."""
    INVALID_REQUEST = "invalid_request"
    """Refused as invalid for another reason: never retried, the same request gets the same answer."""
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Usage:
    """What the provider reported for one call.

    Attributes:
        prompt_tokens: The whole prompt, cached part included (the context-window occupancy).
        cached_prompt_tokens: The part read from the provider's prefix cache.
        cache_write_tokens: The part written to the cache on this call.
        output_tokens: Tokens generated (often unreliable in streamed logs).
    """

    prompt_tokens: int
    cached_prompt_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True, slots=True)
class RequestError:
    kind: ErrorKind
    message: str = ""


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """A model call made over the first ``message_count`` stored messages of its scope.

    Attributes:
        index: The call's position among its scope's calls (0-based).
        scope_id: The scope that made the call.
        message_count: How many stored messages existed when the call was made.
        model: The model called ('' when the log does not say).
        usage: Provider-reported usage, if the log has it.
        error: The error the call got, if any.
        request_id: The provider's id for the call (used to deduplicate).
        line: Log line it came from.
        timestamp: ISO-8601 time if the log has it.
        context_window: The context window the agent itself used for this call, when the log
            says (Codex ``model_context_window``); None otherwise (see
            :func:`~ctxscope.core.model_info.context_window`).
        recorded_cost: What the agent itself recorded this call cost, in US dollars, when its
            log says (Aider's ``Cost: $… message``, OpenCode's ``step-finish.cost``, Cline's
            ``api_req_started.cost``); None otherwise. ctxscope's own estimate is
            :func:`~ctxscope.core.pricing.cost_of`; the two are shown side by side.
    """

    index: int
    scope_id: str
    message_count: int
    model: str = ""
    usage: Usage | None = None
    error: RequestError | None = None
    request_id: str = ""
    line: int = 0
    timestamp: str = ""
    context_window: int | None = None
    recorded_cost: float | None = None


SUMMARIZE: Final = "summarize"
"""Stage of a summary compaction: the history is replaced by a summary (and what the agent kept)."""

CLEAR_TOOL_RESULTS: Final = "clear_tool_results"
"""Stage of a clearing of old tool results that leaves the rest of the history in place (Claude
Code's ``microcompact_boundary``: the analogue of stage 2 of ctxscope's pipeline)."""

REPORTED: Final = "reported"
"""A figure the agent wrote about the compaction itself (``preTokens``, ``postTokens``)."""

LAST_CALL: Final = "last_call"
"""Tokens before taken from the prompt of the last call with usage before the compaction."""

NEXT_CALL: Final = "next_call"
"""Tokens after taken from the prompt of the first call with usage after the compaction."""


@dataclass(frozen=True, slots=True)
class ObservedCompaction:
    """A compaction the agent reported about itself.

    Attributes:
        scope_id: The scope that compacted.
        message_count: Stored messages before the compaction point. After a ``summarize``
            compaction the live context restarts at this index (the summary and what was kept
            are stored from here on).
        stage: What kind of compaction: :data:`SUMMARIZE` (a summary replaces the history) or
            :data:`CLEAR_TOOL_RESULTS` (old tool results cleared, the rest kept); pipeline stage
            names for ctxscope's own logs.
        trigger: ``auto`` or ``manual`` when the log says.
        tokens_before: Context size before: the agent's own figure (``preTokens``,
            ``pre_tokens``) when it wrote one, else the prompt of the last call with usage.
        tokens_after: Context size after: the agent's own figure (``postTokens``; ``preTokens``
            − ``tokensSaved`` for a clearing) when it wrote one, else the prompt of the next call
            with usage (filled in by :meth:`~ctxscope.core.session.Session.add_request`).
        summary: The summary text, when the log carries it.
        line: Log line it came from.
        request_index: Index of the scope's first request after the compaction (the call it
            precedes; equal to the number of requests before it). Set by
            :meth:`~ctxscope.core.session.Session.add_compaction`.
        tokens_before_source: Where ``tokens_before`` came from: :data:`REPORTED`,
            :data:`LAST_CALL`, or ``""`` when unknown.
        tokens_after_source: Where ``tokens_after`` came from: :data:`REPORTED`,
            :data:`NEXT_CALL`, or ``""`` while unknown.
        duration_ms: How long the compaction took, when the agent says (``durationMs``).
        tokens_saved: Tokens a clearing freed by the agent's own count (``tokensSaved``).
        compacted_tool_ids: The tool calls whose results a clearing emptied
            (``compactedToolIds``).
        summary_index: Index of the stored message holding the summary (None when the log
            carries none).
        kept_indices: Stored messages the agent carried over verbatim into the new context:
            Codex ``replacement_history`` items other than the summary, Claude Code files and
            attachments re-attached after the boundary (before the next call).
        summariser_scope: The scope whose model call wrote the summary (a Claude Code
            ``agent-acompact-*`` file), '' when the log has none.
        timestamp: ISO-8601 time of the compaction record, if the log has it.
    """

    scope_id: str
    message_count: int
    stage: str = SUMMARIZE
    trigger: str = ""
    tokens_before: int | None = None
    tokens_after: int | None = None
    summary: str = ""
    line: int = 0
    request_index: int = -1
    tokens_before_source: str = ""
    tokens_after_source: str = ""
    duration_ms: int | None = None
    tokens_saved: int | None = None
    compacted_tool_ids: tuple[str, ...] = ()
    summary_index: int | None = None
    kept_indices: tuple[int, ...] = ()
    summariser_scope: str = ""
    timestamp: str = ""

    @property
    def tokens_freed(self) -> int | None:
        if self.tokens_before is None or self.tokens_after is None:
            return None
        return self.tokens_before - self.tokens_after

    @property
    def restarts_context(self) -> bool:
        """The live context restarts at :attr:`message_count` (a summary compaction)."""
        return self.stage == SUMMARIZE


@dataclass(frozen=True, slots=True)
class ObservedRollback:
    """Turns the agent took out of its live context (Codex ``thread_rolled_back``).

    The stored messages ``[dropped_start, message_count)`` stay in the stored history (they were
    written) but are no longer sent: requests from :attr:`request_index` on leave them out (see
    :meth:`~ctxscope.core.session.Scope.context_messages`).

    Attributes:
        scope_id: The scope that rolled back.
        message_count: Stored messages when the rollback was written.
        turns: How many user turns were taken back (``num_turns``).
        dropped_start: Index of the first stored message taken out of the live context (the start
            of the earliest rolled-back user turn; ``message_count`` when there was none to take).
        request_index: Index of the scope's first request after the rollback (set by
            :meth:`~ctxscope.core.session.Session.add_rollback`).
        line: Log line it came from.
        timestamp: ISO-8601 time, if the log has it.
    """

    scope_id: str
    message_count: int
    turns: int
    dropped_start: int
    request_index: int = -1
    line: int = 0
    timestamp: str = ""

    @property
    def dropped(self) -> range:
        """Indexes of the stored messages taken out of the live context."""
        return range(self.dropped_start, self.message_count)


@dataclass(frozen=True, slots=True)
class ObservedError:
    """An error the agent wrote in place of a model response, which is not a model call
    (Claude Code's ``<synthetic>`` API and authentication error messages).

    Attributes:
        scope_id: The scope it happened in.
        message_count: Stored messages when it was written.
        error: What went wrong (``context_length`` for "Prompt is too long").
        line: Log line it came from.
        timestamp: ISO-8601 time, if the log has it.
    """

    scope_id: str
    message_count: int
    error: RequestError
    line: int = 0
    timestamp: str = ""


Event = ScopeHeader | Message | ModelRequest | ObservedCompaction | ObservedRollback | ObservedError
"""Anything a reader yields into a session."""


@dataclass(frozen=True, slots=True)
class ToolRound:
    """A tool call and its result: the unit that turn fitting never splits.

    Attributes:
        call_id: The id pairing them.
        call_index: Index of the message holding the call.
        result_index: Index of the message holding the result (None while it is pending).
        name: The tool's name, as the call gives it.
    """

    call_id: str
    call_index: int
    result_index: int | None
    name: str = ""


def fast_frozen_init(cls: type) -> None:
    """Give a frozen, slotted dataclass a faster ``__init__`` with the same signature.

    A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``
    (about 0.07 µs a field), and a reader makes several records per log line. This one lends
    the new instance, for the length of ``__init__``, a plain class with the very same slots
    (``__class__`` assignment between identical layouts), stores the fields as ordinary
    attributes and gives the instance its class back: about three times faster. Instances are
    the same as before and stay frozen; ``dataclasses.replace`` goes through this ``__init__``
    too. A subclass instance, or a class whose layout does not allow the swap, has each slot set
    through its descriptor instead.
    """
    fields = dataclasses.fields(cls)
    twin = type(f"_{cls.__name__}Fields", (), {"__slots__": tuple(f.name for f in fields)})
    namespace: dict[str, Any] = {"_MISSING": _MISSING, "_CLS": cls, "_TWIN": twin, "_osa": object.__setattr__}
    params: list[str] = []
    values: list[str] = []
    for position, f in enumerate(fields):
        namespace[f"_set{position}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default{position}"] = f.default
            params.append(f"{f.name}=_default{position}")
            values.append(f.name)
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory{position}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            values.append(f"(_factory{position}() if {f.name} is _MISSING else {f.name})")
        else:
            params.append(f.name)
            values.append(f.name)
    swap = [f"        self.{f.name} = {value}" for f, value in zip(fields, values, strict=True)]
    slow = [f"        _set{i}(self, {value})" for i, value in enumerate(values)]
    source = "\n".join(
        [
            f"def __init__(self, {', '.join(params)}):",
            "    if type(self) is _CLS:",
            '        _osa(self, "__class__", _TWIN)',
            *swap,
            "        self.__class__ = _CLS",
            "    else:",
            *slow,
            "",
        ]
    )
    exec(source, namespace)  # our own field names and defaults: nothing from a log
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    try:  # the layouts must allow the swap; otherwise keep the descriptor path only
        probe: Any = object.__new__(cls)
        object.__setattr__(probe, "__class__", twin)
        probe.__class__ = cls
    except TypeError:  # pragma: no cover - every class here has the plain slotted layout
        namespace["_CLS"] = None
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning to a method


_MISSING: Final = object()

for _cls in (
    Block,
    Message,
    ScopeHeader,
    Usage,
    RequestError,
    ModelRequest,
    ObservedCompaction,
    ObservedRollback,
    ObservedError,
    ToolRound,
):
    fast_frozen_init(_cls)
del _cls
