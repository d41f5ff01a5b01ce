"""The offline provider: a deterministic, rule-based engine for every agent (SPEC §3, §6).

The leaf knows no agent. Each app registers the rules of its own agents at start-up
(`AppConfig.ready()`): the dialogue engine its Analyst, Narrator and Summarizer, the
psychologist its own. Rules read `LLMRequest.context` (see each agent module for its keys)
instead of the rendered prompt, and answer through the same forced tool a model would use, so
callers cannot tell the difference in shape. Same input, same output: no clock, no randomness.
Tokens are estimated (about four characters a token); the cost is zero.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from psychologist.llm.budget import estimate_tokens
from psychologist.llm.types import LLMError, LLMRequest, LLMResponse, ToolCall, Usage

PROVIDER = "offline"
MODEL = "offline-rules-v1"
# SPEC §3 labels offline output wherever it is shown: `LLMProviderName(response.provider).label`
# reads "Offline engine".

Rules = Callable[[dict[str, Any]], dict[str, Any]]

_AGENTS: dict[str, tuple[str, Rules]] = {}


def offline_agent_register(agent: str, *, tool: str, rules: Rules) -> None:
    """Serve `agent` offline: `rules(context)` returns the input of the forced `tool`."""
    _AGENTS[agent] = (tool, rules)


class OfflineProvider:
    name = PROVIDER

    def __init__(self, *, model: str = MODEL) -> None:
        self.model = model

    def complete(self, request: LLMRequest) -> LLMResponse:
        if request.agent not in _AGENTS:
            raise LLMError(
                f"the offline engine has no rules for agent {request.agent!r}", code="unsupported"
            )
        tool, rules = _AGENTS[request.agent]
        output = rules(dict(request.context))
        encoded = json.dumps(output, ensure_ascii=False, sort_keys=True)
        call_id = "offline_" + hashlib.sha256(encoded.encode()).hexdigest()[:16]
        return LLMResponse(
            text="",
            tool_calls=[ToolCall(id=call_id, name=tool, input=output)],
            stop_reason="tool_use",
            usage=Usage(
                input_tokens=_input_tokens(request), output_tokens=estimate_tokens(encoded)
            ),
            model=self.model,
            provider=PROVIDER,
            cost_micro_usd=0,
        )


def _input_tokens(request: LLMRequest) -> int:
    parts = [*request.system_blocks, *(message.content for message in request.messages)]
    parts.append(json.dumps(request.context, ensure_ascii=False, sort_keys=True, default=str))
    return sum(estimate_tokens(part) for part in parts)
