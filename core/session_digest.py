"""A session log's figures for the session list, read incrementally and kept small.

:class:`LogDigest` is what the session list needs of one log file — who wrote it, which model,
how many calls, the recorded context of the last and the largest call, the agent's own
compactions, sub-agents, the estimated cost — plus where reading stopped (byte offset, line
number, file identity), so that a grown log is read on from there: :func:`read_digest` reads
only the bytes appended since, through the ordinary reader and format adapters, and folds the
new calls into the digest. Digests are plain data (:meth:`LogDigest.to_json`), which is how
:mod:`ctxscope.core.sessions_index` caches them.

Figures are the *recorded* ones: a call's context is the prompt size the provider reported for
it (``usage.prompt_tokens``); calls without usage count as calls but leave the context alone.

Reading on from an offset starts a fresh adapter there. A response written over several lines
that straddles the offset is recognised by its request id and counted once (its later line
replaces the figures of the earlier). What a resumed adapter cannot know is structure spread
over lines before the offset: Claude Code 1.0.x inline sidechains, whose sub-agent is found by
following ``parentUuid``, are only told apart within one read.

For ``ctxscope sessions --export`` a digest read with ``export=True`` also keeps what the
export publishes beyond the row (:attr:`LogDigest.tracked`): every call's reported prompt and
model, in order (one ``gen_ai.client.token.usage`` point each), and, for a session's main log,
ctxscope's raw estimate of the main scope's latest reported call — the estimate ÷ reported
gauge. The estimate of a call is the sum of the estimator's counts over the call's live context
(as :class:`~ctxscope.core.usage_check.ContextSums` counts it for ``ctxscope watch``); the
digest carries it as running figures (:attr:`LogDigest.live_tokens`, the live context after the
last line read, and :attr:`LogDigest.system_tokens`, the system messages a compaction keeps), so
a read on from the offset continues it: the next call's estimate is the carried figure plus
what was read since, or, after a compaction read since, the carried system messages plus what
follows it. A rollback that reaches back before the offset is not seen by a resumed read.
"""

from __future__ import annotations

import hashlib
import sys
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

import orjson

from .adapters.opencode_db import is_database, log_stat
from .jsonl import decode_line
from .model import SUMMARIZE, ModelRequest, ObservedCompaction
from .pricing import cost_of
from .reader import SessionReader, UnknownFormatError
from .session import Scope, Session
from .tokens import get_estimator
from .usage_check import ContextSums

DIGEST_VERSION: Final = 4
"""Bumped whenever what a digest holds or how it is read changes (cached digests are then read again)."""

HEAD_BYTES: Final = 1024
"""The head of a file whose hash tells a grown file from a replaced one."""

PEEK_BYTES: Final = 64 << 10
"""How much of a new log's head is looked at for its start time and working directory."""

READ_CHUNK: Final = 4 << 20
"""Bytes read per step (between steps a caller can show progress)."""

_ESTIMATOR: Final = "chars4"
"""The reader counts tokens of text it elides; the digest uses none of them, so the cheapest."""


@dataclass(slots=True)
class LogDigest:
    """What the session list knows of one log file, and where reading it stopped.

    Attributes:
        format: The log format ('' while none is recognised).
        mode: ``lines`` (read on from :attr:`offset`) or ``document`` (read whole again).
        offset: Bytes read (complete lines).
        line: Lines read.
        inode: The file's inode when read.
        head: Hash of the file's first bytes (up to :data:`HEAD_BYTES`, at most :attr:`offset`).
        session_id: The agent's session id.
        cwd: The working directory the agent ran in.
        started: The first timestamp in the log (ISO-8601 as written).
        last_time: The last call's timestamp.
        model: The last call's model (or the header's).
        window: The context limit the log states (Codex writes it), if any.
        calls: Model calls, every scope.
        context: Recorded context of the main scope's last call with usage.
        peak: The largest recorded context of a main-scope call.
        compactions: Compactions the agent reported, every scope.
        last_compaction: (tokens before, tokens after) of the latest one, as far as known.
        cached: Prompt tokens of the main scope's last call with usage read from the provider's
            cache (None when the provider reports none).
        trigger_seen: The smallest context at which the main scope compacted automatically
            (summaries only: what :func:`~ctxscope.core.model_info.compaction_trigger` refines
            the agent's default trigger with), None before any.
        tokens_freed: Tokens the main scope's compactions took out of the context (those whose
            before and after are both known).
        scopes: Sub-agent scopes found inside the file.
        chats: Other top-level scopes found inside the file (scopes with no parent besides the
            main one: Aider's earlier chat sessions), which are not sub-agents.
        cost: Estimated dollars of the priced calls.
        unpriced: Calls with usage whose model has no price.
        last_request: Per scope, the last call's key (:func:`_request_key`) and estimated cost
            (to recognise a call repeated across a read boundary).
        call_ids: Hashes (:func:`id_hash`) of the provider call ids this file counted, so that
            the other logs of the session do not count them again.
        tracked: Read with ``export=True`` from the log's first line: :attr:`prompts` and
            :attr:`models` hold every call counted.
        prompts: Per call counted (every scope, in order), the prompt tokens the provider
            reported (0: the call has no usage).
        models: The calls' models as runs: (model, how many consecutive calls).
        last_point: Per scope, the position in :attr:`prompts` of its last call (a call
            repeated across a read boundary replaces its prompt).
        estimator: The estimator of the running estimate ('' : no estimate kept).
        live_tokens: Raw estimate of the main scope's live context after the last line read.
        system_tokens: Raw estimate of the main scope's system messages read (what a
            compaction read later keeps of the history).
        estimate: Raw estimate of the main scope's latest call with a reported prompt.
        estimate_of: That call's reported prompt (the gauge is ``estimate / estimate_of``).
        problem: Why the file could not be read ('' when it could).
    """

    format: str = ""
    mode: str = ""
    offset: int = 0
    line: int = 0
    inode: int = 0
    head: str = ""
    session_id: str = ""
    cwd: str = ""
    started: str = ""
    last_time: str = ""
    model: str = ""
    window: int | None = None
    calls: int = 0
    context: int | None = None
    peak: int | None = None
    compactions: int = 0
    last_compaction: tuple[int | None, int | None] | None = None
    cached: int | None = None
    trigger_seen: int | None = None
    tokens_freed: int = 0
    scopes: list[str] = field(default_factory=list)
    chats: list[str] = field(default_factory=list)
    cost: float = 0.0
    unpriced: int = 0
    last_request: dict[str, tuple[str, float | None]] = field(default_factory=dict)
    call_ids: list[int] = field(default_factory=list)
    tracked: bool = False
    prompts: list[int] = field(default_factory=list)
    models: list[tuple[str, int]] = field(default_factory=list)
    last_point: dict[str, int] = field(default_factory=dict)
    estimator: str = ""
    live_tokens: int = 0
    system_tokens: int = 0
    estimate: int | None = None
    estimate_of: int | None = None
    problem: str = ""

    def lacks(self, *, export: bool, estimate: bool) -> bool:
        """It was not keeping the figures asked for from the log's first line (the log is then
        read again from the start)."""
        if self.problem:  # nothing was kept: the log is read again when it changes
            return False
        return (export and not self.tracked) or (estimate and not self.estimator)

    def call_points(self, start: int = 0) -> Iterator[tuple[int, str]]:
        """(reported prompt, model) of every call counted from position ``start`` on."""
        position = 0
        for model, count in self.models:
            end = position + count
            for index in range(max(start, position), end):
                yield self.prompts[index], model
            position = end

    def to_json(self) -> bytes:
        return orjson.dumps(asdict(self))

    @classmethod
    def load(cls, data: bytes | str) -> LogDigest | None:
        """A digest from :meth:`to_json` output, or None when the data is not one (a damaged
        or foreign cache entry: the log is then read again)."""
        try:
            return cls.from_json(data)
        except (orjson.JSONDecodeError, TypeError, ValueError):
            return None

    @classmethod
    def from_json(cls, data: bytes | str) -> LogDigest:
        """A digest from :meth:`to_json` output.

        Raises:
            orjson.JSONDecodeError, TypeError, ValueError: The data is not a digest.
        """
        raw: dict[str, Any] = orjson.loads(data)
        digest = cls(**raw)
        if digest.last_compaction is not None:
            before, after = digest.last_compaction
            digest.last_compaction = (before, after)
        digest.last_request = {k: (v[0], v[1]) for k, v in digest.last_request.items()}
        digest.models = [(model, count) for model, count in digest.models]
        return digest


def id_hash(call_id: str) -> int:
    """A 63-bit hash of a provider call id (what digests keep instead of the id)."""
    digest = hashlib.blake2b(call_id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class _Claimed(set[str]):
    """The call ids a session has claimed, seeded with hashes of ids counted elsewhere: a call
    whose id hashes to one of them is taken as already counted (the adapter then skips it, as
    it skips a sub-agent file's replay of its parent's calls in one read of the whole session)."""

    def __init__(self, counted: Iterable[int]) -> None:
        super().__init__()
        self.counted = frozenset(counted)

    def __contains__(self, call_id: object) -> bool:
        if super().__contains__(call_id):
            return True
        return isinstance(call_id, str) and id_hash(call_id) in self.counted


def _head_hash(path: str, length: int) -> str:
    """Hash of the first ``min(length, HEAD_BYTES)`` bytes of a file."""
    with open(path, "rb") as handle:
        return hashlib.blake2b(handle.read(min(length, HEAD_BYTES)), digest_size=8).hexdigest()


def _peek(path: str, digest: LogDigest) -> None:
    """The start time and working directory from a log's first lines (``timestamp`` and ``cwd``
    at the top of a line, or in its ``payload`` as Codex writes them; none in a database)."""
    if is_database(path):
        return
    with open(path, "rb") as handle:
        head = handle.read(PEEK_BYTES)
    for raw in head.split(b"\n")[:50]:
        obj, _ = decode_line(raw.strip())
        if obj is None:
            continue
        payload = obj.get("payload")
        for holder in (obj, payload if isinstance(payload, dict) else {}):
            stamp, cwd = holder.get("timestamp"), holder.get("cwd")
            if not digest.started and isinstance(stamp, str):
                digest.started = stamp[:40]
            if not digest.cwd and isinstance(cwd, str):
                digest.cwd = cwd[:500]
        if digest.started and digest.cwd:
            return


def log_start(path: str) -> tuple[str, str]:
    """``(start time, working directory)`` a log names in its first lines ('' when it names none)."""
    digest = LogDigest()
    _peek(path, digest)
    return digest.started, digest.cwd


def _can_resume(path: str, digest: LogDigest, size: int, inode: int) -> bool:
    return (
        digest.mode == "lines"
        and bool(digest.format)
        and digest.inode == inode
        and size >= digest.offset
        and _head_hash(path, digest.offset) == digest.head
    )


def read_digest(
    path: str,
    previous: LogDigest | None = None,
    counted: Iterable[int] = (),
    *,
    export: bool = False,
    estimate: bool = False,
) -> LogDigest:
    """The digest of a log, read on from ``previous`` when the file only grew.

    A file that was replaced, truncated, rewritten at its head, or is a whole JSON document is
    read again from the start, as is one whose digest lacks the figures asked for. Never raises
    for a bad log: the digest's :attr:`~LogDigest.problem` says what went wrong.

    Args:
        path: The log.
        previous: Its digest when it was last read.
        counted: :func:`id_hash` es of calls other logs of the session counted (a sub-agent
            log's replay of them is not counted again).
        export: Keep every call's prompt and model (:attr:`LogDigest.tracked`).
        estimate: Also keep the running estimate of the main scope (a session's main log).
            A digest that keeps either goes on keeping it when read on without asking.
    """
    try:
        stat = log_stat(path)
    except OSError as exc:
        return LogDigest(problem=f"cannot read: {exc.strerror or exc}")
    try:
        resume = (
            previous is not None
            and not previous.lacks(export=export, estimate=estimate)
            and _can_resume(path, previous, stat.st_size, stat.st_ino)
        )
        digest = LogDigest.from_json(previous.to_json()) if previous is not None and resume else LogDigest()
        digest.tracked = digest.tracked or export
        # A resumed estimate goes on with its estimator; a new one keeps the first chunk's
        # text until its estimator is chosen (:func:`_choose_estimator`).
        choosing = estimate and not digest.estimator
        reader = SessionReader(
            path,
            digest.format or None,
            text_cap=None if choosing else 0,
            estimator=get_estimator(digest.estimator or _ESTIMATOR),
            siblings=False,
        )
        if resume:
            reader.tail.offset = digest.offset
            reader.tail.line_number = digest.line
        if not (digest.started and digest.cwd):  # a log first read before it named them
            _peek(path, digest)
        claimed = _Claimed([*counted, *digest.call_ids])
        reader.session.call_ids = claimed
        while True:
            progress = reader.poll(READ_CHUNK)
            if progress.change is not None:  # truncated or replaced while being read
                digest = LogDigest(tracked=digest.tracked, estimator=digest.estimator)
                _peek(path, digest)
            if choosing and not digest.estimator and _has_calls(reader.session):
                _choose_estimator(reader, digest)
            if reader.mode == "document" or progress.lines == 0:
                break
        if reader.adapter is not None:
            # What the adapter holds back for the next line (tool results, a compaction waiting
            # for its summary) is stored now: the next read starts a fresh adapter at the offset.
            reader.adapter.finish()
    except UnknownFormatError as exc:
        return LogDigest(problem=str(exc)[:200])
    except OSError as exc:
        return LogDigest(problem=f"cannot read: {exc.strerror or exc}")
    digest.mode = reader.mode or "lines"
    digest.format = reader.format or ""
    digest.offset = reader.tail.offset
    digest.line = reader.tail.line_number
    digest.inode = stat.st_ino
    digest.call_ids = sorted({*digest.call_ids, *map(id_hash, reader.session.call_ids)})  # its own
    try:
        digest.head = _head_hash(path, digest.offset)
    except OSError:
        digest.head = ""
    fold(digest, reader.session)
    return digest


def _first_call_model(session: Session) -> str:
    """The model of the session's first call that names one (``analysis.session_model``'s rule)."""
    return next((r.model for scope in session.scopes.values() for r in scope.requests[:1] if r.model), "")


def _has_calls(session: Session) -> bool:
    """A new estimate's estimator can be chosen (by the first call's model, as ``watch`` does). A
    log read to its end before its first call keeps none: it is read from the start next time."""
    return any(scope.requests for scope in session.scopes.values())


def _choose_estimator(reader: SessionReader, digest: LogDigest) -> None:
    """Settle a new estimate's estimator, as ``ctxscope watch`` does: by the model family of the
    session's first call (its header's model when that call names none). Until then text was
    kept (it is counted with that estimator afterwards); from here on text is elided after
    being counted."""
    from .model_info import estimator_profile

    main = reader.session.main_scope
    model = _first_call_model(reader.session) or (main.header.model if main is not None else "")
    chosen = get_estimator(estimator_profile(model))
    digest.estimator = chosen.name
    reader.estimator = chosen
    reader.text_cap_setting = 0
    reader.session.estimator = chosen
    reader.session.text_cap = 0


def _request_key(request: ModelRequest) -> str:
    """What tells a call apart from the one before it: the provider's request id, else its
    usage (Codex repeats a call's token count at the next turn, with no id)."""
    if request.request_id:
        return request.request_id
    usage = request.usage
    if usage is None:
        return ""
    counts = (usage.prompt_tokens, usage.cached_prompt_tokens, usage.cache_write_tokens, usage.output_tokens)
    return "usage:" + ",".join(map(str, counts))


def fold(digest: LogDigest, session: Session) -> None:
    """Add the calls and compactions of ``session`` (read after ``digest`` stopped) to it."""
    if session.session_id:
        digest.session_id = session.session_id
    main = session.main_scope
    for scope in session.scopes.values():
        is_main = scope is main
        if not is_main:
            kept = digest.chats if scope.header.parent_id is None else digest.scopes
            if scope.scope_id not in kept:
                kept.append(scope.scope_id)
        if is_main and scope.header.context_limit:
            digest.window = scope.header.context_limit
        if is_main and scope.header.model and not digest.model:
            digest.model = scope.header.model
        live = _LiveEstimate(scope, digest) if is_main and digest.estimator else None
        previous = digest.last_request.get(scope.scope_id)
        for position, request in enumerate(scope.requests):
            model = request.model or digest.model  # a resumed adapter may not know it yet
            usage = request.usage
            cost = cost_of(usage, model) if usage is not None else None
            key = _request_key(request)
            repeated = position == 0 and previous is not None and bool(key) and key == previous[0]
            if repeated and previous is not None:
                digest.cost -= previous[1] or 0.0
            else:
                digest.calls += 1
            if cost is not None:
                digest.cost += cost
            elif usage is not None and not repeated:
                digest.unpriced += 1
            digest.last_request[scope.scope_id] = (key, cost)
            if digest.tracked:
                prompt = usage.prompt_tokens if usage is not None else 0
                _point(digest, scope.scope_id, prompt, model, repeated)
            if request.timestamp and not repeated:
                digest.last_time = request.timestamp[:40]
            if not digest.started and request.timestamp:
                digest.started = request.timestamp[:40]
            if not is_main:
                continue
            digest.model = model
            if usage is not None:
                prompt = usage.prompt_tokens
                digest.context = prompt
                digest.cached = usage.cached_prompt_tokens
                digest.peak = prompt if digest.peak is None else max(digest.peak, prompt)
                if digest.last_compaction is not None and digest.last_compaction[1] is None:
                    digest.last_compaction = (digest.last_compaction[0], prompt)
                    digest.tokens_freed += _freed(digest.last_compaction)
                if live is not None and prompt > 0:
                    # A call repeated across the boundary was estimated when first read (the
                    # resumed read has no messages before it).
                    if not repeated or digest.estimate is None:
                        digest.estimate = live.of(request.index, request.message_count)
                    digest.estimate_of = prompt
        if live is not None:
            live.carry(len(scope.requests), len(scope.messages))
        digest.compactions += len(scope.compactions)
        if is_main and scope.compactions:
            _fold_compactions(digest, scope.compactions)


def _point(digest: LogDigest, scope_id: str, prompt: int, model: str, repeated: bool) -> None:
    """Record one call's prompt and model (a call repeated across the boundary replaces its
    prompt)."""
    if repeated and scope_id in digest.last_point:
        digest.prompts[digest.last_point[scope_id]] = prompt
        return
    digest.last_point[scope_id] = len(digest.prompts)
    digest.prompts.append(prompt)
    runs = digest.models
    if runs and runs[-1][0] == model:
        runs[-1] = (model, runs[-1][1] + 1)
    else:
        runs.append((model, 1))


class _LiveEstimate:
    """The raw estimate of a main scope's live context in one read, from the figures the
    digest carried over from the reads before (see the module docs).

    Within the read the counts are :class:`~ctxscope.core.usage_check.ContextSums`' (the same
    as ``ctxscope watch``'s recorded lens): the live context starts at the last compaction that
    restarts it, keeps the system messages before it and leaves out what rollbacks took out.
    With no such compaction in this read, it continues the carried live context.
    """

    def __init__(self, scope: Scope, digest: LogDigest) -> None:
        self.scope = scope
        self.digest = digest
        self.sums = ContextSums(scope, get_estimator(digest.estimator))
        self.restarts = [(c.request_index, c.message_count) for c in scope.compactions if c.restarts_context]

    def of(self, request_index: int, message_count: int) -> int:
        """The estimate of a call made over the first ``message_count`` messages of this read."""
        sums = self.sums
        found = bisect_right(self.restarts, (request_index, sys.maxsize))
        start = min(self.restarts[found - 1][1], message_count) if found else 0
        estimate = sums.tokens(start, message_count)
        if found:
            estimate += self.digest.system_tokens + sums.system_prefix[start]
        else:
            estimate += self.digest.live_tokens
        for dropped in self.scope.dropped_ranges(request_index):
            low, high = max(dropped.start, start), min(dropped.stop, message_count)
            if low < high:
                estimate -= sums.tokens(low, high)
        return estimate

    def carry(self, requests: int, messages: int) -> None:
        """Keep the live context after the last message read for the next read."""
        live = self.of(requests, messages)
        self.digest.system_tokens += self.sums.system_prefix[messages]
        self.digest.live_tokens = live


def _freed(figures: tuple[int | None, int | None]) -> int:
    """Tokens a compaction freed, 0 while its before or after is unknown."""
    before, after = figures
    return 0 if before is None or after is None else max(0, before - after)


def _fold_compactions(digest: LogDigest, compactions: Sequence[ObservedCompaction]) -> None:
    """The main scope's compactions read now: the latest's figures, the tokens they freed (the
    latest's once its after is known, maybe by a later read) and the lowest automatic summary."""
    for compaction in compactions:
        figures = (compaction.tokens_before, compaction.tokens_after)
        digest.tokens_freed += _freed(figures)
        digest.last_compaction = figures
        auto = compaction.stage == SUMMARIZE and compaction.trigger in ("auto", "")
        if auto and compaction.tokens_before:
            before, seen = compaction.tokens_before, digest.trigger_seen
            digest.trigger_seen = before if seen is None else min(seen, before)
