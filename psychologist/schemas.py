"""The psychologist's tool loop (`psychologist.toolloop`): two read helpers and the mandatory
emit; a batch is validated by the loop, which answers a rejection as the tool result.
"""

from __future__ import annotations

from psychologist.llm.types import ToolSpec

EMIT_HYPOTHESES_TOOL = "emit_hypotheses"
FETCH_EVENT_TOOL = "fetch_event"
SEARCH_EVENTS_TOOL = "search_events"

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
