"""Tool rounds by call id: which message holds a call and which its result.

Both the session (:class:`~ctxscope.core.session.Scope`) and the pipeline's ledger
(:mod:`ctxscope.core.pipeline.state`) index a scope's tool rounds here, and both forget them the
same way when their messages are released (:meth:`ToolRounds.forget`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .model import BlockKind, Message, ToolRound


class ToolRounds:
    """A scope's tool rounds by call id, in the order their calls were first seen."""

    __slots__ = ("_rounds",)

    def __init__(self) -> None:
        self._rounds: dict[str, ToolRound] = {}

    def __len__(self) -> int:
        return len(self._rounds)

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._rounds

    def __getitem__(self, call_id: str) -> ToolRound:
        return self._rounds[call_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rounds)

    def get(self, call_id: str) -> ToolRound | None:
        return self._rounds.get(call_id)

    def values(self) -> Iterable[ToolRound]:
        return self._rounds.values()

    def called(self, call_id: str, index: int, name: str = "") -> None:
        """A call in message ``index`` (a reused id starts a new round)."""
        self._rounds[call_id] = ToolRound(call_id, index, None, name)

    def answered(self, call_id: str, index: int) -> ToolRound | None:
        """A result in message ``index``; returns the round as it was (None: no call seen)."""
        known = self._rounds.get(call_id)
        if known is not None:
            self._rounds[call_id] = ToolRound(call_id, known.call_index, index, known.name)
        return known

    def add(self, found: ToolRound) -> None:
        self._rounds[found.call_id] = found

    def forget(self, released: Iterable[Message], stop: int) -> None:
        """Forget the rounds of ``released`` messages (all before ``stop``) whose call was released
        and whose result has arrived; a call still waiting for its result stays known."""
        rounds = self._rounds
        for message in released:
            for block in message.blocks:
                call_id = block.call_id
                if call_id and (block.kind is BlockKind.TOOL_CALL or block.kind is BlockKind.TOOL_RESULT):
                    found = rounds.get(call_id)
                    if found is not None and found.result_index is not None and found.call_index < stop:
                        del rounds[call_id]


__all__ = ["ToolRounds"]
