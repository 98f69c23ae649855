"""Hand-built snapshots for dashboard tests: deterministic, no pipeline involved.

The figures follow the shape the pipeline produces (stage 1 trims every call, stage 2 clears in
batches of 4 once over the trigger, a summary when clearing is not enough) but are made up; tests
that need real figures use real logs through the real tailer.
"""

from __future__ import annotations

from collections.abc import Iterable

from ctxscope.core.model import Category, ObservedCompaction, ScopeHeader
from ctxscope.core.snapshot import (
    Fate,
    MessageView,
    RequestDetail,
    RequestRecord,
    ScopeSnapshot,
    ScopeTotals,
    SessionSnapshot,
    Stage,
    StageRun,
    SummaryMarker,
    Thresholds,
)
from ctxscope.core.tokens import ScriptBreakdown, breakdown
from ctxscope.tui.messages import Mode, SnapshotUpdated, TailStatus

HOSTILE = (
    "[bold red]x[/] [/path] [link=http://evil]y[/link] [unbalanced \x1b[31mRED\x1b[0m "
    "\x1b]8;;http://evil\x07osc\x1b]8;;\x07 cr\rbel\x07nul\x00 zw\u200bsp rlo\u202eevil\u202c end"
)
"""Every kind of hostile text a log may carry."""

THRESHOLDS = Thresholds(budget=400_000, trigger=320_000, target=240_000, limit=1_000_000)


def records(
    count: int,
    *,
    scope_id: str = "main",
    growth: int = 9_000,
    thresholds: Thresholds = THRESHOLDS,
    summary_every: int = 0,
    tool: str = "Read",
) -> list[RequestRecord]:
    """``count`` request records of a scope that grows by ``growth`` tokens a call."""
    out: list[RequestRecord] = []
    sent = 20_000
    stored = 20_000
    messages = 3
    for i in range(count):
        stored += growth
        sent += growth
        messages += 2
        stages = [StageRun(Stage.ARTIFACTS, 1, 1_200)] if i % 3 == 0 else []
        summary = None
        if summary_every and i and i % summary_every == 0:
            freed = sent - thresholds.target // 2
            summary = SummaryMarker(
                request_index=i, tokens_before=sent, tokens_after=sent - freed, tokens_freed=freed,
                tokens_summarised=freed + 1_900, summary_tokens=1_900, recent_kept_tokens=40_000,
                recent_kept_messages=12, summary_text=f"Summary at {i}: decided to read chapter {i}.\n"
                "User asked for all 40 chapters. " + HOSTILE,
            )
            stages.append(StageRun(Stage.SUMMARIZE, messages - 12, freed))
            sent -= freed
        elif sent > thresholds.trigger:
            freed = sent - thresholds.target
            stages.append(StageRun(Stage.CLEAR_TOOL_RESULTS, 4, freed))
            sent -= freed
        calibrated = int(sent * 1.18)
        out.append(
            RequestRecord(
                scope_id=scope_id,
                index=i,
                message_count=messages,
                stored_tokens=stored,
                sent_tokens=sent,
                calibrated_tokens=calibrated,
                reported_tokens=int(sent * 1.2) if i % 2 == 0 else None,
                reported_cached_tokens=int(sent * 0.9) if i % 2 == 0 else None,
                cached_prefix_tokens=int(sent * 0.85),
                stages=tuple(stages),
                summary=summary,
                over_limit=False,
                refused=False,
                fate_counts={Fate.KEPT: messages - 4, Fate.CLEARED: 4} if stages else {Fate.KEPT: messages},
                by_category={
                    Category.SYSTEM: 3_000,
                    Category.TOOL_DEFINITIONS: 9_000,
                    Category.USER: 2_000,
                    Category.ASSISTANT: sent // 10,
                    Category.TOOL_RESULTS: sent - sent // 10 - 14_000,
                },
                by_tool={tool: (sent - 14_000) * 3 // 4, "Bash": (sent - 14_000) // 4},
                model="claude-opus-4-6",
            )
        )
    return out


def scope(
    count: int,
    *,
    scope_id: str = "main",
    parent: str | None = None,
    label: str = "",
    observed: Iterable[ObservedCompaction] = (),
    **kwargs: object,
) -> ScopeSnapshot:
    recs = records(count, scope_id=scope_id, **kwargs)  # type: ignore[arg-type]
    return ScopeSnapshot(
        header=ScopeHeader(scope_id, session_id="4d5611e5", parent_id=parent, model="claude-opus-4-6",
                           label=label),
        thresholds=THRESHOLDS,
        records=tuple(recs),
        observed=tuple(observed),
        stored_messages=recs[-1].message_count if recs else 0,
        calibration_factor=1.18,
        totals=ScopeTotals().extended(recs),
    )


def session(*scopes: ScopeSnapshot, bad_lines: dict[str, int] | None = None) -> SessionSnapshot:
    return SessionSnapshot(
        source="/logs/session.jsonl",
        format="ctxscope",
        session_id="4d5611e5",
        scopes={s.header.scope_id: s for s in scopes},
        bad_lines=bad_lines or {},
    )


def detail(record: RequestRecord, count: int | None = None, *, preview: str = "") -> RequestDetail:
    """A detail with ``count`` messages (default: the record's message count)."""
    n = record.message_count if count is None else count
    kinds = ("text", "call Read", "result", "dom_snapshot")
    fates = (Fate.KEPT, Fate.CLEARED, Fate.KEPT, Fate.TRIMMED, Fate.SUMMARISED, Fate.DROPPED)
    messages = tuple(
        MessageView(
            index=i,
            role=("system", "user", "assistant", "tool")[min(i, 1 + i % 3)],
            kind=kinds[i % len(kinds)],
            tokens=0 if fates[i % len(fates)] in (Fate.DROPPED, Fate.SUMMARISED) else 100 + i % 900,
            stored_tokens=100 + i % 900,
            fate=fates[i % len(fates)],
            preview=preview or f"message {i}: reading chapter {i % 40} of the book",
        )
        for i in range(n)
    )
    return RequestDetail(record=record, messages=messages, by_script=script_breakdown())


def script_breakdown() -> ScriptBreakdown:
    return breakdown("Hello world, reading files. Привет, мир! 你好世界 " * 50)


def update(snapshot: SessionSnapshot, *, done: bool = True, mode: Mode = Mode.OFFLINE,
           generation: int = 0) -> SnapshotUpdated:
    size = 3_158_801
    return SnapshotUpdated(
        snapshot, TailStatus(mode, bytes_read=size if done else size // 3, size=size, done=done,
                             path="/logs/session.jsonl"),
        generation,
    )


# -- generated ctxscope-format logs (real text: Python standard-library sources) ------------------

def _stdlib_texts() -> list[str]:
    import json
    import pathlib
    import textwrap

    root = pathlib.Path(json.__file__).resolve().parents[1]
    names = ("textwrap.py", "shlex.py", "glob.py", "fnmatch.py", "string.py", "bisect.py", "heapq.py",
             "queue.py", "sched.py", "colorsys.py", "calendar.py", "csv.py")
    texts = [(root / name).read_text(encoding="utf-8") for name in names if (root / name).exists()]
    return texts or [textwrap.__doc__ or "text " * 4000]


def write_turns(
    writer: object, start: int, count: int, *, scope: str = "main", hostile: bool = False
) -> None:
    """Append ``count`` tool rounds (a call, a file read of real source, a model call) to a log."""
    from ctxscope.core.model import text_block, tool_call, tool_result

    texts = _stdlib_texts()
    log = writer  # a SessionLogWriter
    for i in range(start, start + count):
        body = texts[i % len(texts)][: 6_000 + (i * 997) % 6_000]
        if hostile and i % 3 == 0:
            body = HOSTILE + "\n" + body
        call_id = f"call-{scope}-{i}"
        log.message("assistant", [text_block(f"Reading file {i}."),  # type: ignore[attr-defined]
                                  tool_call(call_id, "Read", f'{{"path": "src/file_{i}.py"}}')], scope=scope)
        log.message("tool", [tool_result(call_id, body, name="Read")], scope=scope)  # type: ignore[attr-defined]
        log.request(scope=scope, model="claude-opus-4-6")  # type: ignore[attr-defined]


def write_session(path: object, turns: int = 12, *, subagent_turns: int = 0, hostile: bool = False,
                  limit: int = 40_000, budget: int = 24_000, bad_line: bool = False) -> None:
    """A ctxscope-format session: a brief, then ``turns`` tool rounds; optionally a sub-agent."""
    from ctxscope.core.logformat import SessionLogWriter

    with SessionLogWriter.create(path) as log:  # type: ignore[arg-type]
        log.session(session_id="gen-0001", model="claude-opus-4-6", context_limit=limit, budget=budget,
                    label="main agent")
        log.message("system", "You are a careful coding agent. " * 20)
        log.message("user", "Read every file under src/ and summarise what each does."
                    + (" " + HOSTILE if hostile else ""))
        write_turns(log, 0, turns, hostile=hostile)
        if bad_line:
            log.stream.write(b'{"t": "message", "role": 7\n{not json\n')
            log.stream.flush()
        if subagent_turns:
            log.session(scope="sub-1", session_id="gen-0001", parent="main", model="claude-haiku-4-5",
                        context_limit=limit, budget=budget, label=HOSTILE if hostile else "read the tests")
            log.message("user", "Read the tests and list what they cover.", scope="sub-1")
            write_turns(log, 0, subagent_turns, scope="sub-1", hostile=hostile)
