"""Stage 3: summarisation only when clearing was not enough, always with a marker; the default
extractive summariser; the optional OpenAI-compatible summariser (against a local server)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from typing import ClassVar

import pytest
from ctxscope.core.model import Block, BlockKind, Message, tool_call, tool_result
from ctxscope.core.pipeline import (
    SUMMARY_HEADER,
    ContextManager,
    ExtractiveSummariser,
    OpenAICompatibleSummariser,
    PipelineConfig,
    SummariserError,
    SummaryRequest,
)
from ctxscope.core.snapshot import Fate, Stage

from .pipeline_support import EST, History, text_of


def msg(index: int, role: str, *blocks: Block) -> Message:
    return Message(index, role, blocks)  # type: ignore[arg-type]


def text(value: str) -> Block:
    return Block(BlockKind.TEXT, value)


FOLDED = [
    msg(1, "user", text("Always write the report in French. The deadline is 14 March.")),
    msg(
        2,
        "assistant",
        text("I decided to use the csv module instead of pandas. It has 3 columns."),
        tool_call("c1", "Bash", json.dumps({"command": "python tools/convert.py data/input.csv"})),
    ),
    msg(
        3,
        "tool",
        tool_result("c1", "Traceback (most recent call last):\nValueError: bad row 17", is_error=True),
    ),
    msg(
        4,
        "assistant",
        text("The conversion failed on row 17, so I will skip malformed rows."),
        tool_call("c2", "Read", json.dumps({"path": "src/report/render.py"})),
    ),
    msg(5, "tool", tool_result("c2", "def render(rows):\n    return rows\n")),
]


def test_extractive_keeps_instructions_decisions_paths_commands_errors_numbers() -> None:
    summary = ExtractiveSummariser()(SummaryRequest("", FOLDED, 1, 2000, EST))
    assert "Always write the report in French. The deadline is 14 March." in summary
    assert "decided to use the csv module instead of pandas" in summary
    assert "src/report/render.py" in summary and "data/input.csv" in summary
    assert "Bash python tools/convert.py data/input.csv" in summary
    assert "ValueError: bad row 17" in summary
    assert "row 17" in summary
    assert summary == ExtractiveSummariser()(SummaryRequest("", FOLDED, 1, 2000, EST))


def test_extractive_merges_the_previous_summary() -> None:
    first = ExtractiveSummariser()(SummaryRequest("", FOLDED[:2], 1, 2000, EST))
    second = ExtractiveSummariser()(SummaryRequest(first, FOLDED[2:], 3, 2000, EST))
    assert "Always write the report in French" in second
    assert "ValueError: bad row 17" in second
    # A free-text previous summary (say, from a model) is carried over too.
    third = ExtractiveSummariser()(SummaryRequest("The user wants French output.", FOLDED[2:], 3, 2000, EST))
    assert "The user wants French output." in third


def test_extractive_is_capped() -> None:
    many = [
        msg(
            i,
            "user" if i % 3 == 0 else "assistant",
            text(f"Step {i}: I will update file src/m{i}.py " + text_of("ascii", 400, i)),
        )
        for i in range(1, 400)
    ]
    summary = ExtractiveSummariser()(SummaryRequest("", many, 1, 2000, EST))
    assert EST.count(summary) <= 2000
    assert "Step 399" in summary  # the newest items survive the cap
    small = ExtractiveSummariser()(SummaryRequest("", many, 1, 300, EST))
    assert EST.count(small) <= 300


def long_conversation(turns: int) -> History:
    """Many user turns of short messages: nothing for stage 2 to clear, so stage 3 must act."""
    history = History()
    history.user("Plan the offsite. Constraints: budget 4,000 EUR, vegetarian lunch.")
    for k in range(turns):
        history.user(f"Turn {k}: " + text_of("ascii", 1_500, seed=k))
        history.say(f"I will note item {k} in notes/offsite.md. " + text_of("ascii", 1_500, seed=k + 1000))
    return history


def test_summary_only_when_clearing_was_not_enough_and_leaves_a_marker() -> None:
    history = long_conversation(60)
    manager = ContextManager(PipelineConfig(hard_limit=50_000, budget=20_000))
    markers = []
    for count in range(2, len(history.messages) + 1, 2):
        prepared = manager.prepare(history.messages[:count])
        assert prepared.sent_tokens <= 20_000
        if prepared.summary is not None:
            markers.append(prepared)
    assert markers
    prepared = markers[0]
    marker = prepared.summary
    assert marker is not None
    assert [run.stage for run in prepared.stages] == [Stage.SUMMARIZE]
    assert marker.tokens_freed == marker.tokens_before - marker.tokens_after > 0
    assert marker.tokens_before > 20_000 >= marker.tokens_after
    assert marker.tokens_after == prepared.sent_tokens
    assert marker.summary_tokens <= 2000 + 64
    assert marker.recent_kept_messages > 0 and 0 < marker.recent_kept_tokens < marker.tokens_after
    # The summary follows the first message; the folded messages are marked summarised.
    assert prepared.messages[0].index == 0
    assert prepared.messages[1].blocks[0].kind is BlockKind.SUMMARY
    assert prepared.messages[1].blocks[0].text.startswith(SUMMARY_HEADER)
    assert "budget 4,000 EUR" not in prepared.messages[1].text  # the first message is kept, not summarised
    assert Fate.SUMMARISED in prepared.fates
    kept = sum(1 for fate in prepared.fates if fate is not Fate.SUMMARISED) - 1
    assert kept == marker.recent_kept_messages
    # Later summaries merge the previous one.
    if len(markers) > 1:
        later = markers[1].summary
        assert later is not None and "Turn 0" in later.summary_text


def test_summarise_off_falls_back_to_turn_fitting() -> None:
    history = long_conversation(40)
    manager = ContextManager(PipelineConfig(hard_limit=50_000, budget=20_000, summarise=False))
    prepared = manager.prepare(history.messages)
    assert prepared.summary is None
    assert [run.stage for run in prepared.stages] == [Stage.TRIM_TURNS]
    assert prepared.sent_tokens <= 20_000


class _Handler(http.server.BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, object]]] = []
    status = 200

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).received.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        payload = json.dumps(
            {"choices": [{"message": {"role": "assistant", "content": "MODEL SUMMARY: plan the offsite."}}]}
        )
        data = payload.encode() if type(self).status == 200 else b"{}"
        self.send_response(type(self).status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def server() -> Iterator[str]:
    _Handler.received = []
    _Handler.status = 200
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def test_openai_compatible_summariser_against_a_local_server(server: str) -> None:
    summariser = OpenAICompatibleSummariser(server, "local-model", api_key="k")
    out = summariser(SummaryRequest("earlier", FOLDED, 1, 500, EST))
    assert out == "MODEL SUMMARY: plan the offsite."
    (call,) = _Handler.received
    assert call["path"] == "/v1/chat/completions"
    assert call["auth"] == "Bearer k"
    body = call["body"]
    assert isinstance(body, dict) and body["model"] == "local-model" and body["max_tokens"] == 500
    assert "ValueError: bad row 17" in body["messages"][1]["content"]
    # In the pipeline, its text becomes the summary.
    history = long_conversation(60)
    config = PipelineConfig(hard_limit=50_000, budget=20_000, summariser=summariser)
    prepared = ContextManager(config).prepare(history.messages)
    assert prepared.summary is not None
    assert "MODEL SUMMARY" in prepared.summary.summary_text


def test_a_failing_summariser_falls_back_to_fitting(server: str) -> None:
    _Handler.status = 500
    summariser = OpenAICompatibleSummariser(server, "local-model", timeout=5)
    with pytest.raises(SummariserError):
        summariser(SummaryRequest("", FOLDED, 1, 500, EST))
    history = long_conversation(40)
    prepared = ContextManager(
        PipelineConfig(hard_limit=50_000, budget=20_000, summariser=summariser)
    ).prepare(history.messages)
    assert prepared.summary is None
    assert [run.stage for run in prepared.stages] == [Stage.TRIM_TURNS]
    unreachable = OpenAICompatibleSummariser("http://127.0.0.1:9/v1", "m", timeout=2)
    with pytest.raises(SummariserError):
        unreachable(SummaryRequest("", FOLDED, 1, 500, EST))
