"""Shared by the tests of the other agents' adapters: where their fixtures are and what a session holds."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ctxscope.core.session import Session

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "agents"


@dataclass(frozen=True)
class Figures:
    """What a read session holds, summed over its scopes."""

    calls: int
    calls_with_usage: int
    prompt_total: int
    output_total: int
    largest_prompt: int | None
    compactions: int
    errors: int


def figures(session: Session) -> Figures:
    requests = [r for scope in session.scopes.values() for r in scope.requests]
    usages = [r.usage for r in requests if r.usage is not None]
    return Figures(
        len(requests),
        len(usages),
        sum(u.prompt_tokens for u in usages),
        sum(u.output_tokens for u in usages),
        max((u.prompt_tokens for u in usages), default=None),
        sum(len(scope.compactions) for scope in session.scopes.values()),
        sum(len(scope.errors) for scope in session.scopes.values()),
    )


def assert_figures(session: Session, **want: object) -> Figures:
    """Check the named :class:`Figures` of a session against an independent count; return them all."""
    got = figures(session)
    assert {name: getattr(got, name) for name in want} == want
    return got
