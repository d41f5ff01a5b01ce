"""The structured-output tools of the dialogue agents, and their validation on receipt."""

from __future__ import annotations

from typing import Any

import jsonschema

from psychologist.llm.types import (
    ANALYST_TOOL,
    EMIT_HYPOTHESES_TOOL,
    FETCH_EVENT_TOOL,
    NARRATOR_TOOL,
    SEARCH_EVENTS_TOOL,
    SUMMARY_TOOL,
    LLMOutputInvalid,
    LLMResponse,
    ToolSpec,
)

SUMMARY_MAX_CHARS = 1000

_STRING_LIST = {"type": "array", "items": {"type": "string"}}

ANALYST_OUTPUT = ToolSpec(
    name=ANALYST_TOOL,
    description=(
        "Report the analysis of the client's latest answers: the next 1-2 questions in the "
        "third person, the observation, risk, pacing, mood and the proposed flow move."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "questions": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "observation": {"type": ["string", "null"]},
            "crisis_signal": {"type": "boolean"},
            "suggested_insight": {"type": ["string", "null"]},
            "session_complete": {"type": "boolean"},
            "mood_delta": {"enum": ["declining", "stable", "improving"]},
            "state_after": {"type": "string"},
            "slots_updated": {"type": "object"},
        },
        "required": [
            "questions",
            "crisis_signal",
            "session_complete",
            "mood_delta",
            "state_after",
            "slots_updated",
        ],
        "additionalProperties": False,
    },
)

NARRATOR_OUTPUT = ToolSpec(
    name=NARRATOR_TOOL,
    description="Return the question cards, the insight and the closing line for the client.",
    input_schema={
        "type": "object",
        "properties": {
            "cards": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer", "minimum": 1},
                        "text": {"type": "string", "minLength": 1},
                        "type": {"enum": ["open"]},
                    },
                    "required": ["id", "text", "type"],
                    "additionalProperties": False,
                },
                "maxItems": 2,
            },
            "insight": {"type": ["string", "null"]},
            "closing_line": {"type": ["string", "null"]},
        },
        "required": ["cards"],
        "additionalProperties": False,
    },
)

SUMMARY_OUTPUT = ToolSpec(
    name=SUMMARY_TOOL,
    description="Summarise the whole session for the record.",
    input_schema={
        "type": "object",
        "properties": {
            "summary": {"type": "string", "maxLength": SUMMARY_MAX_CHARS},
            "key_insights": _STRING_LIST,
            "cbt_techniques_used": _STRING_LIST,
        },
        "required": ["summary", "key_insights", "cbt_techniques_used"],
        "additionalProperties": False,
    },
)

EMIT_HYPOTHESES = ToolSpec(
    name=EMIT_HYPOTHESES_TOOL,
    description=(
        "Record the whole batch of hypotheses about the session, once. Every hypothesis cites "
        "the ids of the events that support it. If any hypothesis is invalid the WHOLE batch "
        "is rejected and the reasons come back as this tool's result: correct them and call "
        "it again with the complete batch."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "hypotheses": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "target": {
                            "enum": ["client", "analyst", "narrator", "flow"],
                            "description": "Whom the hypothesis is about.",
                        },
                        "statement": {"type": "string", "minLength": 1, "maxLength": 1000},
                        "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
                        "evidence": {
                            "type": "array",
                            "items": {"type": "integer"},
                            "minItems": 1,
                            "description": "Ids of events of this session's log.",
                        },
                        "termination_analysis": {
                            "type": ["string", "null"],
                            "description": "How the way the session ended bears on this "
                            "hypothesis; required in at least one hypothesis after an abnormal "
                            "end.",
                        },
                    },
                    "required": ["target", "statement", "confidence", "evidence"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["hypotheses"],
        "additionalProperties": False,
    },
)

FETCH_EVENT = ToolSpec(
    name=FETCH_EVENT_TOOL,
    description="Read one event of this session's log in full: payload and message text.",
    input_schema={
        "type": "object",
        "properties": {"event_id": {"type": "integer"}},
        "required": ["event_id"],
        "additionalProperties": False,
    },
)

SEARCH_EVENTS = ToolSpec(
    name=SEARCH_EVENTS_TOOL,
    description=(
        "Find events of this session's log whose type or message text contains `query` (case "
        "insensitive); `type` narrows to event types starting with it. At most 20 results."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "type": {"type": "string"},
        },
        "additionalProperties": False,
    },
)

PSYCHOLOGIST_TOOLS = [FETCH_EVENT, SEARCH_EVENTS, EMIT_HYPOTHESES]

TOOLS_BY_AGENT = {
    "analyst": ANALYST_OUTPUT,
    "narrator": NARRATOR_OUTPUT,
    "summarizer": SUMMARY_OUTPUT,
}


def tool_input_errors(spec: ToolSpec, data: Any) -> list[str]:
    """Every schema violation of `data`, as short messages that can go back to the model."""
    validator = jsonschema.Draft202012Validator(spec.input_schema)
    errors = sorted(validator.iter_errors(data), key=lambda error: list(error.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors]


def check_forced_tool(*, spec: ToolSpec, response: LLMResponse) -> None:
    """Raise `LLMOutputInvalid` unless the response called `spec` with schema-valid input."""
    data = response.tool_input(spec.name)
    if data is None:
        raise LLMOutputInvalid(f"the model did not call {spec.name}", response=response)
    errors = tool_input_errors(spec, data)
    if errors:
        raise LLMOutputInvalid(f"{spec.name}: " + "; ".join(errors[:5]), response=response)
