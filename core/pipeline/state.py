"""The pipeline's incremental state for one scope: what it knows about the stored history and
what the outgoing request currently looks like.

A request is always the scope's *head* (leading system messages and the first user message,
never removed), then a *header* (the current summary and/or the trimming note, when there is
one), then the *tail*: every stored message from ``start`` to the newest, each with stage 1 and
stage 2 applied. Every decision the stages make is one of four monotone moves — an artifact aged
to a trace, a tool result cleared, ``start`` moved forward, a summary replaced by a larger one —
so the state only ever advances, and each stored message is visited a bounded number of times
over a whole session. That is what makes replay linear in the session's length:

* per-message token costs are computed once (through :meth:`Message.block_tokens`, which the
  message memoises itself; the pipeline writes nothing into stored messages);
* each message's tokens in the request live in a Fenwick tree, so any prefix of a request is
  measured in O(log n);
* running totals (head, tail, per category, per tool, per fate) are updated by the moves.

:class:`ScopeState` is three parts: the :class:`Ledger` (what each stored message is and costs;
append-only), the :class:`Window` (the moves made so far: where the tail starts, the summary, what
is cleared and aged) and the :class:`Accounts` (the request as it stands, in tokens). The stage
modules (:mod:`.clearing`, :mod:`.summarize`, :mod:`.fitting`, :mod:`.guard`, :mod:`.legacy`)
decide and call its methods; it applies the moves and keeps the accounts. Its per-message parts are
:class:`~ctxscope.core.retention.Held`: a live view releases what no later request can send
(:meth:`ScopeState.release`), so they stay as large as the live window.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..model import MESSAGE_OVERHEAD_TOKENS, ArtifactKind, Block, BlockKind, Category, Message
from ..retention import Held, HeldInts
from ..rounds import ToolRounds
from ..snapshot import Fate
from ..tokens import Estimator
from .artifacts import ArtifactForms, Level, artifact_forms, keeps_reduced
from .config import PipelineConfig
from .notes import CLEARED_NOTE, SUMMARY_HEADER, TRIM_NOTE

FATES: Final[tuple[Fate, ...]] = (Fate.KEPT, Fate.TRIMMED, Fate.CLEARED, Fate.SUMMARISED, Fate.DROPPED)
KEPT, TRIMMED, CLEARED, SUMMARISED, DROPPED = range(5)


class Fenwick:
    """A growable Fenwick (binary indexed) tree of integers: point update and prefix sum in O(log n).

    Stored as a 64-bit array: 8 bytes a value, where a list of Python ints costs about 36. After
    :meth:`drop` it holds the first ``head`` positions and those from ``base`` on: a prefix sum
    then leaves out the dropped positions, so only differences of prefixes from ``base`` on (and
    prefixes within the head) mean what they did.
    """

    __slots__ = ("_base", "_head", "_tree")

    def __init__(self) -> None:
        self._tree = array("q", [0])
        self._head = 0
        self._base = 0

    def __len__(self) -> int:
        return len(self._tree) - 1 + self._base - self._head

    @property
    def base(self) -> int:
        return self._base

    def _slot(self, position: int) -> int:
        return position if position < self._head else position - self._base + self._head

    def append(self, value: int) -> None:
        n = len(self._tree)
        low = n & -n
        self._tree.append(value + self._raw_prefix(n - 1) - self._raw_prefix(n - low))

    def add(self, index: int, delta: int) -> None:
        tree = self._tree
        size = len(tree)
        i = self._slot(index) + 1
        while i < size:
            tree[i] += delta
            i += i & -i

    def _raw_prefix(self, count: int) -> int:
        tree = self._tree
        total = 0
        i = count
        while i > 0:
            total += tree[i]
            i &= i - 1
        return total

    def prefix(self, count: int) -> int:
        """Sum of the first ``count`` values (less the dropped ones)."""
        return self._raw_prefix(self._slot(count) if count > self._head else count)

    def drop(self, head: int, base: int, value: Callable[[int], int]) -> None:
        """Keep positions ``[0, head)`` and ``[base, len)`` only, rebuilt from ``value(position)``."""
        end = len(self)
        self._head, self._base = head, base
        tree = array("q", [0])
        tree.extend(value(p) for p in range(head))
        tree.extend(value(p) for p in range(base, end))
        size = len(tree)
        for i in range(1, size):
            parent = i + (i & -i)
            if parent < size:
                tree[parent] += tree[i]
        self._tree = tree


@dataclass(frozen=True, slots=True)
class ResultCost:
    """One tool-result block of a message."""

    block: int
    tokens: int
    tool: str
    eligible: bool


@dataclass(frozen=True, slots=True)
class ArtifactCost:
    """One artifact block of a message with its forms and their token costs by level."""

    block: int
    kind: ArtifactKind
    forms: ArtifactForms | None
    tokens: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class MessageCost:
    """What a stored message costs, computed once.

    Attributes:
        stored: Its tokens as stored.
        base: Tokens of everything but tool results and artifacts, by category (overhead included).
        tools: Tokens of its tool calls, by tool name.
        results: Its tool-result blocks.
        artifacts: Its artifact blocks.
    """

    stored: int
    base: tuple[tuple[Category, int], ...]
    tools: tuple[tuple[str, int], ...]
    results: tuple[ResultCost, ...]
    artifacts: tuple[ArtifactCost, ...]


Contribution = tuple[int, tuple[tuple[Category, int], ...], tuple[tuple[str, int], ...]]
"""A message's tokens in the request as it stands: in all, by category, by tool."""


@dataclass(frozen=True, slots=True)
class SummaryState:
    """The summary currently standing in for ``[head_end, upto)`` of the stored history.

    Attributes:
        text: The summary text.
        upto: Stored messages before this index (after the head) are folded into it.
        tokens: Tokens of the summary message.
        request_index: The request at which it was made.
    """

    text: str
    upto: int
    tokens: int
    request_index: int

    def message(self, scope_id: str) -> Message:
        return Message(-1, "user", (Block(BlockKind.SUMMARY, self.text),), scope_id)


def summary_message_text(body: str) -> str:
    return f"{SUMMARY_HEADER}\n{body}"


class Ledger:
    """What each stored message of the scope is and costs: appended to, never changed.

    Attributes:
        messages: The stored messages taken in.
        costs: What each costs (:class:`MessageCost`).
        stored: Each one's tokens as stored (``costs[i].stored``, in an array).
        stored_total: Tokens of every stored message as stored.
        rounds: The tool rounds (a result's call: its message and tool name).
        cut_allowed: 1 where the tail may start: no tool round spans the position.
        turn_starts: Messages that start a user turn, in order.
        result_message: Every tool result in order (its *ordinal*): the message holding it ...
        result_position: ... its position among that message's results ...
        result_prefix: ... and the tokens of the results before it (one more entry: all of them).
        clearable: Ordinals of the results worth clearing.
        artifacts: Per artifact kind, (message, position among its artifacts) of each, in order.
        newest_round: Where the newest tool result's round starts (its call's message), -1 before any.
    """

    __slots__ = (
        "artifacts", "clearable", "costs", "cut_allowed", "messages", "newest_round", "result_message",
        "result_position", "result_prefix", "rounds", "stored", "stored_total", "turn_starts",
    )

    def __init__(self) -> None:
        self.messages: Held[Message] = Held()
        self.costs: Held[MessageCost] = Held()
        self.stored = HeldInts()
        self.stored_total = 0
        self.rounds = ToolRounds()
        self.cut_allowed = HeldInts("B")
        self.turn_starts: list[int] = []
        self.result_message = HeldInts()
        self.result_position = HeldInts()
        self.result_prefix = HeldInts("q", [0])
        self.clearable = HeldInts()
        self.artifacts: dict[ArtifactKind, list[tuple[int, int]]] = {kind: [] for kind in ArtifactKind}
        self.newest_round = -1

    def __len__(self) -> int:
        return len(self.messages)

    def stored_between(self, start: int, stop: int) -> int:
        """Tokens, as stored, of messages ``[start, stop)`` (all held)."""
        return sum(self.stored.values(start, stop))

    def forbid_cuts(self, start: int, stop: int) -> None:
        """No cut in ``[start, stop)`` (a tool round spans it); released positions are past caring."""
        cuts = self.cut_allowed
        for s in range(start, min(stop, cuts.pinned)):
            cuts[s] = 0
        raw, offset = cuts.raw, cuts.offset
        for s in range(max(start, offset), stop):
            raw[s - offset] = 0

    def release(self, head: int, stop: int) -> int:
        """Forget messages ``[head, stop)``, their tool rounds and results; returns the ordinal of
        the oldest result kept."""
        self.rounds.forget(self.messages.release(stop, keep_first=head), stop)
        self.costs.release(stop, keep_first=head)
        self.stored.release(stop, keep_first=head)
        self.cut_allowed.release(stop, keep_first=head)
        del self.turn_starts[: bisect_left(self.turn_starts, stop)]
        kept = self.result_message.offset + bisect_left(self.result_message.raw, stop)
        self.result_message.release(kept)
        self.result_position.release(kept)
        self.result_prefix.release(kept)
        self.clearable.release(self.clearable.offset + bisect_left(self.clearable.raw, kept))
        return kept


class Window:
    """The moves the stages made so far: every one only advances.

    Attributes:
        head_end: Messages before this index are the head (always sent).
        head_known: The head is complete (a message that is not part of it arrived).
        start: First stored message of the tail (the messages between the head and it are left out).
        summary: The summary in force.
        clearable_considered: Clearable results (:attr:`Ledger.clearable`) looked at so far; those
            still in the tail are cleared.
        cleared: Message index → bit mask over its tool results that are cleared.
        levels: Message index → level of each of its artifact blocks.
        released_to: Messages from :attr:`head_end` up to here were released (:meth:`ScopeState.release`).
    """

    __slots__ = ("clearable_considered", "cleared", "head_end", "head_known", "levels", "released_to",
                 "start", "summary")

    def __init__(self) -> None:
        self.head_end = 0
        self.head_known = False
        self.start = 0
        self.summary: SummaryState | None = None
        self.clearable_considered = 0
        self.cleared: dict[int, int] = {}
        self.levels: dict[int, list[Level]] = {}
        self.released_to = 0

    def in_request(self, i: int) -> bool:
        return i < self.head_end or i >= self.start

    def note_present(self, start: int | None = None) -> bool:
        """Whether the trimming note is sent (with the tail from ``start``: default, the current)."""
        s = self.start if start is None else start
        floor = self.summary.upto if self.summary is not None else self.head_end
        return s > floor


class Accounts:
    """The request as it stands, in tokens.

    Attributes:
        sent: Each message's tokens in the request (what it costs when sent; kept once left out).
        tree: The same in a Fenwick tree (prefix sums).
        contributions: Each message's :data:`Contribution`.
        fates: Each message's fate (an index into :data:`FATES`).
        fate_counts: Messages per fate.
        head_tokens: Tokens of the head.
        tail_tokens: Tokens of the tail.
        by_category: Tokens of the head and tail by category.
        by_tool: Tokens of the head and tail by tool.
        first_change: The first position whose content changed since the last request (the cached
            prefix ends there), None when nothing changed.
    """

    __slots__ = ("by_category", "by_tool", "contributions", "fate_counts", "fates", "first_change",
                 "head_tokens", "sent", "tail_tokens", "tree")

    def __init__(self) -> None:
        self.sent = HeldInts()
        self.tree = Fenwick()
        self.contributions: Held[Contribution] = Held()
        self.fates = HeldInts("B")
        self.fate_counts = [0, 0, 0, 0, 0]
        self.head_tokens = 0
        self.tail_tokens = 0
        self.by_category: dict[Category, int] = {}
        self.by_tool: dict[str, int] = {}
        self.first_change: int | None = None

    def book(self, contribution: Contribution, sign: int) -> None:
        """Add (``sign`` 1) or take out (-1) a message's tokens by category and tool."""
        by_category = self.by_category
        for cat, tokens in contribution[1]:
            by_category[cat] = by_category.get(cat, 0) + sign * tokens
        by_tool = self.by_tool
        for tool, tokens in contribution[2]:
            by_tool[tool] = by_tool.get(tool, 0) + sign * tokens

    def set_fate(self, i: int, fate: int) -> None:
        old = self.fates[i]
        if old != fate:
            self.fate_counts[old] -= 1
            self.fate_counts[fate] += 1
            self.fates[i] = fate

    def mark_change(self, pos: int) -> None:
        if self.first_change is None or pos < self.first_change:
            self.first_change = pos

    def release(self, head: int, stop: int) -> None:
        self.sent.release(stop, keep_first=head)
        self.contributions.release(stop, keep_first=head)
        self.fates.release(stop, keep_first=head)
        tree, sent = self.tree, self.sent
        if sent.offset - tree.base > max(4096, len(sent) - sent.offset):
            tree.drop(sent.pinned, sent.offset, sent.__getitem__)


class ScopeState:
    """Incremental pipeline state for one scope's history (see the module docs).

    Args:
        config: The pipeline configuration.
        estimator: The token estimator.
        trim_artifacts: Apply stage 1 (false for the legacy strategy).
        keep_tokens: Tool results fitting in this many tokens, newest first, are never cleared.
        scope_id: The scope (for the summary and note messages).
    """

    def __init__(
        self,
        config: PipelineConfig,
        estimator: Estimator,
        *,
        trim_artifacts: bool,
        keep_tokens: int,
        scope_id: str = "",
    ) -> None:
        self.config = config
        self.estimator = estimator
        self.trim_artifacts = trim_artifacts
        self.keep_tokens = keep_tokens
        self.scope_id = scope_id
        self.note_tokens = MESSAGE_OVERHEAD_TOKENS + estimator.count(TRIM_NOTE)
        self.cleared_note_tokens = estimator.count(CLEARED_NOTE)
        self.ledger = Ledger()
        self.window = Window()
        self.accounts = Accounts()

    def set_keep_tokens(self, keep_tokens: int) -> None:
        """A header that arrived later changed the budget: so many result tokens are never cleared."""
        self.keep_tokens = keep_tokens

    # -- reading -----------------------------------------------------------------------------------

    @property
    def count(self) -> int:
        """Stored messages taken in."""
        return len(self.ledger.messages)

    @property
    def messages(self) -> Held[Message]:
        return self.ledger.messages

    @property
    def start(self) -> int:
        return self.window.start

    @property
    def head_end(self) -> int:
        return self.window.head_end

    @property
    def summary(self) -> SummaryState | None:
        return self.window.summary

    @property
    def head_tokens(self) -> int:
        return self.accounts.head_tokens

    @property
    def tail_tokens(self) -> int:
        return self.accounts.tail_tokens

    @property
    def stored_total(self) -> int:
        return self.ledger.stored_total

    def header_tokens(self, start: int | None = None) -> int:
        """Tokens of the summary and note sent between the head and the tail (tail from ``start``)."""
        tokens = 0
        summary = self.window.summary
        if summary is not None:
            tokens += summary.tokens
        if self.window.note_present(start):
            tokens += self.note_tokens
        return tokens

    def size(self) -> int:
        """Estimated tokens of the request as it stands (raw estimator)."""
        accounts = self.accounts
        return accounts.head_tokens + self.header_tokens() + accounts.tail_tokens

    def tail_from(self, s: int) -> int:
        """Tokens of the stored messages from ``s`` (at least ``start``) to the newest."""
        tree = self.accounts.tree
        return tree.prefix(self.count) - tree.prefix(s)

    def size_if_start(self, s: int) -> int:
        """Request size if the tail started at ``s`` (for ``s >= start``)."""
        return self.accounts.head_tokens + self.header_tokens(s) + self.tail_from(s)

    def prefix_before(self, pos: int) -> int:
        """Tokens of the current request before stored message ``pos`` (``head_end`` = the header)."""
        window, accounts = self.window, self.accounts
        if pos < window.head_end:
            return accounts.tree.prefix(pos)
        if pos <= window.start:
            return accounts.head_tokens
        tree = accounts.tree
        return accounts.head_tokens + self.header_tokens() + tree.prefix(pos) - tree.prefix(window.start)

    def take_first_change(self) -> int | None:
        """Where the request first changed since the last call of this (None: nothing changed)."""
        first, self.accounts.first_change = self.accounts.first_change, None
        return first

    # -- costs and contributions -------------------------------------------------------------------

    def _cost(self, message: Message) -> MessageCost:
        est = self.estimator
        plain = True
        for block in message.blocks:
            if block.kind is not BlockKind.TEXT and block.kind is not BlockKind.REASONING:
                plain = False
                break
        category = message.category()
        if plain:
            stored = message.tokens(est)
            return MessageCost(stored, ((category, stored),), (), (), ())
        base: dict[Category, int] = {category: MESSAGE_OVERHEAD_TOKENS}
        tools: dict[str, int] = {}
        results: list[ResultCost] = []
        artifacts: list[ArtifactCost] = []
        config = self.config
        rounds = self.ledger.rounds
        block_tokens = message.block_tokens(est)
        stored = MESSAGE_OVERHEAD_TOKENS + sum(block_tokens)
        for position, block in enumerate(message.blocks):
            tokens = block_tokens[position]
            if block.kind is BlockKind.TOOL_RESULT:
                known = rounds.get(block.call_id)
                tool = block.name or (known.name if known is not None else "") or "tool"
                eligible = (
                    self.trim_artifacts
                    and tokens - self.cleared_note_tokens >= config.min_clear_gain
                    and tool not in config.excluded_tools
                )
                results.append(ResultCost(position, tokens, tool, eligible))
            elif block.kind is BlockKind.ARTIFACT and block.artifact is not None:
                if self.trim_artifacts:
                    forms = artifact_forms(
                        block, screenshot_cap=config.screenshot_token_cap, dom_max_items=config.dom_max_items
                    )
                    # A reduction never grows a block: a form that would cost more is not used.
                    reduced = forms.reduced.tokens(est)
                    if reduced > tokens:
                        forms, reduced = ArtifactForms(block, block, forms.trace), tokens
                    trace = forms.trace.tokens(est)
                    if trace > reduced:
                        forms, trace = ArtifactForms(block, forms.reduced, forms.reduced), reduced
                    costs = (tokens, reduced, trace)
                else:
                    forms, costs = None, (tokens, tokens, tokens)
                artifacts.append(ArtifactCost(position, block.artifact, forms, costs))
            else:
                cat = Category.SUMMARY if block.kind is BlockKind.SUMMARY else category
                base[cat] = base.get(cat, 0) + tokens
                if block.kind is BlockKind.TOOL_CALL:
                    name = block.name or "tool"
                    tools[name] = tools.get(name, 0) + tokens
        return MessageCost(
            stored, tuple(base.items()), tuple(tools.items()), tuple(results), tuple(artifacts)
        )

    def contribution(self, cost: MessageCost, cleared: int, levels: Sequence[Level] | None) -> Contribution:
        """A message's tokens in the request given which results are cleared and artifact levels."""
        if not cost.results and not cost.artifacts:
            return (cost.stored, cost.base, cost.tools)
        total = sum(t for _, t in cost.base)
        cats = list(cost.base)
        tools = list(cost.tools)
        for k, result in enumerate(cost.results):
            tokens = self.cleared_note_tokens if cleared >> k & 1 else result.tokens
            total += tokens
            cats.append((Category.TOOL_RESULTS, tokens))
            tools.append((result.tool, tokens))
        for k, art in enumerate(cost.artifacts):
            tokens = art.tokens[levels[k] if levels is not None else 0]
            total += tokens
            cats.append((Category.ARTIFACTS, tokens))
        return (total, tuple(cats), tuple(tools))

    def _fate_of(self, i: int) -> int:
        if i in self.window.cleared:
            return CLEARED
        return TRIMMED if self.accounts.sent[i] < self.ledger.costs[i].stored else KEPT

    def _refresh(self, i: int) -> int:
        """Recompute message ``i``'s contribution after a state change; returns the token delta."""
        window, accounts = self.window, self.accounts
        new = self.contribution(self.ledger.costs[i], window.cleared.get(i, 0), window.levels.get(i))
        old = accounts.contributions[i]
        delta = new[0] - old[0]
        accounts.contributions[i] = new
        if delta:
            accounts.sent[i] = new[0]
            accounts.tree.add(i, delta)
        if window.in_request(i):
            accounts.book(old, -1)
            accounts.book(new, 1)
            if i < window.head_end:
                accounts.head_tokens += delta
            else:
                accounts.tail_tokens += delta
            accounts.set_fate(i, self._fate_of(i))
            accounts.mark_change(i)
        return delta

    # -- ingesting ---------------------------------------------------------------------------------

    def ingest(self, messages: Sequence[Message], count: int) -> tuple[int, int]:
        """Take in stored messages up to ``count`` and apply stage 1 to them.

        Returns:
            (items, tokens freed) by stage 1 among messages in the request: artifacts that arrived
            reduced and older ones aged to a trace.
        """
        items = freed = 0
        config = self.config
        ledger, window, accounts = self.ledger, self.window, self.accounts
        rounds = ledger.rounds
        for i in range(self.count, count):
            message = messages[i]
            ledger.messages.append(message)
            if not window.head_known:
                # Nothing can be trimmed before the head is known, so start follows it.
                if message.role == "system":
                    window.head_end = i + 1
                else:
                    window.head_known = True
                    if message.role == "user" and not message.has_tool_results:
                        window.head_end = i + 1
                window.start = window.head_end
            ledger.cut_allowed.append(1)
            for block in message.blocks:
                if block.kind is BlockKind.TOOL_CALL and block.call_id:
                    rounds.called(block.call_id, i, block.name)
            cost = self._cost(message)
            ledger.costs.append(cost)
            ledger.stored.append(cost.stored)
            ledger.stored_total += cost.stored
            for k, result in enumerate(cost.results):
                call = rounds.answered(message.blocks[result.block].call_id, i)
                if call is not None and call.call_index < i:
                    ledger.forbid_cuts(call.call_index + 1, i + 1)
                round_start = call.call_index if call is not None and call.call_index <= i else i
                if k == 0 or round_start < ledger.newest_round:
                    ledger.newest_round = round_start
                ledger.result_message.append(i)
                ledger.result_position.append(k)
                ledger.result_prefix.append(ledger.result_prefix[-1] + result.tokens)
                if result.eligible:
                    ledger.clearable.append(len(ledger.result_message) - 1)
            aged: list[tuple[int, int]] = []
            if cost.artifacts and self.trim_artifacts:
                levels: list[Level] = []
                for k, art in enumerate(cost.artifacts):
                    kind_list = ledger.artifacts[art.kind]
                    kind_list.append((i, k))
                    level = keeps_reduced(art.kind, 0, config.dom_keep_actionable, config.screenshot_keep)
                    levels.append(level)
                    freed_here = art.tokens[0] - art.tokens[level]
                    if freed_here:
                        items += 1
                        freed += freed_here
                    keep = config.dom_keep_actionable if art.kind is ArtifactKind.DOM_SNAPSHOT else (
                        config.screenshot_keep if art.kind is ArtifactKind.SCREENSHOT else -1
                    )
                    if keep >= 0 and len(kind_list) > keep:
                        aged.append(kind_list[len(kind_list) - 1 - keep])
                window.levels[i] = levels
            contribution = self.contribution(cost, 0, window.levels.get(i))
            accounts.contributions.append(contribution)
            accounts.sent.append(contribution[0])
            accounts.tree.append(contribution[0])
            if message.is_user_turn_start:
                ledger.turn_starts.append(i)
            accounts.fates.append(KEPT)
            accounts.fate_counts[KEPT] += 1
            # A new message is always in the request (head or tail).
            accounts.book(contribution, 1)
            if i < window.head_end:
                accounts.head_tokens += contribution[0]
            else:
                accounts.tail_tokens += contribution[0]
            accounts.set_fate(i, self._fate_of(i))
            for j, k in aged:
                if self.is_released(j):
                    continue  # long left out of every request
                levels_j = window.levels[j]
                if levels_j[k] is Level.TRACE:
                    continue
                levels_j[k] = Level.TRACE
                delta = self._refresh(j)
                if window.in_request(j) and delta:
                    items += 1
                    freed -= delta
        return items, freed

    # -- moves the stages make ---------------------------------------------------------------------

    def take_clearable(self, batch: int, before: int) -> list[int]:
        """The next ``batch`` clearable results still in the tail, among those not looked at yet and
        older than ordinal ``before`` (the protected ones); they count as looked at."""
        window, ledger = self.window, self.ledger
        clearable, results = ledger.clearable, ledger.result_message
        position = window.clearable_considered
        chosen: list[int] = []
        while position < len(clearable) and len(chosen) < batch:
            ordinal = clearable[position]
            if ordinal >= before:
                break
            position += 1
            if results[ordinal] >= window.start:
                chosen.append(ordinal)
        window.clearable_considered = position
        return chosen

    def clear(self, ordinal: int) -> int:
        """Clear one tool result (stage 2); returns the tokens freed."""
        ledger, cleared = self.ledger, self.window.cleared
        i, k = ledger.result_message[ordinal], ledger.result_position[ordinal]
        cleared[i] = cleared.get(i, 0) | (1 << k)
        return -self._refresh(i)

    def move_start(self, new_start: int, fate: int = DROPPED) -> None:
        """Leave out stored messages before ``new_start`` (they become dropped or summarised)."""
        window, accounts = self.window, self.accounts
        if new_start <= window.start:
            return
        for i in range(window.start, new_start):
            accounts.book(accounts.contributions[i], -1)
            accounts.tail_tokens -= accounts.sent[i]
            accounts.set_fate(i, fate)
        window.start = new_start
        accounts.mark_change(window.head_end)

    def set_summary(self, summary: SummaryState) -> None:
        """Replace the summary by one covering ``[head_end, summary.upto)``; moves ``start`` too."""
        window = self.window
        floor = window.summary.upto if window.summary is not None else window.head_end
        for i in range(floor, min(window.start, summary.upto)):
            self.accounts.set_fate(i, SUMMARISED)
        self.move_start(summary.upto, SUMMARISED)
        window.summary = summary
        self.accounts.mark_change(window.head_end)

    # -- bounding memory ---------------------------------------------------------------------------

    def releasable(self) -> int:
        """How far from :attr:`head_end` stored messages can never be sent again.

        Messages before ``start`` are left out of every later request (``start`` only advances),
        except that a later summary folds in everything after the current one: with summaries on,
        the limit is the current summary's end.
        """
        window = self.window
        if self.config.summarise and self.config.strategy != "legacy":
            return window.summary.upto if window.summary is not None else window.head_end
        return window.start

    def release(self, upto: int) -> int:
        """Forget what is held of messages ``[head_end, upto)`` (at most :meth:`releasable`).

        Their costs, contributions, per-message accounts and tool results go; every figure over
        the messages still held is unchanged (released positions are never read again: only the
        detail of a request needs the messages it shows, and the caller releases up to the
        ``start`` of the oldest request whose detail it keeps). Returns the new :attr:`Window.released_to`.
        """
        window = self.window
        stop = min(upto, self.releasable(), self.count)
        first = max(window.released_to, window.head_end)
        if stop <= first:
            return window.released_to
        head = window.head_end
        self.ledger.release(head, stop)
        self.accounts.release(head, stop)
        for i in range(first, stop):
            window.cleared.pop(i, None)
            window.levels.pop(i, None)
        considered = self.ledger.clearable.offset
        if window.clearable_considered < considered:
            window.clearable_considered = considered  # the results skipped were all released
        window.released_to = stop
        return stop

    def is_released(self, i: int) -> bool:
        return self.window.head_end <= i < self.window.released_to

    # -- positions ---------------------------------------------------------------------------------

    def is_cut(self, s: int) -> bool:
        return s >= self.window.head_end and s < self.count and self.ledger.cut_allowed[s] == 1

    def first_fit(self, high: int, allowed: float, header: int | None = None) -> int | None:
        """The smallest valid cut ``s`` in ``(start, high]`` at which the request fits ``allowed``
        (``header``: tokens between head and tail; None: the note and current summary)."""
        tail = self.accounts.tail_tokens
        s = self.window.start
        sent = self.accounts.sent
        sent_raw, sent_offset = sent.raw, sent.offset
        cuts = self.ledger.cut_allowed
        cuts_raw, cuts_offset = cuts.raw, cuts.offset
        head = self.accounts.head_tokens
        while s < high:
            tail -= sent_raw[s - sent_offset]
            s += 1
            if not cuts_raw[s - cuts_offset]:
                continue
            size = head + (self.header_tokens(s) if header is None else header) + tail
            if size <= allowed:
                return s
        return None

    def min_start(self, units: int) -> int:
        """The latest ``start`` that still keeps the newest ``units`` complete units and the newest
        tool result with its call.

        A unit begins at each valid cut: a user message, or a tool call with its results.
        """
        window = self.window
        floor = max(window.start, window.head_end)
        cuts = self.ledger.cut_allowed
        raw, offset = cuts.raw, cuts.offset
        found = 0
        s = self.count - 1
        high = floor
        while s >= floor:
            if raw[s - offset]:
                found += 1
                if found >= units:
                    high = s
                    break
            s -= 1
        newest_round = self.ledger.newest_round
        if newest_round >= floor:
            s = min(high, newest_round)
            while s > floor and not raw[s - offset]:
                s -= 1
            high = s
        return max(high, window.start)

    def turn_starts_between(self, low: int, high: int) -> list[int]:
        """User-turn starts ``s`` with ``low < s <= high`` that are valid cuts."""
        starts = self.ledger.turn_starts
        k = bisect_left(starts, low + 1)
        out: list[int] = []
        while k < len(starts) and starts[k] <= high:
            if self.is_cut(starts[k]):
                out.append(starts[k])
            k += 1
        return out

    def protected_from(self) -> int:
        """Ordinal of the oldest tool result kept intact: the newest fitting the keep budget, at least one.

        (Once older results were released, the oldest one held stands for them: none of them is
        in the tail any more.)
        """
        prefix = self.ledger.result_prefix
        count = len(prefix) - 1
        if count == 0:
            return 0
        floor = prefix[count] - self.keep_tokens
        j = prefix.offset + bisect_left(prefix.raw, floor)
        return min(j, count - 1)

    # -- per-request views -------------------------------------------------------------------------

    def totals(self) -> tuple[dict[Category, int], dict[str, int]]:
        """Tokens of the request per category and per tool (header included)."""
        accounts, window = self.accounts, self.window
        cats = {cat: tokens for cat, tokens in accounts.by_category.items() if tokens}
        if window.summary is not None:
            cats[Category.SUMMARY] = cats.get(Category.SUMMARY, 0) + window.summary.tokens
        if window.note_present():
            cats[Category.USER] = cats.get(Category.USER, 0) + self.note_tokens
        return cats, {tool: tokens for tool, tokens in accounts.by_tool.items() if tokens}

    def fate_map(self) -> dict[Fate, int]:
        return {FATES[k]: count for k, count in enumerate(self.accounts.fate_counts) if count}
