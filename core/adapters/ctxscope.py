"""ctxscope's own session log format (parsing lives in :mod:`ctxscope.core.logformat`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..logformat import FORMAT_NAME, apply_event, looks_like_ctxscope
from ..session import Session
from .base import Source


class CtxscopeAdapter:
    """ctxscope's own format: each line is one event (see :mod:`ctxscope.core.logformat`)."""

    name: ClassVar[str] = FORMAT_NAME

    def __init__(self, session: Session, source: Source | None = None) -> None:
        self.session = session

    @staticmethod
    def detect(obj: Mapping[str, Any]) -> bool:
        return looks_like_ctxscope(obj)

    def feed(self, obj: dict[str, Any], line: int) -> None:
        apply_event(self.session, obj, line)

    def finish(self) -> None:
        return None


def make_adapter(session: Session, source: Source) -> CtxscopeAdapter:
    return CtxscopeAdapter(session, source)
