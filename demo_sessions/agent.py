"""A scripted agent (no LLM) that runs the real pipeline before every model call and logs it.

Each :class:`ScriptedAgent` is one scope (the main agent or a sub-agent). It keeps its stored
history in a :class:`~ctxscope.core.session.Session` (the same structure a reader builds), writes
every message to a ctxscope-format log, and before each model call asks its
:class:`~ctxscope.core.pipeline.ContextManager` for the request to send. The request line it logs
carries the usage measured from what the pipeline actually sent (prompt tokens counted on the sent
messages, cached tokens from the pipeline's prefix comparison), or a context-length error when the
guard refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import orjson
from ctxscope.core.logformat import SessionLogWriter
from ctxscope.core.model import (
    Block,
    ErrorKind,
    RequestError,
    ScopeHeader,
    Usage,
    text_block,
    tool_call,
    tool_result,
)
from ctxscope.core.pipeline import ContextManager, PipelineConfig, PreparedRequest
from ctxscope.core.session import Session
from ctxscope.core.tokens import get_estimator


@dataclass
class Transcript:
    """The log being written and the in-memory session mirroring it."""

    log: SessionLogWriter
    session: Session = field(default_factory=lambda: Session("", "ctxscope"))
    session_id: str = "demo"


class ScriptedAgent:
    """One scope's agent: stores messages, runs the pipeline before each call, logs everything.

    Args:
        transcript: Where to write.
        scope: The scope id.
        config: The pipeline configuration the agent runs with (limits come from it).
        parent: The parent scope for a sub-agent.
        label: A human name for the scope.
        model: The model name logged.
        usage_estimator: Estimator that measures the "provider-reported" prompt tokens (default:
            the pipeline's own, so calibration stays at 1).
    """

    def __init__(
        self,
        transcript: Transcript,
        scope: str,
        config: PipelineConfig,
        *,
        parent: str | None = None,
        label: str = "",
        model: str = "demo-model",
        usage_estimator: str | None = None,
    ) -> None:
        self.transcript = transcript
        self.scope = scope
        self.model = model
        self.header = ScopeHeader(
            scope,
            session_id=transcript.session_id,
            parent_id=parent,
            model=model,
            context_limit=config.tier_limit or config.hard_limit,
            working_budget=config.budget,
            label=label,
        )
        transcript.log.session(
            scope=scope, session_id=transcript.session_id, parent=parent, model=model,
            context_limit=self.header.context_limit, budget=self.header.working_budget, label=label,
        )
        transcript.session.set_header(self.header)
        self.manager = ContextManager(config, header=self.header, scope_id=scope)
        self.usage_estimator = get_estimator(usage_estimator or config.estimator)
        self.last_usage: Usage | None = None
        self.calls = 0
        self.requests: list[PreparedRequest] = []

    @property
    def history(self) -> Sequence[object]:
        return self.transcript.session.scope(self.scope).messages

    def _store(self, role: str, blocks: Sequence[Block]) -> None:
        assert role in ("system", "user", "assistant", "tool")
        self.transcript.log.message(role, blocks, scope=self.scope)  # type: ignore[arg-type]
        self.transcript.session.add_message(role, blocks, scope_id=self.scope)  # type: ignore[arg-type]

    def system(self, text: str) -> None:
        self._store("system", [text_block(text)])

    def user(self, text: str) -> None:
        self._store("user", [text_block(text)])

    def say(self, text: str) -> None:
        """An assistant message without tool calls (typically the answer to the last request)."""
        self._store("assistant", [text_block(text)])

    def call_model(self) -> PreparedRequest:
        """Run the pipeline over the stored history and log the model call it makes."""
        scope = self.transcript.session.scope(self.scope)
        prepared = self.manager.prepare(scope.messages, self.last_usage)
        if prepared.refused:
            error = RequestError(ErrorKind.CONTEXT_LENGTH, prepared.refusal or "")
            self.transcript.log.request(scope=self.scope, model=self.model, error=error)
            self.transcript.session.add_request(scope_id=self.scope, model=self.model, error=error)
            self.last_usage = None
        else:
            prompt = sum(message.tokens(self.usage_estimator) for message in prepared.messages)
            cached = min(prompt, prepared.cached_prefix_tokens)
            usage = Usage(prompt, cached_prompt_tokens=cached, output_tokens=120)
            self.transcript.log.request(scope=self.scope, model=self.model, usage=usage)
            self.transcript.session.add_request(scope_id=self.scope, model=self.model, usage=usage)
            self.last_usage = usage
        self.requests.append(prepared)
        return prepared

    def assistant(self, text: str, calls: Sequence[tuple[str, Mapping[str, object]]] = ()) -> list[str]:
        """An assistant message with text and tool calls; returns the calls' ids."""
        blocks: list[Block] = [text_block(text)] if text else []
        ids: list[str] = []
        for tool, tool_input in calls:
            self.calls += 1
            call_id = f"{self.scope}-call-{self.calls}"
            ids.append(call_id)
            blocks.append(tool_call(call_id, tool, orjson.dumps(dict(tool_input)).decode()))
        self._store("assistant", blocks)
        return ids

    def results(self, outputs: Sequence[tuple[str, str, str]]) -> None:
        """One tool message carrying the results ``(call_id, tool, output)`` of earlier calls."""
        self._store("tool", [tool_result(call_id, output, name=tool) for call_id, tool, output in outputs])

    def tool_round(
        self,
        thought: str,
        tool: str,
        tool_input: dict[str, object],
        output: str,
        artifacts: Sequence[Block] = (),
    ) -> PreparedRequest:
        """The model answered with a tool call; the tool ran; the agent calls the model again.

        Args:
            thought: The assistant's text before the call.
            tool: The tool's name.
            tool_input: Its input (logged as JSON).
            output: The tool's text output.
            artifacts: Artifact blocks the tool returned with it (DOM snapshots, screenshots).
        """
        (call_id,) = self.assistant(thought, [(tool, tool_input)])
        self._store("tool", [tool_result(call_id, output, name=tool), *artifacts])
        return self.call_model()
