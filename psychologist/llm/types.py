"""The LLM layer's own types. Providers return these, never SDK objects.

A caller builds an `LLMRequest` (stable system blocks, messages, tools, which tool is forced)
and gets an `LLMResponse` back. `service.complete()` validates a forced tool's input against its
schema and raises `LLMOutputInvalid` otherwise, so a caller only ever sees valid structured
output. The agents' own contracts live with the agents: `sessions_app.engine.agents.schemas`
(Analyst, Narrator, Summarizer) and `psychologist.schemas` (the psychologist's tool loop).

`LLMRequest.context` carries the structured facts the prompt was rendered from. A real model
reads the rendered prompt; the offline engine reads `context` directly (keys in each agent's
offline rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["user", "assistant"]

# Stop reasons a caller must treat as "the model did not really answer" (SPEC §3: a refusal or a
# truncated answer is never read as "no risk").
INCOMPLETE_STOP_REASONS = frozenset({"refusal", "max_tokens", "model_context_window_exceeded"})


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    """The answer to a `ToolCall`, sent back in the next user message (tool loops)."""

    tool_call_id: str
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class Message:
    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class LLMRequest:
    """One call. `tool_choice`: None lets the model decide, "any" demands some tool, any other
    value is the name of the tool the model must call."""

    agent: str
    # The stable prefix — system prompt, rules, profile — in order; cacheable as a whole.
    system_blocks: list[str]
    messages: list[Message]
    tools: list[ToolSpec] = field(default_factory=list)
    tool_choice: str | None = None
    max_tokens: int = 1024
    # Structured facts the prompt was rendered from (turn_count, cbt_focus, phase, locale,
    # recap pairs, last client text, flow step, slots, …).
    context: dict[str, Any] = field(default_factory=dict)
    session_id: str | None = None
    opaque_user_id: str | None = None
    # Per-call bounds over the provider's defaults (the safety check waits seconds, not a
    # minute): seconds per attempt, and retries after the first attempt.
    timeout_seconds: float | None = None
    max_retries: int | None = None

    def tool(self, name: str) -> ToolSpec | None:
        return next((spec for spec in self.tools if spec.name == name), None)


@dataclass(frozen=True)
class Usage:
    """Anthropic semantics: `input_tokens` excludes the cache reads and writes."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total_input_tokens(self) -> int:
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens


@dataclass(frozen=True)
class LLMResponse:
    text: str
    tool_calls: list[ToolCall]
    stop_reason: str
    usage: Usage
    model: str
    provider: str
    latency_ms: int = 0
    cost_micro_usd: int = 0

    @property
    def is_incomplete(self) -> bool:
        return self.stop_reason in INCOMPLETE_STOP_REASONS

    def tool_input(self, name: str) -> dict[str, Any] | None:
        call = next((call for call in self.tool_calls if call.name == name), None)
        return None if call is None else call.input


class LLMError(Exception):
    """Base of every LLM-layer failure. `code` is short, stable and safe to store and log."""

    code = "llm_error"

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code


class LLMUnavailable(LLMError):
    """The provider could not answer, after the bounded retries (rate limit, overload, 5xx,
    timeout, connection failure, a body that is not JSON)."""

    code = "unavailable"


class LLMOutputInvalid(LLMError):
    """The provider answered, but not with what the request demanded. Carries the response so
    its tokens and cost are still metered."""

    code = "output_invalid"

    def __init__(self, detail: str, *, response: LLMResponse | None = None) -> None:
        super().__init__(detail)
        self.response = response
