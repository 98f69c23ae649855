"""Cost in the recorded lens: per request on the records, per scope and session in the summary,
the agent's own recorded cost beside it (Aider, OpenCode, Cline), and the JSON report's ``cost``.

Independent counts: the agents' recorded costs are read from the raw fixture files with a regex
or a plain JSON walk (not through the adapters); ctxscope's estimate is checked against
:func:`~ctxscope.core.pricing.session_cost` over the session model's requests and against
hand-computed list prices.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ctxscope.core.analysis import CostFigures, analyse
from ctxscope.core.model import Block, BlockKind, Usage
from ctxscope.core.pricing import PRICES_TAKEN, session_cost
from ctxscope.core.reader import open_log
from ctxscope.core.session import Session

from ..conftest import shared_path
from .agent_fixtures import FIXTURES

AIDER = FIXTURES / "aider" / "afi-core.aider.chat.history.md"
OPENCODE = FIXTURES / "opencode" / "verbose-flag.export.json"
CLINE = FIXTURES / "cline" / "tasks" / "1764600000000" / "ui_messages.json"


def _walk(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [value, *(o for v in value.values() for o in _walk(v))]
    if isinstance(value, list):
        return [o for v in value for o in _walk(v)]
    return []


def raw_recorded_costs(path: Path) -> list[float]:
    """The costs the agent wrote into the file, in order, read without the adapters."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        return [float(c) for c in re.findall(r"Cost: \$([\d.]+) message", text)]
    doc = json.loads(text)
    if "opencode" in path.relative_to(FIXTURES).parts:  # not the checkout's own path
        return [o["cost"] for o in _walk(doc) if o.get("type") == "step-finish"]
    infos = [json.loads(o["text"]) for o in doc if o.get("say") == "api_req_started"]
    return [i["cost"] for i in infos if "cost" in i]


@pytest.mark.parametrize("path", [AIDER, OPENCODE, CLINE], ids=["aider", "opencode", "cline"])
def test_the_agents_recorded_cost_reaches_the_records_and_the_summary(path: Path) -> None:
    want = raw_recorded_costs(path)
    assert want, "the fixture records costs"
    session = open_log(path)
    analysis = analyse(session)
    records = [r for scope in analysis.snapshot("recorded").scopes.values() for r in scope.records]
    # (as a multiset: an Aider file's chat sessions become scopes in another order than the file's)
    got = sorted(r.recorded_cost for r in records if r.recorded_cost is not None)
    assert got == pytest.approx(sorted(want))
    cost = analysis.summary().cost
    assert cost.recorded_dollars == pytest.approx(sum(want))
    assert cost.recorded_requests == len(want)
    # ctxscope's own estimate stays beside it: the same as the session-wide total of the model.
    total = session_cost(r for scope in session.scopes.values() for r in scope.requests)
    assert cost.dollars == pytest.approx(total.dollars)
    assert (cost.priced_requests, cost.unpriced_requests) == (total.priced, total.unpriced)


def priced_session() -> Session:
    """Two calls of claude-sonnet-4-5 ($3 in, $15 out, $3.75 write, $0.30 read per million), one
    call of a model without a price, one call without usage."""
    session = Session("t", "claude-code")
    session.add_message("user", [Block(BlockKind.TEXT, "hello")])
    session.add_request(model="claude-sonnet-4-5", usage=Usage(100_000, 60_000, 20_000, 1_000))
    session.add_request(model="claude-sonnet-4-5", usage=Usage(200_000, 0, 0, 0))
    session.add_request(model="llama-9", usage=Usage(50_000))
    session.add_request(model="claude-sonnet-4-5")
    return session


def test_per_request_and_scope_cost_at_list_prices() -> None:
    analysis = analyse(priced_session())
    scope = analysis.snapshot("recorded").scopes["main"]
    first = (20_000 * 3.0 + 20_000 * 3.75 + 60_000 * 0.30 + 1_000 * 15.0) / 1e6
    assert [r.cost for r in scope.records] == pytest.approx([first, 0.6, None, None])
    assert [r.priced for r in scope.records] == [True, True, False, True]
    assert scope.totals.cost == pytest.approx(first + 0.6)
    assert scope.totals.unpriced == 1
    summary = analysis.summary()
    assert summary.scopes[0].cost == CostFigures(
        pytest.approx(first + 0.6), 2, 1, ("llama-9",), None, 0  # type: ignore[arg-type]
    )


def test_report_json_carries_a_cost_object_marked_estimate() -> None:
    summary = analyse(priced_session()).summary("pipeline")
    out = summary.to_json(per_request=True)
    scope = out["scopes"][0]
    # The pipeline lens is a what-if; its cost is still the recorded calls' bill.
    assert scope["cost"]["estimate"] is True and scope["cost"]["prices_taken"] == PRICES_TAKEN
    assert scope["cost"]["usd"] == pytest.approx(0.168 + 0.6)
    assert scope["cost"]["unpriced_models"] == ["llama-9"] and scope["cost"]["recorded_usd"] is None
    assert out["cost"] == scope["cost"]  # one scope: the session is that scope
    assert [p["cost_usd"] for p in scope["per_request"]][1:] == [0.6, None, None]


def test_session_cost_sums_the_scopes_of_a_real_log() -> None:
    path = shared_path(
        "real-logs", "claude-code", "spotter-4d5611e5-autocompact",
        "4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
    )
    session = open_log(path, text_cap=None)
    summary = analyse(session).summary()
    assert len(summary.scopes) > 1
    total = session_cost(r for scope in session.scopes.values() for r in scope.requests)
    assert summary.cost.dollars == pytest.approx(total.dollars)
    assert summary.cost.dollars == pytest.approx(sum(s.cost.dollars for s in summary.scopes))
    assert summary.cost.recorded_dollars is None  # Claude Code records no cost of its own
