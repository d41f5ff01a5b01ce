"""The psychologist's tool loop (ADR decision 2).

Each iteration is one metered LLM call with the three tools offered and some tool demanded.
The tools validate; the stop rule here ends the loop only on an accepted batch, and otherwise
the loop ends at the tier's M iterations or as soon as the metered cost passes its budget. A
rejected batch is not an error of the loop: its reasons go back as the tool result and the
model corrects itself on the next turn.

Never run inside a database transaction: every iteration waits on the network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from psychologist.evidence import HypothesisDraft
from psychologist.llm.service import complete
from psychologist.llm.types import (
    LLMError,
    LLMOutputInvalid,
    LLMRequest,
    LLMResponse,
    LLMUnavailable,
    Message,
    Usage,
)
from psychologist.prompt import AnalysisContext, offline_context, opening_message, system_blocks
from psychologist.schemas import PSYCHOLOGIST_TOOLS
from psychologist.tools import ToolOutcome, tool_run

NUDGE = "Use the tools: finish by calling emit_hypotheses with the whole batch."


@dataclass(frozen=True)
class IterationReport:
    iteration: int
    tools: tuple[str, ...]
    outcome: str  # accepted | rejected | read | no_tool
    cost_micro_usd: int  # so far, this run


@dataclass
class LoopResult:
    drafts: tuple[HypothesisDraft, ...] = ()
    failure: str = ""  # "" | no_valid_batch | budget_exceeded | provider_unavailable | …
    detail: str = ""
    retryable: bool = False
    iterations: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_micro_usd: int = 0
    provider: str = ""
    model: str = ""

    @property
    def ok(self) -> bool:
        return not self.failure


Progress = Callable[[IterationReport], None]


def loop_run(*, context: AnalysisContext, on_iteration: Progress) -> LoopResult:
    return _ToolLoop(context, on_iteration).run()


def stop_rule(outcomes: list[ToolOutcome]) -> tuple[HypothesisDraft, ...] | None:
    """The loop ends only on a batch that `emit_hypotheses` accepted."""
    return next((o.drafts for o in outcomes if o.kind == "accepted"), None)


class _ToolLoop:
    def __init__(self, context: AnalysisContext, on_iteration: Progress) -> None:
        self.context = context
        self.tier = context.tier
        self.on_iteration = on_iteration
        self.system = system_blocks(context)
        self.facts = offline_context(context)
        self.messages = [Message(role="user", content=opening_message(context))]
        self.result = LoopResult()
        self.last_rejection = ""

    def run(self) -> LoopResult:
        while self.result.iterations < self.tier.max_iterations:
            self.result.iterations += 1
            try:
                response = complete(request=self._request())
            except LLMError as exc:
                return self._provider_failed(exc)
            self._meter(response)
            outcomes = self._tools(response)
            drafts = stop_rule(outcomes)
            self._report(response, outcomes)
            if drafts is not None:
                self.result.drafts = drafts
                return self.result
            if self.result.cost_micro_usd > self.tier.budget_micro_usd:
                spent, budget = self.result.cost_micro_usd, self.tier.budget_micro_usd
                return self._failed("budget_exceeded", f"spent {spent} of {budget} micro-USD")
            self._continue(response, outcomes)
        return self._failed(
            "no_valid_batch", f"no valid batch after {self.tier.max_iterations} iterations"
        )

    def _request(self) -> LLMRequest:
        session = self.context.session
        return LLMRequest(
            agent=self.tier.agent,
            system_blocks=self.system,
            messages=list(self.messages),
            tools=PSYCHOLOGIST_TOOLS,
            tool_choice="any",
            max_tokens=self.tier.max_tokens,
            context=self.facts,
            session_id=str(session.pk),
            opaque_user_id=self.context.opaque_user_id,
        )

    def _tools(self, response: LLMResponse) -> list[ToolOutcome]:
        outcomes = []
        for call in response.tool_calls:
            outcome = tool_run(call, context=self.context)
            outcomes.append(outcome)
            if outcome.kind == "accepted":
                break  # the batch is recorded; later calls of this turn are moot
            if outcome.kind == "rejected":
                self.last_rejection = outcome.result.content
        return outcomes

    def _meter(self, response: LLMResponse) -> None:
        usage = self.result.usage
        self.result.usage = Usage(
            input_tokens=usage.input_tokens + response.usage.input_tokens,
            output_tokens=usage.output_tokens + response.usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens + response.usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens + response.usage.cache_write_tokens,
        )
        self.result.cost_micro_usd += response.cost_micro_usd
        self.result.provider, self.result.model = response.provider, response.model

    def _report(self, response: LLMResponse, outcomes: list[ToolOutcome]) -> None:
        kinds = {outcome.kind for outcome in outcomes}
        outcome = next((k for k in ("accepted", "rejected", "read") if k in kinds), "no_tool")
        self.on_iteration(
            IterationReport(
                iteration=self.result.iterations,
                tools=tuple(call.name for call in response.tool_calls[: len(outcomes)]),
                outcome=outcome,
                cost_micro_usd=self.result.cost_micro_usd,
            )
        )

    def _continue(self, response: LLMResponse, outcomes: list[ToolOutcome]) -> None:
        calls = tuple(response.tool_calls[: len(outcomes)])
        # An assistant turn may not be empty: a reply without text or tools is kept as a marker.
        text = response.text if response.text or calls else "(no tool call)"
        self.messages.append(Message(role="assistant", content=text, tool_calls=calls))
        results = tuple(outcome.result for outcome in outcomes)
        self.messages.append(
            Message(role="user", content="" if results else NUDGE, tool_results=results)
        )

    def _provider_failed(self, exc: LLMError) -> LoopResult:
        if isinstance(exc, LLMOutputInvalid) and exc.response is not None:
            self._meter(exc.response)
        retryable = isinstance(exc, LLMUnavailable)
        code = "provider_unavailable" if retryable else "provider_error"
        result = self._failed(code, f"{exc.code}: {exc.detail}"[:200])
        result.retryable = retryable
        return result

    def _failed(self, failure: str, detail: str) -> LoopResult:
        if self.last_rejection:
            # Field paths and event ids only: the reasons never quote what the model wrote.
            reasons = self.last_rejection.split("\n", 1)[-1].replace("\n", " ")
            detail = f"{detail}; last rejection: {reasons}"
        self.result.failure = failure
        self.result.detail = detail
        return self.result
