"""The scripted provider: replays recorded responses in order (tests, evaluation scenarios).

A recording is an `LLMResponse` or a dict shaped like one:
    {"agent": "analyst",                      # optional: asserts which agent is calling
     "text": "", "stop_reason": "tool_use",
     "tool_calls": [{"id": "t1", "name": "analyst_output", "input": {...}}],
     "usage": {"input_tokens": 10, "output_tokens": 5}, "cost_micro_usd": 0}
Install a script with `use_script(responses)`; every call takes the next recording and a call
past the end raises `ScriptExhausted`. `RECORDING_SCHEMA` is that shape as a JSON schema: the
provider checks every dict recording against it on replay, and the sandbox's start form checks
a pasted script with it before a session exists.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import jsonschema

from psychologist.llm.types import LLMError, LLMRequest, LLMResponse, ToolCall, Usage

PROVIDER = "scripted"
MODEL = "scripted"


RECORDING_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "agent": {"type": "string", "minLength": 1},
        "text": {"type": "string"},
        "stop_reason": {"type": "string", "minLength": 1},
        "model": {"type": "string", "minLength": 1},
        "tool_calls": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string", "minLength": 1},
                    "input": {"type": "object"},
                },
                "required": ["name", "input"],
                "additionalProperties": False,
            },
        },
        "usage": {
            "type": "object",
            "properties": {
                name: {"type": "integer", "minimum": 0} for name in Usage.__dataclass_fields__
            },
            "additionalProperties": False,
        },
        "cost_micro_usd": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}
_RECORDING_VALIDATOR = jsonschema.Draft202012Validator(RECORDING_SCHEMA)


def recording_errors(recording: Any) -> list[str]:
    """Every way `recording` departs from RECORDING_SCHEMA, as short messages; [] if none.
    The messages name the place and the rule, never the offending value (it may be long)."""
    errors = sorted(_RECORDING_VALIDATOR.iter_errors(recording), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {_rule(e)}" for e in errors]


def _rule(error: jsonschema.ValidationError) -> str:
    if error.validator == "type":
        return f"must be of type {error.validator_value}"
    if error.validator == "required":
        return f"needs {', '.join(map(repr, error.validator_value))}"
    if error.validator == "additionalProperties":
        allowed = ", ".join(sorted(error.schema.get("properties", {})))
        return f"has keys other than {allowed}"
    if error.validator == "minimum":
        return f"must be at least {error.validator_value}"
    if error.validator == "minLength":
        return "must not be empty"
    return f"breaks the rule {error.validator!r}"


class ScriptExhausted(LLMError):
    code = "script_exhausted"


class ScriptedProvider:
    name = PROVIDER

    def __init__(self, responses: Iterable[LLMResponse | dict[str, Any]], *, model: str = MODEL):
        self.model = model
        self._recordings = list(responses)
        self._next = 0
        self._lock = threading.Lock()
        self.requests: list[LLMRequest] = []

    @property
    def remaining(self) -> int:
        return len(self._recordings) - self._next

    def complete(self, request: LLMRequest) -> LLMResponse:
        return self.replay_next(request, model=self.model)

    def bound_to(self, model: str) -> BoundScript:
        """This script, answering as `model` (the agent's binding names the model)."""
        return BoundScript(self, model)

    def replay_next(self, request: LLMRequest, *, model: str) -> LLMResponse:
        with self._lock:
            if self._next >= len(self._recordings):
                raise ScriptExhausted(
                    f"the script has no response left for call {self._next + 1} "
                    f"(agent {request.agent!r}); it holds {len(self._recordings)}"
                )
            recording = self._recordings[self._next]
            self._next += 1
            self.requests.append(request)
            number = self._next
        return self._replay(recording, request, number, model)

    def _replay(
        self,
        recording: LLMResponse | dict[str, Any],
        request: LLMRequest,
        number: int,
        model: str,
    ) -> LLMResponse:
        if isinstance(recording, LLMResponse):
            return recording
        errors = recording_errors(recording)
        if errors:
            raise LLMError(f"script call {number}: {'; '.join(errors[:3])}", code="bad_script")
        expected = recording.get("agent")
        if expected and expected != request.agent:
            raise LLMError(
                f"script call {number} was recorded for agent {expected!r}, "
                f"but {request.agent!r} is calling",
                code="script_mismatch",
            )
        return response_from_dict(recording, model=model)


class BoundScript:
    name = PROVIDER

    def __init__(self, script: ScriptedProvider, model: str) -> None:
        self.script = script
        self.model = model

    def complete(self, request: LLMRequest) -> LLMResponse:
        return self.script.replay_next(request, model=self.model)


def response_from_dict(data: dict[str, Any], *, model: str = MODEL) -> LLMResponse:
    calls = [
        ToolCall(id=str(call.get("id") or f"scripted_{i}"), name=call["name"], input=call["input"])
        for i, call in enumerate(data.get("tool_calls") or [], start=1)
    ]
    usage = data.get("usage") or {}
    unknown = set(usage) - set(Usage.__dataclass_fields__)
    if unknown:
        raise LLMError(f"unknown usage keys in recording: {sorted(unknown)}", code="bad_script")
    return LLMResponse(
        text=str(data.get("text") or ""),
        tool_calls=calls,
        stop_reason=str(data.get("stop_reason") or ("tool_use" if calls else "end_turn")),
        usage=Usage(**{key: int(value) for key, value in usage.items()}),
        model=str(data.get("model") or model),
        provider=PROVIDER,
        cost_micro_usd=int(data.get("cost_micro_usd") or 0),
    )


_active: ScriptedProvider | None = None


def active_script() -> ScriptedProvider:
    if _active is None:
        raise LLMError(
            "no script is installed: wrap the calls in use_script(...)", code="no_script"
        )
    return _active


@contextmanager
def use_script(responses: Iterable[LLMResponse | dict[str, Any]]) -> Iterator[ScriptedProvider]:
    """Install a script for the duration of the block: every agent bound to the scripted
    provider replays from it, in call order."""
    global _active
    previous, _active = _active, ScriptedProvider(responses)
    try:
        yield _active
    finally:
        _active = previous
