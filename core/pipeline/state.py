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
* effective tokens live in a Fenwick tree, so any prefix of a request is measured in O(log n);
* running totals (head, tail, per category, per tool, per fate) are updated by the moves.

The stage modules (:mod:`.clearing`, :mod:`.summarize`, :mod:`.fitting`, :mod:`.guard`,
:mod:`.legacy`) decide; this module applies and accounts.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..model import (
    MESSAGE_OVERHEAD_TOKENS,
    RELEASED_MESSAGE,
    ArtifactKind,
    Block,
    BlockKind,
    Category,
    Message,
)
from ..snapshot import Fate
from ..tokens import Estimator
from .artifacts import ArtifactForms, Level, artifact_forms, keeps_reduced
from .config import PipelineConfig
from .notes import CLEARED_NOTE, SUMMARY_HEADER, TRIM_NOTE

FATES: Final[tuple[Fate, ...]] = (Fate.KEPT, Fate.TRIMMED, Fate.CLEARED, Fate.SUMMARISED, Fate.DROPPED)
KEPT, TRIMMED, CLEARED, SUMMARISED, DROPPED = range(5)


class Fenwick:
    """A growable Fenwick (binary indexed) tree of integers: point update and prefix sum in O(log n).

    Stored as a 64-bit array: 8 bytes a value, where a list of Python ints costs about 36.
    """

    __slots__ = ("_tree",)

    def __init__(self) -> None:
        self._tree = array("q", [0])

    def __len__(self) -> int:
        return len(self._tree) - 1

    def append(self, value: int) -> None:
        n = len(self._tree)
        low = n & -n
        self._tree.append(value + self.prefix(n - 1) - self.prefix(n - low))

    def add(self, index: int, delta: int) -> None:
        tree = self._tree
        size = len(tree)
        i = index + 1
        while i < size:
            tree[i] += delta
            i += i & -i

    def prefix(self, count: int) -> int:
        """Sum of the first ``count`` values."""
        tree = self._tree
        total = 0
        i = count
        while i > 0:
            total += tree[i]
            i &= i - 1
        return total


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

_RELEASED_COST: Final = MessageCost(0, (), (), (), ())
_RELEASED_CONTRIBUTION: Final[Contribution] = (0, (), ())


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


class ScopeState:
    """Incremental pipeline state for one scope's history.

    Args:
        config: The pipeline configuration.
        estimator: The token estimator.
        trim_artifacts: Apply stage 1 (false for the legacy strategy).
        keep_tokens: Tool results fitting in this many tokens, newest first, are never cleared.
    """

    def __init__(
        self, config: PipelineConfig, estimator: Estimator, *, trim_artifacts: bool, keep_tokens: int
    ) -> None:
        self.config = config
        self.est = estimator
        self.trim_artifacts = trim_artifacts
        self.keep_tokens = keep_tokens
        self.scope_id = ""
        self.note_tokens = MESSAGE_OVERHEAD_TOKENS + estimator.count(TRIM_NOTE)
        self.cleared_note_tokens = estimator.count(CLEARED_NOTE)
        self.cleared_block = Block(BlockKind.TOOL_RESULT, CLEARED_NOTE)

        self.messages: list[Message] = []
        self.costs: list[MessageCost] = []
        self.eff = array("q")
        """Each message's tokens in the request as it stands (0 once left out)."""
        self.fen = Fenwick()
        self.stored_total = 0
        self.stored_cum = array("q", [0])
        self.contrib: list[Contribution] = []
        self.cleared: dict[int, int] = {}
        """Message index → bit mask over its tool results that are cleared."""
        self.levels: dict[int, list[Level]] = {}
        """Message index → level of each of its artifact blocks."""
        self.fate = bytearray()
        self.cut_ok = bytearray()
        """1 where ``start`` may be placed: no tool round spans the position."""
        self.turn_starts: list[int] = []
        self.calls: dict[str, tuple[int, str]] = {}
        self.pending: set[str] = set()
        """Ids of tool calls whose result has not arrived (:meth:`release` keeps their entries)."""
        self.result_message = array("q")
        """Every tool result in order: the index of the message holding it ..."""
        self.result_position = array("q")
        """... and its position among that message's results."""
        self.result_cum = array("q", [0])
        self.newest_round = -1
        """Where the newest tool result's round starts (its call's message), -1 before any."""
        self.eligible = array("q")
        """Ordinals (into :attr:`result_message`) of results worth clearing."""
        self.artifacts: dict[ArtifactKind, list[tuple[int, int]]] = {kind: [] for kind in ArtifactKind}

        self.head_end = 0
        self.head_frozen = False
        self.start = 0
        self.summary: SummaryState | None = None
        self.clear_ptr = 0
        self.head_tokens = 0
        self.tail_tokens = 0
        self.cat_tot: dict[Category, int] = {}
        self.tool_tot: dict[str, int] = {}
        self.fate_counts = [0, 0, 0, 0, 0]
        self.change_pos: int | None = None
        self.released_to = 0
        """Messages from :attr:`head_end` up to here were released (:meth:`release`)."""

    # -- measuring ---------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.messages)

    def note_present(self, start: int | None = None) -> bool:
        s = self.start if start is None else start
        floor = self.summary.upto if self.summary is not None else self.head_end
        return s > floor

    def header_tokens(self, start: int | None = None) -> int:
        """Tokens of the summary and note sent between the head and the tail (tail from ``start``)."""
        tokens = 0
        if self.summary is not None:
            tokens += self.summary.tokens
        if self.note_present(start):
            tokens += self.note_tokens
        return tokens

    def size(self) -> int:
        """Estimated tokens of the request as it stands (raw estimator)."""
        return self.head_tokens + self.header_tokens() + self.tail_tokens

    def size_if_start(self, s: int) -> int:
        """Request size if the tail started at ``s`` (for ``s >= start``)."""
        tail = self.fen.prefix(self.n) - self.fen.prefix(s)
        return self.head_tokens + self.header_tokens(s) + tail

    def prefix_before(self, pos: int) -> int:
        """Tokens of the current request before stored message ``pos`` (``head_end`` = the header)."""
        if pos < self.head_end:
            return self.fen.prefix(pos)
        if pos <= self.start:
            return self.head_tokens
        return self.head_tokens + self.header_tokens() + self.fen.prefix(pos) - self.fen.prefix(self.start)

    def mark_change(self, pos: int) -> None:
        if self.change_pos is None or pos < self.change_pos:
            self.change_pos = pos

    def in_window(self, i: int) -> bool:
        return i < self.head_end or i >= self.start

    # -- costs and contributions -------------------------------------------------------------------

    def _cost(self, message: Message) -> MessageCost:
        est = self.est
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
        block_tokens = message.block_tokens(est)
        stored = MESSAGE_OVERHEAD_TOKENS + sum(block_tokens)
        for position, block in enumerate(message.blocks):
            tokens = block_tokens[position]
            if block.kind is BlockKind.TOOL_RESULT:
                tool = block.name or self.calls.get(block.call_id, (0, ""))[1] or "tool"
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

    def _account(self, contribution: Contribution, sign: int) -> None:
        cat_tot = self.cat_tot
        for cat, tokens in contribution[1]:
            cat_tot[cat] = cat_tot.get(cat, 0) + sign * tokens
        tool_tot = self.tool_tot
        for tool, tokens in contribution[2]:
            tool_tot[tool] = tool_tot.get(tool, 0) + sign * tokens

    def _fate_of(self, i: int) -> int:
        if i in self.cleared:
            return CLEARED
        return TRIMMED if self.eff[i] < self.costs[i].stored else KEPT

    def _set_fate(self, i: int, fate: int) -> None:
        old = self.fate[i]
        if old != fate:
            self.fate_counts[old] -= 1
            self.fate_counts[fate] += 1
            self.fate[i] = fate

    def _refresh(self, i: int) -> int:
        """Recompute message ``i``'s contribution after a state change; returns the token delta."""
        new = self.contribution(self.costs[i], self.cleared.get(i, 0), self.levels.get(i))
        old = self.contrib[i]
        delta = new[0] - old[0]
        self.contrib[i] = new
        if delta:
            self.eff[i] = new[0]
            self.fen.add(i, delta)
        if self.in_window(i):
            self._account(old, -1)
            self._account(new, 1)
            if i < self.head_end:
                self.head_tokens += delta
            else:
                self.tail_tokens += delta
            self._set_fate(i, self._fate_of(i))
            self.mark_change(i)
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
        for i in range(self.n, count):
            message = messages[i]
            self.messages.append(message)
            if not self.head_frozen:
                # Nothing can be trimmed before the head is known, so start follows it.
                if message.role == "system":
                    self.head_end = i + 1
                else:
                    self.head_frozen = True
                    if message.role == "user" and not message.has_tool_results:
                        self.head_end = i + 1
                self.start = self.head_end
            self.cut_ok.append(1)
            for block in message.blocks:
                if block.kind is BlockKind.TOOL_CALL and block.call_id:
                    self.calls[block.call_id] = (i, block.name)
                    self.pending.add(block.call_id)
            cost = self._cost(message)
            self.costs.append(cost)
            self.stored_total += cost.stored
            self.stored_cum.append(self.stored_total)
            for k, result in enumerate(cost.results):
                call_id = message.blocks[result.block].call_id
                call = self.calls.get(call_id)
                self.pending.discard(call_id)
                if call is not None and call[0] < i:
                    for s in range(call[0] + 1, i + 1):
                        self.cut_ok[s] = 0
                round_start = call[0] if call is not None and call[0] <= i else i
                if k == 0 or round_start < self.newest_round:
                    self.newest_round = round_start
                self.result_message.append(i)
                self.result_position.append(k)
                self.result_cum.append(self.result_cum[-1] + result.tokens)
                if result.eligible:
                    self.eligible.append(len(self.result_message) - 1)
            aged: list[tuple[int, int]] = []
            if cost.artifacts and self.trim_artifacts:
                levels: list[Level] = []
                for k, art in enumerate(cost.artifacts):
                    kind_list = self.artifacts[art.kind]
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
                self.levels[i] = levels
            contribution = self.contribution(cost, 0, self.levels.get(i))
            self.contrib.append(contribution)
            self.eff.append(contribution[0])
            self.fen.append(contribution[0])
            if message.is_user_turn_start:
                self.turn_starts.append(i)
            self.fate.append(KEPT)
            self.fate_counts[KEPT] += 1
            # A new message is always in the window (head or tail).
            self._account(contribution, 1)
            if i < self.head_end:
                self.head_tokens += contribution[0]
            else:
                self.tail_tokens += contribution[0]
            self._set_fate(i, self._fate_of(i))
            for j, k in aged:
                if self.is_released(j):
                    continue  # long left out of every request
                levels_j = self.levels[j]
                if levels_j[k] is Level.TRACE:
                    continue
                levels_j[k] = Level.TRACE
                delta = self._refresh(j)
                if self.in_window(j) and delta:
                    items += 1
                    freed -= delta
        return items, freed

    # -- moves the stages make ---------------------------------------------------------------------

    def clear(self, ordinal: int) -> int:
        """Clear one tool result (stage 2); returns the tokens freed."""
        i, k = self.result_message[ordinal], self.result_position[ordinal]
        self.cleared[i] = self.cleared.get(i, 0) | (1 << k)
        return -self._refresh(i)

    def move_start(self, new_start: int, fate: int = DROPPED) -> None:
        """Leave out stored messages before ``new_start`` (they become dropped or summarised)."""
        if new_start <= self.start:
            return
        for i in range(self.start, new_start):
            self._account(self.contrib[i], -1)
            self.tail_tokens -= self.eff[i]
            self._set_fate(i, fate)
        self.start = new_start
        self.mark_change(self.head_end)

    def set_summary(self, summary: SummaryState) -> None:
        """Replace the summary by one covering ``[head_end, summary.upto)``; moves ``start`` too."""
        floor = self.summary.upto if self.summary is not None else self.head_end
        for i in range(floor, min(self.start, summary.upto)):
            self._set_fate(i, SUMMARISED)
        self.move_start(summary.upto, SUMMARISED)
        self.summary = summary
        self.mark_change(self.head_end)

    # -- bounding memory ---------------------------------------------------------------------------

    def releasable(self) -> int:
        """How far from :attr:`head_end` stored messages can never be sent again.

        Messages before ``start`` are left out of every later request (``start`` only advances),
        except that a later summary folds in everything after the current one: with summaries on,
        the limit is the current summary's end.
        """
        if self.config.summarise and self.config.strategy != "legacy":
            return self.summary.upto if self.summary is not None else self.head_end
        return self.start

    def release(self, upto: int) -> int:
        """Drop what is kept of messages ``[head_end, upto)`` (at most :meth:`releasable`).

        Their per-message costs, contributions and message references go; the integer arrays
        (effective tokens, prefix sums, fates) stay, so every figure over them is unchanged.
        Only the detail of a request that still shows them needs them: the replay releases up to
        the ``start`` of the oldest request whose detail it keeps. Returns the new
        :attr:`released_to`.
        """
        stop = min(upto, self.releasable(), self.n)
        first = max(self.released_to, self.head_end)
        if stop <= first:
            return self.released_to
        calls, pending = self.calls, self.pending
        for i in range(first, stop):
            for block in self.messages[i].blocks:
                call_id = block.call_id
                # A call still waiting for its result, or an id a newer call reused, stays known.
                if (
                    block.kind is BlockKind.TOOL_CALL
                    and call_id
                    and call_id not in pending
                    and calls.get(call_id, (-1, ""))[0] == i
                ):
                    del calls[call_id]
            self.messages[i] = RELEASED_MESSAGE
            self.costs[i] = _RELEASED_COST
            self.contrib[i] = _RELEASED_CONTRIBUTION
            self.cleared.pop(i, None)
            self.levels.pop(i, None)
        self.released_to = stop
        return stop

    def is_released(self, i: int) -> bool:
        return self.head_end <= i < self.released_to

    # -- positions ---------------------------------------------------------------------------------

    def is_cut(self, s: int) -> bool:
        return s >= self.head_end and s < self.n and self.cut_ok[s] == 1

    def min_start(self, units: int) -> int:
        """The latest ``start`` that still keeps the newest ``units`` complete units and the newest
        tool result with its call.

        A unit begins at each valid cut: a user message, or a tool call with its results.
        """
        floor = max(self.start, self.head_end)
        found = 0
        s = self.n - 1
        high = floor
        while s >= floor:
            if self.cut_ok[s]:
                found += 1
                if found >= units:
                    high = s
                    break
            s -= 1
        if self.newest_round >= floor:
            s = min(high, self.newest_round)
            while s > floor and not self.cut_ok[s]:
                s -= 1
            high = s
        return max(high, self.start)

    def turn_starts_between(self, low: int, high: int) -> list[int]:
        """User-turn starts ``s`` with ``low < s <= high`` that are valid cuts."""
        starts = self.turn_starts
        k = bisect_left(starts, low + 1)
        out: list[int] = []
        while k < len(starts) and starts[k] <= high:
            if self.is_cut(starts[k]):
                out.append(starts[k])
            k += 1
        return out

    def protected_from(self) -> int:
        """Ordinal of the oldest tool result kept intact: the newest fitting the keep budget, at least one."""
        count = len(self.result_message)
        if count == 0:
            return 0
        cum = self.result_cum
        floor = cum[count] - self.keep_tokens
        j = bisect_left(cum, floor, 0, count + 1)
        return min(j, count - 1)

    # -- per-request views -------------------------------------------------------------------------

    def totals(self) -> tuple[dict[Category, int], dict[str, int]]:
        """Tokens of the request per category and per tool (header included)."""
        cats = {cat: tokens for cat, tokens in self.cat_tot.items() if tokens}
        if self.summary is not None:
            cats[Category.SUMMARY] = cats.get(Category.SUMMARY, 0) + self.summary.tokens
        if self.note_present():
            cats[Category.USER] = cats.get(Category.USER, 0) + self.note_tokens
        return cats, {tool: tokens for tool, tokens in self.tool_tot.items() if tokens}

    def fate_map(self) -> dict[Fate, int]:
        return {FATES[k]: count for k, count in enumerate(self.fate_counts) if count}
