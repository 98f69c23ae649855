"""Helpers shared by the pipeline, replay and report tests: history builders and checks."""

from __future__ import annotations

import pydoc
import random
from collections.abc import Iterable, Sequence

import orjson
from ctxscope.core.model import (
    ArtifactKind,
    Block,
    BlockKind,
    Message,
    ScopeHeader,
    Usage,
    text_block,
    tool_call,
    tool_result,
)
from ctxscope.core.pipeline import ContextManager, PipelineConfig, PreparedRequest
from ctxscope.core.session import Session
from ctxscope.core.tokens import get_estimator

EST = get_estimator()

WORDS = {
    "ascii": [
        "the",
        "agent",
        "reads",
        "files",
        "runs",
        "commands",
        "and",
        "keeps",
        "notes",
        "about",
        "every",
        "module",
        "it",
        "opens",
    ],
    "cyrillic": [
        "агент",
        "читает",
        "файлы",
        "запускает",
        "команды",
        "и",
        "ведёт",
        "заметки",
        "о",
        "каждом",
        "модуле",
    ],
    "cjk": list("代理读取文件运行命令并记录每个模块的笔记日本語のテキストも混ぜる"),
    "code": [
        "def",
        "x",
        "(",
        ")",
        ":",
        "return",
        "self",
        ".",
        "y",
        "[",
        "0",
        "]",
        "+",
        "1",
        ",",
        "{",
        "}",
        "#",
        "noqa",
    ],
}


def text_of(script: str, chars: int, seed: int = 0) -> str:
    """About ``chars`` characters of text in one script, deterministic for a seed."""
    rng = random.Random(f"{script}:{seed}")
    words = WORDS[script]
    sep = "" if script == "cjk" else " "
    out: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(words)
        out.append(word)
        size += len(word) + len(sep)
    return sep.join(out)


def pydoc_html(module: str = "json") -> str:
    """A real HTML page: what pydoc's documentation server serves for a module."""
    return str(pydoc._url_handler(f"get?key={module}", "text/html"))  # type: ignore[attr-defined]


class History:
    """Builds one scope's stored history in a :class:`Session`, with requests."""

    def __init__(self, session: Session | None = None, scope: str = "main", **header: object) -> None:
        self.session = session or Session("test", "ctxscope")
        self.scope_id = scope
        if header:
            self.session.set_header(ScopeHeader(scope, **header))  # type: ignore[arg-type]
        else:
            self.session.scope(scope)
        self.calls = 0

    @property
    def messages(self) -> list[Message]:
        return self.session.scope(self.scope_id).messages

    def add(self, role: str, blocks: Iterable[Block], **kw: object) -> Message:
        return self.session.add_message(role, list(blocks), scope_id=self.scope_id, **kw)  # type: ignore[arg-type]

    def system(self, text: str) -> Message:
        return self.add("system", [text_block(text)])

    def user(self, text: str) -> Message:
        return self.add("user", [text_block(text)])

    def say(self, text: str) -> Message:
        return self.add("assistant", [text_block(text)])

    def round(self, output: str, tool: str = "Read", *, thought: str = "next", path: str = "") -> str:
        self.calls += 1
        call_id = f"{self.scope_id}-c{self.calls}"
        tool_input = orjson.dumps({"path": path or f"src/file_{self.calls}.py"}).decode()
        self.add("assistant", [text_block(thought), tool_call(call_id, tool, tool_input)])
        self.add("tool", [tool_result(call_id, output, name=tool)])
        return call_id

    def parallel(self, outputs: Sequence[str], tool: str = "Grep") -> list[str]:
        ids = []
        blocks: list[Block] = [text_block("several at once")]
        for output in outputs:
            self.calls += 1
            ids.append(f"{self.scope_id}-c{self.calls}")
            blocks.append(tool_call(ids[-1], tool, orjson.dumps({"pattern": output[:10]}).decode()))
        self.add("assistant", blocks)
        self.add("tool", [tool_result(i, o, name=tool) for i, o in zip(ids, outputs, strict=True)])
        return ids

    def artifact(self, kind: ArtifactKind, content: str = "", *, width: int = 0, height: int = 0) -> Message:
        self.calls += 1
        call_id = f"{self.scope_id}-c{self.calls}"
        self.add("assistant", [text_block("look at the page"), tool_call(call_id, "browser", "{}")])
        return self.add(
            "tool",
            [
                tool_result(call_id, "page captured", name="browser"),
                Block(
                    BlockKind.ARTIFACT,
                    content,
                    artifact=kind,
                    width=width,
                    height=height,
                    size_bytes=width * height * 3,
                ),
            ],
        )

    def request(self, usage: Usage | None = None, timestamp: str = "") -> None:
        self.session.add_request(scope_id=self.scope_id, usage=usage, timestamp=timestamp)


def frozen(messages: Sequence[Message]) -> list[tuple[int, str, tuple[Block, ...], int]]:
    """A comparable copy of a stored history (to check it was never changed)."""
    return [(m.index, m.role, m.blocks, id(m)) for m in messages]


def run_manager(
    history: Sequence[Message], config: PipelineConfig, counts: Sequence[int]
) -> list[PreparedRequest]:
    """Prepare a request at each message count with one manager (as an agent would)."""
    manager = ContextManager(config)
    return [manager.prepare(history[:count]) for count in counts]


def pairs_ok(messages: Sequence[Message]) -> bool:
    calls = {b.call_id for m in messages for b in m.blocks if b.kind is BlockKind.TOOL_CALL}
    results = {b.call_id for m in messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT}
    return calls == results


def measured(messages: Sequence[Message]) -> int:
    """Tokens of a materialised request, measured message by message."""
    return sum(m.tokens(EST) for m in messages)
